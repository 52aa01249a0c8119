package narrowphase

import (
	"math"
	"math/bits"
)

// xcap is the most components an xnum holds. touchTest's largest numbers
// (a squared cross product of coordinates that are sums of triple
// products, for a compound's turned part) compress to a dozen or so; add
// compresses a full xnum before it gives up (xnum.bad).
const xcap = 32

// xnum is a number held exactly as a nonoverlapping expansion (Shewchuk,
// "Adaptive precision floating-point arithmetic and fast robust geometric
// predicates", 1997, §2): the sum of its components c[:n], in increasing
// magnitude, none zero, whose bits do not overlap, so that the last
// carries the sign of the sum and approximates it. bad marks a number
// that could not be held exactly (a product out of twoProd's exact range,
// or more than xcap components): its sign means nothing.
type xnum struct {
	c   [xcap]float64
	n   int
	bad bool
}

// xProdMin and xProdMax bound the magnitude of a product that addProd
// takes exactly: twoProd's error term and the products of the split
// halves then stay above the subnormals, and the split and the sums
// below overflow.
const (
	xProdMin = 0x1p-800
	xProdMax = 0x1p800
)

// add adds x to z exactly: Shewchuk's Grow-Expansion with zero
// elimination (§2.5), which keeps z nonoverlapping and in increasing
// magnitude.
func (z *xnum) add(x float64) {
	if x == 0 {
		return
	}
	if z.n == xcap {
		if z.compress(); z.n == xcap {
			z.bad = true
			return
		}
	}
	q, k := x, 0
	for i := range z.n {
		var h float64
		q, h = twoSum(q, z.c[i])
		if h != 0 {
			z.c[k] = h
			k++
		}
	}
	if q != 0 {
		z.c[k] = q
		k++
	}
	z.n = k
}

// addProd adds a·b to z exactly (twoProd), or marks z bad where the
// product is out of twoProd's exact range.
func (z *xnum) addProd(a, b float64) {
	if a == 0 || b == 0 {
		return
	}
	p := float64(a * b)
	if ap := math.Abs(p); !(ap >= xProdMin && ap <= xProdMax) || math.Abs(a) > xProdMax || math.Abs(b) > xProdMax {
		z.bad = true
		return
	}
	p, e := twoProd(a, b)
	z.add(e)
	z.add(p)
}

// addProd3 adds a·b·c to z exactly: a·b split by twoProd into p + e, each
// times c.
func (z *xnum) addProd3(a, b, c float64) {
	if a == 0 || b == 0 || c == 0 {
		return
	}
	p := float64(a * b)
	if ap := math.Abs(p); !(ap >= xProdMin && ap <= xProdMax) || math.Abs(a) > xProdMax || math.Abs(b) > xProdMax {
		z.bad = true
		return
	}
	p, e := twoProd(a, b)
	z.addProd(e, c)
	z.addProd(p, c)
}

// addNum adds sign·y to z exactly (sign ±1).
func (z *xnum) addNum(y *xnum, sign float64) {
	z.bad = z.bad || y.bad
	for _, c := range y.c[:y.n] {
		z.add(sign * c)
	}
}

// addMul adds sign·x·y to z exactly (sign ±1): every product of their
// components, x and y compressed first (they may be the same number).
func (z *xnum) addMul(x, y *xnum, sign float64) {
	z.bad = z.bad || x.bad || y.bad
	x.compress()
	y.compress()
	for _, a := range x.c[:x.n] {
		for _, b := range y.c[:y.n] {
			z.addProd(sign*a, b)
		}
	}
}

// compress rewrites z, unchanged in value, with as few components as
// Shewchuk's Compress (§2.8) leaves: Grow-Expansion keeps every rounding
// error it meets as a component of its own, and the products of two
// expansions number twice the product of their lengths.
func (z *xnum) compress() {
	if z.n < 2 {
		return
	}
	// Top down, each component's sum with what is above it; the sums
	// that leave an error are kept (g, from the top of z.c down).
	bottom := z.n - 1
	q := z.c[bottom]
	for i := z.n - 2; i >= 0; i-- {
		s, e := fastTwoSum(q, z.c[i])
		if e != 0 {
			z.c[bottom] = s
			bottom--
			q = e
		} else {
			q = s
		}
	}
	z.c[bottom] = q
	// Bottom up, the same again into increasing components.
	top := 0
	for i := bottom + 1; i < z.n; i++ {
		s, e := fastTwoSum(z.c[i], q)
		if e != 0 {
			z.c[top] = e
			top++
		}
		q = s
	}
	z.c[top] = q
	z.n = top + 1
}

// fastTwoSum returns s = fl(a + b) and e with a + b = s + e exactly, for
// |a| ≥ |b| (or a = 0) (Dekker).
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	return s, b - (s - a)
}

// sign returns the sign of z: −1, 0 or 1.
func (z *xnum) sign() int {
	switch {
	case z.n == 0:
		return 0
	case z.c[z.n-1] > 0:
		return 1
	}
	return -1
}

// dd is a double-double: the unevaluated sum hi + lo, |lo| at most half
// an ulp of hi (Dekker; Hida, Li and Bailey's QD library). touchTest
// computes with them to within a few ε² of the operands, ε = 2⁻⁵³.
type dd struct{ hi, lo float64 }

// ddNorm returns hi + lo renormalised, lo at most a few ulps of hi (or
// hi cancelled to a few ulps of the operands that made lo): exact in the
// first case, within ε of the small sum in the second, which the error
// bounds of touchTest (a few ε² of the operands) cover.
func ddNorm(hi, lo float64) dd {
	s := hi + lo
	return dd{s, lo - (s - hi)}
}

// ddAdd returns a + b.
func ddAdd(a, b dd) dd {
	s := a.hi + b.hi
	bv := s - a.hi
	e := ((a.hi - (s - bv)) + (b.hi - bv)) + (a.lo + b.lo)
	return ddNorm(s, e)
}

// ddSub returns a − b.
func ddSub(a, b dd) dd { return ddAdd(a, dd{-b.hi, -b.lo}) }

// ddNeg returns −a.
func ddNeg(a dd) dd { return dd{-a.hi, -a.lo} }

// ddProd returns a·b as a double-double, exactly where the product's
// error is a float (twoProd: the same error term on every CPU, with no
// fused multiply-add, which arm64 would round differently from amd64).
func ddProd(a, b float64) dd {
	p, e := twoProd(a, b)
	return dd{p, e}
}

// ddMulF returns a·b for a float b.
func ddMulF(a dd, b float64) dd {
	p, e := twoProd(a.hi, b)
	return ddNorm(p, e+float64(a.lo*b))
}

// ddMul returns a·b.
func ddMul(a, b dd) dd {
	p, e := twoProd(a.hi, b.hi)
	return ddNorm(p, e+(float64(a.hi*b.lo)+float64(a.lo*b.hi)))
}

// xpt is a point placed exactly: each coordinate the unevaluated sum of a
// position's and a local vertex's coordinate (hi + lo).
type xpt struct{ xh, xl, yh, yl float64 }

// orientTop returns (v − u) × (w − u) to within an ulp, with its exact
// sign (0 only when it is 0): the products of the coordinates' terms split
// by twoProd, summed as an expansion, whose largest component it is.
func orientTop(u, v, w xpt) float64 {
	dx1 := [4]float64{v.xh, v.xl, -u.xh, -u.xl}
	dy2 := [4]float64{w.yh, w.yl, -u.yh, -u.yl}
	dy1 := [4]float64{v.yh, v.yl, -u.yh, -u.yl}
	dx2 := [4]float64{w.xh, w.xl, -u.xh, -u.xl}
	var terms [64]float64
	n := 0
	for i := range 4 {
		for j := range 4 {
			if dx1[i] != 0 && dy2[j] != 0 {
				p, e := twoProd(dx1[i], dy2[j])
				terms[n], terms[n+1] = p, e
				n += 2
			}
			if dy1[i] != 0 && dx2[j] != 0 {
				p, e := twoProd(dy1[i], dx2[j])
				terms[n], terms[n+1] = -p, -e
				n += 2
			}
		}
	}
	return sumTop(terms[:n])
}

// sumTop returns the exact sum of x to within an ulp, with its exact sign:
// the largest component of its expansion (growExpansion), the others
// summing to less than its ulp.
func sumTop(x []float64) float64 {
	var buf [64]float64
	e := growExpansion(buf[:0], x)
	if len(e) == 0 {
		return 0
	}
	return e[len(e)-1]
}

// growExpansion returns the nonoverlapping expansion of the exact sum of
// x, smallest component first and zeros dropped, built in e's storage
// (Shewchuk's Grow-Expansion, "Adaptive precision floating-point
// arithmetic and fast robust geometric predicates", 1997, §2.5: the terms
// added one by one). Its components sum to less than the largest one's
// ulp below it; it outgrows e only by appending.
func growExpansion(e, x []float64) []float64 {
	e = e[:0]
	for _, b := range x {
		q, k := b, 0
		for i := range e {
			var h float64
			q, h = twoSum(q, e[i])
			if h != 0 {
				e[k] = h
				k++
			}
		}
		if e = e[:k]; q != 0 {
			e = append(e, q)
		}
	}
	return e
}

// twoSum returns s = fl(a + b) and e with a + b = s + e exactly (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bv := s - a
	av := s - bv
	return s, (a - av) + (b - bv)
}

// twoProd returns p = fl(a·b) and e = fl(a·b − p), the rounding error
// of the product, correctly rounded: exact (p + e = a·b) wherever a·b − p
// is a float, which is wherever the product's lowest bit lies at or above
// 2^-1074 and p is finite; bit for bit what a fused multiply-add gives
// (math.FMA(a, b, -p)) for every input, on every CPU, without one.
//
// Inside twoProdFast's range it is Dekker's product over Veltkamp's split
// halves (Shewchuk, "Adaptive precision floating-point arithmetic",
// Two-Product), each partial product rounded on its own so that no CPU
// fuses them. Outside it (a split that would overflow, past 2^995, or an
// error that would underflow, products below 2^-969, and subnormal
// factors) twoProdWide works on the integer significands.
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	aa, ab, ap := math.Abs(a), math.Abs(b), math.Abs(p)
	if !(ap >= 0x1p-969 && ap <= 0x1p1020 && aa <= 0x1p995 && ab <= 0x1p995 && aa >= 0x1p-1022 && ab >= 0x1p-1022) {
		return p, twoProdWide(a, b, p)
	}
	ah, al := split(a)
	bh, bl := split(b)
	x, y, z, w := float64(ah*bh), float64(al*bh), float64(ah*bl), float64(al*bl)
	// + 0 turns an exact zero's −0 (w = −0) into the +0 an FMA gives.
	return p, (w - (((p - x) - y) - z)) + 0
}

// twoProdWide returns fl(a·b − p) for p = fl(a·b), for any a and b, from
// their integer significands: a·b = ma·mb·2^(ea+eb) exactly in 128 bits
// (bits.Mul64), p's significand subtracted at the same exponent, and the
// difference rounded once, to nearest even, into the float range
// (subnormals included). Why Dekker's product cannot: past 2^995 the
// split's 2^27+1 multiple overflows, and where the error's lowest bit
// falls below 2^-1074 no float holds it, so its partial products round.
func twoProdWide(a, b, p float64) float64 {
	switch {
	case math.IsNaN(p) || math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.NaN()
	case math.IsInf(p, 0):
		return -p // the product overflowed: a·b − (±Inf) is ∓Inf
	case a == 0 || b == 0:
		return 0
	}
	ma, ea := significand(a)
	mb, eb := significand(b)
	hi, lo := bits.Mul64(ma, mb)
	ex := ea + eb
	neg := (a < 0) != (b < 0)
	var dhi, dlo uint64
	var dneg bool // whether |a·b| − |p| is negative
	if p == 0 {
		dhi, dlo = hi, lo
	} else {
		mp, ep := significand(p)
		sh := ep - ex
		if sh < 0 {
			// p's lowest bit lies below the product's: a·b fits in
			// p's 53 bits and p is it.
			return 0
		}
		// |p| is within a factor 2 of |a·b| (rounding to nearest, to a
		// subnormal step at worst), under 2^107 at the product's
		// exponent: its shifted significand fits in 128 bits.
		phi, plo := shl128(0, mp, uint(sh))
		if phi > hi || (phi == hi && plo > lo) {
			dneg = true
			dhi, dlo = sub128(phi, plo, hi, lo)
		} else {
			dhi, dlo = sub128(hi, lo, phi, plo)
		}
	}
	if dhi == 0 && dlo == 0 {
		return 0
	}
	e := roundScaled(dhi, dlo, ex)
	if neg != dneg {
		e = -e
	}
	return e
}

// significand returns m and e with |x| = m·2^e exactly, m < 2^53, for a
// finite nonzero x.
func significand(x float64) (m uint64, e int) {
	b := math.Float64bits(x)
	exp := int(b>>52) & 0x7ff
	m = b & (1<<52 - 1)
	if exp == 0 {
		return m, -1074
	}
	return m | 1<<52, exp - 1075
}

// roundScaled returns (hi·2^64 + lo)·2^e rounded once to the nearest
// float64, ties to even, for a value below the largest float.
func roundScaled(hi, lo uint64, e int) float64 {
	n := 128 - bits.LeadingZeros64(hi)
	if hi == 0 {
		n = 64 - bits.LeadingZeros64(lo)
	}
	// The kept bits: 53 from the top, or down to 2^-1074 if fewer.
	t := max(e+n-53, -1074)
	if t <= e {
		// Exact: fewer than 54 bits, none below 2^-1074.
		return math.Ldexp(float64(lo), e)
	}
	s := uint(t - e)
	if s > 128 {
		return 0 // below half the smallest subnormal
	}
	_, q := shr128(hi, lo, s)
	// The half bit (r) and whether any bit below it is set.
	r := s - 1
	_, half := shr128(hi, lo, r)
	sticky := lo&(uint64(1)<<r-1) != 0
	if r >= 64 {
		sticky = lo != 0 || hi&(uint64(1)<<(r-64)-1) != 0
	}
	if half&1 == 1 && (sticky || q&1 == 1) {
		q++
	}
	return math.Ldexp(float64(q), t)
}

// shl128 returns (hi, lo) shifted left by s < 128 bits.
func shl128(hi, lo uint64, s uint) (uint64, uint64) {
	if s >= 64 {
		return lo << (s - 64), 0
	}
	if s == 0 {
		return hi, lo
	}
	return hi<<s | lo>>(64-s), lo << s
}

// shr128 returns (hi, lo) shifted right by s ≤ 128 bits.
func shr128(hi, lo uint64, s uint) (uint64, uint64) {
	if s >= 64 {
		return 0, hi >> (s - 64)
	}
	if s == 0 {
		return hi, lo
	}
	return hi >> s, lo>>s | hi<<(64-s)
}

// sub128 returns (ahi, alo) − (bhi, blo), for a ≥ b.
func sub128(ahi, alo, bhi, blo uint64) (uint64, uint64) {
	lo, borrow := bits.Sub64(alo, blo, 0)
	hi, _ := bits.Sub64(ahi, bhi, borrow)
	return hi, lo
}

// split returns hi + lo = a exactly, each with at most 26 significant
// bits (Veltkamp's split by 2^27 + 1).
func split(a float64) (hi, lo float64) {
	c := float64(134217729 * a)
	hi = c - (c - a)
	return hi, a - hi
}
