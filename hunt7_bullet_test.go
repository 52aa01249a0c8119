package collide_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
)

var h7Seed = flag.Uint64("h7seed", 0, "seed for TestBulletMutationsOracle (0: a random one)")

// h7Key names a contact for the events: its two ids and its two parts.
type h7Key struct {
	a, b   collide.BodyID
	pa, pb int
}

func h7KeyOf(c collide.Contact) h7Key { return h7Key{c.A, c.B, c.PartA, c.PartB} }

// h7Replica is one world driven by the same calls as the reference world:
// Workers 4, a Clone, or a snapshot restored into a fresh world.
type h7Replica struct {
	name string
	w    *collide.World
}

// TestBulletMutationsOracle steps random worlds of every kind of body with
// bullets while, between Steps, bodies are teleported, given new shapes,
// filters, kinds and sensor flags, removed and added (slots reused), and
// checks every Step against oracles of its own:
//
//   - the discrete contacts are exactly the narrow phase's, per part pair
//     (narrowphase.Collide, or CollideParts for composites), over all
//     live pairs that the filters and kinds allow (brute force);
//   - a pair with a bullet that moved since the last Step and no discrete
//     contact has one swept contact if dense sampling of the motion finds
//     an overlap deeper than eps, and a swept contact names parts that
//     overlap (to eps) just after its TOI;
//   - Began and Ended are the differences of the two Steps' contact lists
//     by (ids, parts), computed with maps, in contact order;
//   - between the mutations and the Step, QueryAABB, QueryPoint and
//     RayCast answer for the world as mutated (brute force through the
//     narrow phase), bullets' swept proxies notwithstanding;
//   - Workers 1 and 4, Clones and snapshots restored into fresh worlds
//     (taken between mutations, with bullets in motion) give the same
//     contacts, events and StateHash for the rest of the run.
func TestBulletMutationsOracle(t *testing.T) {
	seed := oracleSeed(t, *h7Seed, "h7seed")
	scenes := 150
	if testing.Short() {
		scenes = 25
	}
	var swept, disc int
	for _, base := range []float64{0, 1e6} {
		for sc := range scenes {
			r := rand.New(rand.NewPCG(seed, math.Float64bits(base)+uint64(sc)))
			s, d := h7Scene(t, r, base, fmt.Sprintf("seed %d base %g scene %d", seed, base, sc))
			swept, disc = swept+s, disc+d
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d swept and %d discrete contacts checked", swept, disc)
	if swept < 20 || disc < 100 {
		t.Fatalf("only %d swept and %d discrete contacts: the test proves little", swept, disc)
	}
}

func h7Scene(t *testing.T, r *rand.Rand, base float64, name string) (nswept, ndisc int) {
	t.Helper()
	origin := collide.V(base, -base)
	ref := collide.NewWorld(collide.Config{Workers: 1})
	reps := []*h7Replica{{name: "workers 4", w: collide.NewWorld(collide.Config{Workers: 4})}}
	defer func() {
		ref.Close()
		for _, rp := range reps {
			rp.w.Close()
		}
	}()
	pos := func(span float64) collide.Vec2 {
		return origin.Add(collide.V(woDyad(r, -span, span), woDyad(r, -span, span)))
	}
	angle := func() float64 {
		if r.IntN(2) == 0 {
			return float64(r.IntN(4)) * math.Pi / 2
		}
		return r.Float64() * 2 * math.Pi
	}
	all := func(what string, fn func(w *collide.World) error) {
		t.Helper()
		if err := fn(ref); err != nil {
			t.Fatalf("%s: %s: %v", name, what, err)
		}
		for _, rp := range reps {
			if err := fn(rp.w); err != nil {
				t.Fatalf("%s: %s on %s: %v", name, what, rp.name, err)
			}
		}
	}
	var bodies []*ebBody
	add := func(bullet bool) {
		b := &ebBody{s: woShape(r), filter: woFilters[r.IntN(len(woFilters))], sensor: r.IntN(6) == 0, bullet: bullet}
		b.static = !b.bullet && r.IntN(3) == 0
		b.p1, b.a1 = pos(8), angle()
		b.p0, b.a0 = b.p1, b.a1
		def := collide.BodyDef{Shape: b.s, Position: b.p1, Angle: b.a1, Filter: b.filter, Sensor: b.sensor, Bullet: b.bullet}
		if b.static {
			def.Kind = collide.Static
		}
		id, err := ref.Add(def)
		if err != nil {
			t.Fatalf("%s: Add: %v", name, err)
		}
		for _, rp := range reps {
			if id2, err := rp.w.Add(def); err != nil || id2 != id {
				t.Fatalf("%s: Add on %s: %v, %v; want %v", name, rp.name, id2, err, id)
			}
		}
		b.id = id
		bodies = append(bodies, b)
	}
	for i := range 14 {
		add(i < 5)
	}
	var prev []collide.Contact
	steps := 6
	for step := range steps + 1 {
		if step > 0 {
			// Mutations since the last Step.
			for range 1 + r.IntN(8) {
				b := bodies[r.IntN(len(bodies))]
				switch k := r.IntN(20); {
				case k < 8: // move (a bullet's motion is swept)
					if b.bullet {
						b.p1 = b.p1.Add(collide.V(woDyad(r, -10, 10), woDyad(r, -10, 10)))
						if r.IntN(3) == 0 {
							b.a1 += r.Float64()*2 - 1
						}
					} else {
						b.p1, b.a1 = pos(8), angle()
					}
					all("SetTransform", func(w *collide.World) error { return w.SetTransform(b.id, b.p1, b.a1) })
				case k < 10: // a move in two calls
					d := collide.V(woDyad(r, -4, 4), woDyad(r, -4, 4))
					b.p1 = b.p1.Add(d)
					all("Move", func(w *collide.World) error { return w.Move(b.id, d) })
				case k < 12:
					b.s = woShape(r)
					all("SetShape", func(w *collide.World) error { return w.SetShape(b.id, b.s) })
				case k < 14:
					b.filter = woFilters[r.IntN(len(woFilters))]
					all("SetFilter", func(w *collide.World) error { return w.SetFilter(b.id, b.filter) })
				case k < 15:
					b.sensor = !b.sensor
					all("SetSensor", func(w *collide.World) error { return w.SetSensor(b.id, b.sensor) })
				case k < 17:
					b.static = !b.static
					kind := collide.Dynamic
					if b.static {
						kind = collide.Static
					}
					all("SetKind", func(w *collide.World) error { return w.SetKind(b.id, kind) })
				case k < 19:
					i := slices.Index(bodies, b)
					bodies = slices.Delete(bodies, i, i+1)
					all("Remove", func(w *collide.World) error { return w.Remove(b.id) })
					add(b.bullet)
				default:
					// A copy of the world as it stands, mid-mutation.
					var c *collide.World
					what := "clone"
					switch r.IntN(3) {
					case 0:
						c = ref.Clone()
					default:
						data, err := ref.MarshalBinary()
						if err != nil {
							t.Fatalf("%s: MarshalBinary: %v", name, err)
						}
						workers := 1 + 3*r.IntN(2)
						c = collide.NewWorld(collide.Config{Workers: workers})
						if err := c.UnmarshalBinary(data); err != nil {
							t.Fatalf("%s: UnmarshalBinary: %v", name, err)
						}
						what = fmt.Sprintf("snapshot (workers %d)", workers)
					}
					if c.StateHash() != ref.StateHash() {
						t.Fatalf("%s step %d: %s StateHash differs at once", name, step, what)
					}
					reps = append(reps, &h7Replica{name: fmt.Sprintf("%s before step %d", what, step), w: c})
				}
			}
		}
		h7CheckQueries(t, r, ref, bodies, origin, fmt.Sprintf("%s before step %d", name, step))
		all("Step", func(w *collide.World) error { w.Step(); return nil })
		var got, began, ended []collide.Contact
		for c := range ref.Contacts() {
			got = append(got, c)
		}
		for c := range ref.Began() {
			began = append(began, c)
		}
		for c := range ref.Ended() {
			ended = append(ended, c)
		}
		for _, rp := range reps {
			var g, bg, en []collide.Contact
			for c := range rp.w.Contacts() {
				g = append(g, c)
			}
			for c := range rp.w.Began() {
				bg = append(bg, c)
			}
			for c := range rp.w.Ended() {
				en = append(en, c)
			}
			if !slices.Equal(g, got) || !slices.Equal(bg, began) || !slices.Equal(en, ended) {
				t.Fatalf("%s step %d: %s differs from the reference:\ncontacts %v\nwant     %v\nbegan %v\nwant  %v\nended %v\nwant  %v",
					name, step, rp.name, g, got, bg, began, en, ended)
			}
			if rp.w.StateHash() != ref.StateHash() {
				t.Fatalf("%s step %d: %s StateHash differs", name, step, rp.name)
			}
		}
		// Events: the differences by key.
		pk, ck := map[h7Key]bool{}, map[h7Key]bool{}
		for _, c := range prev {
			pk[h7KeyOf(c)] = true
		}
		for _, c := range got {
			if ck[h7KeyOf(c)] {
				t.Fatalf("%s step %d: two contacts %v", name, step, h7KeyOf(c))
			}
			ck[h7KeyOf(c)] = true
		}
		var wantBegan, wantEnded []collide.Contact
		for _, c := range got {
			if !pk[h7KeyOf(c)] {
				wantBegan = append(wantBegan, c)
			}
		}
		for _, c := range prev {
			if !ck[h7KeyOf(c)] {
				wantEnded = append(wantEnded, c)
			}
		}
		if !slices.Equal(began, wantBegan) || !slices.Equal(ended, wantEnded) {
			t.Fatalf("%s step %d: began %v\nwant  %v\nended %v\nwant  %v", name, step, began, wantBegan, ended, wantEnded)
		}
		prev = got
		// Contacts against brute force.
		byPair := map[[2]collide.BodyID][]collide.Contact{}
		for _, c := range got {
			byPair[[2]collide.BodyID{c.A, c.B}] = append(byPair[[2]collide.BodyID{c.A, c.B}], c)
		}
		seen := 0
		for i, a0 := range bodies {
			for _, b := range bodies[i+1:] {
				a := a0
				if ebSlot(a.id) > ebSlot(b.id) {
					a, b = b, a
				}
				cs := byPair[[2]collide.BodyID{a.id, b.id}]
				seen += len(cs)
				desc := func() string {
					return fmt.Sprintf("%s step %d: A %v %v (bullet %v static %v) from %v/%v to %v/%v, B %v %v (bullet %v static %v) from %v/%v to %v/%v",
						name, step, a.id, a.s, a.bullet, a.static, a.p0, a.a0, a.p1, a.a1, b.id, b.s, b.bullet, b.static, b.p0, b.a0, b.p1, b.a1)
				}
				if (a.static && b.static) || !a.filter.Accepts(b.filter) {
					if len(cs) != 0 {
						t.Fatalf("%s: the filters or kinds forbid the pair, contacts %+v", desc(), cs)
					}
					continue
				}
				var want []collide.Contact
				xa, xb := collide.NewTransform(a.p1, a.a1), collide.NewTransform(b.p1, b.a1)
				if a.s.Kind().Convex() && b.s.Kind().Convex() {
					if m, ok := narrowphase.Collide(a.s, xa, b.s, xb); ok {
						want = append(want, collide.Contact{A: a.id, B: b.id, Manifold: m, Sensor: a.sensor || b.sensor})
					}
				} else {
					narrowphase.CollideParts(a.s, xa, b.s, xb, func(pa, pb int, m narrowphase.Manifold) bool {
						want = append(want, collide.Contact{A: a.id, B: b.id, Manifold: m, PartA: pa, PartB: pb, Sensor: a.sensor || b.sensor})
						return true
					})
				}
				if len(want) > 0 {
					ndisc += len(want)
					if !slices.Equal(cs, want) {
						t.Fatalf("%s: contacts %+v, want the narrow phase's %+v", desc(), cs, want)
					}
					continue
				}
				if !a.moved() && !b.moved() {
					if len(cs) != 0 {
						t.Fatalf("%s: no overlap and no motion, contacts %+v", desc(), cs)
					}
					continue
				}
				eps := 1e-9 + 8*0x1p-52*math.Abs(base)
				p := ebPair{a: a, b: b, pa: -1, pb: -1}
				on, sure := p.with(-eps).onset(96)
				switch {
				case len(cs) > 1 || (len(cs) == 1 && !cs[0].Swept):
					t.Fatalf("%s: contacts %+v, want at most one swept contact", desc(), cs)
				case sure && len(cs) == 0:
					t.Fatalf("%s: they overlap at %v of the motion; no contact", desc(), on)
				case len(cs) == 1:
					nswept++
					c := cs[0]
					if c.Sensor != (a.sensor || b.sensor) || !(c.TOI >= 0 && c.TOI <= 1) || c.Manifold.Depth != 0 || c.Manifold.Count != 1 {
						t.Fatalf("%s: swept contact %+v", desc(), c)
					}
					if pp := (ebPair{a: a, b: b, pa: c.PartA, pb: c.PartB, margin: eps}); !pp.overlapsAfter(c.TOI) {
						t.Fatalf("%s: swept contact at TOI %v names parts %d, %d, which do not overlap just after it", desc(), c.TOI, c.PartA, c.PartB)
					}
				}
			}
		}
		if seen != len(got) {
			t.Fatalf("%s step %d: %d contacts, %d of live pairs: %v", name, step, len(got), seen, got)
		}
		for _, b := range bodies {
			b.p0, b.a0 = b.p1, b.a1
		}
	}
	return nswept, ndisc
}

// h7CheckQueries asks ref, as mutated since the last Step, which bodies a
// dyadic box overlaps and a point lies in, and what a ray meets first, and
// compares with a scan of every body through the narrow phase (the
// query filter of any category passes every body).
func h7CheckQueries(t *testing.T, r *rand.Rand, ref *collide.World, bodies []*ebBody, origin collide.Vec2, name string) {
	t.Helper()
	all := collide.Filter{Mask: math.MaxUint32}
	c := origin.Add(collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8)))
	h := collide.V(woDyad(r, 0.0625, 4), woDyad(r, 0.0625, 4))
	box := collide.AABB{Min: c.Sub(h), Max: c.Add(h)}
	qs := must[collide.Shape](t)(collide.NewAABB(h.X, h.Y))
	var want, got []collide.BodyID
	for _, b := range bodies {
		if narrowphase.Overlap(qs, collide.Transform{Pos: c}, b.s, collide.NewTransform(b.p1, b.a1)) {
			want = append(want, b.id)
		}
	}
	_ = ref.QueryAABB(box, all, func(id collide.BodyID) bool { got = append(got, id); return true })
	if !sameIDSet(got, want) {
		t.Fatalf("%s: QueryAABB(%v) = %v, want %v", name, box, got, want)
	}
	want, got = want[:0], got[:0]
	for _, b := range bodies {
		if narrowphase.ContainsPoint(b.s, collide.NewTransform(b.p1, b.a1), c) {
			want = append(want, b.id)
		}
	}
	_ = ref.QueryPoint(c, all, func(id collide.BodyID) bool { got = append(got, id); return true })
	if !sameIDSet(got, want) {
		t.Fatalf("%s: QueryPoint(%v) = %v, want %v", name, c, got, want)
	}
	th := r.Float64() * 2 * math.Pi
	dir := collide.V(math.Cos(th), math.Sin(th))
	o := c.Sub(dir.Scale(12))
	var best collide.RayHit
	found := false
	for _, b := range bodies {
		rh, ok := narrowphase.RayCast(b.s, collide.NewTransform(b.p1, b.a1), o, dir, 30)
		if ok && (!found || rh.Distance < best.Distance || (rh.Distance == best.Distance && b.id < best.Body)) {
			best = collide.RayHit{Body: b.id, Part: rh.Part, Point: rh.Point, Normal: rh.Normal, Distance: rh.Distance}
			found = true
		}
	}
	gh, gok, err := ref.RayCast(o, dir, 30, all)
	if err != nil || gok != found || (found && gh != best) {
		t.Fatalf("%s: RayCast(%v, %v) = %+v, %v, %v; want %+v, %v", name, o, dir, gh, gok, err, best, found)
	}
}
