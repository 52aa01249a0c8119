package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// Sweep is a shape's motion over a step: position and angle at t = 0 (P0,
// A0) and at t = 1 (P1, A1), both interpolated linearly in between.
type Sweep struct {
	P0, P1 shape.Vec2
	A0, A1 float64
}

// At returns the transform of the sweep at time t.
func (s Sweep) At(t float64) shape.Transform {
	return shape.NewTransform(s.P0.Add(s.P1.Sub(s.P0).Scale(t)), s.A0+float64(t*(s.A1-s.A0)))
}

// Tolerances of TimeOfImpact, relative to the size of the pair (the sum of
// their bounding radii): it stops advancing once the shapes are closer than
// toiTarget, so that at the time it returns they are within it of touching
// (the contract promises 1e-6), and the advancement never lets them overlap.
const (
	toiTarget = 1e-7
	// toiMaxIters bounds the advancement steps; each one closes a fixed
	// fraction of the gap or more, so grazing motions that need more are
	// the only ones that reach it (then the result is the time reached, a
	// hit if the gap left is within ten times the target).
	toiMaxIters = 500
)

// TimeOfImpact returns the first time t in [0, 1] at which shape a moving
// along sa and shape b moving along sb touch, for rotating shapes too: they
// do not overlap anywhere in [0, t), and at t they are within 1e-6 of their
// size of touching. Shapes that touch or overlap at 0 give 0. hit is false
// when they stay apart over the whole sweep (or an input is invalid: a zero
// Shape or a non-finite sweep).
//
// Algorithm: conservative advancement (Mirtich, "Impulse-based dynamic
// simulation of rigid body systems", 1996; Ericson, Real-Time Collision
// Detection, §9.5.4). At each time the distance d between the shapes and
// the direction n that separates them come from the Minkowski difference of
// their cores; no point of the pair can close the gap along n faster than
// the relative velocity along n plus each angular speed times its shape's
// bounding radius, so advancing by d over that bound cannot reach a touch.
// There is no limit on the rotation per step: a fast spin only makes the
// bound larger and the steps shorter.
func TimeOfImpact(a shape.Shape, sa Sweep, b shape.Shape, sb Sweep) (float64, bool) {
	if !a.Valid() || !b.Valid() || !sweepFinite(sa) || !sweepFinite(sb) {
		return 0, false
	}
	va, vb := sa.P1.Sub(sa.P0), sb.P1.Sub(sb.P0)
	wa, wb := math.Abs(sa.A1-sa.A0), math.Abs(sb.A1-sb.A0)
	if a.Kind() == shape.KindAABB {
		wa = 0 // an AABB never turns
	}
	if b.Kind() == shape.KindAABB {
		wb = 0
	}
	spin := float64(wa*a.BoundingRadius()) + float64(wb*b.BoundingRadius())
	size := a.BoundingRadius() + b.BoundingRadius()
	target := float64(toiTarget * size)
	vrel := va.Sub(vb)
	t := 0.0
	var ca, cb core
	var m mink
	for range toiMaxIters {
		ta, tb := sa.At(t), sb.At(t)
		ca.set(a, ta, tb.Pos)
		cb.set(b, tb, tb.Pos)
		m.build(&cb, &ca)
		d, n := m.gap()
		if d <= target {
			return t, true
		}
		// The fastest the gap can close along n.
		closing := math.Max(0, -vrel.Dot(n)) + spin
		if closing <= 0 {
			return 0, false
		}
		t += d / closing
		if t > 1 {
			return 0, false
		}
	}
	ta, tb := sa.At(t), sb.At(t)
	ca.set(a, ta, tb.Pos)
	cb.set(b, tb, tb.Pos)
	m.build(&cb, &ca)
	if d, _ := m.gap(); d <= 10*target {
		return t, true
	}
	return 0, false
}

func sweepFinite(s Sweep) bool {
	return s.P0.IsFinite() && s.P1.IsFinite() && shape.IsFinite(s.A0) && shape.IsFinite(s.A1) && s.P1.Sub(s.P0).IsFinite()
}

// gap returns the distance between the shapes whose Minkowski difference is
// m (0 when they touch or overlap) and the unit direction from b toward a
// along which it is measured.
func (m *mink) gap() (float64, shape.Vec2) {
	var c shape.Vec2 // the core's point nearest the origin
	if m.n == 1 {
		c = m.v[0]
	} else {
		k, u, _, inside := m.closest()
		if inside {
			return 0, shape.Vec2{X: 1}
		}
		v0 := m.v[k]
		c = v0.Add(m.v[(k+1)%m.n].Sub(v0).Scale(u))
	}
	l := c.Len()
	if !(l > m.r) {
		return 0, shape.Vec2{X: 1}
	}
	return l - m.r, c.Scale(-1 / l)
}
