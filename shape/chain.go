package shape

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// MaxChainPoints is the most points a chain may have.
const MaxChainPoints = 1 << 22

// chainLeaf is how many consecutive segments a leaf of a chain's box tree
// covers.
const chainLeaf = 4

// segStride is how many Vec2 a chain keeps per segment: the head of the
// segment's Shape, then its two-vertex hull (ends, then side normals).
const segStride = 5

// chain is a chain shape's shared, immutable data: its points, its
// segments (each stored as a two-vertex hull: ends then side normals, so a
// segment Shape can point into it), and a tree of boxes over runs of
// consecutive segments, which are close together along a polyline, so the
// tree needs no sorting: level 0 boxes chainLeaf segments, each higher
// level pairs the boxes below.
type chain struct {
	points []Vec2
	closed bool
	segs   []Vec2    // segStride per segment: a head, then p0, p1, right normal, left normal
	turns  []float64 // 2 per segment: the turns at p0 and p1 (see ChainTurns)
	tree   []AABB    // the boxes, level by level: the leaves first, the root last
	starts []int     // where each level begins in tree, and len(tree)
	e      float64   // max |x| plus max |y| over the points
}

// NewChain returns a chain of line segments through points (local
// coordinates), closed back to the first point when closed is set: level
// geometry, walls and outlines. Each segment is two-sided, like
// [NewSegment], and the World reports a contact per segment (its part
// index: segment i runs from point i to point i+1). Contacts are free of
// ghost collisions: a shape sliding along collinear or gently bending
// segments gets the normal and depth one long segment would give, never a
// normal that catches on an internal vertex (see the narrowphase package).
// A shape near one segment of a long chain costs about what it costs near
// a lone segment: the segments are indexed by a tree of boxes.
//
// Consecutive duplicate points are dropped (and a closing point equal to
// the first). A chain needs at least 2 distinct points (3 when closed) and
// at most [MaxChainPoints]; it may cross itself. Errors wrap
// [ErrNotFinite], [ErrTooLarge], [ErrTooFewVertices] or
// [ErrTooManyVertices], and name the point. The points are copied.
func NewChain(points []Vec2, closed bool) (Shape, error) {
	if len(points) > MaxChainPoints {
		return Shape{}, fmt.Errorf("%w: chain of %d points, the most is %d", ErrTooManyVertices, len(points), MaxChainPoints)
	}
	for i, p := range points {
		if !p.IsFinite() {
			return Shape{}, fmt.Errorf("%w: chain point %d is %v", ErrNotFinite, i, p)
		}
		if math.Abs(p.X) > MaxMagnitude || math.Abs(p.Y) > MaxMagnitude {
			return Shape{}, fmt.Errorf("%w: chain point %d is %v (limit %g)", ErrTooLarge, i, p, MaxMagnitude)
		}
	}
	pts := make([]Vec2, 0, len(points))
	for _, p := range points {
		if len(pts) == 0 || p != pts[len(pts)-1] {
			pts = append(pts, p)
		}
	}
	if closed && len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	need := 2
	if closed {
		need = 3
	}
	if len(pts) < need {
		return Shape{}, fmt.Errorf("%w: a chain needs %d distinct points, got %d", ErrTooFewVertices, need, len(pts))
	}
	n := len(pts) - 1
	if closed {
		n++
	}
	c := &chain{points: pts, closed: closed, segs: make([]Vec2, segStride*n)}
	for i := range n {
		p0, p1 := pts[i], pts[(i+1)%len(pts)]
		e := p1.Sub(p0)
		s := max(math.Abs(e.X), math.Abs(e.Y))
		nr := Vec2{e.Y / s, -e.X / s}.Normalize()
		withHead(c.segs[segStride*i:], KindSegment, 2)
		d := c.seg(i)
		d[0], d[1], d[2], d[3] = p0, p1, nr, nr.Neg()
	}
	// The turns at each segment's ends, for the narrow phase's ghost
	// test: computed once here rather than per contact.
	c.turns = make([]float64, 2*n)
	dir := func(k int) Vec2 { return c.seg(k)[1].Sub(c.seg(k)[0]).Normalize() }
	for i := range n {
		rn := c.seg(i)[2]
		d := Vec2{-rn.Y, rn.X}
		prev, next := c.links(i)
		if prev >= 0 {
			c.turns[2*i] = dir(prev).Cross(d)
		}
		if next >= 0 {
			c.turns[2*i+1] = d.Cross(dir(next))
		}
	}
	var mx, my float64
	for _, p := range pts {
		mx, my = max(mx, math.Abs(p.X)), max(my, math.Abs(p.Y))
	}
	c.e = mx + my // bounds |x| + |y| of the local box's corners too
	// The box tree, bottom up, in one slice.
	nl := (n + chainLeaf - 1) / chainLeaf
	c.tree = make([]AABB, 0, 2*nl+bits.Len(uint(nl))) // each level at most half the one below, rounded up
	for i := range nl {
		b := EmptyAABB()
		for k := i * chainLeaf; k < min(n, (i+1)*chainLeaf); k++ {
			b = b.Union(AABBFromPoints(c.seg(k)[0], c.seg(k)[1]))
		}
		c.tree = append(c.tree, b)
	}
	c.starts = append(c.starts, 0, nl)
	for lo, hi := 0, nl; hi-lo > 1; lo, hi = hi, len(c.tree) {
		for i := lo; i < hi; i += 2 {
			b := c.tree[i]
			if i+1 < hi {
				b = b.Union(c.tree[i+1])
			}
			c.tree = append(c.tree, b)
		}
		c.starts = append(c.starts, len(c.tree))
	}
	radius := 0.0
	for _, p := range pts {
		radius = max(radius, hypot(p.X, p.Y))
	}
	return compoundShape(KindChain, compound{radius: radius, chain: c}), nil
}

// ChainPoints returns a chain's points (after cleanup) and whether it is
// closed, or nil and false for other kinds. The slice is shared: do not
// modify it.
func (s Shape) ChainPoints() ([]Vec2, bool) {
	if s.kind() != KindChain {
		return nil, false
	}
	return s.comp().chain.points, s.comp().chain.closed
}

// ChainLinks returns the segments before and after segment i of a chain,
// or -1 where the chain ends (an open chain's first and last segments).
// A segment's neighbours decide which of its contacts are ghosts.
func (s Shape) ChainLinks(i int) (prev, next int) { return s.comp().chain.links(i) }

// links is ChainLinks.
func (c *chain) links(i int) (prev, next int) {
	n := len(c.segs) / segStride
	prev, next = i-1, i+1
	if c.closed {
		prev, next = (i+n-1)%n, (i+1)%n
	} else {
		if next == n {
			next = -1
		}
	}
	return prev, next
}

// ChainSegment returns segment i of a chain in the chain's frame: its
// ends and the unit normal of its right side (right of p0→p1), as
// segment i of [Shape.Part] has them, without building the segment shape.
func (s Shape) ChainSegment(i int) (p0, p1, n Vec2) {
	d := s.comp().chain.seg(i)
	return d[0], d[1], d[2]
}

// ChainTurns returns the turns at the ends of segment i of a chain: at p0
// the cross product of the previous segment's unit direction with this
// one's, at p1 of this one's with the next segment's (positive where the
// chain turns left, counter-clockwise), or 0 at an open end. This
// segment's unit direction is its right normal turned a quarter left
// ({−n.Y, n.X}); a neighbour's is its end minus its start, normalized by
// [Vec2.Normalize]. They are computed by NewChain: the narrow phase tells
// convex corners, which bound a segment's normal cone, by them.
func (s Shape) ChainTurns(i int) (atP0, atP1 float64) {
	c := s.comp().chain
	return c.turns[2*i], c.turns[2*i+1]
}

// seg returns segment i's hull: its ends, then its side normals.
func (c *chain) seg(i int) []Vec2 { return c.segs[segStride*i+1 : segStride*i+5 : segStride*i+5] }

// segment returns segment i of a chain as a segment Shape that shares the
// chain's storage.
func (c *chain) segment(i int) Shape {
	d := c.seg(i)
	p0, p1 := d[0], d[1]
	mid := Vec2{float64(0.5*p0.X) + float64(0.5*p1.X), float64(0.5*p0.Y) + float64(0.5*p1.Y)}
	return Shape{v: mid, p: unsafe.Pointer(&d[0])}
}

// PartsNear calls fn with the index of every part of s whose local box may
// overlap the box b, given in s's local frame, until fn returns false: the
// segments of a chain found through its box tree, the parts of a compound
// whose boxes overlap b, or part 0 of a simple shape. It allocates nothing.
func (s Shape) PartsNear(b AABB, fn func(i int) bool) {
	switch s.kind() {
	case KindChain:
		s.comp().chain.near(b, fn)
	case KindCompound:
		for i, p := range s.comp().parts {
			if b.Overlaps(p.Shape.WorldAABB(p.Offset)) && !fn(i) {
				return
			}
		}
	default:
		fn(0)
	}
}

// near walks the box tree from the top, depth first, left (earlier
// segments) first. The tree is implicit (the children of box i are boxes
// 2i and 2i+1 of the level below), so the walk needs no stack: after a
// box it moves to its right sibling, or up until it finds one.
func (c *chain) near(b AABB, fn func(i int) bool) {
	top := len(c.starts) - 2
	lv, i := top, 0
	lo, hi := c.starts[lv], c.starts[lv+1] // the level's boxes in tree
	n := len(c.segs) / segStride
	for {
		if c.tree[lo+i].Overlaps(b) {
			if lv > 0 {
				lv, i = lv-1, 2*i
				lo, hi = c.starts[lv], lo
				continue
			}
			for k := i * chainLeaf; k < min(n, (i+1)*chainLeaf); k++ {
				p, q := c.seg(k)[0], c.seg(k)[1]
				// The segment's box against b, in plain comparisons.
				if (p.X < b.Min.X && q.X < b.Min.X) || (p.X > b.Max.X && q.X > b.Max.X) ||
					(p.Y < b.Min.Y && q.Y < b.Min.Y) || (p.Y > b.Max.Y && q.Y > b.Max.Y) {
					continue
				}
				if !fn(k) {
					return
				}
			}
		}
		// On to the right sibling, or up to the first ancestor that has
		// one.
		for i&1 == 1 || lo+i+1 == hi {
			if lv == top {
				return
			}
			lv, i = lv+1, i>>1
			lo, hi = hi, c.starts[lv+1]
		}
		i++
	}
}

// LocalBox returns the box, in the local frame of a shape placed by t,
// around the world box b: the box of b's corners carried back by t, grown
// by a margin that covers the rounding of that transform (as WorldAABB's
// does), so that no local point that t places in b falls outside it.
func LocalBox(t Transform, b AABB) AABB {
	if b.IsEmpty() {
		return b
	}
	// The box of b turned back by t: its centre carried back, its half
	// extents spread over both axes by |cos| and |sin|.
	c, h := b.Center(), b.HalfExtents()
	q := t.ApplyInv(c)
	cs, sn := math.Abs(t.Rot.Cos()), math.Abs(t.Rot.Sin())
	hl := Vec2{float64(cs*h.X) + float64(sn*h.Y), float64(sn*h.X) + float64(cs*h.Y)}
	e := math.Abs(t.Pos.X) + math.Abs(t.Pos.Y) + math.Abs(c.X) + math.Abs(c.Y) + h.X + h.Y
	return AABBFromCenter(q, hl).Expand(float64(boxSlack * e))
}

// worldAABB returns the box of the chain's local box carried by t (its four
// corners), grown by WorldAABB's margin: a box that holds every segment,
// not the tightest for a turned chain, and costs four points, not the
// chain's length.
func (c *chain) worldAABB(t Transform) AABB {
	b := c.tree[len(c.tree)-1]
	out := EmptyAABB()
	for _, p := range [4]Vec2{b.Min, {b.Max.X, b.Min.Y}, b.Max, {b.Min.X, b.Max.Y}} {
		q := t.Apply(p)
		out = out.Union(AABB{Min: q, Max: q})
	}
	m := float64(boxSlack*math.Abs(t.Pos.X)) + float64(boxSlack*math.Abs(t.Pos.Y)) + float64(boxSlack*c.e)
	return out.Expand(m)
}
