package shape_test

import (
	"errors"
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestDecomposeSkylines decomposes skylines: orthogonal outlines (a
// floor, then columns of random integer heights), where every reflex
// vertex's edge extensions run exactly into other vertices and edges, with
// many exactly collinear points added along the edges, near-duplicate
// points (an ulp or 1e-13 of the size away, which cleaning merges, and
// 1e-10, which it keeps), and tiny spikes and notches (1e-11 to 1e-3,
// some about cleaning's 1e-12 of the size) on the tops, near the origin and far from it,
// a third turned and scaled in float64; either way round. Every outline is simple by construction: Decompose must give a
// valid decomposition (dcCheck), or refuse with ErrCollinear (a vertex too
// close to straight to cut).
func TestDecomposeSkylines(t *testing.T) {
	r := newRand(t)
	counts := map[string]int{}
	for range iters(600, 60) {
		cols := 2 + r.IntN(12)
		w := 1.0 + float64(r.IntN(3))
		var top []shape.Vec2 // the skyline from right to left
		fine := false        // with features below the rounding at 1e6
		h := make([]float64, cols)
		for i := range h {
			h[i] = float64(1 + r.IntN(6))
		}
		for i := cols - 1; i >= 0; i-- {
			x0, x1 := float64(i)*w, float64(i+1)*w
			top = append(top, shape.V(x1, h[i]))
			// Along the top from x1 to x0: collinear points, spikes,
			// notches, near-duplicates.
			for k := 1; k < 4; k++ {
				x := x1 - w*float64(k)/4
				switch r.IntN(8) {
				case 0, 1, 2: // an exactly collinear point
					top = append(top, shape.V(x, h[i]))
				case 3: // a tiny spike up, some near cleaning's 1e-12 of the size
					fine = true
					s := []float64{1e-6, 1e-4, 1e-3, 1e-11, 4e-11, 1e-10, 1e-9}[r.IntN(7)]
					top = append(top, shape.V(x+w/16, h[i]), shape.V(x, h[i]+s), shape.V(x-w/16, h[i]))
				case 4: // a tiny notch down, narrow
					fine = true
					s := []float64{1e-6, 1e-4, 1e-3, 1e-10, 1e-9}[r.IntN(5)]
					top = append(top, shape.V(x+s, h[i]), shape.V(x, h[i]-s), shape.V(x-s, h[i]))
				case 5: // near-duplicates
					fine = true
					d := []float64{0x1p-52, 1e-13, 1e-10}[r.IntN(3)]
					top = append(top, shape.V(x, h[i]), shape.V(x-d, h[i]))
				}
			}
			top = append(top, shape.V(x0, h[i]))
			// Down or up to the next column, with a collinear point.
			if i > 0 && h[i-1] != h[i] && r.IntN(2) == 0 {
				top = append(top, shape.V(x0, (h[i]+h[i-1])/2))
			}
		}
		var out []shape.Vec2
		// The floor, with collinear points.
		out = append(out, shape.V(0, 0))
		for k := 1; k < cols; k++ {
			if r.IntN(2) == 0 {
				out = append(out, shape.V(float64(k)*w, 0))
			}
		}
		out = append(out, shape.V(float64(cols)*w, 0))
		out = append(out, top...)
		if r.IntN(2) == 0 {
			out = dcReversed(out)
		}
		turned := r.IntN(3) == 0
		if turned {
			// Turned and scaled in float64: the collinear runs and the
			// cuts' ends are then straight and on the edges only to
			// rounding.
			sn, cs := math.Sincos(r.Float64() * 2 * math.Pi)
			f := 0.1 + r.Float64()
			for i, p := range out {
				out[i] = shape.V(f*(cs*p.X-sn*p.Y), f*(sn*p.X+cs*p.Y))
			}
		}
		if !fine && r.IntN(3) == 0 {
			// Far away only without the tiny features: an ulp there is
			// 1.2e-10, and a near-duplicate rounded to it can fold the
			// outline back on itself for real.
			out = dcOffset(out, 1e6, -1e6)
		}
		// Start anywhere.
		k := r.IntN(len(out))
		out = append(append([]shape.Vec2(nil), out[k:]...), out[:k]...)
		pieces, err := shape.Decompose(out)
		switch {
		case err == nil:
			counts["ok"]++
			dcCheck(t, r, out, pieces, 200)
		case errors.Is(err, shape.ErrCollinear):
			counts["collinear"]++
			t.Logf("collinear (turned %v, tiny features %v): %v", turned, fine, err)
		default:
			t.Fatalf("Decompose(%d vertices, simple by construction) error = %v\n%v", len(out), err, out)
		}
		if t.Failed() {
			t.Logf("outline %v", out)
			return
		}
	}
	t.Logf("outcomes: %v", counts)
}
