package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestTiltedCapsuleContactPointBug: a capsule lying tilted on a face (a
// box's top, or another capsule's side) has its shallower contact point
// off the capsule's surface: the point was the clipped core point pushed
// down by the radius along the normal, which lies inside a tilted capsule
// (its side is r/cos θ below the core along the normal, not r), so the
// point was not midway between the surfaces and its depth fell short of
// the overlap there by r·(1/cos θ − 1). Here the core rises 1 in 4
// (cos θ = 4/√17): at x = 1 the capsule's surface is at 1.25 − √17/8, the
// overlap there √17/8 − 0.25 = 0.26539, not 0.25. Found by
// TestExactOracleContactPoints (every pair with a capsule, in either
// order).
func TestTiltedCapsuleContactPointBug(t *testing.T) {
	box, _ := shape.NewAABB(2, 1)                                       // top face at y = 1
	rest, _ := shape.NewCapsule(shape.V(-2, 0.5), shape.V(2, 0.5), 0.5) // top side at y = 1
	tilted, _ := shape.NewCapsule(shape.V(-1, 0.75), shape.V(1, 1.25), 0.5)
	side := 1.25 - math.Sqrt(17)/8 // the tilted capsule's surface below x = 1
	for _, c := range []struct {
		name string
		a    shape.Shape
	}{{"box", box}, {"capsule", rest}} {
		t.Run(c.name, func(t *testing.T) {
			for _, flip := range []bool{false, true} {
				var m narrowphase.Manifold
				var ok bool
				if flip {
					m, ok = narrowphase.Collide(tilted, shape.Identity, c.a, shape.Identity)
					m = m.Flip()
				} else {
					m, ok = narrowphase.Collide(c.a, shape.Identity, tilted, shape.Identity)
				}
				if !ok || m.Normal != shape.V(0, 1) || math.Abs(m.Depth-0.75) > 1e-12 || m.Count != 2 {
					t.Fatalf("Collide(%s, capsule) (flipped %v) = %+v, %v; want normal (0, 1), depth 0.75, two points", c.name, flip, m, ok)
				}
				want := []narrowphase.ContactPoint{
					{Point: shape.V(-1, 0.625), Depth: 0.75},         // the lower end's cap, under its centre
					{Point: shape.V(1, (1+side)/2), Depth: 1 - side}, // the side, under the upper end
				}
				for _, w := range want {
					found := false
					for _, p := range m.Points[:m.Count] {
						if p.Point.Sub(w.Point).Len() < 1e-12 && math.Abs(p.Depth-w.Depth) < 1e-12 {
							found = true
						}
					}
					if !found {
						t.Errorf("Collide(%s, capsule) (flipped %v).Points = %+v, want one at %v with depth %.17g", c.name, flip, m.Points, w.Point, w.Depth)
					}
				}
			}
		})
	}
}

// TestAlignedCapsuleEndsTwoPointsBug: a capsule lying parallel on a face
// with an end exactly above the face's end (a box's corner, or the end of
// another capsule's core) got one contact point, not two: the end and the
// corner (or the two ends) are exactly as near as the end and the face, and
// the tie went to the end-to-corner feature, which gives a single point.
// The faces overlap along the tangent all the same: two points at the ends
// of the overlap, each with the full depth. Found by
// TestExactOracleContactPoints (aabb-capsule, seed 1, -exactscale 2).
func TestAlignedCapsuleEndsTwoPointsBug(t *testing.T) {
	box, _ := shape.NewAABB(1, 1)                                       // top face from (−1, 1) to (1, 1)
	rest, _ := shape.NewCapsule(shape.V(-1, 0.5), shape.V(1, 0.5), 0.5) // top side at y = 1
	short, _ := shape.NewCapsule(shape.V(-1, 1.5), shape.V(1, 1.5), 0.75)
	long, _ := shape.NewCapsule(shape.V(-1, 1.5), shape.V(3, 1.5), 0.75)
	cases := []struct {
		name string
		a, b shape.Shape
		want [2]shape.Vec2 // the points, by x
	}{
		{"box, capsule of its width", box, short, [2]shape.Vec2{shape.V(-1, 0.875), shape.V(1, 0.875)}},
		{"box, capsule from its corner on", box, long, [2]shape.Vec2{shape.V(-1, 0.875), shape.V(1, 0.875)}},
		{"capsules of one span", rest, short, [2]shape.Vec2{shape.V(-1, 0.875), shape.V(1, 0.875)}},
		{"capsule from the other's end on", rest, long, [2]shape.Vec2{shape.V(-1, 0.875), shape.V(1, 0.875)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, flip := range []bool{false, true} {
				var m narrowphase.Manifold
				var ok bool
				if flip {
					m, ok = narrowphase.Collide(c.b, shape.Identity, c.a, shape.Identity)
					m = m.Flip()
				} else {
					m, ok = narrowphase.Collide(c.a, shape.Identity, c.b, shape.Identity)
				}
				if !ok || m.Normal != shape.V(0, 1) || math.Abs(m.Depth-0.25) > 1e-12 || m.Count != 2 {
					t.Fatalf("Collide (flipped %v) = %+v, %v; want normal (0, 1), depth 0.25, two points", flip, m, ok)
				}
				p := m.Points
				if p[0].Point.X > p[1].Point.X {
					p[0], p[1] = p[1], p[0]
				}
				for i := range 2 {
					if p[i].Point.Sub(c.want[i]).Len() > 1e-12 || math.Abs(p[i].Depth-0.25) > 1e-12 {
						t.Errorf("Collide (flipped %v).Points = %+v, want %v with depth 0.25", flip, m.Points, c.want)
					}
				}
			}
		})
	}
}

// TestCastCompoundStartOverlapIsCollideBug: a cast with a compound that
// overlaps the other shape at the start must hit at 0 with Collide's first
// point and negated normal (Cast's contract), which for a compound is the
// deepest part pair's. It gave the first part pair in order that
// overlaps instead: here part 0 of the compound, overlapping the box by
// 0.125 along +Y, not part 1, which overlaps it by 0.5 along −X. Found by
// TestExactOracleCompositeCast.
func TestCastCompoundStartOverlapIsCollideBug(t *testing.T) {
	box, _ := shape.NewOBB(1, 1)
	comp, _ := shape.NewCompound([]shape.Part{
		{Shape: box, Offset: shape.Identity},
		{Shape: box, Offset: shape.Transform{Pos: shape.V(3, 0.5)}},
	})
	b, _ := shape.NewAABB(1, 1)
	tb := shape.Transform{Pos: shape.V(1.5, 1.875)}
	for _, base := range []float64{0, 1e6} {
		tc := shape.Transform{Pos: shape.V(base, base)}
		tb := shape.Transform{Pos: tb.Pos.Add(tc.Pos)}
		m, ok := narrowphase.Collide(comp, tc, b, tb)
		if !ok || m.Normal != shape.V(-1, 0) || m.Depth != 0.5 {
			t.Fatalf("base %g: Collide(compound, box) = %+v, %v; want normal (-1, 0), depth 0.5", base, m, ok)
		}
		for _, delta := range []shape.Vec2{{}, shape.V(1, 0), shape.V(0, -3)} {
			h, ok := narrowphase.Cast(comp, tc, delta, b, tb)
			if want := (narrowphase.CastHit{Point: m.Points[0].Point, Normal: m.Normal.Neg()}); !ok || h != want {
				t.Errorf("base %g: Cast(compound by %v, box) = %+v, %v; want %+v", base, delta, h, ok, want)
			}
			h, ok = narrowphase.Cast(b, tb, delta, comp, tc)
			if want := (narrowphase.CastHit{Point: m.Points[0].Point, Normal: m.Normal, Part: 1}); !ok || h != want {
				t.Errorf("base %g: Cast(box by %v, compound) = %+v, %v; want %+v", base, delta, h, ok, want)
			}
		}
	}
}
