package shape_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestReach: Reach is the documented sum for each kind, at least the
// largest max(|x|, |y|) of a local point (checked on the outline, grown by
// the radius along the axes), and at most √2 times BoundingRadius plus a
// capsule's radius.
func TestReach(t *testing.T) {
	tri := must(t)(shape.NewPolygon([]shape.Vec2{{X: -1, Y: -0.5}, {X: 3, Y: 0}, {X: 0, Y: 2.5}}))
	cases := []struct {
		name string
		s    shape.Shape
		want float64
		pts  []shape.Vec2 // local points, grown by r along ±x and ±y
	}{
		{"circle", must(t)(shape.NewCircle(1.5)), 1.5, []shape.Vec2{{}}},
		{"offset circle", must(t)(shape.NewOffsetCircle(shape.V(-2, 0.5), 0.25)), 2.75, []shape.Vec2{{X: -2, Y: 0.5}}},
		{"aabb", must(t)(shape.NewAABB(2, 0.5)), 2.5, []shape.Vec2{{X: 2, Y: 0.5}, {X: -2, Y: -0.5}}},
		{"obb", must(t)(shape.NewOBB(0.25, 3)), 3.25, []shape.Vec2{{X: 0.25, Y: 3}}},
		{"polygon", tri, tri.BoundingRadius(), tri.Vertices()},
		{"capsule", must(t)(shape.NewCapsule(shape.V(-1, 4), shape.V(2, -1), 0.5)), 5.5, []shape.Vec2{{X: -1, Y: 4}, {X: 2, Y: -1}}},
		{"segment", must(t)(shape.NewSegment(shape.V(-3, -1), shape.V(1, 1))), 4, []shape.Vec2{{X: -3, Y: -1}, {X: 1, Y: 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.s.Reach()
			if got != c.want {
				t.Errorf("Reach(%s) = %v, want %v", c.name, got, c.want)
			}
			r := c.s.Radius()
			for _, p := range c.pts {
				if m := max(math.Abs(p.X), math.Abs(p.Y)) + r; m > got {
					t.Errorf("Reach(%s) = %v, below the point %v grown by %v (%v)", c.name, got, p, r, m)
				}
			}
			if lim := math.Sqrt2*c.s.BoundingRadius() + r; got > lim*(1+1e-15) {
				t.Errorf("Reach(%s) = %v, above √2·BoundingRadius + r = %v", c.name, got, lim)
			}
		})
	}
	compound := must(t)(shape.NewCompound([]shape.Part{{Shape: tri, Offset: shape.Transform{Pos: shape.V(5, 0)}}}))
	if got, want := compound.Reach(), compound.BoundingRadius(); got != want {
		t.Errorf("Reach(compound) = %v, want BoundingRadius %v", got, want)
	}
}
