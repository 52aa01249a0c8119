package collide_test

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
)

// This file drives several worlds with one long random sequence of every
// operation (Add of every kind of shape, long and closed chains among them;
// Remove, and Add reusing the slots; Move, a zero one too; SetTransform,
// teleports to 1e6..1e12 and back; SetFilter, SetShape, SetSensor and
// SetKind on live bodies; bullets; Steps in a row with nothing moved; bad
// input and stale ids) and checks, after every single mutation and every
// Step, against brute force over a model the test keeps from its own calls:
//
//   - every query (QueryAABB, QueryPoint, QueryShape, RayCast, RayCastAll,
//     CastShape, CastShapeAll, Nearest, NearestWithin) is the narrow phase
//     called on every live body that passes the documented filter, in the
//     documented order with ties to the lower id, with parts and manifolds
//     bit for bit; MoveAndSlide and Depenetrate end overlapping no body
//     beyond rounding;
//   - Step's contacts are narrowphase.Collide (CollideParts per part pair
//     for compounds and chains) over every pair of live bodies the kinds and
//     filters allow, in slot order, bit for bit; a pair with a bullet and no
//     contact has the swept contact its own narrow phase gives for the
//     motions since the last Step (CastEnter, or TimeOfImpactEnter when
//     something turned), whatever the broad phase's boxes; Began and Ended
//     are the two Steps' differences by ids and parts, Ended with the
//     contacts as they were, and a removed body is readable by Body exactly
//     until the Step after its Ended;
//   - worlds of Workers 1, 2 and 4, and clones and snapshots restored into
//     fresh worlds of other worker counts midway (rollbacks of all of them
//     to an earlier snapshot too), give the same contacts, events, query
//     answers and StateHash, bit for bit; a crowd of a thousand bodies, big
//     enough for the parallel narrow phase and broad-phase queries, comes and
//     goes once a run;
//   - bad input is refused with the documented error and changes nothing
//     (StateHash, Len), and a stale id is refused by every call.
//
// The model's places are dyadic (multiples of 1/8) around an origin at 0,
// 1e6 or -1e9, so exact touching and exact ties come up often; groups of
// touching bodies are sent to 1e6..1e300 (beyond float32's range too) and
// back. Where rounding decides (a box edge within rounding of a body in
// the box's frame, a bullet teleported across the float range) either
// answer goes, and two narrow-phase faults not fixed here are kept out
// (see randQuery). About 1.5 s of CPU (0.6 s under -short or -race, with
// no crowd); -h13seed replays a run.

var h13SeedFlag = flag.Uint64("h13seed", 0, "seed for TestHunt13World (0: random seeds)")

// h13Body is the model of one body.
type h13Body struct {
	id                     collide.BodyID
	sh                     collide.Shape
	pos                    collide.Vec2
	angle                  float64
	cat, mask              uint32
	static, sensor, bullet bool
	// prevPos and prevAngle are a bullet's place at the last Step (or at
	// its Add): the start of its sweep.
	prevPos   collide.Vec2
	prevAngle float64
	far       bool // teleported far away; brought back later
}

func (b *h13Body) xf() collide.Transform { return collide.NewTransform(b.pos, b.angle) }

func (b *h13Body) slot() uint32 { return uint32(b.id) }

func (b *h13Body) String() string {
	sh := b.sh.String()
	if pts, closed := b.sh.ChainPoints(); len(pts) > 0 && len(pts) <= 8 {
		sh += fmt.Sprintf("%v closed=%v", pts, closed)
	} else if v := b.sh.Vertices(); len(v) > 0 {
		sh += fmt.Sprintf("%v", v)
	}
	return fmt.Sprintf("{id %#x %s pos (%v, %v) angle %v cat %d mask %#x static=%v sensor=%v bullet=%v prev (%v, %v) %v}",
		uint64(b.id), sh, b.pos.X, b.pos.Y, b.angle, b.cat, b.mask, b.static, b.sensor, b.bullet, b.prevPos.X, b.prevPos.Y, b.prevAngle)
}

// h13Model is what the test knows of the world.
type h13Model struct {
	live []*h13Body
	// removed since the last Step (readable), and removed before it
	// (readable until the next Step)
	dying, dead []*h13Body
	gone        []collide.BodyID
	// the last Step's contacts as the world gave them (checked then)
	contacts []collide.Contact
}

func (m *h13Model) clone() h13Model {
	cp := func(l []*h13Body) []*h13Body {
		out := make([]*h13Body, len(l))
		for i, b := range l {
			c := *b
			out[i] = &c
		}
		return out
	}
	return h13Model{live: cp(m.live), dying: cp(m.dying), dead: cp(m.dead), gone: slices.Clone(m.gone), contacts: slices.Clone(m.contacts)}
}

type h13Run struct {
	t      *testing.T
	r      *rand.Rand
	seed   uint64
	origin collide.Vec2
	size   float64
	worlds []*collide.World
	names  []string
	m      h13Model
	op     int
	trail  []string
	// an earlier frame for rollbacks: its bytes and model
	saved   []byte
	savedM  h13Model
	counts  map[string]int
	short   bool
	crowded bool
}

func (h *h13Run) did(format string, args ...any) {
	h.op++
	h.trail = append(h.trail, fmt.Sprintf("op %d: ", h.op)+fmt.Sprintf(format, args...))
	if len(h.trail) > 12 {
		h.trail = h.trail[1:]
	}
}

func (h *h13Run) fail(format string, args ...any) {
	h.t.Helper()
	h.t.Fatalf("seed %d op %d origin %v: %s\nlast operations:\n  %s\nreplay: go test -run TestHunt13World -h13seed %d .",
		h.seed, h.op, h.origin, fmt.Sprintf(format, args...), strings.Join(h.trail, "\n  "), h.seed)
}

func (h *h13Run) describe(ids ...collide.BodyID) string {
	var sb strings.Builder
	for _, id := range ids {
		if b := h.find(id); b != nil {
			fmt.Fprintf(&sb, "\n    body %v", b)
		} else {
			fmt.Fprintf(&sb, "\n    body %#x: not live", uint64(id))
		}
	}
	return sb.String()
}

func (h *h13Run) find(id collide.BodyID) *h13Body {
	for _, b := range h.m.live {
		if b.id == id {
			return b
		}
	}
	return nil
}

// ---- random input ----

func (h *h13Run) grid(lo, hi float64) float64 {
	n := int((hi - lo) * 8)
	return lo + float64(h.r.IntN(n+1))/8
}

func (h *h13Run) sz() float64 { return h.grid(0.125, 1.5) }

func (h *h13Run) angle() float64 {
	switch h.r.IntN(6) {
	case 0, 1:
		return 0
	case 2:
		return float64(h.r.IntN(4)-2) * math.Pi / 2
	case 3:
		return float64(h.r.IntN(8)) * math.Pi / 4
	}
	return 2 * math.Pi * (h.r.Float64() - 0.5)
}

func (h *h13Run) place() collide.Vec2 {
	return h.origin.Add(collide.V(h.grid(0, h.size), h.grid(0, h.size)))
}

func (h *h13Run) convex() collide.Shape { return randConvex(h.r, h.grid, h.sz) }

// shape returns a random shape of any kind.
func (h *h13Run) shape() collide.Shape {
	r := h.r
	for {
		var sh collide.Shape
		var err error
		switch r.IntN(12) {
		case 0: // compound
			parts := make([]collide.Part, 2+r.IntN(3))
			for i := range parts {
				parts[i] = collide.Part{Shape: h.convex(), Offset: collide.NewTransform(collide.V(h.grid(-1.5, 1.5), h.grid(-1.5, 1.5)), h.angle())}
			}
			sh, err = collide.NewCompound(parts)
		case 1: // concave
			if r.IntN(2) == 0 {
				sh, err = collide.NewConcavePolygon(randStar(r, h.sz))
			} else {
				a, b := h.sz(), h.sz()
				sh, err = collide.NewConcavePolygon([]collide.Vec2{{X: -a, Y: -a}, {X: a + b, Y: -a}, {X: a + b, Y: 0}, {X: 0, Y: 0}, {X: 0, Y: a + b}, {X: -a, Y: a + b}})
			}
		case 2: // a short chain, open or closed
			n := 2 + r.IntN(6)
			pts := make([]collide.Vec2, n)
			closed := n >= 3 && r.IntN(2) == 0
			x := h.grid(-3, -1)
			for i := range pts {
				if closed {
					sn, cs := math.Sincos(2 * math.Pi * float64(i) / float64(n))
					rr := 1 + h.grid(0, 1)
					pts[i] = collide.V(rr*cs, rr*sn)
				} else {
					pts[i] = collide.V(x, h.grid(-1, 1))
					x += h.grid(0.25, 1.5)
				}
			}
			sh, err = collide.NewChain(pts, closed)
		case 3: // now and then a long chain: a zigzag floor or a ring
			if r.IntN(3) != 0 {
				continue
			}
			n := 50 + r.IntN(400)
			pts := make([]collide.Vec2, n)
			closed := r.IntN(3) == 0
			for i := range pts {
				if closed {
					sn, cs := math.Sincos(2 * math.Pi * float64(i) / float64(n))
					rr := h.size/2 + h.grid(0, 0.5)
					pts[i] = collide.V(rr*cs, rr*sn)
				} else {
					pts[i] = collide.V(-h.size/2+float64(i)*h.size/float64(n), h.grid(-0.5, 0.5))
				}
			}
			sh, err = collide.NewChain(pts, closed)
		case 4: // a long thin wall
			sh, err = collide.NewOBB(h.grid(2, h.size/2), h.grid(0.125, 0.25))
		default:
			return h.convex()
		}
		if err == nil {
			return sh
		}
	}
}

var h13BodyFilters = [][2]uint32{{1, math.MaxUint32}, {1, math.MaxUint32}, {2, 2}, {4, 1 | 4}, {1 | 2, 2 | 4}, {8, math.MaxUint32}}

var h13QueryFilters = []collide.Filter{
	{}, {}, {Mask: 2}, {Mask: 8}, {Category: 1, Mask: 4}, {Category: 2, Mask: 2}, {Mask: 4 | 2}, {Category: 8, Mask: math.MaxUint32}, {Category: 4, Mask: 1},
}

func (h *h13Run) queryFilter() collide.Filter {
	f := h13QueryFilters[h.r.IntN(len(h13QueryFilters))]
	switch h.r.IntN(6) {
	case 0, 1:
		if b := h.randLive(); b != nil {
			f.Exclude = b.id
		}
	case 2:
		if len(h.m.gone) > 0 {
			f.Exclude = h.m.gone[h.r.IntN(len(h.m.gone))]
		} else if len(h.m.dying) > 0 {
			f.Exclude = h.m.dying[0].id
		}
	}
	f.SkipSensors = h.r.IntN(3) == 0
	return f
}

func (h *h13Run) randLive() *h13Body {
	if len(h.m.live) == 0 {
		return nil
	}
	return h.m.live[h.r.IntN(len(h.m.live))]
}

// point returns a query point: a body's origin, a vertex of a body's box,
// or a point of the region; never beyond 1e15, where a ray's or a point's
// distance to the region is rounded by more than the region.
func (h *h13Run) point() collide.Vec2 {
	if b := h.randLive(); b != nil && math.Abs(b.pos.X) <= 1e15 && math.Abs(b.pos.Y) <= 1e15 {
		switch h.r.IntN(5) {
		case 0:
			return b.pos
		case 1:
			box := b.sh.WorldAABB(b.xf())
			return collide.V(box.Min.X, box.Max.Y)
		}
	}
	return h.place()
}

// ---- the brute force ----

func h13PairRule(a, b *h13Body) bool {
	return !(a.static && b.static) && a.cat&b.mask != 0 && b.cat&a.mask != 0
}

func h13Passes(f collide.Filter, b *h13Body) bool {
	return queryPasses(f, b.id, b.cat, b.mask, b.sensor)
}

// bySlot returns the live bodies in slot order.
func (h *h13Run) bySlot() []*h13Body {
	l := slices.Clone(h.m.live)
	slices.SortFunc(l, func(a, b *h13Body) int { return cmp.Compare(a.slot(), b.slot()) })
	return l
}

// wantContacts returns the contacts Step must give: every pair of live
// bodies the rules allow, lower slot first, in slot order; per part pair
// for composite shapes; swept for a pair with a bullet and no contact.
func (h *h13Run) wantContacts() []collide.Contact {
	l := h.bySlot()
	// Candidate pairs by a sweep over the boxes along x (grown a little,
	// boxes being only the narrow phase's prefilter here), then every
	// bullet's pairs in full.
	type ent struct {
		box collide.AABB
		i   int
	}
	ents := make([]ent, len(l))
	for i, b := range l {
		box := b.sh.WorldAABB(b.xf())
		e := 1e-9 * (1 + math.Abs(box.Min.X) + math.Abs(box.Min.Y) + math.Abs(box.Max.X) + math.Abs(box.Max.Y))
		ents[i] = ent{box.Expand(e), i}
	}
	slices.SortFunc(ents, func(a, b ent) int { return cmp.Compare(a.box.Min.X, b.box.Min.X) })
	var pairs [][2]int
	for x := range ents {
		for y := x + 1; y < len(ents) && ents[y].box.Min.X <= ents[x].box.Max.X; y++ {
			if ents[x].box.Overlaps(ents[y].box) {
				i, j := ents[x].i, ents[y].i
				pairs = append(pairs, [2]int{min(i, j), max(i, j)})
			}
		}
	}
	bullets := false
	for _, b := range l {
		bullets = bullets || b.bullet
	}
	if bullets {
		for i, a := range l {
			for j := i + 1; j < len(l); j++ {
				if a.bullet || l[j].bullet {
					pairs = append(pairs, [2]int{i, j})
				}
			}
		}
	}
	slices.SortFunc(pairs, func(p, q [2]int) int {
		if c := cmp.Compare(p[0], q[0]); c != 0 {
			return c
		}
		return cmp.Compare(p[1], q[1])
	})
	pairs = slices.Compact(pairs)
	var out []collide.Contact
	for _, p := range pairs {
		a, c := l[p[0]], l[p[1]]
		if !h13PairRule(a, c) {
			continue
		}
		sensor := a.sensor || c.sensor
		n := len(out)
		if a.sh.Kind().Convex() && c.sh.Kind().Convex() {
			if m, ok := narrowphase.Collide(a.sh, a.xf(), c.sh, c.xf()); ok {
				out = append(out, collide.Contact{A: a.id, B: c.id, Manifold: m, Sensor: sensor})
			}
		} else {
			narrowphase.CollideParts(a.sh, a.xf(), c.sh, c.xf(), func(pa, pc int, m narrowphase.Manifold) bool {
				out = append(out, collide.Contact{A: a.id, B: c.id, Manifold: m, PartA: pa, PartB: pc, Sensor: sensor})
				return true
			})
		}
		if len(out) == n && (a.bullet || c.bullet) {
			if ct, ok := h13Swept(a, c); ok {
				out = append(out, ct)
			}
		}
	}
	return out
}

// h13Swept is the swept contact of a (the lower slot) and c, one of them a
// bullet, with no contact where they are: what the narrow phase gives for
// their motions since the last Step (the lower slot's when both are
// bullets), written from BodyDef.Bullet and Contact.Swept.
func h13Swept(a, c *h13Body) (collide.Contact, bool) {
	s, k := a, c
	if !a.bullet {
		s, k = c, a
	}
	sMoved := s.prevPos != s.pos || s.prevAngle != s.angle
	kMoved := k.bullet && (k.prevPos != k.pos || k.prevAngle != k.angle)
	if !sMoved && !kMoved {
		return collide.Contact{}, false
	}
	from := collide.NewTransform(s.prevPos, s.prevAngle)
	cur := s.xf()
	kxf := k.xf()
	kFrom := kxf
	if k.bullet {
		kFrom = collide.NewTransform(k.prevPos, k.prevAngle)
	}
	var t float64
	var hit narrowphase.CastHit
	var partS, partK int
	if s.prevAngle == s.angle && (!k.bullet || k.prevAngle == k.angle) {
		dk := kxf.Pos.Sub(kFrom.Pos)
		d := cur.Pos.Sub(from.Pos).Sub(dk)
		hh, pa, ok := narrowphase.CastEnter(s.sh, from, d, k.sh, kFrom)
		if !ok {
			return collide.Contact{}, false
		}
		t, hit, partS, partK = hh.Fraction, hh, pa, hh.Part
		if dk != (collide.Vec2{}) {
			hit.Point = hit.Point.Add(dk.Scale(t))
		}
	} else {
		sa := narrowphase.Sweep{P0: s.prevPos, P1: s.pos, A0: s.prevAngle, A1: s.angle}
		sb := narrowphase.Sweep{P0: k.pos, P1: k.pos, A0: k.angle, A1: k.angle}
		if k.bullet {
			sb.P0, sb.A0 = k.prevPos, k.prevAngle
		}
		toi, pa, pb, ok := narrowphase.TimeOfImpactEnter(s.sh, sa, k.sh, sb)
		if !ok {
			return collide.Contact{}, false
		}
		t, partS, partK = toi, pa, pb
		ta, tb := sa.At(t), sb.At(t)
		shA, xa := s.sh.Part(partS, ta)
		shB, xb := k.sh.Part(partK, tb)
		if hh, ok := narrowphase.Cast(shA, xa, cur.Pos.Sub(ta.Pos).Sub(kxf.Pos.Sub(tb.Pos)), shB, xb); ok && hh.Fraction == 0 {
			hit = hh
		} else {
			hit = narrowphase.CastHit{Point: ta.Pos, Normal: from.Pos.Sub(cur.Pos).Normalize()}
		}
	}
	n := hit.Normal
	pA, pB := partK, partS
	if s == a {
		n = n.Neg()
		pA, pB = partS, partK
	}
	ct := collide.Contact{A: a.id, B: c.id, PartA: pA, PartB: pB, Sensor: a.sensor || c.sensor, Swept: true, TOI: t}
	ct.Manifold.Normal = n
	ct.Manifold.Count = 1
	ct.Manifold.Points[0] = narrowphase.ContactPoint{Point: hit.Point}
	return ct, true
}

func h13Key(c collide.Contact) partKey { return partKey{c.A, c.B, c.PartA, c.PartB} }

func h13Fmt(l []collide.Contact) string {
	var sb strings.Builder
	for _, c := range l {
		fmt.Fprintf(&sb, "\n    %#x/%d - %#x/%d %+v sensor=%v swept=%v toi=%v", uint64(c.A), c.PartA, uint64(c.B), c.PartB, c.Manifold, c.Sensor, c.Swept, c.TOI)
	}
	return sb.String()
}

// ---- queries: each returns its answer as text, every float exact ----

type h13Query struct {
	name  string
	world func(w *collide.World) (string, error)
	want  func() string // nil: checked by check instead
	check func() string // a property of the first world's answer
}

func (h *h13Run) randQuery() h13Query {
	r := h.r
	f := h.queryFilter()
	kind := r.IntN(11)
	switch kind {
	case 0: // QueryAABB
		c := h.point()
		c = collide.V(math.Round(c.X*8)/8, math.Round(c.Y*8)/8) // edges on the grid
		hw, hh := h.grid(0.125, 3), h.grid(0.125, 3)
		if r.IntN(4) == 0 {
			hw, hh = h.grid(0, 0.5), h.grid(0, 0.5) // zero area too
		}
		box := collide.AABB{Min: c.Sub(collide.V(hw, hh)), Max: c.Add(collide.V(hw, hh))}
		switch r.IntN(8) {
		case 0:
			box = collide.AABB{Min: h.origin.Sub(collide.V(1, 1)), Max: h.origin.Add(collide.V(h.size+1, h.size+1))}
		case 1: // a half-plane as a box far larger than the region
			big := []float64{1e7, 1e12, 1e15}[r.IntN(3)]
			box = collide.AABB{Min: collide.V(c.X, c.Y-big), Max: collide.V(c.X+big, c.Y+big)}
			if r.IntN(2) == 0 {
				box = collide.AABB{Min: collide.V(c.X-big, -big), Max: collide.V(c.X, c.Y)}
			}
		}
		return h13Query{
			name: fmt.Sprintf("QueryAABB(%v, %+v)", box, f),
			world: func(w *collide.World) (string, error) {
				var sb strings.Builder
				err := w.QueryAABB(box, f, func(id collide.BodyID) bool { fmt.Fprintf(&sb, "%#x ", uint64(id)); return true })
				return sb.String(), err
			},
			want: func() string {
				var sb strings.Builder
				hx := box.HalfExtents()
				if hx.X <= 0 || hx.Y <= 0 {
					return ""
				}
				// Where the box's edges are within rounding of a body (the
				// world may test it in the box's frame, where coordinates
				// are as large as the half extents), either answer goes.
				var got []collide.BodyID
				_ = h.worlds[0].QueryAABB(box, f, func(id collide.BodyID) bool { got = append(got, id); return true })
				for _, b := range h.bySlot() {
					if !h13Passes(f, b) {
						continue
					}
					in := h13BoxOverlaps(box, b, 0)
					bb := b.sh.WorldAABB(b.xf())
					m := math.Abs(bb.Min.X) + math.Abs(bb.Min.Y) + math.Abs(bb.Max.X) + math.Abs(bb.Max.Y)
					tol := 16 * 0x1p-52 * (min(max(hx.X, hx.Y), 16*(1+m)) + b.sh.BoundingRadius() + 1)
					if in != slices.Contains(got, b.id) && (h13BoxOverlaps(box, b, -tol) != in || h13BoxOverlaps(box, b, tol) != in) {
						in = !in
						h.counts["QueryAABB within rounding"]++
					}
					if in {
						fmt.Fprintf(&sb, "%#x ", uint64(b.id))
					}
				}
				return sb.String()
			},
		}
	case 1: // QueryPoint
		p := h.point()
		return h13Query{
			name: fmt.Sprintf("QueryPoint(%v, %+v)", p, f),
			world: func(w *collide.World) (string, error) {
				var sb strings.Builder
				err := w.QueryPoint(p, f, func(id collide.BodyID) bool { fmt.Fprintf(&sb, "%#x ", uint64(id)); return true })
				return sb.String(), err
			},
			want: func() string {
				var sb strings.Builder
				for _, b := range h.bySlot() {
					if h13Passes(f, b) && narrowphase.ContainsPoint(b.sh, b.xf(), p) {
						fmt.Fprintf(&sb, "%#x ", uint64(b.id))
					}
				}
				return sb.String()
			},
		}
	case 2: // QueryShape
		s := h.shape()
		t := collide.NewTransform(h.point(), h.angle())
		return h13Query{
			name: fmt.Sprintf("QueryShape(%v, %v, %+v)", s, t, f),
			world: func(w *collide.World) (string, error) {
				var sb strings.Builder
				err := w.QueryShape(s, t, f, func(id collide.BodyID, m collide.Manifold) bool {
					fmt.Fprintf(&sb, "%#x %+v\n", uint64(id), m)
					return true
				})
				return sb.String(), err
			},
			want: func() string {
				var sb strings.Builder
				for _, b := range h.bySlot() {
					if !h13Passes(f, b) {
						continue
					}
					if m, ok := narrowphase.Collide(s, t, b.sh, b.xf()); ok {
						fmt.Fprintf(&sb, "%#x %+v\n", uint64(b.id), m)
					}
				}
				return sb.String()
			},
		}
	case 3, 4: // RayCast, RayCastAll
		o, dir := h.ray()
		maxDist := []float64{math.Inf(1), h.grid(0, 6), 0, h.size * 2}[r.IntN(4)]
		all := r.IntN(2) == 0
		name := "RayCast"
		if all {
			name = "RayCastAll"
		}
		return h13Query{
			name: fmt.Sprintf("%s(%v, %v, %v, %+v)", name, o, dir, maxDist, f),
			world: func(w *collide.World) (string, error) {
				if !all {
					hit, ok, err := w.RayCast(o, dir, maxDist, f)
					if !ok {
						return "", err
					}
					return fmt.Sprintf("%+v\n", hit), err
				}
				var sb strings.Builder
				err := w.RayCastAll(o, dir, maxDist, f, func(hit collide.RayHit) bool { fmt.Fprintf(&sb, "%+v\n", hit); return true })
				return sb.String(), err
			},
			want: func() string {
				var hits []collide.RayHit
				for _, b := range h.m.live {
					if !h13Passes(f, b) {
						continue
					}
					if hh, ok := narrowphase.RayCast(b.sh, b.xf(), o, dir, maxDist); ok {
						hits = append(hits, collide.RayHit{Body: b.id, Part: hh.Part, Point: hh.Point, Normal: hh.Normal, Distance: hh.Distance})
					}
				}
				slices.SortFunc(hits, func(x, y collide.RayHit) int {
					if c := cmp.Compare(x.Distance, y.Distance); c != 0 {
						return c
					}
					return cmp.Compare(x.Body, y.Body)
				})
				if !all && len(hits) > 1 {
					hits = hits[:1]
				}
				var sb strings.Builder
				for _, hh := range hits {
					fmt.Fprintf(&sb, "%+v\n", hh)
				}
				return sb.String()
			},
		}
	case 5, 6: // CastShape, CastShapeAll
		s := h.convex()
		if r.IntN(3) == 0 {
			s = h.shape()
		}
		t := collide.NewTransform(h.point(), h.angle())
		var delta collide.Vec2
		switch r.IntN(5) {
		case 0:
		case 1:
			delta = collide.V(h.grid(-6, 6), 0)
		case 2: // far below a rounding step
			delta = collide.V(math.Ldexp(float64(r.IntN(5)-2), -500-r.IntN(500)), math.Ldexp(float64(r.IntN(3)-1), -600))
		default:
			delta = collide.V(h.grid(-6, 6), h.grid(-6, 6))
		}
		all := r.IntN(2) == 0
		name := "CastShape"
		if all {
			name = "CastShapeAll"
		}
		return h13Query{
			name: fmt.Sprintf("%s(%v, %v, %v, %+v)", name, s, t, delta, f),
			world: func(w *collide.World) (string, error) {
				if !all {
					hit, ok, err := w.CastShape(s, t, delta, f)
					if !ok {
						return "", err
					}
					return fmt.Sprintf("%+v\n", hit), err
				}
				var sb strings.Builder
				err := w.CastShapeAll(s, t, delta, f, func(hit collide.ShapeHit) bool { fmt.Fprintf(&sb, "%+v\n", hit); return true })
				return sb.String(), err
			},
			want: func() string {
				var hits []collide.ShapeHit
				for _, b := range h.m.live {
					if !h13Passes(f, b) || !h13Reach(s, t, delta, b) {
						continue
					}
					if hh, ok := narrowphase.Cast(s, t, delta, b.sh, b.xf()); ok {
						hits = append(hits, collide.ShapeHit{Body: b.id, Part: hh.Part, Fraction: hh.Fraction, Point: hh.Point, Normal: hh.Normal})
					}
				}
				slices.SortFunc(hits, func(x, y collide.ShapeHit) int {
					if c := cmp.Compare(x.Fraction, y.Fraction); c != 0 {
						return c
					}
					return cmp.Compare(x.Body, y.Body)
				})
				if !all && len(hits) > 1 {
					hits = hits[:1]
				}
				var sb strings.Builder
				for _, hh := range hits {
					fmt.Fprintf(&sb, "%+v\n", hh)
				}
				return sb.String()
			},
		}
	case 7, 8: // Nearest, NearestWithin
		p := h.point()
		k := []int{1, 1, 2, 3, 5, 1000}[r.IntN(6)]
		maxDist := math.Inf(1)
		if r.IntN(2) == 0 {
			maxDist = h.grid(0, 4)
		}
		return h13Query{
			name: fmt.Sprintf("NearestWithin(%v, %d, %v, %+v)", p, k, maxDist, f),
			world: func(w *collide.World) (string, error) {
				var sb strings.Builder
				err := w.NearestWithin(p, k, maxDist, f, func(id collide.BodyID, d float64) bool { fmt.Fprintf(&sb, "%#x %v\n", uint64(id), d); return true })
				return sb.String(), err
			},
			want: func() string {
				type nh struct {
					d2 float64
					id collide.BodyID
				}
				var hits []nh
				for _, b := range h.m.live {
					if !h13Passes(f, b) {
						continue
					}
					d2 := narrowphase.DistanceSq(b.sh, b.xf(), p)
					if math.Sqrt(d2) <= maxDist {
						hits = append(hits, nh{d2, b.id})
					}
				}
				slices.SortFunc(hits, func(x, y nh) int {
					if c := cmp.Compare(math.Sqrt(x.d2), math.Sqrt(y.d2)); c != 0 {
						return c
					}
					return cmp.Compare(x.id, y.id)
				})
				var sb strings.Builder
				for i, hh := range hits {
					if i == k {
						break
					}
					fmt.Fprintf(&sb, "%#x %v\n", uint64(hh.id), math.Sqrt(hh.d2))
				}
				return sb.String()
			},
		}
	case 9: // MoveAndSlide
		s := h.convex()
		t := collide.NewTransform(h.point(), h.angle())
		delta := collide.V(h.grid(-4, 4), h.grid(-4, 4))
		return h13Query{
			name: fmt.Sprintf("MoveAndSlide(%v, %v, %v, %+v)", s, t, delta, f),
			world: func(w *collide.World) (string, error) {
				res, err := w.MoveAndSlide(s, t, delta, f)
				return fmt.Sprintf("%+v", res), err
			},
			check: func() string {
				res, _ := h.worlds[0].MoveAndSlide(s, t, delta, f)
				if msg := h.clear(s, collide.Transform{Pos: res.Position, Rot: t.Rot}, f, delta.Len()); msg != "" {
					return msg
				}
				// Free at the start and touching nothing on the way: the
				// whole motion, exactly.
				if h.clear(s, t, f, 0) == "" && !h.anyCast(s, t, delta, f) {
					if res.Position != t.Pos.Add(delta) || res.Blocked || res.Count != 0 || res.Pushed != (collide.Vec2{}) {
						return fmt.Sprintf("touches nothing on the way (CastShape on every body), but gives %+v, want Position %v", res, t.Pos.Add(delta))
					}
					h.counts["MoveAndSlide free"]++
				}
				return ""
			},
		}
	default: // Depenetrate
		s := h.convex()
		t := collide.NewTransform(h.point(), h.angle())
		return h13Query{
			name: fmt.Sprintf("Depenetrate(%v, %v, %+v)", s, t, f),
			world: func(w *collide.World) (string, error) {
				d, err := w.Depenetrate(s, t, f)
				return fmt.Sprintf("%v", d), err
			},
			check: func() string {
				d, _ := h.worlds[0].Depenetrate(s, t, f)
				if msg := h.clear(s, collide.Transform{Pos: t.Pos.Add(d), Rot: t.Rot}, f, d.Len()); msg != "" {
					return msg
				}
				// Overlapping nothing: no push. Overlapping one body whose
				// PushOut frees the shape from all: no longer a push.
				var over []*h13Body
				for _, b := range h.m.live {
					if h13Passes(f, b) && narrowphase.Overlap(s, t, b.sh, b.xf()) {
						over = append(over, b)
					}
				}
				switch {
				case len(over) == 0 && d != (collide.Vec2{}):
					return fmt.Sprintf("overlaps nothing but pushes by %v", d)
				case len(over) == 1:
					p, ok := narrowphase.PushOut(s, t, over[0].sh, over[0].xf())
					if !ok {
						break
					}
					pt := collide.Transform{Pos: t.Pos.Add(p), Rot: t.Rot}
					for _, b := range h.m.live {
						if h13Passes(f, b) && narrowphase.Overlap(s, pt, b.sh, b.xf()) {
							return ""
						}
					}
					if d.Len() > p.Len()*(1+1e-9)+1e-9*(1+math.Abs(t.Pos.X)+math.Abs(t.Pos.Y)) {
						return fmt.Sprintf("pushes by %v (length %v) where the PushOut %v (length %v) out of the one body overlapped, %#x, frees it%s", d, d.Len(), p, p.Len(), uint64(over[0].id), h.describe(over[0].id))
					}
					h.counts["Depenetrate one body"]++
				}
				return ""
			},
		}
	}
}

// h13BoxOverlaps reports whether box overlaps body b: the box clipped to
// b's box grown by 1 on every side and out to the 1/8 grid (which changes nothing the body can
// meet) as an AABB shape, whose centre and half extents give back its
// edges exactly on the dyadic grid.
//
// The box is grown by grow first (shrunk for grow < 0): not on the grid
// then, but any box's centre and half extents give back the box they make.
func h13BoxOverlaps(box collide.AABB, b *h13Body, grow float64) bool {
	bb := b.sh.WorldAABB(b.xf()).Expand(1)
	bb.Min = collide.V(math.Floor(bb.Min.X*8)/8, math.Floor(bb.Min.Y*8)/8)
	bb.Max = collide.V(math.Ceil(bb.Max.X*8)/8, math.Ceil(bb.Max.Y*8)/8)
	c := collide.AABB{Min: box.Min.Max(bb.Min), Max: box.Max.Min(bb.Max)}
	hx := c.HalfExtents()
	if !(hx.X > 0 && hx.Y > 0) {
		return false
	}
	if grow != 0 {
		hx = hx.Add(collide.V(grow, grow))
		if !(hx.X > 0 && hx.Y > 0) {
			return false
		}
	} else if c.Center().Sub(hx) != c.Min || c.Center().Add(hx) != c.Max {
		panic(fmt.Sprintf("h13BoxOverlaps: box %v clipped to %v is not exact", box, c))
	}
	qs, _ := collide.NewAABB(hx.X, hx.Y)
	return narrowphase.Overlap(qs, collide.NewTransform(c.Center(), 0), b.sh, b.xf())
}

// ray returns a ray's origin and unit direction: from a point of the
// region, along an axis or any way, or aimed at a body's vertex.
func (h *h13Run) ray() (collide.Vec2, collide.Vec2) {
	o := h.point()
	switch h.r.IntN(3) {
	case 0:
		return o, [4]collide.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[h.r.IntN(4)]
	case 1:
		if b := h.randLive(); b != nil && b.pos != o {
			return o, b.pos.Sub(o).Normalize()
		}
	}
	sn, cs := math.Sincos(2 * math.Pi * h.r.Float64())
	return o, collide.V(cs, sn)
}

// query runs one random query on the first world against brute force and
// on another world against the first.
func (h *h13Run) query() {
	q := h.randQuery()
	got, err := q.world(h.worlds[0])
	if err != nil {
		h.fail("%s: %v", q.name, err)
	}
	h.counts[strings.SplitN(q.name, "(", 2)[0]]++
	if q.want != nil {
		if want := q.want(); got != want {
			h.fail("%s on %s:\n  got  %q\n  want %q%s", q.name, h.names[0], got, want, h.describe(h13IDsIn(got+" "+want)...))
		}
	}
	if q.check != nil {
		if msg := q.check(); msg != "" {
			h.fail("%s: %s", q.name, msg)
		}
	}
	if len(h.worlds) > 1 {
		i := 1 + h.r.IntN(len(h.worlds)-1)
		other, err := q.world(h.worlds[i])
		if err != nil || other != got {
			h.fail("%s: %s gives %q (err %v), %s gives %q", q.name, h.names[i], other, err, h.names[0], got)
		}
	}
}

// h13IDsIn returns the body ids (0x…) a query's answer text names.
func h13IDsIn(text string) []collide.BodyID {
	var ids []collide.BodyID
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\n' || r == '{' || r == '}' || r == ':' }) {
		var x uint64
		if _, err := fmt.Sscanf(f, "0x%x", &x); err == nil && x > 1<<32 && !slices.Contains(ids, collide.BodyID(x)) {
			ids = append(ids, collide.BodyID(x))
		}
	}
	return ids
}

// anyCast reports whether shape s placed by t touches any body passing f
// while it moves by delta (narrowphase.Cast on each).
func (h *h13Run) anyCast(s collide.Shape, t collide.Transform, delta collide.Vec2, f collide.Filter) bool {
	for _, b := range h.m.live {
		if h13Passes(f, b) && h13Reach(s, t, delta, b) {
			if _, ok := narrowphase.Cast(s, t, delta, b.sh, b.xf()); ok {
				return true
			}
		}
	}
	return false
}

// h13Reach reports whether body b's box meets the box shape s placed by t
// sweeps while it moves by delta, grown by 1: a body it misses cannot be
// touched. (narrowphase.Cast of shapes 1e16 times their motion apart is
// lost in rounding and may report a touch at 0: the world never asks it.)
func h13Reach(s collide.Shape, t collide.Transform, delta collide.Vec2, b *h13Body) bool {
	box := s.WorldAABB(t)
	box = box.Union(collide.AABB{Min: box.Min.Add(delta), Max: box.Max.Add(delta)}).Expand(1)
	return box.Overlaps(b.sh.WorldAABB(b.xf()))
}

// clear returns "" if shape s placed by t overlaps no body passing f by
// more than rounding (of its place and of a motion of length l), else
// which body and how deep.
func (h *h13Run) clear(s collide.Shape, t collide.Transform, f collide.Filter, l float64) string {
	tol := 1e-9 * (1 + math.Abs(t.Pos.X) + math.Abs(t.Pos.Y) + l + s.BoundingRadius())
	for _, b := range h.m.live {
		if !h13Passes(f, b) {
			continue
		}
		if m, ok := narrowphase.Collide(s, t, b.sh, b.xf()); ok && m.Depth > tol {
			return fmt.Sprintf("ends at %v overlapping body %#x by %v (tolerance %v)%s", t.Pos, uint64(b.id), m.Depth, tol, h.describe(b.id))
		}
	}
	return ""
}

// ---- the driver ----

func TestHunt13World(t *testing.T) {
	seed := oracleSeed(t, *h13SeedFlag, "h13seed")
	runs, ops := 6, 260
	if oracleShort() {
		runs, ops = 2, 120
	}
	totals := map[string]int{}
	for run := range runs {
		rs := seed + uint64(run)
		r := rand.New(rand.NewPCG(rs, 0x13))
		h := &h13Run{t: t, r: r, seed: rs, counts: totals, short: oracleShort()}
		h.crowded = run != int(seed%uint64(runs)) // one run a test has its crowd
		h.origin = []collide.Vec2{{}, {X: 1e6, Y: -1e6}, {X: -1e9, Y: 1e9}}[r.IntN(3)]
		h.size = 8 + h.grid(0, 16)
		for _, n := range []int{1, 2, 4} {
			h.worlds = append(h.worlds, collide.NewWorld(collide.Config{Workers: n}))
			h.names = append(h.names, fmt.Sprintf("Workers %d", n))
		}
		h.step() // an empty world steps
		for range 10 + r.IntN(20) {
			h.add()
		}
		for range ops {
			h.randOp()
		}
		h.step()
		for _, w := range h.worlds {
			w.Close()
		}
	}
	t.Logf("checked %v", totals)
}

// all applies fn to every world and returns the first world's error,
// failing if the worlds disagree on success.
func (h *h13Run) all(what string, fn func(w *collide.World) error) error {
	var first error
	for i, w := range h.worlds {
		err := fn(w)
		if i == 0 {
			first = err
		} else if (err == nil) != (first == nil) {
			h.fail("%s: %s returns %v, %s %v", what, h.names[i], err, h.names[0], first)
		}
	}
	return first
}

func (h *h13Run) randOp() {
	r := h.r
	h.counts["ops"]++
	switch k := r.IntN(100); {
	case k < 14:
		h.add()
	case k < 22:
		h.remove()
	case k < 36:
		h.move()
	case k < 44:
		h.setTransform()
	case k < 47:
		h.teleport()
	case k < 49:
		h.teleportGroup()
	case k < 53:
		h.setFilter()
	case k < 57:
		h.setShape()
	case k < 60:
		h.setSensor()
	case k < 63:
		h.setKind()
	case k < 68:
		h.badInput()
	case k < 71:
		h.stale()
	case k < 80:
		h.shoot()
	case k < 88:
		for range 1 + r.IntN(3) {
			h.step()
		}
	case k < 93:
		h.snapshot()
	case k < 97:
		h.rollback()
	default:
		if !h.crowded && !h.short {
			h.crowd()
		} else {
			h.step()
		}
		return
	}
	for range 1 + r.IntN(2) {
		h.query()
	}
}

// def returns a random body and its definition.
func (h *h13Run) def() (*h13Body, collide.BodyDef) {
	r := h.r
	fb := h13BodyFilters[r.IntN(len(h13BodyFilters))]
	b := &h13Body{sh: h.shape(), pos: h.place(), angle: h.angle(), cat: fb[0], mask: fb[1],
		static: r.IntN(5) == 0, sensor: r.IntN(7) == 0, bullet: r.IntN(6) == 0}
	d := collide.BodyDef{Shape: b.sh, Position: b.pos, Angle: b.angle, Sensor: b.sensor, Bullet: b.bullet}
	if fb != [2]uint32{1, math.MaxUint32} || r.IntN(2) == 0 {
		d.Filter = collide.Filter{Category: fb[0], Mask: fb[1]}
	}
	if b.static {
		d.Kind = collide.Static
	}
	b.prevPos, b.prevAngle = b.pos, b.angle
	return b, d
}

func (h *h13Run) add() {
	b, d := h.def()
	var id collide.BodyID
	h.all("Add", func(w *collide.World) error {
		got, err := w.Add(d)
		if err != nil {
			h.fail("Add(%v): %v", b, err)
		}
		if id == 0 {
			id = got
		} else if got != id {
			h.fail("Add gives %#x in one world, %#x in another", uint64(got), uint64(id))
		}
		return nil
	})
	if slices.Contains(h.m.gone, id) || h.find(id) != nil {
		h.fail("Add gives %#x, an id issued before", uint64(id))
	}
	for _, x := range append(slices.Clone(h.m.dying), h.m.dead...) {
		if x.id == id {
			h.fail("Add gives %#x, the id of a removed body", uint64(id))
		}
	}
	b.id = id
	h.m.live = append(h.m.live, b)
	h.did("Add %v", b)
}

func (h *h13Run) remove() {
	b := h.randLive()
	if b == nil {
		return
	}
	h.all("Remove", func(w *collide.World) error {
		if err := w.Remove(b.id); err != nil {
			h.fail("Remove(%#x): %v", uint64(b.id), err)
		}
		return nil
	})
	h.m.live = slices.DeleteFunc(h.m.live, func(x *h13Body) bool { return x == b })
	h.m.dying = append(h.m.dying, b)
	h.did("Remove %#x", uint64(b.id))
	for _, w := range h.worlds {
		checkStaleCalls(w, b.id, h.fail)
		if bd, err := w.Body(b.id); err != nil || !bd.Removed {
			h.fail("Body(%#x) just removed = %+v, %v; want it readable, Removed", uint64(b.id), bd, err)
		}
	}
}

func (h *h13Run) move() {
	b := h.randLive()
	if b == nil {
		return
	}
	var d collide.Vec2
	switch h.r.IntN(5) {
	case 0: // zero
	case 1: // a hair
		d = collide.V(math.Ldexp(float64(h.r.IntN(7)-3), -30), math.Ldexp(float64(h.r.IntN(7)-3), -30))
	case 2: // far and back later
		d = collide.V(h.grid(-40, 40), h.grid(-40, 40))
	default:
		d = collide.V(h.grid(-1, 1), h.grid(-1, 1))
	}
	h.all("Move", func(w *collide.World) error {
		if err := w.Move(b.id, d); err != nil {
			h.fail("Move(%#x, %v): %v", uint64(b.id), d, err)
		}
		return nil
	})
	b.pos = b.pos.Add(d)
	h.did("Move %#x by %v to %v", uint64(b.id), d, b.pos)
}

func (h *h13Run) setTransform() {
	b := h.randLive()
	if b == nil {
		return
	}
	pos, angle := h.place(), h.angle()
	switch h.r.IntN(4) {
	case 0:
		angle = b.angle
	case 1:
		pos = b.pos
	case 2:
		if angle == 0 {
			angle = math.Copysign(0, -1)
		}
	}
	h.setXf(b, pos, angle)
	b.far = false
}

func (h *h13Run) setXf(b *h13Body, pos collide.Vec2, angle float64) {
	h.all("SetTransform", func(w *collide.World) error {
		if err := w.SetTransform(b.id, pos, angle); err != nil {
			h.fail("SetTransform(%#x, %v, %v): %v", uint64(b.id), pos, angle, err)
		}
		return nil
	})
	b.pos, b.angle = pos, angle
	h.did("SetTransform %#x to %v angle %v", uint64(b.id), pos, angle)
}

// teleport sends a body far away (1e6 to 1e12 off) or brings one back.
func (h *h13Run) teleport() {
	for _, b := range h.m.live {
		if b.far && h.r.IntN(2) == 0 {
			h.setXf(b, h.place(), b.angle)
			b.far = false
			return
		}
	}
	b := h.randLive()
	if b == nil {
		return
	}
	e := []float64{1e6, 1e9, 1e12, 3.5e11}[h.r.IntN(4)]
	off := collide.V(e*float64(h.r.IntN(3)-1), e*float64(h.r.IntN(3)-1))
	if off == (collide.Vec2{}) {
		off.X = -e
	}
	h.setXf(b, b.pos.Add(off), b.angle)
	b.far = true
}

// teleportGroup moves a body and those whose boxes are near its box by one
// far offset (and back by its negation later, which rounds): their
// contacts go on far from the origin.
func (h *h13Run) teleportGroup() {
	b := h.randLive()
	if b == nil {
		return
	}
	box := b.sh.WorldAABB(b.xf()).Expand(1)
	// Beyond float32's range too (3.4e38): the broad phase's boxes are
	// float32, widened there.
	e := []float64{1e6, 1e9, 1e12, 0x1p40, 1e30, 3.4028234663852886e38, 1e39, 1e100, 1e300}[h.r.IntN(9)]
	if h.r.IntN(2) == 0 {
		e = -e
	}
	off := collide.V(e, e/2)
	if h.r.IntN(3) == 0 {
		off.Y = h.grid(-2, 2)
	}
	for _, x := range h.m.live {
		if x.sh.WorldAABB(x.xf()).Overlaps(box) {
			if x.far {
				off = collide.V(-x.pos.X+h.origin.X+h.size/2, -x.pos.Y+h.origin.Y+h.size/2)
			}
		}
	}
	for _, x := range slices.Clone(h.m.live) {
		if x.sh.WorldAABB(x.xf()).Overlaps(box) {
			h.all("Move", func(w *collide.World) error {
				if err := w.Move(x.id, off); err != nil {
					h.fail("Move(%#x, %v): %v", uint64(x.id), off, err)
				}
				return nil
			})
			x.pos = x.pos.Add(off)
			x.far = !x.far
			h.did("Move %#x by %v to %v (group)", uint64(x.id), off, x.pos)
		}
	}
}

// shoot moves a bullet (a new one now and then) fast across the region,
// turning it sometimes, or two bullets across each other.
func (h *h13Run) shoot() {
	var bullets []*h13Body
	for _, b := range h.m.live {
		if b.bullet && !b.far {
			bullets = append(bullets, b)
		}
	}
	if len(bullets) == 0 || h.r.IntN(4) == 0 {
		b, d := h.def()
		b.sh, d.Shape = h.convex(), collide.Shape{}
		if h.r.IntN(3) == 0 {
			b.sh = h.shape()
		}
		d.Shape = b.sh
		b.bullet, d.Bullet = true, true
		b.static, d.Kind = false, collide.Dynamic
		var id collide.BodyID
		h.all("Add", func(w *collide.World) error {
			got, err := w.Add(d)
			if err != nil {
				h.fail("Add(%v): %v", b, err)
			}
			id = got
			return nil
		})
		b.id = id
		h.m.live = append(h.m.live, b)
		h.did("Add bullet %v", b)
		bullets = append(bullets, b)
	}
	for range 1 + h.r.IntN(2) {
		b := bullets[h.r.IntN(len(bullets))]
		to := h.place()
		angle := b.angle
		if h.r.IntN(3) == 0 {
			angle = h.angle()
		}
		if h.r.IntN(2) == 0 {
			h.setXf(b, to, angle)
		} else {
			d := to.Sub(b.pos)
			h.all("Move", func(w *collide.World) error {
				if err := w.Move(b.id, d); err != nil {
					h.fail("Move(%#x, %v): %v", uint64(b.id), d, err)
				}
				return nil
			})
			b.pos = b.pos.Add(d)
			h.did("Move bullet %#x by %v to %v", uint64(b.id), d, b.pos)
		}
	}
	if h.r.IntN(2) == 0 {
		h.step()
	}
}

func (h *h13Run) setFilter() {
	b := h.randLive()
	if b == nil {
		return
	}
	fb := h13BodyFilters[h.r.IntN(len(h13BodyFilters))]
	f := collide.Filter{Category: fb[0], Mask: fb[1]}
	if fb == [2]uint32{1, math.MaxUint32} && h.r.IntN(2) == 0 {
		f = collide.Filter{}
	}
	h.all("SetFilter", func(w *collide.World) error {
		if err := w.SetFilter(b.id, f); err != nil {
			h.fail("SetFilter(%#x, %+v): %v", uint64(b.id), f, err)
		}
		return nil
	})
	b.cat, b.mask = fb[0], fb[1]
	h.did("SetFilter %#x %+v", uint64(b.id), f)
}

func (h *h13Run) setShape() {
	b := h.randLive()
	if b == nil {
		return
	}
	s := h.shape()
	h.all("SetShape", func(w *collide.World) error {
		if err := w.SetShape(b.id, s); err != nil {
			h.fail("SetShape(%#x, %v): %v", uint64(b.id), s, err)
		}
		return nil
	})
	b.sh = s
	h.did("SetShape %#x %v", uint64(b.id), s)
}

func (h *h13Run) setSensor() {
	b := h.randLive()
	if b == nil {
		return
	}
	h.all("SetSensor", func(w *collide.World) error {
		if err := w.SetSensor(b.id, !b.sensor); err != nil {
			h.fail("SetSensor(%#x): %v", uint64(b.id), err)
		}
		return nil
	})
	b.sensor = !b.sensor
	h.did("SetSensor %#x %v", uint64(b.id), b.sensor)
}

func (h *h13Run) setKind() {
	b := h.randLive()
	if b == nil {
		return
	}
	k := collide.Static
	if b.static {
		k = collide.Dynamic
	}
	h.all("SetKind", func(w *collide.World) error {
		if err := w.SetKind(b.id, k); err != nil {
			h.fail("SetKind(%#x): %v", uint64(b.id), err)
		}
		return nil
	})
	b.static = !b.static
	h.did("SetKind %#x %v", uint64(b.id), k)
}

// badInput makes a call with bad input on every world: it must fail with
// the documented error and change nothing.
func (h *h13Run) badInput() {
	r := h.r
	nan, inf := math.NaN(), math.Inf(1)
	circle, _ := collide.NewCircle(1)
	b := h.randLive()
	var id collide.BodyID
	if b != nil {
		id = b.id
	}
	xf := collide.NewTransform(h.place(), 0)
	type bad struct {
		name string
		want error
		call func(w *collide.World) error
	}
	calls := []bad{
		{"Add(zero shape)", collide.ErrInvalidShape, func(w *collide.World) error { _, err := w.Add(collide.BodyDef{}); return err }},
		{"Add(NaN position)", collide.ErrNotFinite, func(w *collide.World) error {
			_, err := w.Add(collide.BodyDef{Shape: circle, Position: collide.V(nan, 0)})
			return err
		}},
		{"Add(Inf angle)", collide.ErrNotFinite, func(w *collide.World) error {
			_, err := w.Add(collide.BodyDef{Shape: circle, Angle: inf})
			return err
		}},
		{"Add(category 0)", collide.ErrInvalidArgument, func(w *collide.World) error {
			_, err := w.Add(collide.BodyDef{Shape: circle, Filter: collide.Filter{Mask: 3}})
			return err
		}},
		{"Add(Exclude in a body filter)", collide.ErrInvalidArgument, func(w *collide.World) error {
			_, err := w.Add(collide.BodyDef{Shape: circle, Filter: collide.Filter{Category: 1, Mask: 1, Exclude: 5}})
			return err
		}},
		{"Add(SkipSensors in a body filter)", collide.ErrInvalidArgument, func(w *collide.World) error {
			_, err := w.Add(collide.BodyDef{Shape: circle, Filter: collide.Filter{SkipSensors: true}})
			return err
		}},
		{"Add(kind 7)", collide.ErrInvalidArgument, func(w *collide.World) error {
			_, err := w.Add(collide.BodyDef{Shape: circle, Kind: 7})
			return err
		}},
		{"QueryPoint(NaN)", collide.ErrNotFinite, func(w *collide.World) error {
			return w.QueryPoint(collide.V(nan, 1), collide.Filter{}, func(collide.BodyID) bool { return true })
		}},
		{"QueryAABB(Inf)", collide.ErrNotFinite, func(w *collide.World) error {
			return w.QueryAABB(collide.AABB{Max: collide.V(inf, 1)}, collide.Filter{}, func(collide.BodyID) bool { return true })
		}},
		{"QueryShape(zero shape)", collide.ErrInvalidShape, func(w *collide.World) error {
			return w.QueryShape(collide.Shape{}, xf, collide.Filter{}, func(collide.BodyID, collide.Manifold) bool { return true })
		}},
		{"QueryShape(NaN place)", collide.ErrNotFinite, func(w *collide.World) error {
			return w.QueryShape(circle, collide.Transform{Pos: collide.V(nan, 0)}, collide.Filter{}, func(collide.BodyID, collide.Manifold) bool { return true })
		}},
		{"RayCast(zero direction)", collide.ErrInvalidArgument, func(w *collide.World) error {
			_, _, err := w.RayCast(xf.Pos, collide.Vec2{}, 1, collide.Filter{})
			return err
		}},
		{"RayCastAll(negative maxDist)", collide.ErrInvalidArgument, func(w *collide.World) error {
			return w.RayCastAll(xf.Pos, collide.V(1, 0), -1, collide.Filter{}, func(collide.RayHit) bool { return true })
		}},
		{"RayCast(NaN maxDist)", collide.ErrNotFinite, func(w *collide.World) error {
			_, _, err := w.RayCast(xf.Pos, collide.V(1, 0), nan, collide.Filter{})
			return err
		}},
		{"CastShape(Inf delta)", collide.ErrNotFinite, func(w *collide.World) error {
			_, _, err := w.CastShape(circle, xf, collide.V(inf, 0), collide.Filter{})
			return err
		}},
		{"CastShapeAll(zero shape)", collide.ErrInvalidShape, func(w *collide.World) error {
			return w.CastShapeAll(collide.Shape{}, xf, collide.V(1, 0), collide.Filter{}, func(collide.ShapeHit) bool { return true })
		}},
		{"MoveAndSlide(NaN delta)", collide.ErrNotFinite, func(w *collide.World) error {
			_, err := w.MoveAndSlide(circle, xf, collide.V(0, nan), collide.Filter{})
			return err
		}},
		{"Depenetrate(zero shape)", collide.ErrInvalidShape, func(w *collide.World) error {
			_, err := w.Depenetrate(collide.Shape{}, xf, collide.Filter{})
			return err
		}},
		{"NearestWithin(k -1)", collide.ErrInvalidArgument, func(w *collide.World) error {
			return w.NearestWithin(xf.Pos, -1, 1, collide.Filter{}, func(collide.BodyID, float64) bool { return true })
		}},
		{"NearestWithin(NaN maxDist)", collide.ErrNotFinite, func(w *collide.World) error {
			return w.NearestWithin(xf.Pos, 1, nan, collide.Filter{}, func(collide.BodyID, float64) bool { return true })
		}},
		{"UnmarshalBinary(garbage)", collide.ErrSnapshot, func(w *collide.World) error { return w.UnmarshalBinary([]byte("CLDW\x03garbage")) }},
	}
	if id != 0 {
		calls = append(calls,
			bad{"SetTransform(NaN)", collide.ErrNotFinite, func(w *collide.World) error { return w.SetTransform(id, collide.V(0, nan), 0) }},
			bad{"SetTransform(Inf angle)", collide.ErrNotFinite, func(w *collide.World) error { return w.SetTransform(id, collide.V(0, 0), -inf) }},
			bad{"Move(Inf)", collide.ErrNotFinite, func(w *collide.World) error { return w.Move(id, collide.V(inf, 0)) }},
			bad{"SetFilter(category 0)", collide.ErrInvalidArgument, func(w *collide.World) error { return w.SetFilter(id, collide.Filter{Mask: 1}) }},
			bad{"SetFilter(Exclude)", collide.ErrInvalidArgument, func(w *collide.World) error {
				return w.SetFilter(id, collide.Filter{Category: 1, Mask: 1, Exclude: id})
			}},
			bad{"SetShape(zero shape)", collide.ErrInvalidShape, func(w *collide.World) error { return w.SetShape(id, collide.Shape{}) }},
			bad{"SetKind(9)", collide.ErrInvalidArgument, func(w *collide.World) error { return w.SetKind(id, 9) }},
		)
	}
	c := calls[r.IntN(len(calls))]
	h.did("bad input: %s", c.name)
	for i, w := range h.worlds {
		hash, n := w.StateHash(), w.Len()
		err := c.call(w)
		if !errors.Is(err, c.want) {
			h.fail("%s on %s = %v, want %v", c.name, h.names[i], err, c.want)
		}
		if w.StateHash() != hash || w.Len() != n {
			h.fail("%s on %s failed (%v) but changed the world", c.name, h.names[i], err)
		}
	}
}

// stale calls every id-taking method with a removed or never issued id.
func (h *h13Run) stale() {
	var ids []collide.BodyID
	ids = append(ids, h.m.gone...)
	for _, b := range append(slices.Clone(h.m.dying), h.m.dead...) {
		ids = append(ids, b.id)
	}
	if b := h.randLive(); b != nil {
		ids = append(ids, b.id+1<<32, b.id^1<<31) // a later generation, a slot never used
	}
	if len(ids) == 0 {
		return
	}
	id := ids[h.r.IntN(len(ids))]
	h.did("stale id %#x", uint64(id))
	for i, w := range h.worlds {
		hash := w.StateHash()
		checkStaleCalls(w, id, h.fail)
		if w.Contains(id) {
			h.fail("%s: Contains(stale %#x)", h.names[i], uint64(id))
		}
		if w.StateHash() != hash {
			h.fail("%s: calls on stale id %#x changed the world", h.names[i], uint64(id))
		}
	}
}

func h13List(seq func(func(collide.Contact) bool)) []collide.Contact {
	var l []collide.Contact
	for c := range seq {
		l = append(l, c)
	}
	return l
}

// step steps every world and checks the contacts and events against brute
// force, and the worlds against each other.
func (h *h13Run) step() {
	h.did("Step")
	h.counts["steps"]++
	for _, w := range h.worlds {
		w.Step()
	}
	w0 := h.worlds[0]
	got := h13List(w0.Contacts())
	want := h.wantContacts()
	// A bullet that moved more than 1e13 since the last Step (a teleport
	// across the float range) sweeps past bodies within rounding of a
	// path that long: its swept contacts may be there or not.
	wild := func(c collide.Contact) bool {
		if !c.Swept {
			return false
		}
		for _, id := range []collide.BodyID{c.A, c.B} {
			if b := h.find(id); b != nil && b.bullet && b.pos.Sub(b.prevPos).Len() > 1e13 {
				return true
			}
		}
		return false
	}
	h.checkContacts(slices.DeleteFunc(slices.Clone(got), wild), slices.DeleteFunc(want, wild))
	h.checkEvents(got)
}

// checkContacts compares the contacts of a Step with brute force's.
func (h *h13Run) checkContacts(got, want []collide.Contact) {
	if !slices.Equal(got, want) {
		var ids []collide.BodyID
		for _, c := range append(slices.Clone(got), want...) {
			ids = append(ids, c.A, c.B)
		}
		slices.Sort(ids)
		var onlyGot, onlyWant []collide.Contact
		for _, c := range got {
			if !slices.Contains(want, c) {
				onlyGot = append(onlyGot, c)
			}
		}
		for _, c := range want {
			if !slices.Contains(got, c) {
				onlyWant = append(onlyWant, c)
			}
		}
		ids = ids[:0]
		for _, c := range append(slices.Clone(onlyGot), onlyWant...) {
			ids = append(ids, c.A, c.B)
		}
		slices.Sort(ids)
		h.fail("Step's contacts differ from brute force (%d and %d contacts); only the world's:%s\n  only brute force's:%s\n%s", len(got), len(want), h13Fmt(onlyGot), h13Fmt(onlyWant), h.describe(slices.Compact(ids)...))
	}
}

// checkEvents checks Began, Ended, the stats and the other worlds after a
// Step whose contacts are got, and moves the model on past the Step.
func (h *h13Run) checkEvents(got []collide.Contact) {
	w0 := h.worlds[0]
	// Events: the differences by ids and parts, in contact order.
	prev := map[partKey]bool{}
	for _, c := range h.m.contacts {
		prev[h13Key(c)] = true
	}
	cur := map[partKey]bool{}
	for _, c := range got {
		cur[h13Key(c)] = true
	}
	var wantBegan, wantEnded []collide.Contact
	for _, c := range got {
		if !prev[h13Key(c)] {
			wantBegan = append(wantBegan, c)
		}
	}
	for _, c := range h.m.contacts {
		if !cur[h13Key(c)] {
			wantEnded = append(wantEnded, c)
		}
	}
	began, ended := h13List(w0.Began()), h13List(w0.Ended())
	if !slices.Equal(began, wantBegan) {
		h.fail("Began:%s\n  want%s", h13Fmt(began), h13Fmt(wantBegan))
	}
	if !slices.Equal(ended, wantEnded) {
		h.fail("Ended:%s\n  want%s", h13Fmt(ended), h13Fmt(wantEnded))
	}
	st := w0.Stats()
	if st.Contacts != len(got) || st.Began != len(began) || st.Ended != len(ended) || st.Bodies != len(h.m.live) || w0.ContactCount() != len(got) || w0.Len() != len(h.m.live) {
		h.fail("Stats %+v, ContactCount %d, Len %d; want %d contacts, %d began, %d ended, %d bodies", st, w0.ContactCount(), w0.Len(), len(got), len(began), len(ended), len(h.m.live))
	}
	hash := w0.StateHash()
	for i, w := range h.worlds[1:] {
		if c := h13List(w.Contacts()); !slices.Equal(c, got) {
			h.fail("%s's contacts differ from %s's:%s\n  vs%s", h.names[i+1], h.names[0], h13Fmt(c), h13Fmt(got))
		}
		if b := h13List(w.Began()); !slices.Equal(b, began) {
			h.fail("%s's Began differ from %s's:%s\n  vs%s", h.names[i+1], h.names[0], h13Fmt(b), h13Fmt(began))
		}
		if e := h13List(w.Ended()); !slices.Equal(e, ended) {
			h.fail("%s's Ended differ from %s's:%s\n  vs%s", h.names[i+1], h.names[0], h13Fmt(e), h13Fmt(ended))
		}
		if w.StateHash() != hash {
			h.fail("%s's StateHash differs from %s's", h.names[i+1], h.names[0])
		}
	}
	h.m.contacts = got
	h.counts["contacts"] += len(got)
	for _, c := range got {
		if c.Swept {
			h.counts["swept"]++
		}
		if c.PartA != 0 || c.PartB != 0 {
			h.counts["part contacts"]++
		}
	}
	h.counts["began"] += len(began)
	h.counts["ended"] += len(ended)
	// Removed bodies: those removed before the Step before this one are
	// gone now; those removed since it are readable until the next.
	for _, b := range h.m.dead {
		h.m.gone = append(h.m.gone, b.id)
	}
	h.m.dead, h.m.dying = h.m.dying, nil
	for i, w := range h.worlds {
		for _, b := range h.m.dead {
			if bd, err := w.Body(b.id); err != nil || !bd.Removed || bd.Position != b.pos {
				h.fail("%s: Body(%#x), removed before this Step = %+v, %v; want it readable, Removed", h.names[i], uint64(b.id), bd, err)
			}
		}
		for _, id := range h.m.gone {
			if _, err := w.Body(id); !errors.Is(err, collide.ErrUnknownBody) {
				h.fail("%s: Body(%#x), removed two Steps ago = %v, want ErrUnknownBody", h.names[i], uint64(id), err)
			}
		}
	}
	for _, b := range h.m.live {
		b.prevPos, b.prevAngle = b.pos, b.angle
	}
	h.checkBodies()
	if len(h.m.gone) > 64 {
		h.m.gone = h.m.gone[len(h.m.gone)-64:]
	}
}

// snapshot adds a clone of a world, or its snapshot restored into a fresh
// world of another worker count, to the worlds driven; now and then it
// keeps the snapshot for a rollback.
func (h *h13Run) snapshot() {
	r := h.r
	i := r.IntN(len(h.worlds))
	src := h.worlds[i]
	var nw *collide.World
	var name string
	if r.IntN(2) == 0 {
		nw = src.Clone()
		name = fmt.Sprintf("clone of %s at op %d", h.names[i], h.op)
	} else {
		data, err := src.MarshalBinary()
		if err != nil {
			h.fail("MarshalBinary: %v", err)
		}
		n := 1 + r.IntN(4)
		nw = collide.NewWorld(collide.Config{Workers: n})
		if err := nw.UnmarshalBinary(data); err != nil {
			h.fail("UnmarshalBinary into a fresh world: %v", err)
		}
		name = fmt.Sprintf("snapshot of %s at op %d into Workers %d", h.names[i], h.op, n)
		if r.IntN(2) == 0 {
			h.saved, h.savedM = data, h.m.clone()
		}
	}
	h.did("%s", name)
	h.counts["snapshots"]++
	if nw.StateHash() != src.StateHash() {
		h.fail("%s: StateHash differs", name)
	}
	if c := h13List(nw.Contacts()); !slices.Equal(c, h.m.contacts) {
		h.fail("%s: contacts differ:%s\n  want%s", name, h13Fmt(c), h13Fmt(h.m.contacts))
	}
	if len(h.worlds) >= 6 {
		k := 3 + r.IntN(len(h.worlds)-3)
		h.worlds[k].Close()
		h.worlds = slices.Delete(h.worlds, k, k+1)
		h.names = slices.Delete(h.names, k, k+1)
	}
	h.worlds = append(h.worlds, nw)
	h.names = append(h.names, name)
}

// rollback restores the saved snapshot into every world.
func (h *h13Run) rollback() {
	if h.saved == nil {
		h.snapshot()
		return
	}
	h.did("rollback")
	h.counts["rollbacks"]++
	for i, w := range h.worlds {
		if err := w.UnmarshalBinary(h.saved); err != nil {
			h.fail("%s: UnmarshalBinary of the saved frame: %v", h.names[i], err)
		}
	}
	h.m = h.savedM.clone()
	for i, w := range h.worlds {
		if c := h13List(w.Contacts()); !slices.Equal(c, h.m.contacts) {
			h.fail("%s: restored contacts differ:%s\n  want%s", h.names[i], h13Fmt(c), h13Fmt(h.m.contacts))
		}
	}
}

// crowd adds a thousand small bodies, enough for the parallel narrow
// phase and broad-phase queries of the worlds of more than one worker,
// steps, moves most of them out of their fat boxes, steps, and removes
// them again.
func (h *h13Run) crowd() {
	h.crowded = true
	r := h.r
	n := 1100
	side := 32.0
	var crowd []*h13Body
	for range n {
		var s collide.Shape
		switch r.IntN(4) {
		case 0:
			s, _ = collide.NewAABB(h.grid(0.25, 1), h.grid(0.25, 1))
		case 1:
			s, _ = collide.NewOBB(h.grid(0.25, 1), h.grid(0.25, 1))
		default:
			s, _ = collide.NewCircle(h.grid(0.5, 1.25))
		}
		fb := h13BodyFilters[r.IntN(len(h13BodyFilters))]
		b := &h13Body{sh: s, pos: h.origin.Add(collide.V(h.grid(0, side), h.grid(0, side))), angle: h.angle(), cat: fb[0], mask: fb[1],
			sensor: r.IntN(10) == 0, static: r.IntN(5) == 0, bullet: r.IntN(50) == 0}
		b.prevPos, b.prevAngle = b.pos, b.angle
		d := collide.BodyDef{Shape: s, Position: b.pos, Angle: b.angle, Sensor: b.sensor, Bullet: b.bullet, Filter: collide.Filter{Category: fb[0], Mask: fb[1]}}
		if b.static {
			d.Kind = collide.Static
		}
		h.all("Add", func(w *collide.World) error {
			id, err := w.Add(d)
			if err != nil {
				h.fail("crowd Add: %v", err)
			}
			if b.id == 0 {
				b.id = id
			} else if id != b.id {
				h.fail("crowd Add gives %#x and %#x", uint64(id), uint64(b.id))
			}
			return nil
		})
		crowd = append(crowd, b)
		h.m.live = append(h.m.live, b)
	}
	h.did("crowd of %d added", n)
	h.step()
	if p := h.worlds[0].Stats().Pairs; p < 4096 {
		h.t.Logf("crowd: only %d candidate pairs", p)
	}
	h.query()
	for _, b := range crowd[:700] {
		d := collide.V(h.grid(-6, 6), h.grid(-6, 6))
		h.all("Move", func(w *collide.World) error { return w.Move(b.id, d) })
		b.pos = b.pos.Add(d)
	}
	for _, b := range crowd {
		if b.bullet { // across the crowd
			d := collide.V(h.grid(-side, side), h.grid(-side, side))
			h.all("Move", func(w *collide.World) error { return w.Move(b.id, d) })
			b.pos = b.pos.Add(d)
		}
	}
	h.did("crowd moved")
	for range 12 {
		h.query()
	}
	for _, b := range crowd {
		h.all("Remove", func(w *collide.World) error { return w.Remove(b.id) })
		h.m.live = slices.DeleteFunc(h.m.live, func(x *h13Body) bool { return x == b })
		h.m.dying = append(h.m.dying, b)
	}
	h.did("crowd removed")
	h.step()
	h.step()
	h.counts["crowds"]++
}

// checkBodies compares Body of every live body, in a random world, with
// the model.
func (h *h13Run) checkBodies() {
	i := h.r.IntN(len(h.worlds))
	w := h.worlds[i]
	for _, b := range h.m.live {
		bd, err := w.Body(b.id)
		kind := collide.Dynamic
		if b.static {
			kind = collide.Static
		}
		if err != nil || bd.ID != b.id || !h13SameShape(bd.Shape, b.sh) || bd.Position != b.pos || math.Float64bits(bd.Angle) != math.Float64bits(b.angle) ||
			bd.Filter != (collide.Filter{Category: b.cat, Mask: b.mask}) || bd.Kind != kind || bd.Sensor != b.sensor || bd.Bullet != b.bullet ||
			bd.AABB != b.sh.WorldAABB(b.xf()) || bd.Removed || !w.Contains(b.id) {
			h.fail("%s: Body(%#x) = %+v, %v; want%s (model's box %v, same shape %v)", h.names[i], uint64(b.id), bd, err, h.describe(b.id), b.sh.WorldAABB(b.xf()), h13SameShape(bd.Shape, b.sh))
		}
	}
}

// h13SameShape reports whether two shapes hold the same content (Identical
// compares identity: a restored snapshot's shapes are copies).
func h13SameShape(a, b collide.Shape) bool {
	if a.Kind() != b.Kind() || a.String() != b.String() || a.Radius() != b.Radius() || a.HalfExtents() != b.HalfExtents() ||
		a.Center() != b.Center() || !slices.Equal(a.Vertices(), b.Vertices()) || !slices.Equal(a.Normals(), b.Normals()) {
		return false
	}
	pa, ca := a.ChainPoints()
	pb, cb := b.ChainPoints()
	if ca != cb || !slices.Equal(pa, pb) {
		return false
	}
	qa, qb := a.Parts(), b.Parts()
	if len(qa) != len(qb) {
		return false
	}
	for i := range qa {
		if qa[i].Offset != qb[i].Offset || !h13SameShape(qa[i].Shape, qb[i].Shape) {
			return false
		}
	}
	if a.Kind() == b.Kind() && (a.Kind().String() == "segment" || a.Kind().String() == "capsule") {
		a0, a1 := a.Segment()
		b0, b1 := b.Segment()
		return a0 == b0 && a1 == b1
	}
	return true
}
