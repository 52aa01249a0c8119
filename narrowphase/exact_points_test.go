package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks the contact points of Collide against the exact
// oracle's shapes, point by point, which exCheckCollide checks only
// loosely (within half a point's depth of both shapes).
//
// A contact point p with depth d lies midway between the surfaces along
// the normal N, and d is their overlap there: so p + N·d/2 lies on A's
// boundary and p − N·d/2 on B's, to rounding.
//
// Where both shapes meet with faces (a polygon's edge, a segment or
// capsule core, all radius included) that are parallel, perpendicular to
// N and overlap along the tangent by a stretch, the manifold has two
// points, at the ends of that stretch, midway between the faces, each with
// the full depth: computed here from the exact cores' support features
// along N, not by clipping.

// exFeature returns the core's support feature along u (points within eps
// of the maximum of p·u, with p relative to org) as the interval of their
// tangent coordinates along tg, and the support value.
func exFeature(c exCore, org exV, u, tg shape.Vec2, eps float64) (lo, hi, h float64, n int) {
	pts := make([]shape.Vec2, len(c.pts))
	h = math.Inf(-1)
	for i, p := range c.pts {
		q := p.sub(org)
		x, _ := q.x.Float64()
		y, _ := q.y.Float64()
		pts[i] = shape.V(x, y)
		h = math.Max(h, pts[i].Dot(u))
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if p.Dot(u) >= h-eps {
			s := p.Dot(tg)
			lo, hi = math.Min(lo, s), math.Max(hi, s)
			n++
		}
	}
	return lo, hi, h, n
}

// exCheckPoints checks the contact points of Collide(a, b) against the
// exact cores as described above, if they collide. It returns whether the
// pair met with parallel faces.
func exCheckPoints(t *testing.T, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, tolRel float64) bool {
	t.Helper()
	m, ok := narrowphase.Collide(a, ta, b, tb)
	if !ok {
		return false
	}
	return exCheckManifoldPoints(t, m, exPlace(a, ta), exPlace(b, tb), ta.Pos,
		tolRel*exLocalScale(a, ta, b, tb), tolRel*exWorldScale(a, ta, b, tb), exDescribe(a, ta, b, tb))
}

// exCheckManifoldPoints checks the points of m, the manifold of the exact
// cores ca and cb, as described above: tol is the tolerance of depths,
// wtol of world points, org a world point near the pair. It returns
// whether the pair met with parallel faces.
func exCheckManifoldPoints(t *testing.T, m narrowphase.Manifold, ca, cb exCore, org shape.Vec2, tol, wtol float64, desc string) bool {
	t.Helper()
	n := m.Normal
	for i := range m.Count {
		p := m.Points[i]
		if !(p.Depth > 0) || p.Depth > m.Depth+tol {
			t.Errorf("Collide.Points[%d].Depth = %.17g, want in (0, %.17g]: %s", i, p.Depth, m.Depth, desc)
		}
		sa := exSignedDist(ca, p.Point.Add(n.Scale(p.Depth/2)))
		sb := exSignedDist(cb, p.Point.Sub(n.Scale(p.Depth/2)))
		if math.Abs(sa) > wtol || math.Abs(sb) > wtol {
			t.Errorf("Collide.Points[%d] = %+v: point ± normal·depth/2 is %.3g from a's boundary and %.3g from b's, want 0 (tol %.3g), normal %v depth %.17g: %s",
				i, p, sa, sb, wtol, n, m.Depth, desc)
		}
	}
	// Parallel faces: the support features of a along N and of b along −N.
	// tol is 1e-9 of the local scale.
	scale := tol * 1e9
	eps := 1e-9 * scale
	exOrg := exVF(org)
	tg := shape.V(-n.Y, n.X)
	loA, hiA, hA, nA := exFeature(ca, exOrg, n, tg, eps)
	loB, hiB, hB, nB := exFeature(cb, exOrg, n.Neg(), tg, eps)
	lo, hi := math.Max(loA, loB), math.Min(hiA, hiB)
	if nA < 2 || nB < 2 || hi-lo < 1e-6*scale || m.Depth < 1e-6*scale {
		return false
	}
	ra, _ := ca.r.Float64()
	rb, _ := cb.r.Float64()
	// a's surface at hA + ra along N, b's at −hB − rb.
	mid := ((hA + ra) + (-hB - rb)) / 2
	want := [2]shape.Vec2{
		org.Add(tg.Scale(lo).Add(n.Scale(mid))),
		org.Add(tg.Scale(hi).Add(n.Scale(mid))),
	}
	if m.Count != 2 {
		t.Errorf("Collide.Count = %d, want 2: parallel faces overlap along the tangent from %v to %v (manifold %+v): %s",
			m.Count, want[0], want[1], m, desc)
		return true
	}
	p0, p1 := m.Points[0].Point, m.Points[1].Point
	if p0.Sub(want[0]).Dot(tg) > p1.Sub(want[0]).Dot(tg) {
		p0, p1 = p1, p0
	}
	if p0.Sub(want[0]).Len() > wtol || p1.Sub(want[1]).Len() > wtol {
		t.Errorf("Collide.Points = %v, %v, want %v, %v (parallel faces; tol %.3g): %s", p0, p1, want[0], want[1], wtol, desc)
	}
	for i := range 2 {
		if math.Abs(m.Points[i].Depth-m.Depth) > tol {
			t.Errorf("Collide.Points[%d].Depth = %.17g, want the full depth %.17g (parallel faces): %s", i, m.Points[i].Depth, m.Depth, desc)
		}
	}
	return true
}

// exRandFacingPair returns transforms for two shapes near each other,
// often with faces parallel: the same rotation or a quarter turn apart,
// around a random base.
func exRandFacingPair(rng *rand.Rand, spread float64) (shape.Transform, shape.Transform) {
	ta, tb := exRandPair(rng, spread)
	switch rng.IntN(4) {
	case 0:
		tb.Rot = ta.Rot
	case 1:
		q := [][2]float64{{0, 1}, {-1, 0}, {0, -1}}[rng.IntN(3)]
		tb.Rot = ta.Rot.Mul(shape.RotFromCosSin(q[0], q[1]))
	}
	return ta, tb
}

// exRandFacingShape returns a random shape of kind k as exRandShape, but
// half of the polygons, capsules and segments have axis-aligned faces or
// cores, which meet a box's faces (or each other's) in parallel.
func exRandFacingShape(rng *rand.Rand, k shape.Kind) shape.Shape {
	if rng.IntN(2) == 0 {
		return exRandShape(rng, k)
	}
	for {
		var s shape.Shape
		var err error
		switch k {
		case shape.KindPolygon:
			// A trapezoid with horizontal top and bottom, maybe a triangle.
			y0, y1 := exDyad(rng, -3, 0), exDyad(rng, 1.0/16, 3)
			pts := []shape.Vec2{
				shape.V(exDyad(rng, -3, 0), y0), shape.V(exDyad(rng, 1.0/16, 3), y0),
				shape.V(exDyad(rng, -3, 3), y1),
			}
			if rng.IntN(3) != 0 {
				pts = append(pts, shape.V(exDyad(rng, -3, 3), y1))
			}
			s, err = shape.ConvexHull(pts)
		case shape.KindCapsule, shape.KindSegment:
			p0 := exDyadV(rng, -3, 3)
			p1 := shape.V(exDyad(rng, -3, 3), p0.Y)
			if rng.IntN(2) == 0 {
				p1 = shape.V(p0.X, p1.X)
			}
			if k == shape.KindCapsule {
				s, err = shape.NewCapsule(p0, p1, exDyad(rng, 1.0/16, 2))
			} else {
				s, err = shape.NewSegment(p0, p1)
			}
		default:
			return exRandShape(rng, k)
		}
		if err == nil {
			return s
		}
	}
}

// TestExactOracleContactPoints checks Collide's contact points and
// per-point depths on random dyadic pairs of every convex kind pair, both
// orders, against the exact cores: each point ± N·depth/2 on the
// shapes' boundaries, and two points at the ends of the overlap where
// faces are parallel.
func TestExactOracleContactPoints(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 41))
	n := exCases(400)
	for _, ka := range exConvexKinds {
		for _, kb := range exConvexKinds {
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				hits, parallel := 0, 0
				for range n {
					a, b := exRandFacingShape(rng, ka), exRandFacingShape(rng, kb)
					ta, tb := exRandFacingPair(rng, 4)
					if _, ok := narrowphase.Collide(a, ta, b, tb); ok {
						hits++
					}
					if exCheckPoints(t, a, ta, b, tb, 1e-9) {
						parallel++
					}
					if t.Failed() {
						return
					}
				}
				t.Logf("%d of %d overlap, %d with parallel faces", hits, n, parallel)
			})
		}
	}
}

// TestExactOracleCompoundContactPoints checks the contact points of every
// part pair CollideParts reports, for compounds and concave polygons
// against convex shapes and compounds, both orders, as
// TestExactOracleContactPoints does for convex pairs: the parts are placed
// exactly, by their offsets and then the body's transform, and the points
// are moved back from the recentred frame, so far from the origin too.
func TestExactOracleCompoundContactPoints(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 43))
	n := exCases(200)
	pairs, parallel := 0, 0
	for c := range n {
		a := exRandCompound(rng)
		b := exRandCompound(rng)
		if rng.IntN(2) == 0 {
			b = exRandFacingShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
		}
		ta, tb := exRandFacingPair(rng, 5)
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := a, ta, b, tb
			if swap {
				x, tx, y, ty = b, tb, a, ta
			}
			desc := fmt.Sprintf("case %d: %s", c, exDescribe(x, tx, y, ty))
			px, py := exParts(x, tx), exParts(y, ty)
			tol := 1e-9 * exLocalScale(x, tx, y, ty)
			wtol := 1e-9 * exWorldScale(x, tx, y, ty)
			narrowphase.CollideParts(x, tx, y, ty, func(i, j int, m narrowphase.Manifold) bool {
				pairs++
				if exCheckManifoldPoints(t, m, px[i], py[j], tx.Pos, tol, wtol, fmt.Sprintf("parts (%d, %d), %s", i, j, desc)) {
					parallel++
				}
				return !t.Failed()
			})
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d cases, %d part pairs in contact, %d with parallel faces", n, pairs, parallel)
}

// TestExactOracleContactPointsFloat runs the contact-point checks of
// TestExactOracleContactPoints on the float pairs of the property tests
// (npRandomPair): random sizes and angles, faces a hair off parallel
// (1e-13 to 1e-5 rad), shapes on each other's boundary, same origins.
func TestExactOracleContactPointsFloat(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 45))
	n := exCases(300)
	for _, ka := range npKinds {
		for _, kb := range npKinds {
			t.Run(npPairName(ka, kb), func(t *testing.T) {
				for range n {
					a, ta, b, tb := npRandomPair(t, rng, ka, kb)
					exCheckPoints(t, a, ta, b, tb, 1e-9)
					if t.Failed() {
						return
					}
				}
			})
		}
	}
}
