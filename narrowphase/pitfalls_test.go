package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// npCase is one hand-computed pair: B placed by tb against A placed by ta.
type npCase struct {
	name   string
	a      shape.Shape
	ta     shape.Transform
	b      shape.Shape
	tb     shape.Transform
	hit    bool
	depth  float64    // hand-computed penetration depth, when hit
	normal shape.Vec2 // hand-computed unit normal from A to B; zero where directions tie
}

// translated returns c with both shapes moved by d.
func (c npCase) translated(d shape.Vec2) npCase {
	c.ta, c.tb = npMoved(c.ta, d), npMoved(c.tb, d)
	return c
}

// npCheckCase runs Collide and Overlap on c in both argument orders and
// compares them with the hand-computed answer. oracleTol bounds the
// oracle's disagreement with the hand-computed depth (a check of the test
// itself, relative to the depth and to 1).
func npCheckCase(t *testing.T, c npCase, oracleTol float64) {
	t.Helper()
	a, b := npPlace(c.a, c.ta), npPlace(c.b, c.tb)
	scale := npExtent(a, b)
	o := exactOracle(a, b)
	if c.hit && math.Abs(o.Depth-c.depth) > oracleTol*math.Max(1, c.depth) {
		t.Errorf("test bug: oracle depth %.17g, hand-computed %.17g", o.Depth, c.depth)
	}
	if !c.hit && o.Depth > oracleTol*scale {
		t.Errorf("test bug: oracle depth %.17g, want ≤ 0 for a case that must not hit", o.Depth)
	}
	tol := npRelTol * math.Max(1, c.depth)
	orders := []struct {
		a      shape.Shape
		ta     shape.Transform
		b      shape.Shape
		tb     shape.Transform
		pa, pb npShape
		normal shape.Vec2
	}{
		{c.a, c.ta, c.b, c.tb, a, b, c.normal},
		{c.b, c.tb, c.a, c.ta, b, a, c.normal.Neg()},
	}
	for _, or := range orders {
		call := npCall(or.a, or.b)
		m, hit := narrowphase.Collide(or.a, or.ta, or.b, or.tb)
		if ov := narrowphase.Overlap(or.a, or.ta, or.b, or.tb); ov != c.hit {
			t.Errorf("Overlap(%s, %s) = %v, want %v", or.a.Kind(), or.b.Kind(), ov, c.hit)
		}
		if hit != c.hit {
			t.Errorf("%s hit = %v, want %v (got Depth %.17g, Normal %v)", call, hit, c.hit, m.Depth, m.Normal)
			continue
		}
		if !hit {
			continue
		}
		npCheckManifold(t, call, m, or.pa, or.pb)
		if math.Abs(m.Depth-c.depth) > tol {
			t.Errorf("%s.Depth = %.17g, want %.17g", call, m.Depth, c.depth)
		}
		if or.normal != (shape.Vec2{}) {
			if math.Hypot(m.Normal.X-or.normal.X, m.Normal.Y-or.normal.Y) > 1e-9 {
				t.Errorf("%s.Normal = %v, want %v", call, m.Normal, or.normal)
			}
		} else if got := npPush(or.pa, or.pb, m.Normal); math.Abs(got-c.depth) > tol+1e-15*scale {
			t.Errorf("%s: overlap along Normal %v is %.17g, want Depth %.17g", call, m.Normal, got, c.depth)
		}
		far := npMoved(or.tb, m.Normal.Scale(m.Depth*1.001))
		if _, hit := narrowphase.Collide(or.a, or.ta, or.b, far); hit {
			t.Errorf("%s after moving B by Normal*Depth*1.001 still hits", call)
		}
		near := npMoved(or.tb, m.Normal.Scale(m.Depth*0.99))
		if _, hit := narrowphase.Collide(or.a, or.ta, or.b, near); !hit {
			t.Errorf("%s after moving B by Normal*Depth*0.99 no longer hits", call)
		}
	}
}

// npRunCases runs each case as a subtest.
func npRunCases(t *testing.T, cases []npCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { npCheckCase(t, c, 1e-12) })
	}
}

// npAtV returns the unrotated transform at p.
func npAtV(p shape.Vec2) shape.Transform { return shape.Transform{Pos: p} }

// npRotated returns p rotated by angle.
func npRotated(p shape.Vec2, angle float64) shape.Vec2 {
	s, c := math.Sincos(angle)
	return xy(c*p.X-s*p.Y, s*p.X+c*p.Y)
}

// npHexagon returns the regular hexagon of circumradius 1 with a vertex at
// (1, 0): the edge
// normals next to that vertex are at ±30°, so a disc of radius r centred on
// the x axis at distance d beyond the vertex overlaps on every edge axis
// while d < r/cos 30°, but touches only while d < r.
func npHexagon(t testing.TB) shape.Shape {
	t.Helper()
	var pts []shape.Vec2
	for i := range 6 {
		s, c := math.Sincos(float64(i) * math.Pi / 3)
		pts = append(pts, xy(c, s))
	}
	pts[0] = xy(1, 0)
	return npPolygon(t, pts...)
}

func npSquare(t testing.TB, h float64) shape.Shape {
	t.Helper()
	return npPolygon(t, xy(-h, -h), xy(h, -h), xy(h, h), xy(-h, h))
}

func circlePolygonCornerCases(t *testing.T) []npCase {
	sq2 := math.Sqrt2
	a30 := math.Pi / 6
	return []npCase{
		{name: "square corner diagonal apart", a: npSquare(t, 1), b: npCircle(t, 1), tb: npAt(1.8, 1.8, 0)},
		{name: "square corner diagonal overlap", a: npSquare(t, 1), b: npCircle(t, 1), tb: npAt(1.6, 1.6, 0),
			hit: true, depth: 1 - 0.6*sq2, normal: xy(1/sq2, 1/sq2)},
		{name: "rotated square corner apart", a: npSquare(t, 1), ta: npAt(3, -2, a30),
			b: npCircle(t, 1), tb: npAtV(xy(3, -2).Add(npRotated(xy(1.8, 1.8), a30)))},
		{name: "rotated square corner overlap", a: npSquare(t, 1), ta: npAt(3, -2, a30),
			b: npCircle(t, 1), tb: npAtV(xy(3, -2).Add(npRotated(xy(1.6, 1.6), a30))),
			hit: true, depth: 1 - 0.6*sq2, normal: npRotated(xy(1/sq2, 1/sq2), a30)},
		{name: "hexagon vertex apart", a: npHexagon(t), b: npCircle(t, 1), tb: npAt(2.07, 0, 0)},
		{name: "hexagon vertex apart offset circle", a: npHexagon(t),
			b: npOffsetCircle(t, xy(0, 0.5), 1), tb: npAt(2.57, 0, math.Pi/2)},
		{name: "hexagon vertex overlap", a: npHexagon(t), b: npCircle(t, 1), tb: npAt(1.93, 0, 0),
			hit: true, depth: 0.07, normal: xy(1, 0)},
	}
}

// TestCirclePolygonCornerDiagonalNoHit covers the classic SAT mistake of
// testing a circle only against the polygon's edge normals: beside a corner
// every edge axis overlaps, yet the disc is apart from the corner.
func TestCirclePolygonCornerDiagonalNoHit(t *testing.T) {
	npRunCases(t, circlePolygonCornerCases(t))
}

func circleBoxCornerCases(t *testing.T) []npCase {
	sq2 := math.Sqrt2
	a30, a120 := math.Pi/6, 2*math.Pi/3
	obbAt := npAt(5, -3, a120)
	return []npCase{
		{name: "aabb square corner apart", a: npAABB(t, 1, 1), b: npCircle(t, 1), tb: npAt(1.8, 1.8, 0)},
		{name: "aabb square corner apart, rotated body", a: npAABB(t, 1, 1), ta: npAt(0, 0, math.Pi/4), b: npCircle(t, 1), tb: npAt(1.8, 1.8, 0)},
		{name: "aabb square corner overlap", a: npAABB(t, 1, 1), b: npCircle(t, 1), tb: npAt(1.6, 1.6, 0),
			hit: true, depth: 1 - 0.6*sq2, normal: xy(1/sq2, 1/sq2)},
		{name: "aabb wide corner apart", a: npAABB(t, 2, 0.5), b: npCircle(t, 1), tb: npAt(2.75, 1.25, 0)},
		{name: "aabb wide corner overlap", a: npAABB(t, 2, 0.5), b: npCircle(t, 1), tb: npAt(2.7, -1.2, 0),
			hit: true, depth: 1 - 0.7*sq2, normal: xy(1/sq2, -1/sq2)},
		{name: "obb corner apart", a: npOBB(t, 1, 1), ta: npAt(0, 0, a30), b: npCircle(t, 1), tb: npAtV(npRotated(xy(1.8, 1.8), a30))},
		{name: "obb corner overlap", a: npOBB(t, 1, 1), ta: npAt(0, 0, a30), b: npCircle(t, 1), tb: npAtV(npRotated(xy(1.6, 1.6), a30)),
			hit: true, depth: 1 - 0.6*sq2, normal: npRotated(xy(1/sq2, 1/sq2), a30)},
		{name: "obb wide corner apart", a: npOBB(t, 2, 0.5), ta: obbAt, b: npCircle(t, 1), tb: npAtV(obbAt.Apply(xy(-2.75, 1.25)))},
		{name: "obb wide corner overlap", a: npOBB(t, 2, 0.5), ta: obbAt, b: npCircle(t, 1), tb: npAtV(obbAt.Apply(xy(-2.7, 1.2))),
			hit: true, depth: 1 - 0.7*sq2, normal: npRotated(xy(-1/sq2, 1/sq2), a120)},
	}
}

// TestCircleBoxCornerDiagonalNoHit is the same pitfall for both box kinds.
func TestCircleBoxCornerDiagonalNoHit(t *testing.T) {
	npRunCases(t, circleBoxCornerCases(t))
}

// touchCase is an exactly touching pair (all coordinates exact in binary) and
// the unit direction n from A to B across the contact.
type touchCase struct {
	npCase
	n shape.Vec2
}

func touchingCases(t *testing.T) []touchCase {
	q90 := shape.Transform{Rot: npRot90}
	tr := func(x, y float64, r shape.Rot) shape.Transform { return shape.Transform{Pos: xy(x, y), Rot: r} }
	sq2 := math.Sqrt2
	c := func(name string, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, n shape.Vec2) touchCase {
		return touchCase{npCase{name: name, a: a, ta: ta, b: b, tb: tb}, n}
	}
	return []touchCase{
		c("circle-circle", npCircle(t, 1), shape.Identity, npCircle(t, 0.5), npAt(1.5, 0, 0), xy(1, 0)),
		c("circle-circle 3-4-5", npCircle(t, 2), shape.Identity, npCircle(t, 3), npAt(3, 4, 0), xy(0.6, 0.8)),
		c("circle-aabb face", npCircle(t, 0.5), npAt(-1.5, 0.25, 0), npAABB(t, 1, 1), shape.Identity, xy(1, 0)),
		c("circle-aabb corner 3-4-5", npCircle(t, 5), npAt(4, 5, 0), npAABB(t, 1, 1), shape.Identity, xy(-0.6, -0.8)),
		c("circle-obb face", npCircle(t, 0.5), npAt(1, 1.5, 0), npOBB(t, 2, 0.5), q90, xy(-1, 0)),
		c("circle-polygon face", npCircle(t, 0.25), npAt(0.5, 1.25, 0), npSquare(t, 1), shape.Identity, xy(0, -1)),
		c("aabb-aabb face", npAABB(t, 1, 1), shape.Identity, npAABB(t, 0.5, 2), npAt(1.5, 0.25, 0), xy(1, 0)),
		c("aabb-aabb corner", npAABB(t, 1, 1), shape.Identity, npAABB(t, 0.5, 0.5), npAt(1.5, 1.5, 0), xy(1/sq2, 1/sq2)),
		c("aabb-obb face", npAABB(t, 1, 1), shape.Identity, npOBB(t, 2, 0.5), tr(1.5, 0.5, npRot90), xy(1, 0)),
		c("aabb-polygon edge on face", npAABB(t, 1, 1), shape.Identity, npPolygon(t, xy(1, -0.5), xy(2, 0), xy(1, 0.5)), shape.Identity, xy(1, 0)),
		c("aabb-polygon vertex on face", npAABB(t, 1, 1), shape.Identity, npPolygon(t, xy(1, 0), xy(2, -1), xy(2, 1)), shape.Identity, xy(1, 0)),
		c("obb-obb face", npOBB(t, 1, 0.5), shape.Identity, npOBB(t, 1, 0.5), tr(0, 1, npRot180), xy(0, 1)),
		c("obb-obb quarter turns", npOBB(t, 1, 0.5), q90, npOBB(t, 0.5, 0.25), tr(0.75, 0.25, npRot270), xy(1, 0)),
		c("obb-polygon face", npOBB(t, 1, 1), tr(2, 2, npRot90), npSquare(t, 0.5), tr(3.5, 2.25, npRot180), xy(1, 0)),
		c("polygon-polygon edge on edge", npSquare(t, 1), shape.Identity,
			npPolygon(t, xy(0, -1), xy(2, -1), xy(3, 0), xy(2, 1), xy(0, 1)), npAt(1, 0.5, 0), xy(1, 0)),
		c("polygon-polygon vertex on vertex", npSquare(t, 1), shape.Identity, npSquare(t, 0.5), npAt(1.5, -1.5, 0), xy(1/sq2, -1/sq2)),
		c("circle-capsule side", npCircle(t, 0.5), npAt(0, 1.5, 0), npCapsule(t, xy(-1, 0), xy(1, 0), 1), shape.Identity, xy(0, -1)),
		c("circle-capsule end cap 3-4-5", npCircle(t, 3), npAt(4, 4, 0), npCapsule(t, xy(-1, 0), xy(1, 0), 2), shape.Identity, xy(-0.6, -0.8)),
		c("circle-segment side", npCircle(t, 0.5), npAt(0, 0.5, 0), npSegment(t, xy(-1, 0), xy(1, 0)), shape.Identity, xy(0, -1)),
		c("circle-segment end", npCircle(t, 0.5), npAt(1.5, 0, 0), npSegment(t, xy(-1, 0), xy(1, 0)), shape.Identity, xy(-1, 0)),
		c("aabb-capsule face", npAABB(t, 1, 1), shape.Identity, npCapsule(t, xy(2, -1), xy(2, 1), 1), shape.Identity, xy(1, 0)),
		c("aabb-segment on face", npAABB(t, 1, 1), shape.Identity, npSegment(t, xy(1, -2), xy(1, 2)), shape.Identity, xy(1, 0)),
		c("obb-capsule end cap", npOBB(t, 1, 0.5), q90, npCapsule(t, xy(1.5, 0), xy(3, 0), 1), shape.Identity, xy(1, 0)),
		c("obb-segment end on face", npOBB(t, 1, 0.5), shape.Identity, npSegment(t, xy(1, 0), xy(2, 0)), shape.Identity, xy(1, 0)),
		c("polygon-capsule end cap", npSquare(t, 1), shape.Identity, npCapsule(t, xy(0, 2), xy(0, 3), 1), shape.Identity, xy(0, 1)),
		c("polygon-segment on face", npSquare(t, 1), shape.Identity, npSegment(t, xy(-0.5, 1), xy(0.5, 1)), shape.Identity, xy(0, 1)),
		c("capsule-capsule parallel", npCapsule(t, xy(-1, 0), xy(1, 0), 0.5), shape.Identity, npCapsule(t, xy(-1, 1), xy(1, 1), 0.5), shape.Identity, xy(0, 1)),
		c("capsule-capsule end to end", npCapsule(t, xy(-1, 0), xy(1, 0), 0.5), shape.Identity, npCapsule(t, xy(2, 0), xy(4, 0), 0.5), shape.Identity, xy(1, 0)),
		c("capsule-segment parallel", npCapsule(t, xy(-1, 0), xy(1, 0), 0.5), shape.Identity, npSegment(t, xy(-2, 0.5), xy(2, 0.5)), shape.Identity, xy(0, 1)),
	}
}

// TestEdgeToEdgeTouchingNoHit checks that shapes that only touch, for every
// kind pair, do not collide, while the same pair pushed 0.001 closer does
// and pushed 0.001 apart does not.
func TestEdgeToEdgeTouchingNoHit(t *testing.T) {
	seen := map[[2]shape.Kind]bool{}
	for _, tc := range touchingCases(t) {
		seen[[2]shape.Kind{tc.a.Kind(), tc.b.Kind()}] = true
		seen[[2]shape.Kind{tc.b.Kind(), tc.a.Kind()}] = true
		t.Run(tc.name, func(t *testing.T) {
			npCheckCase(t, tc.npCase, 1e-15)
			var rep npReport
			for _, d := range []float64{-1e-3, 1e-3} {
				tb := npMoved(tc.tb, tc.n.Scale(d))
				npCheckPair(t, tc.a, tc.ta, tc.b, tb, 3600, &rep)
			}
			if rep.hits != 1 {
				t.Errorf("pushed 0.001 closer and apart gave %d hits, want 1", rep.hits)
			}
		})
	}
	// Segments never collide with each other (TestSegmentSegmentNeverCollides).
	seen[[2]shape.Kind{shape.KindSegment, shape.KindSegment}] = true
	for _, ka := range npKinds {
		for _, kb := range npKinds {
			if !seen[[2]shape.Kind{ka, kb}] {
				t.Errorf("no touching case for %s", npPairName(ka, kb))
			}
		}
	}
}

func containedCases(t *testing.T) []npCase {
	return []npCase{
		{name: "circle in aabb", a: npAABB(t, 5, 3), b: npCircle(t, 0.5), tb: npAt(3.5, 2.2, 0),
			hit: true, depth: 1.3, normal: xy(0, 1)},
		{name: "rotated obb in polygon", a: npPolygon(t, xy(-4, -2), xy(4, -2), xy(4, 2), xy(-4, 2)),
			b: npOBB(t, 0.5, 0.5), tb: npAt(1, 1.2, math.Pi/4),
			hit: true, depth: 0.8 + math.Sqrt2/2, normal: xy(0, 1)},
		{name: "aabb in circle", a: npCircle(t, 5), b: npAABB(t, 0.5, 0.5), tb: npAt(2, 1, 0),
			hit: true, depth: 5 - math.Sqrt(2.5), normal: xy(3/math.Sqrt(10), 1/math.Sqrt(10))},
		{name: "triangle in quarter-turned obb", a: npOBB(t, 4, 2), ta: shape.Transform{Rot: npRot90},
			b: npPolygon(t, xy(-0.5, -0.5), xy(0.5, -0.5), xy(0, 0.5)), tb: npAt(1.2, 2.5, 0),
			hit: true, depth: 1.3, normal: xy(1, 0)},
		{name: "square in triangle", a: npPolygon(t, xy(0, 0), xy(10, 0), xy(0, 10)),
			b: npSquare(t, 0.5), tb: npAt(1, 6, 0),
			hit: true, depth: 1.5, normal: xy(-1, 0)},
		{name: "circle in circle", a: npCircle(t, 3), b: npCircle(t, 1), tb: npAt(0.6, 0.8, 0),
			hit: true, depth: 3, normal: xy(0.6, 0.8)},
	}
}

// TestContainedShapeShortestExit checks that a small shape deep inside a big
// one, off-centre, gets the shortest way out, which is not the
// centre-to-centre direction.
func TestContainedShapeShortestExit(t *testing.T) {
	for _, c := range containedCases(t) {
		t.Run(c.name, func(t *testing.T) {
			ca, cb := npPlace(c.a, c.ta), npPlace(c.b, c.tb)
			centre := func(p npShape) shape.Vec2 {
				if p.disc {
					return p.c
				}
				var s shape.Vec2
				for _, q := range p.verts {
					s = s.Add(q)
				}
				return s.Scale(1 / float64(len(p.verts)))
			}
			cc := centre(cb).Sub(centre(ca)).Normalize()
			if c.name != "circle in circle" && math.Abs(cc.Dot(c.normal)-1) < 1e-3 {
				t.Fatalf("test bug: the normal %v is the centre-to-centre direction", c.normal)
			}
			npCheckCase(t, c, 1e-12)
		})
	}
}

// TestAABBBodyRotated90StaysAxisAligned checks that an AABB shape ignores
// its transform's rotation: any angle gives exactly the answer of angle 0,
// and the hand-computed one, for every partner kind in both orders.
func TestAABBBodyRotated90StaysAxisAligned(t *testing.T) {
	box := npAABB(t, 2, 0.5)
	partners := []npCase{
		{name: "circle", b: npCircle(t, 0.5), tb: npAt(2.3, 0, 0)},
		{name: "aabb", b: npAABB(t, 0.5, 0.5), tb: npAt(2.3, 0.2, 0)},
		{name: "obb", b: npOBB(t, 0.5, 0.5), tb: npAt(2.3, 0.2, 0)},
		{name: "polygon", b: npSquare(t, 0.5), tb: npAt(2.3, 0.2, 0)},
	}
	angles := []float64{math.Pi / 2, math.Pi / 4, -math.Pi / 3, math.Pi, 3}
	for _, p := range partners {
		t.Run(p.name, func(t *testing.T) {
			c := npCase{name: p.name, a: box, ta: npAt(0, 0, 0), b: p.b, tb: p.tb, hit: true, depth: 0.2, normal: xy(1, 0)}
			npCheckCase(t, c, 1e-12)
			m0, _ := narrowphase.Collide(c.a, c.ta, c.b, c.tb)
			r0, _ := narrowphase.Collide(c.b, c.tb, c.a, c.ta)
			for _, ang := range angles {
				ta := npAt(0, 0, ang)
				if m, _ := narrowphase.Collide(c.a, ta, c.b, c.tb); m != m0 {
					t.Errorf("Collide(aabb at %.3g rad, %s) = %+v, want %+v as at angle 0", ang, p.b.Kind(), m, m0)
				}
				if m, _ := narrowphase.Collide(c.b, c.tb, c.a, ta); m != r0 {
					t.Errorf("Collide(%s, aabb at %.3g rad) = %+v, want %+v as at angle 0", p.b.Kind(), ang, m, r0)
				}
				c2 := c
				c2.ta = ta
				npCheckCase(t, c2, 1e-12)
				if p.b.Kind() == shape.KindAABB {
					c2.tb = npMoved(npAt(0, 0, ang+1), c.tb.Pos)
					npCheckCase(t, c2, 1e-12)
				}
			}
		})
	}
}

func obbRotationCases(t *testing.T) []npCase {
	obb := npOBB(t, 1, 0.5)
	s2 := math.Sqrt2
	d45, d90, d180 := math.Pi/4, math.Pi/2, math.Pi
	return []npCase{
		{name: "0°/circle", a: obb, b: npCircle(t, 0.5), tb: npAt(1.3, 0, 0), hit: true, depth: 0.2, normal: xy(1, 0)},
		{name: "0°/aabb", a: obb, b: npAABB(t, 0.5, 0.5), tb: npAt(1.3, 0, 0), hit: true, depth: 0.2, normal: xy(1, 0)},
		{name: "0°/obb", a: obb, b: npOBB(t, 0.5, 0.5), tb: npAt(1.3, 0, 0), hit: true, depth: 0.2, normal: xy(1, 0)},
		{name: "45°/circle", a: obb, ta: npAt(0, 0, d45), b: npCircle(t, 0.5), tb: npAt(1.3, 0, 0),
			hit: true, depth: 1 - 1.3/s2, normal: xy(1/s2, -1/s2)},
		{name: "45°/aabb", a: obb, ta: npAt(0, 0, d45), b: npAABB(t, 0.5, 0.5), tb: npAt(1.3, 0, 0),
			hit: true, depth: 1.5/s2 - 0.8, normal: xy(1, 0)},
		{name: "45°/obb same rotation", a: obb, ta: npAt(0, 0, d45), b: npOBB(t, 0.5, 0.5), tb: npAt(1.3/s2, 1.3/s2, d45),
			hit: true, depth: 0.2, normal: xy(1/s2, 1/s2)},
		{name: "45°/obb quarter turn", a: obb, ta: npAt(0, 0, d45), b: npOBB(t, 0.6, 0.4), tb: npAt(1.3/s2, 1.3/s2, d45+d90),
			hit: true, depth: 0.1, normal: xy(1/s2, 1/s2)},
		{name: "90°/circle apart", a: obb, ta: npAt(0, 0, d90), b: npCircle(t, 0.5), tb: npAt(1.3, 0, 0)},
		{name: "90°/aabb apart", a: obb, ta: npAt(0, 0, d90), b: npAABB(t, 0.5, 0.5), tb: npAt(1.3, 0, 0)},
		{name: "90°/circle", a: obb, ta: npAt(0, 0, d90), b: npCircle(t, 0.5), tb: npAt(0.3, 1.2, 0), hit: true, depth: 0.3, normal: xy(0, 1)},
		{name: "90°/aabb", a: obb, ta: npAt(0, 0, d90), b: npAABB(t, 0.5, 0.5), tb: npAt(0.3, 1.2, 0), hit: true, depth: 0.3, normal: xy(0, 1)},
		{name: "90°/obb", a: obb, ta: npAt(0, 0, d90), b: npOBB(t, 0.5, 0.5), tb: npAt(0.3, 1.2, 0), hit: true, depth: 0.3, normal: xy(0, 1)},
		{name: "180°/circle", a: obb, ta: npAt(0, 0, d180), b: npCircle(t, 0.5), tb: npAt(1.3, 0, 0), hit: true, depth: 0.2, normal: xy(1, 0)},
		{name: "180°/aabb", a: obb, ta: npAt(0, 0, d180), b: npAABB(t, 0.5, 0.5), tb: npAt(1.3, 0, 0), hit: true, depth: 0.2, normal: xy(1, 0)},
		{name: "180°/obb", a: obb, ta: npAt(0, 0, d180), b: npOBB(t, 0.5, 0.5), tb: npAt(1.3, 0, 0), hit: true, depth: 0.2, normal: xy(1, 0)},
	}
}

// TestOBBRotations checks OBBs at 0°, 45°, 90° and 180° against boxes and a
// circle with hand-computed depths.
func TestOBBRotations(t *testing.T) {
	npRunCases(t, obbRotationCases(t))
}

func coincidentCases(t *testing.T) []npCase {
	return []npCase{
		{name: "circles", a: npCircle(t, 1), ta: npAt(3, 4, 0), b: npCircle(t, 0.5), tb: npAt(3, 4, 0), hit: true, depth: 1.5},
		{name: "equal circles at origin", a: npCircle(t, 1), b: npCircle(t, 1), hit: true, depth: 2},
		{name: "offset circles", a: npOffsetCircle(t, xy(1, 0), 1), ta: npAt(3, 3, math.Pi/2), b: npCircle(t, 0.5), tb: npAt(3, 4, 0), hit: true, depth: 1.5},
		{name: "circle at aabb centre", a: npAABB(t, 1, 2), ta: npAt(-2, 7, 1), b: npCircle(t, 0.5), tb: npAt(-2, 7, 0), hit: true, depth: 1.5},
		{name: "circle at obb centre", a: npOBB(t, 2, 1), ta: npAt(-2, 7, 1), b: npCircle(t, 0.5), tb: npAt(-2, 7, 0), hit: true, depth: 1.5},
		{name: "circle at square centre", a: npSquare(t, 1), ta: npAt(5, 5, 0.3), b: npCircle(t, 0.5), tb: npAt(5, 5, 0), hit: true, depth: 1.5},
		{name: "equal boxes", a: npAABB(t, 1, 1), b: npOBB(t, 1, 1), tb: npAt(0, 0, math.Pi/2), hit: true, depth: 2},
	}
}

// TestCircleCoincidentCentres checks shapes whose centres coincide: every
// direction (or several) is a shortest way out, and none may give NaN.
func TestCircleCoincidentCentres(t *testing.T) {
	npRunCases(t, coincidentCases(t))
}

// TestLargeCoordinates runs every hand-computed case again, translated by
// (1e6, -1e6): the answers must not change beyond 1e-9 relative.
func TestLargeCoordinates(t *testing.T) {
	off := xy(1e6, -1e6)
	groups := map[string][]npCase{
		"circle-polygon corner": circlePolygonCornerCases(t),
		"circle-box corner":     circleBoxCornerCases(t),
		"contained":             containedCases(t),
		"obb rotations":         obbRotationCases(t),
		"coincident":            coincidentCases(t),
		"centre on boundary":    circleCentreOnBoundaryCases(t),
	}
	for _, tc := range touchingCases(t) {
		groups["touching"] = append(groups["touching"], tc.npCase)
	}
	for g, cases := range groups {
		for _, c := range cases {
			t.Run(g+"/"+c.name, func(t *testing.T) {
				m0, hit0 := narrowphase.Collide(c.a, c.ta, c.b, c.tb)
				far := c.translated(off)
				m, hit := narrowphase.Collide(far.a, far.ta, far.b, far.tb)
				if hit != hit0 {
					t.Fatalf("%s hit = %v at (1e6, -1e6), %v at the origin", npCall(c.a, c.b), hit, hit0)
				}
				// Adding 1e6 rounds a position by up to 6e-11, which moves the
				// shapes relative to each other: the tolerance cannot shrink
				// below 1e-9 for small depths.
				if hit && math.Abs(m.Depth-m0.Depth) > npRelTol*math.Max(1, m0.Depth) {
					t.Errorf("%s.Depth = %.17g at (1e6, -1e6), want %.17g as at the origin", npCall(c.a, c.b), m.Depth, m0.Depth)
				}
				// The oracle works in world coordinates, so it is only
				// trusted to 1e-8 out here.
				npCheckCase(t, far, 1e-8)
			})
		}
	}
}

func circleCentreOnBoundaryCases(t *testing.T) []npCase {
	s2 := math.Sqrt2
	tri := npPolygon(t, xy(0, 0), xy(4, 0), xy(0, 3))
	triAt := npAt(1, 2, math.Pi/6)
	obbAt := npAt(-3, 1, 1)
	// centred returns a circle transform whose world centre is p.
	centred := func(p shape.Vec2) shape.Transform { return npAtV(p) }
	cases := []npCase{
		{name: "fuzz regression: offset circle on triangle edge",
			a: npOffsetCircle(t, xy(0.5, 0), 0.2), ta: shape.Transform{Rot: shape.RotFromCosSin(0.7071067811865476, 0.7071067811865475)},
			b:   npPolygon(t, xy(0, 0), xy(64, 0), xy(0, 50)),
			tb:  shape.Transform{Pos: xy(0.9192388155425117, 0.9192388155425117), Rot: shape.RotFromCosSin(-0.7071067811865475, 0.7071067811865476)},
			hit: true, depth: 0.2, normal: xy(-1/s2, 1/s2)},
		{name: "triangle hypotenuse midpoint", a: tri, ta: triAt, b: npCircle(t, 0.3), tb: centred(triAt.Apply(xy(2, 1.5))),
			hit: true, depth: 0.3, normal: npRotated(xy(0.6, 0.8), math.Pi/6)},
		{name: "triangle vertex", a: tri, ta: triAt, b: npCircle(t, 0.3), tb: centred(triAt.Apply(xy(4, 0))),
			hit: true, depth: 0.3},
		{name: "obb face", a: npOBB(t, 2, 1), ta: obbAt, b: npCircle(t, 0.25), tb: centred(obbAt.Apply(xy(0.7, 1))),
			hit: true, depth: 0.25, normal: npRotated(xy(0, 1), 1)},
		{name: "obb corner", a: npOBB(t, 2, 1), ta: obbAt, b: npCircle(t, 0.25), tb: centred(obbAt.Apply(xy(-2, 1))),
			hit: true, depth: 0.25},
		{name: "aabb face", a: npAABB(t, 2, 1), ta: npAt(0.1, 0.2, 1), b: npCircle(t, 0.25), tb: npAt(2.1, 0.7, 0),
			hit: true, depth: 0.25, normal: xy(1, 0)},
	}
	for _, ang := range []float64{0.1, 1, 2, 3, -2.5} {
		at := npAt(7, -3, ang)
		for i, p := range []shape.Vec2{xy(0.3, 1), xy(-1, 0.2), xy(0.6, -1), xy(1, -0.45)} {
			n := []shape.Vec2{xy(0, 1), xy(-1, 0), xy(0, -1), xy(1, 0)}[i]
			cases = append(cases, npCase{name: "square edge", a: npSquare(t, 1), ta: at, b: npCircle(t, 0.25),
				tb: centred(at.Apply(p)), hit: true, depth: 0.25, normal: npRotated(n, ang)})
		}
	}
	return cases
}

// TestCircleCentreOnPolygonEdge is named after a bug found by FuzzCollide: a
// circle whose centre lies on a polygon edge, up to rounding, got the depth
// right but a normal of rounding noise, from normalising a vector of length
// 1e-17. On an edge the normal is the face normal; on a vertex any normal of
// the vertex's cone, and the depth is the radius.
func TestCircleCentreOnPolygonEdge(t *testing.T) {
	npRunCases(t, circleCentreOnBoundaryCases(t))
}
