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

// TestTimeOfImpactCompoundFarStartOverlapBug: a compound of two boxes at
// 1e12 overlapping a small polygon at the start (by 1.7e-5, exactly, with
// the parts placed by offset and body transform without rounding; Overlap
// agrees) got TimeOfImpact 1.4e-5, not 0: the composite TOI placed each
// part at world coordinates, where x.Mul(offset) rounds its position to
// the grid of 1e12 (an ulp is 1.2e-4), while Collide, Overlap and Cast
// place a compound's parts near the pair (recentre)
// (TestExactOracleTOIEnter, seed 1812837157339335293, case 128).
func TestTimeOfImpactCompoundFarStartOverlapBug(t *testing.T) {
	o0, _ := shape.NewOBB(2.4375, 2.25)
	o1, _ := shape.NewOBB(2.1875, 0.9375)
	comp, err := shape.NewCompound([]shape.Part{
		{Shape: o0, Offset: shape.Transform{Pos: shape.V(0.8125, -0.25), Rot: shape.RotFromCosSin(-0.2934509939564616, 0.9559741179268216)}},
		{Shape: o1, Offset: shape.Transform{Pos: shape.V(-0.5, 1.25)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	poly, err := shape.NewPolygon([]shape.Vec2{{X: -0.2312632317374861, Y: 0.0690423283654569}, {X: -0.10279674087198934, Y: -0.283461839106506},
		{X: 0.12436584193634939, Y: -0.5004816674733225}, {X: 0.3673492000699517, Y: -0.20351716260549363}, {X: 0.3514168528269942, Y: -0.10159613576705007}})
	if err != nil {
		t.Fatal(err)
	}
	sa := narrowphase.Sweep{P0: shape.V(9.999999999969309e+11, 9.999999999996465e+11), P1: shape.V(9.999999999913223e+11, 1.0000000000000529e+12), A0: -3.134146474833476, A1: -3.134146474833476}
	sb := narrowphase.Sweep{P0: shape.V(9.999999999971875e+11, 1.0000000000031875e+12), P1: shape.V(9.999999999971875e+11, 1.0000000000031875e+12), A0: -1.1689429604557293, A1: -1.1689429604557293}
	if g := newTOICase(comp, sa, poly, sb).exactGap(0); g >= 0 {
		t.Fatalf("exact gap at the start %g: the case no longer overlaps there", g)
	}
	if !narrowphase.Overlap(comp, sa.At(0), poly, sb.At(0)) {
		t.Fatalf("Overlap at the start is false: the case no longer overlaps there")
	}
	for _, c := range []*toiCase{newTOICase(comp, sa, poly, sb), newTOICase(poly, sb, comp, sa)} {
		if tt, hit := narrowphase.TimeOfImpact(c.a, c.sa, c.b, c.sb); !hit || tt != 0 {
			t.Errorf("TimeOfImpact(%v, %v) = %v, %v; want 0, true (they overlap at the start)", c.a.Kind(), c.b.Kind(), tt, hit)
		}
		if tt, _, _, hit := narrowphase.TimeOfImpactEnter(c.a, c.sa, c.b, c.sb); !hit || tt != 0 {
			t.Errorf("TimeOfImpactEnter(%v, %v) = %v, %v; want 0, true (they overlap at the start)", c.a.Kind(), c.b.Kind(), tt, hit)
		}
	}
}
