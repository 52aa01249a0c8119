package narrowphase_test

import (
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestTouchingAtAngleZeroIsNoContactBug: two shapes at angle 0 with small
// dyadic coordinates (every number exact) that touch where an edge is not
// axis-aligned got a contact of depth 1e-16: the separating axis test
// measures along the edge's unit normal, whose rounding turns an exact
// touch into an overlap. Touching is not a contact. Found by
// TestExactEvents (a polygon's vertex (3.4375, −3.625) on the other's
// slanted edge; a chain segment's end on a polygon's edge).
func TestTouchingAtAngleZeroIsNoContactBug(t *testing.T) {
	mk := func(pts ...shape.Vec2) shape.Shape {
		s, err := shape.ConvexHull(pts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := mk(shape.V(-1.8125, 1.875), shape.V(-1.5, -0.125), shape.V(-0.1875, -1), shape.V(1.625, -1))
	b := mk(shape.V(-1.75, -1.375), shape.V(1.9375, -1.5625), shape.V(1.8125, -1.0625), shape.V(0.5625, 0.6875), shape.V(-1.0625, 0.0625), shape.V(-1.375, -0.4375))
	c := mk(shape.V(-1.625, -1), shape.V(1, -1.25), shape.V(1.375, 0.25), shape.V(0.9375, 0.4375), shape.V(-1.25, 1.25))
	box, _ := shape.NewAABB(0.625, 0.75)
	tri := mk(shape.V(-1.5625, -0.5), shape.V(-1.3125, -1.4375), shape.V(-0.9375, -0.5625))
	seg, _ := shape.NewSegment(shape.V(-0.125, 0.46875), shape.V(0.125, -0.46875))
	cases := []struct {
		name string
		a    shape.Shape
		ta   shape.Vec2
		b    shape.Shape
		tb   shape.Vec2
	}{
		{"polygon vertex on a slanted edge", a, shape.V(4.375, -3.125), b, shape.V(2.875, -4.3125)},
		// The box's corner (−0.703125, 1.046875) lies on the edge from
		// (0.9375, 0.4375) to (−1.25, 1.25).
		{"box corner on a slanted edge", c, shape.V(0, 0), box, shape.V(-0.078125, 1.796875)},
		{"far: box corner on a slanted edge", c, shape.V(1e6, 1e6), box, shape.V(1e6-0.078125, 1e6+1.796875)},
		// The segment's end (−1.5, −0.734375) lies on the edge from
		// (−1.5625, −0.5) to (−1.3125, −1.4375); the segment points outward.
		{"segment end on a slanted edge", tri, shape.V(0, 0), seg, shape.V(-1.375, -1.203125)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ta, tb := shape.NewTransform(c.ta, 0), shape.NewTransform(c.tb, 0)
			if m, ok := narrowphase.Collide(c.a, ta, c.b, tb); ok {
				t.Errorf("Collide(%v at %v, %v at %v) = %+v; they only touch", c.a, c.ta, c.b, c.tb, m)
			}
			if m, ok := narrowphase.Collide(c.b, tb, c.a, ta); ok {
				t.Errorf("Collide(%v at %v, %v at %v) = %+v; they only touch", c.b, c.tb, c.a, c.ta, m)
			}
			if narrowphase.Overlap(c.a, ta, c.b, tb) || narrowphase.Overlap(c.b, tb, c.a, ta) {
				t.Errorf("Overlap(%v at %v, %v at %v) = true; they only touch", c.a, c.ta, c.b, c.tb)
			}
		})
	}
}

// TestTimeOfImpactSlowGrazeBug: a segment turning by 1.8 rad while it
// crosses the rim of a circle closes in on it so slowly (a graze) that
// conservative advancement needed more than its 500 steps, and gave up
// with no hit, though the segment's end then dips into the circle at
// t = 0.90099 (TestTimeOfImpactAgainstSampling, seed 13948703820492920847,
// -short, in a CI run).
func TestTimeOfImpactSlowGrazeBug(t *testing.T) {
	seg, _ := shape.NewSegment(shape.V(0.4855861302243923, 0.7243578418457358), shape.V(-0.4855861302243923, -0.7243578418457358))
	c, _ := shape.NewCircle(2.733866939291769)
	sa := narrowphase.Sweep{P0: shape.V(-9.707663568357484, -0.7060134050757765), P1: shape.V(0.38569958699966556, 3.638724757525932), A0: 1.570796327085802, A1: -0.2520897522301422}
	sb := narrowphase.Sweep{P0: shape.V(0, 0), P1: shape.V(0.2923041200233971, 0.20033387658125662), A0: 3.141592653589793, A1: 1.6129252760566022}
	toi, ok := narrowphase.TimeOfImpact(seg, sa, c, sb)
	if !ok || toi > 0.9009925656034592 {
		t.Fatalf("TimeOfImpact = %v, %v; want a hit before the overlap at 0.90099", toi, ok)
	}
	if _, hit := narrowphase.Collide(seg, sa.At(toi), c, sb.At(toi)); hit {
		t.Fatalf("the shapes overlap at the time of impact %v", toi)
	}
}
