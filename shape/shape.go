package shape

import (
	"fmt"
	"math"
	"unsafe"
)

// Kind names a shape kind. The order is canonical: pair routines exist only
// for kind pairs (a, b) with a <= b. The composite kinds come last and never
// reach a pair routine: the narrow phase walks their parts.
type Kind uint8

// The shape kinds, in canonical order.
const (
	// KindCircle is a disc with a radius and an optional local centre.
	KindCircle Kind = iota
	// KindAABB is a box that never rotates, whatever its body's angle.
	KindAABB
	// KindOBB is a box that turns with its body.
	KindOBB
	// KindPolygon is a convex polygon with counter-clockwise vertices.
	KindPolygon
	// KindCapsule is every point within a radius of a segment.
	KindCapsule
	// KindSegment is a line segment of zero thickness: a two-sided wall.
	KindSegment
	// KindCompound is several convex parts, each placed by an offset in
	// its body's frame, turning with the body.
	KindCompound
	// KindChain is a polyline of two-sided segments, open or closed: level
	// geometry.
	KindChain
	kindCount
)

// MaxMagnitude is the largest size or local coordinate a shape may have.
// Collision math squares distances, so anything much larger would overflow
// to infinity; 1e150 is far beyond any game world and keeps every square
// finite.
const MaxMagnitude = 1e150

// KindCount is the number of shape kinds.
const KindCount = int(kindCount)

// String returns the kind's short name: circle, aabb, obb, polygon,
// capsule, segment, compound or chain.
func (k Kind) String() string {
	switch k {
	case KindCircle:
		return "circle"
	case KindAABB:
		return "aabb"
	case KindOBB:
		return "obb"
	case KindPolygon:
		return "polygon"
	case KindCapsule:
		return "capsule"
	case KindSegment:
		return "segment"
	case KindCompound:
		return "compound"
	case KindChain:
		return "chain"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Convex reports whether k is one of the convex kinds, which the pair
// routines take directly; a compound is not.
func (k Kind) Convex() bool {
	return k < KindCompound
}

// Shape is a validated collision shape in its body's local frame: a small
// tagged value that is cheap to copy. Build one with [NewCircle],
// [NewOffsetCircle], [NewAABB], [NewOBB], [NewPolygon], [ConvexHull],
// [NewCapsule], [NewSegment], [NewCompound], [NewConcavePolygon] or
// [NewChain]; the
// zero Shape is not valid. Shapes are immutable, so one Shape may serve many
// bodies and goroutines at once.
type Shape struct {
	// p points just past the shape's head (its kind and vertex count,
	// headSize bytes): at a polygon's, capsule's or segment's vertices
	// then normals (2n Vec2, shared and immutable), at a compound's or
	// chain's compound, or, for a circle or box, into a static table of
	// heads. p is nil only in the zero Shape. Three fields of 32 bytes in
	// all, so that the compiler keeps a Shape in registers: a larger one
	// lives in memory, and every value method called on it copied it
	// there, reading back bytes just stored one by one.
	p unsafe.Pointer
	r float64 // circle or capsule radius, or polygon bounding radius
	v Vec2    // circle centre, box half extents, polygon centroid, segment midpoint
}

// head is what a Shape's pointer points just past: its kind and, for a
// polygon, capsule or segment, its vertex count. It fills one Vec2, so
// that it can lead a shape's vertex buffer.
type head struct {
	kind Kind
	n    uint8
	_    [14]byte
}

// headSize is the size of a head, and of a Vec2.
const headSize = unsafe.Sizeof(head{})

// simpleHeads holds the heads of the kinds with no data of their own
// (circles and boxes), each followed by the word a Shape points at.
var simpleHeads [KindChain + 1]struct {
	h    head
	data Vec2
}

func init() {
	for k := range simpleHeads {
		simpleHeads[k].h.kind = Kind(k)
	}
}

// simple returns a circle's or box's Shape fields p.
func simple(k Kind) unsafe.Pointer { return unsafe.Pointer(&simpleHeads[k].data) }

// hd returns s's head; s must be valid.
func (s *Shape) hd() *head { return (*head)(unsafe.Add(s.p, -int(headSize))) }

// kind returns s's kind, 0 for the zero Shape.
func (s *Shape) kind() Kind {
	if s.p == nil {
		return 0
	}
	return s.hd().kind
}

// n returns a polygon's, capsule's or segment's vertex count, else 0.
func (s *Shape) n() int {
	if s.p == nil {
		return 0
	}
	return int(s.hd().n)
}

// withHead writes a head of kind k and vertex count n into buf[0] and
// returns the pointer a Shape keeps: to buf[1].
func withHead(buf []Vec2, k Kind, n int) unsafe.Pointer {
	*(*head)(unsafe.Pointer(&buf[0])) = head{kind: k, n: uint8(n)}
	return unsafe.Pointer(&buf[1])
}

// Identical reports whether s and t are the same shape value: the same
// kind and numbers, bit for bit (so a −0 differs from a +0), and the same
// vertex or part data. Identical shapes behave identically everywhere;
// shapes built separately from equal numbers are equal in content but not
// Identical.
func (s Shape) Identical(t Shape) bool {
	return s.p == t.p &&
		math.Float64bits(s.r) == math.Float64bits(t.r) &&
		math.Float64bits(s.v.X) == math.Float64bits(t.v.X) && math.Float64bits(s.v.Y) == math.Float64bits(t.v.Y)
}

// comp returns a compound's or chain's parts, or nil.
func (s Shape) comp() *compound {
	if k := s.kind(); k != KindCompound && k != KindChain {
		return nil
	}
	return (*compound)(s.p)
}

// polyData returns a polygon's vertices followed by its normals
// (empty for other kinds, whose n is 0).
func (s Shape) polyData() []Vec2 { return unsafe.Slice((*Vec2)(s.p), 2*s.n()) }

// NewCircle returns a circle of radius r centred on its body's origin.
func NewCircle(r float64) (Shape, error) { return NewOffsetCircle(Vec2{}, r) }

// NewOffsetCircle returns a circle of radius r centred on the local point c.
func NewOffsetCircle(c Vec2, r float64) (Shape, error) {
	if !isFinite(r) || !c.IsFinite() {
		return Shape{}, fmt.Errorf("%w: circle radius %v centre %v", ErrNotFinite, r, c)
	}
	if r <= 0 {
		return Shape{}, fmt.Errorf("%w: circle radius %v", ErrNonPositiveSize, r)
	}
	if r > MaxMagnitude || math.Abs(c.X) > MaxMagnitude || math.Abs(c.Y) > MaxMagnitude {
		return Shape{}, fmt.Errorf("%w: circle radius %v centre %v (limit %g)", ErrTooLarge, r, c, MaxMagnitude)
	}
	return Shape{p: simple(KindCircle), r: r, v: c}, nil
}

// NewAABB returns an axis-aligned box with half width hw and half height hh,
// centred on its body's origin. It never rotates: its body's angle is
// ignored, so it stays axis-aligned in the world. Use [NewOBB] for a box that
// turns.
func NewAABB(hw, hh float64) (Shape, error) { return newBox(KindAABB, hw, hh) }

// NewOBB returns an oriented box with half width hw and half height hh,
// centred on its body's origin, that turns with its body.
func NewOBB(hw, hh float64) (Shape, error) { return newBox(KindOBB, hw, hh) }

func newBox(k Kind, hw, hh float64) (Shape, error) {
	if !isFinite(hw) || !isFinite(hh) {
		return Shape{}, fmt.Errorf("%w: %s half extents (%v, %v)", ErrNotFinite, k, hw, hh)
	}
	if hw <= 0 || hh <= 0 {
		return Shape{}, fmt.Errorf("%w: %s half extents (%v, %v)", ErrNonPositiveSize, k, hw, hh)
	}
	if hw > MaxMagnitude || hh > MaxMagnitude {
		return Shape{}, fmt.Errorf("%w: %s half extents (%v, %v) (limit %g)", ErrTooLarge, k, hw, hh, MaxMagnitude)
	}
	return Shape{p: simple(k), v: Vec2{hw, hh}}, nil
}

// Kind returns the shape's kind.
func (s Shape) Kind() Kind { return s.kind() }

// ValidKind returns s's kind and whether s is valid ([Shape.Kind] and
// [Shape.Valid] together), for the narrow phase's every pair.
func (s Shape) ValidKind() (Kind, bool) { return s.kind(), s.p != nil }

// Valid reports whether s came from a constructor. The zero Shape is not
// valid.
func (s Shape) Valid() bool { return s.p != nil }

// Radius returns a circle's or a capsule's radius, or 0 for other kinds.
func (s Shape) Radius() float64 {
	if s.kind() != KindCircle && s.kind() != KindCapsule {
		return 0
	}
	return s.r
}

// Center returns a circle's local centre, a polygon's centroid, the
// midpoint of a capsule or segment, or the origin for boxes and compounds.
func (s Shape) Center() Vec2 {
	switch s.kind() {
	case KindCircle, KindPolygon, KindCapsule, KindSegment:
		return s.v
	}
	return Vec2{}
}

// HalfExtents returns a box's half width and half height, or zero for other
// kinds.
func (s Shape) HalfExtents() Vec2 {
	if s.kind() == KindAABB || s.kind() == KindOBB {
		return s.v
	}
	return Vec2{}
}

// Vertices returns a polygon's local vertices in counter-clockwise order, a
// capsule's or segment's two ends, or nil for other kinds. The slice is
// shared: do not modify it.
func (s Shape) Vertices() []Vec2 {
	if s.n() == 0 {
		return nil
	}
	n := int(s.n())
	return s.polyData()[:n:n]
}

// Normals returns a polygon's outward unit edge normals, Normals()[i] for the
// edge from vertex i to vertex i+1 (for a capsule or segment, the normals of
// its two sides: right of p0→p1, then left), or nil for other kinds. The
// slice is shared: do not modify it.
func (s Shape) Normals() []Vec2 {
	if s.n() == 0 {
		return nil
	}
	return s.polyData()[s.n():]
}

// Corners returns a box's four local corners in counter-clockwise order,
// starting at (-hw, -hh). For other kinds it returns zeros.
func (s Shape) Corners() [4]Vec2 {
	h := s.HalfExtents()
	return [4]Vec2{{-h.X, -h.Y}, {h.X, -h.Y}, {h.X, h.Y}, {-h.X, h.Y}}
}

// EffectiveTransform returns the transform the shape is actually placed by:
// t itself, except for an AABB, which keeps t's position and drops its
// rotation.
func (s Shape) EffectiveTransform(t Transform) Transform {
	if s.kind() == KindAABB {
		return Transform{Pos: t.Pos}
	}
	return t
}

// WorldAABB returns an axis-aligned box around s placed by t: the tightest
// box, grown on every side by a margin of 16 eps (eps = 2⁻⁵²) times
// |t.Pos.X| + |t.Pos.Y| + e, where e bounds the distance of the shape's
// local points from its body's origin (|c.X| + |c.Y| + r for a circle
// centred on c, hw + hh for a box, the bounding radius for a polygon). The
// box holds the exact shape whatever the rounding of the arithmetic that
// places it, and, more, whatever the rounding of the narrow phase, so that
// for valid shapes whose sizes and coordinates stay above about 1e-150
// (their squares do not underflow):
//
//   - if narrowphase.Collide(a, ta, b, tb) reports a contact, however
//     shallow, a.WorldAABB(ta).Overlaps(b.WorldAABB(tb));
//   - if narrowphase.ContainsPoint(s, t, p), then s.WorldAABB(t).Contains(p);
//   - if narrowphase.RayCast(s, t, origin, dir, max) hits, the ray meets
//     the box, provided its origin lies within |t.Pos.X| + |t.Pos.Y| + e
//     of t.Pos (for a polygon, within sin(θ/2) times that, θ its sharpest
//     interior angle). A ray is decided with roundings of its own length,
//     and a polygon's edges round apart, which a sharp vertex amplifies by
//     1/sin(θ/2); no box of the shape can cover rays from farther away.
//
// [AABB.Overlaps] and [AABB.Contains] are inclusive, so boxes that only
// touch overlap. The World relies on this to never miss a contact its
// narrow phase finds. WorldAABB is branch-free apart from the kind switch
// and a polygon's vertex loop, and calls no square root or trigonometry.
func (s Shape) WorldAABB(t Transform) AABB {
	// One switch and no call for the convex kinds: the box of every moved
	// body is made here, and a second call would copy the shape and the
	// transform through memory again.
	var b AABB
	var e float64 // bounds the distance of the shape's local points from its body's origin
	switch s.kind() {
	case KindCircle:
		c := t.Apply(s.v)
		b, e = AABB{Min: Vec2{c.X - s.r, c.Y - s.r}, Max: Vec2{c.X + s.r, c.Y + s.r}}, math.Abs(s.v.X)+math.Abs(s.v.Y)+s.r
	case KindAABB:
		b, e = AABBFromCenter(t.Pos, s.v), s.v.X+s.v.Y
	case KindOBB:
		c, sn := math.Abs(t.Rot.Cos()), math.Abs(t.Rot.s)
		h := Vec2{float64(c*s.v.X) + float64(sn*s.v.Y), float64(sn*s.v.X) + float64(c*s.v.Y)}
		b, e = AABBFromCenter(t.Pos, h), s.v.X+s.v.Y
	case KindPolygon:
		if s.n() == 0 {
			b = AABB{Min: t.Pos, Max: t.Pos}
			break
		}
		// Plain comparisons, not math.Min: the vertices are finite, so the
		// NaN and signed-zero rules that make math.Min slow do not apply.
		verts := s.Vertices()
		p := t.Rot.Apply(verts[0])
		lo, hi := p, p
		for _, v := range verts[1:] {
			p = t.Rot.Apply(v)
			if p.X < lo.X {
				lo.X = p.X
			} else if p.X > hi.X {
				hi.X = p.X
			}
			if p.Y < lo.Y {
				lo.Y = p.Y
			} else if p.Y > hi.Y {
				hi.Y = p.Y
			}
		}
		b, e = AABB{Min: lo.Add(t.Pos), Max: hi.Add(t.Pos)}, s.r
	case KindCapsule, KindSegment:
		if s.n() == 0 {
			b = AABB{Min: t.Pos, Max: t.Pos}
			break
		}
		d := s.polyData()
		p, q := t.Apply(d[0]), t.Apply(d[1])
		lo := Vec2{min(p.X, q.X) - s.r, min(p.Y, q.Y) - s.r}
		hi := Vec2{max(p.X, q.X) + s.r, max(p.Y, q.Y) + s.r}
		b = AABB{Min: lo, Max: hi}
		e = max(math.Abs(d[0].X)+math.Abs(d[0].Y), math.Abs(d[1].X)+math.Abs(d[1].Y)) + s.r
	case KindCompound:
		// Each part's box holds the part as the narrow phase places it
		// (by t.Mul(offset)), with its own margin.
		return s.comp().worldAABB(t)
	case KindChain:
		return s.comp().chain.worldAABB(t)
	default:
		b = AABB{Min: t.Pos, Max: t.Pos}
	}
	// Each term is scaled before the sum, so that positions near
	// ±MaxFloat64 do not overflow; the explicit conversions keep it FMA-free
	// on arm64.
	m := float64(boxSlack*math.Abs(t.Pos.X)) + float64(boxSlack*math.Abs(t.Pos.Y)) + float64(boxSlack*e)
	return b.Expand(m)
}

// boxSlack is WorldAABB's margin relative to E = |t.Pos.X| + |t.Pos.Y| + e,
// which bounds every coordinate of the shape in the world and in any other
// body's frame.
//
// The world box is off the exact one by at most about 3 eps·E per
// coordinate: a rotated point costs two products and a difference, each
// rounding by half an ulp of terms no larger than √2·e, then the
// translation (and an offset circle's ± r) one more half ulp of E.
//
// The narrow phase works in A's frame: B's position minus A's (half an ulp
// of |posA| + |posB|), rotated back (two more), B's points rotated by the
// relative rotation (about 3 eps of e_B, counting the rotations' own
// lengths, 1 ± 2 eps), then projected on A's unit normals (an ulp of the
// coordinates in A's frame, at most E_A + E_B). Summed, it reports contacts
// between shapes that are apart by up to about 8 eps·(E_A + E_B), and on
// each axis the gap between the two exact boxes is no larger.
//
// So the two margins must reach 8 eps·(E_A + E_B) + 3 eps·E_A + 3 eps·E_B,
// 11 eps·(E_A + E_B): 16 eps covers it. A ray from an origin D away rounds
// by a few eps·D, which D <= E (D <= E·sin(θ/2) at a polygon's vertex of
// angle θ) keeps within the same budget. TestWorldAABBHoldsEveryContact
// measures far less in practice: the exact boxes of pairs Collide hits are
// at most about 0.3 eps·(E_A + E_B) apart, and the whole test still passes
// with 3 eps. The margin at (1e7, 1e7) is about 7e-8, far below anything a
// broad phase notices.
const boxSlack = 16 * 0x1p-52

// Reach returns a bound of the distance from s's origin to its farthest
// point, without a square root: |c.X| + |c.Y| + r for a circle centred on
// c, hw + hh for a box, the farther core end's |x| + |y| plus the radius
// for a capsule or segment, BoundingRadius for a polygon, compound or
// chain (stored). It is at least the farthest point's max(|x|, |y|) and
// at most √2 times BoundingRadius (plus a capsule's radius). It is the
// narrow phase's per-contact scale.
func (s Shape) Reach() float64 {
	switch s.kind() {
	case KindCircle:
		return math.Abs(s.v.X) + math.Abs(s.v.Y) + s.r
	case KindAABB, KindOBB:
		return s.v.X + s.v.Y
	case KindPolygon:
		return s.r
	case KindCapsule, KindSegment:
		// A comparison, not max, which spends instructions on NaNs and
		// signed zeros that valid shapes do not have.
		d := (*[2]Vec2)(s.p) // the two ends (n is 2: see newSegmentShape)
		e0, e1 := math.Abs(d[0].X)+math.Abs(d[0].Y), math.Abs(d[1].X)+math.Abs(d[1].Y)
		if e1 > e0 {
			e0 = e1
		}
		return e0 + s.r
	case KindCompound, KindChain:
		return s.comp().radius
	}
	return math.Inf(1)
}

// BoundingRadius returns the radius of the smallest origin-centred disc that
// contains s in its local frame.
func (s Shape) BoundingRadius() float64 {
	switch s.kind() {
	case KindCircle:
		return hypot(s.v.X, s.v.Y) + s.r
	case KindAABB, KindOBB:
		return hypot(s.v.X, s.v.Y)
	case KindPolygon:
		return s.r
	case KindCapsule, KindSegment:
		p0, p1 := s.Segment()
		return max(hypot(p0.X, p0.Y), hypot(p1.X, p1.Y)) + s.r
	case KindCompound, KindChain:
		return s.comp().radius
	}
	return 0
}

// String describes s briefly, for logs and test failures.
func (s Shape) String() string {
	switch s.kind() {
	case KindCircle:
		if s.v != (Vec2{}) {
			return fmt.Sprintf("circle(r=%g at %g,%g)", s.r, s.v.X, s.v.Y)
		}
		return fmt.Sprintf("circle(r=%g)", s.r)
	case KindAABB, KindOBB:
		return fmt.Sprintf("%s(%g×%g)", s.kind(), s.v.X, s.v.Y)
	case KindPolygon:
		return fmt.Sprintf("polygon%v", s.Vertices())
	case KindCapsule:
		p0, p1 := s.Segment()
		return fmt.Sprintf("capsule(%g,%g–%g,%g r=%g)", p0.X, p0.Y, p1.X, p1.Y, s.r)
	case KindSegment:
		p0, p1 := s.Segment()
		return fmt.Sprintf("segment(%g,%g–%g,%g)", p0.X, p0.Y, p1.X, p1.Y)
	case KindCompound:
		return fmt.Sprintf("compound(%d parts)", len(s.comp().parts))
	case KindChain:
		return fmt.Sprintf("chain(%d points, closed %v)", len(s.comp().chain.points), s.comp().chain.closed)
	}
	return s.kind().String()
}
