package shape_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/collide-go/collide/shape"
)

// The oracle of these tests places shapes exactly: corners and circle
// centres with rationals (math/big.Rat), as the transform's stored cosine
// and sine place them, and points on a circle's rim to 200 bits
// (math/big.Float), far finer than any float64 rounding at these scales.

// exactPlace returns t.Apply(v) computed exactly.
func exactPlace(t shape.Transform, v shape.Vec2) (*big.Rat, *big.Rat) {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	c, s := r(t.Rot.Cos()), r(t.Rot.Sin())
	x, y := r(v.X), r(v.Y)
	wx := new(big.Rat).Sub(new(big.Rat).Mul(c, x), new(big.Rat).Mul(s, y))
	wy := new(big.Rat).Add(new(big.Rat).Mul(s, x), new(big.Rat).Mul(c, y))
	return wx.Add(wx, r(t.Pos.X)), wy.Add(wy, r(t.Pos.Y))
}

// ratIn reports whether lo <= x <= hi, exactly.
func ratIn(x *big.Rat, lo, hi float64) bool {
	return x.Cmp(new(big.Rat).SetFloat64(lo)) >= 0 && x.Cmp(new(big.Rat).SetFloat64(hi)) <= 0
}

// exactBoundary returns exact boundary points of s placed by t (every
// corner, and for a circle its four axis extremes), and for a circle its
// exact centre, for rim points to be added to.
func exactBoundary(s shape.Shape, t shape.Transform) (pts [][2]*big.Rat, cx, cy *big.Rat) {
	t = s.EffectiveTransform(t)
	switch s.Kind() {
	case shape.KindCircle:
		cx, cy = exactPlace(t, s.Center())
		r := new(big.Rat).SetFloat64(s.Radius())
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x, y := new(big.Rat).Set(cx), new(big.Rat).Set(cy)
			x.Add(x, new(big.Rat).Mul(r, big.NewRat(int64(d[0]), 1)))
			y.Add(y, new(big.Rat).Mul(r, big.NewRat(int64(d[1]), 1)))
			pts = append(pts, [2]*big.Rat{x, y})
		}
		return pts, cx, cy
	case shape.KindAABB, shape.KindOBB:
		c := s.Corners()
		for _, v := range c {
			x, y := exactPlace(t, v)
			pts = append(pts, [2]*big.Rat{x, y})
		}
	default:
		for _, v := range s.Vertices() {
			x, y := exactPlace(t, v)
			pts = append(pts, [2]*big.Rat{x, y})
		}
	}
	return pts, nil, nil
}

// checkBoxHolds fails t unless s.WorldAABB(tr) holds every exact boundary
// point of s, points on a circle's rim to 200 bits, and the float64
// t.Apply of every corner (or centre ± r·(cos, sin)); and unless it is no
// wider than the exact box by more than 20 eps·E (E as in the margin), so
// that the margin stays the small one documented.
func checkBoxHolds(t *testing.T, name string, s shape.Shape, tr shape.Transform) {
	t.Helper()
	box := s.WorldAABB(tr)
	pts, cx, cy := exactBoundary(s, tr)
	for _, p := range pts {
		if !ratIn(p[0], box.Min.X, box.Max.X) || !ratIn(p[1], box.Min.Y, box.Max.Y) {
			fx, _ := p[0].Float64()
			fy, _ := p[1].Float64()
			t.Fatalf("%s: %v.WorldAABB(%v) = %v misses the exact boundary point (%v, %v)", name, s, tr, box, fx, fy)
		}
	}
	et := s.EffectiveTransform(tr)
	if s.Kind() == shape.KindCircle {
		const prec = 200
		f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
		rat := func(x *big.Rat) *big.Float { return new(big.Float).SetPrec(prec).SetRat(x) }
		for k := range 48 {
			sn, co := math.Sincos(2 * math.Pi * float64(k) / 48)
			// (co, sn) scaled to unit length in 200 bits: the rim point is
			// exact to 2⁻²⁰⁰ of its size.
			l := new(big.Float).SetPrec(prec).Add(new(big.Float).Mul(f(co), f(co)), new(big.Float).Mul(f(sn), f(sn)))
			l.Sqrt(l)
			r := f(s.Radius())
			x := new(big.Float).Add(rat(cx), new(big.Float).Quo(new(big.Float).Mul(r, f(co)), l))
			y := new(big.Float).Add(rat(cy), new(big.Float).Quo(new(big.Float).Mul(r, f(sn)), l))
			if x.Cmp(f(box.Min.X)) < 0 || x.Cmp(f(box.Max.X)) > 0 || y.Cmp(f(box.Min.Y)) < 0 || y.Cmp(f(box.Max.Y)) > 0 {
				t.Fatalf("%s: %v.WorldAABB(%v) = %v misses the rim point at %d/48 of a turn", name, s, tr, box, k)
			}
			// The float64 way: the rounded centre plus the rounded offset.
			if p := et.Apply(s.Center()).Add(shape.V(co, sn).Scale(s.Radius())); !box.Contains(p) {
				t.Fatalf("%s: %v.WorldAABB(%v) = %v misses the rounded rim point %v", name, s, tr, box, p)
			}
		}
	} else {
		verts := s.Vertices()
		if s.Kind() != shape.KindPolygon {
			c := s.Corners()
			verts = c[:]
		}
		for _, v := range verts {
			if p := et.Apply(v); !box.Contains(p) {
				t.Fatalf("%s: %v.WorldAABB(%v) = %v misses the rounded corner %v", name, s, tr, box, p)
			}
		}
	}
	// Tightness: the margin is 16 eps·E; allow 20 for the rounding of the
	// tight box itself.
	e := 0.0
	switch s.Kind() {
	case shape.KindCircle:
		e = math.Abs(s.Center().X) + math.Abs(s.Center().Y) + s.Radius()
	case shape.KindAABB, shape.KindOBB:
		e = s.HalfExtents().X + s.HalfExtents().Y
	default:
		e = s.BoundingRadius()
	}
	slack := 20 * 0x1p-52 * (math.Abs(tr.Pos.X) + math.Abs(tr.Pos.Y) + e)
	lo, hi := [2]*big.Rat{}, [2]*big.Rat{}
	for _, p := range pts {
		for i := range 2 {
			if lo[i] == nil || p[i].Cmp(lo[i]) < 0 {
				lo[i] = p[i]
			}
			if hi[i] == nil || p[i].Cmp(hi[i]) > 0 {
				hi[i] = p[i]
			}
		}
	}
	over := []float64{}
	for i, b := range [][2]float64{{box.Min.X, box.Max.X}, {box.Min.Y, box.Max.Y}} {
		l, _ := new(big.Rat).Sub(lo[i], new(big.Rat).SetFloat64(b[0])).Float64()
		h, _ := new(big.Rat).Sub(new(big.Rat).SetFloat64(b[1]), hi[i]).Float64()
		over = append(over, l, h)
	}
	for _, o := range over {
		if o > slack {
			t.Fatalf("%s: %v.WorldAABB(%v) = %v reaches %g beyond the exact box, more than 20 eps·E = %g", name, s, tr, box, o, slack)
		}
	}
}

// TestWorldAABBOffsetCircleMissedThinContact is the bug: an offset circle's
// box was its rounded world centre ± r, two roundings that lost a contact
// of depth 3.7e-10 near 1e7 against a box (narrowphase.Collide reports it;
// narrowphase's TestWorldAABBMissedThinContact checks that side).
func TestWorldAABBOffsetCircleMissedThinContact(t *testing.T) {
	box := must(t)(shape.NewAABB(0.11598435877788783, 0.048371141955975167))
	ball := must(t)(shape.NewOffsetCircle(shape.V(0.009204305011436431, 0.00880622403054792), 0.032257792529663175))
	tb := shape.NewTransform(shape.V(9999911.5892139357, 10000087.236405281), -1.5218363040352441)
	tc := shape.NewTransform(shape.V(9999911.4344155695, 10000087.236405281), -1.793463269820444)
	if bb, bc := box.WorldAABB(tb), ball.WorldAABB(tc); !bb.Overlaps(bc) {
		t.Errorf("boxes %v and %v of a pair in contact (depth 3.7e-10) do not overlap", bb, bc)
	}
	checkBoxHolds(t, "box", box, tb)
	checkBoxHolds(t, "ball", ball, tc)
}

// TestWorldAABBContainsExactShape places random shapes of every kind at
// coordinates from 1 to 1e15, some far from their body's origin (an offset
// circle or a polygon 1e6 away, placed back near the world origin so that
// the body's position is large and the box's coordinates small), and checks
// that the box holds the exactly placed shape and is no looser than
// documented.
func TestWorldAABBContainsExactShape(t *testing.T) {
	r := newRand(t)
	for i := range iters(3000, 300) {
		var s shape.Shape
		local := 0.0
		if r.IntN(3) == 0 {
			local = math.Pow(10, 6*r.Float64())
		}
		a := 2 * math.Pi * r.Float64()
		off := shape.V(local*math.Cos(a), local*math.Sin(a))
		size := func() float64 { return math.Pow(10, 4*r.Float64()-2) }
		switch i % 5 {
		case 0:
			s = must(t)(shape.NewCircle(size()))
		case 1:
			s = must(t)(shape.NewOffsetCircle(off, size()))
		case 2:
			s = must(t)(shape.NewAABB(size(), size()))
		case 3:
			s = must(t)(shape.NewOBB(size(), size()))
		default:
			n := 3 + r.IntN(shape.MaxPolygonVertices-2)
			pts := circleSamples(off, size(), n)
			var err error
			if s, err = shape.ConvexHull(pts); err != nil {
				t.Fatalf("ConvexHull(%v): %v", pts, err)
			}
		}
		angle := 2 * math.Pi * r.Float64()
		switch r.IntN(4) {
		case 0:
			angle = float64(r.IntN(4)) * math.Pi / 2
		case 1:
			angle = float64(r.IntN(4))*math.Pi/2 + (2*r.Float64()-1)*1e-9
		}
		far := math.Pow(10, 15*r.Float64())
		sign := func() float64 { return float64(1 - 2*r.IntN(2)) }
		tr := shape.NewTransform(shape.V(sign()*far*r.Float64(), sign()*far), angle)
		if local > 0 && r.IntN(2) == 0 {
			// The shape back near the world origin, its body far away.
			tr.Pos = tr.Rot.Apply(s.Center()).Neg().Add(shape.V(r.Float64()-0.5, r.Float64()-0.5))
		}
		checkBoxHolds(t, s.Kind().String(), s, tr)
	}
}
