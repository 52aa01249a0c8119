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
		return polygonHolds(s.Vertices(), t.ApplyInv(p))
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		return containsCapsule(p0, p1, s.Radius(), t.ApplyInv(p))
	case shape.KindCompound, shape.KindChain:
		return containsComposite(s, t, p)
	}
	return false
}

// polygonHolds reports whether the local point q lies in the convex
// counter-clockwise polygon (closed): on no edge's outer side, by the sign
// of the edge's orientation determinant, exactly. The rounded unit normals
// are not exactly perpendicular to their edges: tested against them, a
// point exactly on an edge or at a vertex can fall a rounding outside, and
// one a rounding outside can pass. A non-finite q is outside.
func polygonHolds(verts []shape.Vec2, q shape.Vec2) bool {
	if !q.IsFinite() {
		return false
	}
	n := len(verts)
	for i, v := range verts {
		next := verts[0]
		if i+1 < n {
			next = verts[i+1]
		}
		if orient(v, next, q) < 0 {
			return false
		}
	}
	return true
}

// orientErr is Shewchuk's error bound for the floating-point orientation
// determinant, (3 + 16ε)ε with ε = 2⁻⁵³ ("Adaptive Precision Floating-Point
// Arithmetic and Fast Robust Geometric Predicates", 1997, orient2d's
// ccwerrboundA): beyond it the float sign is the exact sign.
const orientErr = (3 + 16*0x1p-53) * 0x1p-53

// orient returns (b − a) × (p − a), positive when p is left of a→b, with
// its exact sign: the float determinant when it is clear of its error
// bound, otherwise the exact one to within an ulp (orientTop).
func orient(a, b, p shape.Vec2) float64 {
	l := float64((b.X - a.X) * (p.Y - a.Y))
	r := float64((b.Y - a.Y) * (p.X - a.X))
	det, sum := l-r, math.Abs(l)+math.Abs(r)
	// Below 1e-290 the products may have underflowed, and the bound with them.
	if sum > 1e-290 && math.Abs(det) > float64(orientErr*sum) {
		return det
	}
	return orientTop(xpt{a.X, 0, a.Y, 0}, xpt{b.X, 0, b.Y, 0}, xpt{p.X, 0, p.Y, 0})
}

// alongTop returns (b − a)·(p − a) to within an ulp, with its exact sign:
// the float value when it is clear of its error bound (orientErr, the
// same for a sum of two products as for their difference), otherwise the
// products of the differences, split by twoSum and twoProd, summed as an
// expansion (sumTop).
func alongTop(a, b, p shape.Vec2) float64 {
	l := float64((b.X - a.X) * (p.X - a.X))
	r := float64((b.Y - a.Y) * (p.Y - a.Y))
	dot, sum := l+r, math.Abs(l)+math.Abs(r)
	if sum > 1e-290 && math.Abs(dot) > float64(orientErr*sum) {
		return dot
	}
	var terms [16]float64
	n := 0
	for _, d := range [2][3]float64{{a.X, b.X, p.X}, {a.Y, b.Y, p.Y}} {
		eh, el := twoSum(d[1], -d[0])
		wh, wl := twoSum(d[2], -d[0])
		for _, x := range [2]float64{eh, el} {
			for _, y := range [2]float64{wh, wl} {
				pr, er := twoProd(x, y)
				terms[n], terms[n+1] = pr, er
				n += 2
			}
		}
	}
	return sumTop(terms[:n])
}
