package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestBox32Conservative checks the rounded boxes at every scale, from
// 1e-300 to 1e300 and beyond float32's range: two boxes that overlap or
// touch have rounded boxes that do, against each other and against either
// box; a point in a box is in its rounded box; the rounded box's distance
// to a point is within Nearest's margin of the box's; and insideStrictly
// never says a box lies in a fat box of float32 edges that it leaves.
func TestBox32Conservative(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	scales := []float64{1e-300, 1e-40, 1e-7, 1, 1e7, 3e38, 3.5e38, 1e300}
	box := func(s float64) shape.AABB {
		c := shape.V((r.Float64()*2-1)*s, (r.Float64()*2-1)*s)
		h := shape.V(r.Float64()*s, r.Float64()*s)
		if r.IntN(8) == 0 {
			h = shape.Vec2{}
		}
		return shape.AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	for i := range 40000 {
		s := scales[i%len(scales)]
		a := box(s)
		if !a.IsFinite() {
			continue
		}
		ra := round32(a)
		var b shape.AABB
		switch i % 3 {
		case 0:
			b = box(s)
		case 1: // touching a's right edge
			b = box(s)
			w := b.Max.X - b.Min.X
			b.Min.X, b.Max.X = a.Max.X, a.Max.X+w
		default: // a corner of a
			b = shape.AABB{Min: a.Max, Max: a.Max}
		}
		if !b.IsFinite() {
			continue
		}
		rb := round32(b)
		if a.Overlaps(b) && (!ra.overlaps(rb) || !ra.overlapsAABB(b) || !rb.overlapsAABB(a)) {
			t.Fatalf("boxes %v and %v overlap, rounded %v and %v do not", a, b, ra, rb)
		}
		p := shape.V(a.Min.X+r.Float64()*(a.Max.X-a.Min.X), a.Min.Y+r.Float64()*(a.Max.Y-a.Min.Y))
		if a.Contains(p) && !ra.contains(p) {
			t.Fatalf("point %v in %v, not in rounded %v", p, a, ra)
		}
		q := shape.V((r.Float64()*2-1)*s, (r.Float64()*2-1)*s)
		dx := max(a.Min.X-q.X, q.X-a.Max.X, 0)
		dy := max(a.Min.Y-q.Y, q.Y-a.Max.Y, 0)
		// Nearest's margin (pruneAt with its slack) covers the rounding.
		exact := math.Sqrt(float64(dx*dx) + float64(dy*dy))
		if d := math.Sqrt(boxDistSq(q, &ra)); d > exact+float64(0x1p-22*exact)+float64(0x1p-22*(math.Abs(q.X)+math.Abs(q.Y)))+0x1p-148 || math.IsNaN(d) {
			t.Fatalf("point %v: rounded box %v at distance %v, box %v at %v: beyond Nearest's margin", q, ra, d, a, exact)
		}
		// A fat box of float32 edges near a's: the edges a rounds to, or
		// one float32 step in or out.
		step := func(f float32, k int) float64 {
			for ; k > 0; k-- {
				f = math.Nextafter32(f, float32(math.Inf(1)))
			}
			for ; k < 0; k++ {
				f = math.Nextafter32(f, float32(math.Inf(-1)))
			}
			return float64(f)
		}
		fat := shape.AABB{Min: shape.V(step(ra.x0, r.IntN(3)-2), step(ra.y0, r.IntN(3)-2)), Max: shape.V(step(ra.x1, 2-r.IntN(3)), step(ra.y1, 2-r.IntN(3)))}
		if ra.insideStrictly(fat) && !fat.ContainsAABB(a) {
			t.Fatalf("box %v (rounded %v) said inside %v, which it leaves", a, ra, fat)
		}
	}
}

// TestBox32Edges checks boxes beyond float32's range.
func TestBox32Edges(t *testing.T) {
	inf := float32(math.Inf(1))
	far := round32(shape.AABB{Min: shape.V(1e39, -1e300), Max: shape.V(1e300, -1e39)})
	if far != (box32{inf, -inf, inf, -inf}) {
		t.Errorf("a box beyond float32's range rounded to %v, want infinite edges", far)
	}
	if !far.overlapsAABB(shape.AABB{Min: shape.V(2e39, -3e39), Max: shape.V(2e39, -3e39)}) {
		t.Errorf("a box beyond float32's range does not meet a point beyond it")
	}
}
