package shape_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestSinCosMatchesMath compares SinCos with math.Sincos over the angles a
// game meets and beyond: within 2 ulps (of 1) everywhere.
func TestSinCosMatchesMath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(x float64) {
		t.Helper()
		s, c := shape.SinCos(x)
		ws, wc := math.Sincos(x)
		if math.Abs(s-ws) > 4.5e-16 || math.Abs(c-wc) > 4.5e-16 {
			t.Fatalf("SinCos(%v) = %v, %v; math.Sincos gives %v, %v", x, s, c, ws, wc)
		}
	}
	for _, x := range []float64{0, math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 2, 2 * math.Pi, -math.Pi / 3, 1e-300, 1e5, 1 << 20} {
		check(x)
		check(-x)
	}
	for range 200000 {
		check(float64(r.Float64()*20) - 10)
	}
	for range 20000 {
		check(float64(r.Float64() * 1e6))
	}
	if s, c := shape.SinCos(math.NaN()); !math.IsNaN(s) || !math.IsNaN(c) {
		t.Errorf("SinCos(NaN) = %v, %v, want NaN, NaN", s, c)
	}
}
