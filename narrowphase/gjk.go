package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// support returns the vertex of core c farthest along d.
func (c *core) support(d shape.Vec2) shape.Vec2 {
	best, bv := c.v[0].Dot(d), c.v[0]
	for _, v := range c.v[1:c.n] {
		if x := v.Dot(d); x > best {
			best, bv = x, v
		}
	}
	return bv
}

// gjkIters bounds gjkGap's simplex steps; two convex polygons of up to 16
// vertices each take a handful.
const gjkIters = 40

// gjkGap returns what mink.gap does — the distance between the shapes with
// cores a and b (0 when they touch or overlap) and the unit direction from
// b toward a — without building the Minkowski difference: GJK (Gilbert,
// Johnson and Keerthi; Ericson, Real-Time Collision Detection, §9.5) walks
// it through support points, a simplex of at most three.
//
// guess, a unit direction from b toward a (the last answer, in a sequence
// of calls on nearby positions), starts the search at the support point
// that way, which saves most of the steps; the zero vector starts anywhere.
func gjkGap(a, b *core, guess shape.Vec2) (float64, shape.Vec2) {
	var s [3]shape.Vec2
	s[0] = b.v[0].Sub(a.v[0])
	if guess != (shape.Vec2{}) {
		// M's point farthest along -guess: its support toward the origin.
		s[0] = b.support(guess).Sub(a.support(guess.Neg()))
	}
	n := 1
	c := s[0]
	scale := math.Abs(c.X) + math.Abs(c.Y) + a.r + b.r
	for range gjkIters {
		cc := c.LenSq()
		if cc == 0 {
			break
		}
		d := c.Neg()
		w := b.support(d).Sub(a.support(c))
		if x := math.Abs(w.X) + math.Abs(w.Y); x > scale {
			scale = x
		}
		// No point of M is nearer the origin along -c than c itself,
		// beyond rounding: c is the nearest.
		if cc-c.Dot(w) <= float64(1e-10*scale)*math.Sqrt(cc) {
			break
		}
		if w == s[0] || (n > 1 && w == s[1]) {
			break // a support point already in the simplex: no progress
		}
		s[n] = w
		n++
		c, n = simplexNearest(&s, n)
		if n == 3 {
			c = shape.Vec2{}
			break
		}
	}
	l := c.Len()
	r := a.r + b.r
	if !(l > r) {
		return 0, shape.Vec2{X: 1}
	}
	return l - r, c.Scale(-1 / l)
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
func simplexNearest(s *[3]shape.Vec2, n int) (shape.Vec2, int) {
	if n == 2 {
		p, k := segNearest(s[0], s[1])
		switch k {
		case 0:
			return p, 1
		case 1:
			s[0] = s[1]
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
		return reduceTo(s, bi, bk, best)
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
	return reduceTo(s, bi, bk, best)
}

// reduceTo keeps of triangle s the edge i (from s[i] to s[(i+1)%3]), or
// its end k (0 or 1) when the nearest point p is there.
func reduceTo(s *[3]shape.Vec2, i, k int, p shape.Vec2) (shape.Vec2, int) {
	e0, e1 := s[i], s[(i+1)%3]
	switch k {
	case 0:
		s[0] = e0
		return p, 1
	case 1:
		s[0] = e1
		return p, 1
	}
	s[0], s[1] = e0, e1
	return p, 2
}
