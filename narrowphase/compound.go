package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// CollideParts calls fn for every pair of parts of a (placed by ta) and b
// (placed by tb) that collide, with the part indexes and the pair's
// manifold in world coordinates, until fn returns false. A simple shape is
// its own part 0; a compound's parts come in their order, a chain's
// segments (part i runs from point i to point i+1) through its box tree,
// in segment order. Two parts collide exactly when [Collide] of the parts,
// placed by their transforms (the body's transform times the part's
// offset, both bodies first moved together so that the lesser position is
// the origin when either is a compound, and the contact points moved
// back: far from the origin a part placed in world coordinates would be
// off by an ulp of them), says so, but for an overlap within rounding of
// touching, which is confirmed in exact arithmetic (as Collide confirms
// one) with each part placed by the exact product of its body's transform
// and its offset, not by that product rounded; the manifold is Collide's,
// except that a chain segment's normal is kept within the segment's normal cone: the
// directions from its side's normal toward each end, bounded, where a
// neighbouring segment continues the chain, by the neighbour's side normal
// at a convex corner and by its own at a flat or concave one (a neighbour
// that turns straight back, a needle's tip, bounds nothing: that end is
// as exposed as the chain's own ends). A contact
// whose normal leans outside the cone (toward an internal vertex: a ghost
// collision) is replaced by the smallest translation along a direction of
// the cone, on either side of the segment and in either half (the half
// away from the lean reaches round to an open end too), so that a shape sliding along collinear or gently bending
// segments gets the normal and depth one long segment would give. Two
// chains never collide (segments do not collide with segments). It
// allocates nothing.
func CollideParts(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, fn func(pa, pb int, m Manifold) bool) {
	collideParts(a, ta, b, tb, true, fn)
}

// collideParts is CollideParts, with the exact confirmation of overlaps
// within touchBand only when exact is set.
func collideParts(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, exact bool, fn func(pa, pb int, m Manifold) bool) {
	if !a.Valid() || !b.Valid() || (a.Kind() == shape.KindChain && b.Kind() == shape.KindChain) {
		return
	}
	// The exact confirmation of an overlap within touchBand places the
	// parts from the transforms as given (see touchApart).
	ex := exactPair{a: a, ta: ta, b: b, tb: tb, on: exact}
	if exact {
		ex.scale = pairScale(&a, &ta.Pos, &b, &tb.Pos)
	}
	ta, tb, o := recentre(a, ta, b, tb)
	switch {
	case a.Kind() == shape.KindChain:
		collideChainA(a, ta, b, tb, o, &ex, fn)
		return
	case b.Kind() == shape.KindChain:
		collideChainB(a, ta, b, tb, o, &ex, fn)
		return
	}
	var boxB shape.AABB // only a composite a needs it
	if !a.Kind().Convex() {
		boxB = b.WorldAABB(tb)
	}
	forParts(a, ta, boxB, func(i int, sa shape.Shape, xa shape.Transform) bool {
		return forParts(b, tb, sa.WorldAABB(xa), func(j int, sb shape.Shape, xb shape.Transform) bool {
			m, ok := collideConvex(sa.Kind(), sb.Kind(), sa, xa, sb, xb)
			if !ok || ex.apart(m.Depth, i, j) {
				return true
			}
			for k := range m.Count {
				m.Points[k].Point = m.Points[k].Point.Add(o)
			}
			return fn(i, j, m)
		})
	})
}

// collideChainA is CollideParts for chain a and a convex or compound b,
// already recentred by o: the segments near b's box in segment order,
// each against b, or against the parts of compound b whose boxes overlap
// the segment's, in part order.
func collideChainA(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, o shape.Vec2, ex *exactPair, fn func(pa, pb int, m Manifold) bool) {
	compound := b.Kind() == shape.KindCompound
	// Set field by field: a composite literal would be built aside and
	// copied. x is b, or its part xPart.
	var sp segPair
	sp.c, sp.tc, sp.x, sp.tx, sp.o, sp.ex = a, ta, b, tb, o, *ex
	xPart := -1
	a.PartsNear(shape.LocalBox(ta, b.WorldAABB(tb)), func(i int) bool {
		seg, _ := a.Part(i, ta)
		if !compound {
			return sp.collide(i, seg, 0, fn)
		}
		box := seg.WorldAABB(ta)
		for j := range b.PartCount() {
			pb, xb := b.Part(j, tb)
			if !box.Overlaps(pb.WorldAABB(xb)) {
				continue
			}
			if j != xPart {
				sp.x, sp.tx, sp.set, sp.faced, xPart = pb, xb, false, false, j
			}
			if !sp.collide(i, seg, j, fn) {
				return false
			}
		}
		return true
	})
}

// collideChainB is CollideParts for a convex or compound a and chain b,
// already recentred by o: a's parts whose boxes overlap b's in part order
// (a itself if convex), each against the segments near its box, in
// segment order.
func collideChainB(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, o shape.Vec2, ex *exactPair, fn func(pa, pb int, m Manifold) bool) {
	if a.Kind() != shape.KindCompound {
		collidePartChain(a, ta, 0, a.WorldAABB(ta), b, tb, o, ex, fn)
		return
	}
	boxB := b.WorldAABB(tb)
	for i := range a.PartCount() {
		pa, xa := a.Part(i, ta)
		box := pa.WorldAABB(xa)
		if boxB.Overlaps(box) && !collidePartChain(pa, xa, i, box, b, tb, o, ex, fn) {
			return
		}
	}
}

// collidePartChain collides part i of a (convex shape pa placed by xa,
// with world box box) with the segments of chain b near it, as
// collideChainB; it reports whether fn never returned false.
func collidePartChain(pa shape.Shape, xa shape.Transform, i int, box shape.AABB, b shape.Shape, tb shape.Transform, o shape.Vec2, ex *exactPair, fn func(pa, pb int, m Manifold) bool) bool {
	cont := true
	var sp segPair // set field by field, as in collideChainA
	sp.c, sp.tc, sp.x, sp.tx, sp.o, sp.cIsB, sp.ex = b, tb, pa, xa, o, true, *ex
	b.PartsNear(shape.LocalBox(tb, box), func(j int) bool {
		seg, _ := b.Part(j, tb)
		cont = sp.collide(j, seg, i, fn)
		return cont
	})
	return cont
}

// segPair is a chain c (placed by tc) and a convex shape x (placed by tx:
// the chain's other shape, or one of its parts) in CollideParts (the
// chain as its b when cIsB, contact points to be moved by o), with x's
// core in the chain's frame and its faces' inward normals,
// built once for all the segments that need them (set, faced).
type segPair struct {
	c, x   shape.Shape
	tc, tx shape.Transform
	o      shape.Vec2
	ex     exactPair // a copy: a pointer kept here would escape
	cIsB   bool
	set    bool
	faced  bool
	nf     int
	core   core
	faces  [shape.MaxPolygonVertices]shape.Vec2 // from a segment toward x
}

// collide collides segment j of the chain (seg) with x, part k of the
// other shape, in CollideParts' order, keeps the normal in the segment's
// cone (smooth), moves the points by o and hands the contact to fn; it
// reports whether fn did not return false.
func (sp *segPair) collide(j int, seg shape.Shape, k int, fn func(pa, pb int, m Manifold) bool) bool {
	var m Manifold
	var ok bool
	if sp.cIsB {
		m, ok = collideConvex(sp.x.Kind(), seg.Kind(), sp.x, sp.tx, seg, sp.tc)
		ok = ok && !sp.ex.apart(m.Depth, k, j)
	} else {
		m, ok = collideConvex(seg.Kind(), sp.x.Kind(), seg, sp.tc, sp.x, sp.tx)
		ok = ok && !sp.ex.apart(m.Depth, j, k)
	}
	if !ok {
		return true
	}
	if sp.cIsB {
		m.Normal = m.Normal.Neg() // from the segment toward x, as smooth takes it
	}
	sp.smooth(j, &m)
	if sp.cIsB {
		m.Normal = m.Normal.Neg()
	}
	for n := range m.Count {
		m.Points[n].Point = m.Points[n].Point.Add(sp.o)
	}
	if sp.cIsB {
		return fn(k, j, m)
	}
	return fn(j, k, m)
}

// setCore sets x's core in the chain's frame.
func (sp *segPair) setCore() {
	sp.core.setIn(sp.x, sp.tc.MulInv(sp.x.EffectiveTransform(sp.tx)))
	sp.set = true
}

// setFaces sets the inward normals of x's core faces, in order, skipping
// faces of zero length (a core of one point has none).
func (sp *segPair) setFaces() {
	sp.nf, sp.faced = 0, true
	c := &sp.core
	if c.n < 2 {
		return
	}
	for k := range c.n {
		e := c.v[next(k, c.n)].Sub(c.v[k])
		if e.LenSq() == 0 {
			continue
		}
		sp.faces[sp.nf] = outward(e).Neg()
		sp.nf++
	}
}

// recentre returns ta and tb moved by −o, o the lesser of their positions
// (by X, then Y: the same whichever way round the pair comes), and o, when
// a or b is a compound (else the transforms as they are and a zero o). The
// parts of a compound are placed from the moved transforms, in small
// numbers near the pair, not rounded to world coordinates far from the
// origin, where an ulp of the position would move a part; contact points
// are moved back by o.
func recentre(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (shape.Transform, shape.Transform, shape.Vec2) {
	if a.Kind() != shape.KindCompound && b.Kind() != shape.KindCompound {
		return ta, tb, shape.Vec2{} // nothing placed by an offset: as they are
	}
	o := ta.Pos
	if tb.Pos.X < o.X || (tb.Pos.X == o.X && tb.Pos.Y < o.Y) {
		o = tb.Pos
	}
	ta.Pos, tb.Pos = ta.Pos.Sub(o), tb.Pos.Sub(o)
	return ta, tb, o
}

// forParts calls fn with every part of s placed by t whose world box may
// overlap the world box box (all of them for a simple shape), with the
// part's shape and world transform, until fn returns false; it reports
// whether fn never did.
func forParts(s shape.Shape, t shape.Transform, box shape.AABB, fn func(i int, ps shape.Shape, pt shape.Transform) bool) bool {
	switch s.Kind() {
	case shape.KindCompound:
		for i := range s.PartCount() {
			ps, pt := s.Part(i, t)
			if box.Overlaps(ps.WorldAABB(pt)) && !fn(i, ps, pt) {
				return false
			}
		}
		return true
	case shape.KindChain:
		cont := true
		// The tree tested each segment's local box against box carried
		// into the chain's frame (grown to hold rounding): no world box
		// test is needed.
		s.PartsNear(shape.LocalBox(t, box), func(i int) bool {
			ps, pt := s.Part(i, t)
			cont = fn(i, ps, pt)
			return cont
		})
		return cont
	}
	return fn(0, s, t)
}

// ghostTol is the lean, as the sine of the angle between a contact normal
// and a chain segment's side normal, below which the normal counts as the
// side's own (rounding of an exact face normal), and the margin by which a
// corner must turn to count as convex.
const ghostTol = 1e-9

// smooth keeps the normal of m, the manifold of segment i of the chain
// with x, normal from the segment toward x, within the segment's normal
// cone (see CollideParts), changing m in place.
func (sp *segPair) smooth(i int, m *Manifold) {
	c, t := sp.c, sp.tc
	prev, nxt := c.ChainLinks(i)
	p0, p1, rn := c.ChainSegment(i)
	d := shape.Vec2{X: -rn.Y, Y: rn.X} // the unit direction p0→p1, left of its right normal
	nl := t.Rot.ApplyInv(m.Normal)
	along := nl.Dot(d)
	if along >= -ghostTol && along <= ghostTol {
		return // the side's own normal
	}
	// A neighbour that turns straight back (a needle's tip) leaves the
	// end as exposed as an open one: the turn, a cross product, is as
	// small at a half turn as on a straight run, and only the directions'
	// dot product tells them apart.
	turn0, turn1 := c.ChainTurns(i)
	if prev >= 0 && reverses(c, prev, turn0, d) {
		prev = -1
	}
	if nxt >= 0 && reverses(c, nxt, turn1, d) {
		nxt = -1
	}
	if (along < 0 && prev < 0) || (along > 0 && nxt < 0) {
		return // toward an open end
	}
	// The cone on each side: from the side normal toward each end, up to
	// the end direction at an open end, to the neighbour's side normal at
	// a convex corner, and no further than the side normal at a flat or
	// concave one. A normal inside it is kept.
	var sides [2]struct{ f, lean, away shape.Vec2 } // the right side, then the left
	sides[0].f, sides[1].f = rn, rn.Scale(-1)
	r0, l0 := coneBounds(c, prev, turn0, d.Neg(), sides[0].f, sides[1].f)
	r1, l1 := coneBounds(c, nxt, turn1, d, sides[0].f, sides[1].f)
	if along > 0 { // leaning toward p1
		sides[0].lean, sides[0].away, sides[1].lean, sides[1].away = r1, r0, l1, l0
	} else {
		sides[0].lean, sides[0].away, sides[1].lean, sides[1].away = r0, r1, l0, l1
	}
	for k := range sides {
		sd := &sides[k]
		if lean, f := sd.lean, sd.f; lean != f {
			// Inside the cone between the bound and f, less than a half
			// turn wide.
			if o := lean.Cross(f); (o > 0 && lean.Cross(nl) >= -ghostTol && nl.Cross(f) >= -ghostTol) ||
				(o < 0 && lean.Cross(nl) <= ghostTol && nl.Cross(f) <= ghostTol) {
				return
			}
		}
	}
	// x's core in the chain's frame.
	if !sp.set {
		sp.setCore()
	}
	cx := &sp.core
	// Outside the cone: the least overlap along a direction of it, on
	// either side and in either half (the half away from the lean reaches
	// round to an open end, or to its neighbour's side normal at a convex
	// corner), the side normal first among equals on the side x overlaps
	// less from. The overlap along a direction is smallest at a face
	// normal of the pair's Minkowski difference or at an end of the range,
	// so the side normals, the bounds and x's face normals in between are
	// the candidates.
	// Each side normal's overlap and x's face normals are computed once
	// (the faces only once a bound differs from its side normal), and the
	// candidates tried in the same order whatever is cached.
	of := [2]float64{overlapAlong(p0, p1, cx, sides[0].f), overlapAlong(p0, p1, cx, sides[1].f)}
	if of[1] < of[0] {
		sides[0], sides[1] = sides[1], sides[0]
		of[0], of[1] = of[1], of[0]
	}
	best, bu := of[0], sides[0].f
	for s := range sides {
		sd := &sides[s]
		f := sd.f
		if of[s] < best {
			best, bu = of[s], f
		}
		for q := range 2 {
			b := sd.lean
			if q == 1 {
				b = sd.away
			}
			if b == f {
				continue
			}
			if o := overlapAlong(p0, p1, cx, b); o < best {
				best, bu = o, b
			}
			if !sp.faced {
				sp.setFaces()
			}
			// The faces within the cone from b to f (less than a half
			// turn).
			ccw := b.Cross(f) >= 0
			for _, u := range sp.faces[:sp.nf] {
				if (ccw && b.Cross(u) >= 0 && u.Cross(f) >= 0) || (!ccw && b.Cross(u) <= 0 && u.Cross(f) <= 0) {
					if o := overlapAlong(p0, p1, cx, u); o < best {
						best, bu = o, u
					}
				}
			}
		}
	}
	*m = toWorld(supportContact(p0, p1, cx, bu, best), t)
}

// supportContact returns the manifold of the segment p0–p1 and core x
// along the unit u, from the segment toward x, whose overlap along u is
// depth: where the supports meet, the segment's along u and x's along −u,
// taken as ranges along the tangent. The points lie at the ends of the
// ranges' overlap (one point where it is a point, or at x's end nearest
// the segment's where the ranges are apart), midway between the surfaces
// (between x and the segment's support line), each with
// the full depth: both supports are perpendicular to u. Taking x's deepest
// vertex alone put the point beside the segment where the segment's end
// was the deeper feature (TestChainCornerContactPointBug).
func supportContact(p0, p1 shape.Vec2, x *core, u shape.Vec2, depth float64) Manifold {
	tg := u.Perp()
	h0, h1 := u.Dot(p0), u.Dot(p1)
	hs := max(h0, h1)
	lw := u.Dot(x.v[0])
	size := max(p0.Len(), p1.Len())
	for _, v := range x.v[1:x.n] {
		lw = min(lw, u.Dot(v))
	}
	for _, v := range x.v[:x.n] {
		size = max(size, v.Len())
	}
	// Support membership within the rounding of the dot products.
	tol := float64(ghostTol * size)
	sLo, sHi := math.Inf(1), math.Inf(-1)
	for _, q := range [2]struct {
		p shape.Vec2
		h float64
	}{{p0, h0}, {p1, h1}} {
		if q.h >= hs-tol {
			s := tg.Dot(q.p)
			sLo, sHi = min(sLo, s), max(sHi, s)
		}
	}
	xLo, xHi := math.Inf(1), math.Inf(-1)
	for _, v := range x.v[:x.n] {
		if u.Dot(v) <= lw+tol {
			s := tg.Dot(v)
			xLo, xHi = min(xLo, s), max(xHi, s)
		}
	}
	lo, hi := max(sLo, xLo), min(sHi, xHi)
	mid := (hs + (lw - x.r)) / 2
	if lo > hi {
		// Apart along the tangent (x beyond the segment's end, where the
		// cone stands for the longer chain): x's support point nearest
		// the segment's, under the segment's support line.
		if xHi < sLo {
			return single(u, tg.Scale(xHi).Add(u.Scale(mid)), depth)
		}
		return single(u, tg.Scale(xLo).Add(u.Scale(mid)), depth)
	}
	if hi-lo > tol {
		return Manifold{Normal: u, Depth: depth, Count: 2, Points: [2]ContactPoint{
			{Point: tg.Scale(lo).Add(u.Scale(mid)), Depth: depth},
			{Point: tg.Scale(hi).Add(u.Scale(mid)), Depth: depth},
		}}
	}
	return single(u, tg.Scale((lo+hi)/2).Add(u.Scale(mid)), depth)
}

// reverses reports whether the chain's segment nb, a neighbour of a
// segment of unit direction d with the turn between them (see
// [shape.Shape.ChainTurns]), runs back against d: a turn within ghostTol
// of a half turn.
func reverses(c shape.Shape, nb int, turn float64, d shape.Vec2) bool {
	if turn > ghostTol || -turn > ghostTol {
		return false
	}
	_, _, n := c.ChainSegment(nb)
	return float64(n.X*d.Y) < float64(n.Y*d.X) // its direction {−n.Y, n.X} against d
}

// coneBounds returns the bounds of a chain segment's normal cone, on its
// right side (side normal fr) and left side (fl), at the end where the
// neighbouring segment is nb (−1 at an open end) and the chain turns by
// turn (see [shape.Shape.ChainTurns]): the end direction end at an open
// end; the neighbour's side normal on the side where the corner is convex
// (turning left, turn > 0, is convex from the right); else the side normal
// itself.
func coneBounds(c shape.Shape, nb int, turn float64, end, fr, fl shape.Vec2) (r, l shape.Vec2) {
	if nb < 0 {
		return end, end
	}
	switch {
	case turn > ghostTol:
		_, _, n := c.ChainSegment(nb)
		return n, fl
	case -turn > ghostTol:
		_, _, n := c.ChainSegment(nb)
		return fr, n.Scale(-1)
	}
	return fr, fl
}

// overlapAlong returns how far core x must move along the unit u to clear
// the segment p0–p1: the segment's extent along u less x's.
func overlapAlong(p0, p1 shape.Vec2, x *core, u shape.Vec2) float64 {
	hi := max(u.Dot(p0), u.Dot(p1))
	lo := u.Dot(x.v[0])
	for _, v := range x.v[1:x.n] {
		if w := u.Dot(v); w < lo {
			lo = w
		}
	}
	return hi - (lo - x.r)
}

// exactPair is a pair of shapes as given to CollideParts or Overlap, for
// the exact confirmation of their parts' overlaps within touchBand of the
// pair's scale, if on.
type exactPair struct {
	a, b   shape.Shape
	ta, tb shape.Transform
	scale  float64
	on     bool
}

// apart reports whether part i of a and part j of b, which overlap by
// depth in floats, are within the band and exactly apart (partsApart).
func (ex *exactPair) apart(depth float64, i, j int) bool {
	return ex.on && inTouchBand(depth, ex.scale) && partsApart(ex.a, ex.ta, i, ex.b, ex.tb, j)
}

// collideComposite is Collide for a pair with a compound or chain: the
// deepest manifold of any part pair, the first among equals in the part
// order of the pair taken in a fixed order (see deepestParts); overlaps
// within touchBand confirmed exactly only if exact is set.
func collideComposite(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, exact bool) (Manifold, bool) {
	m, _, ok := deepestParts(a, ta, b, tb, exact)
	return m, ok
}

// deepestParts is collideComposite with the index of b's part in the
// deepest pair. The pair is solved in a fixed order, the lesser kind first
// and two compounds by compositeBefore, and flipped when given the other
// way round: CollideParts visits its first shape's parts in the outer
// loop, so part pairs tied for the deepest would otherwise be met in a
// different order each way, and Collide(b, a) would not be Collide(a, b)
// flipped.
func deepestParts(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, exact bool) (Manifold, int, bool) {
	if ka, kb := a.Kind(), b.Kind(); ka > kb || (ka == kb && compositeBefore(b, tb, a, ta)) {
		m, i, _, ok := deepestPair(b, tb, a, ta, exact)
		return m.Flip(), i, ok
	}
	m, _, j, ok := deepestPair(a, ta, b, tb, exact)
	return m, j, ok
}

// deepestPair returns the deepest manifold of any part pair of a and b,
// the first in CollideParts' order among equals, and its part indexes.
func deepestPair(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, exact bool) (Manifold, int, int, bool) {
	var best Manifold
	bestA, bestB, found := 0, 0, false
	collideParts(a, ta, b, tb, exact, func(i, j int, m Manifold) bool {
		if !found || m.Depth > best.Depth {
			best, bestA, bestB, found = m, i, j, true
		}
		return true
	})
	return best, bestA, bestB, found
}

// compositeBefore reports whether the compound a placed by ta comes
// strictly before the compound b placed by tb in a total order, as before
// orders convex shapes: position, then rotation, then the parts in turn
// (kind, offset, then before on the part shapes). Compounds equal in all
// of these are twins: neither comes first.
func compositeBefore(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	if c := cmpVec(ta.Pos, tb.Pos); c != 0 {
		return c < 0
	}
	if c := cmpVec(shape.V(ta.Rot.Cos(), ta.Rot.Sin()), shape.V(tb.Rot.Cos(), tb.Rot.Sin())); c != 0 {
		return c < 0
	}
	pa, pb := a.Parts(), b.Parts()
	if len(pa) != len(pb) {
		return len(pa) < len(pb)
	}
	for i := range pa {
		x, y := pa[i], pb[i]
		if kx, ky := x.Shape.Kind(), y.Shape.Kind(); kx != ky {
			return kx < ky
		}
		if before(&x.Shape, &x.Offset, &y.Shape, &y.Offset) {
			return true
		}
		if before(&y.Shape, &y.Offset, &x.Shape, &x.Offset) {
			return false
		}
	}
	return false
}

// overlapComposite is Overlap for a pair with a compound or chain: whether
// any part pair overlaps. Ghost contacts need no filter here: a segment's
// ghost always has a neighbour that overlaps the shape too.
func overlapComposite(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
		return false
	}
	found := false
	ex := exactPair{a: a, ta: ta, b: b, tb: tb, scale: pairScale(&a, &ta.Pos, &b, &tb.Pos), on: true}
	ta, tb, _ = recentre(a, ta, b, tb) // as CollideParts places the parts
	forParts(a, ta, b.WorldAABB(tb), func(i int, sa shape.Shape, xa shape.Transform) bool {
		return forParts(b, tb, sa.WorldAABB(xa), func(j int, sb shape.Shape, xb shape.Transform) bool {
			depth, ok := overlapConvex(sa.Kind(), sb.Kind(), sa, xa, sb, xb)
			found = ok && !ex.apart(depth, i, j)
			return !found
		})
	})
	return found
}

// rayComposite is the nearest hit of any part, the first in part order
// among equal distances, with Part set. Only parts whose boxes meet the
// ray's box are tried. A compound is solved in its own frame, as
// distSqComposite.
func rayComposite(s shape.Shape, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	if s.Kind() == shape.KindCompound {
		o, d := t.ApplyInv(origin), t.Rot.ApplyInv(dir)
		// The very test ContainsPoint makes (containsComposite), part by
		// part: the hit names the first part that holds the origin.
		for i, part := range s.Parts() {
			if ContainsPoint(part.Shape, part.Offset, o) {
				h, _ := insideHit(origin, dir)
				h.Part = i
				return h, true
			}
		}
		// Only parts whose boxes meet the ray's box (in the compound's
		// frame, grown by a rounding margin) are tried.
		rb, finite := shape.AABB{}, !math.IsInf(maxDist, 1)
		if finite {
			rb = shape.AABBFromPoints(o, o.Add(d.Scale(maxDist)))
			rb = rb.Expand(float64(1e-12 * (1 + math.Abs(o.X) + math.Abs(o.Y) + maxDist)))
		}
		var best RayHit
		found := false
		for i, part := range s.Parts() {
			if finite && !part.Shape.WorldAABB(part.Offset).Overlaps(rb) {
				continue
			}
			limit := maxDist
			if found {
				limit = best.Distance
			}
			if h, ok := RayCast(part.Shape, part.Offset, o, d, limit); ok && (!found || h.Distance < best.Distance) {
				h.Part = i
				best, found = h, true
			}
		}
		if !found {
			return RayHit{}, false
		}
		// No part holds the origin (the loop above made each part's own
		// test), so even an entry at distance 0, from a rounding hair
		// outside, has the entered surface's normal, as the lone part
		// gives it.
		n := t.Rot.Apply(best.Normal)
		if best.Normal == d.Neg() {
			// A part's -d (a ray along a segment's line, or straight
			// into a face) is -dir itself: turned back into the world
			// it would be an ulp off.
			n = dir.Neg()
		}
		best.Point, best.Normal = t.Apply(best.Point), n
		return best, true
	}
	box := s.WorldAABB(t)
	if !math.IsInf(maxDist, 1) {
		end := origin.Add(dir.Scale(maxDist))
		box = shape.AABBFromPoints(origin, end)
	}
	var best RayHit
	found := false
	forParts(s, t, box, func(i int, ps shape.Shape, pt shape.Transform) bool {
		limit := maxDist
		if found {
			limit = best.Distance
		}
		if h, ok := RayCast(ps, pt, origin, dir, limit); ok && (!found || h.Distance < best.Distance) {
			h.Part = i
			best, found = h, true
		}
		return true
	})
	if found && best.Distance == 0 {
		// At a joint the origin can round onto one segment and a hair off
		// its neighbour, which the ray then enters at 0: where any segment
		// holds the origin (the very test ContainsPoint makes), the answer
		// is the convention's, naming the first segment that holds it.
		part := -1
		forParts(s, t, shape.AABB{Min: origin, Max: origin}, func(i int, ps shape.Shape, pt shape.Transform) bool {
			if (part < 0 || i < part) && ContainsPoint(ps, pt, origin) {
				part = i
			}
			return true
		})
		if part >= 0 {
			h, _ := insideHit(origin, dir)
			h.Part = part
			return h, true
		}
	}
	return best, found
}

// distSqComposite is DistanceSq for a compound or chain: the least over its
// parts. A chain's segments are searched within the distance of its first
// segment, then within the best found.
func distSqComposite(s shape.Shape, t shape.Transform, p shape.Vec2) float64 {
	if s.Kind() != shape.KindChain {
		// In the compound's frame: a part placed in the world first would
		// round to the ulp of t.Pos.
		q := t.ApplyInv(p)
		best := math.Inf(1)
		for _, part := range s.Parts() {
			best = min(best, DistanceSq(part.Shape, part.Offset, q))
		}
		return best
	}
	ps, pt := s.Part(0, t)
	best := DistanceSq(ps, pt, p)
	r := math.Sqrt(best)
	box := shape.AABB{Min: p.Sub(shape.V(r, r)), Max: p.Add(shape.V(r, r))}
	forParts(s, t, box, func(_ int, ps shape.Shape, pt shape.Transform) bool {
		best = min(best, DistanceSq(ps, pt, p))
		return true
	})
	return best
}

// containsComposite is ContainsPoint for a compound or chain: whether any
// part contains p.
func containsComposite(s shape.Shape, t shape.Transform, p shape.Vec2) bool {
	if s.Kind() == shape.KindCompound {
		// In the compound's frame, as distSqComposite.
		q := t.ApplyInv(p)
		for _, part := range s.Parts() {
			if ContainsPoint(part.Shape, part.Offset, q) {
				return true
			}
		}
		return false
	}
	found := false
	forParts(s, t, shape.AABB{Min: p, Max: p}, func(_ int, ps shape.Shape, pt shape.Transform) bool {
		found = ContainsPoint(ps, pt, p)
		return !found
	})
	return found
}

// outward returns the unit outward normal of a counter-clockwise edge e.
func outward(e shape.Vec2) shape.Vec2 {
	s := max(math.Abs(e.X), math.Abs(e.Y))
	return shape.Vec2{X: e.Y / s, Y: -e.X / s}.Normalize()
}
