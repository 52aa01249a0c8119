package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// touchBand is the depth, relative to the size of a pair (the sum of the
// bounding radii and the distance between the positions), within which
// Collide and Overlap confirm an overlap of straight-edged shapes at angle
// 0 with exact arithmetic: there the separating axis test measures along
// rounded unit normals, so that shapes that touch exactly (a corner on a
// slanted edge, all coordinates exact) come out overlapping by an ulp.
// Touching is not a contact. Rounding errors of the routines are near
// 1e-16 of the size; the band is wide of them.
const touchBand = 1e-12

// xpt is a point placed exactly: each coordinate the unevaluated sum of a
// position's and a local vertex's coordinate (hi + lo).
type xpt struct{ xh, xl, yh, yl float64 }

// maxTouchPts is the most outline points a straight-edged shape has.
const maxTouchPts = max(shape.MaxPolygonVertices, 4)

// touchCandidate reports whether the exact confirmation applies to a pair
// of kinds ka and kb: straight-edged shapes without rounding (boxes,
// polygons, segments), both unrotated, one of them with an edge that is
// not axis-aligned (a polygon or a segment; boxes alone are exact
// already). The kinds come first, from a table: most pairs stop there.
func touchCandidate(ka, kb shape.Kind, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	if !touchKinds[ka][kb] {
		return false
	}
	return a.EffectiveTransform(ta).Rot.IsIdentity() && b.EffectiveTransform(tb).Rot.IsIdentity()
}

// touchKinds holds touchCandidate's rule on kinds.
var touchKinds = func() (t [shape.KindCount][shape.KindCount]bool) {
	straight := func(k shape.Kind) bool {
		return k == shape.KindAABB || k == shape.KindOBB || k == shape.KindPolygon || k == shape.KindSegment
	}
	slanted := func(k shape.Kind) bool { return k == shape.KindPolygon || k == shape.KindSegment }
	for ka := range shape.Kind(shape.KindCount) {
		for kb := range shape.Kind(shape.KindCount) {
			t[ka][kb] = straight(ka) && straight(kb) && (slanted(ka) || slanted(kb))
		}
	}
	return t
}()

// inTouchBand reports whether depth is within touchBand of the pair's size.
func inTouchBand(depth float64, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	d := ta.Pos.Sub(tb.Pos)
	size := a.BoundingRadius() + b.BoundingRadius() + math.Abs(d.X) + math.Abs(d.Y)
	return depth <= float64(touchBand*size)
}

// exactlyApart reports whether a candidate pair (see touchCandidate) does
// not overlap in exact arithmetic: whether one edge of either outline has
// every point of the other on its outer side or on its line (the separating
// axis test over the edges' normals, which for two convex outlines is
// exact; Ericson, Real-Time Collision Detection, §5.2.1), with each
// orientation's sign computed exactly.
func exactlyApart(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	var bufA, bufB [maxTouchPts]xpt
	pa := exactOutline(a, ta, &bufA)
	pb := exactOutline(b, tb, &bufB)
	return edgeSeparates(pa, pb) || edgeSeparates(pb, pa)
}

// exactOutline places the outline of s (CCW; a segment's two ends) by t,
// which is unrotated, exactly.
func exactOutline(s shape.Shape, t shape.Transform, buf *[maxTouchPts]xpt) []xpt {
	var local []shape.Vec2
	var corners [4]shape.Vec2
	switch s.Kind() {
	case shape.KindAABB, shape.KindOBB:
		corners = s.Corners()
		local = corners[:]
	case shape.KindPolygon:
		local = s.Vertices()
	default:
		p0, p1 := s.Segment()
		corners[0], corners[1] = p0, p1
		local = corners[:2]
	}
	for i, v := range local {
		xh, xl := twoSum(t.Pos.X, v.X)
		yh, yl := twoSum(t.Pos.Y, v.Y)
		buf[i] = xpt{xh, xl, yh, yl}
	}
	return buf[:len(local)]
}

// edgeSeparates reports whether an edge of outline p (for two points, the
// segment either way round) has no point of q strictly on its inner (left)
// side.
func edgeSeparates(p, q []xpt) bool {
	for i := range p {
		u, v := p[i], p[(i+1)%len(p)]
		inside := false
		for _, w := range q {
			if orientSign(u, v, w) > 0 {
				inside = true
				break
			}
		}
		if !inside {
			return true
		}
	}
	return false
}

// orientSign returns the sign of (v − u) × (w − u), exactly.
func orientSign(u, v, w xpt) int {
	switch d := orientTop(u, v, w); {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// orientTop returns (v − u) × (w − u) to within an ulp, with its exact
// sign (0 only when it is 0): the products of the coordinates' terms split
// by twoProd, summed as an expansion, whose largest component it is.
func orientTop(u, v, w xpt) float64 {
	dx1 := [4]float64{v.xh, v.xl, -u.xh, -u.xl}
	dy2 := [4]float64{w.yh, w.yl, -u.yh, -u.yl}
	dy1 := [4]float64{v.yh, v.yl, -u.yh, -u.yl}
	dx2 := [4]float64{w.xh, w.xl, -u.xh, -u.xl}
	var terms [64]float64
	n := 0
	for i := range 4 {
		for j := range 4 {
			if dx1[i] != 0 && dy2[j] != 0 {
				p, e := twoProd(dx1[i], dy2[j])
				terms[n], terms[n+1] = p, e
				n += 2
			}
			if dy1[i] != 0 && dx2[j] != 0 {
				p, e := twoProd(dy1[i], dx2[j])
				terms[n], terms[n+1] = -p, -e
				n += 2
			}
		}
	}
	return sumTop(terms[:n])
}

// sumTop returns the exact sum of x to within an ulp, with its exact sign:
// the largest component of its expansion (growExpansion), the others
// summing to less than its ulp.
func sumTop(x []float64) float64 {
	var buf [64]float64
	e := growExpansion(buf[:0], x)
	if len(e) == 0 {
		return 0
	}
	return e[len(e)-1]
}

// growExpansion returns the nonoverlapping expansion of the exact sum of
// x, smallest component first and zeros dropped, built in e's storage
// (Shewchuk's Grow-Expansion, "Adaptive precision floating-point
// arithmetic and fast robust geometric predicates", 1997, §2.5: the terms
// added one by one). Its components sum to less than the largest one's
// ulp below it; it outgrows e only by appending.
func growExpansion(e, x []float64) []float64 {
	e = e[:0]
	for _, b := range x {
		q, k := b, 0
		for i := range e {
			var h float64
			q, h = twoSum(q, e[i])
			if h != 0 {
				e[k] = h
				k++
			}
		}
		if e = e[:k]; q != 0 {
			e = append(e, q)
		}
	}
	return e
}

// twoSum returns s = fl(a + b) and e with a + b = s + e exactly (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bv := s - a
	av := s - bv
	return s, (a - av) + (b - bv)
}

// twoProd returns p = fl(a·b) and e with a·b = p + e exactly: Dekker's
// product over Veltkamp's split halves (Shewchuk, "Adaptive precision
// floating-point arithmetic", Two-Product), each partial product rounded
// on its own, so that no CPU fuses them and every CPU gives the same e.
// It is exact while no product overflows or underflows: |a|, |b| ≤ 1e150
// (shape.MaxMagnitude) and their halves' products above the subnormals.
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	ah, al := split(a)
	bh, bl := split(b)
	x, y, z, w := float64(ah*bh), float64(al*bh), float64(ah*bl), float64(al*bl)
	return p, w - (((p - x) - y) - z)
}

// split returns hi + lo = a exactly, each with at most 26 significant
// bits (Veltkamp's split by 2^27 + 1).
func split(a float64) (hi, lo float64) {
	c := float64(134217729 * a)
	hi = c - (c - a)
	return hi, a - hi
}
