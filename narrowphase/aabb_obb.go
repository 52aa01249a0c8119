package narrowphase

import "github.com/collide-go/collide/shape"

// aabbOBB collides an axis-aligned box with an oriented box: the box–box
// routine of obb_obb.go in the AABB's frame, a pure translation.
func aabbOBB(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	ha, hb := a.HalfExtents(), b.HalfExtents()
	ta = shape.Transform{Pos: ta.Pos} // an AABB's effective transform
	if !collideBoxes(m, ha, hb, ta.MulInv(tb)) {
		return false, 0
	}
	m.toWorld(ta)
	return true, boxScale(ta.Pos, ha, tb.Pos, hb)
}

func aabbOBBOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	r, ok := boxBoxSAT(a.HalfExtents(), b.HalfExtents(), a.EffectiveTransform(ta).MulInv(tb))
	return r.depth(), ok
}
