package engine

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// box32 is a body's tight box rounded outward to float32, as hotBody keeps
// it: half the bytes of a shape.AABB, for the box tests that come before
// every exact test (a candidate pair, a query's candidates). The rounded
// box holds the box, so whatever two boxes overlap, their rounded boxes
// overlap too, and a test that passes a pair on to an exact test passes
// every pair it did before: answers do not change, only a few more pairs
// reach the exact test. An edge beyond float32's range becomes an
// infinity. Where a box's numbers feed an answer (Body.AABB, a margin, a
// bullet's motion), the engine computes the exact box again (tightOf).
type box32 struct{ x0, y0, x1, y1 float32 }

// round32 returns box b rounded outward.
func round32(b shape.AABB) box32 {
	return box32{down32(b.Min.X), down32(b.Min.Y), up32(b.Max.X), up32(b.Max.Y)}
}

// down32 returns the largest float32 not above x (−Inf below float32's
// range); up32 the smallest not below x (+Inf above it).
func down32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		f = step32(f, -1)
	}
	return f
}

func up32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = step32(f, 1)
	}
	return f
}

// step32 returns the float32 next to f in the direction of dir's sign.
func step32(f float32, dir int) float32 {
	b := math.Float32bits(f)
	switch {
	case f == 0:
		b = 1 // the smallest positive value
		if dir < 0 {
			b |= 1 << 31
		}
	case (f > 0) == (dir > 0):
		b++
	default:
		b--
	}
	return math.Float32frombits(b)
}

// overlaps reports whether a and c overlap, boundaries included.
func (a *box32) overlaps(c *box32) bool {
	return a.x0 <= c.x1 && c.x0 <= a.x1 && a.y0 <= c.y1 && c.y0 <= a.y1
}

// overlapsAABB reports whether a and b overlap, boundaries included.
func (a *box32) overlapsAABB(b shape.AABB) bool {
	return float64(a.x0) <= b.Max.X && b.Min.X <= float64(a.x1) && float64(a.y0) <= b.Max.Y && b.Min.Y <= float64(a.y1)
}

// contains reports whether p lies in a, boundaries included.
func (a *box32) contains(p shape.Vec2) bool {
	return float64(a.x0) <= p.X && p.X <= float64(a.x1) && float64(a.y0) <= p.Y && p.Y <= float64(a.y1)
}

// aabb returns a as a shape.AABB (whose edges may be infinite).
func (a *box32) aabb() shape.AABB {
	return shape.AABB{Min: shape.Vec2{X: float64(a.x0), Y: float64(a.y0)}, Max: shape.Vec2{X: float64(a.x1), Y: float64(a.y1)}}
}

// tightOf returns body s's exact tight box, the one Add, SetTransform and
// SetShape computed (the same function of the same numbers).
func (b *bodies) tightOf(s int32) shape.AABB { return b.shapes[s].WorldAABB(b.xf[s]) }
