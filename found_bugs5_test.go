package collide_test

import (
	"testing"

	"github.com/collide-go/collide"
)

// TestQueryAABBHugeBoxMissesOverlapBug: a box whose centre and half
// extents give back its edges exactly was tested as one shape, in its own
// frame, whatever its size. A box 1e12 wide, the half-plane y > 0 as a
// box, has its centre at y = 5e11, where a body near its edge y = 0 is
// rounded by an ulp of 5e11 (6e-5): a unit circle reaching 1e-6 into the
// box was missed (TestOracleConfigs, seed 2128193266406223853, found it
// with a capsule 7e-8 deep). The same query with a box 20 wide found it.
func TestQueryAABBHugeBoxMissesOverlapBug(t *testing.T) {
	c, err := collide.NewCircle(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, far := range []float64{1e6, 1e9, 1e12, 1e15, 1e300} {
		for _, top := range []float64{1e-6, 1e-9} { // the circle's top, inside the box
			w := collide.NewWorld(collide.Config{Workers: 1})
			if _, err := w.Add(collide.BodyDef{Shape: c, Position: collide.V(3, top-1)}); err != nil {
				t.Fatal(err)
			}
			for _, box := range []collide.AABB{
				{Min: collide.V(-far, 0), Max: collide.V(far, far)},
				{Min: collide.V(-far, -far), Max: collide.V(far, top/2)}, // the circle's top is above the box's: overlaps too
			} {
				n := 0
				if err := w.QueryAABB(box, collide.Filter{}, func(collide.BodyID) bool { n++; return true }); err != nil {
					t.Fatal(err)
				}
				if n != 1 {
					t.Errorf("QueryAABB(%v) found %d bodies, want the unit circle at (3, %v) whose top is at %v", box, n, top-1, top)
				}
			}
			w.Close()
		}
	}
}
