package narrowphase

import "github.com/collide-go/collide/shape"

// aabbPolygon collides an axis-aligned box with a convex polygon: the box
// becomes a four-vertex hull on the stack and the polygon routine of
// polygon_polygon.go runs in the box's frame, a pure translation.
func aabbPolygon(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) bool {
	return boxPolygon(a, a.EffectiveTransform(ta), b, tb, m)
}

func aabbPolygonOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	return boxPolygonOverlap(a, a.EffectiveTransform(ta), b, tb)
}
