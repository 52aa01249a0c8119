package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
)

// TestBulletChainEndsShortOfBoxBug: a one-segment chain bullet at 1e6,
// turning by 0.62 rad while it moves 12 units toward a static AABB, ends
// its motion 5.5e-7 short of the box's top face (2.4e-7 of the pair's
// size) and never touches it on the way: the closest approach is at the
// end. It got a swept contact at TOI 1 − 1.1e-8 all the same.
// TimeOfImpact stops there, within its 1e-6·size of touching, and
// TimeOfImpactEnter, following the touch for an overlap, ran into the end
// of the sweep with the gap still within reach and counted it
// (TestBulletMutationsOracle, seed 17316967285003364562, base 1e6, scene
// 77, step 5). The gap below is the test's own: the segment against the
// box in the box's frame, advanced conservatively over the whole motion.
func TestBulletChainEndsShortOfBoxBug(t *testing.T) {
	q0, q1 := collide.V(0.6875, -0.25), collide.V(-0.5625, -0.75)
	chain := must[collide.Shape](t)(collide.NewChain([]collide.Vec2{q0, q1}, false))
	half := collide.V(1.1875, 0.625)
	box := must[collide.Shape](t)(collide.NewAABB(half.X, half.Y))
	p0, a0 := collide.V(1000009.3125, -999994.75), 0.024975308619805237
	p1, a1 := collide.V(1000000.5, -1000003.375), 0.642414468449265
	c := collide.V(1000000.8125, -1000004.9375)

	// The segment's distance from the box at time t of the motion (linear
	// position, linear angle), 0 where they touch or cross; the dyadic
	// positions subtract exactly, so rounding stays near 1e-15.
	gap := func(t float64) float64 {
		s, co := math.Sincos(a0 + t*(a1-a0))
		o := p0.Sub(c).Add(p1.Sub(p0).Scale(t))
		rot := func(q collide.Vec2) collide.Vec2 { return o.Add(collide.V(co*q.X-s*q.Y, s*q.X+co*q.Y)) }
		u, v := rot(q0), rot(q1)
		// Clip the segment to the box (Liang–Barsky): any part left inside
		// means they meet.
		lo, hi := 0.0, 1.0
		d := v.Sub(u)
		inside := true
		for _, e := range [][2]float64{{-d.X, u.X + half.X}, {d.X, half.X - u.X}, {-d.Y, u.Y + half.Y}, {d.Y, half.Y - u.Y}} {
			switch p, q := e[0], e[1]; {
			case p == 0 && q < 0:
				inside = false
			case p < 0:
				lo = max(lo, q/p)
			case p > 0:
				hi = min(hi, q/p)
			}
		}
		if inside && lo <= hi {
			return 0
		}
		toBox := func(p collide.Vec2) float64 {
			dx := max(0, math.Abs(p.X)-half.X)
			dy := max(0, math.Abs(p.Y)-half.Y)
			return math.Sqrt(dx*dx + dy*dy)
		}
		toSeg := func(p collide.Vec2) float64 {
			k := min(1, max(0, p.Sub(u).Dot(d)/d.LenSq()))
			return p.Sub(u.Add(d.Scale(k))).Len()
		}
		g := min(toBox(u), toBox(v))
		for _, k := range []collide.Vec2{half, half.Neg(), collide.V(half.X, -half.Y), collide.V(-half.X, half.Y)} {
			g = min(g, toSeg(k))
		}
		return g
	}
	// No point of the segment closes on the box faster than the motion
	// plus the turn times the segment's farthest end.
	speed := p1.Sub(p0).Len() + math.Abs(a1-a0)*max(q0.Len(), q1.Len())
	minGap, at := math.Inf(1), 0.0
	for tt := 0.0; ; {
		g := gap(tt)
		if g < minGap {
			minGap, at = g, tt
		}
		if g < 1e-7 {
			t.Fatalf("the segment comes within %g of the box at t = %v: the case no longer misses", g, tt)
		}
		if tt == 1 {
			break
		}
		tt = min(1, tt+0.999*g/speed)
	}
	t.Logf("closest approach %.3g at t = %v", minGap, at)

	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: box, Position: c, Angle: 3.3176016706105345, Kind: collide.Static}))
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: chain, Position: p0, Angle: a0, Bullet: true}))
	w.Step()
	if err := w.SetTransform(b, p1, a1); err != nil {
		t.Fatal(err)
	}
	if cs := stepContacts(w); len(cs) != 0 {
		t.Errorf("the chain ends %.3g short of the box and never touches it; contacts %+v, want none", minGap, cs)
	}
}
