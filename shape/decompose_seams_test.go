package shape_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestDecomposeSeamsCovered checks the seams between Decompose's pieces,
// where a cut point rounded off an earlier cut could leave a gap a rounding
// step wide, or an overlap, that random sample points rarely meet. On the
// hunt's outlines (TestHunt13DecomposeExact's generators and placements),
// around the middle of every piece edge that does not lie along the
// outline, the floats up to three steps away on each axis that are inside
// the outline (exact winding number), more than four rounding steps from
// it, and farther from the seam than Decompose's tolerance and a rounding
// step (a piece may drop a vertex that turns by less than 1e-12, moving
// its edge by up to that much of the outline's size, and a cut point
// rounds by up to half a step on each axis, so this checks outlines whose
// rounding step is coarser than the tolerance) must lie in some piece
// (closed, exact orientations) and in the interior of at most one.
func TestDecomposeSeamsCovered(t *testing.T) {
	r := newRand(t)
	seams := 0
	for range iters(3000, 300) {
		name, model := h13Gen(r)
		c := h13Place(r, name, model)
		pieces, err := shape.Decompose(c.in)
		if err != nil {
			continue
		}
		in := c.in
		maxAbs := 0.0
		for _, p := range in {
			maxAbs = max(maxAbs, math.Abs(p.X), math.Abs(p.Y))
		}
		ulp := math.Nextafter(maxAbs, math.Inf(1)) - maxAbs
		tol := 1e-11 * h13Size(in)
		if 3*ulp <= tol {
			continue // every point checked would be within the tolerance
		}
		o := in[0]
		nearOutline := func(p shape.Vec2) bool {
			for k := range in {
				if h13SegDist(o, p, p, in[k], in[(k+1)%len(in)]) <= 4*ulp {
					return true
				}
			}
			return false
		}
		boxes := make([]shape.AABB, len(pieces))
		for i, pc := range pieces {
			boxes[i] = shape.AABBFromPoints(pc...)
		}
		for _, pc := range pieces {
			for k := range pc {
				a, b := pc[k], pc[(k+1)%len(pc)]
				m := shape.V(a.X+(b.X-a.X)/2, a.Y+(b.Y-a.Y)/2)
				if nearOutline(m) {
					continue // along the outline, or too near it to tell
				}
				seams++
				x := m.X
				for range 3 {
					x = math.Nextafter(x, math.Inf(-1))
				}
				for range 7 {
					y := m.Y
					for range 3 {
						y = math.Nextafter(y, math.Inf(-1))
					}
					for range 7 {
						q := shape.V(x, y)
						if h13Winding(in, q)%2 != 0 && !nearOutline(q) && h13SegDist(o, q, q, a, b) > max(tol, ulp) {
							if closed, open := h13PiecesAt(pieces, boxes, q); closed == 0 || open > 1 {
								t.Fatalf("case %s: point %v beside the seam %v–%v (%.2f ulps from it) is in %d pieces (%d interiors)\nin = %#v", c.name, q, a, b, h13SegDist(o, q, q, a, b)/ulp, closed, open, in)
							}
						}
						y = math.Nextafter(y, math.Inf(1))
					}
					x = math.Nextafter(x, math.Inf(1))
				}
			}
		}
	}
	t.Logf("%d seams checked", seams)
}
