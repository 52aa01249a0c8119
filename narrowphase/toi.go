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
// bound larger and the steps shorter.
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
	wa, wb := math.Abs(sa.A1-sa.A0), math.Abs(sb.A1-sb.A0)
	if a.Kind() == shape.KindAABB {
		wa = 0 // an AABB never turns
	}
	if b.Kind() == shape.KindAABB {
		wb = 0
	}
	ra, rb := partRadius(a, offA), partRadius(b, offB)
	// Turning moves the cores only: a circle or capsule's radius turns
	// into itself, so a wheel about its centre adds nothing to the closing
	// speed (counting its radius made grazes of spinning wheels run out of
	// steps: TestTimeOfImpactSpinningWheelBug).
	spin := float64(wa*coreRadius(a, offA)) + float64(wb*coreRadius(b, offB))
	size := ra + rb
	target := float64(toiTarget * size)
	vrel := va.Sub(vb)
	// The discs of the bounding radii about the body origins hold each
	// shape at every angle and move without turning: the shapes cannot
	// touch before the discs do, which a quadratic gives exactly.
	t, ok := discsMeet(sa.P0.Sub(sb.P0), vrel, size)
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
	at := func(sw *Sweep, still bool, rot shape.Rot, t float64, part bool, off *shape.Transform) shape.Transform {
		var x shape.Transform
		if still {
			x = shape.Transform{Pos: sw.P0.Add(sw.P1.Sub(sw.P0).Scale(t)), Rot: rot}
		} else {
			x = sw.At(t)
		}
		if part {
			x = x.Mul(*off)
		}
		return x
	}
	stillA, stillB := sa.A0 == sa.A1, sb.A0 == sb.A1
	rotA, rotB := shape.NewRot(sa.A0), shape.NewRot(sb.A0)
	for range toiMaxIters {
		ta, tb := at(&sa, stillA, rotA, t, partA, &offA), at(&sb, stillB, rotB, t, partB, &offB)
		ca.place(a, ta, tb.Pos)
		cb.place(b, tb, tb.Pos)
		var d float64
		d, n = gjkGap(&ca, &cb, &sx)
		if d <= target {
			return t, true
		}
		// The fastest the gap can close along n.
		closing := max(0, -vrel.Dot(n)) + spin
		if closing <= 0 {
			return 0, false
		}
		t += d / closing
		if t > 1 {
			return 0, false
		}
	}
	ta, tb := at(&sa, false, rotA, t, partA, &offA), at(&sb, false, rotB, t, partB, &offB)
	ca.place(a, ta, tb.Pos)
	cb.place(b, tb, tb.Pos)
	if d, _ := gjkGap(&ca, &cb, &sx); d <= 2*target {
		return t, true
	}
	return 0, false
}

func sweepFinite(s Sweep) bool {
	d := s.P1.Sub(s.P0)
	return s.P0.IsFinite() && s.P1.IsFinite() && shape.IsFinite(s.A0) && shape.IsFinite(s.A1) &&
		math.Abs(d.X) <= shape.MaxMagnitude && math.Abs(d.Y) <= shape.MaxMagnitude
}

// gap returns the distance between the shapes whose Minkowski difference is
// m (0 when they touch or overlap) and the unit direction from b toward a
// along which it is measured.
func (m *mink) gap() (float64, shape.Vec2) {
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
	disc := float64(b*b) - float64(a*c)
	if disc < 0 {
		return 0, false
	}
	// The nearer root, without cancellation: c / (-b + √disc).
	t := c / (-b + math.Sqrt(disc))
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
