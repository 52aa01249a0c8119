package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// touchBand is the depth, relative to a pair's scale (pairScale: the
// magnitudes of both positions plus the shapes' reach), within which
// Collide and Overlap confirm an overlap with exact arithmetic
// (touchApart): there the routines' answer is rounding, since they
// measure along rounded unit normals, rotate by rounded products and
// subtract positions that round far from the origin, so that shapes that
// touch exactly (a corner on a slanted edge, a box on a turned polygon, a
// disc on a face) come out overlapping by an ulp of their coordinates.
// Touching is not a contact. Rounding errors of the routines are near
// 1e-16 of the scale; the band is wide of them, and narrow enough that
// the exact test runs for touching pairs only.
const touchBand = 1e-12

// inTouchBand reports whether depth is within touchBand of scale.
func inTouchBand(depth, scale float64) bool {
	return depth <= float64(touchBand*scale)
}

// pairScale returns the scale of the rounding of a pair's depth: the
// magnitudes of the positions of a placed by ta and b placed by tb plus
// the reach of each shape (for a compound's or chain's part, of the
// whole body: its parts are placed from the body's transform). It runs
// for every contact: the shapes and positions go by pointer, not copied.
func pairScale(a *shape.Shape, pa *shape.Vec2, b *shape.Shape, pb *shape.Vec2) float64 {
	return math.Abs(pa.X) + math.Abs(pa.Y) + math.Abs(pb.X) + math.Abs(pb.Y) + a.Reach() + b.Reach()
}

// partsApart is touchApart for part i of a (placed by ta) and part j of b
// (placed by tb), each a compound's part placed by its offset, a chain's
// segment, or a convex shape itself (part 0).
func partsApart(a shape.Shape, ta shape.Transform, i int, b shape.Shape, tb shape.Transform, j int) bool {
	sa, oa := partAt(a, i)
	sb, ob := partAt(b, j)
	return touchApart(sa, ta, oa, sb, tb, ob)
}

// touchApart reports whether the convex shapes a and b, each placed by its
// body's transform (ta, tb) times its offset in the body (oa, ob: a
// compound part's, else the identity), do not overlap in exact arithmetic:
// the shapes are those that the transforms' positions and the cosines and
// sines they hold describe exactly (an AABB's rotation dropped), a
// compound's part placed by the exact product of its offset and its
// body's transform, not by that product rounded. Two shapes without
// radius are apart when an edge of either has every point of the other
// on its outer side or on its line (the separating axis test over the
// edges' normals, exact for two convex outlines; Ericson, Real-Time
// Collision Detection, §5.2.1); with radii, when their cores (points,
// segments or outlines) do not meet and no vertex of either is nearer
// than the sum of the radii to an edge of the other (the least distance
// of two disjoint convex outlines is a vertex's to an edge). Every sign
// is exact, in stages (Shewchuk's adaptive predicates, "Adaptive
// precision floating-point arithmetic and fast robust geometric
// predicates", 1997, §4, in spirit): from floats where the value is clear
// of their error (touchFilter), else from double-doubles (touchDDErr),
// which decide all but touches exact to 2⁻⁹⁰ of the shapes, else from the
// exact value, an expansion (xnum). Where even that cannot decide
// (numbers beyond xnum's range), it reports false: the floats' overlap
// stands. It allocates nothing.
func touchApart(a shape.Shape, ta, oa shape.Transform, b shape.Shape, tb, ob shape.Transform) bool {
	if a.Kind() == shape.KindCircle && b.Kind() == shape.KindCircle && oa == shape.Identity && ob == shape.Identity &&
		a.Center() == (shape.Vec2{}) && b.Center() == (shape.Vec2{}) {
		if apart, ok := discsApart(ta.Pos, a.Radius(), tb.Pos, b.Radius()); ok {
			return apart
		}
	}
	var t touchTest
	return t.apart(a, ta, oa, b, tb, ob)
}

// discsApart reports whether discs of centres p, q and radii r, s are
// apart exactly (|p − q| ≥ r + s), and false where double-doubles cannot
// tell (a touch exact to 2⁻⁹⁰, left to touchTest): the differences of the
// centres are exact (twoSum), their squares and the radii's within a few
// ε² of them.
func discsApart(p shape.Vec2, r float64, q shape.Vec2, s float64) (apart, ok bool) {
	dxh, dxl := twoSum(q.X, -p.X)
	dyh, dyl := twoSum(q.Y, -p.Y)
	rh, rl := twoSum(r, s)
	dx, dy, rs := dd{dxh, dxl}, dd{dyh, dyl}, dd{rh, rl}
	d2, rr := ddAdd(ddMul(dx, dx), ddMul(dy, dy)), ddMul(rs, rs)
	if v, ok := clearSign(ddSub(d2, rr).hi, float64(touchDDErr*(math.Abs(d2.hi)+math.Abs(rr.hi)))); ok {
		return v >= 0, true
	}
	return false, false
}

// apart is touchApart on t, which it sets; t.undecided then tells whether
// a sign it needed was beyond the exact arithmetic's range.
func (t *touchTest) apart(a shape.Shape, ta, oa shape.Transform, b shape.Shape, tb, ob shape.Transform) bool {
	o := ta.Pos // the origin: A's coordinates then carry no position
	t.a.set(a, ta, oa, o)
	t.b.set(b, tb, ob, o)
	t.m = max(t.a.mag, t.b.mag) + t.a.r + t.b.r
	if t.a.r == 0 && t.b.r == 0 {
		return t.separates(&t.a, &t.b) || t.separates(&t.b, &t.a)
	}
	h, l := twoSum(t.a.r, t.b.r)
	t.r = h
	t.rrd = ddMul(dd{h, l}, dd{h, l})
	if t.coresMeet() {
		return false
	}
	// A point core's distance to the other core is its distance to the
	// other's edges: the other's vertices' distances to it add nothing.
	switch {
	case t.a.n == 1:
		return !t.within(&t.a, &t.b)
	case t.b.n == 1:
		return !t.within(&t.b, &t.a)
	}
	return !t.within(&t.a, &t.b) && !t.within(&t.b, &t.a)
}

// touchFilter bounds, relative to the pair's magnitude m, the error of
// touchTest's float values: each placed coordinate is off by at most a
// few ulps of the terms that place it (16ε·m, ε = 2⁻⁵³, covers the
// rotations, the offset and the position's difference from the origin),
// and a difference, product or distance of them adds a few more. The
// filter is 2⁻⁴⁴, some 30 times that: a sign or a comparison clear of it
// is taken from the floats.
const touchFilter = 0x1p-44

// touchDDErr bounds, relative to m and the terms' magnitudes, the error
// of touchTest's double-double values (ddCoord): a coordinate is within
// 2⁻⁹⁸ of m (a few dozen ε² of the terms that place it), a difference of
// two within 2⁻⁹⁷, and each product and sum adds a few ε² of its
// operands. The bound is 2⁻⁹², some 30 times that. A touch left by a
// cast or a push-out, a few ulps of the coordinates away, is far clear of
// it; only touches exact to 2⁻⁹⁰ of the shapes, as a rule exact ones, go
// on to the expansions.
const touchDDErr = 0x1p-92

// touchTest is touchApart's state: the two cores, their magnitude m
// (bounding the terms of every placed coordinate), with radii their sum r
// (rounded) and its square rrd, a double-double (its exact value is set
// into an expansion only where needed), and whether a sign could not be
// known.
type touchTest struct {
	a, b      xcore
	m, r      float64
	rrd       dd
	undecided bool
}

// sign2 returns the sign of (b − a)×(c − a), or with dot of (b − a)·(c − a),
// and whether it is known: from floats where it is clear of touchFilter,
// else from double-doubles where it is clear of touchDDErr, else exactly.
func (t *touchTest) sign2(a, b, c tpt, dot bool) (int, bool) {
	if a == b || (a == c && !dot) {
		return 0, true // an edge of zero length, or a point on its own edge
	}
	fa, fb, fc := a.f(), b.f(), c.f()
	dx1, dy1 := fb.X-fa.X, fb.Y-fa.Y
	dx2, dy2 := fc.X-fa.X, fc.Y-fa.Y
	l, r := float64(dx1*dy2), float64(dy1*dx2)
	if dot {
		l, r = float64(dx1*dx2), -float64(dy1*dy2)
	}
	sum := math.Abs(dx1) + math.Abs(dy1) + math.Abs(dx2) + math.Abs(dy2)
	bound := float64(touchFilter*(float64(t.m*sum)+math.Abs(l)+math.Abs(r))) + float64(0x1p-80*float64(t.m*t.m))
	if s, ok := clearSign(l-r, bound); ok {
		return s, true
	}
	// Double-doubles.
	x1, y1 := ddDiff(b, a)
	x2, y2 := ddDiff(c, a)
	var dl, dr dd
	if dot {
		dl, dr = ddMul(x1, x2), ddNeg(ddMul(y1, y2))
	} else {
		dl, dr = ddMul(x1, y2), ddMul(y1, x2)
	}
	v := ddSub(dl, dr)
	bound = float64(touchDDErr*(float64(t.m*sum)+math.Abs(dl.hi)+math.Abs(dr.hi))) + float64(0x1p-180*float64(t.m*t.m))
	if s, ok := clearSign(v.hi, bound); ok {
		return s, true
	}
	return t.sign2Exact(a, b, c, dot)
}

// sign2Exact is sign2 from the exact value.
func (t *touchTest) sign2Exact(a, b, c tpt, dot bool) (int, bool) {
	var ex1, ey1, ex2, ey2, z xnum
	diff(&ex1, b, a, false)
	diff(&ey1, b, a, true)
	diff(&ex2, c, a, false)
	diff(&ey2, c, a, true)
	if dot {
		z.addMul(&ex1, &ex2, 1)
		z.addMul(&ey1, &ey2, 1)
	} else {
		z.addMul(&ex1, &ey2, 1)
		z.addMul(&ey1, &ex2, -1)
	}
	t.undecided = t.undecided || z.bad
	return z.sign(), !z.bad
}

// clearSign returns the sign of v and true where |v| exceeds bound, a
// bound above the subnormals (where products may have rounded to
// nothing) and below infinity; else false.
func clearSign(v, bound float64) (int, bool) {
	switch {
	case !(bound >= 0x1p-900 && bound <= math.MaxFloat64):
	case v > bound:
		return 1, true
	case v < -bound:
		return -1, true
	}
	return 0, false
}

// edges returns how many edges core k has for the tests below, edge e
// running from point e to point e+1 (mod n): n for an outline, one for a
// segment, and for a point one of zero length.
func (k *xcore) edges() int {
	if k.n >= 3 {
		return k.n
	}
	return 1
}

// end returns the end point of edge e of k.
func (k *xcore) end(e int) tpt {
	return tpt{k, (e + 1) % k.n}
}

// separates reports whether an edge of p (either way along a segment) has
// no point of q strictly on its inner (left) side, every sign known.
func (t *touchTest) separates(p, q *xcore) bool {
	if p.n < 2 {
		return false
	}
	for e := range p.edges() {
		for _, flip := range [2]bool{false, true} {
			if flip && p.n != 2 {
				break
			}
			u, v := tpt{p, e}, p.end(e)
			if flip {
				u, v = v, u
			}
			inside := false
			for j := range q.n {
				if s, ok := t.sign2(u, v, tpt{q, j}, false); !ok || s > 0 {
					inside = true
					break
				}
			}
			if !inside {
				return true
			}
		}
	}
	return false
}

// coresMeet reports whether the cores of the pair meet (closed), or may:
// a point of one in the other's outline, or two edges that meet. A core
// of one point meets the other only by lying in its outline or on it, at
// distance 0, which within finds (the radii's sum is not 0 here); edges
// whose float boxes are apart by more than touchFilter's margin do not
// meet.
func (t *touchTest) coresMeet() bool {
	if t.coresApart() {
		return false
	}
	if t.holdsAny(&t.a, &t.b) || t.holdsAny(&t.b, &t.a) {
		return true
	}
	if t.a.n < 2 || t.b.n < 2 {
		return false
	}
	gap := float64(4 * touchFilter * t.m)
	for e := range t.a.edges() {
		a0, a1 := tpt{&t.a, e}, t.a.end(e)
		for f := range t.b.edges() {
			b0, b1 := tpt{&t.b, f}, t.b.end(f)
			if !boxesNear(a0.f(), a1.f(), b0.f(), b1.f(), gap) {
				continue
			}
			if t.edgesMeet(a0, a1, b0, b1) {
				return true
			}
		}
	}
	return false
}

// coresApart reports whether an edge normal of either core (a segment's,
// or for two points the line between them) separates the two cores, in
// floats, by more than touchFilter's margin (then they do not meet): the
// cores of rounded shapes that touch lie the sum of the radii apart, and
// this settles most pairs without the exact signs.
func (t *touchTest) coresApart() bool {
	gap := float64(8 * touchFilter * t.m)
	axis := func(u shape.Vec2) bool {
		if u == (shape.Vec2{}) {
			return false
		}
		loA, hiA := math.Inf(1), math.Inf(-1)
		for _, w := range t.a.w[:t.a.n] {
			d := u.Dot(w)
			loA, hiA = min(loA, d), max(hiA, d)
		}
		loB, hiB := math.Inf(1), math.Inf(-1)
		for _, w := range t.b.w[:t.b.n] {
			d := u.Dot(w)
			loB, hiB = min(loB, d), max(hiB, d)
		}
		l := u.Len()
		return loB-hiA > float64(gap*l) || loA-hiB > float64(gap*l)
	}
	if t.a.n == 1 && t.b.n == 1 {
		return axis(t.b.w[0].Sub(t.a.w[0]))
	}
	for _, k := range [2]*xcore{&t.a, &t.b} {
		if k.n < 2 {
			continue
		}
		for e := range k.edges() {
			if d := k.w[(e+1)%k.n].Sub(k.w[e]); axis(shape.Vec2{X: d.Y, Y: -d.X}) {
				return true
			}
		}
	}
	// A point core against a segment core: the line from the point to its
	// projection is not an edge normal.
	if t.a.n+t.b.n == 3 {
		p, s := &t.a, &t.b
		if p.n == 2 {
			p, s = s, p
		}
		e := s.w[1].Sub(s.w[0])
		if ee := e.LenSq(); ee > 0 {
			q := s.w[0].Add(e.Scale(min(1, max(0, p.w[0].Sub(s.w[0]).Dot(e)/ee))))
			return axis(p.w[0].Sub(q))
		}
	}
	return false
}

// boxesNear reports whether the boxes of segments a0–a1 and b0–b1 are
// within gap of each other.
func boxesNear(a0, a1, b0, b1 shape.Vec2, gap float64) bool {
	return min(a0.X, a1.X) <= max(b0.X, b1.X)+gap && min(b0.X, b1.X) <= max(a0.X, a1.X)+gap &&
		min(a0.Y, a1.Y) <= max(b0.Y, b1.Y)+gap && min(b0.Y, b1.Y) <= max(a0.Y, a1.Y)+gap
}

// holdsAny reports whether outline p (three points or more) holds a point
// of q, closed, or may.
func (t *touchTest) holdsAny(p, q *xcore) bool {
	if p.n < 3 {
		return false
	}
	for j := range q.n {
		in := true
		for e := range p.n {
			if s, ok := t.sign2(tpt{p, e}, p.end(e), tpt{q, j}, false); ok && s < 0 {
				in = false
				break
			}
		}
		if in {
			return true
		}
	}
	return false
}

// edgesMeet reports whether the closed segments a0–a1 and b0–b1 (either
// of zero length) meet, or may.
func (t *touchTest) edgesMeet(a0, a1, b0, b1 tpt) bool {
	s1, ok1 := t.sign2(a0, a1, b0, false)
	s2, ok2 := t.sign2(a0, a1, b1, false)
	s3, ok3 := t.sign2(b0, b1, a0, false)
	s4, ok4 := t.sign2(b0, b1, a1, false)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return true
	}
	if s1*s2 < 0 && s3*s4 < 0 {
		return true
	}
	// A point on the other's line meets it when it lies between its ends:
	// (a − p)·(b − p) ≤ 0.
	on := func(s int, p, a, b tpt) bool {
		if s != 0 {
			return false
		}
		d, ok := t.sign2(p, a, b, true)
		return !ok || d <= 0
	}
	return on(s1, b0, a0, a1) || on(s2, b1, a0, a1) || on(s3, a0, b0, b1) || on(s4, a1, b0, b1)
}

// within reports whether a point of p lies nearer than the radii's sum to
// an edge of q, or may.
func (t *touchTest) within(p, q *xcore) bool {
	for i := range p.n {
		for e := range q.edges() {
			if t.nearer(tpt{p, i}, tpt{q, e}, q.end(e)) {
				return true
			}
		}
	}
	return false
}

// nearer reports whether point p is nearer than t.r to the segment a–b
// (a point if a is b), or may: the floats' distance where it is clear of
// touchFilter, else by the region of the segment p is in (beside a,
// beside b, or beside the segment's span; sign2 tells) the comparison
// there, in double-doubles where it is clear of touchDDErr, else exactly.
func (t *touchTest) nearer(p, a, b tpt) bool {
	fp, fa, fb := p.f(), a.f(), b.f()
	e, w := fb.Sub(fa), fp.Sub(fa)
	u, ee := w.Dot(e), e.LenSq()
	q := fa
	if u > 0 && ee > 0 {
		q = fa.Add(e.Scale(min(1, u/ee)))
	}
	d := fp.Sub(q).Len()
	tol := float64(touchFilter * t.m)
	switch {
	case d > t.r+tol:
		return false
	case d < t.r-tol:
		return true
	}
	if s, ok := t.sign2(a, b, p, true); !ok {
		return true
	} else if s <= 0 {
		return t.closer(p, a)
	}
	if s, ok := t.sign2(b, a, p, true); !ok {
		return true
	} else if s <= 0 {
		return t.closer(p, b)
	}
	// Beside the span: (e × w)² < r²·|e|².
	ex, ey := ddDiff(b, a)
	wx, wy := ddDiff(p, a)
	cl, cr := ddMul(ex, wy), ddMul(ey, wx)
	c := ddSub(cl, cr)
	e2 := ddAdd(ddMul(ex, ex), ddMul(ey, ey))
	lhs, rhs := ddMul(c, c), ddMul(t.rrd, e2)
	g := ddSub(lhs, rhs)
	// c is within cErr of e × w; its square and r²·|e|² add their own.
	sum := math.Abs(ex.hi) + math.Abs(ey.hi) + math.Abs(wx.hi) + math.Abs(wy.hi)
	cErr := float64(touchDDErr * (float64(t.m*sum) + math.Abs(cl.hi) + math.Abs(cr.hi)))
	bound := float64(2*math.Abs(c.hi)*cErr) + float64(cErr*cErr) +
		float64(touchDDErr*(math.Abs(lhs.hi)+math.Abs(rhs.hi)+float64(t.rrd.hi*float64(t.m*sum))))
	if s, ok := clearSign(g.hi, bound); ok {
		return s < 0
	}
	var xex, xey, xwx, xwy, xc, xe2, rr, z xnum
	diff(&xex, b, a, false)
	diff(&xey, b, a, true)
	diff(&xwx, p, a, false)
	diff(&xwy, p, a, true)
	xc.addMul(&xex, &xwy, 1)
	xc.addMul(&xey, &xwx, -1)
	xe2.addMul(&xex, &xex, 1)
	xe2.addMul(&xey, &xey, 1)
	t.setRR(&rr)
	z.addMul(&xc, &xc, 1)
	z.addMul(&rr, &xe2, -1)
	t.undecided = t.undecided || z.bad
	return z.bad || z.sign() < 0
}

// closer reports whether points p and q are nearer than t.r, or may: in
// double-doubles where clear of touchDDErr, else exactly.
func (t *touchTest) closer(p, q tpt) bool {
	dx, dy := ddDiff(p, q)
	d2 := ddAdd(ddMul(dx, dx), ddMul(dy, dy))
	g := ddSub(d2, t.rrd)
	sum := math.Abs(dx.hi) + math.Abs(dy.hi)
	bound := float64(touchDDErr * (float64(t.m*sum) + math.Abs(d2.hi) + math.Abs(t.rrd.hi)))
	if s, ok := clearSign(g.hi, bound); ok {
		return s < 0
	}
	var xdx, xdy, rr, z xnum
	diff(&xdx, p, q, false)
	diff(&xdy, p, q, true)
	t.setRR(&rr)
	z.addMul(&xdx, &xdx, 1)
	z.addMul(&xdy, &xdy, 1)
	z.addNum(&rr, -1)
	t.undecided = t.undecided || z.bad
	return z.bad || z.sign() < 0
}

// setRR sets z to the square of the radii's sum, exactly.
func (t *touchTest) setRR(z *xnum) {
	var r xnum
	h, l := twoSum(t.a.r, t.b.r)
	r.add(l)
	r.add(h)
	z.addMul(&r, &r, 1)
}
