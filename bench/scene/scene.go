package scene

import "fmt"

// Kind names the shape of a [Body]. The first four are in the canonical
// order of the collide shape kinds (circle, aabb, obb, polygon); capsule
// and concave bodies come after them.
type Kind uint8

// The body kinds, in canonical order.
const (
	// KindCircle is a disc of radius A centred on the body's position.
	KindCircle Kind = iota
	// KindAABB is a box of half extents A and B that never rotates: its
	// body's angle is ignored.
	KindAABB
	// KindOBB is a box of half extents A and B rotated by the body's angle.
	KindOBB
	// KindPolygon is a convex polygon with the counter-clockwise local
	// vertices Verts, rotated by the body's angle.
	KindPolygon
	// KindCapsule is a capsule along the local x axis from (-A, 0) to
	// (A, 0) with radius B, rotated by the body's angle.
	KindCapsule
	// KindConcave is a simple, possibly concave outline with the local
	// vertices Verts (either winding), rotated by the body's angle: a
	// compound of the convex pieces collide.Decompose cuts it into.
	KindConcave
	kindCount
)

// kindNames are the kind tokens of the CSV format, indexed by Kind.
var kindNames = [kindCount]string{"circle", "aabb", "obb", "poly", "capsule", "concave"}

// String returns the kind's token in the CSV format: circle, aabb, obb,
// poly, capsule or concave.
func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// hasVerts reports whether bodies of kind k carry vertices.
func (k Kind) hasVerts() bool { return k == KindPolygon || k == KindConcave }

// Body is one body of a scene: its shape, its pose and its motion per frame.
type Body struct {
	// Kind is the body's shape kind.
	Kind Kind
	// X and Y are the body's position in world units.
	X, Y float64
	// VX and VY are the body's velocity in world units per frame.
	VX, VY float64
	// Angle is the body's rotation in radians, counter-clockwise. It is
	// meaningful for every kind but KindCircle and KindAABB.
	Angle float64
	// Omega is the body's spin in radians per frame.
	Omega float64
	// A is the radius of a circle, the half width of a box or the half
	// length of a capsule's core.
	A float64
	// B is the half height of a box or the radius of a capsule.
	B float64
	// Verts holds a polygon's local vertices (x, y), counter-clockwise, or
	// a concave body's outline; it is nil for the other kinds.
	Verts [][2]float64
	// Static reports whether the body never moves: Advance leaves it alone.
	Static bool
}

// Scene is a benchmark scene: a square world [0, World]² and its bodies.
type Scene struct {
	// Name is the scene's name, the first word of the CSV header (swarm,
	// arena). It contains no space, comma or '='.
	Name string
	// N is the number of bodies; it equals len(Bodies).
	N int
	// World is the side of the square world in world units.
	World float64
	// Seed is the seed the scene was generated from.
	Seed uint64
	// Bodies holds the scene's bodies; a body's index is its identity.
	Bodies []Body
}

// Advance moves every non-static body by one frame of the shared motion
// rule, in float64 and in this order:
//
//	x += vx; if x < 0 { x = -x; vx = -vx } else if x > W { x = 2*W - x; vx = -vx }
//	y += vy; the same rule with vy
//	angle += omega
//
// W is s.World. A body more than one world width outside the world is not
// brought back in one frame; the rule is applied as written.
func (s *Scene) Advance() {
	w := s.World
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Static {
			continue
		}
		b.X, b.VX = reflect(b.X+b.VX, b.VX, w)
		b.Y, b.VY = reflect(b.Y+b.VY, b.VY, w)
		b.Angle += b.Omega
	}
}

// reflect applies the wall rule of Advance to one coordinate p that has
// already moved by its velocity v. 2*w is exact, so no fused multiply-add
// can change the result.
func reflect(p, v, w float64) (float64, float64) {
	if p < 0 {
		return -p, -v
	} else if p > w {
		return 2*w - p, -v
	}
	return p, v
}
