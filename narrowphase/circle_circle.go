package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// circleCircleCore returns the vector from a's centre to b's centre, their
// distance and the penetration depth, and whether the circles overlap. The
// vector is built from the difference of positions plus the difference of
// rotated local centres, so it is exact to rounding at any distance from the
// origin and exactly negated when a and b swap.
func circleCircleCore(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform) (d shape.Vec2, dist, depth float64, ok bool) {
	d = tb.Pos.Sub(ta.Pos).Add(tb.Rot.Apply(b.Center()).Sub(ta.Rot.Apply(a.Center())))
	rs := a.Radius() + b.Radius()
	l2 := d.LenSq()
	if !(l2 < rs*rs) {
		return d, 0, 0, false
	}
	dist = math.Sqrt(l2)
	depth = rs - dist
	return d, dist, depth, depth > 0
}

// circleCircle collides two circles: depth ra+rb-|d|, normal along the centre
// line (+X when the centres coincide), the single point midway between the
// two surfaces on that line. Its second result is the pair's scale
// (pairScale, from the numbers at hand).
func circleCircle(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	d, dist, depth, ok := circleCircleCore(a, ta, b, tb)
	if !ok {
		return false, 0
	}
	n := shape.Vec2{X: 1} // coincident centres
	if dist > 0 {
		n = shape.Vec2{X: d.X / dist, Y: d.Y / dist}
	}
	// Midpoint of A's surface point ca + n·ra and B's cb - n·rb.
	la, ra, lb, rb := a.Center(), a.Radius(), b.Center(), b.Radius()
	ca := ta.Apply(la)
	p := ca.Add(d.Add(n.Scale(ra - rb)).Scale(0.5))
	m.single(n, p, depth)
	// pairScale: the positions' magnitudes plus each circle's reach.
	return true, abs1(ta.Pos) + abs1(tb.Pos) + (abs1(la) + ra) + (abs1(lb) + rb)
}

// abs1 returns |v.X| + |v.Y|.
func abs1(v shape.Vec2) float64 { return math.Abs(v.X) + math.Abs(v.Y) }

func circleCircleOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	_, _, depth, ok := circleCircleCore(&a, ta, &b, tb)
	return depth, ok
}
