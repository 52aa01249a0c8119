package narrowphase

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestTwoProdExact: p + e is the product a·b exactly, against math/big,
// for random values over the range the touch test meets (coordinates up
// to 1e150 and their rounding errors), and e is what the fused multiply-add
// gives.
func TestTwoProdExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 100000 {
		a := (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(300)-150))
		b := (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(300)-150))
		if i%7 == 0 {
			b = -a
		}
		p, e := twoProd(a, b)
		want := new(big.Float).SetPrec(2048).Mul(new(big.Float).SetFloat64(a), new(big.Float).SetFloat64(b))
		got := new(big.Float).SetPrec(2048).Add(new(big.Float).SetFloat64(p), new(big.Float).SetFloat64(e))
		if math.Abs(float64(a*b)) > 1e-250 && want.Cmp(got) != 0 {
			t.Fatalf("twoProd(%v, %v) = %v + %v, not the product", a, b, p, e)
		}
		if f := math.FMA(a, b, -p); math.Abs(float64(a*b)) > 1e-250 && f != e {
			t.Fatalf("twoProd(%v, %v) error %v, the fused multiply-add gives %v", a, b, e, f)
		}
	}
}
