package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// h11Hull returns the convex hull of pts, counter-clockwise (Andrew's
// monotone chain in float64).
func h11Hull(pts []shape.Vec2) []shape.Vec2 {
	p := append([]shape.Vec2(nil), pts...)
	sort.Slice(p, func(i, j int) bool { return p[i].X < p[j].X || (p[i].X == p[j].X && p[i].Y < p[j].Y) })
	cross := func(o, a, b shape.Vec2) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []shape.Vec2
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, q := range p {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	if len(h) == 0 {
		return p[:1]
	}
	return h
}

// h11Mink returns the Minkowski difference b − a of two parts: a moved by
// x touches b exactly when x lies in it.
func h11Mink(b, a h11Core) h11Core {
	var d []shape.Vec2
	for _, p := range b.pts {
		for _, q := range a.pts {
			d = append(d, p.Sub(q))
		}
	}
	return h11Core{pts: h11Hull(d), r: a.r + b.r}
}

// h11Mover returns a random convex shape to cast.
func h11Mover(rng *rand.Rand) shape.Shape {
	k := [5]shape.Kind{shape.KindCircle, shape.KindAABB, shape.KindOBB, shape.KindPolygon, shape.KindCapsule}[rng.IntN(5)]
	return exRandShape(rng, k)
}

// h11CheckCast compares Cast(a, ta, delta, b, tb) with the Minkowski
// differences of a with each part of b, built explicitly and searched
// along the motion, and reports whether it hit.
func h11CheckCast(t *testing.T, a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, desc string) bool {
	t.Helper()
	h, ok := narrowphase.Cast(a, ta, delta, b, tb)
	desc = fmt.Sprintf("%s: Cast(%v at %#v, delta %#v, %v at %#v) = %+v, %v", desc, a, ta, delta, b, tb, h, ok)
	ac := h11Parts(a, ta, tb.Pos)[0]
	bs := h11Parts(b, tb, tb.Pos)
	reach := delta.Len()
	for _, c := range append([]h11Core{ac}, bs...) {
		for _, p := range c.pts {
			reach = math.Max(reach, p.Len()+c.r)
		}
	}
	scale := math.Max(1, reach)
	tol := 1e-9 * scale
	wtol := tol + 8e-16*math.Max(math.Abs(tb.Pos.X), math.Abs(tb.Pos.Y))
	ms := make([]h11Core, len(bs))
	must := math.Inf(1) // when the motion surely overlaps a part
	start := math.Inf(1)
	for j, bc := range bs {
		ms[j] = h11Mink(bc, ac)
		f := func(x float64) float64 { return ms[j].sd(delta.Scale(x)) }
		start = math.Min(start, f(0))
		if x, v := h11Min(f, 1); v < -tol {
			must = math.Min(must, h11First(f, x, -tol))
		}
	}
	m, overlap := narrowphase.Collide(a, ta, b, tb)
	if start < -tol && !overlap {
		t.Errorf("the shapes overlap by %.3g at the start, but Collide reports no contact: %s", -start, desc)
		return ok
	}
	if overlap {
		if !ok || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point {
			t.Errorf("the shapes overlap at the start (Collide %+v): want Fraction 0, Normal %v, Point %v: %s", m, m.Normal.Neg(), m.Points[0].Point, desc)
		}
		return ok
	}
	if !ok {
		if !math.IsInf(must, 1) {
			t.Errorf("no hit, but the motion overlaps a part by Fraction %.17g: %s", must, desc)
		}
		return ok
	}
	l := delta.Len()
	if !(h.Fraction >= 0 && h.Fraction <= 1) || (l > 0 && (h.Fraction-must)*l > tol) {
		t.Errorf("Fraction %.17g is outside [0, 1] or past %.17g, where the motion overlaps a part: %s", h.Fraction, must, desc)
		return ok
	}
	if h.Part < 0 || h.Part >= len(bs) {
		t.Errorf("Part %d of %d: %s", h.Part, len(bs), desc)
		return ok
	}
	mj := ms[h.Part]
	q := delta.Scale(h.Fraction)
	if d := mj.sd(q); math.Abs(d) > tol {
		t.Errorf("at Fraction, a is %.3g from touching part %d: %s", d, h.Part, desc)
	}
	if math.Abs(h.Normal.Len()-1) > 1e-12 {
		t.Errorf("Normal is not a unit vector: %s", desc)
		return ok
	}
	// The normal of a plane between part j and a moved by q: an outward
	// normal of their Minkowski difference at q.
	ntol := tol
	if l > 0 && math.Abs(h.Normal.Dot(delta))/l < 1e-6 {
		ntol = 1e-6 * scale // a graze: see h11CheckRay
	}
	if g := mj.support(h.Normal) - h.Normal.Dot(q); math.Abs(g) > ntol {
		t.Errorf("Normal does not separate part %d from a at the touch (off by %.3g): %s", h.Part, g, desc)
	}
	if h.Fraction > 0 && h.Normal.Dot(delta) > tol { // a touch at the start may move away
		t.Errorf("Normal faces along the motion: %s", desc)
	}
	pr := h.Point.Sub(tb.Pos)
	if d := bs[h.Part].sd(pr); math.Abs(d) > wtol {
		t.Errorf("Point is %.3g from part %d's surface: %s", d, h.Part, desc)
	}
	if d := ac.sd(pr.Sub(q)); math.Abs(d) > wtol {
		t.Errorf("Point is %.3g from moved a's surface: %s", d, desc)
	}
	return ok
}

// TestHunt11CastCompositeStartsOracle compares Cast of a circle, box,
// polygon or capsule against compounds, concave polygons, chains, capsules
// and segments, near and far from the world origin, placed to touch b at a
// part's vertex or edge, a rounding hair either side of its boundary,
// inside a part, near a vertex, or farther, moved into b, along the touched
// edge, away, not at all or at random, against the Minkowski difference of
// a with each part of b built explicitly (the hull of the vertex
// differences) and searched along the motion.
func TestHunt11CastCompositeStartsOracle(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1112))
	n := 10000
	if oracleShort() {
		n = 1000
	}
	hits, kinds := 0, map[string]int{}
	for i := range n {
		b, name := h11Shape(rng)
		tb := h11Place(rng)
		p, along, how := h11Touch(rng, b, tb, h11Parts(b, tb, tb.Pos))
		a := h11Mover(rng)
		ra := exRandRot(rng)
		if a.Kind() == shape.KindAABB {
			ra = shape.Rot{}
		}
		// a's support point against u placed at p, a gap along u.
		u := h11Unit(rng)
		lp, r := h11Local(a)
		sa := math.Inf(-1)
		for _, v := range lp {
			sa = math.Max(sa, -u.Dot(h11Rot(ra.Cos(), ra.Sin(), v)))
		}
		gap := [6]float64{0, 0, 1e-12, -1e-12, 1e-9, 0.25}[rng.IntN(6)]
		ta := shape.Transform{Pos: tb.Pos.Add(p.Add(u.Scale(sa + r + gap))), Rot: ra}
		length := exDyad(rng, 0.25, 6)
		var delta shape.Vec2
		switch rng.IntN(6) {
		case 0:
			delta = u.Scale(-length)
		case 1:
			delta = along.Scale(length)
		case 2:
			delta = u.Scale(length)
		case 3:
			delta = shape.Vec2{}
		default:
			delta = h11Unit(rng).Scale(length)
		}
		kinds[name+"/"+how]++
		if h11CheckCast(t, a, ta, delta, b, tb, fmt.Sprintf("case %d, %s from %s", i, name, how)) {
			hits++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d casts, %d hits: %v", n, hits, kinds)
}
