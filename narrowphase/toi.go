package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// Sweep is a shape's motion over a step: position and angle at t = 0 (P0,
// A0) and at t = 1 (P1, A1), both interpolated linearly in between.
type Sweep struct {
	P0, P1 shape.Vec2
	A0, A1 float64
}

// At returns the transform of the sweep at time t.
func (s Sweep) At(t float64) shape.Transform {
	return shape.NewTransform(s.P0.Add(s.P1.Sub(s.P0).Scale(t)), s.A0+float64(t*(s.A1-s.A0)))
}

// Tolerances of TimeOfImpact, relative to the size of the pair (the sum of
// their bounding radii): it stops advancing once the shapes are closer than
// toiTarget, so that at the time it returns they are within it of touching
// (the contract promises 1e-6), and the advancement never lets them overlap.
const (
	toiTarget = 5e-7
	// toiMaxIters bounds the advancement steps; each one closes a fixed
	// fraction of the gap or more, so grazing motions that need more are
	// the only ones that reach it (then the result is the time reached, a
	// hit if the gap left is within twice the target, the contract's 1e-6).
	// A turning graze took between 500 and 1,000 steps
	// (TestTimeOfImpactSlowGrazeBug); the cap leaves ten times that, paid
	// only by such grazes.
	toiMaxIters = 5000
)

// TimeOfImpact returns the first time t in [0, 1] at which shape a moving
// along sa and shape b moving along sb touch, for rotating shapes too: they
// do not overlap anywhere in [0, t), and at t they are within 1e-6 of their
// size of touching. Shapes that touch or overlap at 0 give 0. hit is false
// when they stay apart over the whole sweep (or an input is invalid: a zero
// Shape, a non-finite sweep, or one that moves farther than
// shape.MaxMagnitude on an axis, whose square would overflow).
//
// Algorithm: conservative advancement (Mirtich, "Impulse-based dynamic
// simulation of rigid body systems", 1996; Ericson, Real-Time Collision
// Detection, §9.5.4). At each time the distance d between the shapes and
// the direction n that separates them come from GJK on their cores; no point of the pair can close the gap along n faster than
// the relative velocity along n plus each angular speed times its shape's
// bounding radius, so advancing by d over that bound cannot reach a touch.
// There is no limit on the rotation per step: a fast spin only makes the
// bound larger and the steps shorter. That bound closes a fixed fraction of
// the gap per step (ten steps for a typical hit); each step is the longer
// of it and one that a second-order model of the gap along an axis turning
// with the nearest edge proves safe (toiMotion.advance), which converges
// in three or four.
func TimeOfImpact(a shape.Shape, sa Sweep, b shape.Shape, sb Sweep) (float64, bool) {
	if !a.Valid() || !b.Valid() || !sweepFinite(sa) || !sweepFinite(sb) {
		return 0, false
	}
	if !a.Kind().Convex() || !b.Kind().Convex() {
		t, _, _, hit := toiComposite(a, sa, b, sb, false)
		return t, hit
	}
	return timeOfImpact(a, shape.Transform{}, sa, b, shape.Transform{}, sb)
}

// toiComposite is TimeOfImpact part by part: the earliest touch of any
// part pair, each part carried by its body's sweep. Against a chain that
// does not turn, only the segments near the other shape's path are tried.
// It returns the time and the part pair, the lower pair on equal times;
// with enter set, only part pairs whose interiors then meet count (see
// TimeOfImpactEnter).
func toiComposite(a shape.Shape, sa Sweep, b shape.Shape, sb Sweep, enter bool) (best float64, ia, ib int, found bool) {
	if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
		return 0, 0, 0, false
	}
	sa, sb = recentreSweeps(a, sa, b, sb)
	partsOnPath(a, sa, b, sb, func(i int) bool {
		pa, offA := partAt(a, i)
		partsOnPath(b, sb, a, sa, func(j int) bool {
			pb, offB := partAt(b, j)
			if enter && bare(pa) && bare(pb) {
				return true // segments never overlap segments
			}
			t, ok := timeOfImpact(pa, offA, sa, pb, offB, sb)
			if ok && enter && (!found || t <= best) {
				t, ok = enterTime(pa, offA, sa, pb, offB, sb, t)
			}
			if ok && (!found || t < best || t == best && (i < ia || i == ia && j < ib)) {
				best, ia, ib, found = t, i, j, true
			}
			return true
		})
		return true
	})
	return best, ia, ib, found
}

// recentreSweeps returns sa and sb moved by −o, o the lesser of their
// start positions, when a or b is a compound (else the sweeps as they
// are), as recentre moves a pair's transforms: a compound's parts are then
// placed along the sweeps in small numbers near the pair, as Collide,
// Overlap and Cast place them, not rounded to world coordinates far from
// the origin, where an ulp of the position moves a part (1.2e-4 at 1e12:
// a compound overlapping a polygon by 1.7e-5 at the start got a time of
// impact after it, TestTimeOfImpactCompoundFarStartOverlapBug). Only
// times and parts come out, so nothing is moved back.
func recentreSweeps(a shape.Shape, sa Sweep, b shape.Shape, sb Sweep) (Sweep, Sweep) {
	_, _, o := recentre(a, shape.Transform{Pos: sa.P0}, b, shape.Transform{Pos: sb.P0})
	if o == (shape.Vec2{}) {
		return sa, sb
	}
	sa.P0, sa.P1 = sa.P0.Sub(o), sa.P1.Sub(o)
	sb.P0, sb.P1 = sb.P0.Sub(o), sb.P1.Sub(o)
	return sa, sb
}

// partsOnPath calls fn with each part of s (moving along ss) that may meet
// shape o (moving along so): every part, except for a chain that does not
// turn, where in the chain's frame o stays within its bounding radius of
// the line between its start and end positions, and only segments whose
// boxes meet that reach are called.
func partsOnPath(s shape.Shape, ss Sweep, o shape.Shape, so Sweep, fn func(i int) bool) {
	if s.Kind() != shape.KindChain || ss.A0 != ss.A1 {
		for i := range s.PartCount() {
			if !fn(i) {
				return
			}
		}
		return
	}
	rot := shape.NewRot(ss.A0)
	p0 := rot.ApplyInv(so.P0.Sub(ss.P0))
	p1 := rot.ApplyInv(so.P1.Sub(ss.P1))
	r := o.BoundingRadius()
	box := shape.AABBFromPoints(p0, p1)
	box = box.Expand(r + float64(1e-9*(r+math.Abs(box.Min.X)+math.Abs(box.Min.Y)+math.Abs(box.Max.X)+math.Abs(box.Max.Y))))
	s.PartsNear(box, fn)
}

// partAt returns part i of s and its offset in s's frame.
func partAt(s shape.Shape, i int) (shape.Shape, shape.Transform) {
	if s.Kind() == shape.KindCompound {
		p := s.Parts()[i]
		return p.Shape, p.Offset
	}
	ps, _ := s.Part(i, shape.Transform{})
	return ps, shape.Transform{}
}

// timeOfImpact is TimeOfImpact for convex shapes a and b placed by offA and
// offB in their bodies' frames.
func timeOfImpact(a shape.Shape, offA shape.Transform, sa Sweep, b shape.Shape, offB shape.Transform, sb Sweep) (float64, bool) {
	va, vb := sa.P1.Sub(sa.P0), sb.P1.Sub(sb.P0)
	var m toiMotion
	m.wa, m.wb = sa.A1-sa.A0, sb.A1-sb.A0
	if a.Kind() == shape.KindAABB {
		m.wa = 0 // an AABB never turns
	}
	if b.Kind() == shape.KindAABB {
		m.wb = 0
	}
	ra, rb := partRadius(a, offA), partRadius(b, offB)
	// Turning moves the cores only: a circle or capsule's radius turns
	// into itself, so a wheel about its centre adds nothing to the closing
	// speed (counting its radius made grazes of spinning wheels run out of
	// steps: TestTimeOfImpactSpinningWheelBug).
	m.rca, m.rcb = coreRadius(a, offA), coreRadius(b, offB)
	spin := float64(math.Abs(m.wa)*m.rca) + float64(math.Abs(m.wb)*m.rcb)
	size := ra + rb
	target := float64(toiTarget * size)
	m.dv = va.Sub(vb)
	m.dvLen = m.dv.Len()
	// The discs of the bounding radii about the body origins hold each
	// shape at every angle and move without turning: the shapes cannot
	// touch before the discs do, which a quadratic gives exactly.
	t, ok := discsMeet(sa.P0.Sub(sb.P0), m.dv, size)
	if !ok {
		return 0, false
	}
	var ca, cb placed
	ca.init(a)
	cb.init(b)
	var n shape.Vec2 // the last separating direction
	var sx simplex   // GJK's simplex, carried from step to step
	// The comparisons with the identity offset are made once: a
	// Transform compared with == costs four float comparisons a step.
	partA, partB := offA != (shape.Transform{}), offB != (shape.Transform{})
	// A sweep that does not turn keeps its rotation, computed once; one
	// that turns gets it from its angle at every step, and never reads
	// this one.
	stillA, stillB := sa.A0 == sa.A1, sb.A0 == sb.A1
	var rotA, rotB shape.Rot
	if stillA {
		rotA = shape.NewRot(sa.A0)
	}
	if stillB {
		rotB = shape.NewRot(sb.A0)
	}
	for range toiMaxIters {
		xa, xb := sweepAt(&sa, stillA, rotA, t), sweepAt(&sb, stillB, rotB, t)
		ta, tb := xa, xb
		var oa, ob shape.Vec2 // the parts' origins about their bodies'
		if partA {
			ta = xa.Mul(offA)
			oa = xa.Rot.Apply(offA.Pos)
		}
		if partB {
			tb = xb.Mul(offB)
			ob = xb.Rot.Apply(offB.Pos)
		}
		ca.place(a, ta, tb.Pos)
		cb.place(b, tb, tb.Pos)
		var d float64
		d, n = gjkGap(&ca, &cb, &sx)
		if d <= target {
			return t, true
		}
		// The fastest the gap can close along n.
		closing := max(0, -m.dv.Dot(n)) + spin
		if closing <= 0 {
			return 0, false
		}
		step := d / closing
		rest := 1 - t
		if step <= rest {
			tau, apart := m.advance(&ca, &cb, &sx, xa.Pos.Sub(xb.Pos), oa, ob, n, d, float64(target/2), rest)
			if apart {
				return 0, false
			}
			if tau >= rest {
				t = 1
				continue
			}
			step = max(step, tau)
		}
		t += step
		if t > 1 {
			return 0, false
		}
	}
	ta, tb := sweepAt(&sa, false, rotA, t), sweepAt(&sb, false, rotB, t)
	if partA {
		ta = ta.Mul(offA)
	}
	if partB {
		tb = tb.Mul(offB)
	}
	ca.place(a, ta, tb.Pos)
	cb.place(b, tb, tb.Pos)
	if d, _ := gjkGap(&ca, &cb, &sx); d <= 2*target {
		return t, true
	}
	return 0, false
}

// sweepAt returns sw.At(t), reusing rot, the rotation at A0, when the sweep
// does not turn.
func sweepAt(sw *Sweep, still bool, rot shape.Rot, t float64) shape.Transform {
	if still {
		return shape.Transform{Pos: sw.P0.Add(sw.P1.Sub(sw.P0).Scale(t)), Rot: rot}
	}
	return sw.At(t)
}

// toiMotion is the relative motion of a pair over its sweeps, as
// timeOfImpact's advancement models it.
type toiMotion struct {
	dv       shape.Vec2 // the velocity of a's origin relative to b's
	dvLen    float64    // |dv|
	wa, wb   float64    // the signed angular speeds (0 for an AABB)
	rca, rcb float64    // the cores' radii about their body origins
}

// advance returns how far past the present time (at which the gap between
// the cores placed in ca and cb is d > h along the unit direction n from b
// toward a, with the origins of the bodies dc apart and the parts' origins
// oa and ob from them) the pair surely does not overlap, aiming at a gap
// of h; or apart when they surely stay more than h apart for the rest of
// the sweep. 0 means it found no step.
//
// Conservative advancement's bound (the closing speed along n of the
// fastest point) makes each step close a fixed fraction of the gap. This
// one follows the gap along an axis that turns with the body whose edge
// is nearest (Box2D's separating functions in b2TimeOfImpact; Catto,
// "Continuous collision", GDC 2013), which the first touch drives to zero
// at nearly the rate the axis itself sees, so the steps converge much
// faster. Along a fixed axis in a frame turning at w, the separation
// g(τ) = min over a's core vertices minus max over b's, less the radii, is
// a lower bound of the distance; each vertex's place along the axis is, to
// first order, its place now plus its speed along the axis times τ, and
// the second derivatives are bounded (a vertex at radius r turning at w′
// relative to the frame: w′²r; the origins' offset, turned by the frame:
// 2|w||dv| + w²|dc(τ)|), so
//
//	g(τ) ≥ L(τ) = [min_i (p_i + α_i τ) − max_j (q_j + β_j τ)] + T₀ + T₁τ − Mτ²/2 − radii,
//
// a concave function of τ. Concave, it stays above target on [0, τ] when it
// is at both ends: the candidate τ, where the nearest vertices' model
// meets h, is kept if L(τ) ≥ 0; otherwise the chord from (0, L(0)) to
// (τ, L(τ)), which lies below L, gives where L surely still is ≥ 0.
func (m *toiMotion) advance(ca, cb *placed, sx *simplex, dc, oa, ob, n shape.Vec2, d, h, rest float64) (tau float64, apart bool) {
	// The frame turns with the body whose edge is nearest (then that
	// body's vertices keep their places along the axis), else not at all.
	var w float64
	switch {
	case sx.n == 2 && sx.ib[0] != sx.ib[1]:
		w = m.wb
	case sx.n == 2 && sx.ia[0] != sx.ia[1]:
		w = m.wa
	}
	ka, kb := m.wa-w, m.wb-w // the bodies' turns relative to the frame
	t0 := n.Dot(dc)
	t1 := n.Dot(m.dv) - float64(w*dc.Cross(n))
	dcLen := math.Abs(dc.X) + math.Abs(dc.Y) // ≥ |dc|
	bound := float64(float64(2*math.Abs(w))*m.dvLen) + float64(float64(w*w)*(dcLen+float64(m.dvLen*rest))) +
		float64(float64(ka*ka)*m.rca) + float64(float64(kb*kb)*m.rcb)
	// Locally, in each core's frame: its vertices' places along n and
	// their rates (a vertex v turning at k moves along n at k·v×n).
	na, nb := ca.x.Rot.ApplyInv(n), cb.x.Rot.ApplyInv(n)
	ea, eb := float64(ka*oa.Cross(n)), float64(kb*ob.Cross(n))
	// The candidate: the simplex's vertices, the nearest features, decide
	// the rate at which the gap closes.
	va, vb := ca.verts(), cb.verts()
	ra, rb := math.Inf(1), math.Inf(-1)
	for k := range sx.n {
		ra = min(ra, float64(ka*va[sx.ia[k]].Cross(na)))
		rb = max(rb, float64(kb*vb[sx.ib[k]].Cross(nb)))
	}
	e := t1 + (ra + ea) - (rb + eb) // the gap's rate now
	g := d - h
	sq := math.Sqrt(float64(e*e) + float64(float64(2*bound)*g))
	if e >= 0 {
		tau = (e + sq) / bound
	} else {
		tau = float64(2*g) / (sq - e)
	}
	if !(tau >= 0) {
		return 0, false // not a number: no model of such a motion
	}
	end := tau >= rest
	if end {
		tau = rest
	}
	a0, at := ca.lowest(na, ka, tau)
	b0, bt := cb.lowest(nb.Neg(), kb, tau)
	r := ca.r + cb.r
	l0 := (t0 + a0 + n.Dot(oa)) + (b0 - n.Dot(ob)) - r
	lt := float64(t1*tau) + (t0 + at + n.Dot(oa) + float64(ea*tau)) + (bt - n.Dot(ob) - float64(eb*tau)) -
		float64(float64(float64(bound*tau)*tau)/2) - r
	switch {
	case end && lt >= h:
		return 0, true
	case lt >= 0:
		return tau, false
	case l0 > 0 && lt < 0:
		// Not a number (a turn so fast that its bound overflows) fails
		// every comparison and finds no step.
		if c := float64(tau*l0) / (l0 - lt); c >= 0 {
			return c, false
		}
	}
	return 0, false
}

// lowest returns, over p's core vertices v (in the core's frame), the least
// u·v and the least u·v + k·τ·v×u: the core's lowest place along the unit
// direction u now and, to first order, after turning k·τ.
func (p *placed) lowest(u shape.Vec2, k, tau float64) (now, later float64) {
	kt := float64(k * tau)
	vs := p.verts()
	now = vs[0].Dot(u)
	later = now + float64(kt*vs[0].Cross(u))
	// Plain comparisons: the builtin min's care for NaN and −0 costs a
	// third of the loop, and neither can arise here but through a NaN
	// k·τ, which later then carries and advance refuses.
	for _, v := range vs[1:] {
		x := v.Dot(u)
		if x < now {
			now = x
		}
		if y := x + float64(kt*v.Cross(u)); y < later || y != y {
			later = y
		}
	}
	return now, later
}

func sweepFinite(s Sweep) bool {
	d := s.P1.Sub(s.P0)
	return s.P0.IsFinite() && s.P1.IsFinite() && shape.IsFinite(s.A0) && shape.IsFinite(s.A1) &&
		math.Abs(d.X) <= shape.MaxMagnitude && math.Abs(d.Y) <= shape.MaxMagnitude
}

// gap returns the distance between the shapes whose Minkowski difference is
// m (0 when they touch or overlap) and the unit direction from b toward a
// along which it is measured.
func (m *minkN[A, V, S]) gap() (float64, shape.Vec2) {
	var c shape.Vec2 // the core's point nearest the origin
	if m.n == 1 {
		c = m.v[0]
	} else {
		k, u, _, inside := m.closest()
		if inside {
			return 0, shape.Vec2{X: 1}
		}
		v0 := m.v[k]
		c = v0.Add(m.v[(k+1)%m.n].Sub(v0).Scale(u))
	}
	l := c.Len()
	if !(l > m.r) {
		return 0, shape.Vec2{X: 1}
	}
	return l - m.r, c.Scale(-1 / l)
}

// discsMeet returns the first t in [0, 1] at which |p + t·v| ≤ r, or false:
// when two discs of radii summing to r, with centres p apart and closing at
// v, first touch.
func discsMeet(p, v shape.Vec2, r float64) (float64, bool) {
	// Far apart or fast (a bullet restored 1e116 away), the products below
	// would overflow: the root does not change when all three are scaled
	// alike, so scale them down first. Ordinary inputs are left as they
	// are, bit for bit.
	if m := max(max(math.Abs(p.X), math.Abs(p.Y)), max(max(math.Abs(v.X), math.Abs(v.Y)), r)); m > 1e100 {
		k := 1 / m
		p, v, r = p.Scale(k), v.Scale(k), float64(r*k)
	}
	c := p.LenSq() - float64(r*r)
	if c <= 0 {
		return 0, true
	}
	a := v.LenSq()
	b := p.Dot(v)
	if a == 0 || b >= 0 {
		return 0, false // no relative motion, or moving apart
	}
	// From the closest approach, at s = −b/a, where the centres are l
	// apart: the discs meet √((r² − |l|²)/a) before it. b² − a·c would
	// cancel to the rounding of b² for a long motion, 1e-5 of the
	// distance travelled at 1e6.
	s := -b / a
	l := p.Add(v.Scale(s))
	disc := float64(r*r) - l.LenSq()
	if disc < 0 {
		return 0, false
	}
	t := s - math.Sqrt(disc/a)
	if !(t <= 1) {
		return 0, false // beyond the sweep (or, by some overflow, not a number)
	}
	return max(0, t), true
}

// partRadius bounds the distance from its body's origin of every point of
// the part s placed by off.
func partRadius(s shape.Shape, off shape.Transform) float64 {
	if off == (shape.Transform{}) {
		return s.BoundingRadius()
	}
	return math.Hypot(off.Pos.X, off.Pos.Y) + s.BoundingRadius()
}

// coreRadius bounds the distance from its body's origin of every point of
// the core of the part s placed by off: s without a circle's or capsule's
// radius, which turning about the origin carries into itself.
func coreRadius(s shape.Shape, off shape.Transform) float64 {
	var r float64
	switch s.Kind() {
	case shape.KindCircle:
		r = s.Center().Len()
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		r = max(p0.Len(), p1.Len())
	default:
		r = s.BoundingRadius()
	}
	if off == (shape.Transform{}) {
		return r
	}
	return math.Hypot(off.Pos.X, off.Pos.Y) + r
}
