package narrowphase_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCastTouchingSegmentNormalSideBug: a circle touching a segment at the
// start of a cast got the normal of the segment's other side when the
// Minkowski difference's two edges (the segment's two sides) tied for the
// nearest and rounding made the second strictly nearer: the tie was
// settled toward the origin's side only when the first edge won. The hit
// at 0 then pointed away from the circle, CastSliding took a motion
// straight into the segment for one away from it, and MoveAndSlide walked
// a character through the wall of a room (TestMoveAndSlideStaysInRoom,
// seed 11866553731396220212, found it). The random part places circles
// and capsules against segments at a distance of their radius, on either
// side, and requires every hit at 0 to point from the segment toward the
// moving shape, and a motion into the segment to be stopped at once.
func TestCastTouchingSegmentNormalSideBug(t *testing.T) {
	seg, _ := shape.NewSegment(shape.V(-3.1875, 2.9375), shape.V(-8.8125, -0.25))
	c, _ := shape.NewCircle(0.1875)
	tc := shape.Transform{Pos: shape.V(-7.44022424122997, 0.3121111843501003)} // 0.1875 from the segment
	into := shape.V(-9.8125, 11.375)
	check := func(t *testing.T, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, d shape.Vec2, side shape.Vec2) {
		t.Helper()
		h, ok := narrowphase.Cast(a, ta, d, b, tb)
		if ok && h.Fraction == 0 && h.Normal.Dot(side) <= 0 {
			t.Errorf("Cast(%v at %v by %v, %v at %v) = %+v: the normal points away from the moving shape (side %v)", a, ta.Pos, d, b, tb.Pos, h, side)
		}
		if d.Dot(side) < -1e-3*d.Len() {
			if h, ok := narrowphase.CastSliding(a, ta, d, b, tb, 1e-12); !ok || h.Fraction > 1e-9 {
				t.Errorf("CastSliding(%v at %v by %v, %v at %v) = %+v, %v: moving into what it touches, want a hit at once", a, ta.Pos, d, b, tb.Pos, h, ok)
			}
		}
	}
	n := shape.V(0.49301257198088033, -0.8700221858486124) // the side the circle is on
	check(t, c, tc, seg, shape.Transform{}, into, n)
	// The segment moving against the still circle: the same touch, seen
	// from the segment, whose side toward the circle is −n.
	check(t, seg, shape.Transform{}, c, tc, into.Neg(), n.Neg())

	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 20000 && !t.Failed(); i++ {
		p0 := shape.V(r.Float64()*20-10, r.Float64()*20-10)
		p1 := p0.Add(shape.V(r.Float64()*10-5, r.Float64()*10-5))
		s, err := shape.NewSegment(p0, p1)
		if err != nil {
			continue
		}
		e := p1.Sub(p0)
		nn := shape.V(-e.Y, e.X).Normalize()
		if r.IntN(2) == 0 {
			nn = nn.Neg()
		}
		rad := 0.0625 + r.Float64()
		foot := p0.Add(e.Scale(0.05 + 0.9*r.Float64()))
		a, _ := shape.NewCircle(rad)
		if r.IntN(2) == 0 {
			// A capsule standing on the segment, its core at right angles.
			a, _ = shape.NewCapsule(shape.V(0, 0), nn.Scale(0.5+r.Float64()), rad)
		}
		ta := shape.Transform{Pos: foot.Add(nn.Scale(rad))}
		d := shape.V(r.Float64()*20-10, r.Float64()*20-10)
		check(t, a, ta, s, shape.Transform{}, d, nn)
		check(t, s, shape.Transform{}, a, ta, d.Neg(), nn.Neg())
	}
}
