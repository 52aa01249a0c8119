package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// circleCapsule collides a circle with a capsule or segment in closed form,
// in the capsule's frame: the circle's centre against the capsule's core
// segment, at distance d from its nearest point. They overlap when d is
// below the sum of the radii; the normal is the core's side normal when the
// centre projects inside the core (exact, whatever the rounding of the
// projection), else the direction from the nearer end.
func circleCapsule(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	la := a.Center()
	c := tb.MulInv(ta).Apply(la) // the circle's centre in b's frame
	ra, rb := a.Radius(), b.Radius()
	r := ra + rb
	p0, p1, nr := b.SegmentFrame()
	e, w := p1.Sub(p0), c.Sub(p0)
	u := w.Dot(e)
	var n shape.Vec2 // from the core toward the centre
	var d float64
	side := false // the centre projects inside the core
	switch {
	case u > 0 && u < e.LenSq():
		side = true
		s := nr.Dot(w)
		n, d = nr, s
		if s < 0 {
			n, d = nr.Neg(), -s
		}
	default:
		q := p0 // the core's end nearest the centre
		if u > 0 {
			q = p1
		}
		v := c.Sub(q)
		d = v.Len()
		if d > 0 {
			n = v.Scale(1 / d)
			// Keep it in the end's half plane, where rounding of a tiny d
			// could otherwise point it back along the core.
			if dir := n.Dot(e); (q == p0 && dir > 0) || (q == p1 && dir < 0) {
				n = nr
				if nr.Dot(v) < 0 {
					n = nr.Neg()
				}
			}
		} else {
			n = nr
		}
	}
	depth := r - d
	if !(depth > 0) {
		return false, 0
	}
	if side && depth <= float64(touchTol*(r+math.Abs(w.X)+math.Abs(w.Y))) {
		// Within rounding of touching: the unit normal nr rounds, so its
		// dot product with w may fall an ulp short of a distance that is
		// exactly r (a tangent circle). The cross product over the core's
		// length is exact whenever the inputs make the distance exact
		// (dyadic coordinates, a length that is a square root of one):
		// touching is no contact.
		if !(math.Abs(e.Cross(w))/math.Sqrt(e.LenSq()) < r) {
			return false, 0
		}
	}
	// Midway between the circle's surface (c − n·ra) and the capsule's
	// (q + n·rb), along n.
	p := c.Sub(n.Scale(ra)).Add(n.Scale(0.5 * depth))
	m.single(n.Neg(), p, depth)
	m.toWorld(tb)
	// pairScale: the positions' magnitudes plus each shape's reach (a
	// capsule's is its farther end's plus its radius).
	return true, abs1(ta.Pos) + abs1(tb.Pos) + (abs1(la) + ra) + (max(abs1(p0), abs1(p1)) + rb)
}

func circleCapsuleOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	var m Manifold
	ok, _ := circleCapsule(&a, ta, &b, tb, &m)
	return m.Depth, ok
}

// touchTol is the gap between two cores, relative to their coordinates,
// below which they count as touching: the direction between their nearest
// points is then rounding, and the side normals decide.
const touchTol = 1e-12

// coreTouchTol is the gap between two cores, relative to their
// coordinates, below which the direction between their nearest points is
// rounding (its error is about ε times the coordinates over the gap) and
// the side or face normals decide.
const coreTouchTol = 0x1p-46

// capsuleCapsule collides two capsules, or a capsule and a segment, in
// closed form, in a's frame. Cores that cross or touch: the depth is the
// radii plus the cores' overlap along the best of the four side normals
// (the faces of their Minkowski difference). Cores apart: the radii minus
// their distance, the least of the four end-to-core distances, along the
// side normal when an end is nearest to the other core's inside, else
// between the ends. Contact points clip the incident core to the
// reference core's span, as for polygons.
func capsuleCapsule(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, out *Manifold) (bool, float64) {
	rel := ta.MulInv(tb)
	a0, a1, nA := a.SegmentFrame()
	vb0, vb1, nbl := b.SegmentFrame()
	b0, b1 := rel.Apply(vb0), rel.Apply(vb1)
	nB := rel.Rot.Apply(nbl)
	ra, rb := a.Radius(), b.Radius()
	r := ra + rb

	// Sides of each core's ends relative to the other's line.
	sb0, sb1 := nA.Dot(b0.Sub(a0)), nA.Dot(b1.Sub(a0))
	sa0, sa1 := nB.Dot(a0.Sub(b0)), nB.Dot(a1.Sub(b0))
	ea := a1.Sub(a0)
	crossing := sb0*sb1 <= 0 && sa0*sa1 <= 0 && !(sb0 == 0 && sb1 == 0)
	if sb0 == 0 && sb1 == 0 {
		// Collinear cores: they share points when their spans meet.
		lo, hi := ea.Dot(b0.Sub(a0)), ea.Dot(b1.Sub(a0))
		crossing = max(lo, hi) >= 0 && min(lo, hi) <= ea.LenSq()
	} else if crossing {
		// The rounded sides of cores on one line, or nearly, are
		// rounding of either sign, which would make cores far apart
		// along their line cross: where an end of each lies within
		// rounding of the other's line, the exact orientations decide.
		crossing = coresCross(a0, a1, b0, b1, min(math.Abs(sb0), math.Abs(sb1)), min(math.Abs(sa0), math.Abs(sa1)))
	}

	var n shape.Vec2 // from a to b
	var depth float64
	refIsA := true
	if !crossing {
		// The nearest end-to-core feature.
		type cand struct {
			d2     float64
			p, q   shape.Vec2 // the end and its nearest point on the other core
			inside bool       // q inside the other core (a face, not an end)
			endOfA bool
		}
		best := cand{d2: math.Inf(1)}
		try := func(p, s0, s1 shape.Vec2, endOfA bool) {
			e, w := s1.Sub(s0), p.Sub(s0)
			u, ee := w.Dot(e), e.LenSq()
			// The span is closed and, on a tie, the other core's side
			// wins over an end: an end exactly beside the other's end is
			// on its side, so that parallel cores get two points.
			q, inside := s0, false
			switch {
			case u > ee || ee == 0: // beyond, or a core whose square underflows
				q = s1
			case u == ee:
				q, inside = s1, true
			case u >= 0:
				q, inside = s0.Add(e.Scale(u/ee)), true
			}
			if d2 := p.Sub(q).LenSq(); d2 < best.d2 || (d2 == best.d2 && inside && !best.inside) {
				best = cand{d2, p, q, inside, endOfA}
			}
		}
		try(a0, b0, b1, true)
		try(a1, b0, b1, true)
		try(b0, a0, a1, false)
		try(b1, a0, a1, false)
		d := math.Sqrt(best.d2)
		depth = r - d
		if !(depth > 0) {
			return false, 0
		}
		// Cores apart by a rounding-size gap touch: no direction between
		// two nearly equal points can be trusted, the side normals can.
		scale := math.Abs(a0.X) + math.Abs(a0.Y) + math.Abs(a1.X) + math.Abs(a1.Y) + math.Abs(b0.X) + math.Abs(b0.Y) + math.Abs(b1.X) + math.Abs(b1.Y)
		touch := d <= coreTouchTol*scale
		switch {
		case touch:
			crossing = true
		case best.inside && best.endOfA:
			// An end of a against b's side: b's face is the reference.
			n = nB
			if nB.Dot(best.p.Sub(b0)) > 0 {
				n = nB.Neg()
			}
			refIsA = false
			d = math.Abs(nB.Dot(best.p.Sub(b0)))
			depth = r - d
		case best.inside:
			n = nA
			if nA.Dot(best.p.Sub(a0)) < 0 {
				n = nA.Neg()
			}
			d = math.Abs(nA.Dot(best.p.Sub(a0)))
			depth = r - d
		default:
			// End to end.
			pa, pb := best.p, best.q
			if !best.endOfA {
				pa, pb = best.q, best.p
			}
			n = pb.Sub(pa).Normalize()
			if !(depth > 0) {
				return false, 0
			}
			p := pa.Add(n.Scale(ra)).Add(pb.Sub(n.Scale(rb))).Scale(0.5)
			out.single(n, p, depth)
			out.toWorld(ta)
			return true, capsulesScale(ta, tb, a0, a1, vb0, vb1, r)
		}
		if !(depth > 0) {
			return false, 0
		}
	}
	if crossing {
		// Overlap of the cores along each side normal: B must move by
		// max(A) − min(B) along the axis to clear it.
		// The four axes in turn (written out: a loop over an array of
		// them cost half as much again as the whole test).
		best := math.Inf(1)
		consider := func(axis shape.Vec2, pen float64, fromA bool) {
			if pen < best*(1-refFaceTol) || (fromA && pen < best) {
				best, n, refIsA = pen, axis, fromA
			}
		}
		consider(nA, -min(sb0, sb1), true)
		consider(nA.Neg(), max(sb0, sb1), true)
		consider(nB, max(sa0, sa1), false)
		consider(nB.Neg(), -min(sa0, sa1), false)
		depth = best + r
	}
	n = shape.Vec2{X: n.X + 0, Y: n.Y + 0}
	m := out
	*m = Manifold{Normal: n, Depth: depth}
	if refIsA {
		clipSegments(m, a0, a1, n, b0, b1, n.Neg(), r, rb)
	} else {
		clipSegments(m, b0, b1, n.Neg(), a0, a1, n, r, ra)
	}
	m.toWorld(ta)
	return true, capsulesScale(ta, tb, a0, a1, vb0, vb1, r)
}

// capsulesScale is pairScale for two capsules or segments placed by ta and
// tb, with local ends a0, a1 and b0, b1 and radii summing to r: the
// positions' magnitudes plus each shape's reach (its farther end's plus
// its radius), from the numbers capsuleCapsule holds.
func capsulesScale(ta, tb shape.Transform, a0, a1, b0, b1 shape.Vec2, r float64) float64 {
	return abs1(ta.Pos) + abs1(tb.Pos) + max(abs1(a0), abs1(a1)) + max(abs1(b0), abs1(b1)) + r
}

func capsuleCapsuleOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	var m Manifold
	ok, _ := capsuleCapsule(&a, ta, &b, tb, &m)
	return m.Depth, ok
}

// clipSegments adds the contact points of two rounded segments to m: the
// incident core w1–w2 clipped to the span of the reference core v1–v2,
// whose outward normal toward the incident one is nr (ni = −nr); each
// clipped point whose surfaces overlap (r is the sum of the radii, ri the
// incident radius) is kept midway between the surfaces. The incident
// surface along ni from a clipped core point is found by roundedExit: it
// is ri away only where the core is parallel to the reference or at a
// cap, and up to ri/cos θ where the core is tilted by θ. If none is left
// (rounding at a graze, or the incident core beside the reference span),
// its deeper end stands in with the manifold depth.
func clipSegments(m *Manifold, v1, v2, nr, w1, w2, ni shape.Vec2, r, ri float64) {
	t := v2.Sub(v1)
	lo, hi := 0.0, t.LenSq()
	s1, s2 := t.Dot(w1.Sub(v1)), t.Dot(w2.Sub(v1))
	if s1 > s2 {
		w1, w2, s1, s2 = w2, w1, s2, s1
	}
	// An incident core across the reference face within rounding (its
	// ends' places along the face differ by no more than the rounding of
	// their coordinates, which far from the origin may even slant it the
	// other way) lies at one place along the face: it has one contact
	// point, its deeper end, below, as when the places tie exactly.
	// In squares, without a root: s2 − s1 within 4·coreTouchTol·|t| times
	// the root of the ends' squared lengths summed.
	if ds := s2 - s1; float64(ds*ds) <= float64(float64(16*coreTouchTol*coreTouchTol)*hi)*(v1.LenSq()+v2.LenSq()+w1.LenSq()+w2.LenSq()) {
		s2 = s1
	}
	// pen is the overlap of the surfaces along nr at the incident core
	// point w, with x how much further than ri the incident surface lies
	// from w along ni (0 for a segment).
	pen := func(w shape.Vec2) (pn, x float64) {
		pn = nr.Dot(v1.Sub(w)) + r
		if ri > 0 {
			x = roundedExit(w, w1, w2, ni, ri) - ri
		}
		return pn + x, x
	}
	add := func(p shape.Vec2, pn, x float64) {
		d := min(pn, m.Depth)
		q := p.Add(ni.Scale(ri))
		if x > 0 {
			q = q.Add(ni.Scale(x))
		}
		m.Points[m.Count] = ContactPoint{Point: q.Add(nr.Scale(0.5 * d)), Depth: d}
		m.Count++
	}
	p1, p2 := w1, w2 // the incident segment, clipped to the reference's extent where they share one
	if s2 >= lo && s1 <= hi && s1 < s2 {
		e := w2.Sub(w1)
		if s1 < lo {
			p1 = w1.Add(e.Scale((lo - s1) / (s2 - s1)))
		}
		if s2 > hi {
			p2 = w1.Add(e.Scale((hi - s1) / (s2 - s1)))
		}
		if pn, x := pen(p1); pn > 0 {
			add(p1, pn, x)
		}
		if pn, x := pen(p2); pn > 0 {
			add(p2, pn, x)
		}
		if m.Count > 0 {
			return
		}
	} else if s1 < s2 {
		// Wholly beyond one end of the reference's span (cores touching
		// end to end, on one line or nearly, where the largest
		// separation's axis was a side): the end nearest the span stands
		// in for both, since their depths along nr tie up to rounding and
		// the other may lie the incident core's length away.
		if s2 < lo {
			p1 = w2
		} else {
			p2 = w1
		}
	}
	// Touching within rounding (no clipped point deeper than 0): the
	// deeper of the clipped ends, which lie beside the reference, not an
	// unclipped end that may be far along it.
	w := p1
	if nr.Dot(v1.Sub(p2))+r > nr.Dot(v1.Sub(p1))+r {
		w = p2
	}
	m.Points[0] = ContactPoint{Point: w.Add(ni.Scale(ri)).Add(nr.Scale(0.5 * m.Depth)), Depth: m.Depth}
	m.Count = 1
}

// roundedExit returns how far from its core point p, along the unit u, the
// surface of the rounded segment w1–w2 (radius ri > 0) lies: the ray from
// p leaves the capsule through one of its pieces, the two end discs and the
// strip beside the core, and since the capsule is convex and p inside it,
// the farthest exit of the three is the surface. It is ri where u leaves
// through the disc around p (p an end), ri/|sin φ| through the strip (φ
// between u and the core).
func roundedExit(p, w1, w2, u shape.Vec2, ri float64) float64 {
	// The strip first: where the exit point's foot lies on the core, the
	// ray leaves through the strip, and each disc's exit, a point of the
	// capsule on the ray, lies no further: the discs need no look.
	e := w2.Sub(w1)
	if cr := math.Abs(u.Cross(e)); cr > 0 {
		ee := e.LenSq()
		s := float64(ri*math.Sqrt(ee)) / cr
		if f := p.Sub(w1).Dot(e) + float64(s*u.Dot(e)); f >= 0 && f <= ee {
			return max(s, ri)
		}
	}
	best := ri
	for _, c := range [2]shape.Vec2{w1, w2} {
		q := p.Sub(c)
		h := math.Abs(q.Cross(u)) // distance from c to the ray's line
		if h < ri {
			if s := math.Sqrt(float64((ri-h)*(ri+h))) - q.Dot(u); s > best {
				best = s
			}
		}
	}
	return best
}

// coresCross reports whether the segments a0–a1 and b0–b1, whose rounded
// sides say they cross, share a point: b's end nearest a's line is sb
// from it, by the rounded side, and a's nearest b's line sa. Unless both
// are within rounding of 0 (coreTouchTol of the coordinates), the signs
// were sure; else the exact signs of the orientations of each one's ends
// against the other (orient) decide, and for collinear segments their
// spans.
func coresCross(a0, a1, b0, b1 shape.Vec2, sb, sa float64) bool {
	band := coreTouchTol * (math.Abs(a0.X) + math.Abs(a0.Y) + math.Abs(a1.X) + math.Abs(a1.Y) + math.Abs(b0.X) + math.Abs(b0.Y) + math.Abs(b1.X) + math.Abs(b1.Y))
	if sb > band || sa > band {
		return true
	}
	s0, s1 := orient(a0, a1, b0), orient(a0, a1, b1)
	if s0 == 0 && s1 == 0 {
		ea := a1.Sub(a0)
		lo, hi := alongTop(a0, a1, b0), alongTop(a0, a1, b1)
		return max(lo, hi) >= 0 && min(lo, hi) <= ea.LenSq()
	}
	if (s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0) {
		return false
	}
	t0, t1 := orient(b0, b1, a0), orient(b0, b1, a1)
	return !((t0 > 0 && t1 > 0) || (t0 < 0 && t1 < 0))
}
