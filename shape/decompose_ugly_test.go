package shape_test

import (
	"errors"
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestDecomposeUglyStars decomposes random star-shaped outlines (simple by
// construction: vertex angles about the origin never decrease) made ugly
// on purpose: needle spikes far out, near-duplicate vertices 1e-9 and
// 1e-13 of the size apart along a ray from the centre (where a cut can
// leave a triangle thinner than the coordinates' ulp:
// TestPolygonThinnerThanRoundingBug), runs of vertices on
// an edge with a wobble of 1e-11 (these near the origin only), outlines of
// 1,000 vertices, either winding, near the origin and at 1e6. Every success is checked by dcCheck
// (convex CCW pieces NewPolygon keeps unchanged, area sum to 1e-9, no
// overlap, point membership against even–odd crossing); the only error a
// simple outline may get is ErrCollinear (a vertex too close to straight
// to cut at this precision).
func TestDecomposeUglyStars(t *testing.T) {
	r := newRand(t)
	counts := map[string]int{}
	for it := range iters(120, 12) {
		n := 4 + r.IntN(40)
		if it%40 == 0 {
			n = 1000
		}
		// Near-duplicates and wobbly runs only near the origin: at 1e6 their
		// offsets are below the coordinates' rounding, which can make the
		// outline touch itself for real.
		ugly := r.IntN(2) == 0
		var pts []shape.Vec2
		for i := range n {
			a := 2 * math.Pi * (float64(i) + 0.9*r.Float64()) / float64(n)
			rad := 2 + 6*r.Float64()
			switch r.IntN(8) {
			case 0: // a needle spike
				rad = 30 + 50*r.Float64()
			case 1: // a deep notch
				rad = 0.5
			}
			s, c := math.Sincos(a)
			p := shape.V(rad*c, rad*s)
			pts = append(pts, p)
			switch k := r.IntN(10); {
			case !ugly:
			case k == 0: // a near-duplicate further out along the same ray
				pts = append(pts, p.Scale(1+1e-9))
			case k == 1: // one that cleaning merges
				pts = append(pts, p.Scale(1+1e-13))
			}
		}
		// Runs on some edges, each point off the line by a wobble.
		var out []shape.Vec2
		for i, a := range pts {
			out = append(out, a)
			if ugly && r.IntN(6) == 0 {
				b := pts[(i+1)%len(pts)]
				e := b.Sub(a)
				nrm := shape.V(-e.Y, e.X)
				k := 2 + r.IntN(5)
				for j := 1; j < k; j++ {
					f := float64(j) / float64(k)
					out = append(out, a.Add(e.Scale(f)).Add(nrm.Scale(1e-11*(r.Float64()-0.5))))
				}
			}
		}
		if r.IntN(2) == 0 {
			out = dcReversed(out)
		}
		if !ugly && r.IntN(2) == 0 {
			out = dcOffset(out, 1e6, -1e6)
		}
		pieces, err := shape.Decompose(out)
		switch {
		case err == nil:
			counts["ok"]++
			dcCheck(t, r, out, pieces, 200)
		case errors.Is(err, shape.ErrCollinear):
			counts["collinear"]++
			t.Logf("collinear: %v", err)
		default:
			t.Fatalf("Decompose(%d vertices, simple by construction) error = %v\n%v", len(out), err, out)
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("outcomes: %v", counts)
}
