package narrowphase_test

import (
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCastCompoundStartOverlapThinnerThanRoundingBug: a triangle that
// overlaps a compound's box by 2.2e-16 at the start (Collide, which
// places the part exactly, finds the contact) was cast as apart, with a
// first touch at fraction 1.3e-16, because the parts were cast placed
// near the pair, rounded, where the overlap vanished. A cast that starts
// in overlap is a hit at 0 with Collide's normal and point.
// (TestExactOracleCastFloatShapes seed 7432832467512059581.)
func TestCastCompoundStartOverlapThinnerThanRoundingBug(t *testing.T) {
	tri := npPolygon(t, xy(-1.2279779166189098, 0.22002371518145183), xy(1.2568112160888207, -1.1201726407610928), xy(0.5249501479759535, -0.2882124886222092))
	box, err := shape.NewOBB(2.6875, 1.5625)
	if err != nil {
		t.Fatal(err)
	}
	seg, err := shape.NewSegment(xy(-2.9375, 0.5625), xy(1.9375, -1.1875))
	if err != nil {
		t.Fatal(err)
	}
	comp, err := shape.NewCompound([]shape.Part{
		{Shape: box, Offset: shape.Transform{Pos: xy(-0.5625, -1.6875), Rot: shape.RotFromCosSin(-0.9236134309828614, 0.38332522759148907)}},
		{Shape: seg, Offset: shape.Transform{Pos: xy(-0.75, -1.25), Rot: shape.RotFromCosSin(0, -1)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ta := shape.Transform{Pos: xy(1.9556981747428854, -0.540578743338116), Rot: shape.RotFromCosSin(-0.13828931358122065, 0.9903918748400731)}
	tb := shape.Transform{Pos: xy(2.1279084739419387, -1.633981995635664), Rot: shape.RotFromCosSin(0.9957840128234873, 0.0917289474765352)}
	delta := xy(0.14903858670379547, -0.9462806590411873)
	for _, swap := range []bool{false, true} {
		a, xa, b, xb := tri, ta, comp, tb
		if swap {
			a, xa, b, xb = comp, tb, tri, ta
		}
		m, in := narrowphase.Collide(a, xa, b, xb)
		if !in {
			t.Fatalf("Collide(%v, %v) = no contact, want the overlap of 2.2e-16 this test is about", a.Kind(), b.Kind())
		}
		for _, d := range []shape.Vec2{delta, delta.Neg(), {}} {
			h, ok := narrowphase.Cast(a, xa, d, b, xb)
			if !ok || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point {
				t.Errorf("Cast(%v, %v, delta %v) = %+v, %v; want a hit at 0, normal %v, point %v (Collide's, depth %g)",
					a.Kind(), b.Kind(), d, h, ok, m.Normal.Neg(), m.Points[0].Point, m.Depth)
			}
		}
	}
}
