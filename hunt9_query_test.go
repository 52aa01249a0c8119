package collide_test

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks RayCast, RayCastAll, CastShape and CastShapeAll on
// worlds of every body kind (long open and closed chains included) after
// random mutations, clones and snapshot restores, by methods of its own:
// a ray's entry into each body by sphere tracing with the point distance
// (narrowphase.Distance: never past the first touch, converging onto it),
// a cast's first touch by dense sampling of Overlap along the motion and
// bisection, both per live body of a model the test keeps, and RayHit's
// and ShapeHit's Point, Normal and Part against the part they name.

var h9Seed = flag.Uint64("h9seed", 0, "seed for TestHunt9RayAndCastOracle (0: a random one)")

type h9Body struct {
	id     collide.BodyID
	s      collide.Shape
	pos    collide.Vec2
	angle  float64
	filter collide.Filter
	sensor bool
}

func (b *h9Body) xf() collide.Transform { return collide.NewTransform(b.pos, b.angle) }

type h9Run struct {
	t      *testing.T
	r      *rand.Rand
	seed   uint64
	w      *collide.World
	origin collide.Vec2
	live   []*h9Body
	op     int
	fails  int
}

func (h *h9Run) fail(format string, args ...any) {
	h.t.Helper()
	h.fails++
	if h.fails > 8 {
		return
	}
	h.t.Errorf("seed %d op %d origin %v: %s\nreplay: go test -run TestHunt9RayAndCastOracle -h9seed %d .", h.seed, h.op, h.origin, fmt.Sprintf(format, args...), h.seed)
}

func (h *h9Run) f(lo, hi float64) float64 { return lo + (hi-lo)*h.r.Float64() }

// grid returns a multiple of 1/16 in [lo, hi] half the time, so that exact
// touching and rays along edges come up.
func (h *h9Run) grid(lo, hi float64) float64 {
	if h.r.IntN(2) == 0 {
		return math.Round(h.f(lo, hi)*16) / 16
	}
	return h.f(lo, hi)
}

func (h *h9Run) size() float64 { return h.grid(0.125, 1.25) }

func (h *h9Run) convex() collide.Shape { return randConvex(h.r, h.grid, h.size) }

func (h *h9Run) shape() collide.Shape {
	for {
		var s collide.Shape
		var err error
		switch h.r.IntN(10) {
		case 0:
			parts := make([]collide.Part, 2+h.r.IntN(3))
			for i := range parts {
				parts[i] = collide.Part{Shape: h.convex(), Offset: collide.NewTransform(collide.V(h.grid(-1.5, 1.5), h.grid(-1.5, 1.5)), h.angle())}
			}
			s, err = collide.NewCompound(parts)
		case 1:
			s, err = collide.NewConcavePolygon(randStar(h.r, h.size))
		case 2, 3: // a chain, open or closed, up to long
			n := 2 + h.r.IntN(40)
			pts := make([]collide.Vec2, n)
			closed := n >= 3 && h.r.IntN(2) == 0
			x, y := h.grid(-3, -1), h.grid(-1, 1)
			for i := range pts {
				if closed {
					sn, cs := math.Sincos(2 * math.Pi * float64(i) / float64(n))
					rr := 1 + h.grid(0, 1) + float64(n)/8
					pts[i] = collide.V(rr*cs, rr*sn)
					continue
				}
				pts[i] = collide.V(x, y)
				x += h.grid(0.25, 1.5)
				if h.r.IntN(3) == 0 {
					y += h.grid(-1, 1)
				}
			}
			s, err = collide.NewChain(pts, closed)
		default:
			return h.convex()
		}
		if err == nil {
			return s
		}
	}
}

func (h *h9Run) angle() float64 {
	switch h.r.IntN(4) {
	case 0:
		return 0
	case 1:
		return float64(h.r.IntN(4)) * math.Pi / 2
	}
	return h.f(-math.Pi, math.Pi)
}

func (h *h9Run) pos() collide.Vec2 {
	return h.origin.Add(collide.V(h.grid(-12, 12), h.grid(-12, 12)))
}

func (h *h9Run) bodyFilter() collide.Filter {
	if h.r.IntN(3) > 0 {
		return collide.Filter{}
	}
	return collide.Filter{Category: 1 << h.r.IntN(3), Mask: uint32(h.r.IntN(8)) | 1}
}

func (h *h9Run) queryFilter() collide.Filter {
	var f collide.Filter
	switch h.r.IntN(4) {
	case 1:
		f.Mask = 1 << h.r.IntN(3)
	case 2:
		f.Category, f.Mask = 1<<h.r.IntN(3), uint32(h.r.IntN(8))
	}
	if len(h.live) > 0 && h.r.IntN(4) == 0 {
		f.Exclude = h.live[h.r.IntN(len(h.live))].id
	}
	f.SkipSensors = h.r.IntN(3) == 0
	return f
}

func h9Passes(f collide.Filter, b *h9Body) bool {
	bc, bm := bits(b.filter)
	return queryPasses(f, b.id, bc, bm, b.sensor)
}

func (h *h9Run) add() {
	b := &h9Body{s: h.shape(), pos: h.pos(), angle: h.angle(), filter: h.bodyFilter(), sensor: h.r.IntN(5) == 0}
	kind := collide.Dynamic
	if h.r.IntN(3) == 0 {
		kind = collide.Static
	}
	id, err := h.w.Add(collide.BodyDef{Shape: b.s, Position: b.pos, Angle: b.angle, Filter: b.filter, Sensor: b.sensor, Kind: kind, Bullet: h.r.IntN(6) == 0})
	if err != nil {
		h.t.Fatalf("Add: %v", err)
	}
	b.id = id
	h.live = append(h.live, b)
}

func (h *h9Run) mutate() {
	h.op++
	if len(h.live) == 0 {
		h.add()
		return
	}
	b := h.live[h.r.IntN(len(h.live))]
	var err error
	switch h.r.IntN(12) {
	case 0, 1:
		h.add()
	case 2:
		err = h.w.Remove(b.id)
		h.live = slices.DeleteFunc(h.live, func(x *h9Body) bool { return x == b })
	case 3, 4:
		b.pos, b.angle = h.pos(), h.angle()
		err = h.w.SetTransform(b.id, b.pos, b.angle)
	case 5:
		d := collide.V(h.grid(-2, 2), h.grid(-2, 2))
		b.pos = b.pos.Add(d)
		err = h.w.Move(b.id, d)
	case 6:
		b.s = h.shape()
		err = h.w.SetShape(b.id, b.s)
	case 7:
		b.filter = h.bodyFilter()
		err = h.w.SetFilter(b.id, b.filter)
	case 8:
		b.sensor = !b.sensor
		err = h.w.SetSensor(b.id, b.sensor)
	case 9:
		h.w.Step()
	case 10:
		h.w = h.w.Clone()
	case 11:
		data, e := h.w.MarshalBinary()
		if e != nil {
			h.t.Fatalf("MarshalBinary: %v", e)
		}
		w := collide.NewWorld(collide.Config{Workers: 1})
		err = w.UnmarshalBinary(data)
		h.w = w
	}
	if err != nil {
		h.t.Fatalf("op %d: %v", h.op, err)
	}
}

// tol is the absolute tolerance on positions near the run's origin.
func (h *h9Run) tol() float64 {
	return 1e-7 + 1e-14*(math.Abs(h.origin.X)+math.Abs(h.origin.Y))
}

// trace returns the distance along the ray from origin (unit dir) at which
// sphere tracing with the point distance to s comes within eps of it, up to
// maxDist: ok false when it does not, sure false when the iterations ran
// out (a grazing ray).
func h9Trace(s collide.Shape, xf collide.Transform, origin, dir collide.Vec2, maxDist, eps float64) (d float64, ok, sure bool) {
	t := 0.0
	for range 20000 {
		p := origin.Add(dir.Scale(t))
		dd := narrowphase.Distance(s, xf, p)
		if dd <= eps {
			return t, true, true
		}
		t += dd
		if t > maxDist {
			return 0, false, true
		}
	}
	return 0, false, false
}

// h9Enters reports whether the ray surely enters body b near distance td
// (where tracing came within a rounding distance of it), not just grazes
// it: a point a step d past td lies inside an area part, or the points d
// before and after lie on opposite sides of a segment part's line, by more
// than the rounding, crossing it away from its ends.
func h9Enters(b *h9Body, origin, dir collide.Vec2, td, d, tol float64) bool {
	n := 1
	if b.s.Kind() == shape.KindCompound || b.s.Kind() == shape.KindChain {
		n = b.s.PartCount()
	}
	p0, p1 := origin.Add(dir.Scale(max(td-d, 0))), origin.Add(dir.Scale(td+d))
	for i := range n {
		ps, pt := b.s.Part(i, b.xf())
		if ps.Kind() != shape.KindSegment {
			if narrowphase.ContainsPoint(ps, pt, p1) && narrowphase.Distance(ps, pt, p1) == 0 {
				// inside: check it is deep enough, by a circle test of the
				// distance to the part's outside along a few directions
				if h9Depth(ps, pt, p1) > tol {
					return true
				}
			}
			continue
		}
		a, c := ps.Segment()
		a, c = pt.Apply(a), pt.Apply(c)
		e := c.Sub(a)
		l := e.Len()
		nn := collide.V(-e.Y/l, e.X/l)
		s0, s1 := p0.Sub(a).Dot(nn), p1.Sub(a).Dot(nn)
		if (s0 > tol && s1 < -tol) || (s0 < -tol && s1 > tol) {
			x := p0.Add(p1.Sub(p0).Scale(s0 / (s0 - s1)))
			u := x.Sub(a).Dot(e) / l
			if u > 4*d && u < l-4*d {
				return true
			}
		}
	}
	return false
}

// h9Depth returns a lower bound on how deep p lies in the area shape s: the
// shortest of the distances to leave it along 16 directions, found by
// bisection with ContainsPoint.
func h9Depth(s collide.Shape, t collide.Transform, p collide.Vec2) float64 {
	r := 4 * (s.BoundingRadius() + p.Sub(t.Pos).Len())
	best := math.Inf(1)
	for k := range 16 {
		sn, cs := math.Sincos(2 * math.Pi * float64(k) / 16)
		dir := collide.V(cs, sn)
		lo, hi := 0.0, r
		for range 50 {
			m := (lo + hi) / 2
			if narrowphase.ContainsPoint(s, t, p.Add(dir.Scale(m))) {
				lo = m
			} else {
				hi = m
			}
		}
		best = min(best, lo*math.Cos(math.Pi/16))
	}
	return best
}

func (h *h9Run) randDir() collide.Vec2 {
	for {
		if d := h.randDir1(); d != (collide.Vec2{}) {
			return d
		}
	}
}

func (h *h9Run) randDir1() collide.Vec2 {
	switch h.r.IntN(4) {
	case 0:
		return [...]collide.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[h.r.IntN(4)]
	case 1:
		return collide.V(h.grid(-1, 1), h.grid(-1, 1)).Scale(float64(1 + h.r.IntN(3)))
	}
	a := h.f(-math.Pi, math.Pi)
	return collide.V(math.Cos(a), math.Sin(a))
}

// features returns points of a body to aim at: its vertices and chain
// points, in world coordinates.
func h9Features(b *h9Body) []collide.Vec2 {
	var out []collide.Vec2
	n := 1
	if b.s.Kind() == shape.KindCompound || b.s.Kind() == shape.KindChain {
		n = b.s.PartCount()
	}
	for i := range n {
		ps, pt := b.s.Part(i, b.xf())
		switch ps.Kind() {
		case shape.KindCircle:
			out = append(out, pt.Apply(ps.Center()))
		case shape.KindAABB:
			for _, c := range ps.Corners() {
				out = append(out, c.Add(pt.Pos))
			}
		case shape.KindOBB:
			for _, c := range ps.Corners() {
				out = append(out, pt.Apply(c))
			}
		case shape.KindPolygon:
			for _, c := range ps.Vertices() {
				out = append(out, pt.Apply(c))
			}
		default:
			p0, p1 := ps.Segment()
			out = append(out, pt.Apply(p0), pt.Apply(p1))
		}
	}
	return out
}

// ray picks a ray: from a random place or from inside a body, aimed at
// random, at a body's feature, or along a chain segment.
func (h *h9Run) ray() (origin, dir collide.Vec2, maxDist float64) {
	origin = h.pos()
	dir = h.randDir()
	if len(h.live) > 0 && h.r.IntN(2) == 0 {
		b := h.live[h.r.IntN(len(h.live))]
		fs := h9Features(b)
		p := fs[h.r.IntN(len(fs))]
		switch h.r.IntN(3) {
		case 0: // through a vertex
			if d := p.Sub(origin); d.LenSq() > 0 {
				dir = d
			}
		case 1: // from a vertex
			origin = p
		default: // along a segment or edge of the body
			if len(fs) >= 2 {
				i := h.r.IntN(len(fs) - 1)
				if d := fs[i+1].Sub(fs[i]); d.LenSq() > 0 {
					dir = d
					origin = fs[i].Sub(d.Scale(h.f(0, 3)))
				}
			}
		}
	}
	switch h.r.IntN(5) {
	case 0:
		maxDist = math.Inf(1)
	case 1:
		maxDist = 0
	default:
		maxDist = h.grid(0, 30)
	}
	return origin, dir, maxDist
}

// partOf returns the part i of body b placed.
func h9Part(b *h9Body, i int) (collide.Shape, collide.Transform, bool) {
	n := 1
	if b.s.Kind() == shape.KindCompound || b.s.Kind() == shape.KindChain {
		n = b.s.PartCount()
	}
	if i < 0 || i >= n {
		return collide.Shape{}, collide.Transform{}, false
	}
	s, t := b.s.Part(i, b.xf())
	return s, t, true
}

func h9Unit(dir collide.Vec2) collide.Vec2 {
	if math.Abs(dir.LenSq()-1) <= 1e-15 {
		return dir // as the World keeps a unit direction
	}
	m := max(math.Abs(dir.X), math.Abs(dir.Y))
	return collide.V(dir.X/m, dir.Y/m).Normalize()
}

func (h *h9Run) checkRay() {
	origin, dir, maxDist := h.ray()
	f := h.queryFilter()
	unit := h9Unit(dir)
	tol := h.tol()
	what := fmt.Sprintf("RayCast(%v, %v, %v, %+v)", origin, dir, maxDist, f)

	var all []collide.RayHit
	if err := h.w.RayCastAll(origin, dir, maxDist, f, func(x collide.RayHit) bool { all = append(all, x); return true }); err != nil {
		h.fail("%s: %v", what, err)
		return
	}
	first, ok, err := h.w.RayCast(origin, dir, maxDist, f)
	if err != nil {
		h.fail("%s: %v", what, err)
		return
	}
	if ok != (len(all) > 0) || (ok && first != all[0]) {
		h.fail("%s = %+v, %v; RayCastAll's first is %+v", what, first, ok, all)
	}
	if !slices.IsSortedFunc(all, func(x, y collide.RayHit) int {
		if c := cmp.Compare(x.Distance, y.Distance); c != 0 {
			return c
		}
		return cmp.Compare(x.Body, y.Body)
	}) {
		h.fail("%s: RayCastAll out of order: %+v", what, all)
	}
	got := map[collide.BodyID]collide.RayHit{}
	for _, x := range all {
		if _, dup := got[x.Body]; dup {
			h.fail("%s: body %v twice", what, x.Body)
		}
		got[x.Body] = x
	}
	for _, b := range h.live {
		x, hit := got[b.id]
		if !h9Passes(f, b) {
			if hit {
				h.fail("%s: hit %v, which the filter refuses (%+v sensor %v)", what, b.id, b.filter, b.sensor)
			}
			continue
		}
		delete(got, b.id)
		// Every body lies within 100 of the run's origin.
		td, tok, sure := h9Trace(b.s, b.xf(), origin, unit, min(maxDist, 200), tol/16)
		if !hit {
			if tok && td < min(maxDist, 200)-64*tol && sure && h9Enters(b, origin, unit, td, 32*tol, tol) {
				// Sure of an entry only if it also goes in: a trace within
				// tol/16 that is a near miss is not.
				wb, _ := h.w.Body(b.id)
				h1, ok1 := narrowphase.RayCast(b.s, b.xf(), origin, unit, maxDist)
				h.fail("%s: misses body %v (%v at %v angle %v; world %+v), which the ray meets at about %v (narrowphase %+v %v)", what, b.id, b.s, b.pos, b.angle, wb, td, h1, ok1)
			}
			continue
		}
		if x.Distance < 0 || x.Distance > maxDist {
			h.fail("%s: body %v at %v, beyond [0, %v]", what, b.id, x.Distance, maxDist)
		}
		if sure && (!tok || td > x.Distance+4*tol) {
			h.fail("%s: body %v at %v, but the ray is still %v away there (trace: %v, %v)", what, b.id, x.Distance, narrowphase.Distance(b.s, b.xf(), origin.Add(unit.Scale(x.Distance))), td, tok)
		}
		if sure && tok && td < x.Distance-4*tol {
			// The trace came within tol/16 before the reported entry: a
			// near miss or a missed earlier entry. Check the latter by
			// stepping a hair on.
			if td < x.Distance-64*tol && h9Enters(b, origin, unit, td, 32*tol, tol) {
				h.fail("%s: body %v entered at %v, but the ray reaches it at about %v", what, b.id, x.Distance, td)
			}
		}
		if d := x.Point.Sub(origin.Add(unit.Scale(x.Distance))).Len(); d > 4*tol {
			h.fail("%s: body %v point %v is %v off the ray at distance %v", what, b.id, x.Point, d, x.Distance)
		}
		if math.Abs(x.Normal.Len()-1) > 1e-9 {
			h.fail("%s: body %v normal %v not unit", what, b.id, x.Normal)
		}
		ps, pt, pok := h9Part(b, x.Part)
		if !pok {
			h.fail("%s: body %v part %d out of range", what, b.id, x.Part)
			continue
		}
		if d := narrowphase.Distance(ps, pt, x.Point); d > 4*tol {
			h.fail("%s: body %v point %v is %v from part %d (%v)", what, b.id, x.Point, d, x.Part, ps)
		}
		if x.Distance == 0 && narrowphase.ContainsPoint(b.s, b.xf(), origin) {
			if x.Normal != unit.Neg() {
				h.fail("%s: starts inside body %v (%v at %v angle %v; part %d %v), normal %v, want %v", what, b.id, b.s, b.pos, b.angle, x.Part, ps, x.Normal, unit.Neg())
			}
			continue
		}
		if x.Distance == 0 && x.Normal == unit.Neg() {
			continue // on the boundary by rounding: the convention's normal
		}
		if x.Normal.Dot(unit) > 1e-9 {
			h.fail("%s: body %v normal %v along the ray %v", what, b.id, x.Normal, unit)
		}
		// The normal is the part's outward normal at the point: a step
		// along it leaves the part by the step.
		step := 1e-3 * ps.BoundingRadius()
		if d := narrowphase.Distance(ps, pt, x.Point.Add(x.Normal.Scale(step))); math.Abs(d-step) > 1e-6*step+8*tol {
			h.fail("%s: body %v (%v at %#v angle %v) part %d (%v placed %#v) normal %v at %v (%+v): a step of %v along it is %v from the part", what, b.id, b.s, b.pos, b.angle, x.Part, ps, pt, x.Normal, x.Point, x, step, d)
		}
	}
	for id := range got {
		h.fail("%s: hit %v, not a live body", what, id)
	}
}

// overlapAt reports whether s placed by t moved by u·delta overlaps body b.
func h9OverlapAt(s collide.Shape, t collide.Transform, delta collide.Vec2, u float64, b *h9Body) bool {
	tt := t
	tt.Pos = t.Pos.Add(delta.Scale(u))
	return narrowphase.Overlap(s, tt, b.s, b.xf())
}

func (h *h9Run) checkCast() {
	qs := h.shape()
	for qs.Kind() == shape.KindChain || qs.Kind() == shape.KindSegment {
		qs = h.shape()
	}
	qt := collide.NewTransform(h.pos(), h.angle())
	delta := collide.V(h.grid(-16, 16), h.grid(-16, 16))
	switch h.r.IntN(6) {
	case 0:
		delta = collide.Vec2{}
	case 1: // aimed at a body's feature
		if len(h.live) > 0 {
			b := h.live[h.r.IntN(len(h.live))]
			fs := h9Features(b)
			delta = fs[h.r.IntN(len(fs))].Sub(qt.Pos).Scale(h.f(0.5, 2))
		}
	}
	f := h.queryFilter()
	what := fmt.Sprintf("CastShape(%v at %v angle %v by %v, %+v)", qs, qt.Pos, qt.Rot.Angle(), delta, f)
	var all []collide.ShapeHit
	if err := h.w.CastShapeAll(qs, qt, delta, f, func(x collide.ShapeHit) bool { all = append(all, x); return true }); err != nil {
		h.fail("%s: %v", what, err)
		return
	}
	first, ok, err := h.w.CastShape(qs, qt, delta, f)
	if err != nil {
		h.fail("%s: %v", what, err)
		return
	}
	if ok != (len(all) > 0) || (ok && first != all[0]) {
		h.fail("%s = %+v, %v; CastShapeAll's first is %+v", what, first, ok, all)
	}
	if !slices.IsSortedFunc(all, func(x, y collide.ShapeHit) int {
		if c := cmp.Compare(x.Fraction, y.Fraction); c != 0 {
			return c
		}
		return cmp.Compare(x.Body, y.Body)
	}) {
		h.fail("%s: CastShapeAll out of order: %+v", what, all)
	}
	got := map[collide.BodyID]collide.ShapeHit{}
	for _, x := range all {
		if _, dup := got[x.Body]; dup {
			h.fail("%s: body %v twice", what, x.Body)
		}
		got[x.Body] = x
	}
	l := delta.Len()
	tol := h.tol()
	ftol := 0.0 // tolerance on fractions
	if l > 0 {
		ftol = 8 * tol / l
	}
	swept := qs.WorldAABB(qt)
	swept = swept.Union(collide.AABB{Min: swept.Min.Add(delta), Max: swept.Max.Add(delta)})
	const n = 1024
	for _, b := range h.live {
		x, hit := got[b.id]
		if !h9Passes(f, b) {
			if hit {
				h.fail("%s: hit %v, which the filter refuses", what, b.id)
			}
			continue
		}
		delete(got, b.id)
		bb := b.s.WorldAABB(b.xf())
		if !bb.Overlaps(swept) && !hit {
			continue
		}
		// The first sample that overlaps, then bisection below it.
		firstOver := -1.0
		if h9OverlapAt(qs, qt, delta, 0, b) {
			firstOver = 0
		} else if l > 0 {
			lo := 0.0
			for i := 1; i <= n; i++ {
				u := float64(i) / n
				if h9OverlapAt(qs, qt, delta, u, b) {
					hi := u
					for range 60 {
						m := (lo + hi) / 2
						if h9OverlapAt(qs, qt, delta, m, b) {
							hi = m
						} else {
							lo = m
						}
					}
					firstOver = hi
					break
				}
				lo = u
			}
		}
		if !hit {
			if firstOver >= 0 {
				h.fail("%s: misses body %v (%v at %v angle %v), which it overlaps at fraction %v", what, b.id, b.s, b.pos, b.angle, firstOver)
			}
			continue
		}
		if x.Fraction < 0 || x.Fraction > 1 {
			h.fail("%s: body %v at fraction %v", what, b.id, x.Fraction)
		}
		if firstOver == 0 && x.Fraction != 0 {
			h.fail("%s: body %v overlapped at the start, fraction %v", what, b.id, x.Fraction)
		}
		if firstOver >= 0 && x.Fraction > firstOver+ftol {
			h.fail("%s: body %v first touched at %v, but overlapped at %v", what, b.id, x.Fraction, firstOver)
		}
		ps, pt, pok := h9Part(b, x.Part)
		if !pok {
			h.fail("%s: body %v part %d out of range", what, b.id, x.Part)
			continue
		}
		// The touch: Point on the named part and on the moved shape.
		mt := qt
		mt.Pos = qt.Pos.Add(delta.Scale(x.Fraction))
		dp := narrowphase.Distance(ps, pt, x.Point)
		dm := narrowphase.Distance(qs, mt, x.Point)
		if firstOver != 0 && (dp > 8*tol || dm > 8*tol) {
			h.fail("%s: body %v at fraction %v (first overlap %v): point %v is %v from part %d (%v) and %v from the moved shape", what, b.id, x.Fraction, firstOver, x.Point, dp, x.Part, ps, dm)
		}
		if math.Abs(x.Normal.Len()-1) > 1e-9 {
			h.fail("%s: body %v normal %v not unit", what, b.id, x.Normal)
		}
		if x.Fraction > 0 && x.Normal.Dot(delta) > 1e-9*l {
			h.fail("%s: body %v at fraction %v: normal %v (body toward mover) along the motion", what, b.id, x.Fraction, x.Normal)
		}
		if firstOver == 0 {
			m, cok := narrowphase.Collide(qs, qt, b.s, b.xf())
			if cok && (x.Normal != m.Normal.Neg() || x.Point != m.Points[0].Point) {
				h.fail("%s: body %v overlapped at the start: hit %+v, Collide %+v", what, b.id, x, m)
			}
		}
	}
	for id := range got {
		h.fail("%s: hit %v, not a live body", what, id)
	}
}

// checkNearest compares Nearest and NearestWithin, with k up to past the
// body count and points inside bodies, with the distance to every live
// body passing the filter (narrowphase.Distance, no pruning), ordered by
// distance then id.
func (h *h9Run) checkNearest() {
	p := h.pos()
	if len(h.live) > 0 && h.r.IntN(3) == 0 {
		b := h.live[h.r.IntN(len(h.live))]
		fs := h9Features(b)
		p = fs[h.r.IntN(len(fs))]
	}
	k := 1 + h.r.IntN(len(h.live)+3)
	f := h.queryFilter()
	maxDist := math.Inf(1)
	if h.r.IntN(2) == 0 {
		maxDist = h.grid(0, 12)
	}
	type nd struct {
		id collide.BodyID
		d  float64
	}
	var want []nd
	for _, b := range h.live {
		if h9Passes(f, b) {
			if d := narrowphase.Distance(b.s, b.xf(), p); d <= maxDist {
				want = append(want, nd{b.id, d})
			}
		}
	}
	slices.SortFunc(want, func(x, y nd) int {
		if c := cmp.Compare(x.d, y.d); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	want = want[:min(k, len(want))]
	var got []nd
	if err := h.w.NearestWithin(p, k, maxDist, f, func(id collide.BodyID, d float64) bool { got = append(got, nd{id, d}); return true }); err != nil {
		h.fail("NearestWithin: %v", err)
	}
	if !slices.Equal(got, want) {
		h.fail("NearestWithin(%v, k=%d, %v, %+v) = %v, want %v", p, k, maxDist, f, got, want)
	}
}

func TestHunt9RayAndCastOracle(t *testing.T) {
	seed := *h9Seed
	if seed == 0 {
		seed = randomSeed()
	}
	runs, ops := 24, 60
	if testing.Short() {
		runs, ops = 6, 30
	}
	origins := []collide.Vec2{{}, {X: 1e3, Y: -1e3}, {X: 1e6, Y: 1e6}, {X: -1e9, Y: 1e9}, {X: 1e12, Y: -1e12}}
	for run := range runs {
		rs := seed + uint64(run)
		h := &h9Run{t: t, r: rand.New(rand.NewPCG(rs, rs^0x9e3779b97f4a7c15)), seed: seed, w: collide.NewWorld(collide.Config{Workers: 1})}
		h.origin = origins[run%len(origins)]
		for range 8 + h.r.IntN(16) {
			h.add()
		}
		for range ops {
			h.mutate()
			for range 4 {
				h.checkRay()
			}
			h.checkCast()
			h.checkNearest()
			if h.fails > 8 {
				t.Fatalf("seed %d: too many failures", seed)
			}
		}
	}
}
