package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
)

// TestNearestPolygonFarAwayBug: a polygon body parked 1e200 away (a
// server's "out of play" spot; any finite place is a valid one) was
// reported by Nearest as the nearest body at distance 0, ahead of a circle
// 4 units away. narrowphase.DistanceSq of a polygon took +Inf, its
// running minimum's start, for "inside every edge": a point so far that
// its squared distance from the nearest edge overflows to +Inf read as a
// point inside, distance 0 (TestHunt13World, seed 10059902480548423559,
// where NearestWithin's brute force met it). The squared distance is
// +Inf there, and Distance is +Inf.
func TestNearestPolygonFarAwayBug(t *testing.T) {
	tri := must[collide.Shape](t)(collide.NewPolygon([]collide.Vec2{{X: -0.875, Y: 0.25}, {X: -0.25, Y: -0.25}, {X: 1.125, Y: 1.25}}))
	circle := must[collide.Shape](t)(collide.NewCircle(1))
	for _, far := range []collide.Vec2{{X: 1e200}, {X: -1e300, Y: 5}, {X: 1e160, Y: 1e160}, {Y: -1e155}} {
		xf := collide.NewTransform(far, 0.5)
		p := collide.V(5, 0)
		if d := narrowphase.DistanceSq(tri, xf, p); d < 1e300 {
			t.Errorf("DistanceSq(triangle at %v, %v) = %v, want +Inf", far, p, d)
		}
		if d := narrowphase.Distance(tri, xf, p); d < 1e150 {
			t.Errorf("Distance(triangle at %v, %v) = %v, want about %v", far, p, d, far.Len())
		}
		w := collide.NewWorld(collide.Config{Workers: 1})
		near := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: circle}))
		parked := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: tri, Position: far, Angle: 0.5}))
		var got []collide.BodyID
		var dists []float64
		if err := w.Nearest(p, 2, collide.Filter{}, func(id collide.BodyID, d float64) bool {
			got, dists = append(got, id), append(dists, d)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0] != near || dists[0] != 4 || (len(got) == 2 && (got[1] != parked || dists[1] < 1e150)) {
			t.Errorf("Nearest(%v, 2) with a triangle parked at %v = %v at %v, want the circle %v at 4 first (then the triangle, far)", p, far, got, dists, near)
		}
	}
}

// TestCastShapeTinyMotionBug: CastShape of a unit circle moved by 1e-160
// along x reported a hit at fraction 0 against a circle whose surface is
// 0.0625 away: the circles' cast divided r² by |delta|², which overflowed
// to +Inf, so the entry came out as −Inf, clamped to 0. Every convex cast
// with a circle, capsule, segment or polygon went wrong below a motion of
// about 1e-154, where |delta|² underflows. A touch at the start is still a
// hit at 0.
func TestCastShapeTinyMotionBug(t *testing.T) {
	unit := must[collide.Shape](t)(collide.NewCircle(1))
	capsule := must[collide.Shape](t)(collide.NewCapsule(collide.V(-1, 0), collide.V(1, 0), 0.5))
	for _, s := range []collide.Shape{unit, capsule} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: unit, Position: collide.V(2.0625, 0)}))
		xf := collide.NewTransform(collide.V(0, 0), 0)
		if s.Kind() == unit.Kind() {
			xf.Pos.X = 0 // 0.0625 apart
		} else {
			xf.Pos.X = -0.5 // 0.0625 apart
		}
		for _, d := range []collide.Vec2{{X: 1e-160}, {X: 1e-200, Y: 1e-210}, {X: 5e-324}} {
			if h, ok, err := w.CastShape(s, xf, d, collide.Filter{}); ok || err != nil {
				t.Errorf("CastShape(%v at %v, delta %v) = %+v, %v, %v; want no hit: it ends 0.0625 short", s, xf.Pos, d, h, ok, err)
			}
			n := 0
			_ = w.CastShapeAll(s, xf, d, collide.Filter{}, func(collide.ShapeHit) bool { n++; return true })
			if n != 0 {
				t.Errorf("CastShapeAll(%v, delta %v) gives %d hits, want none", s, d, n)
			}
		}
	}
	// Touching at the start: a hit at 0 whatever the motion.
	w := collide.NewWorld(collide.Config{Workers: 1})
	id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: unit, Position: collide.V(2.0625, 0)}))
	for _, d := range []collide.Vec2{{X: 1e-160}, {X: -1e-300}, {Y: 5e-324}} {
		h, ok, err := w.CastShape(unit, collide.NewTransform(collide.V(0.0625, 0), 0), d, collide.Filter{})
		if !ok || err != nil || h.Body != id || h.Fraction != 0 {
			t.Errorf("CastShape(unit circle touching another, delta %v) = %+v, %v, %v; want a hit at 0", d, h, ok, err)
		}
	}
}

// TestNearestInfTieBug: bodies more than about 1e154 from the query point
// are all +Inf away (their squared distance overflows), so among them the
// tie goes to the lower id, as Nearest's doc says. The square search
// stopped once the k-th best squared distance was within the square's
// squared half side: past 1.3e154 that square overflows to +Inf too, and
// +Inf ≤ +Inf ended the search with the +Inf bodies met so far, before
// the square reached a lower id farther out (TestHunt13World, seed
// 10874327422496528347).
func TestNearestInfTieBug(t *testing.T) {
	circle := must[collide.Shape](t)(collide.NewCircle(1))
	w := collide.NewWorld(collide.Config{Workers: 1})
	// The lowest id farthest, then five more, all beyond 1e154, enough
	// bodies that Nearest searches growing squares.
	first := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: circle, Position: collide.V(1e300, 0)}))
	for i := range 5 {
		must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: circle, Position: collide.V(0, -1e155*float64(i+1))}))
	}
	for _, k := range []int{1, 2} {
		var got []collide.BodyID
		var dists []float64
		if err := w.Nearest(collide.V(0, 0), k, collide.Filter{}, func(id collide.BodyID, d float64) bool {
			got, dists = append(got, id), append(dists, d)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != k || got[0] != first || !math.IsInf(dists[0], 1) {
			t.Errorf("Nearest(0, %d) = %v at %v, want %v first at +Inf (every body is +Inf away; the lowest id wins)", k, got, dists, first)
		}
	}
}
