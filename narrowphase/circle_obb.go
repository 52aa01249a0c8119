package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// circleHit is a circle contact in the other shape's local frame: the normal
// points from the circle to the other shape.
type circleHit struct {
	normal, point shape.Vec2
	depth         float64
}

// circleBoxCore collides the circle of centre c and radius r with the box of
// half extents h centred on the origin of its own frame, in which c is given.
//
// The centre is clamped into the box. Outside, the clamped point is the
// closest point of the box and the depth is r minus the distance to it.
// Inside (or on the boundary), the shortest way out crosses the nearest face:
// depth r plus the distance to that face, ties going to the X faces.
func circleBoxCore(c shape.Vec2, r float64, h shape.Vec2) (circleHit, bool) {
	q := shape.Vec2{X: clamp(c.X, -h.X, h.X), Y: clamp(c.Y, -h.Y, h.Y)}
	d := q.Sub(c)
	if l2 := d.LenSq(); l2 > 0 {
		if !(l2 < r*r) {
			return circleHit{}, false
		}
		dist := math.Sqrt(l2)
		depth := r - dist
		if !(depth > 0) {
			return circleHit{}, false
		}
		n := shape.Vec2{X: d.X / dist, Y: d.Y / dist}
		return circleHit{normal: n, point: q.Add(n.Scale(depth / 2)), depth: depth}, true
	}
	dx, dy := h.X-math.Abs(c.X), h.Y-math.Abs(c.Y)
	var nf shape.Vec2 // outward normal of the nearest face
	s := dx
	if dx <= dy {
		nf = shape.Vec2{X: sign(c.X)}
	} else {
		nf, s = shape.Vec2{Y: sign(c.Y)}, dy
	}
	depth := r + s
	if !(depth > 0) {
		return circleHit{}, false
	}
	// Midpoint of the face point c + nf·s and the circle's point c - nf·r.
	return circleHit{normal: nf.Neg(), point: c.Add(nf.Scale((s - r) / 2)), depth: depth}, true
}

// circleInBoxFrame returns the centre of circle a placed by ta in the frame
// of box b placed by tb, and b's effective transform.
func circleInBoxFrame(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (shape.Vec2, shape.Transform) {
	tb = b.EffectiveTransform(tb)
	return tb.MulInv(ta).Apply(a.Center()), tb
}

// circleBox collides circle a with box b (AABB or OBB) in b's frame.
//
// Its second result is the pair's scale (pairScale, from the numbers at
// hand: a box's reach is the sum of its half extents).
func circleBox(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	la, ra, hb := a.Center(), a.Radius(), b.HalfExtents()
	posB := tb.Pos
	tb = b.EffectiveTransform(tb)
	c := tb.MulInv(ta).Apply(la)
	h, ok := circleBoxCore(c, ra, hb)
	if !ok {
		return false, 0
	}
	m.single(h.normal, h.point, h.depth)
	m.toWorld(tb)
	return true, abs1(ta.Pos) + abs1(posB) + (abs1(la) + ra) + (hb.X + hb.Y)
}

func circleBoxOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	c, _ := circleInBoxFrame(a, ta, b, tb)
	h, ok := circleBoxCore(c, a.Radius(), b.HalfExtents())
	return h.depth, ok
}

// circleOBB collides a circle with an oriented box.
func circleOBB(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	return circleBox(a, ta, b, tb, m)
}

func circleOBBOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	return circleBoxOverlap(a, ta, b, tb)
}

// clamp returns x limited to [lo, hi]; NaN stays NaN.
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// sign returns -1 for negative x and +1 otherwise.
func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}
