package narrowphase_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestRayCompoundNearBoundaryNormalBug: a ray from a rounding hair outside
// a compound's circle part (x² + y² > 1 exactly and in float64, so
// ContainsPoint says no) enters it at once, Distance 0. The lone circle
// answers with the surface normal there, as the RayCast doc asks of a ray
// that starts outside; the compound of that one circle answered Normal =
// −dir, the convention for an origin inside or on the boundary, for every
// hit at distance 0 (found by comparing a one-part compound with its part).
func TestRayCompoundNearBoundaryNormalBug(t *testing.T) {
	circle, _ := shape.NewCircle(1)
	cp, _ := shape.NewCompound([]shape.Part{{Shape: circle}})
	origin := shape.V(0.01220703125, 0.9999254914182665)
	dir := shape.V(-0.6, -0.8)
	x, y := new(big.Rat).SetFloat64(origin.X), new(big.Rat).SetFloat64(origin.Y)
	r2 := new(big.Rat).Add(new(big.Rat).Mul(x, x), new(big.Rat).Mul(y, y))
	if r2.Cmp(big.NewRat(1, 1)) <= 0 {
		t.Fatalf("origin %v is not outside the unit circle", origin)
	}
	for _, tc := range []struct {
		name string
		s    shape.Shape
		t    shape.Transform
		o    shape.Vec2
	}{
		{"circle", circle, shape.Transform{}, origin},
		{"compound", cp, shape.Transform{}, origin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if narrowphase.ContainsPoint(tc.s, tc.t, tc.o) {
				t.Fatalf("ContainsPoint(%v) = true, want false", tc.o)
			}
			h, ok := narrowphase.RayCast(tc.s, tc.t, tc.o, dir, 3)
			if !ok {
				t.Fatalf("RayCast(%v, %v) = no hit, want an entry at distance 0", tc.o, dir)
			}
			want := origin.Normalize() // the circle's outward normal there
			if h.Distance > 1e-15 || h.Normal.Sub(want).Len() > 1e-12 || h.Point.Sub(tc.o).Len() > 1e-9 {
				t.Errorf("RayCast(%v, %v) = %+v, want Distance 0, Normal %v (the surface's), Point the origin", tc.o, dir, h, want)
			}
			if math.Abs(h.Normal.Len()-1) > 1e-15 {
				t.Errorf("RayCast.Normal = %v is not a unit vector", h.Normal)
			}
		})
	}
}

// TestRaySegmentAlongLineNormalBug: a ray along a turned segment's own line
// from between its ends enters it at once, and RayCast's doc gives such a
// ray the normal −dir, as for a ray from inside; it came back as −dir
// turned into the segment's frame and out again, an ulp off (found by
// TestHunt11RayCompositeStartsOracle, seed 7495361864954782361, case 2).
func TestRaySegmentAlongLineNormalBug(t *testing.T) {
	s, _ := shape.NewSegment(shape.V(0.125, -1.9375), shape.V(2.75, 2.5))
	ts := shape.Transform{Pos: shape.V(2.3125, -1.125), Rot: shape.RotFromCosSin(0.8965706653173108, 0.4429007135831625)}
	origin := shape.V(3.47675450569837, -0.23616972460371033) // the segment's midpoint, placed
	dir := shape.V(-0.07527984978184078, -0.9971624462527776) // from p1 toward the midpoint, placed
	h, ok := narrowphase.RayCast(s, ts, origin, dir, 1.6875)
	if !ok || h.Distance != 0 || h.Normal != dir.Neg() {
		t.Errorf("RayCast(segment, %v, %v) = %+v, %v; want a hit at Distance 0 with Normal %v", origin, dir, h, ok, dir.Neg())
	}
}

// TestRayCompoundSegmentAlongLineNormalBug: the same as
// TestRaySegmentAlongLineNormalBug for a segment that is a turned part of
// a turned compound: the part's −dir, solved in the compound's frame, was
// turned back into the world an ulp off −dir (found by
// TestHunt11RayCompositeStartsOracle, seed 476863906915325714, case 4460).
func TestRayCompoundSegmentAlongLineNormalBug(t *testing.T) {
	seg, _ := shape.NewSegment(shape.V(-2.375, -1.6875), shape.V(1.125, 1.4375))
	off := shape.Transform{Pos: shape.V(0.1875, -0.0625), Rot: shape.RotFromCosSin(1-1.1369819170322566, 0.9905735482063753)}
	cp, _ := shape.NewCompound([]shape.Part{{Shape: seg, Offset: off}})
	ts := shape.Transform{Pos: shape.V(3.4375, -2.1875), Rot: shape.RotFromCosSin(1-0.7206292228063957, 0.9601832996101534)}
	origin := shape.V(4.186420247721612, -1.9920071601587364) // on the segment, a hair off
	dir := shape.V(-0.8347432627660728, -0.5506393422800908)  // along it
	if narrowphase.ContainsPoint(cp, ts, origin) {
		t.Fatalf("ContainsPoint(%v) = true, want false", origin)
	}
	h, ok := narrowphase.RayCast(cp, ts, origin, dir, 20)
	if !ok || h.Distance != 0 || h.Normal != dir.Neg() {
		t.Errorf("RayCast(compound, %v, %v) = %+v, %v; want a hit at Distance 0 with Normal %v", origin, dir, h, ok, dir.Neg())
	}
}

// TestRayPolygonApexGrazeBug: a ray along the line y = 0.5625 touches the
// triangle only at its apex (0.25, 0.5625), 5.25 ahead, every number exact.
// Shapes are closed and a ray that grazes the boundary hits it, but the
// edge clip missed: the two edges at the apex each round their crossing
// with the ray, and the exit came out an ulp before the entry (found by a
// sweep over dyadic triangles, about a quarter of which missed).
func TestRayPolygonApexGrazeBug(t *testing.T) {
	tri, _ := shape.NewPolygon([]shape.Vec2{{X: -0.0625, Y: 0}, {X: 0.046875, Y: 0}, {X: 0.25, Y: 0.5625}})
	origin, dir := shape.V(-5, 0.5625), shape.V(1, 0)
	for _, maxDist := range []float64{math.Inf(1), 5.25} {
		h, ok := narrowphase.RayCast(tri, shape.Transform{}, origin, dir, maxDist)
		if !ok || math.Abs(h.Distance-5.25) > 1e-15 || h.Point.Sub(shape.V(0.25, 0.5625)).Len() > 1e-15 || h.Normal.Dot(dir) > 0 {
			t.Errorf("RayCast(triangle, %v, %v, %v) = %+v, %v; want a hit at the apex (0.25, 0.5625), Distance 5.25", origin, dir, maxDist, h, ok)
		}
	}
}

// TestRayChainPeakGrazeBug: the same for a chain whose two segments meet
// at a peak (0.25, 0.375) that the ray y = 0.375 touches: each segment put
// the crossing a rounding step past its own end and neither was hit.
func TestRayChainPeakGrazeBug(t *testing.T) {
	ch, _ := shape.NewChain([]shape.Vec2{{X: -0.0625, Y: 0}, {X: 0.25, Y: 0.375}, {X: 0.046875, Y: 0}}, false)
	origin, dir := shape.V(-5, 0.375), shape.V(1, 0)
	h, ok := narrowphase.RayCast(ch, shape.Transform{}, origin, dir, math.Inf(1))
	if !ok || math.Abs(h.Distance-5.25) > 1e-15 || h.Point.Sub(shape.V(0.25, 0.375)).Len() > 1e-15 {
		t.Errorf("RayCast(chain, %v, %v) = %+v, %v; want a hit at the peak (0.25, 0.375), Distance 5.25", origin, dir, h, ok)
	}
}

// TestRayEndsOnSurfaceBug: a ray whose maxDist ends exactly on a
// polygon's slanted edge, or on a segment, every number exact, touches it
// at its end: RayCast's range is closed. The entry, rounded on the edge's
// unit normal (or the segment's), came out a step past maxDist, and about
// a quarter of such rays missed (found by sweeps over dyadic triangles and
// segments).
func TestRayEndsOnSurfaceBug(t *testing.T) {
	tri, _ := shape.NewPolygon([]shape.Vec2{{X: 0, Y: 0}, {X: 0.1875, Y: 0}, {X: 0, Y: 0.375}})
	seg, _ := shape.NewSegment(shape.V(-2.3125, 0), shape.V(0.875, 1.5625))
	for _, tc := range []struct {
		name        string
		s           shape.Shape
		t           shape.Transform
		origin, dir shape.Vec2
		maxDist     float64
	}{
		// The hypotenuse x + y/2 = 0.1875 at y = 0.03125 is x = 0.171875.
		{"triangle", tri, shape.Transform{}, shape.V(3.171875, 0.03125), shape.V(-1, 0), 3},
		{"segment at 1e6", seg, shape.Transform{Pos: shape.V(999998.625, 1.000003125e+06)},
			shape.V(1.000005875e+06, 1.0000046875e+06), shape.V(-1, 0), 6.375},
	} {
		h, ok := narrowphase.RayCast(tc.s, tc.t, tc.origin, tc.dir, tc.maxDist)
		if !ok || h.Distance != tc.maxDist {
			t.Errorf("%s: RayCast(%v, %v, %v) = %+v, %v; want a hit at Distance %v", tc.name, tc.origin, tc.dir, tc.maxDist, h, ok, tc.maxDist)
		}
	}
}

// TestCastVertexGrazeNormalAlongMotionBug: a polygon slides left so that
// its top vertex passes exactly through the lower end of a segment that
// rises to the left: a graze at Fraction 0.9375/5.9375. Any normal between
// the segment's face normal and a's edge normals separates them there;
// Cast took the segment's face normal, which faces along the motion
// (normal·delta = 2.4 > 0), where the flat (0, −1) and the entered edge
// of the Minkowski difference do not: the clip's entering edge was swapped
// for its neighbour, the leaving edge, whose segment passed a rounding
// step nearer the hit vertex (found by TestHunt11CastCompositeStartsOracle,
// seed 9305712151595833581, case 4370, at 1e6; the same near the origin).
func TestCastVertexGrazeNormalAlongMotionBug(t *testing.T) {
	a, _ := shape.NewPolygon([]shape.Vec2{{X: -2.6875, Y: -1.75}, {X: -0.625, Y: -2}, {X: 3, Y: -1.0625}, {X: 0.9375, Y: 2.8125}, {X: -1.5625, Y: 0.875}})
	b, _ := shape.NewSegment(shape.V(-1.5, 0.125), shape.V(-2.5625, -2.3125))
	delta := shape.V(-5.9375, 0)
	// a starts a hair (9e-10) left of the exact graze.
	for _, shift := range []shape.Vec2{{}, shape.V(1e6, -1e6)} {
		ta := shape.Transform{Pos: shape.V(1.0000056249999991e+06, -1.00000175e+06).Sub(shift)}
		tb := shape.Transform{Pos: shape.V(1.0000033125e+06, -999996.375).Sub(shift), Rot: shape.RotFromCosSin(0, 1)}
		h, ok := narrowphase.Cast(a, ta, delta, b, tb)
		if !ok || math.Abs(h.Fraction-0.9375/5.9375) > 1e-9 || h.Normal.Dot(delta) > 0 {
			t.Errorf("shifted by %v: Cast = %+v, %v; want a graze at Fraction %.17g with a normal that does not face along delta %v", shift, h, ok, 0.9375/5.9375, delta)
		}
	}
}
