package shape

import "math"

// Vec2 is a two-dimensional vector or point in world units.
type Vec2 struct {
	X, Y float64
}

// V returns the vector (x, y).
func V(x, y float64) Vec2 { return Vec2{x, y} }

// Add returns v + w.
func (v Vec2) Add(w Vec2) Vec2 { return Vec2{v.X + w.X, v.Y + w.Y} }

// Sub returns v - w.
func (v Vec2) Sub(w Vec2) Vec2 { return Vec2{v.X - w.X, v.Y - w.Y} }

// Scale returns v scaled by s. The explicit conversions keep the products
// from being fused into a following addition (see [Vec2.Dot]).
func (v Vec2) Scale(s float64) Vec2 { return Vec2{float64(v.X * s), float64(v.Y * s)} }

// Neg returns -v.
func (v Vec2) Neg() Vec2 { return Vec2{-v.X, -v.Y} }

// Dot returns the dot product of v and w. The explicit conversions stop the
// compiler from fusing the products into an FMA, so results are bit-identical
// on every architecture.
func (v Vec2) Dot(w Vec2) float64 { return float64(v.X*w.X) + float64(v.Y*w.Y) }

// Cross returns the z component of the cross product v × w (positive when w
// lies counter-clockwise of v).
func (v Vec2) Cross(w Vec2) float64 { return float64(v.X*w.Y) - float64(v.Y*w.X) }

// Perp returns v rotated by +90° (counter-clockwise).
func (v Vec2) Perp() Vec2 { return Vec2{-v.Y, v.X} }

// LenSq returns the squared length of v.
func (v Vec2) LenSq() float64 { return v.Dot(v) }

// Len returns the length of v.
func (v Vec2) Len() float64 { return math.Sqrt(v.Dot(v)) }

// Normalize returns v scaled to unit length. A vector too short to give a
// direction (squared length at most 1e-300) or not finite normalises to the
// +X axis, so no NaN ever comes out.
func (v Vec2) Normalize() Vec2 {
	l2 := v.LenSq()
	if !(l2 > 1e-300) || math.IsInf(l2, 0) {
		if math.IsInf(l2, 0) && v.IsFinite() {
			// Overflowed square: scale down first.
			return v.Scale(1 / max(math.Abs(v.X), math.Abs(v.Y))).Normalize()
		}
		return Vec2{1, 0}
	}
	return v.Scale(1 / math.Sqrt(l2))
}

// Abs returns v with both components made non-negative.
func (v Vec2) Abs() Vec2 { return Vec2{math.Abs(v.X), math.Abs(v.Y)} }

// Min returns the component-wise minimum of v and w.
func (v Vec2) Min(w Vec2) Vec2 { return Vec2{min(v.X, w.X), min(v.Y, w.Y)} }

// Max returns the component-wise maximum of v and w.
func (v Vec2) Max(w Vec2) Vec2 { return Vec2{max(v.X, w.X), max(v.Y, w.Y)} }

// IsFinite reports whether both components are neither NaN nor infinite.
func (v Vec2) IsFinite() bool { return isFinite(v.X) && isFinite(v.Y) }

func isFinite(f float64) bool { return math.Float64bits(f)&expMask != expMask }

// expMask selects a float64's exponent bits: all set means NaN or ±Inf.
const expMask = 0x7ff0000000000000

// IsFinite reports whether f is neither NaN nor infinite.
func IsFinite(f float64) bool { return isFinite(f) }

// hypot returns √(x²+y²) without overflow or underflow. Unlike math.Hypot,
// which is assembly on amd64 and Go elsewhere, it gives the same bits on
// every architecture.
func hypot(x, y float64) float64 {
	x, y = math.Abs(x), math.Abs(y)
	m := max(x, y)
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	x, y = x/m, y/m
	return float64(m * math.Sqrt(float64(x*x)+float64(y*y)))
}
