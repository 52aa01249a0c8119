package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// placed is a shape's convex core as GJK walks it: its local vertices, the
// transform that places them (relative to some origin) and the radius.
// A support point turns the direction into the shape's frame and one
// vertex back out, instead of turning every vertex at every placement:
// conservative advancement places the pair a dozen times per call.
type placed struct {
	v    []shape.Vec2  // the shape's own vertices, or nil: own[:n]
	own  [4]shape.Vec2 // a box's corners or a circle's centre
	n    int
	x    shape.Transform
	r    float64
	last int // the vertex support returned last: where the next climb starts
}

// init takes s's core: its vertices (a polygon's, capsule's or segment's
// own slice; a box's corners or a circle's centre copied into p) and
// radius.
func (p *placed) init(s shape.Shape) {
	p.v, p.r, p.last = nil, 0, 0
	switch s.Kind() {
	case shape.KindCircle:
		p.own[0], p.n, p.r = s.Center(), 1, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		cornersInto(&p.own, &s)
		p.n = 4
	default:
		p.v, p.r = s.Vertices(), s.Radius()
	}
}

// verts returns the core's local vertices.
func (p *placed) verts() []shape.Vec2 {
	if p.v != nil {
		return p.v
	}
	return p.own[:p.n]
}

// place puts the core where s (the shape init took) is placed by t,
// relative to origin.
func (p *placed) place(s shape.Shape, t shape.Transform, origin shape.Vec2) {
	p.x = s.EffectiveTransform(t)
	p.x.Pos = p.x.Pos.Sub(origin)
}

// climbMin is the vertex count from which support climbs from the last
// answer instead of scanning every vertex.
const climbMin = 6

// support returns the index of p's vertex farthest along d. On a polygon
// of climbMin or more vertices it climbs from the vertex it returned last
// (GJK's and the advancement's successive directions turn little): along
// a convex outline the projection on d rises to its maximum and falls
// again, so the first vertex whose neighbours are no farther along d is
// the farthest (Ericson, Real-Time Collision Detection, §9.5.1: hill
// climbing). Rounding can only make it stop at a vertex within an ulp of
// the farthest.
func (p *placed) support(d shape.Vec2) int {
	dl := p.x.Rot.ApplyInv(d)
	vs := p.verts()
	n := len(vs)
	if n < climbMin {
		best, bi := vs[0].Dot(dl), 0
		for i, v := range vs[1:] {
			if x := v.Dot(dl); x > best {
				best, bi = x, i+1
			}
		}
		return bi
	}
	i := p.last
	best := vs[i].Dot(dl)
	// Forward while it rises; if the first step does not, backward.
	moved := false
	for range n {
		j := next(i, n)
		x := vs[j].Dot(dl)
		if !(x > best) {
			break
		}
		i, best, moved = j, x, true
	}
	if !moved {
		for range n {
			j := prev(i, n)
			x := vs[j].Dot(dl)
			if !(x > best) {
				break
			}
			i, best = j, x
		}
	}
	p.last = i
	return i
}

// at returns p's vertex i, placed.
func (p *placed) at(i int) shape.Vec2 { return p.x.Apply(p.verts()[i]) }

// gjkIters bounds gjkGap's simplex steps; two convex polygons of up to 16
// vertices each take a handful.
const gjkIters = 40

// simplex is GJK's simplex: up to three points of the Minkowski difference
// b − a, each with the vertices of a and b it is made of. Kept between
// calls on nearby placements (conservative advancement's steps), it is
// rebuilt from those vertices at the new placement and usually already
// holds the answer: Box2D's b2SimplexCache.
type simplex struct {
	w      [3]shape.Vec2
	ia, ib [3]int
	n      int
}

// gjkGap returns what mink.gap does — the distance between the shapes with
// cores a and b (0 when they touch or overlap) and the unit direction from
// b toward a — without building the Minkowski difference: GJK (Gilbert,
// Johnson and Keerthi; Ericson, Real-Time Collision Detection, §9.5) walks
// it through support points, a simplex of at most three. sx holds the
// simplex of the previous call on the same pair (n = 0 the first time) and
// is left holding this call's.
func gjkGap(a, b *placed, sx *simplex) (float64, shape.Vec2) {
	if sx.n == 0 {
		sx.ia[0], sx.ib[0], sx.n = 0, 0, 1
	}
	for k := range sx.n {
		sx.w[k] = b.at(sx.ib[k]).Sub(a.at(sx.ia[k]))
	}
	var c shape.Vec2
	if sx.n == 1 {
		c = sx.w[0]
	} else {
		c = sx.nearest()
	}
	scale := math.Abs(c.X) + math.Abs(c.Y) + a.r + b.r
	for range gjkIters {
		if sx.n == 3 {
			c = shape.Vec2{}
			break
		}
		cc := c.LenSq()
		if cc == 0 {
			break
		}
		ib, ia := b.support(c.Neg()), a.support(c)
		w := b.at(ib).Sub(a.at(ia))
		if x := math.Abs(w.X) + math.Abs(w.Y); x > scale {
			scale = x
		}
		// No point of M is nearer the origin along -c than c itself,
		// beyond rounding: c is the nearest.
		if cc-c.Dot(w) <= float64(1e-10*scale)*math.Sqrt(cc) {
			break
		}
		dup := false
		for k := range sx.n {
			dup = dup || (sx.ia[k] == ia && sx.ib[k] == ib)
		}
		if dup {
			break // a support point already in the simplex: no progress
		}
		sx.w[sx.n], sx.ia[sx.n], sx.ib[sx.n] = w, ia, ib
		sx.n++
		c = sx.nearest()
	}
	l := c.Len()
	r := a.r + b.r
	if !(l > r) {
		return 0, shape.Vec2{X: 1}
	}
	return l - r, c.Scale(-1 / l)
}

// nearest returns the point of the simplex (2 or 3 points) nearest the
// origin and reduces it to the smallest part holding that point; n == 3
// after means the origin is inside the triangle.
func (sx *simplex) nearest() shape.Vec2 {
	p, n := simplexNearest(sx, sx.n)
	sx.n = n
	return p
}

// segNearest returns the point of segment p–q nearest the origin and
// whether it is interior (false: an end, then p if at p, else q).
func segNearest(p, q shape.Vec2) (shape.Vec2, int) {
	e := q.Sub(p)
	t := -p.Dot(e)
	if t <= 0 {
		return p, 0
	}
	ee := e.LenSq()
	if t >= ee {
		return q, 1
	}
	return p.Add(e.Scale(t / ee)), 2
}

// simplexNearest returns the point of the simplex s[:n] (2 or 3 points)
// nearest the origin and reduces s to the smallest part holding it; n == 3
// back means the origin is inside the triangle.
func simplexNearest(sx *simplex, n int) (shape.Vec2, int) {
	s := &sx.w
	if n == 2 {
		p, k := segNearest(s[0], s[1])
		switch k {
		case 0:
			return p, 1
		case 1:
			sx.move(0, 1)
			return p, 1
		}
		return p, 2
	}
	a, b, c := s[0], s[1], s[2]
	area := b.Sub(a).Cross(c.Sub(a))
	if area == 0 {
		// Degenerate: the nearest point lies on one of the edges.
		best, bi := shape.Vec2{}, -1
		var bk int
		for i, e := range [3][2]shape.Vec2{{a, b}, {b, c}, {c, a}} {
			p, k := segNearest(e[0], e[1])
			if bi < 0 || p.LenSq() < best.LenSq() {
				best, bi, bk = p, i, k
			}
		}
		return reduceTo(sx, bi, bk, best)
	}
	best, bi, bk := shape.Vec2{}, -1, 0
	for i, e := range [3][2]shape.Vec2{{a, b}, {b, c}, {c, a}} {
		// The origin beyond this edge, on the side away from the triangle.
		if float64(e[1].Sub(e[0]).Cross(e[0].Neg())*area) < 0 {
			p, k := segNearest(e[0], e[1])
			if bi < 0 || p.LenSq() < best.LenSq() {
				best, bi, bk = p, i, k
			}
		}
	}
	if bi < 0 {
		return shape.Vec2{}, 3
	}
	return reduceTo(sx, bi, bk, best)
}

// move copies simplex point j, with its vertices, to slot i.
func (sx *simplex) move(i, j int) {
	sx.w[i], sx.ia[i], sx.ib[i] = sx.w[j], sx.ia[j], sx.ib[j]
}

// reduceTo keeps of triangle s the edge i (from s[i] to s[(i+1)%3]), or
// its end k (0 or 1) when the nearest point p is there.
func reduceTo(sx *simplex, i, k int, p shape.Vec2) (shape.Vec2, int) {
	j := (i + 1) % 3
	switch k {
	case 0:
		sx.move(0, i)
		return p, 1
	case 1:
		sx.move(0, j)
		return p, 1
	}
	// Keep the edge's two points in order in slots 0 and 1.
	e := *sx
	sx.move(0, i)
	sx.w[1], sx.ia[1], sx.ib[1] = e.w[j], e.ia[j], e.ib[j]
	return p, 2
}
