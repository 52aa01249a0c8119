package collide_test

import (
	"testing"

	"github.com/collide-go/collide"
)

// TestDepenetrateInsideChainRoomBug: Depenetrate found each overlapped
// body's exit along a direction by casting the shape back from far along
// it against the whole body, which for a closed chain around the shape (a
// room) is the room's far wall: every escape it found left the room. A
// circle in an acute corner of a room, 9e-16 into one wall and touching
// the other (where MoveAndSlide's slide into the corner left it), was
// pushed 0.9 through the other wall out of the room, where 1e-14 along
// the corner's bisector frees it; MoveAndSlide, which ends with that
// push-out, walked the character out of the room
// (TestMoveAndSlideStaysInRoom, seed 5758383039076990689, found it).
func TestDepenetrateInsideChainRoomBug(t *testing.T) {
	outline := []collide.Vec2{{X: 7, Y: 1.1875}, {X: 2.5625, Y: 1.9375}, {X: 1.9375, Y: 6.1875}, {X: -2.4375, Y: 3.8125}, {X: -6.0625, Y: 3.375},
		{X: -7.75, Y: -0.6875}, {X: -6.0625, Y: -4.5625}, {X: -1.0625, Y: -3.3125}, {X: 3.625, Y: -6.9375}, {X: 4.125, Y: -2}}
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	ch := must[collide.Shape](t)(collide.NewCircle(0.1875))
	w := collide.NewWorld(collide.Config{Workers: 1})
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Kind: collide.Static}))

	// In the corner: 9e-16 into the wall of part 7, touching part 8.
	xf := collide.NewTransform(collide.V(3.4724872956423667, -6.582530999490506), 0)
	d, err := w.Depenetrate(ch, xf, collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() > 1e-9 {
		t.Errorf("Depenetrate in the corner = %v (length %g), want a push of rounding size", d, d.Len())
	}
	end := collide.Transform{Pos: xf.Pos.Add(d)}
	w.QueryShape(ch, end, collide.Filter{}, func(_ collide.BodyID, m collide.Manifold) bool {
		t.Errorf("after Depenetrate the circle still overlaps the room by %g", m.Depth)
		return true
	})

	// The move that slid it there.
	start := collide.NewTransform(collide.V(3.006867126246223, -4.997910036559716), 1.8553034797002184)
	res, err := w.MoveAndSlide(ch, start, collide.V(0.5, -1.875), collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if !h7Inside(outline, res.Position) {
		t.Errorf("MoveAndSlide into the corner ends at %v, outside the room (%+v)", res.Position, res)
	}
}

// TestMoveAndSlideThroughTouchedWallBug: a character touching a wall of a
// room at the start of a move straight into it walked through it: the
// cast's hit at 0 had the normal of the wall's other side (see
// narrowphase's TestCastTouchingSegmentNormalSideBug), so the move looked
// like one away from the wall (TestMoveAndSlideStaysInRoom, seed
// 11866553731396220212, found it).
func TestMoveAndSlideThroughTouchedWallBug(t *testing.T) {
	outline := []collide.Vec2{{X: 9.25, Y: 0.75}, {X: 1.9375, Y: 2.375}, {X: -0.9375, Y: 8.8125}, {X: -3.1875, Y: 2.9375},
		{X: -8.8125, Y: -0.25}, {X: -5, Y: -7.1875}, {X: 0.625, Y: -6.6875}, {X: 2.9375, Y: -2.5}}
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	ch := must[collide.Shape](t)(collide.NewCircle(0.1875))
	w := collide.NewWorld(collide.Config{Workers: 1})
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Kind: collide.Static}))
	// 0.1875 from the wall of part 3, inside.
	start := collide.NewTransform(collide.V(-7.44022424122997, 0.3121111843501003), 0)
	res, err := w.MoveAndSlide(ch, start, collide.V(-9.8125, 11.375), collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if !h7Inside(outline, res.Position) || !res.Blocked {
		t.Errorf("MoveAndSlide straight into the wall it touches = %+v: ends outside the room", res)
	}
}

// TestDepenetrateNarrowWedgeThroughWallBug: a triangle slid into the
// corner, a degree wide, between a room's wall (7e-11 into it, at 1e6)
// and a polygon it touched. Out of the wall alone the push-out runs into
// the polygon, and the wedge lies between two of the 64 directions
// Depenetrate tries, so no candidate cleared both; the rounds that
// followed pushed the triangle 0.53 through the wall, out of the room,
// where 1e-7 back out of the wedge frees it. Depenetrate now also tries
// the corner of each push-out with the body it runs into
// (TestMoveAndSlideStaysInRoom, seed 9523307920302020018, found it).
func TestDepenetrateNarrowWedgeThroughWallBug(t *testing.T) {
	origin := collide.V(1e6, -1e6)
	outline := []collide.Vec2{{X: 6.625, Y: 0.125}, {X: 2.375, Y: 2.75}, {X: 2.4375, Y: 8.125}, {X: -4.3125, Y: 6.625}, {X: -7.3125, Y: 3.375},
		{X: -4.5625, Y: -0.1875}, {X: -6.875, Y: -7.0625}, {X: -1.1875, Y: -4.375}, {X: 4.25, Y: -7.5}, {X: 3.4375, Y: -1.375}}
	w := collide.NewWorld(collide.Config{Workers: 1})
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Position: origin, Kind: collide.Static}))
	poly := must[collide.Shape](t)(collide.NewPolygon([]collide.Vec2{{X: -2, Y: 1.625}, {X: -1, Y: -1.25}, {X: 1.0625, Y: -1.875}}))
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: poly, Position: collide.V(999997.6875, -1.0000028125e+06), Angle: 1.6578139701871935, Kind: collide.Static}))
	ch := must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.25, Y: -0.1875}, {X: 0.25, Y: -0.1875}, {X: 0.0625, Y: 0.3125}}))
	rot := collide.NewTransform(collide.Vec2{}, 0.5501013945425043).Rot
	xf := collide.Transform{Pos: collide.V(999998.70149072, -1.0000041913099884e+06), Rot: rot}
	d, err := w.Depenetrate(ch, xf, collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	world := make([]collide.Vec2, len(outline))
	for i, p := range outline {
		world[i] = origin.Add(p)
	}
	if d.Len() > 1e-6 || !h7Inside(world, xf.Pos.Add(d)) {
		t.Errorf("Depenetrate in the wedge = %v (length %g), want a push of 1e-7 at most, in the room", d, d.Len())
	}
	end := collide.Transform{Pos: xf.Pos.Add(d), Rot: rot}
	w.QueryShape(ch, end, collide.Filter{}, func(id collide.BodyID, m collide.Manifold) bool {
		if m.Depth > 1e-9 {
			t.Errorf("after Depenetrate the triangle still overlaps %v by %g", id, m.Depth)
		}
		return true
	})
	// The move that slid it there.
	start := collide.Transform{Pos: collide.V(999993.4699394215, -1.0000066633617001e+06), Rot: rot}
	res, err := w.MoveAndSlide(ch, start, collide.V(9.5, 3.0625), collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if !h7Inside(world, res.Position) {
		t.Errorf("MoveAndSlide into the wedge ends at %v, outside the room (%+v)", res.Position, res)
	}
}

// TestDepenetrateAcuteTipThroughWallBug: a box slid into the acute tip of
// a room (at 1e6), 5e-11 into one wall and 8e-13 into the other. Each
// exit Depenetrate tried out of the room's chain cast the box back from
// far against the parts it overlaps, and the cast against the wall it
// reached 8e-13 into, far below that cast's rounding, missed: the exit
// then fell back to the cast against the whole chain, through a wall, and
// the box was pushed 0.88 out of the room where 2e-9 out of the tip
// frees it (TestMoveAndSlideStaysInRoom, seed 14792497185353860898, found
// it).
func TestDepenetrateAcuteTipThroughWallBug(t *testing.T) {
	origin := collide.V(1e6, -1e6)
	outline := []collide.Vec2{{X: 9, Y: 0.8125}, {X: 1.5625, Y: 3.1875}, {X: -6.125, Y: 7.8125}, {X: -3.6875, Y: 0}, {X: -2.0625, Y: -6.0625}, {X: 5.6875, Y: -7.3125}}
	world := make([]collide.Vec2, len(outline))
	for i, p := range outline {
		world[i] = origin.Add(p)
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Position: origin, Kind: collide.Static}))
	box := must[collide.Shape](t)(collide.NewOBB(0.4375, 0.25))
	xf := collide.Transform{Pos: collide.V(999994.7067469372, -999993.2011119785)}
	d, err := w.Depenetrate(box, xf, collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() > 1e-6 || !h7Inside(world, xf.Pos.Add(d)) {
		t.Errorf("Depenetrate in the tip = %v (length %g), want a push of 1e-8 at most, in the room", d, d.Len())
	}
	res, err := w.MoveAndSlide(box, collide.Transform{Pos: collide.V(999994.706746938, -999993.2011119801)}, collide.V(-5.8125, 7.375), collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if !h7Inside(world, res.Position) {
		t.Errorf("MoveAndSlide into the tip ends at %v, outside the room (%+v)", res.Position, res)
	}
}
