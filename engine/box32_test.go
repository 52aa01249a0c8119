package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestRound32Conservative checks round32 at every scale, from 1e-300 to
// 1e300 and beyond float32's range: the rounded box holds the box, each
// edge is the nearest float32 outward (or an infinity beyond the range),
// and two boxes that overlap or touch have rounded boxes that do; points
// in a box are in its rounded box, and the rounded box's distance to a
// point is at most the box's.
func TestRound32Conservative(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	scales := []float64{1e-300, 1e-40, 1e-7, 1, 1e7, 3e38, 3.5e38, 1e300}
	edge := func(x float64, f float32, down bool) {
		t.Helper()
		switch {
		case down && !(float64(f) <= x), !down && !(float64(f) >= x):
			t.Fatalf("%v rounded %v to %v", x, map[bool]string{true: "down", false: "up"}[down], f)
		case math.IsInf(float64(f), 0):
			if math.Abs(x) <= math.MaxFloat32 {
				t.Fatalf("%v, within float32's range, rounded to %v", x, f)
			}
		case down && float64(step32(f, 1)) <= x, !down && float64(step32(f, -1)) >= x:
			t.Fatalf("%v rounded to %v, not the nearest float32", x, f)
		}
	}
	box := func(s float64) shape.AABB {
		c := shape.V((r.Float64()*2-1)*s, (r.Float64()*2-1)*s)
		h := shape.V(r.Float64()*s, r.Float64()*s)
		if r.IntN(8) == 0 {
			h = shape.Vec2{}
		}
		return shape.AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	for i := range 20000 {
		s := scales[i%len(scales)]
		a := box(s)
		if !a.IsFinite() {
			continue
		}
		ra := round32(a)
		edge(a.Min.X, ra.x0, true)
		edge(a.Min.Y, ra.y0, true)
		edge(a.Max.X, ra.x1, false)
		edge(a.Max.Y, ra.y1, false)
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
		if a.Overlaps(b) && (!ra.overlaps(&rb) || !ra.overlapsAABB(b) || !rb.overlapsAABB(a)) {
			t.Fatalf("boxes %v and %v overlap, rounded %v and %v do not", a, b, ra, rb)
		}
		p := shape.V(a.Min.X+r.Float64()*(a.Max.X-a.Min.X), a.Min.Y+r.Float64()*(a.Max.Y-a.Min.Y))
		if a.Contains(p) && !ra.contains(p) {
			t.Fatalf("point %v in %v, not in rounded %v", p, a, ra)
		}
		q := shape.V((r.Float64()*2-1)*s, (r.Float64()*2-1)*s)
		dx := max(a.Min.X-q.X, q.X-a.Max.X, 0)
		dy := max(a.Min.Y-q.Y, q.Y-a.Max.Y, 0)
		if d := boxDistSq(q, &ra); d > float64(dx*dx)+float64(dy*dy) || math.IsNaN(d) {
			t.Fatalf("point %v: rounded box %v at squared distance %v, box %v at %v", q, ra, d, a, float64(dx*dx)+float64(dy*dy))
		}
	}
}

// TestRound32Edges checks the values at the ends of float32's range and at
// zero.
func TestRound32Edges(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	for _, tc := range []struct {
		x        float64
		down, up float32
	}{
		{0, 0, 0},
		{tiny, 0, math.SmallestNonzeroFloat32},
		{-tiny, -math.SmallestNonzeroFloat32, 0},
		{1, 1, 1},
		{0.1, 0.099999994, 0.1},
		{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32},
		{1e39, math.MaxFloat32, float32(math.Inf(1))},
		{-1e39, float32(math.Inf(-1)), -math.MaxFloat32},
		{math.MaxFloat64, math.MaxFloat32, float32(math.Inf(1))},
	} {
		if d, u := down32(tc.x), up32(tc.x); d != tc.down || u != tc.up {
			t.Errorf("%v: down32 %v up32 %v, want %v %v", tc.x, d, u, tc.down, tc.up)
		}
	}
}
