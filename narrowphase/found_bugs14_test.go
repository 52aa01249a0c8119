package narrowphase_test

import (
	"fmt"
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
	obb2, _ := shape.NewOBB(1.625, 1.25)
	seg3, _ := shape.NewSegment(shape.V(-1, -0.375), shape.V(-0.75, -0.125))
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
		// A box 1e60 away along the diagonal: a's vertices all round to
		// one point, and M's merge kept 4 of its 6 edges.
		{"obb-segment 1e60", obb2, shape.Transform{Pos: shape.V(4.145503365113463, 4.6601434620295965), Rot: shape.NewRot(1.5)}, shape.V(-2.9698502844740737, -8.867079929552297), seg3, shape.Transform{Pos: shape.V(1e60, 1e60)}},
		// The motion as long as the distance, ending 0.75 below the box.
		{"capsule-aabb long motion 1e20", flat, shape.Transform{Pos: shape.V(1e20, 2)}, shape.V(-1e20, -3.5), box2, shape.Transform{}},
		{"capsule-obb 1e162", cap2, shape.Transform{Pos: shape.V(2.2889571558295607, 0.6562847698135121)}, shape.V(-2.0458054867350945, 8.8643967232778), obb, shape.Transform{Pos: shape.V(2.2889571558295607, 1e162)}},
	} {
		if h, ok := narrowphase.Cast(c.a, c.ta, c.delta, c.b, c.tb); ok {
			t.Errorf("%s: Cast(%v, %v) = %+v, want no hit", c.name, c.a, c.b, h)
		}
		if h, ok := narrowphase.Cast(c.b, c.tb, c.delta.Neg(), c.a, c.ta); ok {
			t.Errorf("%s (flipped): Cast(%v, %v) = %+v, want no hit", c.name, c.b, c.a, h)
		}
	}
	// The same capsule moved 1e20 onto the box: its cap's end, 0.75 left
	// of its centre, meets the box's right face at (0.75, 0) when 1.5e-20
	// of the motion is left, fraction 1 to rounding; the point is good to
	// the rounding of a's place, 1e-15 of 1e20.
	h, ok := narrowphase.Cast(flat, shape.Transform{Pos: shape.V(1e20, 2)}, shape.V(-1e20, -2), box2, shape.Transform{})
	if !ok || h.Fraction != 1 || h.Normal != shape.V(1, 0) || h.Point.Sub(shape.V(0.75, 0)).Len() > 1e5 {
		t.Errorf("capsule-aabb onto 1e20: Cast = %+v, %v, want fraction 1, normal (1, 0), point (0.75, 0) to 1e5", h, ok)
	}
}

// TestTinyCapsuleOnFaceLineBug: a tiny capsule or segment whose core lies
// on the line of a large shape's face or core (or within rounding of it),
// just beyond its end, apart from that end by less than 2⁻⁴⁶ of the
// coordinates (so touching: the direction between the nearest points is
// rounding, and the largest separation's axis holds). When that axis was
// the tiny core's side, the large shape's face or core was the incident
// feature, wholly beside the tiny core's span; clipSegments, finding no
// clipped point, took the deeper of its two ends, a tie up to rounding
// along the side normal, and gave a contact point at the far end: 1.6e6
// from the capsule across a huge OBB, 1.5e3 and 2.7e3 for the others.
// Every contact point must lie in the overlap: within both shapes, or
// half the depth from a segment.
func TestTinyCapsuleOnFaceLineBug(t *testing.T) {
	type pair struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}
	var pairs []pair
	// A capsule 1.239e-7 long and wide on the line of an OBB's face,
	// beyond its corner by u of its radius along the corner's bisector.
	r := 1.239e-7
	tiny, _ := shape.NewCapsule(shape.V(0, 0), shape.V(0, -r), r)
	obb, _ := shape.NewOBB(675860.34, 802818.04)
	rot := shape.RotFromCosSin(-0.9267378503032129, 0.3757086062567371)
	tb := shape.Transform{Pos: shape.V(1e6, -750000), Rot: rot}
	for _, u := range []float64{0.05, 0.3, 0.5} {
		g := u * r / math.Sqrt2
		ta := shape.Transform{Pos: tb.Apply(shape.V(675860.34+g, -802818.04-g)), Rot: rot}
		pairs = append(pairs, pair{fmt.Sprintf("capsule-obb u=%v", u), tiny, ta, obb, tb})
	}
	// From the oracle (TestHunt13CollideExactOracle, tiny-corner): a
	// polygon's vertex and a segment's end.
	cp, _ := shape.NewCapsule(shape.V(0, 0), shape.V(3.994964226763426e-10, 5.990227259653624e-10), 7.200177900261692e-10)
	poly, _ := shape.NewPolygon([]shape.Vec2{{X: -2459.801490975874, Y: 1180.23058486652}, {X: -2263.2070573168958, Y: -2573.539380546452}, {X: 1208.9770434938619, Y: -3078.5485206243375}, {X: 2953.8956487996993, Y: -1601.3311049560687}, {X: 3464.628977508375, Y: 729.3404292294072}, {X: -1588.292101137702, Y: 2487.0105728020326}})
	quarter := shape.RotFromCosSin(0, -1)
	pairs = append(pairs, pair{"capsule-polygon", cp, shape.Transform{Pos: shape.V(2487.0105728021163, 1588.29210113773), Rot: quarter}, poly, shape.Transform{Rot: quarter}})
	seg, _ := shape.NewSegment(shape.V(-1171.0167000004255, -1286.1325593270724), shape.V(797.8292545654399, 610.3054095781035))
	cs, _ := shape.NewCapsule(shape.V(0, 0), shape.V(3.253614778756854e-10, 3.133957021023552e-10), 4.517487768458021e-10)
	turn := shape.RotFromCosSin(-0.03658752238943119, 0.9993304524557445)
	pairs = append(pairs, pair{"segment-capsule", seg, shape.Transform{Rot: turn}, cs, shape.Transform{Pos: shape.V(-639.0873768042667, 774.9655071100152), Rot: turn}})
	for _, c := range pairs {
		for _, flip := range []bool{false, true} {
			x, tx, y, ty := c.a, c.ta, c.b, c.tb
			if flip {
				x, tx, y, ty = y, ty, x, tx
			}
			m, ok := narrowphase.Collide(x, tx, y, ty)
			if !ok {
				t.Errorf("%s (flipped %v): Collide = false, want a contact", c.name, flip)
				continue
			}
			for i := range m.Count {
				p := m.Points[i].Point
				da, db := math.Sqrt(narrowphase.DistanceSq(x, tx, p)), math.Sqrt(narrowphase.DistanceSq(y, ty, p))
				if da > m.Depth || db > m.Depth {
					t.Errorf("%s (flipped %v): Collide.Points[%d] = %v lies %.3g from %v and %.3g from %v, want within the depth %.3g of both",
						c.name, flip, i, p, da, x, db, y, m.Depth)
				}
			}
		}
	}
}

// TestCastLongMotionFarBug: a box 1e60 away along the diagonal, moved by
// about that distance, the shapes 1e60 times smaller. castMink placed a's
// core relative to b before merging the edges of M by their turns: there
// a's vertices all round to one point, its edges to zero, and the merge
// kept 4 of M's 6 edges, half-planes open toward the start, so every
// motion was a touch at 0. Moved by the offset it reaches b at the end
// (fraction 1 to rounding), by twice it halfway; by half, or 1e59 to the
// side, never.
func TestCastLongMotionFarBug(t *testing.T) {
	obb, _ := shape.NewOBB(1.625, 1.25)
	seg, _ := shape.NewSegment(shape.V(-1, -0.375), shape.V(-0.75, -0.125))
	ta := shape.Transform{Pos: shape.V(4.145503365113463, 4.6601434620295965), Rot: shape.NewRot(1.5)}
	tb := shape.Transform{Pos: shape.V(1e60, 1e60)}
	for _, c := range []struct {
		delta shape.Vec2
		hit   bool
		frac  float64
	}{
		{shape.V(1e60, 1e60), true, 1},
		{shape.V(2e60, 2e60), true, 0.5},
		{shape.V(0.5e60, 0.5e60), false, 0},
		{shape.V(1e60, 0.9e60), false, 0},
	} {
		h, ok := narrowphase.Cast(obb, ta, c.delta, seg, tb)
		if ok != c.hit || (ok && math.Abs(h.Fraction-c.frac) > 1e-15) {
			t.Errorf("Cast(obb, segment 1e60 away, %v) = %+v, %v, want hit %v at %v", c.delta, h, ok, c.hit, c.frac)
		}
		hb, okb := narrowphase.Cast(seg, tb, c.delta.Neg(), obb, ta)
		if okb != c.hit || (okb && math.Abs(hb.Fraction-c.frac) > 1e-15) {
			t.Errorf("Cast(segment, obb 1e60 away, %v) = %+v, %v, want hit %v at %v", c.delta.Neg(), hb, okb, c.hit, c.frac)
		}
	}
}

// TestRaySegmentCollinearShortBug: a ray along a segment's own line (to
// rounding), toward it, whose maxDist ends 0.25 short of the segment's
// near end, hit it at maxDist: the end of the ray lay on the line to
// rounding, and the test for a maxDist ending on the segment looked only
// at the end's side of the line, not whether it lies within the segment
// (TestHunt11RayCompositeStartsOracle seed 257777200461027903).
func TestRaySegmentCollinearShortBug(t *testing.T) {
	seg, err := shape.NewSegment(shape.V(-2.9375, -0.1875), shape.V(-0.125, 0.125))
	if err != nil {
		t.Fatal(err)
	}
	tr := shape.Transform{Pos: shape.V(1.8125, 2.5), Rot: shape.RotFromCosSin(-1, 0)}
	origin := shape.V(-3.777331474373308, 1.7400187250696324)
	dir := shape.V(0.9938837346736188, 0.11043152607484653)
	if h, ok := narrowphase.RayCast(seg, tr, origin, dir, 5.5); ok {
		t.Errorf("RayCast(max 5.5) = %+v, want no hit: the segment's near end is 5.75 away", h)
	}
}

// TestCollideTurnedTouchBug: shapes placed exactly against each other
// with a rotation that is not the identity overlap by rounding in floats
// (5e-17 here); touching is not a contact, but Collide, Overlap and
// PushOut confirmed such an overlap exactly only for shapes at angle 0.
// The pairs are those of TestMoveAndSlideTurnedTouchBug and
// TestMoveAndSlideTurnedTouchFarBug in the root package, whose rational
// oracle proves them apart: a box on a polygon turned a half turn, a
// triangle on a closed chain turned a quarter turn, and at 1e6 a triangle
// turned three quarter turns on a part of a quarter-turned compound (apart
// only with the part placed by the exact product of its body's transform
// and its offset).
func TestCollideTurnedTouchBug(t *testing.T) {
	tri := npPolygon(t, xy(-0.5, -0.375), xy(0.5, -0.375), xy(0.125, 0.625))
	half := shape.RotFromCosSin(-1, 0)
	compound, err := shape.NewCompound([]shape.Part{
		{Shape: npCapsule(t, xy(1, -0.375), xy(0.75, -0.1875), 0.78125), Offset: shape.Transform{Pos: xy(1.4375, 0.4375), Rot: half}},
		{Shape: npOBB(t, 1.25, 1), Offset: shape.Transform{Pos: xy(-0.3125, -1.125), Rot: half}},
		{Shape: npOBB(t, 1.25, 1.3125), Offset: shape.Transform{Pos: xy(-0.625, -2)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}{
		{"box on half-turned polygon", npAABB(t, 0.25, 0.375), npAt(-3.4375, 1.5625, 0),
			npPolygon(t, xy(-0.5, 0.0625), xy(0.6875, -0.625), xy(0.0625, 0.625)), npAt(-3.9375, 2.25, math.Pi)},
		{"triangle on quarter-turned chain", tri, npAt(-6.375, -3, 0),
			npChain(t, true, xy(-0.8125, 1), xy(-2.0625, 1.3125), xy(-2.0625, 0.6875)), npAt(-5.1875, -0.3125, math.Pi/2)},
		{"triangle on quarter-turned compound at 1e6", tri, npAt(1.0000049375e+06, -1.000000625e+06, 3*math.Pi/2),
			compound, npAt(1.00000125e+06, -999999.5625, math.Pi/2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, o := range [2]bool{false, true} {
				a, ta, b, tb := c.a, c.ta, c.b, c.tb
				if o {
					a, ta, b, tb = b, tb, a, ta
				}
				if m, ok := narrowphase.Collide(a, ta, b, tb); ok {
					t.Errorf("Collide(%v, %v) = %+v, want no contact (touching)", a, b, m)
				}
				if narrowphase.Overlap(a, ta, b, tb) {
					t.Errorf("Overlap(%v, %v) = true, want false (touching)", a, b)
				}
				if d, ok := narrowphase.PushOut(a, ta, b, tb); ok {
					t.Errorf("PushOut(%v, %v) = %v, want none (touching)", a, b, d)
				}
				narrowphase.CollideParts(a, ta, b, tb, func(i, j int, m narrowphase.Manifold) bool {
					t.Errorf("CollideParts(%v, %v) calls parts %d, %d with %+v, want none (touching)", a, b, i, j, m)
					return true
				})
			}
		})
	}
}
