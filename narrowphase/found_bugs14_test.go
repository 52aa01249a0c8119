package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// h14Want is the expected contact of a pair: normal from a to b, depth
// and one contact point, each to within tol.
type h14Want struct {
	normal, point shape.Vec2
	depth, tol    float64
}

// h14CheckCollide checks Collide(a, b) and the flipped Collide(b, a)
// against want, which has one contact point.
func h14CheckCollide(t *testing.T, name string, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, want h14Want) {
	t.Helper()
	for _, flip := range []bool{false, true} {
		x, tx, y, ty, wn := a, ta, b, tb, want.normal
		if flip {
			x, tx, y, ty, wn = b, tb, a, ta, want.normal.Neg()
		}
		m, ok := narrowphase.Collide(x, tx, y, ty)
		if !ok {
			t.Errorf("%s (flipped %v): Collide = false, want depth %.17g", name, flip, want.depth)
			continue
		}
		if math.Abs(m.Depth-want.depth) > want.tol || m.Normal.Sub(wn).Len() > want.tol/want.depth {
			t.Errorf("%s (flipped %v): Collide = normal %v depth %.17g, want %v depth %.17g", name, flip, m.Normal, m.Depth, wn, want.depth)
		}
		if m.Count != 1 || m.Points[0].Point.Sub(want.point).Len() > want.tol {
			t.Errorf("%s (flipped %v): Collide.Points = %+v (count %d), want one at %v", name, flip, m.Points, m.Count, want.point)
		}
	}
}

// TestTinyCapsuleNearHugeCornerBug: a capsule of radius 2⁻²⁰ (about 1e-6)
// whose core's end lies 2⁻²²·(1, 1) beyond the corner of a box (or square
// polygon, or the end of a segment or capsule core) of 2²⁰ (about 1e6)
// overlaps it by 2⁻²⁰ − 2⁻²²·√2 along the diagonal. hullCapsule and
// capsuleCapsule took cores closer than 1e-12 of their coordinates (8e-6
// here) as touching and answered along the face or side normal of the
// largest separation: normal (1, 0) and depth 2⁻²⁰ − 2⁻²² (16% deeper),
// and for the long capsule a contact point at its far end, 1e6 away. The
// direction between the two ends is good to ε of the coordinates over
// their gap, 1e-10 here.
func TestTinyCapsuleNearHugeCornerBug(t *testing.T) {
	p, g := 0x1p-20, 0x1p-22
	tiny, _ := shape.NewCapsule(shape.V(0, 0), shape.V(p, 0), p)
	tinyUp, _ := shape.NewCapsule(shape.V(0, 0), shape.V(0, p), p)
	box, _ := shape.NewAABB(0x1p20, 0x1p20)
	obb, _ := shape.NewOBB(0x1p20, 0x1p20)
	square, _ := shape.NewPolygon([]shape.Vec2{{X: -0x1p20, Y: -0x1p20}, {X: 0x1p20, Y: -0x1p20}, {X: 0x1p20, Y: 0x1p20}, {X: -0x1p20, Y: 0x1p20}})
	seg, _ := shape.NewSegment(shape.V(-0x1p20, 0), shape.V(0, 0))
	long, _ := shape.NewCapsule(shape.V(-0x1p20, 0), shape.V(0, 0), 0.5)
	n := shape.V(1, 1).Normalize()
	gap := g * math.Sqrt2
	for _, c := range []struct {
		name   string
		a, b   shape.Shape
		corner shape.Vec2 // the end or corner of a nearest b
		ra     float64
	}{
		{"aabb", box, tiny, shape.V(0x1p20, 0x1p20), 0},
		{"obb", obb, tiny, shape.V(0x1p20, 0x1p20), 0},
		{"polygon", square, tiny, shape.V(0x1p20, 0x1p20), 0},
		{"polygon-up", square, tinyUp, shape.V(0x1p20, 0x1p20), 0},
		{"segment", seg, tiny, shape.V(0, 0), 0},
		{"segment-up", seg, tinyUp, shape.V(0, 0), 0},
		{"capsule", long, tiny, shape.V(0, 0), 0.5},
		{"capsule-up", long, tinyUp, shape.V(0, 0), 0.5},
	} {
		end := c.corner.Add(shape.V(g, g)) // b's core end nearest a
		depth := c.ra + p - gap
		// Midway between a's surface, ra out from the corner, and b's, p
		// back from its end.
		point := c.corner.Add(n.Scale(c.ra)).Add(end.Sub(n.Scale(p))).Scale(0.5)
		h14CheckCollide(t, c.name, c.a, shape.Transform{}, c.b, shape.Transform{Pos: end},
			h14Want{normal: n, point: point, depth: depth, tol: 1e-9 * p})
	}
}

// TestCollinearCapsuleCoresApartBug: a capsule of core (0, 0)–(1, 25) and
// radius 1 and a segment or capsule whose core (1.25, 31.25)–(2.25, 56.25)
// runs on along the same line, 0.25·√626 ≈ 6.255 beyond its end. The
// segment is 5.255 away and a capsule of radius 5 0.255 away: neither
// collides; one of radius 5.5 overlaps by 6.5 − 6.255 along the line.
// capsuleCapsule decided that the cores cross by the signs of their ends'
// rounded side distances, which for collinear cores are rounding of either
// sign, and answered depth 1, 6 and 6.5 along the side normal.
func TestCollinearCapsuleCoresApartBug(t *testing.T) {
	a, _ := shape.NewCapsule(shape.V(0, 0), shape.V(1, 25), 1)
	p0, p1 := shape.V(1.25, 31.25), shape.V(2.25, 56.25)
	seg, _ := shape.NewSegment(p0, p1)
	near, _ := shape.NewCapsule(p0, p1, 5)
	over, _ := shape.NewCapsule(p0, p1, 5.5)
	for _, c := range []struct {
		name string
		b    shape.Shape
	}{{"segment", seg}, {"capsule r=5", near}} {
		for _, flip := range []bool{false, true} {
			x, y := a, c.b
			if flip {
				x, y = y, x
			}
			if m, ok := narrowphase.Collide(x, shape.Transform{}, y, shape.Transform{}); ok {
				t.Errorf("%s (flipped %v): Collide = %+v, want no contact", c.name, flip, m)
			}
			if narrowphase.Overlap(x, shape.Transform{}, y, shape.Transform{}) {
				t.Errorf("%s (flipped %v): Overlap = true, want false", c.name, flip)
			}
		}
	}
	// Midway between a's end cap, 1 beyond (1, 25), and b's, 5.5 back from
	// (1.25, 31.25), along the line.
	n := shape.V(1, 25).Normalize()
	depth := 6.5 - 0.25*math.Sqrt(626)
	point := shape.V(1, 25).Add(n.Scale(1)).Add(p0.Sub(n.Scale(5.5))).Scale(0.5)
	h14CheckCollide(t, "capsule r=5.5", a, shape.Transform{}, over, shape.Transform{},
		h14Want{normal: n, point: point, depth: depth, tol: 1e-12})
}

// TestCastFarApartBug: shapes far apart (1e16 to 1e298 times the motion)
// never touch, so Cast is no hit. Relative to b's position, a's vertices
// round to the ulp of the distance, far above the shapes' sizes, and the
// edges of their Minkowski difference along that axis round to zero
// length. castRounded checked that the hit's foot lies on an edge by its
// projection on the rounded edge, q·e in [0, e·e], which a zero edge
// passes wherever the foot is: it took the line of such an edge, crossed
// by the motion, or just behind the start (a rounding slack of 1e-12 of
// the coordinates, 1e27 at 1e39), as a touch at fraction 0 or 0.625.
func TestCastFarApartBug(t *testing.T) {
	capsule, _ := shape.NewCapsule(shape.V(-0.875, 1), shape.V(0.125, -0.25), 0.0625)
	box, _ := shape.NewAABB(0.75, 1.25)
	flat, _ := shape.NewCapsule(shape.V(-0.5, 0), shape.V(0.5, 0), 0.25)
	box2, _ := shape.NewAABB(0.75, 0.5)
	circle, _ := shape.NewCircle(1)
	seg, _ := shape.NewSegment(shape.V(0.375, -0.75), shape.V(0.125, -0.75))
	seg2, _ := shape.NewSegment(shape.V(-0.875, -0.75), shape.V(-0.125, -0.75))
	obb, _ := shape.NewOBB(0.625, 0.75)
	cap2, _ := shape.NewCapsule(shape.V(-0.875, 0.125), shape.V(-0.375, -0.75), 0.5)
	for _, c := range []struct {
		name  string
		a     shape.Shape
		ta    shape.Transform
		delta shape.Vec2
		b     shape.Shape
		tb    shape.Transform
	}{
		// World seed 7042910329207929745: a body moved 1e39 away.
		{"capsule-aabb 1e39", capsule, shape.Transform{Pos: shape.V(2.125, 11.375)}, shape.V(-5.25, -6), box, shape.Transform{Pos: shape.V(-1e39, 10.625)}},
		{"capsule-aabb 1e16", capsule, shape.Transform{Pos: shape.V(2.125, 11.375)}, shape.V(-5.25, -6), box, shape.Transform{Pos: shape.V(-1e16, 10.625)}},
		{"capsule-aabb crossing 1e20", flat, shape.Transform{Pos: shape.V(1e20, 2)}, shape.V(0, -2), box2, shape.Transform{}},
		{"circle-segment 1e298", circle, shape.NewTransform(shape.V(9.68649783388764, 6.948236523326242), -0.9292627983322971), shape.V(-1.3604548594344799, 9.779049537808568), seg, shape.Transform{Pos: shape.V(1e298, 6.948236523326242)}},
		{"segment-segment 1e258", seg2, shape.Transform{Pos: shape.V(9.90776981195536, 5.666431079748097)}, shape.V(4.604362338927375, -8.832240297222633), seg2, shape.Transform{Pos: shape.V(-1e258, 5.666431079748097)}},
		{"capsule-obb 1e162", cap2, shape.Transform{Pos: shape.V(2.2889571558295607, 0.6562847698135121)}, shape.V(-2.0458054867350945, 8.8643967232778), obb, shape.Transform{Pos: shape.V(2.2889571558295607, 1e162)}},
	} {
		if h, ok := narrowphase.Cast(c.a, c.ta, c.delta, c.b, c.tb); ok {
			t.Errorf("%s: Cast(%v, %v) = %+v, want no hit", c.name, c.a, c.b, h)
		}
		if h, ok := narrowphase.Cast(c.b, c.tb, c.delta.Neg(), c.a, c.ta); ok {
			t.Errorf("%s (flipped): Cast(%v, %v) = %+v, want no hit", c.name, c.b, c.a, h)
		}
	}
}
