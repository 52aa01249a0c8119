package collide_test

import (
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
