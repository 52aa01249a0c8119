package collide_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

var touchSeed = flag.Uint64("touchseed", 0, "seed for TestCastFromTouchKeepsSide (0: a random one)")

// TestCastFromTouchKeepsSide brings pairs of shapes of every kind (a third
// of them compounds and chains; never two that are only segments, which
// never collide)
// (at any angle, at 0 and 1e6) into touch with a first Cast, moves the
// first shape to the touch, and casts again from there along random
// motions: a hit at the start must have a normal on the same side as the
// touch's, or at a corner one of the cone's that a can move away along
// (from b toward a: a flipped normal makes a move into b look like one
// away from it, which MoveAndSlide then passes), a motion into
// b (against the touch's normal by more than a degree) must be stopped at
// once, by Cast and CastSliding alike, and a motion away from b must not
// be stopped at the start by CastSliding.
func TestCastFromTouchKeepsSide(t *testing.T) {
	seed := oracleSeed(t, *touchSeed, "touchseed")
	pairs := 20000
	if testing.Short() {
		pairs = 3000
	}
	r := rand.New(rand.NewPCG(seed, 1))
	convex := func() collide.Shape {
		for {
			if s := woShape(r); s.Kind().Convex() {
				return s
			}
		}
	}
	angle := func() float64 {
		if r.IntN(3) == 0 {
			return float64(r.IntN(4)) * math.Pi / 2
		}
		return r.Float64() * 2 * math.Pi
	}
	checked := 0
	for range pairs {
		base := []float64{0, 1e6}[r.IntN(2)]
		o := collide.V(base, -base)
		a, b := convex(), convex()
		if r.IntN(3) == 0 {
			a = woShape(r) // compounds and chains too
		}
		if r.IntN(3) == 0 {
			b = woShape(r)
		}
		bare := func(s collide.Shape) bool { return s.Kind() == shape.KindSegment || s.Kind() == shape.KindChain }
		if bare(a) && bare(b) {
			continue // segments never collide with segments
		}
		ta := collide.NewTransform(o.Add(collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8))), angle())
		tb := collide.NewTransform(o, angle())
		toward := tb.Pos.Sub(ta.Pos).Add(collide.V(woDyad(r, -1, 1), woDyad(r, -1, 1))).Scale(1.5)
		h, ok := narrowphase.Cast(a, ta, toward, b, tb)
		if !ok || h.Fraction == 0 {
			continue
		}
		at := collide.Transform{Pos: ta.Pos.Add(toward.Scale(h.Fraction)), Rot: ta.Rot}
		if _, in := narrowphase.Collide(a, at, b, tb); in {
			continue // rounding put it a hair in: the overlap rule, not the touch's
		}
		n := h.Normal
		for range 8 {
			th := r.Float64() * 2 * math.Pi
			d := collide.V(math.Cos(th), math.Sin(th)).Scale(woDyad(r, 0.5, 4))
			c := d.Dot(n) / d.Len()
			h2, ok2 := narrowphase.Cast(a, at, d, b, tb)
			checked++
			// A normal on the other side from the touch's is one along
			// which a cannot move away: a short step of a along it goes
			// into b. (A touch at a corner has a cone of separating
			// normals, which can be wider than a right angle, so two
			// right answers can be more than 90° apart.)
			into := func(v collide.Vec2) bool {
				m, in := narrowphase.Collide(a, collide.Transform{Pos: at.Pos.Add(v.Scale(1e-4)), Rot: at.Rot}, b, tb)
				return in && m.Depth > 1e-9*1e-4
			}
			if ok2 && h2.Fraction == 0 && h2.Normal.Dot(n) < 0 && into(h2.Normal) {
				t.Fatalf("Cast(%v at %v angle %v by %v, %v at %v angle %v) from the touch (normal %v) = %+v: the normal flips side",
					a, at.Pos, at.Rot.Angle(), d, b, tb.Pos, tb.Rot.Angle(), n, h2)
			}
			// The touch is placed to an ulp of its coordinates: a gap of a
			// few ulps, which a motion into it at a slant closes slowly.
			tol := (1e-12 + 16*0x1p-52*(math.Abs(at.Pos.X)+math.Abs(at.Pos.Y))) / (d.Len() * max(-c, 1e-3))
			// Into b or away, by where a short step along the motion takes
			// a (a touch at corners has a cone of normals, of which the
			// first cast gave one).
			step := func(l float64) bool {
				m, in := narrowphase.Collide(a, collide.Transform{Pos: at.Pos.Add(d.Scale(l / d.Len())), Rot: at.Rot}, b, tb)
				return in && m.Depth > 1e-9*l
			}
			if step(1e-4) && c < -0.02 {
				if !ok2 || h2.Fraction > tol {
					t.Fatalf("Cast(%v at %v angle %v by %v, %v at %v angle %v) from the touch (normal %v), moving into it = %+v, %v; want a hit at once",
						a, at.Pos, at.Rot.Angle(), d, b, tb.Pos, tb.Rot.Angle(), n, h2, ok2)
				}
				if h3, ok3 := narrowphase.CastSliding(a, at, d, b, tb, 1e-12); !ok3 || h3.Fraction > tol {
					t.Fatalf("CastSliding(%v at %v angle %v by %v, %v at %v angle %v) from the touch (normal %v), moving into it = %+v, %v; want a hit at once",
						a, at.Pos, at.Rot.Angle(), d, b, tb.Pos, tb.Rot.Angle(), n, h3, ok3)
				}
			}
		}
	}
	t.Logf("%d casts from a touch", checked)
	if checked < pairs {
		t.Fatalf("only %d casts: the test proves little", checked)
	}
}
