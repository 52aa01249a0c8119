package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// CastHit is where a moving shape first touches another: Fraction of the
// motion, the world Point of the touch, and the unit Normal of the plane
// that separates them there, pointing from the still shape toward the moving
// one.
type CastHit struct {
	Fraction float64    // in [0, 1]: the first time of touching
	Point    shape.Vec2 // world point where they touch
	Normal   shape.Vec2 // unit normal from the still shape toward the moving one
	Part     int        // the part of the still shape touched, if a compound; else 0
}

// Cast reports when shape a, placed by ta and moved by delta (translation
// only), first touches shape b, placed by tb, which stays.
//
// Fraction is the exact first time of touching, to rounding: the smallest t
// in [0, 1] at which a moved by t·delta and b share a point. Touching counts,
// so a motion that grazes b is a hit at the graze, and shapes that touch at
// the start hit at 0. Normal is the unit normal of the plane that separates
// them at the touch, from b toward a: b's outward face normal when a touches
// a face of b, and at a vertex of b the direction with a on its positive
// side. Shapes that overlap at the start (Collide reports a contact) give a
// hit at Fraction 0 with Point Collide's first contact point and Normal the
// negated Collide normal (with a compound or chain, Collide's is the deepest
// part pair's, and Part names its part of b). A zero delta hits only shapes
// touching at the start. An invalid shape, a non-finite delta, or one
// longer than shape.MaxMagnitude on an axis (whose square would overflow)
// gives no hit.
//
// Algorithm: a moved by x touches b exactly when x lies in the Minkowski
// difference M = b ⊕ (−a). Every shape here is a convex core (a point or a
// polygon) grown by a radius, so M is the Minkowski sum of the two cores,
// built by merging their edges in angular order (de Berg et al.,
// Computational Geometry, §13.3), grown by the sum of the radii; the cast is
// the ray from the origin along delta against M: a slab clip of its edges
// when the radius is zero (Cyrus and Beck), otherwise the nearest of its
// offset edges and its vertex discs. M's edges remember the features of a
// and b they came from, which give the contact point. Some pairs skip
// building M: two circles (one disc), a circle and a hull (its offset
// faces and vertex discs, in the hull's frame), two boxes (slabs), and a
// segment and a box or polygon (a clip against both shapes' edge lines in
// the hull's frame); each leaves the cases near a corner of M, or within
// a rounding of touching at the start, to the general path. Everything is
// computed relative to b's position, so precision holds far from the
// world origin. Nothing allocates.
func Cast(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (CastHit, bool) {
	if isTiny(delta) {
		d, e := scaleTiny(delta)
		f, p, n, part, ok := cast(a, ta, d, b, tb)
		return unscaleTiny(CastHit{Fraction: f, Point: p, Normal: n, Part: part}, ok, e)
	}
	f, p, n, part, ok := cast(a, ta, delta, b, tb)
	return CastHit{Fraction: plusZero(f), Point: p, Normal: n, Part: part}, ok
}

// tinyMotion bounds the motions the casts take as given: below it (on
// both axes) |delta|² and the quotients by it leave the float range (the
// square underflows below 1e-154, and a disc's r²/|delta|² overflowed to
// +Inf, which made a disc 0.06 away a hit at 0 for a motion of 1e-160).
const tinyMotion = 0x1p-400

// isTiny reports whether delta is a motion, not zero, shorter than
// tinyMotion on both axes: one the casts take scaled (scaleTiny). Small
// enough to be inlined: the casts pay two comparisons for it.
func isTiny(delta shape.Vec2) bool {
	return delta.X < tinyMotion && delta.X > -tinyMotion && delta.Y < tinyMotion && delta.Y > -tinyMotion && delta != (shape.Vec2{})
}

// scaleTiny returns delta, tiny (isTiny), scaled exactly by a power of two,
// 2^−e, to a length near 1, and e. A touch at fraction t of the scaled
// motion is at t·2^−e of delta: unscaleTiny.
func scaleTiny(delta shape.Vec2) (shape.Vec2, int) {
	_, e := math.Frexp(max(math.Abs(delta.X), math.Abs(delta.Y)))
	return shape.Vec2{X: math.Ldexp(delta.X, -e), Y: math.Ldexp(delta.Y, -e)}, e
}

// unscaleTiny returns the hit of a cast along a motion scaleTiny scaled by
// 2^−e as a hit of the motion given: its fraction scaled back, and no hit
// beyond the motion's end. The point and normal of a touch are the same.
func unscaleTiny(h CastHit, ok bool, e int) (CastHit, bool) {
	if ok {
		if h.Fraction = math.Ldexp(h.Fraction, -e); h.Fraction > 1 {
			return CastHit{}, false
		}
	}
	h.Fraction = plusZero(h.Fraction)
	return h, ok
}

// cast is Cast before its fraction is made +0 where it is zero, returning
// the hit's fields as values: a CastHit is too large for the compiler to
// keep in registers, and one stored field by field, then copied whole,
// stalls each copy on the stores it reads.
func cast(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (f float64, p, n shape.Vec2, part int, ok bool) {
	if !a.Valid() || !b.Valid() || !(math.Abs(delta.X) <= shape.MaxMagnitude && math.Abs(delta.Y) <= shape.MaxMagnitude) {
		return 0, p, n, 0, false
	}
	ka, kb := a.Kind(), b.Kind()
	if !ka.Convex() || !kb.Convex() {
		h, _, ok := castComposite(a, ta, delta, b, tb, castAll, 0)
		// Several part pairs may start in contact; if any overlaps, the
		// answer is Collide's, the deepest pair's, not the first's. And
		// the parts are cast placed near the pair, rounded, where an
		// overlap thinner than that rounding can vanish (a hit just after
		// 0, or none for a motion away): Collide, which places each part
		// exactly, decides whenever the shapes' boxes meet at the start.
		if (ok && h.Fraction == 0) || a.WorldAABB(ta).Overlaps(b.WorldAABB(tb)) {
			if m, j, in := deepestParts(a, ta, b, tb, true); in {
				return 0, m.Points[0].Point, m.Normal.Neg(), j, true
			}
		}
		return h.Fraction, h.Point, h.Normal, h.Part, ok
	}
	// A circle against a polygon or box: in the hull's own frame, with its
	// precomputed normals, no Minkowski difference to build.
	if ka == shape.KindCircle && hullKind(kb) {
		if t, p, n, hit, clear := castCircleHull(a, ta, delta, b, tb); clear {
			return t, p, n, 0, hit
		}
	} else if kb == shape.KindCircle && hullKind(ka) {
		// Moving a against a still circle is the circle moving the other
		// way against a: the same fraction and point, the normal reversed.
		if t, p, n, hit, clear := castCircleHull(b, tb, delta.Neg(), a, ta); clear {
			return fromSwapped(t, p, n, hit, delta)
		}
	}
	if ka == shape.KindCircle && kb == shape.KindCircle {
		return castCircles(a, ta, delta, b, tb)
	}
	// A segment against a box or polygon: a clip against both shapes'
	// edge lines in the hull's frame, no Minkowski difference to build.
	if ka == shape.KindSegment && flatHull(kb) {
		if t, p, n, hit, clear := castSegmentHull(a, ta, delta, b, tb); clear {
			return t, p, n, 0, hit
		}
	} else if kb == shape.KindSegment && flatHull(ka) {
		if t, p, n, hit, clear := castSegmentHull(b, tb, delta.Neg(), a, ta); clear {
			return fromSwapped(t, p, n, hit, delta)
		}
	}
	if (ka == shape.KindAABB || ka == shape.KindOBB) && (kb == shape.KindAABB || kb == shape.KindOBB) {
		if ka == shape.KindAABB && kb == shape.KindAABB {
			if t, p, n, hit, clear := castAABBs(a, ta, delta, b, tb); clear {
				return t, p, n, 0, hit
			}
		} else if t, p, n, hit, clear := castBoxes(a, ta, delta, b, tb); clear {
			return t, p, n, 0, hit
		}
	}
	t, p, n, ok := castMink(a, ta, delta, b, tb)
	return t, p, n, 0, ok
}

// fromSwapped returns the hit of shape b, cast by −delta against a still
// shape a, as cast's hit of a moved by delta against a still b: the same
// fraction, the point carried to the touch by delta, the normal reversed
// (with no negative zeros).
func fromSwapped(t float64, p, n shape.Vec2, hit bool, delta shape.Vec2) (float64, shape.Vec2, shape.Vec2, int, bool) {
	if hit {
		n, p = n.Neg(), p.Add(delta.Scale(t))
		n = shape.Vec2{X: n.X + 0, Y: n.Y + 0}
	}
	return t, p, n, 0, hit
}

// castMink is Cast for two convex shapes by the general path: the ray
// against their Minkowski difference (see Cast).
func castMink(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (float64, shape.Vec2, shape.Vec2, bool) {
	// A pair farther apart on an axis than the motion and both shapes'
	// reach never touches. Far from b (beyond 1e16 of the shapes' sizes)
	// a's vertices, placed relative to b, round to the ulp of the
	// distance: M's edges round to zero length or to stubs across their
	// own lines, and M can lose edges in the merge (a box 1e60 away along
	// a diagonal left M as four half-planes open toward the origin). The
	// margin, 1e-12 of the sum, covers the rounding of the sum and of the
	// positions' difference. The shapes' reach is looked up only for a
	// pair farther apart than the motion alone.
	l := math.Abs(delta.X) + math.Abs(delta.Y)
	if p := ta.Pos.Sub(tb.Pos); max(math.Abs(p.X), math.Abs(p.Y)) > l &&
		max(math.Abs(p.X), math.Abs(p.Y)) > float64(1+1e-12)*(l+reach(&a)+reach(&b)) {
		return 0, shape.Vec2{}, shape.Vec2{}, false
	}
	// The cores and M in arrays no larger than the shapes need: zeroing
	// the largest (2.2 KB) was a tenth of a cast between small shapes.
	switch na, nb := coreLen(a), coreLen(b); {
	case na <= 4 && nb <= 4:
		return castMinkIn[[4]shape.Vec2, [8]shape.Vec2, [8]uint8](a, ta, delta, b, tb)
	case na <= 8 && nb <= 8:
		return castMinkIn[[8]shape.Vec2, [16]shape.Vec2, [16]uint8](a, ta, delta, b, tb)
	}
	return castMinkIn[[shape.MaxPolygonVertices]shape.Vec2, [2 * shape.MaxPolygonVertices]shape.Vec2, [2 * shape.MaxPolygonVertices]uint8](a, ta, delta, b, tb)
}

// coreLen returns the number of vertices of convex shape s's core: one
// for a circle, two for a capsule or segment, four for a box, a polygon's
// own.
func coreLen(s shape.Shape) int {
	switch s.Kind() {
	case shape.KindCircle:
		return 1
	case shape.KindAABB, shape.KindOBB:
		return 4
	case shape.KindCapsule, shape.KindSegment:
		return 2
	}
	return len(s.Vertices())
}

// castMinkIn is castMink past its test of the distance, with cores of
// arrays A and M of arrays V and S, which hold the pair's.
func castMinkIn[A coreArr, V minkArr, S slotArr](a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (float64, shape.Vec2, shape.Vec2, bool) {
	origin := tb.Pos
	var ca, cb coreN[A]
	// a's core in its own frame orders M's edges; placed at ca.o
	// relative to b it gives their vertices. Placed first, far from b its
	// edges would round to zero or to stubs across their own lines, and
	// the merge by their turns would drop some of M's edges.
	ca.set(a, ta, ta.Pos)
	ca.o = ta.Pos.Sub(origin)
	cb.set(b, tb, origin)
	var m minkN[A, V, S]
	m.build(&cb, &ca)
	// Only a start inside M (or near enough for rounding to differ) can be
	// an overlap; Collide then decides, and gives the manifold.
	may := m.mayOverlap()
	if may {
		if c, ok := Collide(a, ta, b, tb); ok {
			return 0, c.Points[0].Point, c.Normal.Neg(), true
		}
	}
	t, p, n, ok := m.cast(delta, &ca, &cb, may)
	if !ok {
		return 0, shape.Vec2{}, shape.Vec2{}, false
	}
	return t, p.Add(origin), n, true
}

// reach returns an upper bound, with no square root, of the distance from
// s's origin to its farthest point: its bounding radius in the 1-norm
// (shape.Shape.Reach, which reads the fields directly: it runs for every
// contact, in pairScale).
func reach(s *shape.Shape) float64 { return s.Reach() }

// CastSliding is Cast for a shape that slides along what it touches: a
// touch at the start (Fraction 0) that the motion does not move into, its
// normal·delta ≥ −tol·|delta|, is passed, not a hit, and the cast goes on
// to the first touch it does move into; a touch, at the start or on the
// way, that the motion never goes on into (CastEnter's rule: a graze, a
// touch at the end) is passed too, whatever its normal, so that a shape
// sliding over the corner where two boxes meet level is no hit. For a
// compound or chain the rule holds part by part, so that sliding along
// one part of a body never passes through another, and a chain's vertex
// met while sliding along its segments is no hit.
func CastSliding(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, tol float64) (CastHit, bool) {
	if isTiny(delta) {
		d, e := scaleTiny(delta)
		h, ok := castSliding(a, ta, d, b, tb, tol)
		return unscaleTiny(h, ok, e)
	}
	h, ok := castSliding(a, ta, delta, b, tb, tol)
	h.Fraction = plusZero(h.Fraction)
	return h, ok
}

// castSliding is CastSliding before its fraction is made +0 where it is zero.
func castSliding(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, tol float64) (CastHit, bool) {
	if a.Valid() && b.Valid() && (!a.Kind().Convex() || !b.Kind().Convex()) &&
		math.Abs(delta.X) <= shape.MaxMagnitude && math.Abs(delta.Y) <= shape.MaxMagnitude {
		h, _, ok := castComposite(a, ta, delta, b, tb, castSlide, max(tol, 0))
		return h, ok
	}
	// One part each: castComposite's rule for a part pair. A convex pair
	// the motion does not go into at its first touch it never goes into.
	h, ok := Cast(a, ta, delta, b, tb)
	if ok && ((h.Fraction == 0 && h.Normal.Dot(delta) >= -tol*delta.Len()) || !passesThrough(a, ta, delta, b, tb, h.Fraction)) {
		return CastHit{}, false
	}
	return h, ok
}

// hullKind reports whether k is a kind castCircleHull takes: a box or
// polygon (a hull with no radius), or a capsule or segment (a two-vertex
// hull, rounded by its radius).
func hullKind(k shape.Kind) bool {
	return k == shape.KindAABB || k == shape.KindOBB || k == shape.KindPolygon || k == shape.KindCapsule || k == shape.KindSegment
}

// castMode says which touches a composite cast counts.
type castMode uint8

const (
	castAll   castMode = iota // every touch: Cast
	castSlide                 // CastSliding's rule
	castEnter                 // CastEnter's rule
)

// castComposite is Cast, CastSliding or CastEnter (by mode) for a pair with
// a compound or chain: the earliest touch of any part pair the mode counts,
// the lowest part pair among equal fractions, with Part set to b's part and
// partA to a's. Parts are visited in increasing order (a chain's box tree
// too), so the first found among equal fractions is the lowest pair, and
// the mode's costlier tests run only for a touch earlier than the best.
// tol is CastSliding's.
func castComposite(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, mode castMode, tol float64) (hit CastHit, partA int, ok bool) {
	if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
		return hit, 0, false // segments never touch segments
	}
	l := delta.Len()
	// The parts placed near the pair, as CollideParts places them.
	ta, tb, o := recentre(a, ta, b, tb)
	// Only parts whose boxes meet the other's box swept along the motion
	// can touch.
	boxB := b.WorldAABB(tb)
	forParts(a, ta, boxB.Union(boxB.Translate(delta.Neg())), func(i int, sa shape.Shape, xa shape.Transform) bool {
		boxA := sa.WorldAABB(xa)
		forParts(b, tb, boxA.Union(boxA.Translate(delta)), func(j int, sb shape.Shape, xb shape.Transform) bool {
			// A part whose box the moving box never meets on its way (the
			// swept region's bounding box is much larger on a diagonal)
			// cannot be touched.
			if !boxA.MeetsAlong(delta, sb.WorldAABB(xb)) {
				return true
			}
			h, hok := Cast(sa, xa, delta, sb, xb)
			if !hok || (ok && h.Fraction >= hit.Fraction) {
				return true
			}
			if mode == castSlide && h.Fraction == 0 && h.Normal.Dot(delta) >= -tol*l {
				return true // touching at the start and moving along or away
			}
			if mode != castAll && !passesThrough(sa, xa, delta, sb, xb, h.Fraction) {
				// A touch the motion never goes on into: a graze along a
				// part, or a chain's vertex met along its segments.
				return true
			}
			h.Part = j
			hit, partA, ok = h, i, true
			return true
		})
		return true
	})
	if ok {
		hit.Point = hit.Point.Add(o)
	}
	return hit, partA, ok
}

// core is a shape's convex core, a point or a counter-clockwise polygon, in
// a frame translated to some origin, the outward unit normal of each edge
// (from vertex i to i+1), and the radius that grows it into the shape. The
// normals are the shape's own, rotated: a normal taken from two placed
// vertices, each rounded to the ulp of its coordinates, is off by that ulp
// over the edge's length, which for a short edge is far from rounding.
//
// coreN holds the vertices and normals in arrays of type A, one of
// coreArr's sizes; core holds any shape's.
type coreN[A coreArr] struct {
	v   A
	nrm A
	n   int
	r   float64
	o   shape.Vec2 // where v's frame lies in the cast's: v[i] + o is placed (see castMink)
}

type core = coreN[[shape.MaxPolygonVertices]shape.Vec2]

// coreArr, minkArr and slotArr are the sizes of array a core's vertices
// and normals, an M's, and the indices of the vertices each of M's came
// from come in: enough for two shapes of up to four vertices, of up to
// eight, and of any.
type (
	coreArr interface {
		[4]shape.Vec2 | [8]shape.Vec2 | [shape.MaxPolygonVertices]shape.Vec2
	}
	minkArr interface {
		[8]shape.Vec2 | [16]shape.Vec2 | [2 * shape.MaxPolygonVertices]shape.Vec2
	}
	slotArr interface {
		[8]uint8 | [16]uint8 | [2 * shape.MaxPolygonVertices]uint8
	}
)

// set makes c the core of s placed by t, relative to origin.
func (c *coreN[A]) set(s shape.Shape, t shape.Transform, origin shape.Vec2) {
	rel := s.EffectiveTransform(t)
	rel.Pos = rel.Pos.Sub(origin)
	c.setIn(s, rel)
}

// setIn makes c the core of s placed by rel in some frame (rel already
// effective: an AABB's rotation dropped).
func (c *coreN[A]) setIn(s shape.Shape, rel shape.Transform) {
	c.r, c.o = 0, shape.Vec2{}
	switch s.Kind() {
	case shape.KindCircle:
		c.v[0], c.n, c.r = rel.Apply(s.Center()), 1, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		var cs [4]shape.Vec2
		cornersInto(&cs, &s)
		for i, p := range cs {
			c.v[i] = rel.Apply(p)
			c.nrm[i] = rel.Rot.Apply(boxNormals[i])
		}
		c.n = 4
	case shape.KindPolygon, shape.KindCapsule, shape.KindSegment:
		vs, ns := s.Vertices(), s.Normals()
		for i, p := range vs {
			c.v[i] = rel.Apply(p)
			c.nrm[i] = rel.Rot.Apply(ns[i])
		}
		c.n, c.r = len(vs), s.Radius()
	}
}

// lowest returns the index of c's lowest vertex (then leftmost), or, with
// neg, of the lowest vertex of −c (c's highest, then rightmost).
func (c *coreN[A]) lowest(neg bool) int {
	best := 0
	if neg {
		// −c's lowest, then leftmost: c's highest, then rightmost.
		for i := 1; i < c.n; i++ {
			if p, q := c.v[i], c.v[best]; p.Y > q.Y || (p.Y == q.Y && p.X > q.X) {
				best = i
			}
		}
		return best
	}
	for i := 1; i < c.n; i++ {
		if p, q := c.v[i], c.v[best]; p.Y < q.Y || (p.Y == q.Y && p.X < q.X) {
			best = i
		}
	}
	return best
}

// mink is the Minkowski difference b ⊕ (−a) of two cores, counter-clockwise,
// with the vertex of b (ib) and of a (ja) each of its vertices came from,
// the outward unit normal of each edge (from vertex k to k+1: the normal
// of the edge of b or of −a it came from, see core), and the sum of the
// radii.
//
// minkN is M of two cores of arrays A, in arrays V and S (see coreArr);
// mink is any two shapes'.
type minkN[A coreArr, V minkArr, S slotArr] struct {
	v      V
	nrm    V
	ib, ja S
	n      int
	r      float64
	// Gathered by build for mayOverlap and slack, so that they need not
	// walk the vertices again: the largest of r and the vertices' 1-norms,
	// the vertices' bounding box, and the origin's largest signed distance
	// outside an edge's line.
	scale  float64
	lo, hi shape.Vec2
	out    float64
}

type mink = minkN[[shape.MaxPolygonVertices]shape.Vec2, [2 * shape.MaxPolygonVertices]shape.Vec2, [2 * shape.MaxPolygonVertices]uint8]

// build sets m to b ⊕ (−a) by merging the edges of b and of −a in angular
// order of their normals, starting from the sum of their lowest vertices.
// The order comes from a's vertices in its own frame (a.v), the vertices
// from a placed (a.v + a.o). Parallel edges merge into one.
func (m *minkN[A, V, S]) build(b, a *coreN[A]) {
	m.r = a.r + b.r
	m.n = 0
	scale, out := m.r, math.Inf(-1)
	var lo, hi shape.Vec2
	i0, j0 := b.lowest(false), a.lowest(true)
	i, j := 0, 0
	for i < b.n || j < a.n {
		bi, aj := wrap(i0+i, b.n), wrap(j0+j, a.n)
		m.v[m.n] = b.v[bi].Sub(a.v[aj].Add(a.o))
		m.ib[m.n], m.ja[m.n] = uint8(bi), uint8(aj)
		// A one-point core has no edge: its zero normal ties with the
		// other's first, and both advance.
		nb, na := b.nrm[bi], a.nrm[aj].Neg() // −a's edges face the other way
		if b.n == 1 {
			nb = shape.Vec2{}
		}
		if a.n == 1 {
			na = shape.Vec2{}
		}
		// The order comes from the placed vertices (each core's in its
		// own frame), as the start does (lowest): each sequence's edges
		// then turn monotonically from
		// there, where normals rotated on their own may disagree with
		// the vertices by an ulp about which of two edges at right
		// angles to the start, or exactly opposite, comes first. The
		// normals, the shapes' own, give each edge's direction.
		eb := b.v[next(bi, b.n)].Sub(b.v[bi])
		ea := a.v[aj].Sub(a.v[next(aj, a.n)]) // the edge of −a
		cr := eb.Cross(ea)
		if i >= b.n {
			cr = -1 // only a's edges are left
		} else if j >= a.n {
			cr = 1
		}
		if cr >= 0 {
			i++
		}
		if cr <= 0 {
			j++
		}
		if cr < 0 || nb == (shape.Vec2{}) {
			nb = na
		}
		m.nrm[m.n] = nb
		v := m.v[m.n]
		if a := math.Abs(v.X) + math.Abs(v.Y); a > scale {
			scale = a
		}
		if m.n == 0 {
			lo, hi = v, v
		} else {
			lo, hi = lo.Min(v), hi.Max(v)
		}
		if h := -nb.Dot(v); h > out {
			out = h
		}
		m.n++
	}
	m.scale, m.lo, m.hi, m.out = scale, lo, hi, out
}

// slack returns the rounding margin of m: 1e-12 of its coordinates and
// radius.
func (m *minkN[A, V, S]) slack() float64 { return float64(1e-12 * m.scale) }

// mayOverlap reports whether the origin lies in m or within a rounding
// margin of it: whether a and b may overlap at the start.
func (m *minkN[A, V, S]) mayOverlap() bool {
	slack := m.slack()
	if m.n == 1 {
		return m.v[0].Len() <= m.r+slack
	}
	lim := m.r + slack
	lim2 := float64(lim * lim)
	if m.n == 2 {
		// A segment (parallel cores) has no inside: the origin on its
		// line but beyond an end is apart by that distance.
		return segDistSq(shape.Vec2{}, m.v[0], m.v[1]) <= lim2
	}
	// The core's box first: for a sliver (two parallel cores, their edges
	// split by rounding into a parallelogram of no width) every edge's
	// line passes through an origin on the cores' common line, however
	// far beyond their ends it lies, and the half-planes would all hold
	// it. Then the origin's distance outside each edge's line.
	lo, hi := m.lo, m.hi
	if lo.X > lim || lo.Y > lim || hi.X < -lim || hi.Y < -lim {
		return false
	}
	return !(m.out > lim)
}

// cast casts the ray t·d, t in [0, 1], from the origin against m and
// returns the hit in the frame of the cores a and b, whose features give
// the point.
func (m *minkN[A, V, S]) cast(d shape.Vec2, a, b *coreN[A], may bool) (float64, shape.Vec2, shape.Vec2, bool) {
	if m.n == 1 {
		return m.castDisc(0, d, b)
	}
	if m.r == 0 && m.n > 2 {
		return m.castPolygon(d, a, b)
	}
	return m.castRounded(d, a, b, may)
}

// castDisc casts against the disc of radius m.r around vertex k.
func (m *minkN[A, V, S]) castDisc(k int, d shape.Vec2, b *coreN[A]) (float64, shape.Vec2, shape.Vec2, bool) {
	return discTouch(m.v[k], m.r, d, b.v[m.ib[k]], b.r)
}

// discTouch casts the ray t·d against the disc of radius r around v, a
// vertex of a Minkowski difference made from b's vertex bv (b's radius
// br): it returns the touch's fraction, its point, on b (bv grown along
// the normal), and the normal.
func discTouch(v shape.Vec2, r float64, d, bv shape.Vec2, br float64) (float64, shape.Vec2, shape.Vec2, bool) {
	t, ok := discEntry(v, r, d)
	if !ok {
		return 0, shape.Vec2{}, shape.Vec2{}, false
	}
	n, ok := radial(d.Scale(t).Sub(v), r)
	if !ok {
		n = d.Neg().Normalize()
	}
	return t, bv.Add(n.Scale(br)), n, true
}

// radial returns x, a point at distance r > 0 from the origin up to
// rounding, as a unit vector: x/r, corrected by a step of Newton's
// iteration for the inverse square root of its squared length, where that
// is within 2^-26 of 1 (the result is then of unit length to a few ulps, as
// x over its length is), and otherwise x over its length; false for a zero
// x. The division by r does not wait on x, so a touch at a disc, whose
// normal this is, does not wait on a square root and a division in turn.
func radial(x shape.Vec2, r float64) (shape.Vec2, bool) {
	if r > 0x1p-400 && r < 0x1p400 {
		n := x.Scale(1 / r)
		if s := n.LenSq(); math.Abs(s-1) <= 0x1p-26 {
			return n.Scale(float64(1.5 - float64(0.5*s))), true
		}
	}
	if l := x.Len(); l > 0 {
		return x.Scale(1 / l), true
	}
	return shape.Vec2{}, false
}

// discEntry returns the first t in [0, 1] at which t·d lies in the disc of
// centre c and radius r, as rayCircle solves it: relative to the centre,
// the discriminant from the perpendicular offset.
func discEntry(c shape.Vec2, r float64, d shape.Vec2) (float64, bool) {
	mo := c.Neg() // the origin relative to the centre
	rr := float64(r * r)
	if mo.LenSq() <= rr {
		return 0, true
	}
	dd := d.LenSq()
	if dd == 0 {
		return 0, false
	}
	bq := mo.Dot(d)
	if bq >= 0 {
		return 0, false // outside and moving away
	}
	// Closest approach at s = -bq/dd; the perpendicular offset there.
	s := -bq / dd
	l := mo.Add(d.Scale(s))
	disc := rr - l.LenSq()
	// l rounds by a few ulps of mo and of s·d, which for a long motion
	// are far more than those of l itself: within that of zero, the
	// motion's line grazes the disc or passes a rounding from it, and the
	// exact sign of r²·|d|² − (d × mo)² (discGrazes) decides.
	e := float64(0x1p-50 * (math.Abs(mo.X) + math.Abs(mo.Y) + float64(s*(math.Abs(d.X)+math.Abs(d.Y)))))
	if slack := float64(4*e*(math.Abs(l.X)+math.Abs(l.Y)+e)) + float64(0x1p-50*rr); math.Abs(disc) <= slack {
		if !discGrazes(mo, r, d) {
			return 0, false
		}
		disc = max(disc, 0)
	}
	if disc < 0 {
		return 0, false
	}
	// √(disc/dd) as √disc·(1/√dd): 1/√dd does not wait on disc, so the
	// entry waits on one square root, not on a division and then a root.
	t := max(s-float64(math.Sqrt(disc)*(1/math.Sqrt(dd))), 0)
	if t > 1 {
		return 0, false
	}
	return t, true
}

// discGrazes reports whether the line through mo along d comes within r
// of the origin, exactly: whether r²·|d|² − (d × mo)² >= 0, summed as an
// expansion. Where the expansion cannot be held exactly (coordinates
// beyond xProdMax), it takes the floats' answer.
func discGrazes(mo shape.Vec2, r float64, d shape.Vec2) bool {
	var c, dd, rr, z xnum
	c.addProd(d.X, mo.Y)
	c.addProd(-d.Y, mo.X)
	dd.addProd(d.X, d.X)
	dd.addProd(d.Y, d.Y)
	rr.addProd(r, r)
	z.addMul(&rr, &dd, 1)
	z.addMul(&c, &c, -1)
	if z.bad {
		cr := d.Cross(mo)
		return float64(r*r)*d.LenSq() >= float64(cr*cr)
	}
	return z.sign() >= 0
}

// castPolygon clips the ray t·d against m's edges (Cyrus–Beck): each edge's
// half-plane bounds t from below (entering) or above (leaving).
func (m *minkN[A, V, S]) castPolygon(d shape.Vec2, a, b *coreN[A]) (float64, shape.Vec2, shape.Vec2, bool) {
	lo, hi := math.Inf(-1), math.Inf(1)
	enter, leave := -1, -1
	for k := range m.n {
		nrm := m.nrm[k]
		h := nrm.Dot(m.v[k]) // the origin is inside this half-plane when h >= 0
		den := nrm.Dot(d)
		switch {
		case den < 0:
			if t := h / den; t > lo {
				lo, enter = t, k
			}
		case den > 0:
			if t := h / den; t < hi {
				hi, leave = t, k
			}
		case h < 0:
			return 0, shape.Vec2{}, shape.Vec2{}, false // parallel to the face and outside it
		}
	}
	if lo > hi && enter >= 0 && leave >= 0 {
		if t, ok := m.vertexGraze(d, enter, leave); ok {
			lo, hi = t, t
		}
	}
	if !(lo <= hi) || lo > 1 || hi < 0 {
		return 0, shape.Vec2{}, shape.Vec2{}, false
	}
	if a.n == 2 && b.n == 2 && !segmentsMeet(a, b, d.Scale(max(lo, 0))) {
		// Two parallel segments whose M rounding left a sliver of nearly
		// parallel edges rather than one segment: their half-planes meet
		// at an angle of rounding size, so the clip finds the ray's
		// crossing of the sliver's line inside it wherever along the line
		// it is, also beyond the sliver's ends. The segments placed at the
		// hit decide.
		return 0, shape.Vec2{}, shape.Vec2{}, false
	}
	if lo < 0 || enter < 0 {
		// The origin is inside: the shapes touch at the start (Collide saw
		// no overlap, so by rounding alone). Report the face it is nearest.
		nearest, nearestH := 0, math.Inf(-1)
		for k := range m.n {
			if h := -m.nrm[k].Dot(m.v[k]); h > nearestH {
				nearest, nearestH = k, h
			}
		}
		p, n := m.edgeHit(nearest, 0, d, a, b)
		if a.n == 2 && b.n == 2 {
			// Two segments that cross: they touch where they cross, not
			// at the nearest face's feature (an end of one of them).
			p = segmentCrossing(a.v[0].Add(a.o), a.v[1].Add(a.o), b.v[0], b.v[1])
		}
		return 0, p, n, true
	}
	// Collinear edges of M (nearly parallel faces of a and b, split by
	// rounding) tie in the clip; the one whose segment holds the hit point
	// names the features that touch.
	p, n := m.edgeHit(m.edgeAt(d.Scale(lo), d, enter), lo, d, a, b)
	return lo, p, n, true
}

// vertexGraze decides a clip that emptied by a rounding at a vertex of m:
// the ray's line through the vertex w where the entering edge meets the
// leaving one, whose crossings of the two, each rounded through the
// edges' rounded unit normals, can come out an ulp the wrong way round
// (a segment's end sliding past a polygon's vertex at its very height).
// The line meets m at w when w lies on it or it parts w from a neighbour
// (exact for a w on the line, and otherwise the clip's answer to
// rounding); the ray then reaches w at its projection on d.
func (m *minkN[A, V, S]) vertexGraze(d shape.Vec2, enter, leave int) (float64, bool) {
	w := -1
	switch {
	case next(enter, m.n) == leave:
		w = leave
	case next(leave, m.n) == enter:
		w = enter
	default:
		return 0, false
	}
	sw := d.Cross(m.v[w])
	sp, sn := d.Cross(m.v[prev(w, m.n)]), d.Cross(m.v[next(w, m.n)])
	if !(sw == 0 || (sw > 0 && (sp < 0 || sn < 0)) || (sw < 0 && (sp > 0 || sn > 0))) {
		return 0, false
	}
	return m.v[w].Dot(d) / d.LenSq(), true
}

// segmentsMeet reports whether the segment cores a, moved by x, and b
// share a point, to within a few ulps of their coordinates and of the
// offset and motion that placed a: whether they cross, or an end of one
// lies on the other. Nearly parallel segments
// (their directions' cross product within 1e-12 of the lengths' product,
// where the orientation tests below are all rounding) meet only at an end.
func segmentsMeet[A coreArr](a, b *coreN[A], x shape.Vec2) bool {
	p0, p1, q0, q1 := a.v[0].Add(a.o).Add(x), a.v[1].Add(a.o).Add(x), b.v[0], b.v[1]
	// a's ends were carried by a.o and x, each rounded to their own ulps
	// (x is the motion to the hit, as long as the cast): those count too.
	scale := math.Abs(a.o.X) + math.Abs(a.o.Y) + math.Abs(x.X) + math.Abs(x.Y)
	for _, v := range [4]shape.Vec2{p0, p1, q0, q1} {
		scale = max(scale, math.Abs(v.X)+math.Abs(v.Y))
	}
	tol := float64(64 * 0x1p-52 * scale)
	tol2 := float64(tol * tol)
	if segDistSq(p0, q0, q1) <= tol2 || segDistSq(p1, q0, q1) <= tol2 ||
		segDistSq(q0, p0, p1) <= tol2 || segDistSq(q1, p0, p1) <= tol2 {
		return true
	}
	ep, eq := p1.Sub(p0), q1.Sub(q0)
	if math.Abs(ep.Cross(eq)) <= float64(1e-12*math.Sqrt(float64(ep.LenSq()*eq.LenSq()))) {
		return false
	}
	o1, o2 := ep.Cross(q0.Sub(p0)), ep.Cross(q1.Sub(p0))
	o3, o4 := eq.Cross(p0.Sub(q0)), eq.Cross(p1.Sub(q0))
	// Each segment's ends on both sides of the other's line (or on it).
	return !(o1 > 0 && o2 > 0) && !(o1 < 0 && o2 < 0) && !(o3 > 0 && o4 > 0) && !(o3 < 0 && o4 < 0)
}

// edgeAt returns the edge of m next to edge guess (or guess itself) that
// is nearest the boundary point x: the edges rounding splits from one face
// are neighbours in M. Only edges the motion d enters or slides along
// qualify: at a vertex of M where the ray grazes, the neighbour it leaves
// by lies as near x, and its normal faces along the motion.
func (m *minkN[A, V, S]) edgeAt(x, d shape.Vec2, guess int) int {
	best, bestK := segDistSq(x, m.v[guess], m.v[next(guess, m.n)]), guess
	for _, k := range [2]int{prev(guess, m.n), next(guess, m.n)} {
		if m.nrm[k].Dot(d) > 0 {
			continue
		}
		if d := segDistSq(x, m.v[k], m.v[next(k, m.n)]); d < best {
			best, bestK = d, k
		}
	}
	return bestK
}

// segDistSq returns the squared distance from p to the segment a–b.
func segDistSq(p, a, b shape.Vec2) float64 {
	e, w := b.Sub(a), p.Sub(a)
	u := 0.0
	if ee, wd := e.LenSq(), w.Dot(e); ee > 0 && wd > 0 {
		if u = wd / ee; u > 1 {
			u = 1
		}
	}
	return w.Sub(e.Scale(u)).LenSq()
}

// castRounded casts against m grown by m.r: the first of its offset edges
// and its vertex discs that the ray enters.
func (m *minkN[A, V, S]) castRounded(d shape.Vec2, a, b *coreN[A], may bool) (float64, shape.Vec2, shape.Vec2, bool) {
	// Touching at the start: the origin within m.r of the core (only
	// possible where mayOverlap said so).
	if may {
		if k, u, dist, inside := m.closest(); inside || dist <= m.r {
			switch {
			case inside || (u > 0 && u < 1):
				p, n := m.edgeHit(k, 0, d, a, b)
				return 0, p, n, true
			case u == 0:
				return m.castDisc(k, d, b)
			default:
				return m.castDisc(next(k, m.n), d, b)
			}
		}
	}
	// Only edges facing the ray can be entered, and only the discs at
	// their ends: a vertex between two edges facing away is behind. The
	// offset edges first: the grown core is convex and a line enters it
	// once, so an offset edge that faces the ray and that it crosses
	// within the edge's span is where it enters (no disc is met before),
	// and the discs are tried only when no edge is.
	best, bestK, disc := math.Inf(1), -1, false
	for k := range m.n {
		nrm := m.nrm[k]
		den := nrm.Dot(d)
		if !(den < 0) {
			continue
		}
		v0 := m.v[k]
		num := nrm.Dot(v0) + m.r
		t := num / den
		if t < 0 && num <= m.slack() {
			// Entered before the start by rounding only (the origin
			// is outside m grown by m.r, closest said so): within the
			// edge's span the motion enters it at once.
			t = 0
		}
		if t >= 0 && t < best {
			// The foot of the hit on the core edge must lie on it:
			// measured along the edge's direction as its normal gives
			// it, not along the edge's vertices. Far from b (a's
			// vertices rounded to the ulp of the distance, above the
			// shapes' sizes) an edge of M can round to zero length, or
			// to a stub across its own line, and a foot any distance
			// away then projects on the edge inside it.
			e := m.v[next(k, m.n)].Sub(v0)
			q := d.Scale(t).Sub(nrm.Scale(m.r)).Sub(v0)
			u := shape.Vec2{X: -nrm.Y, Y: nrm.X}
			if s := q.Dot(u); s >= 0 && s <= e.Dot(u) {
				best, bestK = t, k
			}
		}
	}
	if bestK < 0 {
		prevFacing := m.nrm[m.n-1].Dot(d) < 0
		for k := range m.n {
			facing := m.nrm[k].Dot(d) < 0
			// A segment's two edges are both parallel to a ray along it:
			// its end discs are then met first.
			if facing || prevFacing || m.n == 2 {
				if t, ok := discEntry(m.v[k], m.r, d); ok && t < best {
					best, bestK, disc = t, k, true
				}
			}
			prevFacing = facing
		}
	}
	if bestK < 0 || best > 1 {
		return 0, shape.Vec2{}, shape.Vec2{}, false
	}
	if disc {
		return m.castDisc(bestK, d, b)
	}
	p, n := m.edgeHit(bestK, best, d, a, b)
	return best, p, n, true
}

// closest returns the edge of m's core nearest the origin, where on it the
// nearest point lies (0 and 1 at its ends), the distance to the core, and
// whether the origin is inside the core (then the edge it is least deep
// behind).
func (m *minkN[A, V, S]) closest() (int, float64, float64, bool) {
	inside := m.n > 2 // a segment has no inside
	best, bestK, bestU := math.Inf(1), 0, 0.0
	// The nearest of the edges that have the origin on their outer side
	// (or line): outside a convex core, the nearest point lies on one of
	// them. A flat core (parallel cores whose edges did not merge) has
	// edges facing both ways along one line, at distances that tie up to
	// rounding: only those facing the origin give the normal.
	fBest, fK, fU := math.Inf(1), -1, 0.0
	for k := range m.n {
		v0 := m.v[k]
		e := m.v[next(k, m.n)].Sub(v0)
		w := v0.Neg()
		cr := e.Cross(w)
		if cr < 0 {
			inside = false
		}
		ee := e.LenSq()
		u := 0.0
		if wd := w.Dot(e); wd > 0 && ee > 0 {
			if u = wd / ee; u > 1 {
				u = 1
			}
		}
		dd := w.Sub(e.Scale(u)).LenSq()
		if dd < best {
			best, bestK, bestU = dd, k, u
		}
		if cr <= 0 && dd < fBest {
			fBest, fK, fU = dd, k, u
		}
	}
	if !inside && fK >= 0 {
		// Its feature; the distance stays the least of all, which it
		// ties up to rounding.
		bestK, bestU = fK, fU
	}
	if m.n == 2 {
		// A segment's two edges tie, up to rounding, which may make
		// either the nearer: the one whose outward side holds the origin
		// gives the normal (edge 0 faces right of v0→v1, edge 1 left).
		if cr := m.v[1].Sub(m.v[0]).Cross(m.v[0].Neg()); (cr > 0 && bestK == 0) || (cr < 0 && bestK == 1) {
			bestK, bestU = 1-bestK, 1-bestU
		}
	}
	if !inside {
		return bestK, bestU, math.Sqrt(best), false
	}
	// Inside: the face the origin is least deep behind.
	deepest, deepK := math.Inf(-1), 0
	for k := range m.n {
		v0 := m.v[k]
		e := m.v[next(k, m.n)].Sub(v0)
		if l := e.Len(); l > 0 {
			if h := e.Cross(v0.Neg()) / l; -h > deepest {
				deepest, deepK = -h, k
			}
		}
	}
	return deepK, 0.5, 0, true
}

// edgeHit returns the point and normal of the hit at fraction t on m's
// edge k (offset by m.r): the normal is the edge's outward normal; the
// point comes from the features of a and b the edge was made of. An edge
// of b meets a vertex of a, an edge of a (negated) meets a vertex of b, and
// parallel edges of both meet along the overlap of the two, whose middle
// is taken.
func (m *minkN[A, V, S]) edgeHit(k int, t float64, d shape.Vec2, a, b *coreN[A]) (p, n shape.Vec2) {
	k1 := next(k, m.n)
	n = m.nrm[k]
	n = shape.Vec2{X: n.X + 0, Y: n.Y + 0} // no negative zeros: -0 + 0 is +0
	x := d.Scale(t)
	bEdge, aEdge := m.ib[k] != m.ib[k1], m.ja[k] != m.ja[k1]
	switch {
	case bEdge && aEdge:
		// Along the edge direction u, b's edge spans [0, lb] from b0 and
		// a's moved edge spans its two projections; take the middle of the
		// overlap, on b's surface.
		b0 := b.v[m.ib[k]]
		u := shape.Vec2{X: -n.Y, Y: n.X} // along the edge
		lb := b.v[m.ib[k1]].Sub(b0).Dot(u)
		p0 := a.v[m.ja[k]].Add(a.o).Add(x).Sub(b0).Dot(u)
		p1 := a.v[m.ja[k1]].Add(a.o).Add(x).Sub(b0).Dot(u)
		// Where the spans only meet (an end of one at an end of the other,
		// as when a segment sliding along a face's line reaches its
		// corner), rounding can leave them apart by an ulp, s0 just past
		// s1: the middle of the two is still where they meet, kept on b's
		// edge. (Its middle instead put the point half the face away.)
		s0, s1 := max(0, min(p0, p1)), min(lb, max(p0, p1))
		s := min(max(0.5*(s0+s1), 0), lb)
		if !(s == s) {
			s = 0.5 * lb
		}
		p = b0.Add(u.Scale(s)).Add(n.Scale(b.r))
	case bEdge:
		p = a.v[m.ja[k]].Add(a.o).Add(x).Sub(n.Scale(a.r))
	default:
		p = b.v[m.ib[k]].Add(n.Scale(b.r))
	}
	return p, n
}

// segmentCrossing returns the point where segments a0–a1 and b0–b1 cross
// (or meet, when one ends on the other), from a's side: a0 + s·(a1 − a0)
// with s clamped to [0, 1]. Collinear segments give the middle of their
// common stretch along a.
func segmentCrossing(a0, a1, b0, b1 shape.Vec2) shape.Vec2 {
	ea, eb := a1.Sub(a0), b1.Sub(b0)
	den := ea.Cross(eb)
	if den == 0 {
		l := ea.LenSq()
		if l == 0 {
			return a0
		}
		u0, u1 := b0.Sub(a0).Dot(ea)/l, b1.Sub(a0).Dot(ea)/l
		lo, hi := max(0, min(u0, u1)), min(1, max(u0, u1))
		return a0.Add(ea.Scale(0.5 * (lo + hi)))
	}
	s := b0.Sub(a0).Cross(eb) / den
	return a0.Add(ea.Scale(min(1, max(0, s))))
}

// castCircleHull casts circle c, placed by tc and moved by delta, against
// the polygon, box, capsule or segment h placed by th, in h's frame with
// h's own vertices and normals (a capsule's or segment's are its two ends
// and its two sides' normals: a two-vertex hull, grown by its radius): the
// ray from the circle's centre against h's hull grown by both radii, its
// offset faces first, then the discs at the ends of the faces that face
// the ray. The point is where the Minkowski path (mink) puts it: on the
// circle at a face, on h at a vertex. clear is false when the circle
// starts within a rounding margin of h (touching or overlapping): the
// general path decides those.
func castCircleHull(c shape.Shape, tc shape.Transform, delta shape.Vec2, h shape.Shape, th shape.Transform) (float64, shape.Vec2, shape.Vec2, bool, bool) {
	kh := h.Kind()
	xf := th
	if kh == shape.KindAABB {
		xf = shape.Transform{Pos: th.Pos} // as EffectiveTransform places it
	}
	// The centre is carried into the hull's frame from the offset between
	// the two positions, never through its world coordinates, which round
	// to the ulp of the position far from the origin.
	ctr := xf.Rot.ApplyInv(tc.Pos.Sub(xf.Pos).Add(tc.Rot.Apply(c.Center())))
	d := xf.Rot.ApplyInv(delta)
	rc := c.Radius()
	r, rh := rc, 0.0 // the grown hull's radius, and h's own
	// A box's corners, or a capsule's or segment's ends and side normals,
	// held here: one look at the shape's kind, not one per accessor.
	var corners [4]shape.Vec2
	var sides [2]shape.Vec2
	var v, nrm []shape.Vec2
	switch kh {
	case shape.KindPolygon:
		v, nrm = h.Vertices(), h.Normals()
	case shape.KindCapsule, shape.KindSegment:
		var m shape.Vec2
		corners[0], corners[1], m = h.SegmentFrame()
		sides[0], sides[1] = m, m.Neg()
		v, nrm, rh = corners[:2], sides[:], h.Radius()
		r += rh
	default:
		cornersInto(&corners, &h)
		v, nrm = corners[:], boxNormals[:]
	}
	n := len(v)
	// One pass over the faces: the centre's height over each face's line
	// (the start must be outside the grown hull by more than a rounding
	// margin), and the latest of the faces facing the ray to be reached
	// at height r: where the ray enters the intersection of the offset
	// faces' half-planes, which holds the grown hull.
	slack := float64(1e-12 * (math.Abs(ctr.X) + math.Abs(ctr.Y) + r + reach(&h)))
	out := math.Inf(-1)
	enter, ek, second := math.Inf(-1), -1, math.Inf(-1)
	for k := range n {
		// The centre's height over face k's line is hk + t·den; it
		// reaches r at t.
		hk := nrm[k].Dot(ctr.Sub(v[k]))
		if hk > out {
			out = hk
		}
		if den := nrm[k].Dot(d); den < 0 {
			if t := (r - hk) / den; t > enter {
				enter, ek, second = t, k, enter
			} else if t > second {
				second = t
			}
		}
	}
	if out <= r+slack {
		return 0, shape.Vec2{}, shape.Vec2{}, false, false
	}
	// A flat part of the grown hull lies on its offset face's line, so
	// the ray enters the grown hull at a face only where it enters that
	// intersection, at the latest face, within the face's span; and then
	// no disc is met before. Only without it are the discs tried.
	//
	// Entering it beyond the face's end, the ray is in the wedge between
	// the offset faces that meet at that end's vertex and the vertex's
	// disc, which it leaves only into the disc or out of the intersection:
	// for a hull with area, only that disc is tried, and the face across
	// the vertex: of two faces nearly in line, rounding can make the wrong
	// one the latest (a turn of 1e-12 at coordinates of 1e3 did), and
	// the disc is then entered after the true face.
	best, bestK, disc := math.Inf(1), -1, false
	wedge, across := -1, -1
	if k, t := ek, enter; k >= 0 && t >= 0 {
		e := v[next(k, n)].Sub(v[k])
		q := ctr.Add(d.Scale(t)).Sub(nrm[k].Scale(r)).Sub(v[k])
		switch s := q.Dot(e); {
		case s >= 0 && s <= e.LenSq():
			best, bestK = t, k
		case n == 2:
		case float64((t-second)*(math.Abs(d.X)+math.Abs(d.Y))) <= float64(1e3*slack)+float64(1e-9*(math.Abs(d.X)+math.Abs(d.Y))):
			// Another face's line is reached within a billionth of the
			// scene's size of the latest: faces nearly in line, where
			// rounding can pick a face several away from the true one
			// (two turns of 1e-12 in a row did). The general path decides.
			return 0, shape.Vec2{}, shape.Vec2{}, false, false
		case s < 0:
			wedge, across = k, prev(k, n)
		default:
			wedge, across = next(k, n), next(k, n)
		}
	}
	if wedge >= 0 {
		if t, ok := discEntry(v[wedge].Sub(ctr), r, d); ok {
			best, bestK, disc = t, wedge, true
		}
		if k := across; nrm[k].Dot(d) < 0 {
			hk := nrm[k].Dot(ctr.Sub(v[k]))
			if t := (r - hk) / nrm[k].Dot(d); t >= 0 && t < best {
				e := v[next(k, n)].Sub(v[k])
				q := ctr.Add(d.Scale(t)).Sub(nrm[k].Scale(r)).Sub(v[k])
				if s := q.Dot(e); s >= 0 && s <= e.LenSq() {
					best, bestK, disc = t, k, false
				}
			}
		}
	} else if bestK < 0 {
		// The discs at the ends of the faces that face the ray. (A ray
		// along a two-vertex hull faces neither face; it starts on the
		// hull's line, so within r of a face's: the start check above
		// sent it to the general path.)
		//
		//
		// A two-vertex hull's end nearer along the motion first: a disc
		// entered at a point beyond its end (where the grown hull is its
		// cap) is entered where the grown hull is, and the other is not
		// tried.
		if n == 2 {
			k0 := 0
			if v[1].Dot(d) < v[0].Dot(d) {
				k0 = 1
			}
			for _, k := range [2]int{k0, 1 - k0} {
				if t, ok := discEntry(v[k].Sub(ctr), r, d); ok && t < best {
					best, bestK, disc = t, k, true
					if ctr.Add(d.Scale(t)).Sub(v[k]).Dot(v[k].Sub(v[1-k])) >= 0 {
						break
					}
				}
			}
		} else {
			prevFacing := nrm[n-1].Dot(d) < 0
			for k := range n {
				facing := nrm[k].Dot(d) < 0
				if facing || prevFacing {
					if t, ok := discEntry(v[k].Sub(ctr), r, d); ok && t < best {
						best, bestK, disc = t, k, true
					}
				}
				prevFacing = facing
			}
		}
	}
	if bestK < 0 || best > 1 {
		return 0, shape.Vec2{}, shape.Vec2{}, false, true
	}
	at := ctr.Add(d.Scale(best))
	var nl, pl shape.Vec2
	if disc {
		pl = v[bestK]
		var ok bool
		if nl, ok = radial(at.Sub(pl), r); !ok {
			nl = d.Neg().Normalize()
		}
		if rh > 0 {
			pl = pl.Add(nl.Scale(rh))
		}
	} else {
		nl = nrm[bestK]
		pl = at.Sub(nl.Scale(rc))
	}
	nw := xf.Rot.Apply(nl)
	return best, xf.Apply(pl), shape.Vec2{X: nw.X + 0, Y: nw.Y + 0}, true, true
}

// castCircles is castMink for two circles, whose Minkowski difference is
// one disc: the same steps on the same numbers (so the same bits), without
// building it.
func castCircles(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (float64, shape.Vec2, shape.Vec2, int, bool) {
	origin := tb.Pos
	ra, rb := ta, tb
	ra.Pos, rb.Pos = ta.Pos.Sub(origin), tb.Pos.Sub(origin)
	va, vb := ra.Apply(a.Center()), rb.Apply(b.Center())
	v, r := vb.Sub(va), a.Radius()+b.Radius()
	// mink.mayOverlap for one vertex: a start near enough to overlap by
	// rounding goes to Collide.
	if slack := float64(1e-12 * max(r, math.Abs(v.X)+math.Abs(v.Y))); v.Len() <= r+slack {
		if c, ok := Collide(a, ta, b, tb); ok {
			return 0, c.Points[0].Point, c.Normal.Neg(), 0, true
		}
	}
	t, p, n, ok := discTouch(v, r, delta, vb, b.Radius())
	if !ok {
		return 0, shape.Vec2{}, shape.Vec2{}, 0, false
	}
	return t, p.Add(origin), n, 0, true
}

// castAABBs casts box a, placed by ta and moved by delta, against box b
// placed by tb, both AABBs: the slabs of their Minkowski difference M,
// a box, on each axis, relative to b's position as the general path
// works. clear is false where the general path must decide: a start
// within a rounding margin of b (touching or overlapping), or a first
// touch at a corner of M, or within a billionth of M's size of one (a
// corner of a meeting a corner of b, where the normal is not a face's).
func castAABBs(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (f float64, p, n shape.Vec2, ok, clear bool) {
	ha, hb := a.HalfExtents(), b.HalfExtents()
	c := ta.Pos.Sub(tb.Pos) // a's centre, b's at the origin
	// M's extent on each axis: where a's centre may be, moved, to touch b.
	lo := shape.Vec2{X: -hb.X - (c.X + ha.X), Y: -hb.Y - (c.Y + ha.Y)}
	hi := shape.Vec2{X: hb.X - (c.X - ha.X), Y: hb.Y - (c.Y - ha.Y)}
	// The start must be out of M by more than a rounding margin (the
	// general path's mayOverlap slack, 1e-12 of M's coordinates).
	mag := math.Abs(lo.X) + math.Abs(lo.Y) + math.Abs(hi.X) + math.Abs(hi.Y)
	slack := float64(1e-12 * mag)
	if !(lo.X > slack || hi.X < -slack || lo.Y > slack || hi.Y < -slack) {
		return 0, p, n, false, false
	}
	enter, exit := math.Inf(-1), math.Inf(1)
	axis := -1
	ds := [2]float64{delta.X, delta.Y}
	los, his := [2]float64{lo.X, lo.Y}, [2]float64{hi.X, hi.Y}
	for k, dk := range ds {
		l, h := los[k], his[k]
		te := math.Inf(-1) // the axis's entry, −Inf where the start is inside its slab
		// One division an axis, not two: the slab's ends times 1/dk.
		switch {
		case dk > 0:
			inv := 1 / dk
			te = float64(l * inv)
			exit = min(exit, float64(h*inv))
		case dk < 0:
			inv := 1 / dk
			te = float64(h * inv)
			exit = min(exit, float64(l*inv))
		case l > slack || h < -slack:
			return 0, p, n, false, true // parallel to the slab and outside it
		case l > 0 || h < 0:
			return 0, p, n, false, false // outside it by a rounding: the general path decides
		}
		if te > enter {
			enter, axis = te, k
		}
	}
	if axis < 0 || !(enter <= exit) || enter > 1 || exit < 0 {
		return 0, p, n, false, true
	}
	if !(enter > 0) {
		return 0, p, n, false, false // at the start
	}
	// On the other axis the motion must be inside its slab at the entry,
	// clear of its ends: else the touch is at a corner of M (or a graze
	// along one of its faces that meets the entered face there).
	o := 1 - axis
	if po, tol := float64(enter*ds[o]), float64(1e-9*mag); po-los[o] <= tol || his[o]-po <= tol {
		return 0, p, n, false, false
	}
	// The face of b touched, and a's face on it: they meet along the
	// overlap of their spans on the other axis, whose middle is the point
	// (the middle of b's face if rounding leaves no overlap), on b.
	x := delta.Scale(enter)
	if axis == 0 {
		n.X = -math.Copysign(1, delta.X)
		y0, y1 := max(-hb.Y, c.Y-ha.Y+x.Y), min(hb.Y, c.Y+ha.Y+x.Y)
		if !(y0 <= y1) {
			y0, y1 = 0, 0
		}
		p = shape.Vec2{X: float64(n.X * hb.X), Y: 0.5 * (y0 + y1)}
	} else {
		n.Y = -math.Copysign(1, delta.Y)
		x0, x1 := max(-hb.X, c.X-ha.X+x.X), min(hb.X, c.X+ha.X+x.X)
		if !(x0 <= x1) {
			x0, x1 = 0, 0
		}
		p = shape.Vec2{X: 0.5 * (x0 + x1), Y: float64(n.Y * hb.Y)}
	}
	return enter, p.Add(tb.Pos), n, true, true
}

// castBoxes casts box a (an AABB or OBB), placed by ta and moved by delta,
// against box b placed by tb, where one of them turns: their Minkowski
// difference M is the intersection of the slabs along the four axes of
// the two boxes (a sum of two centrally symmetric hulls is bounded by the
// lines of their edges), so the cast is the latest entry into a slab.
// The touch is of a face of the box whose axis was entered last and a
// vertex of the other: the point is that vertex (moved, if a's), on b, as
// the general path puts it. clear is false where the general path must
// decide: a start within a rounding margin of b, a touch within a
// billionth of M's size of another slab's end (a corner of M), or axes of
// the two boxes within a billionth of parallel (faces that may meet face
// to face).
func castBoxes(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (f float64, p, n shape.Vec2, ok, clear bool) {
	xa, xb := a.EffectiveTransform(ta), b.EffectiveTransform(tb)
	ha, hb := a.HalfExtents(), b.HalfExtents()
	c := xa.Pos.Sub(xb.Pos) // a's centre, b's at the origin
	// The axes: a's x and y, then b's, each a unit vector.
	ax := [4]shape.Vec2{xa.Rot.Apply(shape.Vec2{X: 1}), xa.Rot.Apply(shape.Vec2{Y: 1}), xb.Rot.Apply(shape.Vec2{X: 1}), xb.Rot.Apply(shape.Vec2{Y: 1})}
	if math.Abs(ax[0].Cross(ax[2])) <= 1e-9 || math.Abs(ax[0].Dot(ax[2])) <= 1e-9 {
		return 0, p, n, false, false // parallel axes
	}
	var s0, w, du [4]float64
	mag := 0.0
	for k, u := range ax {
		// M's half-width along u: each box's own axis gives its half
		// extent; the other box's projects both of its half extents.
		wa := float64(ha.X*math.Abs(ax[0].Dot(u))) + float64(ha.Y*math.Abs(ax[1].Dot(u)))
		wb := float64(hb.X*math.Abs(ax[2].Dot(u))) + float64(hb.Y*math.Abs(ax[3].Dot(u)))
		switch k {
		case 0:
			wa = ha.X
		case 1:
			wa = ha.Y
		case 2:
			wb = hb.X
		case 3:
			wb = hb.Y
		}
		s0[k], w[k], du[k] = c.Dot(u), wa+wb, delta.Dot(u)
		mag = max(mag, math.Abs(s0[k])+w[k])
	}
	tol := float64(1e-9 * mag)
	enter, exit := math.Inf(-1), math.Inf(1)
	axis, side := -1, 0.0
	inside := true
	for k := range ax {
		lo, hi := -w[k]-s0[k], w[k]-s0[k] // where the motion along u may end to touch
		if lo > float64(1e-3*tol) || hi < -float64(1e-3*tol) {
			inside = false
		}
		// One division an axis, not two: the slab's ends times 1/d.
		te, sd := math.Inf(-1), 0.0
		switch d := du[k]; {
		case d > 0:
			inv := 1 / d
			te, sd = float64(lo*inv), -1
			exit = min(exit, float64(hi*inv))
		case d < 0:
			inv := 1 / d
			te, sd = float64(hi*inv), 1
			exit = min(exit, float64(lo*inv))
		case lo > float64(1e-3*tol) || hi < -float64(1e-3*tol):
			return 0, p, n, false, true // parallel to the slab and outside it
		case lo > 0 || hi < 0:
			// Parallel to the slab and outside it by no more than a
			// rounding: whether the start touches, overlaps or clears b
			// is the general path's to say, as Collide says it.
			return 0, p, n, false, false
		}
		if te > enter {
			enter, axis, side = te, k, sd
		}
	}
	if inside {
		return 0, p, n, false, false // at the start (a rounding margin)
	}
	if axis < 0 || !(enter <= exit) || enter > 1 || exit < 0 {
		return 0, p, n, false, true
	}
	if !(enter > 0) {
		return 0, p, n, false, false
	}
	// Every other slab must hold the touch clear of its ends.
	for k := range ax {
		if k == axis {
			continue
		}
		pk := s0[k] + float64(enter*du[k])
		if pk <= -w[k]+tol || pk >= w[k]-tol {
			return 0, p, n, false, false
		}
	}
	// The normal from b toward a, ±u; a vertex of the other box touches
	// the face: a's deepest toward b (along −n), or b's toward a (along n).
	n = ax[axis].Scale(side)
	x := delta.Scale(enter)
	// p relative to b's centre, as the general path works.
	if axis >= 2 {
		p = boxCorner(a, xa.Rot, n.Neg()).Add(c).Add(x)
	} else {
		p = boxCorner(b, xb.Rot, n)
	}
	return enter, p.Add(xb.Pos), shape.Vec2{X: n.X + 0, Y: n.Y + 0}, true, true
}

// boxCorner returns the corner of box s turned by rot (about its centre)
// farthest along u.
func boxCorner(s shape.Shape, rot shape.Rot, u shape.Vec2) shape.Vec2 {
	best, bd := shape.Vec2{}, math.Inf(-1)
	var cs [4]shape.Vec2
	cornersInto(&cs, &s)
	for _, c := range cs {
		if p := rot.Apply(c); p.Dot(u) > bd {
			best, bd = p, p.Dot(u)
		}
	}
	return best
}

// plusZero returns x, or +0 for −0: a fraction of zero is reported as +0
// whichever path computed it, so that hits compare bit for bit.
func plusZero(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x
}

// flatHull reports whether k is a hull with area and no radius: a box or
// a polygon (castSegmentHull's h).
func flatHull(k shape.Kind) bool {
	return k == shape.KindAABB || k == shape.KindOBB || k == shape.KindPolygon
}

// castSegmentHull casts segment g, placed by tg and moved by delta,
// against h, a box or polygon placed by th, in h's own frame (its
// vertices and normals as stored, no Minkowski difference built). Their
// Minkowski difference M is bounded by the lines of both shapes' edges:
// it is the intersection of the half-planes along h's face normals and
// along the segment's two normals, each at M's support in that direction.
// The cast is a Cyrus–Beck clip of the ray against those n + 2 half-planes,
// and the touch is at the face whose half-plane is entered last: a face of
// h, met by the segment's end lower along its normal (moved to the touch),
// or a side of the segment, met by h's vertex farthest along it. The
// point and normal are those the general path gives (edgeHit). clear is
// false where the general path must decide: a start within a rounding
// margin of h, a motion parallel to a half-plane's line and outside it by
// no more than that margin, a touch within a billionth of M's size of
// another half-plane's line (a corner of M, where the features that touch
// are not one face and one vertex, or a graze) or of the motion's end, and
// a segment within a billionth of parallel to a face of h (faces that may
// meet face to face).
func castSegmentHull(g shape.Shape, tg shape.Transform, delta shape.Vec2, h shape.Shape, th shape.Transform) (f float64, p, n shape.Vec2, ok, clear bool) {
	xf := th
	if h.Kind() == shape.KindAABB {
		xf = shape.Transform{Pos: th.Pos} // as EffectiveTransform places it
	}
	// The segment in h's frame, carried from the offset between the two
	// positions (never through world coordinates, which round to the ulp
	// of the position far from the origin).
	rel := xf.MulInv(tg)
	p0, p1, m := g.SegmentFrame()
	s0, s1 := rel.Apply(p0), rel.Apply(p1)
	m = rel.Rot.Apply(m)
	d := xf.Rot.ApplyInv(delta)
	var corners [4]shape.Vec2
	var v, nrm []shape.Vec2
	if h.Kind() == shape.KindPolygon {
		v, nrm = h.Vertices(), h.Normals()
	} else {
		cornersInto(&corners, &h)
		v, nrm = corners[:], boxNormals[:]
	}
	nv := len(v)
	mag := math.Abs(s0.X) + math.Abs(s0.Y) + math.Abs(s1.X) + math.Abs(s1.Y) + reach(&h)
	slack, tol := float64(1e-12*mag), float64(1e-9*mag)
	// Each half-plane's height: the origin is inside it where the height
	// is >= 0; the ray t·d has height hk − t·den there.
	var hs, dens [shape.MaxPolygonVertices + 2]float64
	out := math.Inf(-1)
	enter, axis := math.Inf(-1), -1
	vmax, vmin, jmax, jmin := math.Inf(-1), math.Inf(1), 0, 0
	for k := range nv {
		u, vk := nrm[k], v[k]
		if math.Abs(m.Cross(u)) <= 1e-9 {
			return 0, p, n, false, false // the segment parallel to a face
		}
		// M's support along u: h's face, less the segment's end lower
		// along u.
		hk := max(u.Dot(vk.Sub(s0)), u.Dot(vk.Sub(s1)))
		den := u.Dot(d)
		hs[k], dens[k] = hk, den
		out = max(out, -hk)
		if den < 0 {
			if t := hk / den; t > enter {
				enter, axis = t, k
			}
		}
		if w := m.Dot(vk); w > vmax {
			vmax, jmax = w, k
		}
		if w := m.Dot(vk); w < vmin {
			vmin, jmin = w, k
		}
	}
	// The segment's sides: along m, h's vertex farthest along it less the
	// segment's end lower along it; along −m, the reverse.
	ms0, ms1 := m.Dot(s0), m.Dot(s1)
	hs[nv], dens[nv] = vmax-min(ms0, ms1), m.Dot(d)
	hs[nv+1], dens[nv+1] = max(ms0, ms1)-vmin, -dens[nv]
	for k := nv; k < nv+2; k++ {
		out = max(out, -hs[k])
		if den := dens[k]; den < 0 {
			if t := hs[k] / den; t > enter {
				enter, axis = t, k
			}
		}
	}
	if out <= slack {
		return 0, p, n, false, false // at the start (a rounding margin)
	}
	for k := range nv + 2 {
		if dens[k] == 0 && hs[k] < 0 {
			if hs[k] < -slack {
				return 0, p, n, false, true // parallel to the line and outside it
			}
			return 0, p, n, false, false // outside it by a rounding
		}
	}
	if axis < 0 || !(enter > 0) {
		// The half-plane it starts outside by more than the margin is
		// never entered (one entered later gives a positive entry).
		return 0, p, n, false, true
	}
	if enter > 1 {
		// Beyond the motion's end: the end's height under the entered
		// line.
		if hs[axis]-dens[axis] < -tol {
			return 0, p, n, false, true
		}
		return 0, p, n, false, false
	}
	// Every other half-plane must hold the touch clear of its line.
	for k := range nv + 2 {
		if k == axis {
			continue
		}
		hk := hs[k] - float64(enter*dens[k])
		if hk < -tol {
			return 0, p, n, false, true // outside M there: the ray misses it
		}
		if hk <= tol {
			return 0, p, n, false, false
		}
	}
	var nl, pl shape.Vec2
	switch {
	case axis < nv:
		nl = nrm[axis]
		pl = s0
		if nl.Dot(s1) < nl.Dot(s0) {
			pl = s1
		}
		pl = pl.Add(d.Scale(enter))
	case axis == nv:
		nl, pl = m, v[jmax]
	default:
		nl, pl = m.Neg(), v[jmin]
	}
	nw := xf.Rot.Apply(nl)
	return enter, xf.Apply(pl), shape.Vec2{X: nw.X + 0, Y: nw.Y + 0}, true, true
}
