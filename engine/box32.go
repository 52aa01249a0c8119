package engine

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// box32 is a body's tight box rounded to the nearest float32 values, as
// the engine keeps it beside each body: half the bytes of a shape.AABB, for
// the box tests that come before every exact test (a candidate pair, a
// query's candidates). Rounding to nearest never reverses an order (a ≤ b
// gives float32(a) ≤ float32(b)), so two boxes that overlap, or touch, have
// rounded boxes that do, and a box or point tested against a rounded box
// is rounded the same way first: every pair or candidate that passed the
// test before passes it still, answers do not change, and only a few more
// reach the exact test. An edge beyond float32's range becomes an
// infinity, which keeps the order too. Where a box's numbers feed an
// answer (Body.AABB, a margin, a bullet's motion), the engine computes the
// exact box again (tightOf); a distance from a rounded box takes a margin
// for the rounding (Nearest's pruneAt).
type box32 struct{ x0, y0, x1, y1 float32 }

// round32 returns box b rounded to nearest.
func round32(b shape.AABB) box32 {
	return box32{float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y)}
}

// overlaps reports whether a and c overlap, boundaries included. Value
// receivers: the narrow phase's loop compiles to fewer loads so.
func (a box32) overlaps(c box32) bool {
	return a.x0 <= c.x1 && c.x0 <= a.x1 && a.y0 <= c.y1 && c.y0 <= a.y1
}

// overlapsAABB reports whether a and b rounded to nearest overlap,
// boundaries included: true whenever the box a was rounded from meets b.
func (a *box32) overlapsAABB(b shape.AABB) bool {
	return a.x0 <= float32(b.Max.X) && float32(b.Min.X) <= a.x1 && a.y0 <= float32(b.Max.Y) && float32(b.Min.Y) <= a.y1
}

// contains reports whether p rounded to nearest lies in a, boundaries
// included: true whenever p lies in the box a was rounded from.
func (a *box32) contains(p shape.Vec2) bool {
	x, y := float32(p.X), float32(p.Y)
	return a.x0 <= x && x <= a.x1 && a.y0 <= y && y <= a.y1
}

// aabb returns a as a shape.AABB, within a float32 step of the box it was
// rounded from (whose edges may be infinite).
func (a *box32) aabb() shape.AABB {
	return shape.AABB{Min: shape.Vec2{X: float64(a.x0), Y: float64(a.y0)}, Max: shape.Vec2{X: float64(a.x1), Y: float64(a.y1)}}
}

// insideStrictly reports whether the box a was rounded from surely lies in
// fat, a box of float32 edges: when each rounded edge lies strictly
// inside fat's, the edge it was rounded from lies inside (a value that
// rounds above a float32 value lies above it). It answers false where it
// cannot tell, for the caller to test the exact box.
func (a *box32) insideStrictly(fat shape.AABB) bool {
	is32 := func(x float64) bool { return float64(float32(x)) == x && math.Abs(x) <= math.MaxFloat32 }
	return is32(fat.Min.X) && is32(fat.Min.Y) && is32(fat.Max.X) && is32(fat.Max.Y) &&
		float64(a.x0) > fat.Min.X && float64(a.y0) > fat.Min.Y && float64(a.x1) < fat.Max.X && float64(a.y1) < fat.Max.Y
}

// tightOf returns body s's exact tight box, the one Add, SetTransform and
// SetShape computed (the same function of the same numbers).
func (b *bodies) tightOf(s int32) shape.AABB { return b.shapes[s].WorldAABB(b.xf[s]) }
