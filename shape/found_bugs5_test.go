package shape_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestDecomposeTouchByRoundingBug: Decompose decided whether two edges
// touch or cross with a floating-point orientation, which rounds. Both
// outlines below have a notch cut down from the top whose tip p comes to
// the bottom edge a–b on the line y = 3x. In the first, p lies on the edge
// exactly (a, b and p are collinear in rationals), so the outline pinches
// itself at p and must be refused with ErrSelfIntersecting, but the float
// orientation of p against a–b is 2.2e-16, not 0, and it was accepted. In
// the second, p is one ulp above the line (strictly inside, the outline is
// simple), but the float orientation comes out 0 and the outline was
// refused as touching itself.
func TestDecomposeTouchByRoundingBug(t *testing.T) {
	touching := []shape.Vec2{
		{X: 0.2, Y: 0.6000000000000001}, {X: 1.4, Y: 4.199999999999999}, // a, b
		{X: -1.6, Y: 5.2}, {X: -2.2, Y: 3.4},
		{X: 0.6, Y: 1.7999999999999998}, // p, on a–b
		{X: -2.6, Y: 2.2}, {X: -2.8, Y: 1.6},
	}
	if exactOrient(touching[0], touching[1], touching[4]) != 0 {
		t.Fatal("the touching outline's tip is not on the edge a–b exactly")
	}
	if _, err := shape.Decompose(touching); !errors.Is(err, shape.ErrSelfIntersecting) {
		t.Errorf("Decompose(touching) error = %v, want ErrSelfIntersecting", err)
	}

	simple := []shape.Vec2{
		{X: 0.1, Y: 0.30000000000000004}, {X: 1.6, Y: 4.800000000000001}, // a, b
		{X: -1.4, Y: 5.800000000000001}, {X: -2.4, Y: 2.8000000000000003},
		{X: 0.4, Y: 1.2000000000000004}, // p, one ulp above a–b
		{X: -2.8000000000000003, Y: 1.6}, {X: -2.9, Y: 1.3},
	}
	if exactOrient(simple[0], simple[1], simple[4]) <= 0 {
		t.Fatal("the simple outline's tip is not strictly left of a–b exactly")
	}
	pieces, err := shape.Decompose(simple)
	switch {
	case err == nil:
		dcCheck(t, rand.New(rand.NewPCG(1, 2)), simple, pieces, 2000)
	case !errors.Is(err, shape.ErrCollinear):
		t.Errorf("Decompose(simple) error = %v, want nil or ErrCollinear (a vertex too close to straight to cut)", err)
	}
}
