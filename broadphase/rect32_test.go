package broadphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestRound32IsOutwardAndTight: down32 and up32 give a float32 value (or x
// itself beyond float32's range) on the right side of x, and no float32
// value lies strictly between; to32 keeps the order of every pair of
// values, so an overlap of boxes is an overlap of their tree rectangles.
func TestRound32IsOutwardAndTight(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 32))
	special := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 1e-45, -1e-45, 1e7 + 0.1, -1e7 - 0.1,
		math.MaxFloat32, -math.MaxFloat32, math.MaxFloat32 * (1 + 1e-9), -math.MaxFloat32 * (1 + 1e-9),
		1e38, -1e38, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	for range 20000 {
		x := math.Float64frombits(r.Uint64())
		if x != x || math.IsInf(x, 0) {
			continue
		}
		switch r.IntN(3) {
		case 0:
			x = math.Mod(x, 1e9)
		case 1:
			x = float64(r.Float64()-0.5) * math.Pow(10, float64(r.IntN(80)-40))
		}
		special = append(special, x)
	}
	for _, x := range special {
		lo, hi := down32(x), up32(x)
		inRange := math.Abs(x) <= math.MaxFloat32
		for _, c := range []struct {
			name string
			v    float64
			ok   bool
		}{{"down32", lo, lo <= x}, {"up32", hi, hi >= x}} {
			if !c.ok {
				t.Fatalf("%s(%v) = %v, on the wrong side", c.name, x, c.v)
			}
			if inRange && float64(float32(c.v)) != c.v {
				t.Fatalf("%s(%v) = %v, not a float32 value", c.name, x, c.v)
			}
			if !inRange && c.v != x && math.Abs(c.v) != math.MaxFloat32 {
				t.Fatalf("%s(%v) = %v beyond float32's range", c.name, x, c.v)
			}
		}
		if inRange && lo != hi && float64(next32(float32(lo), 1)) != hi {
			t.Fatalf("down32(%v) = %v and up32 = %v are not neighbours", x, lo, hi)
		}
		if inRange && lo == x && hi != x {
			t.Fatalf("%v is a float32 value, but up32 = %v", x, hi)
		}
		if got, want := lo32([2]float64{x, x}), (rect32{to32(lo), to32(lo)}); got != want {
			t.Fatalf("lo32(%v) = %v, want to32(down32) = %v", x, got, want)
		}
		if got, want := hi32([2]float64{x, x}), (rect32{to32(hi), to32(hi)}); got != want {
			t.Fatalf("hi32(%v) = %v, want to32(up32) = %v", x, got, want)
		}
		y := special[r.IntN(len(special))]
		if x <= y && !(to32(lo) <= to32(up32(y))) {
			t.Fatalf("%v <= %v, but to32 gives %v > %v", x, y, to32(lo), to32(up32(y)))
		}
	}
}

// TestFatBoxesAreTreeRectangles: a fat box is made of float32 values (or
// values beyond float32's range), so the tree holds it exactly.
func TestFatBoxesAreTreeRectangles(t *testing.T) {
	for _, base := range []float64{0, 0.1, 1e7 + 0.3, -3e12, 1e300} {
		b := fattenTest(base)
		for _, v := range []float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y} {
			if math.Abs(v) <= math.MaxFloat32 && float64(float32(v)) != v {
				t.Errorf("fat box %v at %g has %v, not a float32 value", b, base, v)
			}
		}
	}
}

// fattenTest returns the fat box of a unit box at (base, base) moving by
// (0.3, −0.7).
func fattenTest(base float64) shape.AABB {
	return fatten(shape.AABB{Min: shape.V(base, base), Max: shape.V(base+1, base+1)}, shape.V(0.3, -0.7), 0.1, 4)
}
