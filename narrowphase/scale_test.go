package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks the narrow phase against itself under scaling: in
// binary floating point, multiplying every length of a problem by a power
// of two 2^k multiplies every rounded sum, product, quotient and square
// root by 2^k exactly (far from overflow and underflow), and leaves every
// ratio, sign and unit vector as it was. So does the exact answer. A
// routine free of absolute tolerances therefore answers the scaled problem
// with its own answer scaled, bit for bit: the same contact decision,
// normal, fraction and time, depth and points times 2^k, squared distance
// times 4^k. An absolute constant somewhere (an epsilon of 1e-12, a "+ 1"
// in a rounding margin) breaks that at small or large k, where it is
// wrong relative to the shapes: that is what this oracle finds.

// scSpec is a shape to build at any scale: its kind, points and radius
// (compound parts and chains hold their parts' specs and offsets).
type scSpec struct {
	k      shape.Kind
	pts    []shape.Vec2
	r      float64
	parts  []scSpec
	offs   []shape.Transform
	closed bool
}

// build returns the shape scaled by s (a power of two), or an invalid
// Shape if a constructor refuses it.
func (z scSpec) build(s float64) shape.Shape {
	sc := func(v shape.Vec2) shape.Vec2 { return shape.V(v.X*s, v.Y*s) }
	scAll := func() []shape.Vec2 {
		p := make([]shape.Vec2, len(z.pts))
		for i := range p {
			p[i] = sc(z.pts[i])
		}
		return p
	}
	var out shape.Shape
	var err error
	switch z.k {
	case shape.KindCircle:
		out, err = shape.NewOffsetCircle(sc(z.pts[0]), z.r*s)
	case shape.KindAABB:
		out, err = shape.NewAABB(z.pts[0].X*s, z.pts[0].Y*s)
	case shape.KindOBB:
		out, err = shape.NewOBB(z.pts[0].X*s, z.pts[0].Y*s)
	case shape.KindPolygon:
		out, err = shape.NewPolygon(scAll())
	case shape.KindCapsule:
		out, err = shape.NewCapsule(sc(z.pts[0]), sc(z.pts[1]), z.r*s)
	case shape.KindSegment:
		out, err = shape.NewSegment(sc(z.pts[0]), sc(z.pts[1]))
	case shape.KindChain:
		out, err = shape.NewChain(scAll(), z.closed)
	case shape.KindCompound:
		parts := make([]shape.Part, len(z.parts))
		for i, p := range z.parts {
			ps := p.build(s)
			if !ps.Valid() {
				return shape.Shape{}
			}
			off := z.offs[i]
			off.Pos = sc(off.Pos)
			parts[i] = shape.Part{Shape: ps, Offset: off}
		}
		out, err = shape.NewCompound(parts)
	}
	if err != nil {
		return shape.Shape{}
	}
	return out
}

// scRandSpec returns a random shape spec of size about 1, convex or not.
func scRandSpec(rng *rand.Rand, composite bool) scSpec {
	f := func() float64 { return rng.Float64()*6 - 3 }
	v := func() shape.Vec2 { return shape.V(f(), f()) }
	if composite {
		switch rng.IntN(2) {
		case 0:
			n := 1 + rng.IntN(3)
			z := scSpec{k: shape.KindCompound}
			for range n {
				p := scRandSpec(rng, false)
				if p.k == shape.KindAABB {
					p.k = shape.KindOBB
				}
				z.parts = append(z.parts, p)
				z.offs = append(z.offs, shape.Transform{Pos: v(), Rot: exRandRot(rng)})
			}
			return z
		default:
			z := scSpec{k: shape.KindChain, closed: rng.IntN(3) == 0, pts: []shape.Vec2{v()}}
			for range 2 + rng.IntN(5) {
				z.pts = append(z.pts, z.pts[len(z.pts)-1].Add(shape.V(rng.Float64()*2-1, rng.Float64()*2-1)))
			}
			return z
		}
	}
	switch k := exConvexKinds[rng.IntN(len(exConvexKinds))]; k {
	case shape.KindCircle:
		c := shape.Vec2{}
		if rng.IntN(3) == 0 {
			c = v()
		}
		return scSpec{k: k, pts: []shape.Vec2{c}, r: 0.05 + rng.Float64()*2}
	case shape.KindAABB, shape.KindOBB:
		return scSpec{k: k, pts: []shape.Vec2{shape.V(0.05+rng.Float64()*2, 0.05+rng.Float64()*2)}}
	case shape.KindPolygon:
		pts := make([]shape.Vec2, 3+rng.IntN(6))
		for i := range pts {
			pts[i] = v()
		}
		s, err := shape.ConvexHull(pts)
		if err != nil {
			return scSpec{k: shape.KindCircle, pts: []shape.Vec2{{}}, r: 1}
		}
		return scSpec{k: k, pts: s.Vertices()}
	case shape.KindCapsule:
		return scSpec{k: k, pts: []shape.Vec2{v(), v()}, r: 0.02 + rng.Float64()*2}
	default:
		return scSpec{k: k, pts: []shape.Vec2{v(), v()}}
	}
}

// scTransform returns t with its position scaled by s.
func scTransform(t shape.Transform, s float64) shape.Transform {
	t.Pos = t.Pos.Scale(s)
	return t
}

// scManifold returns m with its depths and points scaled by s.
func scManifold(m narrowphase.Manifold, s float64) narrowphase.Manifold {
	m.Depth *= s
	for i := range m.Points {
		m.Points[i].Point = m.Points[i].Point.Scale(s)
		m.Points[i].Depth *= s
	}
	return m
}

// scExponent returns the power of two a problem is scaled by: large or
// small, short of where squares of the lengths would leave the normal
// float64 range.
func scExponent(rng *rand.Rand) int {
	if rng.IntN(2) == 0 {
		return -(1 + rng.IntN(150))
	}
	return 1 + rng.IntN(150)
}

// TestCollideScaleInvariant compares Collide, Overlap, Cast, RayCast,
// DistanceSq, ContainsPoint and TimeOfImpact on random problems with the
// same problems scaled by 2^k, bit for bit (see the top of the file).
func TestCollideScaleInvariant(t *testing.T) {
	seed := fcSeed(t, 6021)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 8))
	n := 100000
	if testing.Short() {
		n = 20000
	}
	checked, contacts, casts, rays, tois := 0, 0, 0, 0, 0
	for c := 0; c < n; c++ {
		za := scRandSpec(rng, rng.IntN(5) == 0)
		zb := scRandSpec(rng, rng.IntN(5) == 0)
		a1, b1 := za.build(1), zb.build(1)
		e := scExponent(rng)
		s := math.Ldexp(1, e)
		a2, b2 := za.build(s), zb.build(s)
		if !a1.Valid() || !b1.Valid() || !a2.Valid() || !b2.Valid() {
			continue
		}
		checked++
		ta := shape.Transform{Pos: shape.V(rng.Float64()*4-2, rng.Float64()*4-2), Rot: exRandRot(rng)}
		tb := shape.Transform{Pos: shape.V(rng.Float64()*8-4, rng.Float64()*8-4), Rot: exRandRot(rng)}
		ta2, tb2 := scTransform(ta, s), scTransform(tb, s)
		desc := func() string {
			return fmt.Sprintf("case %d, scale 2^%d: %s", c, e, exDescribe(a1, ta, b1, tb))
		}

		m1, ok1 := narrowphase.Collide(a1, ta, b1, tb)
		m2, ok2 := narrowphase.Collide(a2, ta2, b2, tb2)
		if ok1 != ok2 || (ok1 && scManifold(m1, s) != m2) {
			t.Fatalf("Collide scaled = %+v, %v; want the unscaled %+v, %v scaled: %s", m2, ok2, m1, ok1, desc())
		}
		if ok1 {
			contacts++
		}
		if o1, o2 := narrowphase.Overlap(a1, ta, b1, tb), narrowphase.Overlap(a2, ta2, b2, tb2); o1 != o2 {
			t.Fatalf("Overlap scaled = %v, unscaled %v: %s", o2, o1, desc())
		}

		delta := shape.V(rng.Float64()*12-6, rng.Float64()*12-6)
		h1, hok1 := narrowphase.Cast(a1, ta, delta, b1, tb)
		h2, hok2 := narrowphase.Cast(a2, ta2, delta.Scale(s), b2, tb2)
		if hok1 != hok2 || (hok1 && (h1.Fraction != h2.Fraction || h1.Normal != h2.Normal || h1.Point.Scale(s) != h2.Point || h1.Part != h2.Part)) {
			t.Fatalf("Cast by %v scaled = %+v, %v; want the unscaled %+v, %v scaled: %s", delta, h2, hok2, h1, hok1, desc())
		}

		if hok1 {
			casts++
		}
		origin := shape.V(rng.Float64()*12-6, rng.Float64()*12-6)
		dir := shape.V(rng.Float64()*2-1, rng.Float64()*2-1).Normalize()
		maxDist := rng.Float64() * 12
		r1, rok1 := narrowphase.RayCast(b1, tb, origin, dir, maxDist)
		r2, rok2 := narrowphase.RayCast(b2, tb2, origin.Scale(s), dir, maxDist*s)
		if rok1 != rok2 || (rok1 && (r1.Distance*s != r2.Distance || r1.Normal != r2.Normal || r1.Point.Scale(s) != r2.Point || r1.Part != r2.Part)) {
			t.Fatalf("RayCast from %v along %v scaled = %+v, %v; want the unscaled %+v, %v scaled: %s", origin, dir, r2, rok2, r1, rok1, desc())
		}
		if rok1 {
			rays++
		}
		if d1, d2 := narrowphase.DistanceSq(b1, tb, origin), narrowphase.DistanceSq(b2, tb2, origin.Scale(s)); d1*s*s != d2 {
			t.Fatalf("DistanceSq(%v) scaled = %v, want the unscaled %v times 4^%d: %s", origin, d2, d1, e, desc())
		}
		if c1, c2 := narrowphase.ContainsPoint(b1, tb, origin), narrowphase.ContainsPoint(b2, tb2, origin.Scale(s)); c1 != c2 {
			t.Fatalf("ContainsPoint(%v) scaled = %v, unscaled %v: %s", origin, c2, c1, desc())
		}

		if c%4 == 0 { // TimeOfImpact iterates: a quarter of the cases
			sa := narrowphase.Sweep{P0: ta.Pos, P1: ta.Pos.Add(delta), A0: rng.Float64(), A1: rng.Float64() * 4}
			sb := narrowphase.Sweep{P0: tb.Pos, P1: tb.Pos, A0: 0, A1: rng.Float64()}
			sa2, sb2 := sa, sb
			sa2.P0, sa2.P1, sb2.P0, sb2.P1 = sa.P0.Scale(s), sa.P1.Scale(s), sb.P0.Scale(s), sb.P1.Scale(s)
			t1, tok1 := narrowphase.TimeOfImpact(a1, sa, b1, sb)
			t2, tok2 := narrowphase.TimeOfImpact(a2, sa2, b2, sb2)
			if tok1 != tok2 || t1 != t2 {
				t.Fatalf("TimeOfImpact scaled = %v, %v; unscaled %v, %v (sweeps %+v, %+v): %s", t2, tok2, t1, tok1, sa, sb, desc())
			}
			if tok1 {
				tois++
			}
		}
	}
	t.Logf("%d problems checked: %d contacts, %d cast hits, %d ray hits, %d times of impact", checked, contacts, casts, rays, tois)
}
