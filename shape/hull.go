package shape

import (
	"fmt"
	"math"
	"slices"
)

// ConvexHull returns the convex polygon that encloses every point, built with
// Andrew's monotone chain (Computational Geometry, de Berg et al., §1.1).
// Interior, duplicate and collinear points are dropped. It fails like
// [NewPolygon]: on non-finite input, fewer than three distinct points, points
// that all lie on one line, or a hull of more than [MaxPolygonVertices]
// vertices.
func ConvexHull(points []Vec2) (Shape, error) {
	for i, p := range points {
		if !p.IsFinite() {
			return Shape{}, fmt.Errorf("%w: point %d is %v", ErrNotFinite, i, p)
		}
	}
	for i, p := range points {
		if math.Abs(p.X) > MaxMagnitude || math.Abs(p.Y) > MaxMagnitude {
			return Shape{}, fmt.Errorf("%w: point %d is %v (limit %g)", ErrTooLarge, i, p, MaxMagnitude)
		}
	}
	if len(points) < 3 {
		return Shape{}, fmt.Errorf("%w: got %d points", ErrTooFewVertices, len(points))
	}
	pts := slices.Clone(points)
	slices.SortFunc(pts, func(a, b Vec2) int {
		if a.X != b.X {
			if a.X < b.X {
				return -1
			}
			return 1
		}
		if a.Y < b.Y {
			return -1
		}
		if a.Y > b.Y {
			return 1
		}
		return 0
	})
	pts = slices.Compact(pts)
	if len(pts) < 3 {
		return Shape{}, fmt.Errorf("%w: %d distinct points", ErrTooFewVertices, len(pts))
	}
	hull := make([]Vec2, 0, 2*len(pts))
	for _, p := range pts { // lower chain
		for len(hull) >= 2 && orient(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- { // upper chain
		p := pts[i]
		for len(hull) >= lower && orient(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	hull = hull[:len(hull)-1]
	if len(hull) < 3 {
		return Shape{}, fmt.Errorf("%w: all %d points lie on one line", ErrCollinear, len(pts))
	}
	return NewPolygon(hull)
}
