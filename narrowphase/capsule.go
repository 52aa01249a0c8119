package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// distSqCapsule returns the squared distance from the local point q to the
// capsule (or, with r = 0, the segment) p0–p1 grown by r: the least of
// the distances to its end discs (distSqCircle, exact in sign) and, for a
// q exactly within the core's span (alongCore), to its side, measured
// like a circle's around the nearest core point with the float test
// containsCapsule makes there. It is 0 exactly when containsCapsule holds.
func distSqCapsule(p0, p1 shape.Vec2, r float64, q shape.Vec2) float64 {
	if r == 0 {
		return distSqSegment(p0, p1, q)
	}
	best := min(distSqCircle(p0, r, q), distSqCircle(p1, r, q))
	if best == 0 || !alongCore(p0, p1, q) {
		return best
	}
	l2, rr := q.Sub(nearestOnSegment(q, p0, p1)).LenSq(), float64(r*r)
	switch {
	case l2 <= rr:
		return 0
	case math.IsInf(l2, 1):
		return best
	}
	d := (l2 - rr) / (math.Sqrt(l2) + r)
	return min(best, d*d)
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
// exact) and within r of the core's nearest point. That point rounds, and
// the exact test against it would put a point on the side an ulp along
// the core outside: there the test stays the float one, |q−c|² <= r²,
// whose roundings err either way.
func containsCapsule(p0, p1 shape.Vec2, r float64, q shape.Vec2) bool {
	if r == 0 {
		return segmentHolds(p0, p1, q)
	}
	if circleHolds(p0, r, q) || circleHolds(p1, r, q) {
		return true
	}
	return alongCore(p0, p1, q) && q.Sub(nearestOnSegment(q, p0, p1)).LenSq() <= float64(r*r)
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
// projection fell between the ends takes the nearer end.
func distSqSegment(p0, p1, q shape.Vec2) float64 {
	if segmentHolds(p0, p1, q) {
		return 0
	}
	e, w := p1.Sub(p0), q.Sub(p0)
	u, ee := w.Dot(e), e.LenSq()
	switch cr := orient(p0, p1, q); {
	case u <= 0:
		return w.LenSq()
	case u >= ee:
		return q.Sub(p1).LenSq()
	case cr != 0:
		return float64(cr*cr) / ee
	}
	return min(w.LenSq(), q.Sub(p1).LenSq())
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
				co, ce := e.Cross(o.Sub(p0)), e.Cross(o.Add(d.Scale(maxDist)).Sub(p0))
				if (co > 0 && ce <= 0) || (co < 0 && ce >= 0) {
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
