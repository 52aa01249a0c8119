package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCollideSegmentAcrossFaceFarBug: a wall 798 long that lies along a
// box's face normal, tilted from it by 1.2e-16 rad, deep inside the box
// near (1e6, −3.3e5). Placed near the origin, Collide gives one contact
// point, the wall's deep end, at the manifold's depth. Placed at 1e6,
// where the box's frame holds the wall's ends rounded, it clipped the
// wall as a segment slanting across the face and gave a second point at
// its shallow end, 5,212 deep where the manifold is 6,010: within
// rounding, every point of the wall lies at one place along the face,
// where the wall reaches 6,010 deep. An incident core that crosses the
// reference face within rounding has one contact point, its deeper end.
// (TestExactOracleContactPointEnvelopes seed 4977634327651468538.)
func TestCollideSegmentAcrossFaceFarBug(t *testing.T) {
	seg, err := shape.NewSegment(xy(399.05192240866666, -4.886976594713709e-14), xy(-399.05192240866666, 4.886976594713709e-14))
	if err != nil {
		t.Fatal(err)
	}
	box, err := shape.NewOBB(6177.2569015911395, 8938.721713539551)
	if err != nil {
		t.Fatal(err)
	}
	rot := shape.RotFromCosSin(-0.96, -0.28)
	posA, posB := xy(1e6, -333333.3333333333), xy(999361.9937798403, -333168.72066873696)
	for k, base := range []shape.Vec2{posB.Neg(), {}} {
		where := []string{"box at the origin", "at 1e6"}[k]
		ta := shape.Transform{Pos: posA.Add(base), Rot: rot}
		tb := shape.Transform{Pos: posB.Add(base), Rot: rot}
		for _, swap := range []bool{false, true} {
			m, ok := narrowphase.Collide(seg, ta, box, tb)
			if swap {
				m, ok = narrowphase.Collide(box, tb, seg, ta)
			}
			if !ok {
				t.Fatalf("%s, swapped %v: no contact", where, swap)
			}
			if math.Abs(m.Depth-6009.914398733469) > 1e-9 {
				t.Errorf("%s, swapped %v: depth %.17g, want 6009.914398733469", where, swap, m.Depth)
			}
			if m.Count != 1 || m.Points[0].Depth != m.Depth {
				t.Errorf("%s, swapped %v: %+v, want one point at the manifold's depth (the wall's deep end)", where, swap, m)
			}
		}
	}
}
