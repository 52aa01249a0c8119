package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestNearestPolygonFarAwayBug: a polygon body parked 1e200 away (a
// server's "out of play" spot; any finite place is a valid one) was
// reported by Nearest as the nearest body at distance 0, ahead of a circle
// 4 units away. narrowphase.DistanceSq of a polygon took +Inf, its
// running minimum's start, for "inside every edge": a point so far that
// its squared distance from the nearest edge overflows to +Inf read as a
// point inside, distance 0 (TestHunt13World, seed 10059902480548423559,
// where NearestWithin's brute force met it). The squared distance is
// +Inf there, and Distance is +Inf.
func TestNearestPolygonFarAwayBug(t *testing.T) {
	tri := must[collide.Shape](t)(collide.NewPolygon([]collide.Vec2{{X: -0.875, Y: 0.25}, {X: -0.25, Y: -0.25}, {X: 1.125, Y: 1.25}}))
	circle := must[collide.Shape](t)(collide.NewCircle(1))
	for _, far := range []collide.Vec2{{X: 1e200}, {X: -1e300, Y: 5}, {X: 1e160, Y: 1e160}, {Y: -1e155}} {
		xf := collide.NewTransform(far, 0.5)
		p := collide.V(5, 0)
		if d := narrowphase.DistanceSq(tri, xf, p); d < 1e300 {
			t.Errorf("DistanceSq(triangle at %v, %v) = %v, want +Inf", far, p, d)
		}
		if d := narrowphase.Distance(tri, xf, p); d < 1e150 {
			t.Errorf("Distance(triangle at %v, %v) = %v, want about %v", far, p, d, far.Len())
		}
		w := collide.NewWorld(collide.Config{Workers: 1})
		near := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: circle}))
		parked := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: tri, Position: far, Angle: 0.5}))
		var got []collide.BodyID
		var dists []float64
		if err := w.Nearest(p, 2, collide.Filter{}, func(id collide.BodyID, d float64) bool {
			got, dists = append(got, id), append(dists, d)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0] != near || dists[0] != 4 || (len(got) == 2 && (got[1] != parked || dists[1] < 1e150)) {
			t.Errorf("Nearest(%v, 2) with a triangle parked at %v = %v at %v, want the circle %v at 4 first (then the triangle, far)", p, far, got, dists, near)
		}
	}
}

// TestCastShapeTinyMotionBug: CastShape of a unit circle moved by 1e-160
// along x reported a hit at fraction 0 against a circle whose surface is
// 0.0625 away: the circles' cast divided r² by |delta|², which overflowed
// to +Inf, so the entry came out as −Inf, clamped to 0. Every convex cast
// with a circle, capsule, segment or polygon went wrong below a motion of
// about 1e-154, where |delta|² underflows. A touch at the start is still a
// hit at 0.
func TestCastShapeTinyMotionBug(t *testing.T) {
	unit := must[collide.Shape](t)(collide.NewCircle(1))
	capsule := must[collide.Shape](t)(collide.NewCapsule(collide.V(-1, 0), collide.V(1, 0), 0.5))
	for _, s := range []collide.Shape{unit, capsule} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: unit, Position: collide.V(2.0625, 0)}))
		xf := collide.NewTransform(collide.V(0, 0), 0)
		if s.Kind() == unit.Kind() {
			xf.Pos.X = 0 // 0.0625 apart
		} else {
			xf.Pos.X = -0.5 // 0.0625 apart
		}
		for _, d := range []collide.Vec2{{X: 1e-160}, {X: 1e-200, Y: 1e-210}, {X: 5e-324}} {
			if h, ok, err := w.CastShape(s, xf, d, collide.Filter{}); ok || err != nil {
				t.Errorf("CastShape(%v at %v, delta %v) = %+v, %v, %v; want no hit: it ends 0.0625 short", s, xf.Pos, d, h, ok, err)
			}
			n := 0
			_ = w.CastShapeAll(s, xf, d, collide.Filter{}, func(collide.ShapeHit) bool { n++; return true })
			if n != 0 {
				t.Errorf("CastShapeAll(%v, delta %v) gives %d hits, want none", s, d, n)
			}
		}
	}
	// Touching at the start: a hit at 0 whatever the motion.
	w := collide.NewWorld(collide.Config{Workers: 1})
	id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: unit, Position: collide.V(2.0625, 0)}))
	for _, d := range []collide.Vec2{{X: 1e-160}, {X: -1e-300}, {Y: 5e-324}} {
		h, ok, err := w.CastShape(unit, collide.NewTransform(collide.V(0.0625, 0), 0), d, collide.Filter{})
		if !ok || err != nil || h.Body != id || h.Fraction != 0 {
			t.Errorf("CastShape(unit circle touching another, delta %v) = %+v, %v, %v; want a hit at 0", d, h, ok, err)
		}
	}
}

// TestNearestInfTieBug: bodies more than about 1e154 from the query point
// are all +Inf away (their squared distance overflows), so among them the
// tie goes to the lower id, as Nearest's doc says. The square search
// stopped once the k-th best squared distance was within the square's
// squared half side: past 1.3e154 that square overflows to +Inf too, and
// +Inf ≤ +Inf ended the search with the +Inf bodies met so far, before
// the square reached a lower id farther out (TestHunt13World, seed
// 10874327422496528347).
func TestNearestInfTieBug(t *testing.T) {
	circle := must[collide.Shape](t)(collide.NewCircle(1))
	w := collide.NewWorld(collide.Config{Workers: 1})
	// The lowest id farthest, then five more, all beyond 1e154, enough
	// bodies that Nearest searches growing squares.
	first := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: circle, Position: collide.V(1e300, 0)}))
	for i := range 5 {
		must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: circle, Position: collide.V(0, -1e155*float64(i+1))}))
	}
	for _, k := range []int{1, 2} {
		var got []collide.BodyID
		var dists []float64
		if err := w.Nearest(collide.V(0, 0), k, collide.Filter{}, func(id collide.BodyID, d float64) bool {
			got, dists = append(got, id), append(dists, d)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != k || got[0] != first || !math.IsInf(dists[0], 1) {
			t.Errorf("Nearest(0, %d) = %v at %v, want %v first at +Inf (every body is +Inf away; the lowest id wins)", k, got, dists, first)
		}
	}
}

// turnedTouchCase is a character placed exactly against one static body,
// turned (its own rotation, the body's or both not the identity), which a
// float Collide sees overlapping by rounding.
type turnedTouchCase struct {
	name  string
	ch    collide.Shape
	start collide.Transform
	body  collide.Shape
	bpos  collide.Vec2
	angle float64 // the body's
}

// checkTurnedTouch checks that the character of c overlaps no part of the
// body exactly (the test's rational predicate), and that MoveAndSlide by
// zero neither pushes nor moves it and Depenetrate finds nothing to do.
func checkTurnedTouch(t *testing.T, c turnedTouchCase) {
	t.Helper()
	bxf := collide.NewTransform(c.bpos, c.angle)
	for j := range c.body.PartCount() {
		if woOverlaps(ebPart(c.ch, c.start, 0), ebPart(c.body, bxf, j)) {
			t.Fatalf("the character overlaps part %d exactly: not a touch", j)
		}
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: c.body, Position: c.bpos, Angle: c.angle, Kind: collide.Static}))
	res, err := w.MoveAndSlide(c.ch, c.start, collide.Vec2{}, collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pushed != (collide.Vec2{}) || res.Position != c.start.Pos {
		t.Errorf("MoveAndSlide(%v at %v, by 0) pushed %v to %v, want no push from a touch", c.ch, c.start.Pos, res.Pushed, res.Position)
	}
	if d := must[collide.Vec2](t)(w.Depenetrate(c.ch, c.start, collide.Filter{})); d != (collide.Vec2{}) {
		t.Errorf("Depenetrate(%v at %v) = %v, want 0 for a touch", c.ch, c.start.Pos, d)
	}
}

// TestMoveAndSlideTurnedTouchBug: a character placed exactly against a
// turned body (a box on a polygon turned a half turn, whose sine is
// 1.2e-16; a triangle on a closed chain turned a quarter turn, cosine
// 1.1e-16) overlaps it by 5e-17 in floats and nothing exactly (a gap of
// 5e-18 and 1.2e-16), and MoveAndSlide pushed it out by 3e-15 and 8e-15
// before moving: the exact touch check of Collide covered only shapes at
// angle 0 (TestExactMoveAndSlide, seeds 1040638830231943622, base 0,
// level 16, move 17, and 9232154867218235464, base 0, level 7, move 20).
func TestMoveAndSlideTurnedTouchBug(t *testing.T) {
	tri := must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.5, Y: -0.375}, {X: 0.5, Y: -0.375}, {X: 0.125, Y: 0.625}}))
	for _, c := range []turnedTouchCase{
		{
			name:  "box on half-turned polygon",
			ch:    must[collide.Shape](t)(collide.NewAABB(0.25, 0.375)),
			start: collide.NewTransform(collide.V(-3.4375, 1.5625), 0),
			body:  must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.5, Y: 0.0625}, {X: 0.6875, Y: -0.625}, {X: 0.0625, Y: 0.625}})),
			bpos:  collide.V(-3.9375, 2.25),
			angle: math.Pi,
		},
		{
			name:  "triangle on quarter-turned chain",
			ch:    tri,
			start: collide.NewTransform(collide.V(-6.375, -3), 0),
			body:  must[collide.Shape](t)(collide.NewChain([]collide.Vec2{{X: -0.8125, Y: 1}, {X: -2.0625, Y: 1.3125}, {X: -2.0625, Y: 0.6875}}, true)),
			bpos:  collide.V(-5.1875, -0.3125),
			angle: math.Pi / 2,
		},
	} {
		t.Run(c.name, func(t *testing.T) { checkTurnedTouch(t, c) })
	}
}

// TestMoveAndSlideTurnedTouchFarBug: at 1e6, a triangle turned three
// quarter turns (cosine −2.2e-16) placed exactly against a part of a
// compound turned a quarter turn (cosine 1.1e-16) overlaps it by 5.6e-17
// in floats, the part placed by its body's transform times its offset
// rounded, and not at all exactly (a gap of 6.2e-17, the part placed by
// the exact product); MoveAndSlide by zero pushed it by 8.9e-10, 8 ulps
// of its position (TestExactMoveAndSlide, seed 17887185523727023210, base
// 1e6, level 8, move 3).
func TestMoveAndSlideTurnedTouchFarBug(t *testing.T) {
	half := shape.RotFromCosSin(-1, 0) // a half turn, as the oracle's levels turn parts
	part := func(s collide.Shape, x, y float64, r shape.Rot) collide.Part {
		return collide.Part{Shape: s, Offset: collide.Transform{Pos: collide.V(x, y), Rot: r}}
	}
	body := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		part(must[collide.Shape](t)(collide.NewCapsule(collide.V(1, -0.375), collide.V(0.75, -0.1875), 0.78125)), 1.4375, 0.4375, half),
		part(must[collide.Shape](t)(collide.NewOBB(1.25, 1)), -0.3125, -1.125, half),
		part(must[collide.Shape](t)(collide.NewOBB(1.25, 1.3125)), -0.625, -2, shape.Rot{}),
	}))
	checkTurnedTouch(t, turnedTouchCase{
		ch:    must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.5, Y: -0.375}, {X: 0.5, Y: -0.375}, {X: 0.125, Y: 0.625}})),
		start: collide.NewTransform(collide.V(1.0000049375e+06, -1.000000625e+06), 3*math.Pi/2),
		body:  body,
		bpos:  collide.V(1.00000125e+06, -999999.5625),
		angle: math.Pi / 2,
	})
}

// TestDepenetrateCompoundInCornerByRoundingBug: two discs (a compound) end
// a slide into a concave corner of a room (a closed chain) overlapping
// both walls by rounding (1.8e-16 and 6.7e-18 exactly). Depenetrate's
// exits along its directions looked for the parts the shape overlaps with
// each part placed on its own (the compound's transform times the part's
// offset, rounded); Collide, which found the overlap, decides such a touch
// with the parts placed exactly, and there they overlap while placed on
// their own they do not. Finding no part, each exit was cast against the
// whole room, whose far wall it met first, and the shortest of those
// pushed the discs 0.375 through the wall out of the room
// (TestMoveAndSlideStaysInRoom, seed 5247923242902721029, base 0, room
// 19, frame 31).
func TestDepenetrateCompoundInCornerByRoundingBug(t *testing.T) {
	outline := []collide.Vec2{{X: 6.625, Y: 1.625}, {X: 5.25, Y: 5.125}, {X: 0.9375, Y: 6.75}, {X: -0.6875, Y: 3.625}, {X: -4.375, Y: 4.875},
		{X: -3.1875, Y: 0.0625}, {X: -6, Y: -2.8125}, {X: -2.1875, Y: -3.4375}, {X: -0.8125, Y: -9.875}, {X: 1.9375, Y: -3.875}, {X: 7.875, Y: -5}}
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	discs := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.1875)), Offset: collide.NewTransform(collide.V(-0.1875, 0), 0)},
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.125)), Offset: collide.NewTransform(collide.V(0.25, 0.0625), 0)},
	}))
	w := collide.NewWorld(collide.Config{Workers: 1})
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Kind: collide.Static}))
	rot := shape.RotFromCosMinusOneSin(-0.06990476143053592, -0.3673184547370466)
	at := collide.Transform{Pos: collide.V(-3.936543480525021, 4.518634792444542), Rot: rot}
	// In the corner, wedged into both walls by rounding only.
	for _, seg := range []int{3, 4} {
		for i := range discs.PartCount() {
			if ov, pen := woPen(ebPart(discs, at, i), ebPart(room, collide.Transform{}, seg)); ov && pen > 1e-15 {
				t.Fatalf("disc %d overlaps wall %d by %g: more than rounding", i, seg, pen)
			}
		}
	}
	d := must[collide.Vec2](t)(w.Depenetrate(discs, at, collide.Filter{}))
	if d.Len() > 1e-9 {
		t.Errorf("Depenetrate(discs wedged by rounding in the corner) = %v (%g long), want a push of rounding size", d, d.Len())
	}
	start := collide.Transform{Pos: collide.V(-3.936543480524425, 4.518634792442133), Rot: rot}
	res := must[collide.MoveResult](t)(w.MoveAndSlide(discs, start, collide.V(-2.1875, 5.25), collide.Filter{}))
	for i := range discs.PartCount() {
		ps, pxf := discs.Part(i, collide.Transform{Pos: res.Position, Rot: rot})
		if !h7Inside(outline, ps.WorldAABB(pxf).Center()) {
			t.Errorf("MoveAndSlide into the corner ends at %v, disc %d outside the room (%+v)", res.Position, i, res)
		}
	}
}
