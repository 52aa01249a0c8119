package collide_test

import (
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/shape"
)

var eventsSeed = flag.Uint64("eventsseed", 0, "seed for TestExactEvents (0: a random one)")

// evBody is the test's record of a body.
type evBody struct {
	s              collide.Shape
	pos            collide.Vec2
	angle          float64
	filter         collide.Filter
	sensor, static bool
	bullet         bool
}

func (b *evBody) xf() collide.Transform { return collide.NewTransform(b.pos, b.angle) }

// evKey names a contact: the bodies and the parts.
type evKey struct {
	a, b   collide.BodyID
	pa, pb int
}

func evKeyOf(c collide.Contact) evKey { return evKey{c.A, c.B, c.PartA, c.PartB} }

// evState is what a snapshot holds for the test: the world's bytes and a
// clone, the model, and the contacts of the last Step.
type evState struct {
	data   []byte
	clone  *collide.World
	bodies map[collide.BodyID]evBody
	last   map[evKey]collide.Contact
}

// TestExactEvents runs random operations (Add, Remove of bodies in
// contact, Move, SetTransform, SetFilter, SetSensor, SetKind, SetShape,
// bullets moving, and restores of earlier snapshots through
// UnmarshalBinary, a fresh world and Clone) on worlds of every kind of body
// at 0, 1e6 and 1e12, and checks each Step: the discrete contacts are exactly
// the part pairs whose interiors meet (float signed distance where it is
// clear by 1e-9, the exact predicate at angle 0 where it is not), Began
// is the set difference of this Step's contacts (per body and part pair)
// minus the previous Step's (or the restored snapshot's), Ended the
// reverse with the contacts as they were, and the stats count them. A
// restored world yields the snapshot's contacts.
func TestExactEvents(t *testing.T) {
	seed := oracleSeed(t, *eventsSeed, "eventsseed")
	t.Logf("seed %d", seed)
	runs, frames := 200, 80
	if oracleShort() {
		runs, frames = 40, 60
	}
	var steps, contacts, began, ended, restores int
	for _, base := range []float64{0, 1e6, 1e12} {
		for run := range runs {
			r := rand.New(rand.NewPCG(seed, math.Float64bits(base)+uint64(run)))
			s, c, b, e, rs := evRun(t, r, base, frames, fmt.Sprintf("base %g run %d", base, run))
			steps, contacts, began, ended, restores = steps+s, contacts+c, began+b, ended+e, restores+rs
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d steps, %d contacts, %d began, %d ended, %d restores", steps, contacts, began, ended, restores)
	if began < 100 || ended < 100 || restores < 10 {
		t.Fatalf("too few events to prove much")
	}
}

func evRun(t *testing.T, r *rand.Rand, base float64, frames int, name string) (nsteps, ncontacts, nbegan, nended, nrestores int) {
	origin := collide.V(base, -base)
	w := collide.NewWorld(collide.Config{Workers: 1 + r.IntN(2)*3})
	bodies := map[collide.BodyID]*evBody{}
	last := map[evKey]collide.Contact{}
	var snaps []evState
	pos := func() collide.Vec2 { return origin.Add(collide.V(woDyad(r, -5, 5), woDyad(r, -5, 5))) }
	angle := func() float64 {
		if r.IntN(3) != 0 {
			return 0
		}
		return r.Float64() * 6
	}
	ids := func() []collide.BodyID {
		s := slices.Collect(maps.Keys(bodies))
		slices.Sort(s)
		return s
	}
	add := func() {
		b := &evBody{s: woShape(r), pos: pos(), angle: angle(), filter: woFilters[r.IntN(len(woFilters))],
			sensor: r.IntN(6) == 0, static: r.IntN(4) == 0, bullet: r.IntN(6) == 0}
		kind := collide.Dynamic
		if b.static {
			kind = collide.Static
		}
		id, err := w.Add(collide.BodyDef{Shape: b.s, Position: b.pos, Angle: b.angle, Filter: b.filter, Sensor: b.sensor, Kind: kind, Bullet: b.bullet})
		if err != nil {
			t.Fatal(err)
		}
		bodies[id] = b
	}
	for range 10 {
		add()
	}
	for frame := range frames {
		var did []string
		for range 1 + r.IntN(4) {
			all := ids()
			if len(all) < 4 {
				add()
				did = append(did, "Add")
				continue
			}
			id := all[r.IntN(len(all))]
			b := bodies[id]
			var err error
			switch k := r.IntN(12); k {
			case 0:
				add()
				did = append(did, "Add")
			case 1:
				err = w.Remove(id)
				delete(bodies, id)
				did = append(did, fmt.Sprintf("Remove(%v)", id))
			case 2, 3, 4:
				d := collide.V(woDyad(r, -1, 1), woDyad(r, -1, 1))
				err = w.Move(id, d)
				b.pos = b.pos.Add(d)
				did = append(did, fmt.Sprintf("Move(%v, %v)", id, d))
			case 5:
				b.pos, b.angle = pos(), angle()
				err = w.SetTransform(id, b.pos, b.angle)
				did = append(did, fmt.Sprintf("SetTransform(%v)", id))
			case 6:
				b.filter = woFilters[r.IntN(len(woFilters))]
				err = w.SetFilter(id, b.filter)
				did = append(did, fmt.Sprintf("SetFilter(%v, %+v)", id, b.filter))
			case 7:
				b.sensor = !b.sensor
				err = w.SetSensor(id, b.sensor)
				did = append(did, fmt.Sprintf("SetSensor(%v)", id))
			case 8:
				b.static = !b.static
				k := collide.Dynamic
				if b.static {
					k = collide.Static
				}
				err = w.SetKind(id, k)
				did = append(did, fmt.Sprintf("SetKind(%v)", id))
			case 9:
				b.s = woShape(r)
				err = w.SetShape(id, b.s)
				did = append(did, fmt.Sprintf("SetShape(%v)", id))
			case 10: // a snapshot
				data, merr := w.MarshalBinary()
				if merr != nil {
					t.Fatal(merr)
				}
				st := evState{data: data, clone: w.Clone(), bodies: map[collide.BodyID]evBody{}, last: maps.Clone(last)}
				for id, b := range bodies {
					st.bodies[id] = *b
				}
				snaps = append(snaps, st)
				did = append(did, "snapshot")
			case 11: // a restore
				if len(snaps) == 0 {
					continue
				}
				st := snaps[r.IntN(len(snaps))]
				how := r.IntN(3)
				switch how {
				case 0:
					err = w.UnmarshalBinary(st.data)
				case 1:
					w = collide.NewWorld(collide.Config{Workers: 1 + r.IntN(2)*3})
					err = w.UnmarshalBinary(st.data)
				default:
					w = st.clone.Clone()
				}
				bodies = map[collide.BodyID]*evBody{}
				for id, b := range st.bodies {
					bodies[id] = &b
				}
				last = maps.Clone(st.last)
				nrestores++
				did = append(did, fmt.Sprintf("restore %d", how))
				// The restored world yields the snapshot's contacts.
				got := map[evKey]collide.Contact{}
				for c := range w.Contacts() {
					got[evKeyOf(c)] = c
				}
				if err == nil && !maps.Equal(got, last) {
					t.Fatalf("%s frame %d: after %v the contacts are %v, the snapshot's %v", name, frame, did, got, last)
				}
			}
			if err != nil {
				t.Fatalf("%s frame %d: %v: %v", name, frame, did, err)
			}
		}
		// Bullets fly: a move since the previous Step.
		for _, id := range ids() {
			if b := bodies[id]; b.bullet && r.IntN(2) == 0 {
				d := collide.V(woDyad(r, -4, 4), woDyad(r, -4, 4))
				if err := w.Move(id, d); err != nil {
					t.Fatal(err)
				}
				b.pos = b.pos.Add(d)
			}
		}
		w.Step()
		nsteps++
		cur := map[evKey]collide.Contact{}
		for c := range w.Contacts() {
			k := evKeyOf(c)
			if _, dup := cur[k]; dup {
				t.Fatalf("%s frame %d: contact %+v twice", name, frame, c)
			}
			cur[k] = c
		}
		ncontacts += len(cur)
		evCheckDiscrete(t, fmt.Sprintf("%s frame %d after %v", name, frame, did), bodies, cur)
		if t.Failed() {
			return
		}
		gotB, gotE := map[evKey]collide.Contact{}, map[evKey]collide.Contact{}
		for c := range w.Began() {
			gotB[evKeyOf(c)] = c
		}
		for c := range w.Ended() {
			gotE[evKeyOf(c)] = c
		}
		wantB, wantE := map[evKey]collide.Contact{}, map[evKey]collide.Contact{}
		for k, c := range cur {
			if _, ok := last[k]; !ok {
				wantB[k] = c
			}
		}
		for k, c := range last {
			if _, ok := cur[k]; !ok {
				wantE[k] = c
			}
		}
		if !maps.Equal(gotB, wantB) {
			t.Fatalf("%s frame %d after %v: Began %v, want %v", name, frame, did, slices.Collect(maps.Keys(gotB)), slices.Collect(maps.Keys(wantB)))
		}
		if !maps.Equal(gotE, wantE) {
			t.Fatalf("%s frame %d after %v: Ended %v, want %v (as they were)", name, frame, did, gotE, wantE)
		}
		if st := w.Stats(); st.Began != len(wantB) || st.Ended != len(wantE) || st.Contacts != len(cur) || st.Bodies != len(bodies) {
			t.Fatalf("%s frame %d: stats %+v, want %d began, %d ended, %d contacts, %d bodies", name, frame, st, len(wantB), len(wantE), len(cur), len(bodies))
		}
		nbegan, nended = nbegan+len(wantB), nended+len(wantE)
		last = cur
	}
	return
}

// evCheckDiscrete checks the discrete contacts of a Step against every
// part pair of every pair the rules allow.
func evCheckDiscrete(t *testing.T, at string, bodies map[collide.BodyID]*evBody, cur map[evKey]collide.Contact) {
	t.Helper()
	ids := slices.Collect(maps.Keys(bodies))
	slices.Sort(ids)
	for i, ia := range ids {
		for _, ib := range ids[i+1:] {
			a, b := bodies[ia], bodies[ib]
			ida, idb := ia, ib
			if ebSlot(ida) > ebSlot(idb) {
				a, b, ida, idb = b, a, idb, ida
			}
			allowed := !(a.static && b.static) && a.filter.Accepts(b.filter)
			xa, xb := a.xf(), b.xf()
			for pa := range a.s.PartCount() {
				for pb := range b.s.PartCount() {
					k := evKey{ida, idb, pa, pb}
					c, got := cur[k]
					if got && c.Swept {
						continue // the bullet oracle checks those
					}
					if !allowed {
						if got {
							t.Fatalf("%s: contact %+v of a pair the rules keep apart", at, c)
						}
						continue
					}
					over, sure := evOverlap(a, xa, pa, b, xb, pb)
					if sure && over != got {
						t.Fatalf("%s: %v %v part %d at %v/%v and %v %v part %d at %v/%v overlap: %v; contact: %v",
							at, ida, a.s, pa, a.pos, a.angle, idb, b.s, pb, b.pos, b.angle, over, got)
					}
				}
			}
		}
	}
	for k := range cur {
		if bodies[k.a] == nil || bodies[k.b] == nil {
			t.Fatalf("%s: contact %+v names a body that is not live", at, k)
		}
	}
}

// evOverlap reports whether part pa of a and part pb of b overlap, and
// whether the answer binds the engine: clear by 1e-9 in float, or exact
// where every number is exact in float (both at angle 0 with no part
// turned by an offset, every coordinate a multiple of 2⁻²⁰ below 2²⁰, so
// that the engine's placement rounds nothing).
func evOverlap(a *evBody, xa collide.Transform, pa int, b *evBody, xb collide.Transform, pb int) (over, sure bool) {
	if a.s.Kind() == shape.KindChain && b.s.Kind() == shape.KindChain {
		return false, true
	}
	sa, ta := a.s.Part(pa, xa)
	sb, tb := b.s.Part(pb, xb)
	if !sa.WorldAABB(ta).Expand(1e-6).Overlaps(sb.WorldAABB(tb).Expand(1e-6)) {
		return false, true
	}
	sd := ebFloatSD(a.s, xa, pa, b.s, xb, pb, xa.Pos)
	if sd < -1e-9 {
		return true, true
	}
	if sd > 1e-9 {
		return false, true
	}
	exact := woOverlaps(ebPart(a.s, xa, pa), ebPart(b.s, xb, pb))
	return exact, a.angle == 0 && b.angle == 0 && evPlain(a.s) && evPlain(b.s) && evDyadic(a) && evDyadic(b)
}

// evDyadic reports whether every coordinate of b (position, part offsets,
// vertices) is a multiple of 2⁻²⁰ below 2²⁰ in magnitude.
func evDyadic(b *evBody) bool {
	ok := func(x float64) bool { return math.Abs(x) < 0x1p20 && x*0x1p20 == math.Trunc(x*0x1p20) }
	okV := func(vs ...collide.Vec2) bool {
		for _, v := range vs {
			if !ok(v.X) || !ok(v.Y) {
				return false
			}
		}
		return true
	}
	if !okV(b.pos) {
		return false
	}
	var local func(s collide.Shape) bool
	local = func(s collide.Shape) bool {
		switch s.Kind() {
		case shape.KindCircle:
			return okV(s.Center()) && ok(s.Radius())
		case shape.KindAABB, shape.KindOBB:
			c := s.Corners()
			return okV(c[:]...)
		case shape.KindPolygon:
			return okV(s.Vertices()...)
		case shape.KindCapsule, shape.KindSegment:
			p0, p1 := s.Segment()
			return okV(p0, p1) && ok(s.Radius())
		case shape.KindChain:
			pts, _ := s.ChainPoints()
			return okV(pts...)
		}
		for _, p := range s.Parts() {
			if !okV(p.Offset.Pos) || !local(p.Shape) {
				return false
			}
		}
		return true
	}
	return local(b.s)
}

// evPlain reports whether s places its parts without rounding: a simple
// shape or chain, or a compound whose parts are not turned.
func evPlain(s collide.Shape) bool {
	if s.Kind() != shape.KindCompound {
		return true
	}
	for _, p := range s.Parts() {
		if p.Offset.Rot != (collide.Transform{}).Rot {
			return false
		}
	}
	return true
}
