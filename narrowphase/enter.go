package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// CastEnter reports when shape a, placed by ta and moved by delta
// (translation only), first overlaps shape b, placed by tb, which stays:
// Cast, except that a part pair that only touches on the way (a graze
// along a face, a touch at the start followed by a move away, a touch at
// the end) does not count, since touching is not a contact. Fraction is
// where the overlapping part pair first touches; Part is b's part and
// partA a's (indexes as in Shape.Part, 0 for a simple shape), the lower
// pair on equal fractions.
//
// Algorithm: for each part pair Cast gives the entry time t0 into the
// pair's Minkowski difference M and a cast back from the end the exit time
// t1; M is convex, so the motion passes through its interior exactly when
// t0 < t1 and the pose half-way between them overlaps (a motion along a
// face of M touches it on a whole interval without overlapping).
func CastEnter(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (hit CastHit, partA int, ok bool) {
	if isTiny(delta) {
		d, e := scaleTiny(delta)
		hit, partA, ok = castEntering(a, ta, d, b, tb)
		if hit, ok = unscaleTiny(hit, ok, e); !ok {
			partA = 0
		}
		return hit, partA, ok
	}
	hit, partA, ok = castEntering(a, ta, delta, b, tb)
	hit.Fraction = plusZero(hit.Fraction)
	return hit, partA, ok
}

// castEntering is CastEnter before its fraction is made +0 where it is zero.
func castEntering(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (hit CastHit, partA int, ok bool) {
	if !a.Valid() || !b.Valid() || !(math.Abs(delta.X) <= shape.MaxMagnitude && math.Abs(delta.Y) <= shape.MaxMagnitude) {
		return CastHit{}, 0, false
	}
	if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
		return CastHit{}, 0, false // segments never overlap segments
	}
	if a.Kind().Convex() && b.Kind().Convex() {
		// One part each: the cast, and whether the motion goes on into
		// the interior.
		h, hok := Cast(a, ta, delta, b, tb)
		if !hok || !passesThrough(a, ta, delta, b, tb, h.Fraction) {
			return CastHit{}, 0, false
		}
		return h, 0, true
	}
	return castComposite(a, ta, delta, b, tb, castEnter, 0)
}

// passesThrough reports whether convex a, placed by ta and moved by delta,
// overlaps convex b at some time after t0, its first touch: the exit time
// comes from a cast back from the end, and the pose half-way between entry
// and exit must overlap.
func passesThrough(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, t0 float64) bool {
	end := shape.Transform{Pos: ta.Pos.Add(delta), Rot: ta.Rot}
	back, ok := Cast(a, end, delta.Neg(), b, tb)
	if !ok {
		return false
	}
	t1 := 1 - back.Fraction
	if !(t1 > t0) {
		return Overlap(a, shape.Transform{Pos: ta.Pos.Add(delta.Scale(t0)), Rot: ta.Rot}, b, tb)
	}
	// The halving stays a division: t0 + (t1−t0)·0.5 could be fused.
	mid := shape.Transform{Pos: ta.Pos.Add(delta.Scale(t0 + float64((t1-t0)/2))), Rot: ta.Rot}
	return Overlap(a, mid, b, tb)
}

// TimeOfImpactEnter is TimeOfImpact for a contact: the first time at
// which a part pair of a and b touches on its way to overlapping, and the
// parts (pa of a and pb of b, indexes as in Shape.Part, 0 for a simple
// shape; the lower pair on equal times). Two segments (which never
// overlap) do not count, nor does a pair that touches at the start and
// moves apart, or grazes and parts on the way: its next touch, if any,
// counts. Nor does a pair that only comes within TimeOfImpact's tolerance
// of touching (a near miss, or a motion ending a hair short of the other
// shape or touching it): it never overlaps.
//
// Algorithm: TimeOfImpact gives a pair's first touch. A pair that does not
// overlap there is followed at 1e-9, 1e-8, … of the motion after the
// touch, up to its end: an overlap there starts the contact at the touch;
// a gap grown beyond TimeOfImpact's target means they parted (a touch at
// the start they move away from, or a turning graze), and TimeOfImpact
// from that time finds the next touch, followed the same way; the end of
// the sweep reached with neither is no contact.
func TimeOfImpactEnter(a shape.Shape, sa Sweep, b shape.Shape, sb Sweep) (t float64, pa, pb int, hit bool) {
	if !a.Valid() || !b.Valid() || !sweepFinite(sa) || !sweepFinite(sb) {
		return 0, 0, 0, false
	}
	if a.Kind().Convex() && b.Kind().Convex() {
		if bare(a) && bare(b) {
			return 0, 0, 0, false
		}
		t, hit = timeOfImpact(a, shape.Transform{}, sa, b, shape.Transform{}, sb)
		if hit {
			t, hit = enterTime(a, shape.Transform{}, sa, b, shape.Transform{}, sb, t)
		}
		return t, 0, 0, hit
	}
	return toiComposite(a, sa, b, sb, true)
}

// bare reports whether s is a segment (no thickness: it overlaps nothing
// else without thickness).
func bare(s shape.Shape) bool { return s.Kind() == shape.KindSegment }

// enterTime returns when convex a and b (placed by offA and offB in bodies
// moving along sa and sb), first touching at t0, begin to overlap (see
// TimeOfImpactEnter), and false if they do not overlap at any time
// followed before they part and never touch again, or before the sweep ends.
func enterTime(a shape.Shape, offA shape.Transform, sa Sweep, b shape.Shape, offB shape.Transform, sb Sweep, t0 float64) (float64, bool) {
	place := func(t float64) (shape.Transform, shape.Transform) {
		xa, xb := sa.At(t), sb.At(t)
		if offA != (shape.Transform{}) {
			xa = xa.Mul(offA)
		}
		if offB != (shape.Transform{}) {
			xb = xb.Mul(offB)
		}
		return xa, xb
	}
	target := float64(toiTarget * (partRadius(a, offA) + partRadius(b, offB)))
	var ca, cb placed
	ca.init(a)
	cb.init(b)
	// Each round follows one touch; a turning pair may graze and part
	// several times, each a new touch, up to enterRounds.
	for range enterRounds {
		if xa, xb := place(t0); Overlap(a, xa, b, xb) {
			return t0, true
		}
		// tau grows tenfold from 1e-9: t reaches 1 within 11 probes.
		for tau := 1e-9; ; tau *= 10 {
			t := min(float64(t0+tau), 1)
			xa, xb := place(t)
			if Overlap(a, xa, b, xb) {
				return t0, true
			}
			if t == 1 {
				// The sweep ends with the pair not overlapping at any time
				// followed: within TimeOfImpact's reach of touching is not
				// touching (counting it gave a chain bullet that ended
				// 2.4e-7 of the size short of a box a swept contact:
				// TestBulletChainEndsShortOfBoxBug).
				return 0, false
			}
			ca.place(a, xa, xb.Pos)
			cb.place(b, xb, xb.Pos)
			var sx simplex
			if d, _ := gjkGap(&ca, &cb, &sx); d > 2*target {
				// Parted: the next touch, if any, on the rest of the sweep.
				sub := func(s Sweep) Sweep {
					p := s.At(t)
					return Sweep{P0: p.Pos, P1: s.P1, A0: s.A0 + float64(t*(s.A1-s.A0)), A1: s.A1}
				}
				next, ok := timeOfImpact(a, offA, sub(sa), b, offB, sub(sb))
				if !ok {
					return 0, false
				}
				t0 = t + float64(next*(1-t))
				break
			}
		}
	}
	return t0, true
}

// enterRounds bounds the touches enterTime follows: a pair that grazes and
// parts more often in one sweep counts at its last touch followed.
const enterRounds = 8
