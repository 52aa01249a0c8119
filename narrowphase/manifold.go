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
// move rounds and can leave them overlapping by a few ulps, so that the next
// Collide reports them again; [PushOut] gives a translation that is checked
// to clear. Points[:Count] (Count is 1 or 2) are the world contact points:
// each lies midway between the two surfaces, and its Depth is the overlap of
// the surfaces there, measured along Normal.
type Manifold struct {
	Normal shape.Vec2      // unit vector from A to B
	Depth  float64         // penetration depth, the length of the MTV (> 0)
	Points [2]ContactPoint // contact points; only Points[:Count] are set
	Count  int             // 1 or 2
}

// MTV returns the minimum translation vector, Normal*Depth. Moving B by it,
// or A by its negation, makes the shapes touch in exact arithmetic; in
// floating point the move can leave an overlap of a few ulps, which the next
// Collide reports as a contact again (for 30% to 50% of random pairs). Use
// [PushOut] for a translation that is guaranteed to clear.
func (m Manifold) MTV() shape.Vec2 { return m.Normal.Scale(m.Depth) }

// Flip returns the manifold seen from B: the normal is negated; depth and
// points are unchanged.
func (m Manifold) Flip() Manifold {
	m.Normal = m.Normal.Neg()
	return m
}
