package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// hull is a convex outline in its shape's local frame: counter-clockwise
// vertices and outward unit normals, normals[i] for the edge from vertex i to
// vertex i+1. Polygons lend their precomputed slices; boxes slice their
// Corners array on the caller's stack and share boxNormals. The routines
// take hulls by pointer: six words, a hull lives in memory, and a copy of
// one just built waits for the stores it reads.
type hull struct {
	verts   []shape.Vec2
	normals []shape.Vec2
}

// boxNormals are the outward normals of a box's edges, in the order of
// [shape.Shape.Corners]: bottom, right, top, left.
var boxNormals = [4]shape.Vec2{{X: 0, Y: -1}, {X: 1, Y: 0}, {X: 0, Y: 1}, {X: -1, Y: 0}}

// cornersInto writes box s's corners into c in the order of
// shape.Shape.Corners, a corner at a time: the array Corners returns is
// stored a field at a time and then copied whole, and the copy stalls on
// the stores it reads.
func cornersInto(c *[4]shape.Vec2, s *shape.Shape) { boxCornersInto(c, s.HalfExtents()) }

// refFaceTol is the relative margin by which B's best face must beat A's to
// become the reference face. Preferring A keeps manifolds stable when faces
// are parallel (both penetrations equal up to rounding); the margin is small
// enough that the reported depth stays the exact minimum to 1e-10 relative.
const refFaceTol = 1e-10

// satResult is the outcome of a separating-axis test: the penetration depth
// along the reference face, that face's index in its hull, and which shape
// owns it.
type satResult struct {
	depth  float64
	face   int
	refIsA bool
}

// pickReference chooses the reference face from the best face of each shape.
func pickReference(depthA float64, faceA int, depthB float64, faceB int) satResult {
	if depthB < depthA*(1-refFaceTol) {
		return satResult{depth: depthB, face: faceB}
	}
	return satResult{depth: depthA, face: faceA, refIsA: true}
}

// satHulls runs the separating axis test on the face normals of a and b, with
// b placed in a's frame by rel. It reports false as soon as one face
// separates or touches.
//
// Along A's outward normal n, moving B by +n·(maxA - minB) separates the
// pair; along B's outward normal m, moving B by -m·(maxB - minA) does. These
// are the face normals of the Minkowski difference A - B, so for convex
// shapes the smallest such penetration is the exact penetration depth, also
// when one shape contains the other.
func satHulls(a, b *hull, rel shape.Transform) (satResult, bool) {
	depthA, faceA := math.Inf(1), 0
	for i, n := range a.normals {
		nb := rel.Rot.ApplyInv(n) // n in B's frame
		minB := nb.Dot(b.verts[0])
		for _, v := range b.verts[1:] {
			if d := nb.Dot(v); d < minB {
				minB = d
			}
		}
		pen := n.Dot(a.verts[i].Sub(rel.Pos)) - minB
		if !(pen > 0) {
			return satResult{}, false
		}
		if pen < depthA {
			depthA, faceA = pen, i
		}
	}
	pb := rel.Rot.ApplyInv(rel.Pos) // B's origin seen from A, in B's axes
	depthB, faceB := math.Inf(1), 0
	for j, m := range b.normals {
		ma := rel.Rot.Apply(m) // m in A's frame
		minA := ma.Dot(a.verts[0])
		for _, v := range a.verts[1:] {
			if d := ma.Dot(v); d < minA {
				minA = d
			}
		}
		pen := m.Dot(b.verts[j].Add(pb)) - minA
		if !(pen > 0) {
			return satResult{}, false
		}
		if pen < depthB {
			depthB, faceB = pen, j
		}
	}
	return pickReference(depthA, faceA, depthB, faceB), true
}

// clipHulls builds the manifold of overlapping hulls a and b (b placed in a's
// frame by rel) from the separating-axis result r, in a's frame.
//
// The incident face is the face of the other hull most anti-parallel to the
// reference normal. It is clipped against the side planes of the reference
// face (Sutherland–Hodgman; Ericson, RTCD §5.2 and Box2D b2ClipPolygons), and
// the clipped points that lie below the reference face are kept, each moved
// halfway up to it. If the incident face lies wholly beside the reference
// face, its deepest vertex is the contact; if rounding leaves no clipped
// point below the face, the less shallow one stands in.
func clipHulls(m *Manifold, a, b *hull, rel shape.Transform, r satResult) {
	ref, inc := a, b
	refX, incX := shape.Transform{}, rel
	if !r.refIsA {
		ref, inc = b, a
		refX, incX = rel, shape.Transform{}
	}
	n := refX.Rot.Apply(ref.normals[r.face])
	v1 := refX.Apply(ref.verts[r.face])
	v2 := refX.Apply(ref.verts[next(r.face, len(ref.verts))])

	nInc := incX.Rot.ApplyInv(n)
	k, best := 0, math.Inf(1)
	for j, u := range inc.normals {
		if d := u.Dot(nInc); d < best {
			best, k = d, j
		}
	}
	w1 := incX.Apply(inc.verts[k])
	w2 := incX.Apply(inc.verts[next(k, len(inc.verts))])

	normal := n
	if !r.refIsA {
		normal = n.Neg()
	}
	m.Normal, m.Depth = normal, r.depth

	t := n.Perp() // direction of the reference edge v1→v2
	lo, hi := t.Dot(v1), t.Dot(v2)
	s1, s2 := t.Dot(w1), t.Dot(w2)
	if s1 > s2 {
		w1, w2, s1, s2 = w2, w1, s2, s1
	}
	if !(s2 >= lo && s1 <= hi) {
		// The incident face lies beside the reference face: its deepest
		// vertex is the contact.
		w := w1
		if n.Dot(w2) < n.Dot(w1) {
			w = w2
		}
		m.Points[0] = ContactPoint{Point: w.Add(n.Scale(r.depth / 2)), Depth: r.depth}
		m.Count = 1
		return
	}
	e := w2.Sub(w1)
	p1, p2 := w1, w2
	if s1 < lo {
		p1 = w1.Add(e.Scale((lo - s1) / (s2 - s1)))
	}
	if s2 > hi {
		p2 = w1.Add(e.Scale((hi - s1) / (s2 - s1)))
	}
	pen1, pen2 := n.Dot(v1.Sub(p1)), n.Dot(v1.Sub(p2))
	m.addClipped(p1, n, pen1, r.depth)
	m.addClipped(p2, n, pen2, r.depth)
	if m.Count == 0 {
		// Only when the depth is at rounding level: keep the less shallow
		// clipped point, which lies on both surfaces to rounding.
		p, pen := p1, pen1
		if pen2 > pen1 {
			p, pen = p2, pen2
		}
		pen = max(0, min(pen, r.depth))
		m.Points[0] = ContactPoint{Point: p.Add(n.Scale(pen / 2)), Depth: r.depth}
		m.Count = 1
	}
}

// addClipped adds the clipped incident point p, whose penetration below the
// reference face of outward normal n is pen, if it is positive: the point
// moves halfway up to the face and its depth is capped at the manifold depth.
func (m *Manifold) addClipped(p, n shape.Vec2, pen, depth float64) {
	if !(pen > 0) {
		return
	}
	pen = min(pen, depth)
	m.Points[m.Count] = ContactPoint{Point: p.Add(n.Scale(pen / 2)), Depth: pen}
	m.Count++
}

// next returns the index after i in a cycle of n.
func next(i, n int) int {
	if i+1 == n {
		return 0
	}
	return i + 1
}

// prev returns the index before i in a ring of n (0 <= i < n).
func prev(i, n int) int {
	if i == 0 {
		return n - 1
	}
	return i - 1
}

// wrap returns i mod n for 0 <= i < 2n, without a division.
func wrap(i, n int) int {
	if i >= n {
		return i - n
	}
	return i
}

// collideHulls is the full separating-axis routine for two hulls, b placed
// in a's frame by rel; the manifold, in a's frame, goes to m.
func collideHulls(m *Manifold, a, b *hull, rel shape.Transform) bool {
	r, ok := satHulls(a, b, rel)
	if !ok {
		return false
	}
	clipHulls(m, a, b, rel, r)
	return true
}

// setPolygon makes h the hull of a polygon shape (nil slices for other
// kinds), in place: a hull returned by value is stored a word at a time
// and copied whole, which stalls the copy.
func (h *hull) setPolygon(s *shape.Shape) { h.verts, h.normals = s.Vertices(), s.Normals() }

// polygonPolygon collides two convex polygons by SAT and clipping in A's
// frame.
func polygonPolygon(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) bool {
	var ha, hb hull
	ha.setPolygon(a)
	hb.setPolygon(b)
	if !collideHulls(m, &ha, &hb, ta.MulInv(tb)) {
		return false
	}
	m.toWorld(ta)
	return true
}

func polygonPolygonOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	var ha, hb hull
	ha.setPolygon(&a)
	hb.setPolygon(&b)
	r, ok := satHulls(&ha, &hb, ta.MulInv(tb))
	return r.depth, ok
}
