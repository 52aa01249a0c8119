package shape_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestSliverRefusalSaysWhy is the friction of a 1 by 1e-13 sliver: it was
// refused as "2 distinct" vertices, with no word of the tolerance. The
// refusal must say that it is thinner than the tolerance, and give both
// its thickness and the tolerance, from NewPolygon and ConvexHull alike.
func TestSliverRefusalSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		verts []shape.Vec2
		want  error
		words []string
	}{
		{"1x1e-13 box", []shape.Vec2{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1e-13}, {X: 0, Y: 1e-13}}, shape.ErrTooFewVertices, []string{"1e-13 thick", "thinner than the tolerance 1e-12", "merged"}},
		{"1x1e-13 triangle", []shape.Vec2{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 0.5, Y: 1e-13}}, shape.ErrCollinear, []string{"within 1e-13 of one line", "thinner than the tolerance 1e-12"}},
		{"1e-13 by 1 box far out", []shape.Vec2{{X: 1e3, Y: 5}, {X: 1e3 + 1e-13, Y: 5}, {X: 1e3 + 1e-13, Y: 6}, {X: 1e3, Y: 6}}, shape.ErrTooFewVertices, []string{"thick, thinner than the tolerance 1e-12", "merged"}},
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
