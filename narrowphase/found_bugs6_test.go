package narrowphase_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCastFractionNegativeZeroBug: an OBB moving away from a segment it
// touches, and an AABB touching another and moving along it, got a hit at
// Fraction −0: equal to 0, but not bit for bit, so a replay that hashes
// its hits or a caller that prints them saw a sign. Cast, CastSliding,
// CastEnter and TimeOfImpact must give +0. The random part tries every
// kind on a half-unit grid, where starts in touch are common.
func TestCastFractionNegativeZeroBug(t *testing.T) {
	obb, _ := shape.NewOBB(1, 0.5)
	seg, _ := shape.NewSegment(shape.V(-1, 0), shape.V(1, 0))
	box, _ := shape.NewAABB(1, 1)
	circle, _ := shape.NewCircle(1)
	capsule, _ := shape.NewCapsule(shape.V(-1, 0), shape.V(1, 0), 0.5)
	poly, _ := shape.NewPolygon([]shape.Vec2{shape.V(-1, -1), shape.V(1, -1), shape.V(0, 1)})
	kinds := []shape.Shape{obb, seg, box, circle, capsule, poly}
	check := func(what string, a shape.Shape, ta shape.Transform, d shape.Vec2, b shape.Shape, tb shape.Transform, f float64, ok bool) {
		t.Helper()
		if ok && f == 0 && math.Signbit(f) {
			t.Fatalf("%s of %v at %v moving %v, %v at %v: Fraction −0", what, a, ta.Pos, d, b, tb.Pos)
		}
	}
	all := func(a shape.Shape, ta shape.Transform, d shape.Vec2, b shape.Shape, tb shape.Transform) {
		t.Helper()
		h, ok := narrowphase.Cast(a, ta, d, b, tb)
		check("Cast", a, ta, d, b, tb, h.Fraction, ok)
		h, ok = narrowphase.CastSliding(a, ta, d, b, tb, 0)
		check("CastSliding", a, ta, d, b, tb, h.Fraction, ok)
		h, _, ok = narrowphase.CastEnter(a, ta, d, b, tb)
		check("CastEnter", a, ta, d, b, tb, h.Fraction, ok)
		a0 := ta.Rot.Angle()
		tt, ok := narrowphase.TimeOfImpact(a, narrowphase.Sweep{P0: ta.Pos, P1: ta.Pos.Add(d), A0: a0, A1: a0}, b, narrowphase.Sweep{P0: tb.Pos, P1: tb.Pos, A0: tb.Rot.Angle(), A1: tb.Rot.Angle()})
		check("TimeOfImpact", a, ta, d, b, tb, tt, ok)
	}
	all(obb, shape.NewTransform(shape.V(-0.5, 0.5), 0), shape.V(-1, -1), seg, shape.Identity)
	all(box, shape.NewTransform(shape.V(2, 1.5), 0), shape.V(-2, 0), box, shape.Identity)
	r := rand.New(rand.NewPCG(6, 0))
	for range 20000 {
		a, b := kinds[r.IntN(len(kinds))], kinds[r.IntN(len(kinds))]
		ta := shape.NewTransform(shape.V(float64(r.IntN(9)-4)/2, float64(r.IntN(9)-4)/2), float64(r.IntN(4))*math.Pi/2)
		d := shape.V(float64(r.IntN(9)-4), float64(r.IntN(9)-4))
		all(a, ta, d, b, shape.Identity)
	}
}

// TestCastQuarterTurnOrderBug: a capsule lying against a thin wall, both
// turned by −π/2 and an ulp (so that cos is −2.2e-16, not 0), moving into
// the wall from touching, hit at fraction 0.168 instead of at once: the
// Minkowski difference merged its edges in the order of the shapes'
// rotated normals while it started from the lowest placed vertex, and an
// ulp made the two disagree about edges at right angles to the start, so
// MoveAndSlide carried a capsule 0.001 deep through a wall 0.0156 thick
// (TestExactMoveAndSlide, seed 1130175691505274654).
func TestCastQuarterTurnOrderBug(t *testing.T) {
	capsule, _ := shape.NewCapsule(shape.V(0, -1), shape.V(0, 0.4375), 0.1875)
	wall, _ := shape.NewOBB(3.625, 0.0078125)
	for _, angle := range []float64{-1.5707963267948968, -1.5707963267948966, -1.5707963267948963} {
		ta := shape.NewTransform(shape.V(4.179687499999989, -3.11123117229091), angle)
		tb := shape.NewTransform(shape.V(4.8125, -2.625), angle)
		d := shape.V(8.5625, 7.5)
		h, ok := narrowphase.Cast(capsule, ta, d, wall, tb)
		if !ok || h.Fraction > 1e-12 {
			t.Errorf("angle %v: Cast = %+v, %v; want a hit at once (they touch, and the motion goes into the wall)", angle, h, ok)
		}
		h, ok = narrowphase.Cast(wall, tb, d.Neg(), capsule, ta)
		if !ok || h.Fraction > 1e-12 {
			t.Errorf("angle %v: the wall cast at the capsule = %+v, %v; want a hit at once", angle, h, ok)
		}
	}
}
