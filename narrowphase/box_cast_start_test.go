package narrowphase_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestBoxCastStillAgreesWithCollide puts two boxes (AABB and OBB, in
// every order) within a few ulps of touching, far from the origin too,
// and casts with motions that have no component along one of the
// boxes' axes: zero, and for two AABBs a motion along x or y alone. The
// boxes' slab cast decides such an axis by the start alone, so a start
// outside that slab by a rounding must be decided as Collide decides it:
// where Collide finds a contact, Cast reports a hit at 0 with Collide's
// normal negated and its point. (Two OBBs touching by 4.4e-16, cast with
// a zero motion, were once reported as missing each other.)
func TestBoxCastStillAgreesWithCollide(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 2718))
	kinds := []func(hw, hh float64) (shape.Shape, error){shape.NewAABB, shape.NewOBB}
	n := exCases(100000)
	checked, overlapping := 0, 0
	for i := range n {
		ka, kb := kinds[i%2], kinds[i/2%2]
		a, err := ka(0.1+rng.Float64()*2, 0.1+rng.Float64()*2)
		if err != nil {
			t.Fatal(err)
		}
		b, err := kb(0.1+rng.Float64()*2, 0.1+rng.Float64()*2)
		if err != nil {
			t.Fatal(err)
		}
		base := exBases[rng.IntN(len(exBases))]
		tb := shape.Transform{Pos: shape.V(base+rng.Float64()*4-2, -base+rng.Float64()*4-2), Rot: shape.NewRot(rng.Float64() * 7)}
		dir := shape.NewRot(rng.Float64() * 7).Apply(shape.V(1, 0))
		ta := shape.Transform{Pos: tb.Pos.Add(dir.Scale(-8)), Rot: shape.NewRot(rng.Float64() * 7)}
		// The first touch of a moving toward b, found by Cast from afar:
		// it only chooses the start; the check is Cast against Collide.
		h, ok := narrowphase.Cast(a, ta, dir.Scale(16), b, tb)
		if !ok || h.Fraction == 0 {
			continue
		}
		ta.Pos = ta.Pos.Add(dir.Scale(16 * h.Fraction))
		ta.Pos.X = ulpStep(ta.Pos.X, rng.IntN(7)-3)
		ta.Pos.Y = ulpStep(ta.Pos.Y, rng.IntN(7)-3)
		m, in := narrowphase.Collide(a, ta, b, tb)
		if in {
			overlapping++
		}
		s := rng.Float64()*4 - 2
		for _, delta := range []shape.Vec2{{}, {X: s}, {Y: s}} {
			h, ok := narrowphase.Cast(a, ta, delta, b, tb)
			checked++
			if in && (!ok || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point) {
				t.Fatalf("Cast = %+v, %v; Collide finds a contact at the start (depth %g, normal %v, point %v): want a hit at 0 with its normal negated and its point: %s, delta %v",
					h, ok, m.Depth, m.Normal, m.Points[0].Point, exDescribe(a, ta, b, tb), delta)
			}
		}
	}
	if overlapping == 0 {
		t.Fatalf("no start of %d overlapped: the test checks nothing", n)
	}
	t.Logf("%d casts from %d starts within ulps of a touch, %d of them overlapping", checked, n, overlapping)
}
