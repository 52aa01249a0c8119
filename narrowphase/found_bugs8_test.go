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

// TestCastTouchSegmentSideBug: a circle touching a segment wall (to
// within an ulp: the exact gap is −6e-17) from its right, both turned.
// Cast took the side of the wall from whichever of the Minkowski
// segment's two edges rounded nearer the origin, and only swapped when
// the first won: here the second won by an ulp, so the Normal pointed
// from a toward b, into the wall ((−0.9995, 0.033), not (0.9995,
// −0.033)). CastSliding then took a motion straight into the wall for
// one moving away, passed the touch and let the circle through the wall;
// found by TestExactOracleCastFloatShapes (seed 711084469339644574,
// -exactscale 4).
func TestCastTouchSegmentSideBug(t *testing.T) {
	a, _ := shape.NewOffsetCircle(shape.V(0.051819833703691566, 0.14637510491419237), 0.35950418883540153)
	ta := shape.Transform{Pos: shape.V(3.251248642992972, 0.26159701767468535), Rot: shape.RotFromCosSin(-0.9960817886862776, -0.0884368150011393)}
	b, _ := shape.NewSegment(shape.V(-1.0312802620942434, 1.7352058362209053), shape.V(-0.3852776335333047, -1.1923221578475223))
	tb := shape.Transform{Pos: shape.V(2.24697997088159, 0.9473710715328241), Rot: shape.RotFromCosSin(-0.9688685159113355, 0.24757584469363436)}
	out := shape.V(0.9994557804224727, -0.03298701229432337) // from the wall toward the circle's centre
	for _, d := range []shape.Vec2{out.Neg(), out, shape.V(2.364710172976199, -1.4975773015635807), shape.V(-out.Y, out.X)} {
		h, ok := narrowphase.Cast(a, ta, d, b, tb)
		if !ok || h.Fraction != 0 || h.Normal.Dot(out) < 0.999 {
			t.Errorf("Cast by %v = %+v, %v; want Fraction 0 with Normal %v (from the wall toward the circle)", d, h, ok, out)
		}
		hb, okb := narrowphase.Cast(b, tb, d.Neg(), a, ta)
		if !okb || hb.Fraction != 0 || hb.Normal.Dot(out) > -0.999 {
			t.Errorf("Cast of the wall by %v = %+v, %v; want Fraction 0 with Normal %v", d.Neg(), hb, okb, out.Neg())
		}
	}
	// Straight into the wall from touching: CastSliding must stop at once.
	if h, ok := narrowphase.CastSliding(a, ta, out.Neg(), b, tb, 1e-9); !ok || h.Fraction != 0 {
		t.Errorf("CastSliding into the wall = %+v, %v; want a hit at 0 (half way the circle overlaps the wall)", h, ok)
	}
}

// TestCastTouchParallelCoresSideBug: a segment touching a capsule whose
// core is parallel to it (same rotation), cast from the touch. The two
// parallel cores' Minkowski difference came out as a flat quadrilateral
// (its edges' placed directions not exactly parallel, so not merged), two
// edges facing each way along one line, and Cast took the nearest by
// distance, which is a tie up to rounding between the two sides: the
// Normal pointed from a toward b ((0.385, 0.923) instead of (−0.385,
// −0.923)), as in TestCastTouchSegmentSideBug (found by
// TestExactOracleCastFromTouchRounded, seed 16129364065781127378).
func TestCastTouchParallelCoresSideBug(t *testing.T) {
	a, _ := shape.NewSegment(shape.V(0.09394921145246721, -1.3177569575245958), shape.V(-0.31249053588968995, 1.737360817236326))
	ta := shape.Transform{Pos: shape.V(-1.7147741426767045, 2.429241504642403), Rot: shape.RotFromCosSin(0.5031910057588099, 0.8641752204983879)}
	b, _ := shape.NewCapsule(shape.V(0.3758451414184165, -0.7114068287376182), shape.V(0.15163813058546105, 0.9739077314181687), 0.3998037425054222)
	tb := shape.Transform{Pos: shape.V(-1.285661342113757, 2.2941047500112632), Rot: shape.RotFromCosSin(0.5031910057588099, 0.8641752204983879)}
	out := shape.V(-0.38483428752350063, -0.9229856830667958) // from the capsule toward the segment
	for _, d := range []shape.Vec2{out.Neg(), out, shape.V(-0.1694150360865255, -1.695962923189174), shape.V(-out.Y, out.X)} {
		h, ok := narrowphase.Cast(a, ta, d, b, tb)
		if !ok || h.Fraction != 0 || h.Normal.Dot(out) < 0.999 {
			t.Errorf("Cast by %v = %+v, %v; want Fraction 0 with Normal %v (from the capsule toward the segment)", d, h, ok, out)
		}
	}
	if h, ok := narrowphase.CastSliding(a, ta, out.Neg(), b, tb, 1e-9); !ok || h.Fraction != 0 {
		t.Errorf("CastSliding into the capsule = %+v, %v; want a hit at 0", h, ok)
	}
}
