package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestChainEndSegmentOpenHalfOfConeBug: a capsule crossing a chain next to
// its open start, with the chain's first piece short. Alone, the piece's
// MTV slides the capsule off its inner end (a ghost), and the chain
// replaced it with the least overlap along its side normal (2.25), though
// the piece's cone reaches round to its open end, where a direction
// (the capsule's face normal) clears it by 0.697: the depth one long
// segment gives. The contract: a ghost is replaced by the smallest
// translation along a direction of the cone.
func TestChainEndSegmentOpenHalfOfConeBug(t *testing.T) {
	chain, err := shape.NewChain([]shape.Vec2{{X: 0, Y: 0}, {X: 0.5, Y: 0}, {X: 8, Y: 0}}, false)
	if err != nil {
		t.Fatal(err)
	}
	long, _ := shape.NewSegment(shape.V(0, 0), shape.V(8, 0))
	capsule, _ := shape.NewCapsule(shape.V(-1, -2), shape.V(1, 2), 0.25)
	for _, frame := range []shape.Transform{shape.Identity, shape.NewTransform(shape.V(1e6, -3e5), 0.7)} {
		tc := frame.Mul(shape.Transform{Pos: shape.V(0.5, 0)})
		want, ok := narrowphase.Collide(long, frame, capsule, tc)
		if !ok {
			t.Fatal("the long segment does not collide")
		}
		wantN := frame.Rot.Apply(shape.V(-2, 1).Normalize())
		wantD := 1/math.Sqrt(5) + 0.25
		tol := 1e-9 * (1 + frame.Pos.Len())
		if want.Normal.Sub(wantN).Len() > 1e-9 || math.Abs(want.Depth-wantD) > tol {
			t.Fatalf("Collide(long segment, capsule) = %v, %v; want %v, %v", want.Normal, want.Depth, wantN, wantD)
		}
		found := false
		narrowphase.CollideParts(chain, frame, capsule, tc, func(pa, _ int, m narrowphase.Manifold) bool {
			if pa != 0 {
				return true
			}
			found = true
			if m.Normal.Sub(wantN).Len() > 1e-9 || math.Abs(m.Depth-wantD) > tol {
				t.Errorf("frame %v: CollideParts(chain, capsule) segment 0 = normal %v depth %.17g; want %v, %.17g (the long segment's)",
					frame.Pos, m.Normal, m.Depth, wantN, wantD)
			}
			return true
		})
		if !found {
			t.Errorf("frame %v: no contact for segment 0", frame.Pos)
		}
	}
}

// TestCompoundFarDistanceBug: DistanceSq and ContainsPoint of a compound
// placed each part in the world (the body's transform times the part's
// offset) before measuring, so far from the origin the part moved by up
// to an ulp of the coordinates: at 1e12 a distance of 0.3686 came back
// 5e-5 off. The answer is the exact distance to the parts placed by their
// offsets and then by the body, to rounding of the local numbers.
func TestCompoundFarDistanceBug(t *testing.T) {
	box, _ := shape.NewOBB(0.75, 0.5)
	c, err := shape.NewCompound([]shape.Part{{Shape: box, Offset: shape.NewTransform(shape.V(0.3125, 0.6875), 0.4)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []float64{0, 1e6, 1e12} {
		for _, angle := range []float64{0, 1, 2.9} {
			tb := shape.NewTransform(shape.V(base+0.1875, -base), angle)
			for _, d := range []shape.Vec2{{X: 1.5, Y: 0.25}, {X: -0.5, Y: 2}, {X: 0.25, Y: 0.5}, {X: 0.0625, Y: -1.25}} {
				p := tb.Pos.Add(d)
				part := exPlacePart(c, 0, tb)
				want := exSqrt(exDist2(part, exVF(p)))
				got := narrowphase.Distance(c, tb, p)
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("Distance(compound at %v angle %v, %v) = %.17g, want %.17g (diff %.3g)", tb.Pos, angle, p, got, want, got-want)
				}
				if in, _ := exInside(part, exVF(p)); narrowphase.ContainsPoint(c, tb, p) != in && want > 1e-12 {
					t.Errorf("ContainsPoint(compound at %v angle %v, %v) = %v, want %v", tb.Pos, angle, p, !in, in)
				}
			}
		}
	}
}

// TestCompoundFarRayBug: RayCast against a compound placed each part in
// the world first, so at 1e12 the distance came back up to 1e-5 off the
// exact distance to the part placed by its offset and then by the body.
func TestCompoundFarRayBug(t *testing.T) {
	box, _ := shape.NewOBB(0.75, 0.5)
	c, err := shape.NewCompound([]shape.Part{{Shape: box, Offset: shape.NewTransform(shape.V(0.3125, 0.6875), 0.4)}})
	if err != nil {
		t.Fatal(err)
	}
	bases, angles := []float64{0, 1e6, 1e12}, []float64{0, 1, 2.9}
	if testing.Short() { // the exact bisections are slow: the far case only
		bases, angles = bases[2:], angles[2:]
	}
	for _, base := range bases {
		for _, angle := range angles {
			tb := shape.NewTransform(shape.V(base+0.1875, -base), angle)
			for _, d := range []shape.Vec2{{X: 3.5, Y: 0.25}, {X: -0.5, Y: 4}, {X: 2.25, Y: 2.5}} {
				o := tb.Pos.Add(d)
				dir := d.Neg().Normalize()
				want, _, ok := exRay([]exCore{exPlacePart(c, 0, tb)}, o, dir, 10)
				h, gok := narrowphase.RayCast(c, tb, o, dir, 10)
				if ok != gok || math.Abs(h.Distance-want) > 1e-12 {
					t.Errorf("RayCast(compound at %v angle %v) from %v along %v = %.17g, %v; want %.17g, %v (diff %.3g)",
						tb.Pos, angle, o, dir, h.Distance, gok, want, ok, h.Distance-want)
				}
			}
		}
	}
}

// TestCompoundFarCollideBug: CollideParts (so Collide and Overlap) and
// Cast placed a compound's parts in world coordinates (the body's
// transform times the part's offset) before the pair routine, so at 1e12
// every part moved by up to an ulp of the coordinates: depths came back
// 6e-5 off the exact depth of the parts placed by offset and then body.
func TestCompoundFarCollideBug(t *testing.T) {
	box, _ := shape.NewOBB(0.75, 0.5)
	c, err := shape.NewCompound([]shape.Part{{Shape: box, Offset: shape.NewTransform(shape.V(0.3125, 0.6875), 0.4)}})
	if err != nil {
		t.Fatal(err)
	}
	circle, _ := shape.NewCircle(0.5)
	bases, angles := []float64{0, 1e6, 1e12}, []float64{0, 1, 2.9}
	if testing.Short() { // the exact bisections are slow: the far case only
		bases, angles = bases[2:], angles[2:]
	}
	for _, base := range bases {
		for _, angle := range angles {
			tc := shape.NewTransform(shape.V(base+0.1875, -base), angle)
			for _, d := range []shape.Vec2{{X: 0.75, Y: 0.25}, {X: -0.5, Y: 1}, {X: 0.25, Y: 0.5}} {
				to := shape.Transform{Pos: tc.Pos.Add(d)}
				dm := exMinkowski(exPlacePart(c, 0, tc), exPlace(circle, to))
				in, pen := exPen(dm)
				for _, swap := range []bool{false, true} {
					var m narrowphase.Manifold
					var ok bool
					if swap {
						m, ok = narrowphase.Collide(circle, to, c, tc)
					} else {
						m, ok = narrowphase.Collide(c, tc, circle, to)
					}
					if ok != in || (ok && math.Abs(m.Depth-pen) > 1e-12) {
						t.Errorf("Collide(compound at %v angle %v, circle at %v, swap %v) = %.17g, %v; want %.17g, %v (diff %.3g)",
							tc.Pos, angle, to.Pos, swap, m.Depth, ok, pen, in, m.Depth-pen)
					}
				}
				// A cast of the circle from 3 away straight at the part.
				delta := d.Scale(-3)
				from := shape.Transform{Pos: to.Pos.Sub(delta)}
				oc := exCast(exPlace(circle, from), delta, exPlacePart(c, 0, tc))
				h, ok := narrowphase.Cast(circle, from, delta, c, tc)
				if ok != oc.hit || (ok && math.Abs(h.Fraction-oc.frac)*delta.Len() > 1e-12) {
					t.Errorf("Cast(circle from %v by %v, compound at %v angle %v) = %.17g, %v; want %.17g, %v", from.Pos, delta, tc.Pos, angle, h.Fraction, ok, oc.frac, oc.hit)
				}
			}
		}
	}
}
