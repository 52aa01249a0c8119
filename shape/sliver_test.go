package shape_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestSliverRefusalSaysWhy is the friction of a 1 by 1e-13 sliver: it was
// refused as "2 distinct" vertices, with no word of the tolerance.
func TestSliverRefusalSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		verts []shape.Vec2
		want  error
		words []string
	}{
		{"1x1e-13 box", []shape.Vec2{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1e-13}, {X: 0, Y: 1e-13}}, shape.ErrTooFewVertices, []string{"merged", "1e-12", "sliver"}},
		{"1x1e-13 triangle", []shape.Vec2{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 0.5, Y: 1e-13}}, shape.ErrCollinear, []string{"thinner than the tolerance", "1e-13"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for call, f := range map[string]func([]shape.Vec2) (shape.Shape, error){"NewPolygon": shape.NewPolygon, "ConvexHull": shape.ConvexHull} {
				_, err := f(tc.verts)
				if !errors.Is(err, tc.want) {
					t.Fatalf("%s = %v, want %v", call, err, tc.want)
				}
				for _, w := range tc.words {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s error %q does not say %q", call, err, w)
					}
				}
			}
		})
	}
}
