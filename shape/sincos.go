package shape

import "math"

// SinCos returns the sine and cosine of x (radians) with the same bits on
// every architecture. math.Sincos is Go code, but the compiler fuses its
// polynomial's multiply-adds into FMA instructions on arm64 (and ppc64,
// s390x), which round differently from amd64, so a rotation built from the
// same angle could differ in the last bit and lockstep replays would
// drift. This version makes every product an explicit conversion.
//
// Algorithm: Cody–Waite reduction by π/4 with π/4 split into three parts,
// then the Cephes minimax polynomials for sin and cos on [-π/4, π/4]
// (Moshier, Methods and Programs for Mathematical Functions, §6.1); the
// octant picks the polynomial and the sign. Angles beyond 2^29 are first
// brought into [0, 2π) with math.Mod (exact, but 2π itself is not), losing
// precision there as every reduction without extra bits of π does. Below
// that the error is about one ulp, like math.Sincos.
func SinCos(x float64) (sin, cos float64) {
	const (
		pi4a = 7.85398125648498535156e-1                             // π/4 in three parts for an
		pi4b = 3.77489470793079817668e-8                             // exact reduction of moderate
		pi4c = 2.69515142907905952645e-15                            // angles
		m4pi = 1.273239544735162542821171882678754627704620361328125 // 4/π
	)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN(), math.NaN()
	}
	if x == 0 {
		return x, 1
	}
	sinSign, cosSign := false, false
	if x < 0 {
		x = -x
		sinSign = true
	}
	if x >= 1<<29 {
		x = math.Mod(x, 2*math.Pi)
	}
	j := uint64(float64(x * m4pi))
	y := float64(j)
	if j&1 == 1 { // map zeros to the origin
		j++
		y++
	}
	j &= 7
	if j > 3 {
		j -= 4
		sinSign, cosSign = !sinSign, !cosSign
	}
	if j > 1 {
		cosSign = !cosSign
	}
	z := ((x - float64(y*pi4a)) - float64(y*pi4b)) - float64(y*pi4c)
	zz := float64(z * z)
	c := 1.0 - float64(0.5*zz) + float64(float64(zz*zz)*polyCos(zz))
	s := z + float64(float64(z*zz)*polySin(zz))
	if j == 1 || j == 2 {
		s, c = c, s
	}
	if cosSign {
		c = -c
	}
	if sinSign {
		s = -s
	}
	return s, c
}

// polySin and polyCos evaluate the Cephes coefficients by Horner's rule,
// every product rounded on its own.
func polySin(zz float64) float64 {
	p := 1.58962301576546568060e-10
	p = float64(p*zz) - 2.50507477628578072866e-8
	p = float64(p*zz) + 2.75573136213857245213e-6
	p = float64(p*zz) - 1.98412698295895385996e-4
	p = float64(p*zz) + 8.33333333332211858878e-3
	return float64(p*zz) - 1.66666666666666307295e-1
}

func polyCos(zz float64) float64 {
	p := -1.13585365213876817300e-11
	p = float64(p*zz) + 2.08757008419747316778e-9
	p = float64(p*zz) - 2.75573141792967388112e-7
	p = float64(p*zz) + 2.48015872888517045348e-5
	p = float64(p*zz) - 1.38888888888730564116e-3
	return float64(p*zz) + 4.16666666666665929218e-2
}
