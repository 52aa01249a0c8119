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
