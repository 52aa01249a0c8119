package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// alignedCore returns the overlaps along X and Y of a box of half extents ha
// at the origin and a box of half extents hb centred at d, both axis-aligned,
// and whether both are positive.
func alignedCore(ha, hb, d shape.Vec2) (ox, oy float64, ok bool) {
	ox = (ha.X + hb.X) - math.Abs(d.X)
	oy = (ha.Y + hb.Y) - math.Abs(d.Y)
	return ox, oy, ox > 0 && oy > 0
}

// alignedManifold builds the manifold of two overlapping axis-aligned boxes
// (see alignedCore) in their common frame. The axis of least overlap is the
// normal (X on a tie); the two points are the ends of the overlap of the
// facing faces, midway between them. It writes the manifold to m.
func alignedManifold(m *Manifold, ha, hb, d shape.Vec2, ox, oy float64) {
	m.Count = 2
	if ox <= oy {
		sx := sign(d.X)
		x := (float64(sx*ha.X) + (d.X - float64(sx*hb.X))) / 2
		lo, hi := max(-ha.Y, d.Y-hb.Y), min(ha.Y, d.Y+hb.Y)
		m.Normal, m.Depth = shape.Vec2{X: sx}, ox
		// Field by field: an array built and copied whole stalls the
		// copy on the stores it reads.
		m.Points[0].Point, m.Points[0].Depth = shape.Vec2{X: x, Y: lo}, ox
		m.Points[1].Point, m.Points[1].Depth = shape.Vec2{X: x, Y: hi}, ox
		return
	}
	sy := sign(d.Y)
	y := (float64(sy*ha.Y) + (d.Y - float64(sy*hb.Y))) / 2
	lo, hi := max(-ha.X, d.X-hb.X), min(ha.X, d.X+hb.X)
	m.Normal, m.Depth = shape.Vec2{Y: sy}, oy
	m.Points[0].Point, m.Points[0].Depth = shape.Vec2{X: lo, Y: y}, oy
	m.Points[1].Point, m.Points[1].Depth = shape.Vec2{X: hi, Y: y}, oy
}

// aabbAABB collides two axis-aligned boxes by their X and Y intervals,
// relative to A's centre.
// Its second result is the pair's scale (boxScale).
func aabbAABB(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	ha, hb := a.HalfExtents(), b.HalfExtents()
	d := tb.Pos.Sub(ta.Pos)
	ox, oy, ok := alignedCore(ha, hb, d)
	if !ok {
		return false, 0
	}
	alignedManifold(m, ha, hb, d, ox, oy)
	for i := range m.Points {
		m.Points[i].Point = m.Points[i].Point.Add(ta.Pos)
	}
	return true, boxScale(ta.Pos, ha, tb.Pos, hb)
}

// boxScale is pairScale for two boxes with half extents ha and hb at pa
// and pb: the positions' magnitudes plus each box's reach, the sum of its
// half extents.
func boxScale(pa, ha, pb, hb shape.Vec2) float64 {
	return abs1(pa) + abs1(pb) + (ha.X + ha.Y) + (hb.X + hb.Y)
}

func aabbAABBOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	ox, oy, ok := alignedCore(a.HalfExtents(), b.HalfExtents(), tb.Pos.Sub(ta.Pos))
	return min(ox, oy), ok
}
