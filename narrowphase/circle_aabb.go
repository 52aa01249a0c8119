package narrowphase

import "github.com/collide-go/collide/shape"

// circleAABB collides a circle with an axis-aligned box: the circle–box
// routine of circle_obb.go in the box's frame, which for an AABB is a pure
// translation whatever its body's angle.
func circleAABB(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	return circleBox(a, ta, b, tb, m)
}

func circleAABBOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	return circleBoxOverlap(a, ta, b, tb)
}
