package shape_test

import (
	"errors"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestPolygonThinnerThanRoundingBug: NewPolygon accepted a triangle 2.5e-7
// long and 4e-16 wide (its turn is 1.7e-9 of its own size, above the
// collinearity tolerance) at coordinates near 6, where an ulp is 8.9e-16:
// thinner than the coordinates' rounding, so its centroid rounds onto an
// edge and the polygon's "centroid strictly inside" invariant fails.
// Decompose handed it back as a piece unchanged. Such a polygon is collinear
// at this precision: ErrCollinear (and Decompose leaves it out, as a sliver).
func TestPolygonThinnerThanRoundingBug(t *testing.T) {
	tri := []shape.Vec2{{X: -2.097043188093417, Y: 6.007378204944784}, {X: -2.097043230034278, Y: 6.007378325092341}, {X: -2.0970432719751395, Y: 6.0073784452398975}}
	if s, err := shape.NewPolygon(tri); err == nil {
		checkPolygon(t, s)
	} else if !errors.Is(err, shape.ErrCollinear) {
		t.Errorf("NewPolygon(%v) error = %v, want nil or ErrCollinear", tri, err)
	}
	pieces, err := shape.Decompose(tri)
	if err != nil && !errors.Is(err, shape.ErrCollinear) {
		t.Errorf("Decompose(%v) error = %v, want nil or ErrCollinear", tri, err)
	}
	for _, p := range pieces {
		s, err := shape.NewPolygon(p)
		if err != nil {
			t.Fatalf("Decompose piece %v: NewPolygon error %v", p, err)
		}
		checkPolygon(t, s)
	}
}
