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
	if a.Kind() == b.Kind() && before(b, tb, a, ta) {
		return flipped(Collide(b, tb, a, ta))
	}
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
		return flipped(circleAABB(b, tb, a, ta))
	case pairOBBCircle:
		return flipped(circleOBB(b, tb, a, ta))
	case pairOBBAABB:
		return flipped(aabbOBB(b, tb, a, ta))
	case pairPolygonCircle:
		return flipped(circlePolygon(b, tb, a, ta))
	case pairPolygonAABB:
		return flipped(aabbPolygon(b, tb, a, ta))
	case pairPolygonOBB:
		return flipped(obbPolygon(b, tb, a, ta))
	}
	return Manifold{}, false
}

// before reports whether (a, ta) comes strictly before (b, tb) in a total
// order of placed shapes of one kind: position, then rotation, then size.
// Same-kind pairs are always computed in this order and flipped when given
// the other way round, so Collide(b, a) is exactly Collide(a, b) with the
// normal negated, even where the answer is a tie-break (coincident centres
// fall back to +X in one order only).
func before(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	if c := cmpVec(ta.Pos, tb.Pos); c != 0 {
		return c < 0
	}
	if c := cmpVec(shape.V(ta.Rot.Cos(), ta.Rot.Sin()), shape.V(tb.Rot.Cos(), tb.Rot.Sin())); c != 0 {
		return c < 0
	}
	if a.Radius() != b.Radius() {
		return a.Radius() < b.Radius()
	}
	if c := cmpVec(a.HalfExtents(), b.HalfExtents()); c != 0 {
		return c < 0
	}
	if c := cmpVec(a.Center(), b.Center()); c != 0 {
		return c < 0
	}
	va, vb := a.Vertices(), b.Vertices()
	if len(va) != len(vb) {
		return len(va) < len(vb)
	}
	for i := range va {
		if c := cmpVec(va[i], vb[i]); c != 0 {
			return c < 0
		}
	}
	return false
}

// cmpVec orders vectors by X, then Y.
func cmpVec(a, b shape.Vec2) int {
	switch {
	case a.X < b.X:
		return -1
	case a.X > b.X:
		return 1
	case a.Y < b.Y:
		return -1
	case a.Y > b.Y:
		return 1
	}
	return 0
}

// flipped turns the result of a mirrored pair, whose routine saw b as its A,
// around: the normal then points from a to b.
func flipped(m Manifold, ok bool) (Manifold, bool) { return m.Flip(), ok }

// Overlap reports whether shape a placed by ta and shape b placed by tb
// overlap. It gives exactly the answer [Collide] gives, touching included
// (touching is not overlapping), but builds no manifold. It allocates
// nothing.
func Overlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	if !a.Valid() || !b.Valid() {
		return false
	}
	if a.Kind() == b.Kind() && before(b, tb, a, ta) {
		a, ta, b, tb = b, tb, a, ta
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
