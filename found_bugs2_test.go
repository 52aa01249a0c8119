package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
)

// TestQueryAABBFarTouchingBug: QueryAABB rebuilt the query box from its
// centre and half extents, both rounded, so far from the origin its edges
// moved by up to an ulp of the coordinates: a body whose edge lies on the
// box's edge (touching, not a hit) was reported, and one overlapping the
// box by less than an ulp could be missed.
func TestQueryAABBFarTouchingBug(t *testing.T) {
	for _, base := range []float64{1e6, 1e7, 1e12} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		box, _ := collide.NewAABB(1, 1)
		id, err := w.Add(collide.BodyDef{Shape: box, Position: collide.V(base, -base)})
		if err != nil {
			t.Fatal(err)
		}
		edge := base + 1 // the body's right edge, exact
		ulp := math.Nextafter(edge, math.Inf(1)) - edge
		for k := 1; k <= 9; k++ {
			// Touching: the query box starts on the body's right edge.
			q := collide.AABB{Min: collide.V(edge, -base-0.5), Max: collide.V(edge+float64(k)*ulp, -base+0.5)}
			var got []collide.BodyID
			_ = w.QueryAABB(q, collide.Filter{}, func(b collide.BodyID) bool { got = append(got, b); return true })
			if len(got) != 0 {
				t.Errorf("at %g: QueryAABB(%v) = %v, want none (the box touches the body's edge at x = %v)", base, q, got, edge)
			}
			// Overlapping by one ulp: a hit.
			q.Min.X = edge - ulp
			got = got[:0]
			_ = w.QueryAABB(q, collide.Filter{}, func(b collide.BodyID) bool { got = append(got, b); return true })
			if len(got) != 1 || got[0] != id {
				t.Errorf("at %g: QueryAABB(%v) = %v, want [%v] (the box overlaps the body by an ulp)", base, q, got, id)
			}
		}
		w.Close()
	}
}
