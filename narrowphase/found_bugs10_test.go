package narrowphase_test

import (
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
