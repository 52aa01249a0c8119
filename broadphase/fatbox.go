package broadphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// box32 is a fat box as the R-trees hold it: corners rounded outward to
// float32 values (roundOut) and clamped to float32's range (to32). Its
// fields are scalars, not two rect32 arrays, so that the compiler keeps
// them in registers.
type box32 struct{ x0, y0, x1, y1 float32 }

// aabb returns b's corners as float64s: the fat box itself unless b is
// clamped.
func (b box32) aabb() shape.AABB {
	return shape.AABB{Min: shape.Vec2{X: float64(b.x0), Y: float64(b.y0)}, Max: shape.Vec2{X: float64(b.x1), Y: float64(b.y1)}}
}

// clamped reports whether b reaches the edge of float32's range, like
// the function clamped for tree rectangles.
func (b box32) clamped() bool {
	const m = math.MaxFloat32
	return b.x0 <= -m || b.y0 <= -m || b.x1 >= m || b.y1 >= m
}

// contains reports whether b contains the box c, like
// [shape.AABB.ContainsAABB]; for a clamped b that says nothing of the fat
// box (clamping moves a corner beyond float32's range inward, or, for a
// box wholly beyond it, both).
func (b box32) contains(c shape.AABB) bool {
	return float64(b.x0) <= c.Min.X && c.Max.X <= float64(b.x1) &&
		float64(b.y0) <= c.Min.Y && c.Max.Y <= float64(b.y1)
}

// fatBoxes holds the proxies' fat boxes by id in float32, 16 bytes a
// proxy instead of 32: fat boxes are float32 values already (roundOut),
// except for coordinates beyond float32's range, which the rectangles
// clamp. The fat boxes of those, rare, are also kept exact in wide.
type fatBoxes struct {
	r    []box32
	wide map[int32]shape.AABB // nil until a box is clamped
}

// grow makes room for ids below n.
func (f *fatBoxes) grow(n int) {
	for len(f.r) < n {
		f.r = append(f.r, box32{})
	}
}

// set stores b, a box roundOut made, as the fat box of id, and returns
// its tree rectangle (rectOf's: to32 of each corner, since b's corners
// are float32 values or beyond float32's range).
func (f *fatBoxes) set(id int32, b shape.AABB) box32 {
	// float32 is exact for b's corners within range and infinite beyond.
	r := box32{float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y)}
	switch {
	case r.clamped():
		// Clamped, or at the edge of float32's range: kept exact.
		r = box32{to32(b.Min.X), to32(b.Min.Y), to32(b.Max.X), to32(b.Max.Y)}
		if f.wide == nil {
			f.wide = make(map[int32]shape.AABB)
		}
		f.wide[id] = b
	case len(f.wide) > 0:
		delete(f.wide, id)
	}
	f.r[id] = r
	return r
}

// at returns the fat box of id, exactly as set stored it.
func (f *fatBoxes) at(id int32) shape.AABB {
	if r := f.r[id]; !r.clamped() {
		return r.aabb()
	}
	return f.wide[id]
}
