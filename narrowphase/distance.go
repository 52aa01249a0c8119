package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// DistanceSq returns the squared Euclidean distance from the world point p to
// the shape s placed by t: 0 when p is inside or on the boundary, exactly
// when [ContainsPoint] reports true. It returns +Inf for a zero (invalid)
// Shape or a non-finite p, so such entries sort last in a nearest-neighbour
// search. An AABB ignores t's rotation (see [shape.Shape.EffectiveTransform]).
//
// It is meant for k-nearest queries: boxes and polygons take no square root,
// a circle takes one, and nothing allocates.
func DistanceSq(s shape.Shape, t shape.Transform, p shape.Vec2) float64 {
	if !s.Valid() || !p.IsFinite() {
		return math.Inf(1)
	}
	switch s.Kind() {
	case shape.KindCircle:
		return distSqCircle(s.Center(), s.Radius(), t.ApplyInv(p)) // in the circle's frame, as ContainsPoint
	case shape.KindAABB, shape.KindOBB:
		q := s.EffectiveTransform(t).ApplyInv(p)
		h := s.HalfExtents()
		dx := max(math.Abs(q.X)-h.X, 0)
		dy := max(math.Abs(q.Y)-h.Y, 0)
		return float64(dx*dx) + float64(dy*dy)
	case shape.KindPolygon:
		return distSqPolygon(s.Vertices(), t.ApplyInv(p))
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		return distSqCapsule(p0, p1, s.Radius(), t.ApplyInv(p))
	case shape.KindCompound, shape.KindChain:
		return distSqComposite(s, t, p)
	}
	return math.Inf(1)
}

// Distance returns the Euclidean distance from the world point p to the shape
// s placed by t: the square root of [DistanceSq], with the same conventions.
func Distance(s shape.Shape, t shape.Transform, p shape.Vec2) float64 {
	return math.Sqrt(DistanceSq(s, t, p))
}

// distSqCircle returns the squared distance from p to the disc of centre c
// and radius r: 0 exactly when circleHolds. Outside, |p-c| - r is computed
// as (|p-c|² - r²)/(|p-c| + r), the numerator circleExcess, positive
// whenever the containment test failed, so a point outside never gets
// distance 0 (outsideSq where its square underflows), and it is as
// accurate near the surface.
func distSqCircle(c shape.Vec2, r float64, p shape.Vec2) float64 {
	x := circleExcess(c, r, p)
	if !(x > 0) {
		if x != x {
			return math.Inf(1) // a NaN point: never nearest
		}
		return 0
	}
	l2 := p.Sub(c).LenSq()
	if math.IsInf(l2, 1) {
		return l2 // too far to square: infinitely far, never NaN
	}
	d := x / (math.Sqrt(l2) + r)
	return outsideSq(d * d)
}

// outsideSq returns the squared distance x of a point found outside a
// shape, held at the smallest positive float where its square underflowed
// (a point 1e-162 or less outside), so that outside is never distance 0.
// NaN stays NaN.
func outsideSq(x float64) float64 { return max(x, math.SmallestNonzeroFloat64) }

// distSqPolygon returns the squared distance from the local point q to the
// convex polygon: 0 exactly when polygonHolds. Otherwise the nearest
// boundary point lies on an edge that q is strictly outside of, by the
// exact sign of orient (at a vertex, q - v is a non-negative mix of the two
// edge normals, so it is outside at least one of them), and for such an
// edge the distance is the perpendicular separation (e × w)²/|e|² when q
// projects inside the segment, or the distance to the nearer end. None of
// them is 0: q differs from both ends and e × w is not 0, so a point
// outside never gets distance 0. No square root is needed. Being outside
// is its own flag, not a best still +Inf: a point so far (1e155 and up)
// that every squared distance overflows is at +Inf, not inside.
func distSqPolygon(verts []shape.Vec2, q shape.Vec2) float64 {
	best := math.Inf(1)
	outside := false
	n := len(verts)
	for i, v := range verts {
		next := verts[0]
		if i+1 < n {
			next = verts[i+1]
		}
		cr := orient(v, next, q)
		if cr >= 0 {
			continue
		}
		outside = true
		w, e := q.Sub(v), next.Sub(v)
		var d2 float64
		switch u, ee := w.Dot(e), e.LenSq(); {
		case u <= 0:
			d2 = w.LenSq()
		case u >= ee:
			d2 = q.Sub(next).LenSq()
		default:
			d2 = float64(cr*cr) / ee
		}
		best = min(best, d2)
	}
	if !outside {
		return 0 // on the inner side of every edge: inside
	}
	return outsideSq(best)
}
