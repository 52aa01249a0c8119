package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// ttwSupport returns the point of s placed by t farthest along u, in
// floats: the parts' outline points placed by their transforms, a rounded
// part's grown by its radius along u.
func ttwSupport(s shape.Shape, t shape.Transform, u shape.Vec2) shape.Vec2 {
	best, bestD := shape.Vec2{}, math.Inf(-1)
	for i := range s.PartCount() {
		ps, pt := s.Part(i, t)
		pt = ps.EffectiveTransform(pt)
		var local []shape.Vec2
		switch ps.Kind() {
		case shape.KindCircle:
			local = []shape.Vec2{ps.Center()}
		case shape.KindAABB, shape.KindOBB:
			c := ps.Corners()
			local = c[:]
		case shape.KindPolygon:
			local = ps.Vertices()
		default:
			p0, p1 := ps.Segment()
			local = []shape.Vec2{p0, p1}
		}
		for _, v := range local {
			w := pt.Apply(v).Add(u.Scale(ps.Radius()))
			if d := w.Dot(u); d > bestD {
				best, bestD = w, d
			}
		}
	}
	return best
}

// ttwRot returns a rotation by a multiple of a quarter turn as NewRot
// gives it (a cosine or sine of 1e-16 where the exact one is 0), the
// identity, or a random one.
func ttwRot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(4) {
	case 0, 1:
		return shape.NewRot(float64(rng.IntN(4)) * math.Pi / 2)
	case 2:
		return shape.Rot{}
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

// TestExactTurnedTouchIsNoContact places pairs of every kind (convex,
// compounds, chains) turned by quarter turns as NewRot gives them, or at
// random, at 0, 1e6 and 1e12, so that they touch to rounding: B is moved
// until its support point along −u lands, in floats, on A's support point
// along u (u an axis, a diagonal, or a random direction), so that the
// pair touches, overlaps or misses by an ulp of its coordinates or
// exactly touches. Touching is not a contact: whatever Collide, Overlap,
// CollideParts and PushOut report, both orders, must agree with each
// other, and a contact must be an overlap by the exact rational oracle
// (each part placed by the exact product of its offset and its body's
// transform); an exact overlap deeper than 1e-10 of the pair's scale must
// be a contact.
func TestExactTurnedTouchIsNoContact(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x7e1c4))
	n := exCases(3000)
	touches, contacts, apart := 0, 0, 0
	for c := range n {
		var a, b shape.Shape
		if rng.IntN(4) == 0 {
			a = exRandAnyShape(rng)
		} else {
			a = exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
		}
		if rng.IntN(4) == 0 {
			b = exRandAnyShape(rng)
		} else {
			b = exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
		}
		if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
			continue
		}
		base := [3]float64{0, 1e6, 1e12}[c%3]
		ta := shape.Transform{Pos: shape.V(base, -base).Add(exDyadV(rng, -2, 2)), Rot: ttwRot(rng)}
		tb := shape.Transform{Pos: ta.Pos, Rot: ttwRot(rng)}
		var u shape.Vec2
		switch rng.IntN(3) {
		case 0:
			u = [4]shape.Vec2{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}}[rng.IntN(4)]
		case 1:
			u = shape.V(float64(2*rng.IntN(2)-1), float64(2*rng.IntN(2)-1)).Normalize()
		default:
			u = shape.NewRot(rng.Float64() * 2 * math.Pi).Apply(shape.V(1, 0))
		}
		pa := ttwSupport(a, ta, u)
		pb := ttwSupport(b, tb, u.Neg())
		tb.Pos = tb.Pos.Add(pa.Sub(pb))

		// The oracle: any part pair overlapping exactly, and the deepest.
		in, pen := false, math.Inf(-1)
		for _, ca := range exParts(a, ta) {
			for _, cb := range exParts(b, tb) {
				if len(ca.pts) <= 2 && len(cb.pts) <= 2 && ca.r.Sign() == 0 && cb.r.Sign() == 0 {
					continue // walls do not collide with walls
				}
				i, p := exPen(exMinkowski(ca, cb))
				in = in || i
				pen = max(pen, p)
			}
		}
		scale := exWorldScale(a, ta, b, tb)
		if math.Abs(pen) <= 1e-12*scale {
			touches++
		}
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := a, ta, b, tb
			if swap {
				x, tx, y, ty = b, tb, a, ta
			}
			desc := fmt.Sprintf("case %d: %s (exact overlap %v, depth %.3g)", c, exDescribe(x, tx, y, ty), in, pen)
			_, ok := narrowphase.Collide(x, tx, y, ty)
			if ov := narrowphase.Overlap(x, tx, y, ty); ov != ok {
				t.Fatalf("Overlap = %v, Collide = %v: %s", ov, ok, desc)
			}
			parts := false
			narrowphase.CollideParts(x, tx, y, ty, func(_, _ int, _ narrowphase.Manifold) bool {
				parts = true
				return false
			})
			if parts != ok {
				t.Fatalf("CollideParts reports a contact %v, Collide %v: %s", parts, ok, desc)
			}
			if _, po := narrowphase.PushOut(x, tx, y, ty); po != ok {
				t.Fatalf("PushOut = %v, Collide = %v: %s", po, ok, desc)
			}
			switch {
			case ok && !in:
				t.Fatalf("Collide reports a contact, but the pair is exactly apart or touching: %s", desc)
			case !ok && in && pen > 1e-10*scale:
				t.Fatalf("Collide reports no contact for an exact overlap of %.3g: %s", pen, desc)
			}
		}
		if in {
			contacts++
		} else {
			apart++
		}
	}
	t.Logf("%d pairs: %d within 1e-12 of touching, %d overlapping, %d apart or touching", n, touches, contacts, apart)
}
