package narrowphase

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// checkTwoProd checks twoProd(a, b) against math/big and the fused
// multiply-add: p is a·b rounded, e is a·b − p rounded once to nearest
// even (subnormals included), p + e = a·b exactly whenever that
// difference is a float, and e is bit for bit (sign of zero included)
// math.FMA(a, b, -p), which Go computes correctly rounded on every CPU.
// The test may call math.FMA: the arm64 check of .ci/run builds the
// library, not its tests. It returns whether the error was exact.
func checkTwoProd(t *testing.T, a, b float64) bool {
	t.Helper()
	p, e := twoProd(a, b)
	if math.Float64bits(p) != math.Float64bits(a*b) {
		t.Fatalf("twoProd(%v, %v) = %v, want p = %v", a, b, p, a*b)
	}
	if f := math.FMA(a, b, -p); math.Float64bits(f) != math.Float64bits(e) && !(math.IsNaN(f) && math.IsNaN(e)) {
		t.Fatalf("twoProd(%v, %v) error %v (%#x), the fused multiply-add gives %v (%#x)", a, b, e, math.Float64bits(e), f, math.Float64bits(f))
	}
	if math.IsInf(p, 0) || math.IsNaN(p) {
		return false
	}
	// 2,300 bits hold any product of two floats and its difference
	// from a float exactly.
	prod := new(big.Float).SetPrec(2300).Mul(new(big.Float).SetFloat64(a), new(big.Float).SetFloat64(b))
	diff := new(big.Float).SetPrec(2300).Sub(prod, new(big.Float).SetFloat64(p))
	want, _ := diff.Float64() // to nearest even, subnormals included
	if want != e && !(want == 0 && e == 0) {
		t.Fatalf("twoProd(%v, %v) error %v, want a·b − p = %v rounded, %v", a, b, e, diff, want)
	}
	exact := new(big.Float).SetPrec(2300).SetFloat64(want).Cmp(diff) == 0
	if exact {
		sum := new(big.Float).SetPrec(2300).Add(new(big.Float).SetFloat64(p), new(big.Float).SetFloat64(e))
		if sum.Cmp(prod) != 0 {
			t.Fatalf("twoProd(%v, %v) = %v + %v, not the product %v", a, b, p, e, prod)
		}
	}
	return exact
}

// TestTwoProdExact: twoProd against math/big and math.FMA (checkTwoProd)
// for random factors of every magnitude (random bit patterns, which mostly
// take twoProdWide's path), random factors within Dekker's range, factors
// whose product lies about the ends of that range (2^-969, 2^995, 2^1020)
// and about the subnormals, and listed extremes: 1e300, 1e-300, 1e150
// (shape.MaxMagnitude), the largest and smallest floats, subnormals, and
// errors that lie exactly halfway between two subnormals (ties).
func TestTwoProdExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	finite := func() float64 {
		for {
			x := math.Float64frombits(r.Uint64())
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				return x
			}
		}
	}
	around := func(exp int) float64 { // a random float of about 2^exp
		return math.Ldexp(1+r.Float64(), exp) * float64(1-2*r.IntN(2))
	}
	inexact := 0
	for i := range n {
		var a, b float64
		switch i % 5 {
		case 0: // any two floats
			a, b = finite(), finite()
		case 1: // Dekker's range, coordinates up to 1e150 and their errors
			a = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(300)-150))
			b = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(300)-150))
		case 2: // the product about an end of the fast range
			ends := [...]int{-969, 995, 1020, -1022, -1074, -1100}
			ea := r.IntN(1000) - 500
			a, b = around(ea), around(ends[r.IntN(len(ends))]-ea+r.IntN(5)-2)
		case 3: // a factor past the split's range, or subnormal
			a, b = around(990+r.IntN(34)), around(-r.IntN(1000))
			if r.IntN(2) == 0 {
				a = math.Float64frombits(r.Uint64N(1 << 52)) // subnormal
				b = around(r.IntN(1100))
			}
		case 4: // short significands: exact ties and zero errors
			a = math.Ldexp(float64(r.IntN(1<<20)|1), r.IntN(2200)-1100)
			b = math.Ldexp(float64(r.Int64N(1<<40)|1), r.IntN(2200)-1100)
		}
		if !checkTwoProd(t, a, b) {
			inexact++
		}
	}
	if inexact == 0 {
		t.Errorf("no random case had an error below the subnormals: the range is not covered")
	}
	// (2^52+1)² = 2^104 + 2^53 + 1: p drops the 1, so the error is
	// exactly 2^E, with E chosen to land it halfway between subnormals
	// (a tie: to even, 0), a quarter, or three halves of the step.
	one := 1 + 0x1p-52
	three := 1 + 3*0x1p-52
	specials := [][2]float64{
		{1e300, 1e300}, {1e300, 1e-300}, {1e-300, 1e-300}, {1e-300, 3e-10}, {-1e300, 7.1e7},
		{1e150, 1e150}, {1e150 + 1e134, -1e150}, {1e-160, 1e-160}, {0.1, 0.1},
		{math.MaxFloat64, 1}, {math.MaxFloat64, 0.5}, {math.MaxFloat64, 2}, {math.MaxFloat64, -math.MaxFloat64},
		{math.SmallestNonzeroFloat64, 0.5}, {math.SmallestNonzeroFloat64, 1.5}, {math.SmallestNonzeroFloat64, 2.5},
		{math.SmallestNonzeroFloat64, 1e300}, {3 * math.SmallestNonzeroFloat64, 0x1p1000 / 3},
		{0x1p-1022, 1 - 0x1p-53}, {0x1p-1022 * (1 - 0x1p-52), one},
		{0x1p995, one}, {0x1p996 * one, 0x1p20 * one}, {0x1p1023 * one, 0x1p-10 * one},
		{one * 0x1p-500, one * 0x1p-523}, {one * 0x1p-500, one * 0x1p-522}, // error 2^-1127, 2^-1126: far below, 0
		{one * 0x1p-500, one * 0x1p-471},   // error 2^-1075: a tie, to even, +0
		{-one * 0x1p-500, one * 0x1p-471},  // the same, negative: -0
		{one * 0x1p-500, one * 0x1p-470},   // error 2^-1074, exact
		{three * 0x1p-500, one * 0x1p-471}, // error 3·2^-1075: a tie, to even, 2·2^-1074
		{one * 0x1p-500, one * 0x1p-472},   // error 2^-1076, a quarter: 0
		{0, 5}, {math.Copysign(0, -1), 5}, {0, math.MaxFloat64}, {0x1p-537, 0x1p-537}, {0x1p-538, 0x1p-537},
	}
	for _, s := range specials {
		for _, sg := range [4][2]float64{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
			checkTwoProd(t, sg[0]*s[0], sg[1]*s[1])
			checkTwoProd(t, sg[1]*s[1], sg[0]*s[0])
		}
	}
	if _, e := twoProd(one*0x1p-500, one*0x1p-471); math.Signbit(e) || e != 0 {
		t.Errorf("twoProd error of a tie at half the smallest subnormal = %v, want +0 (to even)", e)
	}
	if _, e := twoProd(three*0x1p-500, one*0x1p-471); e != 2*math.SmallestNonzeroFloat64 {
		t.Errorf("twoProd error 3·2^-1075 = %v, want 2^-1073 (to even)", e)
	}
}
