package collide_test

import (
	"testing"

	"github.com/collide-go/collide"
)

// TestRayStartInsideCompoundPartBug: a ray starting strictly inside a
// compound's part hit at distance 0 with Part 0 whatever part held its
// origin, while one starting on a part's boundary named that part: a
// hitscan fired from inside a body's second part (a head) was reported on
// its first (the torso). RayHit.Part is the part hit; for a ray that starts
// inside, the (lowest-indexed) part that holds the origin
// (TestHunt9RayAndCastOracle found it).
func TestRayStartInsideCompoundPartBug(t *testing.T) {
	torso, _ := collide.NewOBB(1, 1)
	head, _ := collide.NewCircle(0.5)
	s, err := collide.NewCompound([]collide.Part{
		{Shape: torso, Offset: collide.NewTransform(collide.V(0, 0), 0)},
		{Shape: head, Offset: collide.NewTransform(collide.V(0, 2), 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	id, _ := w.Add(collide.BodyDef{Shape: s, Position: collide.V(10, 0)})
	for _, c := range []struct {
		name   string
		origin collide.Vec2
		part   int
	}{
		{"inside the head", collide.V(10, 2.1), 1},
		{"on the head's top", collide.V(10, 2.5), 1},
		{"inside the torso", collide.V(10.5, 0), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, ok, err := w.RayCast(c.origin, collide.V(1, 0), 5, collide.Filter{})
			if err != nil || !ok || h.Body != id || h.Distance != 0 || h.Part != c.part {
				t.Errorf("RayCast from %v = %+v, %v, %v; want body %v part %d at distance 0", c.origin, h, ok, err, id, c.part)
			}
			n := 0
			_ = w.RayCastAll(c.origin, collide.V(1, 0), 5, collide.Filter{}, func(h collide.RayHit) bool {
				n++
				if h.Part != c.part {
					t.Errorf("RayCastAll from %v: %+v, want part %d", c.origin, h, c.part)
				}
				return true
			})
			if n != 1 {
				t.Errorf("RayCastAll from %v: %d hits, want 1", c.origin, n)
			}
		})
	}
}
