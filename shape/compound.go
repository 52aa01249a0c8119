package shape

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// ErrInvalidPart reports a compound part that cannot be one: an invalid,
// nested-compound or AABB shape (an AABB never turns, so it could not turn
// with its body), or a non-finite offset.
var ErrInvalidPart = errors.New("shape: invalid compound part")

// MaxParts is the most parts a compound may have.
const MaxParts = 1 << 16

// Part is one convex piece of a compound shape: a shape placed by Offset in
// the compound's local frame.
type Part struct {
	Shape  Shape     // a circle, OBB, polygon, capsule or segment
	Offset Transform // the part's place in the compound's frame
}

// compound is a compound shape's shared, immutable data.
type compound struct {
	parts  []Part
	radius float64 // bounding radius about the local origin
	chain  *chain  // a chain's segments, for KindChain
}

// compoundBlock is a compound's or chain's one allocation: its head, then
// the compound its Shape points at.
type compoundBlock struct {
	h head
	c compound
}

// compoundShape returns the Shape of kind k (KindCompound or KindChain)
// that holds c.
func compoundShape(k Kind, c compound) Shape {
	b := &compoundBlock{h: head{kind: k}, c: c}
	return Shape{p: unsafe.Pointer(&b.c)}
}

// NewCompound returns a shape made of several convex parts that move and
// turn together with their body: a ship of hull and turrets, a building of
// rooms. Each part is a circle, OBB, polygon, capsule or segment placed by
// its offset; an AABB part is refused (it could not turn with the body),
// and so are a compound part (flatten it first) and a chain. The narrow phase collides
// compounds part by part; the World reports one contact per overlapping
// part pair, naming the parts by their index in parts. Errors wrap
// [ErrInvalidPart] (also for no parts or more than [MaxParts]),
// [ErrNotFinite] or [ErrTooLarge], and name the part. The parts are copied.
func NewCompound(parts []Part) (Shape, error) {
	if len(parts) == 0 {
		return Shape{}, fmt.Errorf("%w: a compound needs at least one part", ErrInvalidPart)
	}
	if len(parts) > MaxParts {
		return Shape{}, fmt.Errorf("%w: %d parts, the most is %d", ErrInvalidPart, len(parts), MaxParts)
	}
	c := compound{parts: make([]Part, len(parts))}
	for i, p := range parts {
		switch {
		case !p.Shape.Valid():
			return Shape{}, fmt.Errorf("%w: part %d is not a valid shape", ErrInvalidPart, i)
		case p.Shape.kind() == KindAABB:
			return Shape{}, fmt.Errorf("%w: part %d is an AABB, which cannot turn with its body; use an OBB", ErrInvalidPart, i)
		case p.Shape.kind() == KindCompound:
			return Shape{}, fmt.Errorf("%w: part %d is itself a compound; add its parts instead", ErrInvalidPart, i)
		case p.Shape.kind() == KindChain:
			return Shape{}, fmt.Errorf("%w: part %d is a chain; give a chain a body of its own", ErrInvalidPart, i)
		}
		if p.Offset.Validate() != nil {
			return Shape{}, fmt.Errorf("%w: part %d offset %+v", ErrNotFinite, i, p.Offset)
		}
		if math.Abs(p.Offset.Pos.X) > MaxMagnitude || math.Abs(p.Offset.Pos.Y) > MaxMagnitude {
			return Shape{}, fmt.Errorf("%w: part %d offset %v (limit %g)", ErrTooLarge, i, p.Offset.Pos, MaxMagnitude)
		}
		c.parts[i] = p
		c.radius = max(c.radius, hypot(p.Offset.Pos.X, p.Offset.Pos.Y)+p.Shape.BoundingRadius())
	}
	return compoundShape(KindCompound, c), nil
}

// NewConcavePolygon returns the compound of the convex pieces [Decompose]
// cuts the simple outline into (either winding), each a polygon part with
// the identity offset. Errors are Decompose's.
func NewConcavePolygon(outline []Vec2) (Shape, error) {
	pieces, err := Decompose(outline)
	if err != nil {
		return Shape{}, err
	}
	parts := make([]Part, len(pieces))
	for i, pc := range pieces {
		s, err := NewPolygon(pc)
		if err != nil {
			// Decompose promises pieces NewPolygon accepts.
			panic(fmt.Sprintf("shape: piece %d of a decomposed outline refused: %v", i, err))
		}
		parts[i] = Part{Shape: s}
	}
	return NewCompound(parts)
}

// Parts returns a compound's parts in the order given to [NewCompound], or
// nil for a simple shape or a chain (whose segments [Shape.Part] gives).
// The slice is shared: do not modify it.
func (s Shape) Parts() []Part {
	if s.kind() != KindCompound || s.comp() == nil {
		return nil
	}
	return s.comp().parts
}

// PartCount returns the number of parts a body of shape s has: the
// compound's part count, a chain's segment count, or 1 for a simple shape.
func (s Shape) PartCount() int {
	switch {
	case s.kind() == KindCompound && s.comp() != nil:
		return len(s.comp().parts)
	case s.kind() == KindChain && s.comp() != nil:
		return len(s.comp().chain.segs) / segStride
	}
	return 1
}

// Part returns part i of s placed by t: the part's shape and its world
// transform (t times the part's offset; for segment i of a chain, a
// segment shape placed by t itself). For a simple shape, part 0 is s
// itself, placed by t.
func (s Shape) Part(i int, t Transform) (Shape, Transform) {
	switch s.kind() {
	case KindCompound:
		p := s.comp().parts[i]
		return p.Shape, t.Mul(p.Offset)
	case KindChain:
		return s.comp().chain.segment(i), t
	}
	return s, t
}

// worldAABB is the union of the parts' world boxes.
func (c *compound) worldAABB(t Transform) AABB {
	b := c.parts[0].Shape.WorldAABB(t.Mul(c.parts[0].Offset))
	for _, p := range c.parts[1:] {
		b = b.Union(p.Shape.WorldAABB(t.Mul(p.Offset)))
	}
	return b
}
