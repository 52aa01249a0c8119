package narrowphase

import "github.com/collide-go/collide/shape"

// ContactPoint is one world-space point of a contact with its own
// penetration depth along the manifold normal (> 0).
type ContactPoint struct {
	Point shape.Vec2 // world point midway between the surfaces
	Depth float64    // overlap of the surfaces there, along the normal (> 0)
}

// Manifold describes how two overlapping shapes A and B touch.
//
// Normal is a unit vector pointing from A to B. Depth (> 0) is the length of
// the minimum translation vector: moving B by Normal*Depth, or A by its
// negation, makes the pair touch in exact arithmetic. In floating point that
// move can leave them overlapping by a few ulps (so the next Collide reports
// them again); PushOut gives a translation that is checked to clear. Points[:Count] (Count is 1 or 2) are the
// world contact points: each lies midway between the two surfaces, and its
// Depth is the overlap of the surfaces there, measured along Normal.
type Manifold struct {
	Normal shape.Vec2      // unit vector from A to B
	Depth  float64         // penetration depth, the length of the MTV (> 0)
	Points [2]ContactPoint // contact points; only Points[:Count] are set
	Count  int             // 1 or 2
}

// MTV returns the minimum translation vector, Normal*Depth: applied to B it
// brings the pair to touching, up to a few ulps of rounding (see PushOut).
func (m Manifold) MTV() shape.Vec2 { return m.Normal.Scale(m.Depth) }

// Flip returns the manifold seen from B: the normal is negated; depth and
// points are unchanged.
func (m Manifold) Flip() Manifold {
	m.Normal = m.Normal.Neg()
	return m
}
