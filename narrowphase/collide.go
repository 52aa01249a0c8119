package narrowphase

import "github.com/collide-go/collide/shape"

// Kind-pair keys of the dispatch switch: kind(a)*KindCount + kind(b).
const (
	pairCircleCircle   = int(shape.KindCircle)*shape.KindCount + int(shape.KindCircle)
	pairCircleAABB     = int(shape.KindCircle)*shape.KindCount + int(shape.KindAABB)
	pairCircleOBB      = int(shape.KindCircle)*shape.KindCount + int(shape.KindOBB)
	pairCirclePolygon  = int(shape.KindCircle)*shape.KindCount + int(shape.KindPolygon)
	pairAABBCircle     = int(shape.KindAABB)*shape.KindCount + int(shape.KindCircle)
	pairAABBAABB       = int(shape.KindAABB)*shape.KindCount + int(shape.KindAABB)
	pairAABBOBB        = int(shape.KindAABB)*shape.KindCount + int(shape.KindOBB)
	pairAABBPolygon    = int(shape.KindAABB)*shape.KindCount + int(shape.KindPolygon)
	pairOBBCircle      = int(shape.KindOBB)*shape.KindCount + int(shape.KindCircle)
	pairOBBAABB        = int(shape.KindOBB)*shape.KindCount + int(shape.KindAABB)
	pairOBBOBB         = int(shape.KindOBB)*shape.KindCount + int(shape.KindOBB)
	pairOBBPolygon     = int(shape.KindOBB)*shape.KindCount + int(shape.KindPolygon)
	pairPolygonCircle  = int(shape.KindPolygon)*shape.KindCount + int(shape.KindCircle)
	pairPolygonAABB    = int(shape.KindPolygon)*shape.KindCount + int(shape.KindAABB)
	pairPolygonOBB     = int(shape.KindPolygon)*shape.KindCount + int(shape.KindOBB)
	pairPolygonPolygon = int(shape.KindPolygon)*shape.KindCount + int(shape.KindPolygon)
)

func pairKey(a, b shape.Shape) int { return int(a.Kind())*shape.KindCount + int(b.Kind()) }

// Collide reports whether shape a placed by ta and shape b placed by tb
// overlap and, if they do, returns their contact manifold in world
// coordinates: a unit Normal from a to b, the exact penetration Depth (> 0)
// and one or two contact points (see the package documentation). Shapes that
// only touch do not collide. Invalid shapes never collide. Collide allocates
// nothing.
func Collide(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	if !a.Valid() || !b.Valid() {
		return Manifold{}, false
	}
	var m Manifold
	var ok bool
	switch pairKey(a, b) {
	case pairCircleCircle:
		return circleCircle(a, ta, b, tb)
	case pairCircleAABB:
		return circleAABB(a, ta, b, tb)
	case pairCircleOBB:
		return circleOBB(a, ta, b, tb)
	case pairCirclePolygon:
		return circlePolygon(a, ta, b, tb)
	case pairAABBAABB:
		return aabbAABB(a, ta, b, tb)
	case pairAABBOBB:
		return aabbOBB(a, ta, b, tb)
	case pairAABBPolygon:
		return aabbPolygon(a, ta, b, tb)
	case pairOBBOBB:
		return obbOBB(a, ta, b, tb)
	case pairOBBPolygon:
		return obbPolygon(a, ta, b, tb)
	case pairPolygonPolygon:
		return polygonPolygon(a, ta, b, tb)
	case pairAABBCircle:
		m, ok = circleAABB(b, tb, a, ta)
	case pairOBBCircle:
		m, ok = circleOBB(b, tb, a, ta)
	case pairOBBAABB:
		m, ok = aabbOBB(b, tb, a, ta)
	case pairPolygonCircle:
		m, ok = circlePolygon(b, tb, a, ta)
	case pairPolygonAABB:
		m, ok = aabbPolygon(b, tb, a, ta)
	case pairPolygonOBB:
		m, ok = obbPolygon(b, tb, a, ta)
	default:
		return Manifold{}, false
	}
	// Mirrored pair: the routine saw b as its A, so its normal points from b
	// to a.
	return m.Flip(), ok
}

// Overlap reports whether shape a placed by ta and shape b placed by tb
// overlap. It gives exactly the answer [Collide] gives, touching included
// (touching is not overlapping), but builds no manifold. It allocates
// nothing.
func Overlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	if !a.Valid() || !b.Valid() {
		return false
	}
	switch pairKey(a, b) {
	case pairCircleCircle:
		return circleCircleOverlap(a, ta, b, tb)
	case pairCircleAABB:
		return circleAABBOverlap(a, ta, b, tb)
	case pairCircleOBB:
		return circleOBBOverlap(a, ta, b, tb)
	case pairCirclePolygon:
		return circlePolygonOverlap(a, ta, b, tb)
	case pairAABBAABB:
		return aabbAABBOverlap(a, ta, b, tb)
	case pairAABBOBB:
		return aabbOBBOverlap(a, ta, b, tb)
	case pairAABBPolygon:
		return aabbPolygonOverlap(a, ta, b, tb)
	case pairOBBOBB:
		return obbOBBOverlap(a, ta, b, tb)
	case pairOBBPolygon:
		return obbPolygonOverlap(a, ta, b, tb)
	case pairPolygonPolygon:
		return polygonPolygonOverlap(a, ta, b, tb)
	case pairAABBCircle:
		return circleAABBOverlap(b, tb, a, ta)
	case pairOBBCircle:
		return circleOBBOverlap(b, tb, a, ta)
	case pairOBBAABB:
		return aabbOBBOverlap(b, tb, a, ta)
	case pairPolygonCircle:
		return circlePolygonOverlap(b, tb, a, ta)
	case pairPolygonAABB:
		return aabbPolygonOverlap(b, tb, a, ta)
	case pairPolygonOBB:
		return obbPolygonOverlap(b, tb, a, ta)
	}
	return false
}

// toWorld converts a manifold computed in the local frame placed by t to
// world coordinates.
func toWorld(m Manifold, t shape.Transform) Manifold {
	m.Normal = t.Rot.Apply(m.Normal)
	for i := range m.Count {
		m.Points[i].Point = t.Apply(m.Points[i].Point)
	}
	return m
}

// single returns a one-point manifold.
func single(n, p shape.Vec2, depth float64) Manifold {
	return Manifold{Normal: n, Depth: depth, Points: [2]ContactPoint{{Point: p, Depth: depth}}, Count: 1}
}
