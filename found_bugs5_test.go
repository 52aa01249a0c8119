package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
)

// TestQueryAABBHugeBoxMissesOverlapBug: a box whose centre and half
// extents give back its edges exactly was tested as one shape, in its own
// frame, whatever its size. A box 1e12 wide, the half-plane y > 0 as a
// box, has its centre at y = 5e11, where a body near its edge y = 0 is
// rounded by an ulp of 5e11 (6e-5): a unit circle reaching 1e-6 into the
// box was missed (TestOracleConfigs, seed 2128193266406223853, found it
// with a capsule 7e-8 deep). The same query with a box 20 wide found it.
func TestQueryAABBHugeBoxMissesOverlapBug(t *testing.T) {
	c, err := collide.NewCircle(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, far := range []float64{1e6, 1e9, 1e12, 1e15, 1e300} {
		for _, top := range []float64{1e-6, 1e-9} { // the circle's top, inside the box
			w := collide.NewWorld(collide.Config{Workers: 1})
			if _, err := w.Add(collide.BodyDef{Shape: c, Position: collide.V(3, top-1)}); err != nil {
				t.Fatal(err)
			}
			for _, box := range []collide.AABB{
				{Min: collide.V(-far, 0), Max: collide.V(far, far)},
				{Min: collide.V(-far, -far), Max: collide.V(far, top/2)}, // the circle's top is above the box's: overlaps too
			} {
				n := 0
				if err := w.QueryAABB(box, collide.Filter{}, func(collide.BodyID) bool { n++; return true }); err != nil {
					t.Fatal(err)
				}
				if n != 1 {
					t.Errorf("QueryAABB(%v) found %d bodies, want the unit circle at (3, %v) whose top is at %v", box, n, top-1, top)
				}
			}
			w.Close()
		}
	}
}

// TestCastShapeParallelSegmentsBug: a segment cast past the end of a
// parallel segment was reported touching it. Two vertical segments (turned
// by π/2, whose cosine is 6e-17, not 0) have a Minkowski difference that
// rounding leaves a sliver of four nearly parallel edges instead of one
// segment, and the ray clip against its half-planes, which meet at an angle
// of 1e-17, put the ray's crossing of the sliver's line inside it, wherever
// along the line it was: here 0.029 beyond the end of the wall
// (TestOracleConfigs, seed 1258455518282412852, found it as a disagreement
// between the World and narrowphase.Cast).
func TestCastShapeParallelSegmentsBug(t *testing.T) {
	wall, err := collide.NewSegment(collide.V(-1.375, 0), collide.V(1.5, 0))
	if err != nil {
		t.Fatal(err)
	}
	blade, err := collide.NewSegment(collide.V(-0.375, 0), collide.V(1.375, 0))
	if err != nil {
		t.Fatal(err)
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	// The wall: x = -1.875, y from -1.875 to 1. The blade: x = 0.125, y
	// from 1.5 to 3.25, moving by (-2.125, -0.5): when it reaches the
	// wall's line (at 16/17 of the motion) its lowest point is at y =
	// 1.029, above the wall's top.
	if _, err := w.Add(collide.BodyDef{Shape: wall, Position: collide.V(-1.875, -0.5), Angle: math.Pi / 2, Kind: collide.Static}); err != nil {
		t.Fatal(err)
	}
	bt := collide.NewTransform(collide.V(0.125, 1.875), math.Pi/2)
	delta := collide.V(-2.125, -0.5)
	if h, ok, err := w.CastShape(blade, bt, delta, collide.Filter{}); err != nil || ok {
		t.Errorf("CastShape(blade past the wall's end) = %+v, %v, %v; want no hit: they pass 0.029 apart", h, ok, err)
	}
	if h, ok := collide.Cast(blade, bt, delta, wall, collide.NewTransform(collide.V(-1.875, -0.5), math.Pi/2)); ok {
		t.Errorf("Cast(blade past the wall's end) = %+v; want no hit", h)
	}
	// Lowered by 0.25 it does touch the wall's top end, at 16/17.
	bt.Pos.Y -= 0.25
	if h, ok, _ := w.CastShape(blade, bt, delta, collide.Filter{}); !ok || math.Abs(h.Fraction-16.0/17) > 1e-12 {
		t.Errorf("CastShape(blade onto the wall's end) = %+v, %v; want a hit at 16/17", h, ok)
	}
}

// TestCircleTouchingSegmentIsNoContactBug: a circle exactly tangent to a
// chain's (or a segment's) side was a contact 1.1e-16 deep. The centre's
// distance from the core's line was taken along the core's unit normal,
// which rounds (here (1.25, 1.3125)/1.8125); the distance is exactly the
// radius, 0.3125 (the cross product 0.56640625 over the length 1.8125,
// both exact). TestExactEvents found it (seed 14374121900083698177).
func TestCircleTouchingSegmentIsNoContactBug(t *testing.T) {
	chain, err := collide.NewChain([]collide.Vec2{{X: 0.875, Y: -0.0625}, {X: -0.4375, Y: 1.1875}, {X: -1.3125, Y: 2.4375}}, false)
	if err != nil {
		t.Fatal(err)
	}
	seg, err := collide.NewSegment(collide.V(4, -0.5), collide.V(2.6875, 0.75))
	if err != nil {
		t.Fatal(err)
	}
	ball, err := collide.NewOffsetCircle(collide.V(-0.5625, 0.0625), 0.3125)
	if err != nil {
		t.Fatal(err)
	}
	for _, wall := range []collide.BodyDef{
		{Shape: chain, Position: collide.V(3.125, -0.4375)}, // its first segment: (4, -0.5) to (2.6875, 0.75)
		{Shape: seg},
	} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		if _, err := w.Add(wall); err != nil {
			t.Fatal(err)
		}
		// The ball's centre (2.5625, 0.4375) lies 0.3125 from the wall's
		// line, its foot inside the wall.
		bt := collide.NewTransform(collide.V(3.125, 0.375), 0)
		if _, err := w.Add(collide.BodyDef{Shape: ball, Position: bt.Pos}); err != nil {
			t.Fatal(err)
		}
		w.Step()
		for c := range w.Contacts() {
			t.Errorf("%v and a ball touching it: contact %+v, want none", wall.Shape, c)
		}
		_ = w.QueryShape(ball, bt, collide.Filter{}, func(id collide.BodyID, m collide.Manifold) bool {
			if b, _ := w.Body(id); b.Shape.Kind() != ball.Kind() {
				t.Errorf("QueryShape(ball touching %v) = %+v, want no hit", wall.Shape, m)
			}
			return true
		})
		// 1e-12 closer it overlaps.
		bt.Pos = bt.Pos.Add(collide.V(1e-12, 1e-12))
		n := 0
		_ = w.QueryShape(ball, bt, collide.Filter{}, func(id collide.BodyID, m collide.Manifold) bool {
			if b, _ := w.Body(id); b.Shape.Kind() != ball.Kind() {
				n++
			}
			return true
		})
		if n != 1 {
			t.Errorf("QueryShape(ball 1e-12 into %v) found %d walls, want 1", wall.Shape, n)
		}
		w.Close()
	}
}

// TestDepenetrateTieFollowsTreeBug: Depenetrate (and MoveAndSlide, which
// pushes out with it) broke ties between equally short escapes by the
// order in which the broad phase happened to list the overlapped bodies,
// which depends on the order of past inserts and re-inserts, not on the
// state: a box wedged between two mirrored walls escapes up or down by
// 1.75, and a world whose upper wall had once been moved away and back
// went down while the same state restored from its snapshot (same
// StateHash) went up. A rollback or a lockstep peer then diverged.
func TestDepenetrateTieFollowsTreeBug(t *testing.T) {
	box, err := collide.NewAABB(1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	a := collide.NewWorld(collide.Config{Workers: 1})
	defer a.Close()
	up, _ := a.Add(collide.BodyDef{Shape: box, Position: collide.V(0, 0.75), Kind: collide.Static})
	if _, err := a.Add(collide.BodyDef{Shape: box, Position: collide.V(0, -0.75), Kind: collide.Static}); err != nil {
		t.Fatal(err)
	}
	a.Step()
	// Away and back: the upper wall's proxy is re-inserted after the lower.
	_ = a.SetTransform(up, collide.V(100, 0.75), 0)
	a.Step()
	_ = a.SetTransform(up, collide.V(0, 0.75), 0)
	a.Step()
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b := collide.NewWorld(collide.Config{Workers: 1})
	defer b.Close()
	if err := b.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	fresh := collide.NewWorld(collide.Config{Workers: 1}) // the walls added once, in the same order
	defer fresh.Close()
	_, _ = fresh.Add(collide.BodyDef{Shape: box, Position: collide.V(0, 0.75), Kind: collide.Static})
	_, _ = fresh.Add(collide.BodyDef{Shape: box, Position: collide.V(0, -0.75), Kind: collide.Static})
	xf := collide.NewTransform(collide.V(0, 0), 0)
	da, _ := a.Depenetrate(box, xf, collide.Filter{})
	ma, _ := a.MoveAndSlide(box, xf, collide.V(0.5, 0), collide.Filter{})
	for name, w := range map[string]*collide.World{"restored": b, "added once": fresh} {
		d, _ := w.Depenetrate(box, xf, collide.Filter{})
		m, _ := w.MoveAndSlide(box, xf, collide.V(0.5, 0), collide.Filter{})
		if d != da || m != ma {
			t.Errorf("%s world: Depenetrate %v, MoveAndSlide to %v; the world moved about: %v and %v (StateHash %x and %x)",
				name, d, m.Position, da, ma.Position, w.StateHash(), a.StateHash())
		}
	}
}
