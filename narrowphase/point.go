package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// ContainsPoint reports whether the world point p lies in the shape s placed
// by t. Shapes are closed: a point on the boundary is contained. A zero
// (invalid) Shape and a NaN point contain nothing. An AABB ignores t's
// rotation, as everywhere (see [shape.Shape.EffectiveTransform]).
//
// The tests are the ones [RayCast] uses to decide that a ray starts inside,
// so the two always agree; nothing allocates.
func ContainsPoint(s shape.Shape, t shape.Transform, p shape.Vec2) bool {
	if !s.Valid() {
		return false
	}
	switch s.Kind() {
	case shape.KindCircle:
		// In the circle's frame: a centre placed in the world rounds to
		// the ulp of t.Pos.
		return circleHolds(s.Center(), s.Radius(), t.ApplyInv(p))
	case shape.KindAABB, shape.KindOBB:
		q := s.EffectiveTransform(t).ApplyInv(p)
		h := s.HalfExtents()
		return math.Abs(q.X) <= h.X && math.Abs(q.Y) <= h.Y
	case shape.KindPolygon:
		q := t.ApplyInv(p)
		normals := s.Normals()
		for i, v := range s.Vertices() {
			// Written as !(x <= 0) so that a NaN point is outside.
			if !(normals[i].Dot(q.Sub(v)) <= 0) {
				return false
			}
		}
		return true
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		return containsCapsule(p0, p1, s.Radius(), t.ApplyInv(p))
	case shape.KindCompound, shape.KindChain:
		return containsComposite(s, t, p)
	}
	return false
}
