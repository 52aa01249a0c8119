package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestTimeOfImpactEnterEndsShortBug: a turning one-segment chain whose
// motion ends 5.5e-7 short of an AABB (2.4e-7 of the pair's size; its
// closest approach, at the end) is within TimeOfImpact's reach of touching
// from t = 1 − 1.1e-8 on. TimeOfImpactEnter followed that touch for an
// overlap, reached the end of the sweep still within reach, and counted it:
// a swept contact for a pair that never touches (the world-level case and
// its independent gap are TestBulletChainEndsShortOfBoxBug's). At 1e6 and,
// shifted, at the origin, in both orders.
func TestTimeOfImpactEnterEndsShortBug(t *testing.T) {
	chain, err := shape.NewChain([]shape.Vec2{{X: 0.6875, Y: -0.25}, {X: -0.5625, Y: -0.75}}, false)
	if err != nil {
		t.Fatal(err)
	}
	box, err := shape.NewAABB(1.1875, 0.625)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []shape.Vec2{{X: 1e6, Y: -1e6}, {}} {
		sa := narrowphase.Sweep{
			P0: base.Add(shape.V(9.3125, 5.25)), P1: base.Add(shape.V(0.5, -3.375)),
			A0: 0.024975308619805237, A1: 0.642414468449265,
		}
		c := base.Add(shape.V(0.8125, -4.9375))
		sb := narrowphase.Sweep{P0: c, P1: c, A0: 3.3176016706105345, A1: 3.3176016706105345}
		if tt, pa, pb, hit := narrowphase.TimeOfImpactEnter(chain, sa, box, sb); hit {
			t.Errorf("at %v: TimeOfImpactEnter(chain, aabb) = %v, parts %d, %d; want no hit (they never touch)", base, tt, pa, pb)
		}
		if tt, pa, pb, hit := narrowphase.TimeOfImpactEnter(box, sb, chain, sa); hit {
			t.Errorf("at %v: TimeOfImpactEnter(aabb, chain) = %v, parts %d, %d; want no hit (they never touch)", base, tt, pa, pb)
		}
	}
}

// TestTimeOfImpactEnterSlowNearMissBug: a wheel's circle, off its body's
// centre, swings past the top of a box through a quarter of a radian and comes no
// closer than 2^-23 (2.2e-8 of the pair's size, at t = 0.5, the bottom of
// its arc). The gap stays within TimeOfImpact's reach of touching for 2.6%
// of the motion, so TimeOfImpactEnter, following the touch over only the
// next thousandth of the motion, neither saw an overlap nor saw the pair
// part, and counted the touch: a contact for a pair that never touches
// (the mid-sweep twin of TestTimeOfImpactEnterEndsShortBug, found while
// fixing it).
func TestTimeOfImpactEnterSlowNearMissBug(t *testing.T) {
	wheel, err := shape.NewOffsetCircle(shape.V(0, -1), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	box, err := shape.NewAABB(4, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	gap := math.Ldexp(1, -23)
	for _, base := range []shape.Vec2{{}, {X: 1e6, Y: -1e6}} {
		// The circle's lowest point is at gap + 1 − cos θ above the box.
		p := base.Add(shape.V(0, 1.5+gap))
		sa := narrowphase.Sweep{P0: p, P1: p, A0: -0.125, A1: 0.125}
		c := base.Add(shape.V(0, -0.5))
		sb := narrowphase.Sweep{P0: c, P1: c}
		if tt, hit := narrowphase.TimeOfImpact(wheel, sa, box, sb); !hit || tt > 0.5 {
			t.Fatalf("at %v: TimeOfImpact = %v, %v; want a touch within its tolerance before t = 0.5: the case no longer tests the follow", base, tt, hit)
		}
		if tt, _, _, hit := narrowphase.TimeOfImpactEnter(wheel, sa, box, sb); hit {
			t.Errorf("at %v: TimeOfImpactEnter(wheel, box) = %v; want no hit (they stay %g apart)", base, tt, gap)
		}
		if tt, _, _, hit := narrowphase.TimeOfImpactEnter(box, sb, wheel, sa); hit {
			t.Errorf("at %v: TimeOfImpactEnter(box, wheel) = %v; want no hit (they stay %g apart)", base, tt, gap)
		}
		// Closer by a hair, the wheel cuts into the box: a contact.
		sa.P0.Y -= 2 * gap
		sa.P1 = sa.P0
		if _, _, _, hit := narrowphase.TimeOfImpactEnter(wheel, sa, box, sb); !hit {
			t.Errorf("at %v: TimeOfImpactEnter(wheel, box) finds no hit %g deep", base, gap)
		}
	}
}
