package narrowphase_test

import (
	"math"

	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestTimeOfImpactSpinningWheelBug: a wheel (a circle about its body's
// origin) spinning by 3 rad while a box slides over it, closing a 1e-3 gap
// slowly, touches it at t = 0.5 exactly. Conservative advancement counted
// the spin as closing the gap at the wheel's radius times its angular
// speed, though turning a circle about its centre moves none of it; steps
// of gap/spin did not get past t ≈ 0.1 in the 5,000 allowed and
// TimeOfImpact reported no hit (found by hand while reading the iteration
// cap of toi.go).
func TestTimeOfImpactSpinningWheelBug(t *testing.T) {
	wheel, _ := shape.NewCircle(1)
	box, _ := shape.NewOBB(10, 1)
	for _, gap := range []float64{2e-5, 1e-4, 1e-3} {
		sa := narrowphase.Sweep{A1: 3}
		sb := narrowphase.Sweep{P0: shape.V(-5, 2+gap), P1: shape.V(5, 2-gap)}
		toi, ok := narrowphase.TimeOfImpact(wheel, sa, box, sb)
		// Within 1e-6 of the size (about 11) of touching, and overlapping
		// by no more than 1e-9 of it: the gap closes at 2·gap per unit
		// time.
		size := wheel.BoundingRadius() + box.BoundingRadius()
		early, late := 0.5-1e-6*size/(2*gap), 0.5+1e-9*size/(2*gap)
		if !ok || toi > late || toi < early {
			t.Errorf("gap %g: TimeOfImpact = %v, %v; want a hit in [%v, %v]", gap, toi, ok, early, late)
		}
		if ok {
			if m, hit := narrowphase.Collide(wheel, sa.At(toi), box, sb.At(toi)); hit && m.Depth > 1e-9*size {
				t.Errorf("gap %g: the shapes overlap by %g at the time of impact %v", gap, m.Depth, toi)
			}
		}
	}
}

// TestChainCornerContactPointBug: a box overlaps a closed chain at a convex
// corner of it, by 0.625 both along the corner's lower segment's side
// normal and along +X, which lies in the segment's normal cone; the
// segment's own Collide leans outside the cone, and the replacement
// manifold along +X put its point at the box's bottom-left corner, where
// the line along the normal misses the chain: midway between the box's
// left face and the chain's corner (x −1.164, y 2.600) is the point, at y
// 2.600, not the box's bottom 2.225
// (TestExactOracleChainContactPoints, seed 2225163382509226994, case 103).
func TestChainCornerContactPointBug(t *testing.T) {
	pts := []shape.Vec2{{X: -0.8125, Y: 0.625}, {X: -0.6093630564023061, Y: 3.1794356778251016}, {X: 0.5235498643338022, Y: 4.162547224918909},
		{X: -0.48513191029432423, Y: 4.900829743696819}, {X: -0.3174408283649862, Y: 5.886669335639326}, {X: -0.023981434988644634, Y: 7.6118886215387125}}
	ch, err := shape.NewChain(pts, true)
	if err != nil {
		t.Fatal(err)
	}
	box, _ := shape.NewOBB(2.0625, 0.5)
	ta := shape.Transform{Pos: shape.V(-1.6875, -1.5625)}
	tb := shape.Transform{Pos: shape.V(0.27354986433380235, 2.7250472249189093)}
	parts := exParts(ch, ta)
	cb := exPlace(box, tb)
	for _, swap := range []bool{false, true} {
		n := 0
		check := func(i, j int, m narrowphase.Manifold) bool {
			n++
			ca, cx := parts[i], cb
			if swap {
				ca, cx = cb, parts[j]
			}
			for k := range m.Count {
				p := m.Points[k]
				sa := exSignedDist(ca, p.Point.Add(m.Normal.Scale(p.Depth/2)))
				sb := exSignedDist(cx, p.Point.Sub(m.Normal.Scale(p.Depth/2)))
				if math.Abs(sa) > 1e-9 || math.Abs(sb) > 1e-9 {
					t.Errorf("swap %v, parts (%d, %d): Points[%d] = %+v, normal %v: point ± normal·depth/2 is %.3g from a's boundary and %.3g from b's, want 0",
						swap, i, j, k, p, m.Normal, sa, sb)
				}
			}
			return true
		}
		if swap {
			narrowphase.CollideParts(box, tb, ch, ta, check)
		} else {
			narrowphase.CollideParts(ch, ta, box, tb, check)
		}
		if n == 0 {
			t.Errorf("swap %v: no contact", swap)
		}
	}
}
