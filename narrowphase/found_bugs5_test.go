package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCompositeCollideFlipBug: Collide(b, a) of a pair with a compound or
// chain was not Collide(a, b) flipped when two part pairs tied for the
// deepest: the deepest pair was the first found, and CollideParts visits
// the parts of its first shape in the outer loop, so the two orders met
// the tied pairs in different orders. Compound A has unit boxes at x = 0
// (part 0) and x = 10 (part 1); compound B the same boxes the other way
// round, placed at (0.5, 1.5): A's part 0 overlaps B's part 1 and A's part
// 1 B's part 0, both by 0.5 along +Y. Collide(A, B) gave the contact at
// x ≈ 0 and Collide(B, A) the one at x ≈ 10. A compound sinking two parts
// equally into a chain's separate segments did the same (the chain's
// segments were the outer loop one way, the compound's parts the other),
// and so did a compound whose part coincides with a convex shape of the
// same kind (the part pair is an exact twin, with no order of its own, and
// the compound was not put in a fixed order against the convex shape
// either): both orders gave the normal +X. Found by a symmetry sweep of
// composite pairs on a half-unit grid, where equal depths are common.
func TestCompositeCollideFlipBug(t *testing.T) {
	unit, _ := shape.NewOBB(1, 1)
	a, _ := shape.NewCompound([]shape.Part{{Shape: unit}, {Shape: unit, Offset: shape.Transform{Pos: shape.V(10, 0)}}})
	b, _ := shape.NewCompound([]shape.Part{{Shape: unit, Offset: shape.Transform{Pos: shape.V(10, 0)}}, {Shape: unit}})

	small, _ := shape.NewOBB(0.4, 0.4)
	feet, _ := shape.NewCompound([]shape.Part{{Shape: small, Offset: shape.Transform{Pos: shape.V(1.5, 0)}}, {Shape: small, Offset: shape.Transform{Pos: shape.V(-1.5, 0)}}})
	ground, _ := shape.NewChain([]shape.Vec2{shape.V(-3, 0), shape.V(-2, 0), shape.V(-1, 0), shape.V(0, 0.5), shape.V(1, 0), shape.V(2, 0), shape.V(3, 0)}, false)

	one, _ := shape.NewCompound([]shape.Part{{Shape: unit}})

	for _, c := range []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}{
		{"compound-compound", a, shape.Identity, b, shape.Transform{Pos: shape.V(0.5, 1.5)}},
		{"compound-chain", feet, shape.Transform{Pos: shape.V(0, 0.25)}, ground, shape.Identity},
		{"compound-obb twin part", one, shape.Identity, unit, shape.Identity},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, ok := narrowphase.Collide(c.a, c.ta, c.b, c.tb)
			mb, okb := narrowphase.Collide(c.b, c.tb, c.a, c.ta)
			if !ok || !okb {
				t.Fatalf("Collide = %v, reversed %v; want both in contact", ok, okb)
			}
			if mb.Flip() != m {
				t.Errorf("Collide(b, a) flipped = %+v, want Collide(a, b) = %+v", mb.Flip(), m)
			}
		})
	}
}

// TestTinyBoxCapsuleCornerBug: hullCapsule, looking for the nearest
// features of a core that is apart from the hull, counted a core end as in
// front of a face unless it lay behind the face by more than a tolerance
// that had an absolute term, 1e-12, besides the part relative to the
// coordinates. For a box of half size s = 2⁻⁴⁴ (5.7e-14) every end was
// then in front of every face, and the far end of the capsule's core,
// (5s, 0.5s), level with the box's left face and 6s behind it (4s right of
// the box), was taken for a point on that face (its separation, −6s,
// clamped to 0): a touch of the cores, so the depth fell back to the
// radius less the largest separating axis, 0.2385·s along the core's side
// normal, where the exact answer is 0.2·s along the direction from the
// box's corner to the near end. Scaling every number of a pair by a power
// of two scales the exact answer exactly; at s = 1 the answer was right.
// Found by comparing Collide of random pairs with the same pairs scaled by
// 2^k.
func TestTinyBoxCapsuleCornerBug(t *testing.T) {
	for _, e := range []int{0, -30, -44, -60, -200} {
		s := math.Ldexp(1, e)
		box, _ := shape.NewAABB(s, s)
		c, _ := shape.NewCapsule(shape.V(1.6*s, 1.8*s), shape.V(5*s, 0.5*s), 1.2*s)
		// The nearest features: the box's corner (s, s) and the core's end
		// (1.6s, 1.8s), s apart along (0.6, 0.8); the depth is 1.2s − s.
		m, ok := narrowphase.Collide(box, shape.Identity, c, shape.Identity)
		if !ok || math.Abs(m.Depth/s-0.2) > 1e-12 || m.Normal.Sub(shape.V(0.6, 0.8)).Len() > 1e-12 {
			t.Errorf("scale 2^%d: Collide(box, capsule) = %+v, %v; want depth 0.2·s along (0.6, 0.8)", e, m, ok)
		}
	}
}

// TestCastPolygonShortEdgeBug: Cast of a polygon with a very short edge
// (here 2.4e-11 long, at a corner of a polygon of size 4) went through
// the other shape by up to 5.5e-6. The general path clipped the motion
// against the edges of the Minkowski difference with normals taken from
// differences of its vertices, which are rounded to the ulp of their
// coordinates (4.4e-16 here): the short edge's normal came out off by an
// angle of the order of that ulp over its length (2e-5), and its
// half-plane, which extends across the whole difference, cut the ray
// late. The polygon, moved by (4.74, −0.75), first touches the box at
// fraction 0.35636223866475 (exact oracle); Cast said 0.356365012, where
// the two overlap by 5.5e-6. Found by the exact cast oracle on polygons
// with near-degenerate (short or nearly collinear) edges.
func TestCastPolygonShortEdgeBug(t *testing.T) {
	poly, err := shape.NewPolygon([]shape.Vec2{
		shape.V(1.8875804207898423, 0.6610901262693627), shape.V(1.8875804207695028, 0.6610901262828395), // the short edge
		shape.V(-0.12704660363064868, 1.9959607111629016), shape.V(-0.12704663138923009, 1.9959606721257168),
		shape.V(-1.9270167791123503, -0.5353562673766539), shape.V(-0.8644801319456078, -1.2627627562083636),
		shape.V(0.19805651653616915, -1.990169243119177),
	})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := shape.NewOBB(0.625, 2.875)
	tb := shape.Transform{Pos: shape.V(5.27707608936269, 1.7975037793932687), Rot: shape.RotFromCosSin(0, -1)}
	delta := shape.V(4.737647141783108, -0.7474107912747321)
	o := exCast(exPlace(poly, shape.Identity), delta, exPlace(box, tb))
	h, ok := narrowphase.Cast(poly, shape.Identity, delta, box, tb)
	if !ok || !o.hit {
		t.Fatalf("Cast = %+v, %v; the exact oracle hit %v", h, ok, o.hit)
	}
	if g := o.gapAt(h.Fraction); math.Abs(h.Fraction-o.frac) > 1e-12 && math.Abs(g) > 1e-12 {
		t.Errorf("Cast.Fraction = %.17g, want %.17g (the exact first touch); at the fraction given the gap is %.3g", h.Fraction, o.frac, g)
	}
}

// TestCastSlidingTileSeamBug: a box resting on a floor of separate square
// tiles (AABB bodies side by side, tops level) and moving along it was
// stopped at the seam between two tiles, the classic ghost collision
// CastSliding exists to avoid: CastSliding passed a touch at the start
// only by the normal Cast gave it, and where the box's bottom corner
// meets the next tile's top corner that normal may be the tile's left
// face, against the motion, though the motion slides over the tile's top
// and never goes into it. A tile met on the way by such a graze was a hit
// as well. For a compound or chain floor both were already passed (a part
// counts only if the motion goes on into it); now a convex pair follows
// the same rule. Here the box, half size 0.5 at (0.5, 1.5), moves by
// (1, 0) against the tile of half size 1 at (2, 0), whose top-left corner
// its bottom-right corner touches; from (0.25, 1.5) it meets that corner
// on the way. Neither may be a hit; moving down into the tile still is.
func TestCastSlidingTileSeamBug(t *testing.T) {
	hero, _ := shape.NewAABB(0.5, 0.5)
	tile, _ := shape.NewAABB(1, 1)
	tt := shape.Transform{Pos: shape.V(2, 0)}
	for _, c := range []struct {
		from, delta shape.Vec2
		hit         bool
	}{
		{shape.V(0.5, 1.5), shape.V(1, 0), false},   // at the seam, sliding over the tile
		{shape.V(0.25, 1.5), shape.V(1, 0), false},  // meets the seam on the way
		{shape.V(0.5, 1.5), shape.V(1, -0.5), true}, // into the tile
	} {
		h, ok := narrowphase.CastSliding(hero, shape.Transform{Pos: c.from}, c.delta, tile, tt, 1e-9)
		if ok != c.hit {
			t.Errorf("CastSliding(box at %v by %v, tile) = %+v, %v; want hit %v", c.from, c.delta, h, ok, c.hit)
		}
	}
}

// TestCastFromRoundingTouchBug: Cast of two shapes, at least one rounded
// (a capsule or circle), that start touching to within rounding (apart by
// an ulp, so Collide says no contact) and move into each other overshot
// the touch, by up to 1.85 units, or missed it altogether and passed
// through: the general path's rounded cast dropped an offset edge whose
// entry time came out below zero by rounding (the start lies an ulp
// inside the edge's offset line), and took the next thing the ray met:
// the disc at the edge's far end, or nothing. An entry below zero by no
// more than the rounding margin is now an entry at 0. Cases 0, 2 and 3
// failed before 2b86cb2 (which took the Minkowski difference's normals
// from the shapes and so moved which cases round below zero), 4 and 5
// after it, 1 both. Found by the exact cast oracle on pairs placed
// touching by a first cast (TestExactOracleCastSliding too).
func TestCastFromRoundingTouchBug(t *testing.T) {
	capsule := func(x0, y0, x1, y1, r float64) shape.Shape {
		s, _ := shape.NewCapsule(shape.V(x0, y0), shape.V(x1, y1), r)
		return s
	}
	segment := func(x0, y0, x1, y1 float64) shape.Shape {
		s, _ := shape.NewSegment(shape.V(x0, y0), shape.V(x1, y1))
		return s
	}
	circle := func(cx, cy, r float64) shape.Shape {
		s, _ := shape.NewOffsetCircle(shape.V(cx, cy), r)
		return s
	}
	tri, _ := shape.NewPolygon([]shape.Vec2{shape.V(-2.5, -1.125), shape.V(2, -2.8125), shape.V(2.5, -0.5)})
	box, _ := shape.NewAABB(0.3125, 0.4375)
	at := func(x, y, c, s float64) shape.Transform {
		return shape.Transform{Pos: shape.V(x, y), Rot: shape.RotFromCosSin(c, s)}
	}
	for i, c := range []struct {
		a     shape.Shape
		ta    shape.Transform
		b     shape.Shape
		tb    shape.Transform
		delta shape.Vec2
	}{
		{capsule(1.0625, 1.125, -0.5625, 2.5625, 0.125), at(-4.183404601249026, -4.019369781554047, 0.30832908885989196, 0.951279755362653),
			tri, at(-3.0625, -3.0625, 0.9461929027295702, -0.32360313784663786), shape.V(55.8012070216318, -50.94482987638569)},
		{capsule(2.8125, -0.0625, -2.375, 1.9375, 0.625), at(1.4575755969086104, 0.26225281825529745, 1, 0),
			box, at(3.0625, -0.5625, 0.2760428758170661, 0.9611453223683939), shape.V(-42.82710200921509, -37.02328439876008)},
		{segment(-2.4375, -2.1875, 2.1875, 0.1875), at(-1.6607968593131677, 0.10655523601156613, -0.9592442287715084, 0.28257832466159577),
			circle(0, 0, 1.9375), at(-0.25, -0.75, 0.9025889273164573, -0.43050345908683096), shape.V(60.97997092034083, -63.418299811430614)},
		{circle(0.8125, -0.375, 1.9375), at(-1.7855291324138975, -0.9136319438917787, 1, 0),
			segment(-0.5625, -2.75, 0.1875, 1.5), at(-3.125, -2.875, -0.03971372426485509, 0.9992110988700111), shape.V(65.71434622731357, -28.950703082868046)},
		{capsule(-0.4375, 2.5625, -1.4375, -1.75, 0.875), at(1.6443995413429542, 1.7912570118122726, -0.8643543716052362, -0.5028832074019944),
			segment(-2.125, 1.875, 0.6875, 1.6875), at(4.5625, 2.625, -1, 0), shape.V(50.76808061238859, -40.482495905426475)},
		{capsule(1.6875, 0.75, 1.4375, -2.375, 1.5), at(-0.012630624746773456, -0.4819190451881274, -0.9941845679404917, -0.10768957641748607),
			circle(0, 0, 1.8125), at(1.6875, -0.8125, 1, 0), shape.V(140.45121559841124, -32.211000255246624)},
	} {
		o := exCastOracle{d: exMinkowski(exPlace(c.a, c.ta), exPlace(c.b, c.tb)), delta: c.delta}
		tol := 1e-9 * (exLocalScale(c.a, c.ta, c.b, c.tb) + c.delta.Len())
		if g := o.gapAt(0); g < 0 || g > tol {
			t.Fatalf("case %d: the pair starts %.3g apart, not touching to rounding", i, g)
		}
		h, ok := narrowphase.Cast(c.a, c.ta, c.delta, c.b, c.tb)
		if !ok {
			rf, _ := o.d.r.Float64()
			t.Errorf("case %d: Cast missed; the motion goes %.3g deep", i, rf-exSqrt(exSegDist2(o.d, exVF(shape.Vec2{}), exVF(c.delta))))
			continue
		}
		if g := o.gapAt(h.Fraction); math.Abs(g) > tol {
			t.Errorf("case %d: Cast.Fraction = %.17g, where the exact gap is %.3g; want the touch at the start", i, h.Fraction, g)
		}
	}
}
