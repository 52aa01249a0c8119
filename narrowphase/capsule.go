package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// distSqCapsule returns the squared distance from the local point q to the
// capsule (or, with r = 0, the segment) p0–p1 grown by r: the least of
// the distances to its end discs (distSqCircle, exact in sign) and, for a
// q exactly within the core's span (alongCore), to its side: 0 when
// sideHolds, else measured like a circle's around the nearest core point
// and never below the smallest positive float. It is 0 exactly when
// containsCapsule holds.
func distSqCapsule(p0, p1 shape.Vec2, r float64, q shape.Vec2) float64 {
	if r == 0 {
		return distSqSegment(p0, p1, q)
	}
	best := min(distSqCircle(p0, r, q), distSqCircle(p1, r, q))
	if best == 0 || !alongCore(p0, p1, q) {
		return best
	}
	if sideHolds(p0, p1, r, q) {
		return 0
	}
	l2, rr := q.Sub(nearestOnSegment(q, p0, p1)).LenSq(), float64(r*r)
	if math.IsInf(l2, 1) {
		return best
	}
	// A q a rounding outside can round to l2 <= rr: it is outside all the
	// same, by less than the float distance can say.
	d := (l2 - rr) / (math.Sqrt(l2) + r)
	return min(best, outsideSq(d*d))
}

// nearestOnSegment returns the point of the segment a–b nearest p.
func nearestOnSegment(p, a, b shape.Vec2) shape.Vec2 {
	e, w := b.Sub(a), p.Sub(a)
	u := w.Dot(e)
	if u <= 0 {
		return a
	}
	ee := e.LenSq()
	if u >= ee {
		return b
	}
	return a.Add(e.Scale(u / ee))
}

// alongCore reports whether the local point q projects strictly between
// p0 and p1 on their line, exactly (alongTop): the projection u = (q −
// p0)·e, rounded, can reach |e|² for a q just short of p1.
func alongCore(p0, p1, q shape.Vec2) bool {
	return alongTop(p0, p1, q) > 0 && alongTop(p1, p0, q) > 0
}

// containsCapsule reports whether the local point q lies in the capsule
// p0–p1 grown by r (a segment when r = 0, segmentHolds): in one of its
// end discs (circleHolds, exact), or within the core's span (alongCore,
// exact) and within r of the core's line (sideHolds, exact).
func containsCapsule(p0, p1 shape.Vec2, r float64, q shape.Vec2) bool {
	if r == 0 {
		return segmentHolds(p0, p1, q)
	}
	if circleHolds(p0, r, q) || circleHolds(p1, r, q) {
		return true
	}
	return alongCore(p0, p1, q) && sideHolds(p0, p1, r, q)
}

// sideErr bounds the float error of sideHolds' C² − r²|e|², in units of ε =
// 2⁻⁵³ (see sideHolds), with room.
const sideErr = 16 * 0x1p-53

// sideHolds reports whether the local point q is within r of the line of
// the core p0–p1 (p0 ≠ p1): whether C² <= r²|e|² for e = p1 − p0, w = q − p0
// and C = e × w, the distance being |C|/|e|, with the exact answer. Testing
// q against the rounded nearest core point instead errs either way for a
// point an ulp off the side. In floats, each of e and w rounds by ε, so C
// is off by at most about 4ε·S (S = |eₓw_y| + |e_yw_x|), C² by that times
// 2|C| + 4ε·S plus ε·C², and r²|e|² by 6ε of itself: beyond sideErr of
// those the float sign is the exact one. Otherwise sideExact decides.
// Squares too large for floats (coordinates near 1e150) keep the float
// test.
func sideHolds(p0, p1 shape.Vec2, r float64, q shape.Vec2) bool {
	e, w := p1.Sub(p0), q.Sub(p0)
	l, rt := float64(e.X*w.Y), float64(e.Y*w.X)
	c, sum := l-rt, math.Abs(l)+math.Abs(rt)
	cc, rhs := float64(c*c), float64(float64(r*r)*e.LenSq())
	diff := cc - rhs
	bound := float64(sideErr * (float64(sum*(2*math.Abs(c)+float64(4*0x1p-53*sum))) + cc + rhs))
	if math.IsInf(cc, 0) || math.IsInf(rhs, 0) || math.IsInf(bound, 0) {
		return diff <= 0
	}
	if math.Abs(diff) > bound && min(cc, rhs) > 1e-290 {
		return diff <= 0
	}
	return sideExact(p0, p1, r, q) <= 0
}

// sideExact returns C² − r²|e|² of sideHolds to within an ulp, with its
// exact sign: e and w split by twoSum, C summed from their twoProd
// products into a nonoverlapping expansion (growExpansion), its square and
// r²|e|² expanded the same way and summed by sumTop. Exact while no
// product overflows or underflows (twoProd).
//
//go:noinline
func sideExact(p0, p1 shape.Vec2, r float64, q shape.Vec2) float64 {
	var ex, ey, wx, wy [2]float64
	ex[0], ex[1] = twoSum(p1.X, -p0.X)
	ey[0], ey[1] = twoSum(p1.Y, -p0.Y)
	wx[0], wx[1] = twoSum(q.X, -p0.X)
	wy[0], wy[1] = twoSum(q.Y, -p0.Y)
	var ct [16]float64
	n := 0
	for i := range 2 {
		for j := range 2 {
			p, err := twoProd(ex[i], wy[j])
			ct[n], ct[n+1] = p, err
			p, err = twoProd(ey[i], wx[j])
			ct[n+2], ct[n+3] = -p, -err
			n += 4
		}
	}
	var cx [64]float64
	m := growExpansion(cx[:], ct[:n])
	if len(m) > 16 {
		// Beyond any local coordinates a shape can have: the float test.
		c := float64(ex[0]*wy[0]) - float64(ey[0]*wx[0])
		return float64(c*c) - float64(float64(r*r)*float64(float64(ex[0]*ex[0])+float64(ey[0]*ey[0])))
	}
	var terms [2*16*16 + 48]float64
	n = 0
	for i := range m {
		for j := range m {
			p, err := twoProd(m[i], m[j])
			terms[n], terms[n+1] = p, err
			n += 2
		}
	}
	rh, rl := twoProd(r, r)
	for _, a := range [2][2]float64{ex, ey} {
		var sq [6]float64
		sq[0], sq[1] = twoProd(a[0], a[0])
		sq[2], sq[3] = twoProd(a[0], a[1])
		sq[2], sq[3] = 2*sq[2], 2*sq[3]
		sq[4], sq[5] = twoProd(a[1], a[1])
		for _, x := range sq {
			for _, y := range [2]float64{rh, rl} {
				p, err := twoProd(x, y)
				terms[n], terms[n+1] = -p, -err
				n += 2
			}
		}
	}
	return sumTop(terms[:n])
}

// segmentHolds reports whether the local point q lies on the segment
// p0–p1, exactly: on its line by the exact sign of orient, and then within
// its bounding box. The nearest point of the segment, rounded, can land on
// a q a rounding off the segment.
func segmentHolds(p0, p1, q shape.Vec2) bool {
	return q.IsFinite() && orient(p0, p1, q) == 0 &&
		min(p0.X, p1.X) <= q.X && q.X <= max(p0.X, p1.X) &&
		min(p0.Y, p1.Y) <= q.Y && q.Y <= max(p0.Y, p1.Y)
}

// distSqSegment returns the squared distance from the local point q to the
// segment p0–p1: 0 exactly when segmentHolds. Past an end it is the
// distance to that end, not 0 since q is not the end; between them the
// perpendicular separation (e × w)²/|e|², not 0 off the line (orient's
// exact sign). A q on the line but off the segment whose rounded
// projection fell between the ends takes the nearer end. A square that
// underflows is held at the smallest positive float (outsideSq).
func distSqSegment(p0, p1, q shape.Vec2) float64 {
	if segmentHolds(p0, p1, q) {
		return 0
	}
	e, w := p1.Sub(p0), q.Sub(p0)
	u, ee := w.Dot(e), e.LenSq()
	switch cr := orient(p0, p1, q); {
	case u <= 0:
		return outsideSq(w.LenSq())
	case u >= ee:
		return outsideSq(q.Sub(p1).LenSq())
	case cr != 0:
		return outsideSq(float64(cr*cr) / ee)
	}
	return outsideSq(min(w.LenSq(), q.Sub(p1).LenSq()))
}

// rayCapsule intersects the ray with a capsule (r > 0) or segment (r = 0)
// placed by t, in its local frame: the nearest entry of the two side faces
// (the core offset by ±r, within its span) and the two end discs. A segment
// is entered from whichever side the ray comes; a ray along a segment's
// line enters it at its nearer end (at once from between its ends), with
// the normal −dir.
func rayCapsule(s shape.Shape, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	p0, p1 := s.Segment()
	r := s.Radius()
	o := t.ApplyInv(origin)
	d := t.Rot.ApplyInv(dir)
	if containsCapsule(p0, p1, r, o) {
		return insideHit(origin, dir)
	}
	e := p1.Sub(p0)
	ee := e.LenSq()
	nrm := s.Normals()[0] // right of p0→p1
	best, bn := math.Inf(1), shape.Vec2{}
	along := false // entered along the segment's own line: the normal is -dir
	// The side facing the ray: o lies on its outer side.
	side := nrm
	if nrm.Dot(o.Sub(p0)) < 0 {
		side = nrm.Neg()
	}
	den := side.Dot(d)
	if den < 0 {
		// Distance of o above the face line, over the approach speed.
		h := side.Dot(o.Sub(p0)) - r
		x := max(h/(-den), 0)
		if u := o.Add(d.Scale(x)).Sub(p0).Dot(e); u >= 0 && u <= ee {
			best, bn = x, side
			if r == 0 && x > maxDist {
				// The crossing, rounded, can fall a step past a
				// maxDist that ends on the segment: the end point's
				// side of the line, from the segment's own ends,
				// decides.
				// The end must lie within the segment too: a ray along
				// the line to rounding crosses it anywhere.
				end := o.Add(d.Scale(maxDist)).Sub(p0)
				co, ce := e.Cross(o.Sub(p0)), e.Cross(end)
				if ue := end.Dot(e); ((co > 0 && ce <= 0) || (co < 0 && ce >= 0)) && ue >= 0 && ue <= ee {
					best = maxDist
				}
			}
		} else if r == 0 {
			// The crossing, rounded, can land a step past an end that
			// lies on the ray's line exactly (at a chain's peak, past
			// both segments' ends): such an end is met.
			for _, p := range [2]shape.Vec2{p0, p1} {
				if q := p.Sub(o); d.Cross(q) == 0 && q.Dot(d) >= 0 && q.Dot(d) < best {
					best, bn = q.Dot(d), side
				}
			}
		}
	} else if den == 0 && r == 0 && side.Dot(o.Sub(p0)) == 0 {
		// Along the segment's own line: it is entered at the nearer end,
		// or at once from between the ends (where o lies on the line to
		// the last bit in this frame, though containsCapsule, which
		// measures the distance, can put it a rounding hair off).
		if u := o.Sub(p0).Dot(e); u >= 0 && u <= ee {
			best, along = 0, true
		}
		for _, p := range [2]shape.Vec2{p0, p1} {
			if x := p.Sub(o).Dot(d); x >= 0 && x < best {
				best, along = x, true
			}
		}
	}
	if r > 0 {
		for _, c := range [2]shape.Vec2{p0, p1} {
			if h, ok := rayCircle(c, r, o, d, min(best, maxDist)); ok && h.Distance < best {
				best, bn = h.Distance, h.Normal
			}
		}
	}
	if math.IsInf(best, 1) || !(best <= maxDist) {
		return RayHit{}, false // nothing entered (maxDist may be +Inf)
	}
	if along {
		// -dir itself: turned into the frame and back it is an ulp off.
		return RayHit{Point: origin.Add(dir.Scale(best)), Normal: dir.Neg(), Distance: best}, true
	}
	return RayHit{Point: origin.Add(dir.Scale(best)), Normal: t.Rot.Apply(bn), Distance: best}, true
}
