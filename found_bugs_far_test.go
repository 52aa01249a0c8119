package collide_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
)

// TestRayCastEndsAtFarEntryBug: a ray from 1e6, 1e9 or 1e12 away whose
// maxDist is exactly where narrowphase.RayCast enters a body (the oracle's
// "ray that ends on a body"). The broad phase's slab test, with the far
// origin in it, rounds the entry into the body's box by an ulp of the
// distance, and dropped the box as beginning past maxDist: RayCastAll left
// out a body that RayCast itself hits at maxDist
// (TestOracleConfigs/no-margin -ocseed 6532445100564963370).
func TestRayCastEndsAtFarEntryBug(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	// No fat margin: the bodies' boxes are their shapes' own.
	w := collide.NewWorld(collide.Config{Workers: 1, Margin: -1, MotionFrames: -1})
	type body struct {
		id collide.BodyID
		s  collide.Shape
		t  collide.Transform
	}
	var bodies []body
	for range 40 {
		var s collide.Shape
		if rng.IntN(2) == 0 {
			s, _ = collide.NewAABB(0.25+rng.Float64(), 0.25+rng.Float64())
		} else {
			s, _ = collide.NewOBB(0.25+rng.Float64(), 0.25+rng.Float64())
		}
		tr := collide.NewTransform(collide.V(20*rng.Float64()-10, 20*rng.Float64()-10), rng.Float64()*6)
		id, err := w.Add(collide.BodyDef{Shape: s, Position: tr.Pos, Angle: tr.Rot.Angle(), Kind: collide.Static})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := w.Body(id)
		bodies = append(bodies, body{id, s, collide.NewTransform(b.Position, b.Angle)})
	}
	w.Step()
	missed := 0
	for k := range 3000 {
		b := bodies[rng.IntN(len(bodies))]
		far := []float64{1e6, 1e9, 1e12}[k%3]
		th := rng.Float64() * 2 * math.Pi
		aim := b.t.Pos.Add(collide.V(rng.Float64()-0.5, rng.Float64()-0.5))
		origin := aim.Add(collide.V(math.Cos(th), math.Sin(th)).Scale(far))
		dir := aim.Sub(origin).Normalize()
		h, ok := narrowphase.RayCast(b.s, b.t, origin, dir, math.Inf(1))
		if !ok {
			continue
		}
		maxDist := h.Distance
		found := false
		err := w.RayCastAll(origin, dir, maxDist, collide.Filter{}, func(g collide.RayHit) bool {
			found = found || g.Body == b.id
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			missed++
			if missed <= 3 {
				t.Errorf("RayCastAll(%v, %v, %v) left out body %v, which RayCast enters at exactly maxDist", origin, dir, maxDist, b.id)
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d rays missed the body they end on", missed)
	}
}
