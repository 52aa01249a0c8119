package narrowphase

import "github.com/collide-go/collide/shape"

// routine names a kind pair's routines: the manifold's and the
// overlap-only one. Collide and Overlap call them through a switch, not
// through function values: a direct call lets the shapes, transforms and
// manifold go by pointer and stay on the caller's stack (escape analysis
// sees no further than an indirect call), and lets the small routines be
// inlined.
type routine uint8

const (
	never routine = iota // the kinds never collide: two segments
	rCircleCircle
	rCircleAABB
	rCircleOBB
	rCirclePolygon
	rAABBAABB
	rAABBOBB
	rAABBPolygon
	rOBBOBB
	rOBBPolygon
	rPolygonPolygon
	rCircleCapsule
	rHullCapsule
	rCapsuleCapsule
)

// pairEntry is one ordered kind pair's routine; swap marks a mirrored
// entry, whose routine takes the shapes the other way round.
type pairEntry struct {
	r    routine
	swap bool
}

// pairTable holds the routine of every ordered pair of convex kinds,
// filled by register (Box2D's s_registers in contact.c). A zero entry
// means the kinds never collide: two segments (walls do not collide with
// walls).
var pairTable [shape.KindCount][shape.KindCount]pairEntry

// register sets the routine for kinds ka <= kb; the mirrored entry swaps
// the arguments and flips the normal.
func register(ka, kb shape.Kind, r routine) {
	pairTable[ka][kb] = pairEntry{r: r}
	if ka != kb {
		pairTable[kb][ka] = pairEntry{r: r, swap: true}
	}
}

func init() {
	register(shape.KindCircle, shape.KindCircle, rCircleCircle)
	register(shape.KindCircle, shape.KindAABB, rCircleAABB)
	register(shape.KindCircle, shape.KindOBB, rCircleOBB)
	register(shape.KindCircle, shape.KindPolygon, rCirclePolygon)
	register(shape.KindAABB, shape.KindAABB, rAABBAABB)
	register(shape.KindAABB, shape.KindOBB, rAABBOBB)
	register(shape.KindAABB, shape.KindPolygon, rAABBPolygon)
	register(shape.KindOBB, shape.KindOBB, rOBBOBB)
	register(shape.KindOBB, shape.KindPolygon, rOBBPolygon)
	register(shape.KindPolygon, shape.KindPolygon, rPolygonPolygon)
	// Capsules and segments are rounded two-vertex cores: closed forms
	// against circles and each other, the separating axis test of the
	// cores plus the radius against boxes and polygons.
	for _, k := range []shape.Kind{shape.KindCapsule, shape.KindSegment} {
		register(shape.KindCircle, k, rCircleCapsule)
		register(shape.KindAABB, k, rHullCapsule)
		register(shape.KindOBB, k, rHullCapsule)
		register(shape.KindPolygon, k, rHullCapsule)
	}
	register(shape.KindCapsule, shape.KindCapsule, rCapsuleCapsule)
	register(shape.KindCapsule, shape.KindSegment, rCapsuleCapsule)
}

// collideBy runs routine r on a placed by ta and b placed by tb: whether
// they overlap and, if they do, their manifold in m, and the pair's
// scale (pairScale) when the routine has it at hand, else 0. m arrives
// zero.
func collideBy(r routine, a *shape.Shape, ta *shape.Transform, b *shape.Shape, tb *shape.Transform, m *Manifold) (bool, float64) {
	switch r {
	case rCircleCircle:
		return circleCircle(a, *ta, b, *tb, m)
	case rCircleCapsule:
		return circleCapsule(a, *ta, b, *tb, m)
	case rCircleAABB:
		return circleAABB(a, *ta, b, *tb, m)
	case rCircleOBB:
		return circleOBB(a, *ta, b, *tb, m)
	case rCirclePolygon:
		return circlePolygon(a, *ta, b, *tb, m), 0
	case rAABBAABB:
		return aabbAABB(a, *ta, b, *tb, m)
	case rAABBOBB:
		return aabbOBB(a, *ta, b, *tb, m)
	case rAABBPolygon:
		return aabbPolygon(a, *ta, b, *tb, m), 0
	case rOBBOBB:
		return obbOBB(a, *ta, b, *tb, m)
	case rOBBPolygon:
		return obbPolygon(a, *ta, b, *tb, m), 0
	case rPolygonPolygon:
		return polygonPolygon(a, *ta, b, *tb, m), 0
	case rHullCapsule:
		return hullCapsule(a, *ta, b, *tb, m), 0
	case rCapsuleCapsule:
		return capsuleCapsule(a, *ta, b, *tb, m)
	}
	return false, 0
}

// overlapBy runs routine r's overlap-only form: whether a placed by ta
// and b placed by tb overlap, and the depth their manifold would have.
func overlapBy(r routine, a *shape.Shape, ta *shape.Transform, b *shape.Shape, tb *shape.Transform) (float64, bool) {
	switch r {
	case rCircleCircle:
		return circleCircleOverlap(*a, *ta, *b, *tb)
	case rCircleAABB:
		return circleAABBOverlap(*a, *ta, *b, *tb)
	case rCircleOBB:
		return circleOBBOverlap(*a, *ta, *b, *tb)
	case rCirclePolygon:
		return circlePolygonOverlap(*a, *ta, *b, *tb)
	case rAABBAABB:
		return aabbAABBOverlap(*a, *ta, *b, *tb)
	case rAABBOBB:
		return aabbOBBOverlap(*a, *ta, *b, *tb)
	case rAABBPolygon:
		return aabbPolygonOverlap(*a, *ta, *b, *tb)
	case rOBBOBB:
		return obbOBBOverlap(*a, *ta, *b, *tb)
	case rOBBPolygon:
		return obbPolygonOverlap(*a, *ta, *b, *tb)
	case rPolygonPolygon:
		return polygonPolygonOverlap(*a, *ta, *b, *tb)
	case rCircleCapsule:
		return circleCapsuleOverlap(*a, *ta, *b, *tb)
	case rHullCapsule:
		return hullCapsuleOverlap(*a, *ta, *b, *tb)
	case rCapsuleCapsule:
		return capsuleCapsuleOverlap(*a, *ta, *b, *tb)
	}
	return 0, false
}

// Collide reports whether shape a placed by ta and shape b placed by tb
// overlap and, if they do, returns their contact manifold in world
// coordinates: a unit Normal from a to b, the exact penetration Depth (> 0)
// and one or two contact points (see the package documentation). Shapes that
// only touch do not collide. Invalid shapes never collide. Collide allocates
// nothing.
func Collide(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (m Manifold, ok bool) {
	// The shapes' addresses are taken below, so they live in memory: the
	// kinds are read once.
	ka, okA := a.ValidKind()
	kb, okB := b.ValidKind()
	if !okA || !okB {
		return Manifold{}, false
	}
	if !ka.Convex() || !kb.Convex() {
		return collideComposite(a, ta, b, tb, true)
	}
	// collideConvex written out: a call more costs every contact.
	if ka == kb && before(&b, &tb, &a, &ta) {
		return flipped(Collide(b, tb, a, ta))
	}
	f := &pairTable[ka][kb]
	var scale float64
	if f.swap {
		ok, scale = collideBy(f.r, &b, &tb, &a, &ta, &m)
		m.Normal = m.Normal.Neg()
	} else {
		ok, scale = collideBy(f.r, &a, &ta, &b, &tb, &m)
	}
	if !ok {
		return m, false
	}
	if scale == 0 {
		scale = pairScale(&a, &ta.Pos, &b, &tb.Pos)
	}
	if inTouchBand(m.Depth, scale) && touchApart(a, ta, shape.Identity, b, tb, shape.Identity) {
		return Manifold{}, false // touching exactly (see touchBand)
	}
	return m, true
}

// collideFloat is Collide without the exact confirmation of an overlap
// within touchBand: it may report a contact for shapes that touch, or
// are apart by rounding, never none for shapes that Collide finds
// overlapping. PushOut checks its moves with it: a move it clears,
// Collide clears, and a move a few ulps past the touch would send Collide
// to its exact test every time.
func collideFloat(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	ka, kb := a.Kind(), b.Kind()
	if !a.Valid() || !b.Valid() {
		return Manifold{}, false
	}
	if !ka.Convex() || !kb.Convex() {
		return collideComposite(a, ta, b, tb, false)
	}
	return collideConvex(ka, kb, a, ta, b, tb)
}

// collideConvex is Collide for valid convex shapes a and b, of kinds ka
// and kb, without the exact confirmation of an overlap within touchBand
// (touchApart), which its callers make: they know how each shape is
// placed exactly.
func collideConvex(ka, kb shape.Kind, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	if ka == kb && before(&b, &tb, &a, &ta) {
		return flipped(collideConvex(kb, ka, b, tb, a, ta))
	}
	f := &pairTable[ka][kb]
	var m Manifold
	if f.swap {
		ok, _ := collideBy(f.r, &b, &tb, &a, &ta, &m)
		m.Normal = m.Normal.Neg()
		return m, ok
	}
	ok, _ := collideBy(f.r, &a, &ta, &b, &tb, &m)
	return m, ok
}

// before reports whether (a, ta) comes strictly before (b, tb) in a total
// order of placed shapes of one kind: position, then rotation, then size.
// Same-kind pairs are always computed in this order and flipped when given
// the other way round, so Collide(b, a) is exactly Collide(a, b) with the
// normal negated, even where the answer is a tie-break (coincident centres
// fall back to +X in one order only).
func before(a *shape.Shape, ta *shape.Transform, b *shape.Shape, tb *shape.Transform) bool {
	if c := cmpVec(ta.Pos, tb.Pos); c != 0 {
		return c < 0
	}
	if *ta == *tb && *a == *b {
		return false // exact twins (the same shape value, placed alike): neither comes first
	}
	if c := cmpVec(shape.V(ta.Rot.Cos(), ta.Rot.Sin()), shape.V(tb.Rot.Cos(), tb.Rot.Sin())); c != 0 {
		return c < 0
	}
	if a.Radius() != b.Radius() {
		return a.Radius() < b.Radius()
	}
	if c := cmpVec(a.HalfExtents(), b.HalfExtents()); c != 0 {
		return c < 0
	}
	if c := cmpVec(a.Center(), b.Center()); c != 0 {
		return c < 0
	}
	va, vb := a.Vertices(), b.Vertices()
	if len(va) != len(vb) {
		return len(va) < len(vb)
	}
	for i := range va {
		if c := cmpVec(va[i], vb[i]); c != 0 {
			return c < 0
		}
	}
	return false
}

// cmpVec orders vectors by X, then Y.
func cmpVec(a, b shape.Vec2) int {
	switch {
	case a.X < b.X:
		return -1
	case a.X > b.X:
		return 1
	case a.Y < b.Y:
		return -1
	case a.Y > b.Y:
		return 1
	}
	return 0
}

// flipped turns the result of a mirrored pair, whose routine saw b as its A,
// around: the normal then points from a to b.
func flipped(m Manifold, ok bool) (Manifold, bool) { return m.Flip(), ok }

// Overlap reports whether shape a placed by ta and shape b placed by tb
// overlap. It gives exactly the answer [Collide] gives, touching included
// (touching is not overlapping), but builds no manifold. It allocates
// nothing.
func Overlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	ka, kb := a.Kind(), b.Kind() // read once, as in Collide
	if !a.Valid() || !b.Valid() {
		return false
	}
	if !ka.Convex() || !kb.Convex() {
		return overlapComposite(a, ta, b, tb)
	}
	// overlapConvex written out, as collideConvex in Collide.
	if ka == kb && before(&b, &tb, &a, &ta) {
		a, ta, b, tb = b, tb, a, ta
	}
	f := &pairTable[ka][kb]
	var depth float64
	var ok bool
	if f.swap {
		depth, ok = overlapBy(f.r, &b, &tb, &a, &ta)
	} else {
		depth, ok = overlapBy(f.r, &a, &ta, &b, &tb)
	}
	// Collide's answer exactly, touching included: an overlap within the
	// rounding band is confirmed as Collide confirms it, the depth being
	// the one its manifold would have.
	return ok && !(inTouchBand(depth, pairScale(&a, &ta.Pos, &b, &tb.Pos)) && touchApart(a, ta, shape.Identity, b, tb, shape.Identity))
}

// overlapConvex is collideConvex's answer and depth for valid convex
// shapes a and b, of kinds ka and kb, without building the manifold.
func overlapConvex(ka, kb shape.Kind, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	if ka == kb && before(&b, &tb, &a, &ta) {
		a, ta, b, tb = b, tb, a, ta
	}
	f := &pairTable[ka][kb]
	if f.swap {
		return overlapBy(f.r, &b, &tb, &a, &ta)
	}
	return overlapBy(f.r, &a, &ta, &b, &tb)
}

// toWorld converts a manifold computed in the local frame placed by t to
// world coordinates. It is small enough to be inlined and leaves the work
// to the method of the same name.
func toWorld(m Manifold, t shape.Transform) Manifold {
	m.toWorld(t)
	return m
}

// toWorld converts m, computed in the local frame placed by t, to world
// coordinates in place: a Manifold is too large for registers, and a
// pointer saves copying it in and out.
func (m *Manifold) toWorld(t shape.Transform) {
	m.Normal = t.Rot.Apply(m.Normal)
	for i := range m.Count {
		m.Points[i].Point = t.Apply(m.Points[i].Point)
	}
}

// single returns a one-point manifold.
func single(n, p shape.Vec2, depth float64) Manifold {
	return Manifold{Normal: n, Depth: depth, Points: [2]ContactPoint{{Point: p, Depth: depth}}, Count: 1}
}

// single makes m a one-point manifold.
func (m *Manifold) single(n, p shape.Vec2, depth float64) {
	m.Normal, m.Depth, m.Count = n, depth, 1
	m.Points[0] = ContactPoint{Point: p, Depth: depth}
}
