package narrowphase_test

import (
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
