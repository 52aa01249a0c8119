package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// circleHullCore collides the circle of centre c and radius r with the convex
// outline h, both in h's frame.
//
// The face of greatest separation s decides (Ericson, RTCD §5.1.2; Box2D
// b2CollidePolygonAndCircle): s >= r separates them. With the centre inside
// (s <= 0) the shortest way out crosses that face: depth r - s. Outside, the
// closest point of the polygon lies on that face's segment: beside the face
// the depth is r - s along the face normal; beside an end vertex (the
// nearest-vertex axis that naive SAT forgets) it is r minus the distance to
// the vertex, along the line to it, so a circle beside a corner on the
// diagonal does not hit even though every face axis overlaps.
func circleHullCore(c shape.Vec2, r float64, h hull) (circleHit, bool) {
	face, maxS := 0, math.Inf(-1)
	for i, n := range h.normals {
		s := n.Dot(c.Sub(h.verts[i]))
		if !(s < r) {
			return circleHit{}, false
		}
		if s > maxS {
			maxS, face = s, i
		}
	}
	nf := h.normals[face]
	if maxS <= 0 {
		depth := r - maxS
		// Midpoint of the face point c - nf·s and the circle's point c - nf·r.
		return circleHit{normal: nf.Neg(), point: c.Sub(nf.Scale((maxS + r) / 2)), depth: depth}, true
	}
	n := len(h.verts)
	v1, v2 := h.verts[face], h.verts[next(face, n)]
	e := v2.Sub(v1)
	// The vertex regions are tested relative to the vertex itself, so that
	// the signs stay right for a centre within rounding of the vertex.
	q, atVertex := v1, false
	if u := c.Sub(v1); u.Dot(e) <= 0 && u.Dot(v1.Sub(h.verts[(face+n-1)%n])) >= 0 {
		atVertex = true
	} else if u := c.Sub(v2); u.Dot(e) >= 0 && u.Dot(h.verts[next(next(face, n), n)].Sub(v2)) <= 0 {
		q, atVertex = v2, true
	}
	if atVertex {
		// Beside the vertex q, in its normal cone: q is the closest point.
		d := q.Sub(c)
		l2 := d.LenSq()
		if !(l2 < r*r) {
			return circleHit{}, false
		}
		if dist := math.Sqrt(l2); dist > 0 {
			depth := r - dist
			if !(depth > 0) {
				return circleHit{}, false
			}
			nq := shape.Vec2{X: d.X / dist, Y: d.Y / dist}
			return circleHit{normal: nq, point: q.Add(nq.Scale(depth / 2)), depth: depth}, true
		}
	}
	// Beside the face, or on a vertex: the face normal is the exact
	// direction, where c - q would be noise.
	depth := r - maxS
	q = c.Sub(nf.Scale(maxS))
	return circleHit{normal: nf.Neg(), point: q.Sub(nf.Scale(depth / 2)), depth: depth}, true
}

// circlePolygon collides a circle with a convex polygon in the polygon's
// frame.
func circlePolygon(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) bool {
	c := tb.MulInv(ta).Apply(a.Center())
	h, ok := circleHullCore(c, a.Radius(), hull{verts: b.Vertices(), normals: b.Normals()})
	if !ok {
		return false
	}
	m.single(h.normal, h.point, h.depth)
	m.toWorld(tb)
	return true
}

func circlePolygonOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	c := tb.MulInv(ta).Apply(a.Center())
	h, ok := circleHullCore(c, a.Radius(), hull{verts: b.Vertices(), normals: b.Normals()})
	return h.depth, ok
}
