package shape

import (
	"fmt"
	"math"
)

// NewCapsule returns the capsule of every point within r of the segment
// from p0 to p1 (local coordinates): a rectangle with a half disc on each
// end, the usual shape of a game character. A capsule of zero length
// (p0 == p1) is refused with [ErrNonPositiveSize]: use a circle.
//
// The narrow phase treats a capsule as its core segment grown by r, so
// every pair routine is exact for it: the depth is the core's overlap plus
// the radii, or the radii minus the cores' distance.
func NewCapsule(p0, p1 Vec2, r float64) (Shape, error) {
	if !p0.IsFinite() || !p1.IsFinite() || !isFinite(r) {
		return Shape{}, fmt.Errorf("%w: capsule %v–%v radius %v", ErrNotFinite, p0, p1, r)
	}
	if r <= 0 {
		return Shape{}, fmt.Errorf("%w: capsule radius %v", ErrNonPositiveSize, r)
	}
	if r > MaxMagnitude {
		return Shape{}, fmt.Errorf("%w: capsule radius %v (limit %g)", ErrTooLarge, r, MaxMagnitude)
	}
	return newSegmentShape(KindCapsule, p0, p1, r)
}

// NewSegment returns the line segment from p0 to p1 (local coordinates): a
// two-sided wall of zero thickness. A shape with area that crosses it
// collides with it, with the shortest translation that clears them as its
// depth; two segments never collide (walls do not collide with walls), and
// a segment touching a shape only at its surface does not either. A
// segment of zero length (p0 == p1) is refused with [ErrNonPositiveSize].
func NewSegment(p0, p1 Vec2) (Shape, error) {
	if !p0.IsFinite() || !p1.IsFinite() {
		return Shape{}, fmt.Errorf("%w: segment %v–%v", ErrNotFinite, p0, p1)
	}
	return newSegmentShape(KindSegment, p0, p1, 0)
}

// newSegmentShape builds a capsule or segment from checked numbers. Like a
// polygon it keeps its two vertices and the normals of its two sides (the
// edge p0→p1 and back) in one allocation, after its head, so that the polygon routines see
// a two-vertex hull.
func newSegmentShape(k Kind, p0, p1 Vec2, r float64) (Shape, error) {
	for _, p := range [2]Vec2{p0, p1} {
		if math.Abs(p.X) > MaxMagnitude || math.Abs(p.Y) > MaxMagnitude {
			return Shape{}, fmt.Errorf("%w: %s end %v (limit %g)", ErrTooLarge, k, p, MaxMagnitude)
		}
	}
	if p0 == p1 {
		hint := ""
		if k == KindCapsule {
			hint = "; use a circle"
		}
		return Shape{}, fmt.Errorf("%w: %s of zero length, both ends at %v%s", ErrNonPositiveSize, k, p0, hint)
	}
	e := p1.Sub(p0)
	// Scaled before normalising, so that a length whose square underflows
	// (ends 1e-200 apart) still gives a unit normal.
	s := max(math.Abs(e.X), math.Abs(e.Y))
	n := Vec2{e.Y / s, -e.X / s}.Normalize()
	buf := make([]Vec2, 5)
	buf[1], buf[2], buf[3], buf[4] = p0, p1, n, n.Neg()
	mid := Vec2{float64(0.5*p0.X) + float64(0.5*p1.X), float64(0.5*p0.Y) + float64(0.5*p1.Y)}
	return Shape{p: withHead(buf, k, 2), r: r, v: mid}, nil
}

// Segment returns a capsule's or segment's end points, or zeros for other
// kinds.
func (s Shape) Segment() (p0, p1 Vec2) {
	if (s.kind() != KindCapsule && s.kind() != KindSegment) || s.n() == 0 {
		return Vec2{}, Vec2{}
	}
	d := s.polyData()
	return d[0], d[1]
}

// SegmentFrame returns a capsule's or segment's ends and the unit normal of
// its right side (right of p0→p1; the left side's is its negation), in one
// call for the pair routines, or zeros for other kinds.
func (s Shape) SegmentFrame() (p0, p1, n Vec2) {
	if (s.kind() != KindCapsule && s.kind() != KindSegment) || s.n() == 0 {
		return Vec2{}, Vec2{}, Vec2{}
	}
	d := (*[3]Vec2)(s.p)
	return d[0], d[1], d[2]
}
