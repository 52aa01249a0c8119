package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks each contact point against the surfaces it is meant to
// lie between, by a method independent of clipping: the line through the
// point along the normal N. Along that line, A's surface facing B is the
// highest point of A (its upper envelope along N) and B's surface facing A
// is the lowest point of B; the point lies midway between them and its
// depth is their distance (Box2D's separation of a clipped point, negated).
// exCheckManifoldPoints checks only that point ± N·depth/2 lies on some
// part of each boundary; the envelope also pins the part: the front faces,
// not the back ones, and no point beside either shape.
//
// The envelopes are computed from the exact cores (big.Rat), shifted to the
// point and rounded once: the upper envelope of a core grown by r at the
// tangent offset τ is the largest of the candidates on its boundary there:
// each core edge offset by r along its outward normal, and each core vertex's
// circle of radius r. τ is clamped into the shape's tangent range, so that a
// point on a side face parallel to N (a box's corner) is not lost to
// rounding; the clamping distance is itself checked.

// h10Env returns the envelopes along n of the grown core c about the world
// point org over the tangent band [-delta, delta], clamped into c's tangent
// range: the least and greatest values of the upper envelope (max) there,
// and of the lower one (min), and the distance by which 0 had to be clamped
// into c's tangent range.
func h10Env(c exCore, org shape.Vec2, n shape.Vec2, delta float64) (upMin, upMax, loMin, loMax, clamp float64) {
	o := exVF(org)
	tg := shape.V(-n.Y, n.X)
	r, _ := c.r.Float64()
	pts := make([]h10ST, len(c.pts))
	tmin, tmax := math.Inf(1), math.Inf(-1)
	for i, p := range c.pts {
		q := p.sub(o)
		x, _ := q.x.Float64()
		y, _ := q.y.Float64()
		v := shape.V(x, y)
		pts[i] = h10ST{v.Dot(n), v.Dot(tg)}
		tmin, tmax = math.Min(tmin, pts[i].t-r), math.Max(tmax, pts[i].t+r)
	}
	cl := func(x float64) float64 { return math.Max(tmin, math.Min(tmax, x)) }
	tau := cl(0)
	clamp = math.Abs(tau)
	upMin, loMax = math.Inf(1), math.Inf(-1)
	upMax, loMin = math.Inf(-1), math.Inf(1)
	for _, x := range []float64{cl(tau - delta), tau, cl(tau + delta)} {
		up, lo := h10EnvAt(pts, r, x)
		upMin, upMax = math.Min(upMin, up), math.Max(upMax, up)
		loMin, loMax = math.Min(loMin, lo), math.Max(loMax, lo)
	}
	// The extremes inside the band: vertices (circle tops for r > 0).
	for _, p := range pts {
		if math.Abs(p.t-tau) <= delta {
			upMax = math.Max(upMax, p.s+r)
			loMin = math.Min(loMin, p.s-r)
		}
	}
	return upMin, upMax, loMin, loMax, clamp
}

type h10ST struct{ s, t float64 }

// h10EnvAt returns the upper and lower envelopes at tau (inside the
// tangent range) of the core pts grown by r.
func h10EnvAt(pts []h10ST, r, tau float64) (up, lo float64) {
	up, lo = math.Inf(-1), math.Inf(1)
	add := func(s float64) {
		up, lo = math.Max(up, s), math.Min(lo, s)
	}
	// Vertex circles (or the vertices themselves for r = 0).
	for _, p := range pts {
		dt := tau - p.t
		if math.Abs(dt) <= r {
			h := math.Sqrt(math.Max(0, r*r-dt*dt))
			add(p.s + h)
			add(p.s - h)
		}
	}
	// Edges, offset by r to both sides (the outward side is the one that
	// counts; the inward one lies inside and changes neither envelope).
	m := len(pts)
	edges := m
	if m == 2 {
		edges = 1
	}
	if m == 1 {
		edges = 0
	}
	for i := range edges {
		u, v := pts[i], pts[(i+1)%m]
		dt := v.t - u.t
		ds := v.s - u.s
		l := math.Hypot(dt, ds)
		if l == 0 {
			continue
		}
		for _, sg := range []float64{1, -1} {
			ns, nt := sg*dt/l*r, -sg*ds/l*r
			u2 := h10ST{u.s + ns, u.t + nt}
			v2 := h10ST{v.s + ns, v.t + nt}
			lo2, hi2 := math.Min(u2.t, v2.t), math.Max(u2.t, v2.t)
			if tau < lo2 || tau > hi2 {
				continue
			}
			if u2.t == v2.t {
				add(u2.s)
				add(v2.s)
				continue
			}
			f := (tau - u2.t) / (v2.t - u2.t)
			add(u2.s + f*(v2.s-u2.s))
		}
	}
	return up, lo
}

// h10CheckEnvelope checks every point of m against the envelopes of the
// exact cores ca (A) and cb (B): delta is the tangent band (the rounding
// of the point), tol the tolerance along the normal, in world units.
func h10CheckEnvelope(t *testing.T, m narrowphase.Manifold, ca, cb exCore, delta, tol float64, desc string) {
	t.Helper()
	n := m.Normal
	for i := range m.Count {
		p := m.Points[i]
		upAmin, upAmax, _, _, clA := h10Env(ca, p.Point, n, delta)
		_, _, loBmin, loBmax, clB := h10Env(cb, p.Point, n, delta)
		if clA > delta || clB > delta {
			t.Errorf("Collide.Points[%d] = %+v lies beside the shapes along the normal %v: %.3g off a's tangent range, %.3g off b's, tol %.3g: %s",
				i, p, n, clA, clB, delta, desc)
			continue
		}
		midLo, midHi := (upAmin+loBmin)/2, (upAmax+loBmax)/2
		dLo, dHi := upAmin-loBmax, upAmax-loBmin
		if midLo > tol || midHi < -tol || p.Depth < dLo-tol || p.Depth > dHi+tol {
			t.Errorf("Collide.Points[%d] = %+v: along the normal %v a's front surface is at [%.17g, %.17g] and b's at [%.17g, %.17g] from the point: want the point midway and depth in [%.17g, %.17g], tol %.3g; manifold depth %.17g: %s",
				i, p, n, upAmin, upAmax, loBmin, loBmax, dLo, dHi, tol, m.Depth, desc)
		}
	}
}

// h10Scale is the size of a pair without a floor of 1: the bounding radii
// and the distance between the positions.
func h10Scale(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) float64 {
	return a.BoundingRadius() + b.BoundingRadius() + tb.Pos.Sub(ta.Pos).Len()
}

// h10ExactRots are rotations whose cosine and sine are exact and
// Pythagorean (3-4-5 and friends), plus the quarter turns.
var h10ExactRots = [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {0.6, 0.8}, {0.8, 0.6}, {-0.6, 0.8}, {0.28, -0.96}, {-0.96, -0.28}}

func h10Rot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(4) {
	case 0:
		q := h10ExactRots[rng.IntN(len(h10ExactRots))]
		return shape.RotFromCosSin(q[0], q[1])
	case 1:
		return shape.NewRot(float64(rng.IntN(8)) * math.Pi / 4)
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

// h10Shape returns a random shape of kind k of size about s: thin
// (aspect up to 1e6) a third of the time.
func h10Shape(rng *rand.Rand, k shape.Kind, s float64) shape.Shape {
	thin := 1.0
	if rng.IntN(3) == 0 {
		thin = math.Pow(10, -1-5*rng.Float64())
	}
	u := func() float64 { return s * (0.2 + rng.Float64()) }
	for {
		var sh shape.Shape
		var err error
		switch k {
		case shape.KindCircle:
			c := shape.Vec2{}
			if rng.IntN(3) == 0 {
				c = shape.V(u()-u(), u()-u())
			}
			sh, err = shape.NewOffsetCircle(c, u())
		case shape.KindAABB:
			sh, err = shape.NewAABB(u(), u()*thin)
		case shape.KindOBB:
			sh, err = shape.NewOBB(u()*thin, u())
		case shape.KindPolygon:
			nv := 3 + rng.IntN(6)
			pts := make([]shape.Vec2, nv)
			sx, sy := u(), u()*thin
			if rng.IntN(2) == 0 {
				for i := range pts {
					a := 2 * math.Pi * (float64(i) + 0.8*rng.Float64()) / float64(nv)
					pts[i] = shape.V(sx*math.Cos(a), sy*math.Sin(a))
				}
			} else {
				for i := range pts {
					pts[i] = shape.V(sx*(2*rng.Float64()-1), sy*(2*rng.Float64()-1))
				}
			}
			sh, err = shape.ConvexHull(pts)
		case shape.KindCapsule, shape.KindSegment:
			l := u()
			a := rng.Float64() * 2 * math.Pi
			if rng.IntN(3) == 0 {
				a = float64(rng.IntN(4)) * math.Pi / 2
			}
			d := shape.V(l*math.Cos(a), l*math.Sin(a))
			off := shape.Vec2{}
			if rng.IntN(3) == 0 {
				off = shape.V(u()-u(), u()-u())
			}
			if k == shape.KindCapsule {
				sh, err = shape.NewCapsule(off.Sub(d), off.Add(d), u()*thin)
			} else {
				sh, err = shape.NewSegment(off.Sub(d), off.Add(d))
			}
		}
		if err == nil {
			return sh
		}
	}
}

// h10Place returns transforms for a and b that overlap, often deeply: b's
// origin is at a random point of a's bounding disc, sometimes at a's, or
// moved a hair inside from touching along a random direction, or b inside
// a, internally tangent or a hair short of it.
func h10Place(rng *rand.Rand, a, b shape.Shape, base shape.Vec2) (ta, tb shape.Transform, inside bool) {
	ta = shape.Transform{Pos: base, Rot: h10Rot(rng)}
	tb = shape.Transform{Rot: h10Rot(rng)}
	if rng.IntN(4) == 0 {
		tb.Rot = ta.Rot
	}
	ra := a.BoundingRadius() + b.BoundingRadius()
	switch rng.IntN(5) {
	case 4:
		// b inside a and internally tangent, or a hair (1e-9, 1e-6 of
		// the way) short of it, when b fits at a's origin.
		ang := rng.Float64() * 2 * math.Pi
		u := shape.V(math.Cos(ang), math.Sin(ang))
		tb.Pos = ta.Pos
		if !h10Inside(b, tb, a, ta) {
			return ta, tb, false
		}
		inside = true
		lo, hi := 0.0, 2*ra
		for range 50 {
			mid := (lo + hi) / 2
			tb.Pos = ta.Pos.Add(u.Scale(mid))
			if h10Inside(b, tb, a, ta) {
				lo = mid
			} else {
				hi = mid
			}
		}
		f := []float64{0, 1e-9, 1e-6}[rng.IntN(3)]
		tb.Pos = ta.Pos.Add(u.Scale(lo * (1 - f)))
	case 0:
		tb.Pos = ta.Pos
	case 1:
		// Touching along u, then a relative hair to a third inside.
		ang := rng.Float64() * 2 * math.Pi
		u := shape.V(math.Cos(ang), math.Sin(ang))
		lo, hi := 0.0, 2*ra
		for range 80 {
			mid := (lo + hi) / 2
			tb.Pos = ta.Pos.Add(u.Scale(mid))
			if narrowphase.Overlap(a, ta, b, tb) {
				lo = mid
			} else {
				hi = mid
			}
		}
		f := []float64{1e-9, 1e-6, 1e-3, 0.3}[rng.IntN(4)]
		tb.Pos = ta.Pos.Add(u.Scale(lo * (1 - f)))
	default:
		ang := rng.Float64() * 2 * math.Pi
		r := ra * rng.Float64()
		tb.Pos = ta.Pos.Add(shape.V(r*math.Cos(ang), r*math.Sin(ang)))
	}
	return ta, tb, inside
}

// h10Inside reports whether b placed by tb lies inside a placed by ta,
// exactly up to the final square root: every core point of b at least b's
// radius inside a (a is convex, so its vertices suffice).
func h10Inside(b shape.Shape, tb shape.Transform, a shape.Shape, ta shape.Transform) bool {
	ca, cb := exPlace(a, ta), exPlace(b, tb)
	rb, _ := cb.r.Float64()
	for _, q := range cb.pts {
		x, _ := q.x.Float64()
		y, _ := q.y.Float64()
		if exSignedDist(ca, shape.V(x, y)) > -rb {
			return false
		}
	}
	return true
}

// TestExactOracleContactPointEnvelopes checks the contact points and
// per-point depths of every ordered convex kind pair against the exact
// envelopes along the normal (see above), and the depth and normal
// against the exact Minkowski difference, on float shapes: thin ones
// (aspect up to 1e6), tiny ones (1e-9), at far coordinates (1e6, 1e9),
// with exact and arbitrary rotations, often deep inside each other.
func TestExactOracleContactPointEnvelopes(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1010))
	n := exCases(300)
	for _, ka := range exConvexKinds {
		for _, kb := range exConvexKinds {
			if ka == shape.KindSegment && kb == shape.KindSegment {
				continue
			}
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				hits, inside := 0, 0
				for c := range n {
					size := []float64{1, 1, 1, 1e-9, 1e3}[rng.IntN(5)]
					base := shape.Vec2{}
					if size >= 1 {
						b := []float64{0, 0, 1e6, 1e9, -1e9}[rng.IntN(5)]
						base = shape.V(b, -b/3)
					}
					a := h10Shape(rng, ka, size)
					b := h10Shape(rng, kb, size*math.Pow(10, 2*rng.Float64()-1))
					ta, tb, in := h10Place(rng, a, b, base)
					if in {
						inside++
					}
					if _, ok := h10CheckCollide(t, a, ta, b, tb, fmt.Sprintf("case %d", c)); ok {
						hits++
					}
					if t.Failed() {
						return
					}
				}
				t.Logf("%d of %d overlap, %d with b inside a near its boundary", hits, n, inside)
			})
		}
	}
}

// h10CheckCollide checks Collide(a, ta, b, tb) against the exact cores:
// the verdict against the exact Minkowski difference (a disagreement
// within rounding of touching passes), and for a contact the depth, the
// normal, each point against the exact envelopes along the normal, and
// parallel faces for their two points. It returns the manifold and
// whether it is a contact; errors name the pair after the prefix.
func h10CheckCollide(t *testing.T, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, prefix string) (narrowphase.Manifold, bool) {
	t.Helper()
	m, ok := narrowphase.Collide(a, ta, b, tb)
	desc := prefix + ": " + exDescribe(a, ta, b, tb)
	ca, cb := exPlace(a, ta), exPlace(b, tb)
	scale := h10Scale(a, ta, b, tb)
	far := math.Max(math.Max(math.Abs(ta.Pos.X), math.Abs(ta.Pos.Y)), math.Max(math.Abs(tb.Pos.X), math.Abs(tb.Pos.Y)))
	tol := 1e-9*scale + 64*far*0x1p-52
	in, pen := exPen(exMinkowski(ca, cb))
	if ok != in {
		if math.Abs(pen) > tol {
			t.Errorf("Collide = %v, want %v (exact depth %.17g): %s", ok, in, pen, desc)
		}
		return m, false
	}
	if !ok {
		return m, false
	}
	if math.Abs(m.Depth-pen) > 1e-9*scale {
		t.Errorf("Collide.Depth = %.17g, want %.17g (diff %.3g): %s", m.Depth, pen, m.Depth-pen, desc)
	}
	if h := exSupport(exMinkowski(ca, cb), m.Normal.Neg()); math.Abs(h-pen) > 1e-9*scale {
		t.Errorf("Collide.Normal = %v needs %.17g to separate, the depth is %.17g: %s", m.Normal, h, pen, desc)
	}
	// Along-normal positions amplify tangent rounding on steep faces: a
	// looser tolerance, which still tells a front face from a back one.
	h10CheckEnvelope(t, m, ca, cb, tol, 1e-7*scale+1e4*far*0x1p-52, desc)
	// Each point ± N·depth/2 on the boundaries, and two points at the ends
	// of the overlap of parallel faces.
	exCheckManifoldPoints(t, m, ca, cb, ta.Pos, 1e-9*scale, tol, desc)
	return m, true
}

// h10RoundShape returns a shape that turning about its origin changes
// little or not at all: a circle about its centre, a short fat capsule, a
// regular polygon of many sides, a square, or any random shape of kind k.
func h10RoundShape(rng *rand.Rand, k shape.Kind) shape.Shape {
	s := 0.5 + rng.Float64()
	switch k {
	case shape.KindCircle:
		c, _ := shape.NewCircle(s)
		if rng.IntN(3) == 0 {
			c, _ = shape.NewOffsetCircle(shape.V(0.01*s, -0.02*s), s)
		}
		return c
	case shape.KindCapsule:
		l := s * []float64{1e-3, 0.1, 1}[rng.IntN(3)]
		c, _ := shape.NewCapsule(shape.V(-l, 0), shape.V(l, 0), s)
		return c
	case shape.KindPolygon:
		n := []int{5, 6, 8}[rng.IntN(3)]
		if n > shape.MaxPolygonVertices {
			n = shape.MaxPolygonVertices
		}
		pts := make([]shape.Vec2, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			pts[i] = shape.V(s*math.Cos(a), s*math.Sin(a))
		}
		p, err := shape.NewPolygon(pts)
		if err == nil {
			return p
		}
	case shape.KindOBB, shape.KindAABB:
		return h10Shape(rng, k, s)
	}
	return h10Shape(rng, k, s)
}

// TestExactOracleTOISpinningGrazes compares TimeOfImpact with the sampling
// oracle of exact_toi_test.go on the motions conservative advancement
// finds hardest: a shape spinning by up to 3 rad about its origin
// (wheels, fat capsules, many-sided polygons) while the other slides past
// it (or hovers) with a small gap (1e-6 to 1e-2 of the size) that closes
// slowly or not at all, around the origin and far from it, both orders.
func TestExactOracleTOISpinningGrazes(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1011))
	n := exCases(6)
	samples := 200
	if testing.Short() {
		samples = 50
	}
	total, hits := 0, 0
	pair := 0
	for _, ka := range exConvexKinds {
		for _, kb := range exConvexKinds {
			if ka == shape.KindSegment && kb == shape.KindSegment {
				continue
			}
			// The quick gate (-short) takes a third of the kind pairs,
			// a different third for each seed.
			if pair++; testing.Short() && (uint64(pair)+seed)%3 != 0 {
				continue
			}
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				for c := range n {
					a := h10RoundShape(rng, ka)
					b := h10Shape(rng, kb, 0.5+2*rng.Float64())
					base := []float64{0, 0, 1e3, 1e6}[rng.IntN(4)]
					bv := shape.V(base, -base)
					a0 := rng.Float64() * 2 * math.Pi
					sa := narrowphase.Sweep{P0: bv, P1: bv, A0: a0, A1: a0 + (2*rng.Float64()-1)*3}
					// b starts touching a (as placed at 0) along u, backed
					// off by the gap, and slides across u, closing by up to
					// twice the gap.
					ang := rng.Float64() * 2 * math.Pi
					u := shape.V(math.Cos(ang), math.Sin(ang))
					ta := sa.At(0)
					tb := shape.Transform{Rot: shape.NewRot(rng.Float64() * 2 * math.Pi)}
					lo, hi := 0.0, 2*(a.BoundingRadius()+b.BoundingRadius())
					for range 80 {
						mid := (lo + hi) / 2
						tb.Pos = ta.Pos.Add(u.Scale(mid))
						if narrowphase.Overlap(a, ta, b, tb) {
							lo = mid
						} else {
							hi = mid
						}
					}
					size := a.BoundingRadius() + b.BoundingRadius()
					gap := size * math.Pow(10, -6+4*rng.Float64())
					p0 := ta.Pos.Add(u.Scale(hi + gap))
					slide := u.Perp().Scale((2*rng.Float64() - 1) * []float64{0, 0.05, 2}[rng.IntN(3)] * size)
					p0 = p0.Sub(slide.Scale(0.5))
					p1 := p0.Add(slide).Sub(u.Scale(2 * gap * rng.Float64()))
					b0 := tb.Rot.Angle()
					sb := narrowphase.Sweep{P0: p0, P1: p1, A0: b0, A1: b0}
					if rng.IntN(3) == 0 {
						sb.A1 = b0 + (2*rng.Float64()-1)*0.1
					}
					for _, tc := range []*toiCase{newTOICase(a, sa, b, sb), newTOICase(b, sb, a, sa)} {
						if tc.check(t, samples) {
							hits++
						}
						total++
					}
					if t.Failed() {
						t.Logf("case %d", c)
						return
					}
				}
			})
		}
	}
	t.Logf("%d sweeps, %d hits", total, hits)
}
