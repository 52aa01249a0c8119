package shape

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ConvexHull returns the convex polygon that encloses every point, built with
// Andrew's monotone chain (Computational Geometry, de Berg et al., §1.1).
// Interior, duplicate and collinear points are dropped. It fails like
// [NewPolygon]: on non-finite input, fewer than three distinct points, points
// that all lie on one line, or a hull of more than [MaxPolygonVertices]
// vertices (use [SimplifyHull] for a hull of at most that many that still
// encloses every point).
func ConvexHull(points []Vec2) (Shape, error) {
	hull, err := hullOf(points)
	if err != nil {
		return Shape{}, err
	}
	s, err := NewPolygon(hull)
	if errors.Is(err, ErrTooManyVertices) {
		return Shape{}, fmt.Errorf("%w (SimplifyHull gives an enclosing hull of fewer)", err)
	}
	return s, err
}

// hullOf returns the convex hull of points, counter-clockwise, without
// collinear or duplicate points.
func hullOf(points []Vec2) ([]Vec2, error) {
	for i, p := range points {
		if !p.IsFinite() {
			return nil, fmt.Errorf("%w: point %d is %v", ErrNotFinite, i, p)
		}
	}
	for i, p := range points {
		if math.Abs(p.X) > MaxMagnitude || math.Abs(p.Y) > MaxMagnitude {
			return nil, fmt.Errorf("%w: point %d is %v (limit %g)", ErrTooLarge, i, p, MaxMagnitude)
		}
	}
	if len(points) < 3 {
		return nil, fmt.Errorf("%w: got %d points", ErrTooFewVertices, len(points))
	}
	pts := slices.Clone(points)
	slices.SortFunc(pts, func(a, b Vec2) int {
		if a.X != b.X {
			if a.X < b.X {
				return -1
			}
			return 1
		}
		if a.Y < b.Y {
			return -1
		}
		if a.Y > b.Y {
			return 1
		}
		return 0
	})
	pts = slices.Compact(pts)
	if len(pts) < 3 {
		return nil, fmt.Errorf("%w: %d distinct points", ErrTooFewVertices, len(pts))
	}
	hull := make([]Vec2, 0, 2*len(pts))
	for _, p := range pts { // lower chain
		for len(hull) >= 2 && orient(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- { // upper chain
		p := pts[i]
		for len(hull) >= lower && orient(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	hull = hull[:len(hull)-1]
	if len(hull) < 3 {
		return nil, fmt.Errorf("%w: all %d points lie on one line", ErrCollinear, len(pts))
	}
	return hull, nil
}

// hullSlack is how far SimplifyHull pushes a simplified hull outward,
// relative to its size: far above the rounding of the corner points it
// computes (a few ulps), so the result encloses every input point exactly.
const hullSlack = 1e-12

// SimplifyHull returns a convex polygon of at most maxVertices vertices
// (3 ≤ maxVertices ≤ [MaxPolygonVertices]) that encloses every point: a
// hitbox that never shrinks. When the convex hull already fits, it is
// exactly [ConvexHull]'s polygon.
//
// Otherwise it removes hull edges one at a time, each by extending its two
// neighbouring edges until they meet, choosing every time the edge whose
// removal adds the least area (a greedy minimum-area enclosing k-gon), and
// then grows the result about its centroid by 1e-12 of its size so that
// rounding in the new corners cannot leave a point outside. How far the
// result reaches beyond the hull is the largest distance from its vertices
// to the hull; for 1,000 points on a circle, 16 vertices add 1.4% to the
// area and 8 vertices 6.7% (TestSimplifyHull logs them). It fails like ConvexHull,
// and with ErrCollinear if the hull cannot be cut down that far (a square
// has no enclosing triangle made by extending its edges).
func SimplifyHull(points []Vec2, maxVertices int) (Shape, error) {
	if maxVertices < 3 {
		return Shape{}, fmt.Errorf("%w: maxVertices %d, at least 3", ErrTooFewVertices, maxVertices)
	}
	if maxVertices > MaxPolygonVertices {
		return Shape{}, fmt.Errorf("%w: maxVertices %d, the most is %d", ErrTooManyVertices, maxVertices, MaxPolygonVertices)
	}
	hull, err := hullOf(points)
	if err != nil {
		return Shape{}, err
	}
	if s, err := NewPolygon(hull); err == nil && len(s.Vertices()) <= maxVertices {
		return s, nil
	}
	for len(hull) > maxVertices {
		best, bestArea := -1, math.Inf(1)
		var bestP Vec2
		n := len(hull)
		for i := range n {
			p, area, ok := cutCorner(hull[(i+n-1)%n], hull[i], hull[(i+1)%n], hull[(i+2)%n])
			if ok && area < bestArea {
				best, bestArea, bestP = i, area, p
			}
		}
		if best < 0 {
			return Shape{}, fmt.Errorf("%w: no edge of the %d-vertex hull can be removed by extending its neighbours (their lines do not meet outside)", ErrCollinear, n)
		}
		// Vertices best and best+1 become the one point bestP.
		hull[best] = bestP
		hull = slices.Delete(hull, (best+1)%n, (best+1)%n+1)
	}
	return NewPolygon(offsetOutward(hull))
}

// offsetOutward moves every edge of the convex counter-clockwise outline v
// outward by hullSlack of its size plus 16 ulps of its largest coordinate,
// far above the rounding of the corners SimplifyHull computed, and returns
// the new corners (each where its two moved edges meet).
func offsetOutward(v []Vec2) []Vec2 {
	box := AABBFromPoints(v...)
	size := hypot(box.Max.X-box.Min.X, box.Max.Y-box.Min.Y)
	mag := math.Max(math.Max(math.Abs(box.Min.X), math.Abs(box.Max.X)), math.Max(math.Abs(box.Min.Y), math.Abs(box.Max.Y)))
	delta := float64(hullSlack*size) + float64(16*0x1p-52*mag)
	n := len(v)
	out := make([]Vec2, n)
	for i := range v {
		prev, next := v[(i+n-1)%n], v[(i+1)%n]
		n1 := outwardNormal(prev, v[i])
		n2 := outwardNormal(v[i], next)
		// The corner of two lines moved by delta along unit normals n1, n2
		// moves by (n1+n2)·delta/(1+n1·n2).
		out[i] = v[i].Add(n1.Add(n2).Scale(delta / (1 + n1.Dot(n2))))
	}
	return out
}

// outwardNormal returns the unit normal of edge a→b pointing out of a
// counter-clockwise outline.
func outwardNormal(a, b Vec2) Vec2 {
	d := b.Sub(a)
	return Vec2{d.Y, -d.X}.Scale(1 / hypot(d.X, d.Y))
}

// cutCorner returns the point p where the lines of edges a→b and c→d meet
// beyond b and c, and the area of the triangle b, p, c that replacing the
// corners b and c by the one corner p adds. ok is false when the lines do
// not meet on the outer side (parallel or diverging edges).
func cutCorner(a, b, c, d Vec2) (Vec2, float64, bool) {
	d1, d2 := b.Sub(a), d.Sub(c)
	den := d1.Cross(d2)
	if !(den > 0) {
		return Vec2{}, 0, false
	}
	t := c.Sub(b).Cross(d2) / den
	if !(t >= 0) || math.IsInf(t, 0) {
		return Vec2{}, 0, false
	}
	p := b.Add(d1.Scale(t))
	area := 0.5 * math.Abs(p.Sub(b).Cross(c.Sub(b)))
	if !p.IsFinite() || math.IsNaN(area) {
		return Vec2{}, 0, false
	}
	return p, area, true
}
