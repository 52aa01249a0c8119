package narrowphase_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// h13Polygon returns the convex polygon of pts or fails.
func h13Polygon(t *testing.T, pts ...shape.Vec2) shape.Shape {
	t.Helper()
	s, err := shape.NewPolygon(pts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// h13CheckPoint checks ContainsPoint, DistanceSq and a RayCast from p
// (which starts inside exactly when ContainsPoint holds) against want.
func h13CheckPoint(t *testing.T, name string, s shape.Shape, tr shape.Transform, p shape.Vec2, want bool) {
	t.Helper()
	if got := narrowphase.ContainsPoint(s, tr, p); got != want {
		t.Errorf("%s: ContainsPoint(%v) = %v, want %v", name, p, got, want)
	}
	if d2 := narrowphase.DistanceSq(s, tr, p); (d2 == 0) != want {
		t.Errorf("%s: DistanceSq(%v) = %g, want zero %v", name, p, d2, want)
	}
	for _, dir := range []shape.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
		h, ok := narrowphase.RayCast(s, tr, p, dir, 1)
		inside := ok && h.Distance == 0 && h.Normal == dir.Neg()
		if inside != want {
			t.Errorf("%s: RayCast from %v along %v = %+v, %v; starts inside %v, want %v", name, p, dir, h, ok, inside, want)
		}
	}
}

// TestContainsPointPolygonVertexBug: a polygon's own vertices are in it
// (shapes are closed), but ContainsPoint tested them against the edges'
// rounded unit normals, by which (-0.5, -1) of this triangle lies 1e-17
// outside the edge to (0.75, 0.5), so it said false while DistanceSq said
// 0 (the distance to the vertex itself). At the origin and at ±1e12.
func TestContainsPointPolygonVertexBug(t *testing.T) {
	s := h13Polygon(t, shape.V(-0.5, -1), shape.V(0, -1), shape.V(0.75, 0.5))
	for _, base := range []shape.Vec2{{}, {X: 1e12, Y: -1e12}} {
		tr := shape.Transform{Pos: base}
		for _, v := range s.Vertices() {
			h13CheckPoint(t, "vertex", s, tr, base.Add(v), true)
		}
	}
}

// TestContainsPointPolygonEdgeBug: (0.25, 2.25) lies exactly on the edge
// (1, 0)–(0, 3) of this triangle; ContainsPoint said false (DistanceSq
// 1.2e-32) by the rounded normal. One ulp above it the point is outside,
// one below inside. At the origin, at 1e6 and in a compound.
func TestContainsPointPolygonEdgeBug(t *testing.T) {
	s := h13Polygon(t, shape.V(0, 0), shape.V(1, 0), shape.V(0, 3))
	comp, err := shape.NewCompound([]shape.Part{{Shape: s}, {Shape: s, Offset: shape.Transform{Pos: shape.V(-2, 0)}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []shape.Vec2{{}, {X: 1e6, Y: 1e6}} {
		tr := shape.Transform{Pos: base}
		for _, x := range []shape.Shape{s, comp} {
			on := base.Add(shape.V(0.25, 2.25))
			h13CheckPoint(t, "on "+x.Kind().String(), x, tr, on, true)
			above := shape.V(on.X, math.Nextafter(on.Y, math.Inf(1)))
			h13CheckPoint(t, "above "+x.Kind().String(), x, tr, above, false)
			below := shape.V(on.X, math.Nextafter(on.Y, math.Inf(-1)))
			h13CheckPoint(t, "below "+x.Kind().String(), x, tr, below, true)
		}
	}
}

// TestContainsPointSegmentHairBug: (1, 1.4375) lies on the segment
// (1.25, 1.5)–(-0.75, 1); the point an ulp right of it does not, but the
// segment's nearest point to it, rounded, was the point itself, so
// ContainsPoint said true and DistanceSq 0. Alone and as a chain.
func TestContainsPointSegmentHairBug(t *testing.T) {
	a, b := shape.V(1.25, 1.5), shape.V(-0.75, 1)
	seg, err := shape.NewSegment(a, b)
	if err != nil {
		t.Fatal(err)
	}
	chain, err := shape.NewChain([]shape.Vec2{a, b, shape.V(-0.75, -1)}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []shape.Shape{seg, chain} {
		on := shape.V(1, 1.4375)
		h13CheckPoint(t, "on "+s.Kind().String(), s, shape.Identity, on, true)
		off := shape.V(math.Nextafter(on.X, 2), on.Y)
		h13CheckPoint(t, "off "+s.Kind().String(), s, shape.Identity, off, false)
	}
}

// TestContainsPointCircleHairBug: (1.0625, 2⁻⁵²) is 2⁻¹⁰⁵ outside the
// circle of radius 1.0625 about the origin, but its squared distance from
// the centre rounded to r², so ContainsPoint said true and DistanceSq 0.
// Likewise about an offset centre, and about a capsule's end cap.
func TestContainsPointCircleHairBug(t *testing.T) {
	circle, err := shape.NewCircle(1.0625)
	if err != nil {
		t.Fatal(err)
	}
	offset, err := shape.NewOffsetCircle(shape.V(0.5, 0.25), 1.0625)
	if err != nil {
		t.Fatal(err)
	}
	capsule, err := shape.NewCapsule(shape.V(0, 0), shape.V(0, 1), 1.0625)
	if err != nil {
		t.Fatal(err)
	}
	h13CheckPoint(t, "circle on", circle, shape.Identity, shape.V(1.0625, 0), true)
	h13CheckPoint(t, "circle hair", circle, shape.Identity, shape.V(1.0625, 0x1p-52), false)
	h13CheckPoint(t, "offset hair", offset, shape.Identity, shape.V(1.5625, 0.25+0x1p-52), false)
	h13CheckPoint(t, "capsule on", capsule, shape.Identity, shape.V(0, -1.0625), true)
	h13CheckPoint(t, "capsule hair", capsule, shape.Identity, shape.V(0x1p-52, -1.0625), false)
}

// TestContainsPointCapsuleSideNearEndBug: (-0.125, -0.5625 + 2⁻⁵⁴·2) lies
// exactly on the side of the capsule (-0.25, 3)–(-0.25, -0.5625) of radius
// 0.125, an ulp short of the end p1 along the core. Its projection on the
// core rounded to |e|², taking p1 for the nearest core point, 1.1e-16 off
// the true one; once the end discs were tested exactly (circleHolds) that
// put the point outside. The end discs and the span (alongCore) are now
// each decided exactly, and the side keeps its float test (so a point an
// ulp beyond the side can still pass it).
func TestContainsPointCapsuleSideNearEndBug(t *testing.T) {
	s, err := shape.NewCapsule(shape.V(-0.25, 3), shape.V(-0.25, -0.5625), 0.125)
	if err != nil {
		t.Fatal(err)
	}
	q := shape.V(-0.125, math.Nextafter(-0.5625, 0))
	h13CheckPoint(t, "side", s, shape.Identity, q, true)
}

// TestContainsPointCapsuleSideExactBug: beside a capsule's core, between
// its end discs, ContainsPoint tested the squared distance to the rounded
// nearest core point, in floats, so a point an ulp beyond a tilted side
// could pass and one an ulp inside could fail. For random tilted cores
// (dyadic ends, unturned at the origin, so the local point is the point
// itself) and points at the float nearest the side and a few ulps either
// way, it must agree with the exact test (e × w)² <= r²|e|² (big.Rat),
// and DistanceSq must be 0 exactly when it holds.
func TestContainsPointCapsuleSideExactBug(t *testing.T) {
	rng := rand.New(rand.NewPCG(0x51de, 13))
	dyad := func() float64 { return float64(rng.IntN(1<<12)-1<<11) / 256 }
	checked, outside := 0, 0
	for range 400 {
		p0, p1 := shape.V(dyad(), dyad()), shape.V(dyad(), dyad())
		if p0 == p1 {
			continue
		}
		r := float64(1+rng.IntN(255)) / 128
		s, err := shape.NewCapsule(p0, p1, r)
		if err != nil {
			t.Fatal(err)
		}
		e := p1.Sub(p0)
		n := shape.V(-e.Y, e.X).Scale(1 / e.Len())
		if rng.IntN(2) == 0 {
			n = n.Neg()
		}
		u := 0.05 + 0.9*rng.Float64()
		on := p0.Add(e.Scale(u)).Add(n.Scale(r)) // near the side, rounded
		for dx := -2; dx <= 2; dx++ {
			for dy := -2; dy <= 2; dy++ {
				q := shape.V(ulpStep(on.X, dx), ulpStep(on.Y, dy))
				ev, wv := exVF(p1).sub(exVF(p0)), exVF(q).sub(exVF(p0))
				c := ev.cross(wv)
				rr := exMul(exR(r), exR(r))
				want := exMul(c, c).Cmp(exMul(rr, ev.dot(ev))) <= 0
				if !want {
					outside++
				}
				checked++
				if got := narrowphase.ContainsPoint(s, shape.Identity, q); got != want {
					t.Errorf("capsule %v–%v r %v, point %v: ContainsPoint = %v, want %v", p0, p1, r, q, got, want)
				}
				if d2 := narrowphase.DistanceSq(s, shape.Identity, q); (d2 == 0) != want {
					t.Errorf("capsule %v–%v r %v, point %v: DistanceSq = %g, want zero %v", p0, p1, r, q, d2, want)
				}
			}
		}
	}
	if outside == 0 || outside == checked {
		t.Fatalf("%d of %d points outside: the points do not straddle the side", outside, checked)
	}
}

// ulpStep returns x moved by k ulps (k may be negative).
func ulpStep(x float64, k int) float64 {
	for ; k > 0; k-- {
		x = math.Nextafter(x, math.Inf(1))
	}
	for ; k < 0; k++ {
		x = math.Nextafter(x, math.Inf(-1))
	}
	return x
}

// TestDistanceSqUnderflowBug: a point outside a shape by a distance whose
// square underflows (a segment's line missed by 5e-324, a circle's
// surface by 1e-160 sideways) got DistanceSq 0 while ContainsPoint said
// outside (TestHunt12PointQueryExactOracle seed 7923847391606397522).
// Outside, the squared distance is never below the smallest positive
// float.
func TestDistanceSqUnderflowBug(t *testing.T) {
	seg, err := shape.NewSegment(shape.V(-1, 0), shape.V(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	seg2, err := shape.NewSegment(shape.V(0, -3), shape.V(0, 3))
	if err != nil {
		t.Fatal(err)
	}
	circle, err := shape.NewCircle(1)
	if err != nil {
		t.Fatal(err)
	}
	h13CheckPoint(t, "segment, line missed by 5e-324", seg, shape.Identity, shape.V(1, 5e-324), false)
	h13CheckPoint(t, "quarter-turned segment at 0.125", seg2, shape.Transform{Pos: shape.V(0, 0.125), Rot: shape.NewRot(math.Pi)}, shape.V(-5e-324, -2.15625), false)
	h13CheckPoint(t, "circle, 1e-160 sideways", circle, shape.Identity, shape.V(1, 1e-160), false)
}

// TestDistanceSqPolygonUnderflowBug: a point outside a square's edge by
// 5e-324 got DistanceSq 0 (the square of its distance underflows) while
// ContainsPoint said outside.
func TestDistanceSqPolygonUnderflowBug(t *testing.T) {
	sq := h13Polygon(t, shape.V(-1, -1), shape.V(1, -1), shape.V(1, 1), shape.V(-1, 1))
	h13CheckPoint(t, "square, edge missed by 5e-324", sq, shape.Identity, shape.V(0.5, math.Nextafter(-1, math.Inf(-1))), false)
	corner := h13Polygon(t, shape.V(0, 0), shape.V(2, 0), shape.V(2, 2), shape.V(0, 2))
	h13CheckPoint(t, "square at the origin, edge missed by 5e-324", corner, shape.Identity, shape.V(-5e-324, 0.5), false)
	h13CheckPoint(t, "square at the origin, corner missed by 5e-324", corner, shape.Identity, shape.V(-5e-324, -5e-324), false)
}
