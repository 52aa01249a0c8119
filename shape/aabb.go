package shape

import "math"

// AABB is an axis-aligned box in world coordinates, from Min to Max
// inclusive. An empty box, which contains nothing and is the identity of
// [AABB.Union], comes from [EmptyAABB].
type AABB struct {
	Min, Max Vec2
}

// EmptyAABB returns the empty box: Min at +∞ and Max at -∞.
func EmptyAABB() AABB {
	inf := math.Inf(1)
	return AABB{Min: Vec2{inf, inf}, Max: Vec2{-inf, -inf}}
}

// AABBFromPoints returns the smallest box containing every point, or the
// empty box when there are none.
func AABBFromPoints(pts ...Vec2) AABB {
	b := EmptyAABB()
	for _, p := range pts {
		b.Min = b.Min.Min(p)
		b.Max = b.Max.Max(p)
	}
	return b
}

// AABBFromCenter returns the box centred on c with half extents h.
func AABBFromCenter(c, h Vec2) AABB { return AABB{Min: c.Sub(h), Max: c.Add(h)} }

// IsEmpty reports whether b contains no point.
func (b AABB) IsEmpty() bool { return !(b.Min.X <= b.Max.X && b.Min.Y <= b.Max.Y) }

// Overlaps reports whether b and c share at least one point. Boxes that only
// touch overlap: the broad phase must not miss touching pairs, and the narrow
// phase decides whether they really collide.
func (b AABB) Overlaps(c AABB) bool {
	return b.Min.X <= c.Max.X && c.Min.X <= b.Max.X && b.Min.Y <= c.Max.Y && c.Min.Y <= b.Max.Y
}

// Contains reports whether the point p lies in b, boundary included.
func (b AABB) Contains(p Vec2) bool {
	return b.Min.X <= p.X && p.X <= b.Max.X && b.Min.Y <= p.Y && p.Y <= b.Max.Y
}

// ContainsAABB reports whether c lies entirely inside b.
func (b AABB) ContainsAABB(c AABB) bool {
	return b.Min.X <= c.Min.X && c.Max.X <= b.Max.X && b.Min.Y <= c.Min.Y && c.Max.Y <= b.Max.Y
}

// Union returns the smallest box containing both b and c.
func (b AABB) Union(c AABB) AABB { return AABB{Min: b.Min.Min(c.Min), Max: b.Max.Max(c.Max)} }

// Expand returns b grown by m on every side (shrunk when m is negative).
func (b AABB) Expand(m float64) AABB {
	return AABB{Min: Vec2{b.Min.X - m, b.Min.Y - m}, Max: Vec2{b.Max.X + m, b.Max.Y + m}}
}

// Translate returns b moved by d.
func (b AABB) Translate(d Vec2) AABB { return AABB{Min: b.Min.Add(d), Max: b.Max.Add(d)} }

// Center returns the centre of b.
func (b AABB) Center() Vec2 {
	// The halving is a product the compiler could fuse into a caller's
	// addition on arm64; the conversions keep results the same everywhere.
	return Vec2{float64((b.Min.X + b.Max.X) / 2), float64((b.Min.Y + b.Max.Y) / 2)}
}

// HalfExtents returns half the width and half the height of b.
func (b AABB) HalfExtents() Vec2 {
	return Vec2{float64((b.Max.X - b.Min.X) / 2), float64((b.Max.Y - b.Min.Y) / 2)}
}

// Perimeter returns the perimeter of b.
func (b AABB) Perimeter() float64 { return 2 * ((b.Max.X - b.Min.X) + (b.Max.Y - b.Min.Y)) }

// IsFinite reports whether every coordinate of b is finite.
func (b AABB) IsFinite() bool { return b.Min.IsFinite() && b.Max.IsFinite() }

// MeetsAlong reports whether box b, moved by t·delta for some t in [0, 1],
// meets box c (edges included). It errs towards a meeting by a rounding
// margin, 1e-12 of the size of the coordinates, so that it never turns away
// a pair an exact cast finds touching: it is a filter before one.
func (b AABB) MeetsAlong(delta Vec2, c AABB) bool {
	e := math.Abs(b.Min.X) + math.Abs(b.Min.Y) + math.Abs(b.Max.X) + math.Abs(b.Max.Y) +
		math.Abs(c.Min.X) + math.Abs(c.Min.Y) + math.Abs(c.Max.X) + math.Abs(c.Max.Y) + math.Abs(delta.X) + math.Abs(delta.Y)
	c = c.Expand(float64(1e-12 * e))
	lo, hi := 0.0, 1.0
	for ax := range 2 {
		bmin, bmax, cmin, cmax, d := b.Min.X, b.Max.X, c.Min.X, c.Max.X, delta.X
		if ax == 1 {
			bmin, bmax, cmin, cmax, d = b.Min.Y, b.Max.Y, c.Min.Y, c.Max.Y, delta.Y
		}
		if d == 0 {
			if bmax < cmin || bmin > cmax {
				return false
			}
			continue
		}
		t0, t1 := (cmin-bmax)/d, (cmax-bmin)/d
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		lo, hi = max(lo, t0), min(hi, t1)
	}
	return lo <= hi
}
