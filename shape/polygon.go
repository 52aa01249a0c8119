package shape

import (
	"fmt"
	"math"
	"slices"
)

// MaxPolygonVertices is the most vertices a polygon may keep after cleanup.
// Box2D stops at 8; game hitboxes and convex pieces of decomposed outlines
// sometimes need more, and the narrow phase is linear in the count, so the
// cap is 16. Polygon storage is sized to the actual count, so the cap costs
// nothing for small polygons.
const MaxPolygonVertices = 16

// Relative tolerances of polygon cleanup. A vertex closer than
// dupTol·size to its predecessor is a duplicate; a vertex whose turn has
// |sin| below sinTol is collinear with its neighbours. Both are far below
// anything a game would author, so polygons keep the vertices they were given.
const (
	dupTol = 1e-12
	sinTol = 1e-12
)

// NewPolygon returns the convex polygon with the given local vertices.
//
// Counter-clockwise and clockwise input are both accepted; clockwise input is
// reversed. A vertex that duplicates its neighbour, or continues its edge in
// a straight line, to within 1e-12 of the polygon's size is removed; a
// duplicate elsewhere in the outline makes it self-intersecting. The remaining outline
// must have at least 3 and at most [MaxPolygonVertices] vertices, be simple
// and be convex, and be wider than the rounding of its coordinates (its
// centroid strictly inside; else ErrCollinear). Errors wrap [ErrNotFinite], [ErrTooFewVertices],
// [ErrCollinear], [ErrSelfIntersecting], [ErrTooManyVertices],
// [ErrNonConvex] or [ErrTooLarge] and name the offending input vertex. Use [ConvexHull] to
// build a polygon from an arbitrary point cloud.
func NewPolygon(verts []Vec2) (Shape, error) { return buildPolygon(verts, nil) }

// polygonScratch holds the buffers of buildPolygon for a caller that
// validates many outlines and keeps none of the shapes: the shapes it
// returns share the scratch's memory, are good only until the next call,
// and have no radius (Reach and BoundingRadius read 0).
type polygonScratch struct {
	pts, buf []Vec2
	idx      []int
}

// buildPolygon is NewPolygon, working in sc's buffers when sc is not nil.
func buildPolygon(verts []Vec2, sc *polygonScratch) (Shape, error) {
	for i, v := range verts {
		if !v.IsFinite() {
			return Shape{}, fmt.Errorf("%w: vertex %d is %v", ErrNotFinite, i, v)
		}
	}
	for i, v := range verts {
		if math.Abs(v.X) > MaxMagnitude || math.Abs(v.Y) > MaxMagnitude {
			return Shape{}, fmt.Errorf("%w: vertex %d is %v (limit %g)", ErrTooLarge, i, v, MaxMagnitude)
		}
	}
	if len(verts) < 3 {
		return Shape{}, fmt.Errorf("%w: got %d", ErrTooFewVertices, len(verts))
	}
	box := AABBFromPoints(verts...)
	size := hypot(box.Max.X-box.Min.X, box.Max.Y-box.Min.Y) // finite: coordinates are bounded
	if size == 0 {
		return Shape{}, fmt.Errorf("%w: all %d vertices coincide", ErrTooFewVertices, len(verts))
	}
	// The tolerance tests run on edges scaled by 1/size, so that they
	// neither overflow nor underflow at any scale.
	inv := 1 / size

	// Work on copies that remember each vertex's input index.
	var pts []Vec2
	var idx []int
	if sc != nil {
		pts, idx = sc.pts[:0], sc.idx[:0]
		defer func() { sc.pts, sc.idx = pts[:0], idx[:0] }()
	} else {
		pts = make([]Vec2, 0, len(verts))
		idx = make([]int, 0, len(verts))
	}

	// Drop consecutive (cyclic) duplicates.
	const dup2 = dupTol * dupTol
	for i, v := range verts {
		if len(pts) > 0 && v.Sub(pts[len(pts)-1]).Scale(inv).LenSq() <= dup2 {
			continue
		}
		pts, idx = append(pts, v), append(idx, i)
	}
	for len(pts) > 1 && pts[0].Sub(pts[len(pts)-1]).Scale(inv).LenSq() <= dup2 {
		pts, idx = pts[:len(pts)-1], idx[:len(idx)-1]
	}
	if len(pts) < 3 {
		return Shape{}, fmt.Errorf("%w: %d distinct: the polygon is %.3g thick, thinner than the tolerance %.3g (%g of its size %.3g): vertices closer to their neighbour than that are merged, so a sliver this thin has no width left",
			ErrTooFewVertices, len(pts), thickness(verts, inv)*size, dupTol*size, dupTol, size)
	}
	if thick, ok := allCollinear(pts, inv); ok {
		return Shape{}, collinearError(len(pts), thick, size)
	}

	// Remove straight continuations; a turn of 180° folds the outline back
	// onto itself.
	for changed := true; changed && len(pts) >= 3; {
		changed = false
		for i := 0; i < len(pts) && len(pts) >= 3; i++ {
			prev, next := pts[pred(i, len(pts))], pts[succ(i, len(pts))]
			e1, e2 := pts[i].Sub(prev).Scale(inv), next.Sub(pts[i]).Scale(inv)
			cr := e1.Cross(e2)
			if cr*cr > sinTol*sinTol*e1.LenSq()*e2.LenSq() {
				continue
			}
			if e1.Dot(e2) < 0 {
				return Shape{}, fmt.Errorf("%w: outline folds back at vertex %d", ErrSelfIntersecting, idx[i])
			}
			pts = append(pts[:i], pts[i+1:]...)
			idx = append(idx[:i], idx[i+1:]...)
			changed = true
			i--
		}
	}
	if len(pts) < 3 {
		return Shape{}, fmt.Errorf("%w: %d vertices left after removing collinear ones", ErrCollinear, len(pts))
	}
	if len(pts) > MaxPolygonVertices {
		return Shape{}, fmt.Errorf("%w: %d, the most is %d", ErrTooManyVertices, len(pts), MaxPolygonVertices)
	}
	if i, j, bad := selfIntersection(pts); bad {
		return Shape{}, fmt.Errorf("%w: edge from vertex %d crosses edge from vertex %d", ErrSelfIntersecting, idx[i], idx[j])
	}
	if signedArea2(pts) < 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
			idx[i], idx[j] = idx[j], idx[i]
		}
	}
	n := len(pts)
	for i := range pts {
		prev, next := pts[pred(i, n)], pts[succ(i, n)]
		if pts[i].Sub(prev).Cross(next.Sub(pts[i])) < 0 {
			return Shape{}, fmt.Errorf("%w: reflex angle at vertex %d", ErrNonConvex, idx[i])
		}
	}
	var buf []Vec2
	if sc != nil {
		sc.buf = slices.Grow(sc.buf[:0], 1+2*n)[:1+2*n]
		buf = sc.buf
	} else {
		buf = make([]Vec2, 1+2*n)
	}
	sh := newPolygonShape(pts, buf, sc == nil)
	// A polygon thinner than its coordinates' rounding passes the
	// tolerance tests above (they are relative to its own size) but its
	// centroid rounds onto or beyond an edge: collinear at this precision.
	c, nv := sh.v, sh.polyData()
	for i := range n {
		if !(nv[n+i].Dot(c.Sub(nv[i])) < 0) {
			return Shape{}, fmt.Errorf("%w: thinner than the rounding of its coordinates (its centroid falls on the edge from vertex %d)", ErrCollinear, idx[i])
		}
	}
	return sh, nil
}

// newPolygonShape precomputes the normals, centroid and, if withRadius,
// the radius of a validated counter-clockwise convex outline, in buf
// (1 + 2·len(pts) long: the Shape's head, then the vertices and normals).
// The head, vertices and normals share that one allocation, which the
// Shape reaches through a pointer to its first vertex; the centroid and
// radius live in the Shape's own fields. A polygon thus costs one small
// allocation.
func newPolygonShape(pts, buf []Vec2, withRadius bool) Shape {
	n := len(pts)
	verts, normals := buf[1:n+1:n+1], buf[n+1:]
	copy(verts, pts)
	var radius float64
	for i := range n {
		e := pts[succ(i, n)].Sub(pts[i])
		normals[i] = Vec2{e.Y, -e.X}.Normalize()
		if withRadius {
			radius = max(radius, hypot(pts[i].X, pts[i].Y))
		}
	}
	// Area-weighted centroid of the fan from vertex 0, for precision far
	// from the origin, in units of the polygon's size so that the products
	// neither overflow nor underflow.
	o := pts[0]
	box := AABBFromPoints(pts...)
	size := hypot(box.Max.X-box.Min.X, box.Max.Y-box.Min.Y)
	var area float64
	var c Vec2
	for i := 1; i+1 < n; i++ {
		a, b := pts[i].Sub(o).Scale(1/size), pts[i+1].Sub(o).Scale(1/size)
		w := a.Cross(b)
		area += w
		c = c.Add(a.Add(b).Scale(w))
	}
	centroid := o.Add(c.Scale(size / (3 * area)))
	return Shape{p: withHead(buf, KindPolygon, n), r: radius, v: centroid}
}

// signedArea2 returns twice the signed area of the outline: positive when it
// runs counter-clockwise.
func signedArea2(pts []Vec2) float64 {
	o := pts[0]
	var a float64
	for i := 1; i+1 < len(pts); i++ {
		a += pts[i].Sub(o).Cross(pts[i+1].Sub(o))
	}
	return a
}

// allCollinear reports whether every point lies within a tiny relative
// distance of the line through the first point and the point farthest from
// it, and returns the largest such distance in the unit 1/inv. inv is
// 1/size of the polygon; distances are measured in that unit.
func allCollinear(pts []Vec2, inv float64) (float64, bool) {
	o := pts[0]
	far, best := o, 0.0
	for _, p := range pts[1:] {
		if d := p.Sub(o).Scale(inv).LenSq(); d > best {
			far, best = p, d
		}
	}
	d := far.Sub(o).Scale(inv)
	l := d.Len()
	thick := 0.0
	for _, p := range pts {
		c := math.Abs(p.Sub(o).Scale(inv).Cross(d))
		if c > sinTol*l {
			return 0, false
		}
		thick = max(thick, c/l)
	}
	return thick, true
}

// thickness returns the largest distance of a point from the line through
// the first point and the point farthest from it, in the unit 1/inv: how
// thick a sliver is, for error messages.
func thickness(pts []Vec2, inv float64) float64 {
	o := pts[0]
	far, best := o, 0.0
	for _, p := range pts[1:] {
		if d := p.Sub(o).Scale(inv).LenSq(); d > best {
			far, best = p, d
		}
	}
	d := far.Sub(o).Scale(inv)
	l := d.Len()
	if l == 0 {
		return 0
	}
	thick := 0.0
	for _, p := range pts {
		thick = max(thick, math.Abs(p.Sub(o).Scale(inv).Cross(d))/l)
	}
	return thick
}

// collinearError explains why an outline within sinTol of a line is
// refused: a 1 by 1e-13 sliver has no direction its normals could be
// trusted in.
func collinearError(n int, thick, size float64) error {
	return fmt.Errorf("%w: all %d vertices lie within %.3g of one line, thinner than the tolerance %.3g (%g of the polygon's size %.3g): too thin for its normals and depth to be computed",
		ErrCollinear, n, thick*size, sinTol*size, sinTol, size)
}

// selfIntersection returns the first pair of non-adjacent edges that touch
// or cross, by start vertex. Polygons are small, so the quadratic scan is
// cheap; segmentsTouch is exact. A convex outline of five or more
// vertices, the usual input, is known simple by turnsOnce in linear time
// and skips the scan; below five the scan tests at most two pairs.
func selfIntersection(pts []Vec2) (int, int, bool) {
	if len(pts) >= 5 && turnsOnce(pts) {
		return 0, 0, false
	}
	n := len(pts)
	for i := range n {
		a, b := pts[i], pts[succ(i, n)]
		e := b.Sub(a)
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue // adjacent through the closing edge
			}
			// Both ends of edge j clearly on one side of edge i's line, by
			// orientSign's float filter: apart, as segmentsTouch would find.
			c, d := pts[j], pts[succ(j, n)]
			if o := orientFilter(a, e, c); o != 0 && o == orientFilter(a, e, d) {
				continue
			}
			if segmentsTouch(a, b, c, d) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// turnsOnce reports whether the outline turns the same way at every vertex,
// exactly (orientSign), and its edges' directions go round once: then it
// is strictly convex, so simple, and no two non-adjacent edges touch. Each
// turn is less than half a turn, so the directions cross the +X axis
// (from below to on or above it, counter-clockwise) once per time round;
// the sign of a float difference is exact, so the count is too.
func turnsOnce(pts []Vec2) bool {
	n := len(pts)
	if n < 3 {
		return false
	}
	// up reports whether e points into the half-plane of angles [0, π).
	up := func(e Vec2) bool { return e.Y > 0 || e.Y == 0 && e.X > 0 }
	turn := orientSign(pts[0], pts[1], pts[2])
	if turn == 0 {
		return false
	}
	wraps := 0
	for i := range n {
		a, b, c := pts[i], pts[succ(i, n)], pts[succ(succ(i, n), n)]
		if i > 0 && orientSign(a, b, c) != turn {
			return false
		}
		if up(b.Sub(a)) != up(c.Sub(b)) && up(c.Sub(b)) == (turn > 0) {
			wraps++
		}
	}
	return wraps == 1
}

// segmentsTouch reports whether the closed segments ab and cd share a point,
// exactly: the orientations are orientSign's, so a point on the other
// segment in rationals touches it even where the float determinant rounds
// away from zero, and one an ulp off does not.
//
// Segments with both ends of one strictly on one side of the other's line
// are apart, and that is decided from two orientations of the four: ab
// then lies in an open half-plane that cd's line bounds, so no point of ab
// is on that line, let alone on cd.
func segmentsTouch(a, b, c, d Vec2) bool {
	d1 := orientSign(c, d, a)
	d2 := orientSign(c, d, b)
	if d1 == d2 && d1 != 0 {
		return false
	}
	d3 := orientSign(a, b, c)
	d4 := orientSign(a, b, d)
	if d3 == d4 && d3 != 0 {
		return false
	}
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	return (d1 == 0 && onSegment(c, d, a)) || (d2 == 0 && onSegment(c, d, b)) ||
		(d3 == 0 && onSegment(a, b, c)) || (d4 == 0 && onSegment(a, b, d))
}

func orient(a, b, c Vec2) float64 { return b.Sub(a).Cross(c.Sub(a)) }

// onSegment reports whether p, known to be collinear with ab, lies within it.
func onSegment(a, b, p Vec2) bool {
	return min(a.X, b.X) <= p.X && p.X <= max(a.X, b.X) &&
		min(a.Y, b.Y) <= p.Y && p.Y <= max(a.Y, b.Y)
}
