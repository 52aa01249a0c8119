package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCastFromACornerTouch casts a segment whose end sits on a corner of a
// polygon (an 85° corner, so the cone of normals that separate them there
// is 95° wide) from that touch along every direction, at the origin and at
// 1e6, the segment turned by exactly −90° and by the two floats nearest
// −π/2 (a rounding off the corner). Two right answers for the normal can
// then be more than a right angle apart, which
// TestCastFromTouchKeepsSide's check of the normal's side first missed
// (-touchseed 17643730650096565806).
//
// The check, by placing the segment along the motion with Collide: Cast
// reports the touch at the start with a normal the segment can move away
// along (a short step along it leaves them apart), and a motion whose
// every step leaves them apart is not stopped at the start by
// CastSliding.
func TestCastFromACornerTouch(t *testing.T) {
	b := npPolygon(t, xy(-1.75, 0), xy(-1.8125, -1.3125), xy(-0.375, -1.25), xy(0.375, -1.125), xy(0.75, -0.5625))
	a := npSegment(t, xy(-0.1875, 0.25), xy(0.4375, 0))
	parted, checked := 0, 0
	// Turned by −90° (exactly, or by the angle nearest −π/2 or the next
	// float below it, as the failing case was), the end (−0.1875, 0.25)
	// goes to (0.25, 0.1875), onto b's corner (−1.8125, −1.3125): exactly,
	// or to a rounding.
	for _, rot := range []shape.Rot{shape.RotFromCosSin(0, -1), shape.NewRot(-math.Pi / 2), shape.NewRot(-1.5707963267948968)} {
		for _, base := range []float64{0, 1e6} {
			tb := shape.Transform{Pos: xy(base, -base)}
			ta := shape.Transform{Pos: xy(base-2.0625, -base-1.5), Rot: rot}
			apart := func(v shape.Vec2) bool {
				_, in := narrowphase.Collide(a, shape.Transform{Pos: ta.Pos.Add(v), Rot: rot}, b, tb)
				return !in
			}
			if !apart(shape.Vec2{}) {
				t.Fatalf("at %g: the shapes overlap at the touch", base)
			}
			for i := range 720 {
				s, c := math.Sincos(2 * math.Pi * (float64(i) + 0.25) / 720)
				d := xy(1.5*c, 1.5*s)
				h, ok := narrowphase.Cast(a, ta, d, b, tb)
				if !ok || h.Fraction != 0 {
					t.Errorf("at %g, d %v: Cast = %+v, %v; want a touch at the start", base, d, h, ok)
					continue
				}
				checked++
				if !apart(h.Normal.Scale(1e-4)) || !apart(h.Normal.Scale(1e-2)) {
					t.Errorf("at %g, d %v: Cast's normal %v points into b", base, d, h.Normal)
				}
				leaves := true
				for _, f := range []float64{1e-6, 1e-4, 1e-2, 0.1, 0.5, 1} {
					leaves = leaves && apart(d.Scale(f))
				}
				if !leaves {
					continue
				}
				parted++
				if h3, ok3 := narrowphase.CastSliding(a, ta, d, b, tb, 1e-12); ok3 && h3.Fraction == 0 {
					t.Errorf("at %g, d %v (which leaves the corner): CastSliding = %+v; want no stop at the start (Cast's normal %v)", base, d, h3, h.Normal)
				}
			}
		}
	}
	t.Logf("%d casts, %d of them leaving the corner", checked, parted)
	if parted < 1200 {
		t.Fatalf("only %d motions leave the corner: the test proves little", parted)
	}
}
