package narrowphase

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/collide-go/collide/shape"
)

// This file checks touchApart and the arithmetic under it against
// rationals (math/big): a different method, not the same formulas again.
// The oracle places each shape's outline exactly (the body's transform
// times the offset, as held), takes the Minkowski difference of the two
// outlines (its convex hull, exactly) and asks whether the origin lies
// strictly inside it, or, with radii, nearer to it than their sum.

type tqV struct{ x, y *big.Rat }

func tqR(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func (p tqV) sub(q tqV) tqV {
	return tqV{new(big.Rat).Sub(p.x, q.x), new(big.Rat).Sub(p.y, q.y)}
}

func (p tqV) dot(q tqV) *big.Rat {
	return new(big.Rat).Add(new(big.Rat).Mul(p.x, q.x), new(big.Rat).Mul(p.y, q.y))
}

func (p tqV) cross(q tqV) *big.Rat {
	return new(big.Rat).Sub(new(big.Rat).Mul(p.x, q.y), new(big.Rat).Mul(p.y, q.x))
}

// tqApply places p by t exactly, with the cosine and sine t holds.
func tqApply(t shape.Transform, p tqV) tqV {
	c, s := tqR(t.Rot.Cos()), tqR(t.Rot.Sin())
	x := new(big.Rat).Add(tqR(t.Pos.X), new(big.Rat).Sub(new(big.Rat).Mul(c, p.x), new(big.Rat).Mul(s, p.y)))
	y := new(big.Rat).Add(tqR(t.Pos.Y), new(big.Rat).Add(new(big.Rat).Mul(s, p.x), new(big.Rat).Mul(c, p.y)))
	return tqV{x, y}
}

// tqPlace returns the outline points of convex s placed by t times off,
// exactly, and its radius.
func tqPlace(s shape.Shape, t, off shape.Transform) ([]tqV, *big.Rat) {
	t = s.EffectiveTransform(t)
	var local []shape.Vec2
	r := 0.0
	switch s.Kind() {
	case shape.KindCircle:
		local, r = []shape.Vec2{s.Center()}, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		c := s.Corners()
		local = c[:]
	case shape.KindPolygon:
		local = s.Vertices()
	default:
		p0, p1 := s.Segment()
		local, r = []shape.Vec2{p0, p1}, s.Radius()
	}
	out := make([]tqV, len(local))
	for i, v := range local {
		out[i] = tqApply(t, tqApply(off, tqV{tqR(v.X), tqR(v.Y)}))
	}
	return out, tqR(r)
}

// tqHull returns the convex hull of pts, counter-clockwise without
// collinear points (Andrew's monotone chain).
func tqHull(pts []tqV) []tqV {
	p := append([]tqV(nil), pts...)
	sort.Slice(p, func(i, j int) bool {
		if c := p[i].x.Cmp(p[j].x); c != 0 {
			return c < 0
		}
		return p[i].y.Cmp(p[j].y) < 0
	})
	var u []tqV
	for _, q := range p {
		if len(u) > 0 && u[len(u)-1].x.Cmp(q.x) == 0 && u[len(u)-1].y.Cmp(q.y) == 0 {
			continue
		}
		u = append(u, q)
	}
	if len(u) <= 2 {
		return u
	}
	var h []tqV
	for pass := range 2 {
		start := len(h)
		for i := range u {
			q := u[i]
			if pass == 1 {
				q = u[len(u)-1-i]
			}
			for len(h) >= start+2 && h[len(h)-1].sub(h[len(h)-2]).cross(q.sub(h[len(h)-2])).Sign() <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
	}
	return h
}

// tqOverlap reports whether the placed shapes overlap exactly: the origin
// strictly inside the Minkowski difference of their outlines, or nearer
// to it than the sum of the radii (closed hull).
func tqOverlap(pa []tqV, ra *big.Rat, pb []tqV, rb *big.Rat) bool {
	var d []tqV
	for _, q := range pb {
		for _, p := range pa {
			d = append(d, q.sub(p))
		}
	}
	h := tqHull(d)
	r := new(big.Rat).Add(ra, rb)
	o := tqV{new(big.Rat), new(big.Rat)}
	inside, strict := len(h) >= 3, len(h) >= 3
	for i := range h {
		if len(h) < 3 {
			break
		}
		switch h[(i+1)%len(h)].sub(h[i]).cross(o.sub(h[i])).Sign() {
		case -1:
			inside, strict = false, false
		case 0:
			strict = false
		}
	}
	if strict || (inside && r.Sign() > 0) {
		return true
	}
	if r.Sign() == 0 {
		return false
	}
	// The squared distance from the origin to the hull's boundary.
	var best *big.Rat
	edges := len(h)
	if len(h) <= 2 {
		edges = 1
	}
	for i := range edges {
		a, b := h[i], h[(i+1)%len(h)]
		e, w := b.sub(a), o.sub(a)
		var d2 *big.Rat
		switch t, ee := w.dot(e), e.dot(e); {
		case t.Sign() <= 0 || ee.Sign() == 0:
			d2 = w.dot(w)
		case t.Cmp(ee) >= 0:
			wb := o.sub(b)
			d2 = wb.dot(wb)
		default:
			c := e.cross(w)
			d2 = new(big.Rat).Quo(new(big.Rat).Mul(c, c), ee)
		}
		if best == nil || d2.Cmp(best) < 0 {
			best = d2
		}
	}
	return best.Cmp(new(big.Rat).Mul(r, r)) < 0
}

// tqShape returns a random convex shape of any kind with dyadic numbers.
func tqShape(rng *rand.Rand) shape.Shape {
	dy := func(lo, hi float64) float64 { return math.Round((lo+rng.Float64()*(hi-lo))*16) / 16 }
	v := func() shape.Vec2 { return shape.V(dy(-2, 2), dy(-2, 2)) }
	for {
		var s shape.Shape
		var err error
		switch rng.IntN(6) {
		case 0:
			c := shape.Vec2{}
			if rng.IntN(2) == 0 {
				c = v()
			}
			s, err = shape.NewOffsetCircle(c, dy(0.0625, 2))
		case 1:
			s, err = shape.NewAABB(dy(0.0625, 2), dy(0.0625, 2))
		case 2:
			s, err = shape.NewOBB(dy(0.0625, 2), dy(0.0625, 2))
		case 3:
			pts := make([]shape.Vec2, 3+rng.IntN(6))
			for i := range pts {
				pts[i] = v()
			}
			s, err = shape.ConvexHull(pts)
		case 4:
			s, err = shape.NewCapsule(v(), v(), dy(0.0625, 1))
		default:
			s, err = shape.NewSegment(v(), v())
		}
		if err == nil {
			return s
		}
	}
}

// tqRot returns the identity, an exact quarter turn, a quarter turn as
// NewRot gives it (a cosine or sine of 1e-16), or a random rotation.
func tqRot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(5) {
	case 0:
		return shape.Rot{}
	case 1:
		q := [3][2]float64{{0, 1}, {-1, 0}, {0, -1}}[rng.IntN(3)]
		return shape.RotFromCosSin(q[0], q[1])
	case 2:
		return shape.NewRot(float64(1+rng.IntN(3)) * math.Pi / 2)
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

// tqSupport returns a point of s placed by t times off farthest along u,
// in floats, grown by its radius: where two outline points are that far
// (to 1e-9), a face, the midpoint between them.
func tqSupport(s shape.Shape, t, off shape.Transform, u shape.Vec2) shape.Vec2 {
	var k xcore
	k.set(s, t, off, shape.Vec2{})
	best := math.Inf(-1)
	for _, w := range k.w[:k.n] {
		best = max(best, w.Dot(u))
	}
	var on []shape.Vec2
	for _, w := range k.w[:k.n] {
		if w.Dot(u) >= best-1e-9*(1+math.Abs(best)) {
			on = append(on, w)
		}
	}
	p := on[0]
	if len(on) > 1 {
		p = on[0].Add(on[len(on)-1]).Scale(0.5)
	}
	return p.Add(u.Scale(k.r))
}

// tqFaceNormal returns the outward unit normal of a random edge of s
// placed by t times off, in floats (either side of a segment), or false
// for a point.
func tqFaceNormal(rng *rand.Rand, s shape.Shape, t, off shape.Transform) (shape.Vec2, bool) {
	var k xcore
	k.set(s, t, off, shape.Vec2{})
	if k.n < 2 {
		return shape.Vec2{}, false
	}
	i := rng.IntN(k.n)
	e := k.w[(i+1)%k.n].Sub(k.w[i])
	if e.LenSq() == 0 {
		return shape.Vec2{}, false
	}
	u := shape.V(e.Y, -e.X).Normalize()
	if k.n == 2 && rng.IntN(2) == 0 {
		u = u.Neg()
	}
	return u, true
}

// TestTouchApartMatchesRationals places random pairs of every convex
// kind, some as compound parts (an offset with a turn), turned by exact or
// rounded quarter turns or at random, at 0, 1e6 and 1e12, touching to
// rounding or exactly (B moved so that its support point along −u lands
// on A's along u), and checks touchApart, wherever it decides, against
// the rational oracle: apart exactly when the oracle finds no overlap.
// The touch is at a vertex, or, along a face normal, at a face's midpoint
// (a disc on a face, a capsule's side on a corner).
// Dyadic shapes with exact quarter turns touch exactly, and the exact
// stage decides them.
func TestTouchApartMatchesRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1414))
	n := 6000
	if testing.Short() {
		n = 1500
	}
	apart, undecided := 0, 0
	for c := range n {
		a, b := tqShape(rng), tqShape(rng)
		if a.Kind() == shape.KindSegment && b.Kind() == shape.KindSegment {
			continue // never collide: Collide does not ask
		}
		base := [3]float64{0, 1e6, 1e12}[c%3]
		off := func(s shape.Shape) shape.Transform {
			if s.Kind() == shape.KindAABB || rng.IntN(2) == 0 {
				return shape.Identity
			}
			return shape.Transform{Pos: shape.V(math.Round(rng.Float64()*32-16)/8, math.Round(rng.Float64()*32-16)/8), Rot: tqRot(rng)}
		}
		oa, ob := off(a), off(b)
		ta := shape.Transform{Pos: shape.V(base+math.Round(rng.Float64()*64)/16, -base), Rot: tqRot(rng)}
		tb := shape.Transform{Pos: ta.Pos, Rot: tqRot(rng)}
		// Along an axis, a random direction, or a face normal of either
		// shape (a face of A, or of B, against the other's support).
		u := [4]shape.Vec2{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}}[rng.IntN(4)]
		switch rng.IntN(4) {
		case 0:
			u = shape.NewRot(rng.Float64() * 2 * math.Pi).Apply(shape.V(1, 0))
		case 1:
			if n, ok := tqFaceNormal(rng, a, ta, oa); ok {
				u = n
			}
		case 2:
			if n, ok := tqFaceNormal(rng, b, tb, ob); ok {
				u = n.Neg()
			}
		}
		tb.Pos = tb.Pos.Add(tqSupport(a, ta, oa, u).Sub(tqSupport(b, tb, ob, u.Neg())))
		var tt touchTest
		got := tt.apart(a, ta, oa, b, tb, ob)
		pa, ra := tqPlace(a, ta, oa)
		pb, rb := tqPlace(b, tb, ob)
		want := !tqOverlap(pa, ra, pb, rb)
		if tt.undecided {
			undecided++
			if got {
				t.Fatalf("case %d: undecided, yet apart", c)
			}
			continue
		}
		if want {
			apart++
		}
		if got != want {
			t.Fatalf("case %d: touchApart = %v, want %v: %v at %v (cos %v sin %v) offset %+v, %v at %v (cos %v sin %v) offset %+v",
				c, got, want, a, ta.Pos, ta.Rot.Cos(), ta.Rot.Sin(), oa, b, tb.Pos, tb.Rot.Cos(), tb.Rot.Sin(), ob)
		}
	}
	if undecided > 0 {
		t.Errorf("%d of %d pairs undecided: the exact arithmetic's range is far wider than these numbers", undecided, n)
	}
	t.Logf("%d pairs, %d apart", n, apart)
}

// TestXnumMatchesRationals sums random products of two and three floats
// of mixed magnitudes, many cancelling, in an xnum and compares its sign,
// and its value after compress, with the rational sum.
func TestXnumMatchesRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	f := func() float64 {
		x := math.Ldexp(rng.Float64()+0.5, rng.IntN(120)-60)
		if rng.IntN(2) == 0 {
			x = -x
		}
		return x
	}
	cases := 20000
	if testing.Short() {
		cases = 4000 // the quick gate; the full run checks all
	}
	for c := range cases {
		var z xnum
		want := new(big.Rat)
		terms := make([][3]float64, 1+rng.IntN(12))
		for i := range terms {
			terms[i] = [3]float64{f(), f(), 1}
			if rng.IntN(2) == 0 {
				terms[i][2] = f()
			}
		}
		if rng.IntN(2) == 0 { // cancel: the negated first terms again
			for _, tm := range terms[:len(terms)/2+1] {
				terms = append(terms, [3]float64{-tm[0], tm[1], tm[2]})
			}
		}
		for _, tm := range terms {
			z.addProd3(tm[0], tm[1], tm[2])
			want.Add(want, new(big.Rat).Mul(new(big.Rat).Mul(tqR(tm[0]), tqR(tm[1])), tqR(tm[2])))
		}
		desc := fmt.Sprintf("case %d: %v", c, terms)
		if z.bad {
			t.Fatalf("%s: bad", desc)
		}
		if z.sign() != want.Sign() {
			t.Fatalf("%s: sign %d, want %d", desc, z.sign(), want.Sign())
		}
		z.compress()
		got := new(big.Rat)
		for _, x := range z.c[:z.n] {
			got.Add(got, tqR(x))
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("%s: compress changed the value", desc)
		}
	}
}
