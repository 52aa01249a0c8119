package collide_test

import (
	"testing"

	"github.com/collide-go/collide"
)

// TestQueryAABBTouchAfterClipBug: a circle whose left side touches the
// query box's right edge exactly (centre 16.850557773101762, radius
// 0.6875, edge 16.163057773101762: the difference is exact) is no hit,
// touching being no contact. The box's centre and half extents do not
// give back its edges, so QueryAABB tests the circle in its own frame,
// with the box clipped to the circle's reach; the clipped box, rebuilt
// from its rounded centre and half extents, reached an ulp past the edge
// and overlapped the circle by 8.9e-16 (TestWorldDifferentialEveryMutation,
// seed 18183823265887378352).
func TestQueryAABBTouchAfterClipBug(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	c, err := collide.NewCircle(0.6875)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(collide.BodyDef{Shape: c, Position: collide.V(16.850557773101762, 1.284817708578089), Angle: 1.8595636970406428}); err != nil {
		t.Fatal(err)
	}
	box := collide.AABB{Min: collide.V(15.00680777310176, 0.784817708578089), Max: collide.V(16.163057773101762, 2.066067708578089)}
	if h, ctr := box.HalfExtents(), box.Center(); ctr.Sub(h) == box.Min && ctr.Add(h) == box.Max {
		t.Fatal("the box's centre and half extents give back its edges: the case tests the other path")
	}
	n := 0
	if err := w.QueryAABB(box, collide.Filter{}, func(collide.BodyID) bool { n++; return true }); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("QueryAABB found %d bodies; the circle only touches the box", n)
	}
	// Moved 1e-12 into the box, it overlaps.
	w2 := collide.NewWorld(collide.Config{Workers: 1})
	if _, err := w2.Add(collide.BodyDef{Shape: c, Position: collide.V(16.850557773101762-1e-12, 1.284817708578089)}); err != nil {
		t.Fatal(err)
	}
	n = 0
	_ = w2.QueryAABB(box, collide.Filter{}, func(collide.BodyID) bool { n++; return true })
	if n != 1 {
		t.Errorf("QueryAABB found %d bodies; the circle overlaps the box by 1e-12", n)
	}
}
