package collide_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/shape"
)

// TestDepenetrateBetweenTwoBarsBug: a box straddling two thin bars (1/64
// thick, 1.25 apart), in a corridor between a floor and a ceiling with a
// compound, a polygon and a box around, where every way out of both bars
// lands in another body. Depenetrate took the shortest candidate, the
// push out of the upper bar alone (0.13 down, still in the lower one),
// then in the next round only the lower bar's push (0.64 up, back into the
// upper one), and so on: the rounds forget the bodies they left, so they
// went back and forth between the bars until they ran out, and
// MoveAndSlide ended 0.64 deep in a bar (TestExactMoveAndSlide, seed
// 2247143083020872657, found it at 1e12; it fails the same at 0). The
// shortest free place is 3.1875 straight down, past the floor (sampling
// every 1/512 within 5.8 in x and y finds none nearer).
func TestDepenetrateBetweenTwoBarsBug(t *testing.T) {
	for _, base := range []float64{0, 1e6, 1e12} {
		origin := collide.V(base, -base)
		w := collide.NewWorld(collide.Config{Workers: 1})
		var bodies []*esBody
		add := func(s collide.Shape, p collide.Vec2, a float64) {
			b := &esBody{s: s, xf: collide.NewTransform(origin.Add(p), a)}
			b.id = must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: s, Position: b.xf.Pos, Angle: a, Kind: collide.Static}))
			bodies = append(bodies, b)
		}
		poly := func(v ...collide.Vec2) collide.Shape { return must[collide.Shape](t)(collide.NewPolygon(v)) }
		add(must[collide.Shape](t)(collide.NewAABB(8, 0.25)), collide.V(0, 1.1875), 0) // the floor
		add(must[collide.Shape](t)(collide.NewAABB(8, 0.25)), collide.V(0, 5.1875), 0) // the ceiling
		add(must[collide.Shape](t)(collide.NewOBB(1.875, 0.0078125)), collide.V(-4, 2.75), math.Pi)
		add(must[collide.Shape](t)(collide.NewOBB(2.5, 0.0078125)), collide.V(-5.1875, 4), 0)
		add(must[collide.Shape](t)(collide.NewCompound([]collide.Part{
			{Shape: poly(collide.V(0.5, 0.375), collide.V(0.125, 0.625), collide.V(-0.25, 0.5))},
			{Shape: poly(collide.V(0.5, -0.4375), collide.V(1.1875, 0), collide.V(0.5, 0.375))},
			{Shape: poly(collide.V(0.5, 0.375), collide.V(-0.25, 0.5), collide.V(-2.0625, 0.75), collide.V(-1.25, -0.4375), collide.V(-0.4375, -0.75), collide.V(0.1875, -0.9375), collide.V(0.5, -0.4375))},
		})), collide.V(-7.6875, 2.625), math.Pi/2)
		add(poly(collide.V(-1.5, -0.375), collide.V(-1.375, -1.5), collide.V(1.75, 0), collide.V(1.8125, 0.125), collide.V(-1.5, 1.1875)), collide.V(-0.4375, 4.9375), 2.875136246781306)
		add(must[collide.Shape](t)(collide.NewAABB(0.8125, 0.9375)), collide.V(-1.3125, 1.5625), 0)
		box := must[collide.Shape](t)(collide.NewAABB(1, 0.9375))
		xf := collide.Transform{Pos: origin.Add(collide.V(-5.25, 3.1875))}
		limit := 1e-9 * box.BoundingRadius()
		d, err := w.Depenetrate(box, xf, collide.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		end := collide.Transform{Pos: xf.Pos.Add(d)}
		if deep, b := esDeepest(box, end, bodies, collide.Filter{}, limit); deep > limit {
			t.Errorf("at %g: Depenetrate(box between the bars) = %v, which leaves it %g deep in %v at %v", base, d, deep, b.s, b.xf.Pos)
		}
		// 3.1875 plus PushOut's kind of margin (ulps of the coordinates).
		if want := 3.1875 + 64*0x1p-52*(1+2*base); d.Len() > want {
			t.Errorf("at %g: Depenetrate(box between the bars) = %v, length %v; the shortest free move is 3.1875 down", base, d, d.Len())
		}
		res, err := w.MoveAndSlide(box, xf, collide.V(-11.1875, 0), collide.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if deep, b := esDeepest(box, collide.Transform{Pos: res.Position}, bodies, collide.Filter{}, limit); deep > limit {
			t.Errorf("at %g: MoveAndSlide(box between the bars) = %+v ends %g deep in %v at %v", base, res, deep, b.s, b.xf.Pos)
		}
	}
}

// TestDepenetrateCapsuleAcrossWallGoesOut: TestMoveAndSlideStaysInRoom
// (seed 11372250536875269044, room 8 frame 39, at 1e12) nudged a capsule
// whose origin lies off its centre (ends at -0.5 and 0.1875) into its
// room's wall, nearly along it, until its core crossed the wall: its
// origin 0.005 inside, the end at -0.5 0.0229 outside, the other 0.0158
// inside. A chain is two-sided, so the shortest way out is out of the room,
// 0.0158 + r = 0.1095, not in, 0.0229 + r = 0.1166; Depenetrate takes it,
// as its contract says, and the oracle was wrong to nudge so deep: it now
// presses a character into walls by less than half its width. The
// distances are exact (math/big), at 0, 1e6 and 1e12.
func TestDepenetrateCapsuleAcrossWallGoesOut(t *testing.T) {
	outline := []collide.Vec2{{X: 7.875, Y: 0.6875}, {X: 1.0625, Y: 7.4375}, {X: -5.875, Y: 3.3125}, {X: -2.625, Y: -3.1875}, {X: 3.9375, Y: -6.625}}
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	const r = 0.09375
	capsule := must[collide.Shape](t)(collide.NewCapsule(collide.V(0, -0.5), collide.V(0, 0.1875), r))
	c, sn := 1-1.8678493593916796, -0.4968274241660292
	rot := shape.RotFromCosSin(c, sn)
	at := collide.V(-3.3221435546875, -1.781494140625) // from the room's origin
	// The signed distances (inside positive) of the core's ends from the
	// wall's line, from p = outline[2] along e = outline[3] - p: the cross
	// product e × (end - p) over |e|, exact but for the last division.
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	p, e := outline[2], outline[3].Sub(outline[2])
	var in, out float64 // how far the core reaches inside and outside
	for _, y := range []float64{-0.5, 0.1875} {
		// end = at + rot·(0, y) = (at.X - sn·y, at.Y + c·y)
		x0 := new(big.Rat).Sub(rat(at.X), new(big.Rat).Mul(rat(sn), rat(y)))
		y0 := new(big.Rat).Add(rat(at.Y), new(big.Rat).Mul(rat(c), rat(y)))
		dx, dy := x0.Sub(x0, rat(p.X)), y0.Sub(y0, rat(p.Y))
		cr := new(big.Rat).Sub(new(big.Rat).Mul(rat(e.X), dy), new(big.Rat).Mul(rat(e.Y), dx))
		f, _ := cr.Float64()
		d := f / e.Len() // the room is counter-clockwise: inside is to e's left
		in, out = max(in, d), max(out, -d)
	}
	if !(in > 0 && out > 0 && in < out) {
		t.Fatalf("the core reaches %g inside and %g outside: the case no longer crosses the wall with the shorter part inside", in, out)
	}
	inward := collide.V(-e.Y, e.X).Scale(1 / e.Len())
	for _, base := range []float64{0, 1e6, 1e12} {
		origin := collide.V(base, -base)
		w := collide.NewWorld(collide.Config{Workers: 1})
		id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Position: origin, Kind: collide.Static}))
		xf := collide.Transform{Pos: origin.Add(at), Rot: rot}
		d, err := w.Depenetrate(capsule, xf, collide.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		// PushOut's margin: a few ulps of the coordinates and sizes.
		if want := in + r; d.Len() < want-1e-12 || d.Len() > want+16*0x1p-52*(math.Abs(xf.Pos.X)+math.Abs(xf.Pos.Y)+room.BoundingRadius()+1) || d.Dot(inward) >= 0 {
			t.Errorf("at %g: Depenetrate(capsule across the wall) = %v (length %v, %v along the inward normal), want %v out of the room (%v in)", base, d, d.Len(), d.Dot(inward), want, out+r)
		}
		bodies := []*esBody{{id: id, s: room, xf: collide.NewTransform(origin, 0)}}
		limit := 1e-9 * capsule.BoundingRadius()
		if deep, _ := esDeepest(capsule, collide.Transform{Pos: xf.Pos.Add(d), Rot: rot}, bodies, collide.Filter{}, limit); deep > limit {
			t.Errorf("at %g: Depenetrate(capsule across the wall) = %v leaves it %g deep", base, d, deep)
		}
	}
}

// TestDepenetrateTwoDiscsAcrossBarBug: a character of two discs, one
// 0.048 into a box and the other 0.058 into a thin bar that passes
// between them, with a capsule and a chain close by (at 1e6:
// TestDepenetrateWedgesOracle, seed 1836320516950748667 case 117; it
// fails the same at 0). Depenetrate pushed it 1.156 where 0.0585 frees it
// (sampling every 0.0005 along 7,200 directions, exact predicates): its
// exits cast the whole character back from far, and so found where its
// last disc leaves a body, not where the discs in it do: along the bar's
// normal the other disc crosses the bar later, 0.15 to 0.54 out.
func TestDepenetrateTwoDiscsAcrossBarBug(t *testing.T) {
	discs := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.1875)), Offset: collide.NewTransform(collide.V(-0.1875, 0), 0)},
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.125)), Offset: collide.NewTransform(collide.V(0.25, 0.0625), 0)},
	}))
	for _, base := range []float64{0, 1e6, 1e12} {
		origin := collide.V(base, -base)
		w := collide.NewWorld(collide.Config{Workers: 1})
		var bodies []*esBody
		add := func(s collide.Shape, p collide.Vec2, a float64) {
			b := &esBody{s: s, xf: collide.NewTransform(origin.Add(p), a)}
			b.id = must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: s, Position: b.xf.Pos, Angle: a, Kind: collide.Static}))
			bodies = append(bodies, b)
		}
		add(must[collide.Shape](t)(collide.NewCapsule(collide.V(-2.5625, 0), collide.V(2.3125, 0), 0.1875)), collide.V(-0.24170414976194346, -0.06386786349844507), 4.970724287593167)
		add(must[collide.Shape](t)(collide.NewOBB(2.375, 0.375)), collide.V(0.5437811311341786, -0.42066415514330824), 0.9123671792968204)
		add(must[collide.Shape](t)(collide.NewChain([]collide.Vec2{{X: -1.125, Y: -0.5}, {X: 0, Y: 0}, {X: 1, Y: -0.9375}}, false)), collide.V(-0.8098131491344759, 0.0660220681961958), 1.4894487076223202)
		add(must[collide.Shape](t)(collide.NewOBB(2.5625, 0.0078125)), collide.V(-0.11077090463239594, 0.057920693080458226), 1.0890070164713783)
		xf := collide.Transform{Pos: origin.Add(collide.V(0.1875, 0.25)), Rot: shape.RotFromCosSin(1-1.5602712916818033, 0.8283091691616142)}
		d, err := w.Depenetrate(discs, xf, collide.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		limit := 1e-9 * discs.BoundingRadius()
		if deep, b := h7Deepest(discs, collide.Transform{Pos: xf.Pos.Add(d), Rot: xf.Rot}, bodies, limit, origin); deep > limit {
			t.Errorf("at %g: Depenetrate(two discs) = %v leaves them %g deep in %v", base, d, deep, b.s)
		}
		// The shortest sampled, 0.0585, and 3% for the directions
		// Depenetrate tries; at 1e12, where the places round by 1.2e-4
		// and the margins are ulps of them, 8 ulps more.
		if d.Len() > 0.06+8*0x1p-52*2*base {
			t.Errorf("at %g: Depenetrate(two discs) = %v, length %v; 0.0585 frees them", base, d, d.Len())
		}
	}
}

// TestDepenetrateTwoDiscsInCornerFarOutBug: two discs slid into a room's
// convex corner at 1e6 end a rounding hair (1e-9) into its walls, by
// Collide of the whole character. Leaving the walls part by part (see
// TestDepenetrateTwoDiscsAcrossBarBug), Depenetrate placed each disc in
// world coordinates, off by an ulp of 1e6 (1e-10) from where Collide
// places it, and no disc overlapped a wall: the exits fell back to casts
// against the whole room, and the discs were pushed 0.49 out of the room
// where 2e-9 frees them (TestMoveAndSlideStaysInRoom, seed
// 12459660061077390393 room 7 frame 35, found it).
func TestDepenetrateTwoDiscsInCornerFarOutBug(t *testing.T) {
	discs := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.1875)), Offset: collide.NewTransform(collide.V(-0.1875, 0), 0)},
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.125)), Offset: collide.NewTransform(collide.V(0.25, 0.0625), 0)},
	}))
	outline := []collide.Vec2{{X: 6.3125, Y: 1.9375}, {X: 2.5, Y: 3.6875}, {X: -0.5625, Y: 9.0625}, {X: -3.8125, Y: 3.1875}, {X: -6.75, Y: -0.875}, {X: -5.8125, Y: -5.8125}, {X: 0.25, Y: -6.5625}, {X: 3.25, Y: -3.1875}}
	origin := collide.V(1e6, -1e6)
	world := make([]collide.Vec2, len(outline))
	for i, p := range outline {
		world[i] = origin.Add(p)
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	room := must[collide.Shape](t)(collide.NewChain(outline, true))
	id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: room, Position: origin, Kind: collide.Static}))
	xf := collide.Transform{Pos: collide.V(999999.3964078466, -999991.5028678252), Rot: shape.RotFromCosSin(1-1.2320294693253686, -0.9727087567019164)}
	d, err := w.Depenetrate(discs, xf, collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	end := collide.Transform{Pos: xf.Pos.Add(d), Rot: xf.Rot}
	if d.Len() > 1e-6 || !h7InsideAll(world, discs, end) {
		t.Errorf("Depenetrate(two discs in the corner) = %v (length %g), want a push of 1e-6 at most, in the room", d, d.Len())
	}
	limit := 1e-9 * discs.BoundingRadius()
	bodies := []*esBody{{id: id, s: room, xf: collide.NewTransform(origin, 0)}}
	if deep, _ := h7Deepest(discs, end, bodies, limit, origin); deep > limit {
		t.Errorf("Depenetrate(two discs in the corner) = %v leaves them %g deep", d, deep)
	}
}

// TestRayCastClippedTieBug: the world's closest-hit RayCast asked each
// body's narrow phase with the ray clipped at the best distance so far.
// A chain segment crossed at exactly 3.5 gives 3.5000000000000004 for the
// ray of length 4 and 3.5 for the ray clipped at 3.5 (the clip ends on
// its surface), so a circle grazed at 3.5 and visited first made the
// chain's clipped hit tie with it and win on its lower id, where
// RayCastAll, whose hits are the unclipped ones, puts the circle first
// (TestOracleConfigs/no-margin seed 16139880287646523814). RayCast must
// answer RayCastAll's first hit.
func TestRayCastClippedTieBug(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ch, err := collide.NewChain([]collide.Vec2{collide.V(-3.25, -1), collide.V(-2.25, 0.25)}, false)
	if err != nil {
		t.Fatal(err)
	}
	chain, _ := w.Add(collide.BodyDef{Shape: ch, Position: collide.V(4.625, 6.375), Kind: collide.Static})
	circ, _ := w.Add(collide.BodyDef{Shape: must[collide.Shape](t)(collide.NewCircle(2)), Position: collide.V(1.875, 8), Kind: collide.Static})
	origin, dir := collide.V(-1.625, 6), collide.V(0.25, 0)
	var all []collide.RayHit
	if err := w.RayCastAll(origin, dir, 4, collide.Filter{}, func(h collide.RayHit) bool { all = append(all, h); return true }); err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 {
		t.Fatalf("RayCastAll found %d hits, want the chain %v and the circle %v: %+v", len(all), chain, circ, all)
	}
	h, ok, err := w.RayCast(origin, dir, 4, collide.Filter{})
	if err != nil || !ok {
		t.Fatalf("RayCast = %+v, %v, %v; want a hit", h, ok, err)
	}
	if h != all[0] {
		t.Errorf("RayCast = %+v, want RayCastAll's first %+v (all: %+v)", h, all[0], all)
	}
}
