package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestChainNeedleTipBug: a chain that turns straight back on itself (a
// needle: (0, 0) → (5, 0) → (2, 0), or back to within 1e-10 rad of it)
// has a convex corner at its tip from both sides, as sharp as a corner
// gets; its cone is the half-plane toward the tip, as at an open end. The
// ghost rule took the reversal for a flat corner (the cross product of
// the two directions, by which it tells a turn, is 0 or below its
// tolerance at a half turn as at no turn) and replaced a circle's contact
// with the tip (normal +X, depth 0.5) by a push sideways through the whole
// radius: normal (0, −1) from one segment and (0, 1) from the other, depth
// 1; a circle grazing the tip 0.05 deep was pushed 0.7. Three degrees off
// the reversal the same contact was the tip's.
func TestChainNeedleTipBug(t *testing.T) {
	circ := npCircle(t, 1)
	for _, tip := range [][]shape.Vec2{
		{xy(0, 0), xy(5, 0), xy(2, 0)},
		{xy(0, 0), xy(5, 0), xy(2, 3e-10)},
		{xy(0, 0), xy(5, 0), xy(2, -3e-12)},
		{xy(2, 0), xy(5, 0), xy(0, 0)},
	} {
		chain := npChain(t, false, tip...)
		lone := npSegment(t, xy(0, 0), xy(5, 0))
		for _, frame := range []shape.Transform{shape.Identity, shape.NewTransform(xy(1e6, -1e6), 0.7)} {
			for _, p := range []shape.Vec2{xy(5.5, 0), xy(5.5, 0.1), xy(5.9, -0.3), xy(5.25, 0.5)} {
				tc := shape.Transform{Pos: frame.Apply(p), Rot: frame.Rot}
				want, _ := narrowphase.Collide(lone, frame, circ, tc)
				n := 0
				narrowphase.CollideParts(chain, frame, circ, tc, func(i, _ int, m narrowphase.Manifold) bool {
					n++
					if m.Normal.Sub(want.Normal).Len() > 1e-6 || math.Abs(m.Depth-want.Depth) > 1e-6 {
						t.Errorf("chain %v at %v, circle r=1 at local %v: segment %d gives normal %v depth %.6g; the tip gives %v, %.6g",
							tip, frame.Pos, p, i, m.Normal, m.Depth, want.Normal, want.Depth)
					}
					return true
				})
				if n == 0 {
					t.Errorf("chain %v, circle at %v: no contact; the tip gives %+v", tip, p, want)
				}
			}
		}
	}
}
