package narrowphase

import "github.com/collide-go/collide/shape"

// boxPolygon collides box a, placed by its effective transform ta, with
// polygon b by SAT and clipping in a's frame. The box's hull lives on the
// stack.
func boxPolygon(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) bool {
	var ca [4]shape.Vec2
	cornersInto(&ca, a)
	var hb hull
	hb.setPolygon(b)
	if !collideHulls(m, &hull{ca[:], boxNormals[:]}, &hb, ta.MulInv(tb)) {
		return false
	}
	m.toWorld(ta)
	return true
}

func boxPolygonOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	var ca [4]shape.Vec2
	cornersInto(&ca, &a)
	var hb hull
	hb.setPolygon(&b)
	r, ok := satHulls(&hull{ca[:], boxNormals[:]}, &hb, ta.MulInv(tb))
	return r.depth, ok
}

// obbPolygon collides an oriented box with a convex polygon.
func obbPolygon(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) bool {
	return boxPolygon(a, ta, b, tb, m)
}

func obbPolygonOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	return boxPolygonOverlap(a, ta, b, tb)
}
