package broadphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// The R-trees hold boxes in float32: half the bytes of float64 (a leaf of
// tidwall/rtree holds 64 rectangles, 1 KiB instead of 2 KiB) and the same
// number of comparisons. Fat boxes are rounded outward to float32 values
// when they are made (roundOut), so that the tree holds each one exactly;
// coordinates beyond float32's range are clamped to it in the tree
// (to32), which keeps every overlap between boxes an overlap between their
// tree rectangles, since clamping never reverses an order. Search boxes are
// rounded outward (down32, up32) and clamped the same way, and tree bounds
// read back with from32, which takes a clamped edge as unbounded.

// rect32 is an R-tree point.
type rect32 = [2]float32

// down32 returns the largest float32 value, as a float64, not above x, or x
// itself beyond float32's range (the tree clamps it).
func down32(x float64) float64 {
	f := float32(x)
	if math.IsInf(float64(f), 0) || x != x {
		return x
	}
	if float64(f) <= x {
		return float64(f)
	}
	if f == -math.MaxFloat32 {
		return x
	}
	return float64(next32(f, -1))
}

// up32 returns the smallest float32 value, as a float64, not below x, or x
// itself beyond float32's range.
func up32(x float64) float64 {
	f := float32(x)
	if math.IsInf(float64(f), 0) || x != x {
		return x
	}
	if float64(f) >= x {
		return float64(f)
	}
	if f == math.MaxFloat32 {
		return x
	}
	return float64(next32(f, 1))
}

// next32 returns the float32 after f (finite) towards dir's sign.
func next32(f float32, dir int) float32 {
	switch b := math.Float32bits(f); {
	case f == 0:
		if dir > 0 {
			return math.SmallestNonzeroFloat32
		}
		return -math.SmallestNonzeroFloat32
	case (f > 0) == (dir > 0):
		return math.Float32frombits(b + 1)
	default:
		return math.Float32frombits(b - 1)
	}
}

// to32 converts a coordinate to the tree's float32, clamped to its range:
// exact for a value roundOut made, and order-preserving for every value.
func to32(x float64) float32 {
	return float32(max(-math.MaxFloat32, min(x, math.MaxFloat32)))
}

// lo32 and hi32 convert a search box's corners, rounding outward and
// clamping to float32's range: to32(down32(x)) and to32(up32(x)), in fewer
// steps.
func lo32(p [2]float64) rect32 { return rect32{f32Down(p[0]), f32Down(p[1])} }
func hi32(p [2]float64) rect32 { return rect32{f32Up(p[0]), f32Up(p[1])} }

// rectOf returns the tree rectangle of the box min, max: lo32(min),
// hi32(max). For a fat box it is the box32 fatBoxes holds.
func rectOf(min, max [2]float64) box32 {
	return box32{f32Down(min[0]), f32Down(min[1]), f32Up(max[0]), f32Up(max[1])}
}

func f32Down(x float64) float32 {
	f := float32(x)
	// One step toward −Inf where f rounded above x, with no branch on it
	// (which way a coordinate rounds is a coin toss, mispredicted half
	// the time): a positive f loses a unit of its bits, a negative one
	// gains one, so −0 (from a tiny negative x) becomes
	// −SmallestNonzeroFloat32 and +Inf (from a huge x) MaxFloat32.
	var step uint32
	if float64(f) > x {
		step = 1
	}
	b := math.Float32bits(f)
	f = math.Float32frombits(b - step + 2*step*(b>>31))
	if f < -math.MaxFloat32 {
		f = -math.MaxFloat32
	}
	return f
}

func f32Up(x float64) float32 {
	f := float32(x)
	// As f32Down, toward +Inf: +0 (from a tiny positive x) becomes
	// SmallestNonzeroFloat32 and −Inf (from a huge negative x)
	// −MaxFloat32.
	var step uint32
	if float64(f) < x {
		step = 1
	}
	b := math.Float32bits(f)
	f = math.Float32frombits(b + step - 2*step*(b>>31))
	if f > math.MaxFloat32 {
		f = math.MaxFloat32
	}
	return f
}

// from32Lo and from32Hi read a tree's bounds back: an edge clamped to
// float32's range stands for any value beyond it.
func from32Lo(p rect32) [2]float64 { return [2]float64{from32(p[0], -1), from32(p[1], -1)} }
func from32Hi(p rect32) [2]float64 { return [2]float64{from32(p[0], 1), from32(p[1], 1)} }

func from32(v float32, dir float64) float64 {
	if float64(v) == dir*math.MaxFloat32 {
		return dir * math.MaxFloat64
	}
	return float64(v)
}

// clamped reports whether a tree rectangle reaches the edge of float32's
// range, where it may be larger than its box: a search that must be exact
// then tests the box itself.
func clamped(mn, mx rect32) bool {
	const m = math.MaxFloat32
	return mn[0] <= -m || mn[1] <= -m || mx[0] >= m || mx[1] >= m
}

// vec32 returns a tree corner as a vector.
func vec32(p rect32) shape.Vec2 { return shape.Vec2{X: float64(p[0]), Y: float64(p[1])} }
