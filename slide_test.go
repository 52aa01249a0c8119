package collide_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
)

func TestMoveAndSlideFlatWallIsTheAnalyticSlide(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	floor := must[collide.Shape](t)(collide.NewAABB(50, 0.5))
	_, _ = w.Add(collide.BodyDef{Shape: floor, Position: collide.V(0, -1.5), Kind: collide.Static})
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	r, err := w.MoveAndSlide(ball, collide.Transform{}, collide.V(3, -2), collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	// Down to the floor after a quarter of the motion, then along it by
	// the horizontal part of the rest.
	if r.Position != collide.V(3, -0.5) || !r.Blocked || r.Count != 1 || r.Hits[0].Normal != collide.V(0, 1) || r.Hits[0].Fraction != 0.25 {
		t.Errorf("MoveAndSlide = %+v; want position (3, -0.5), one hit at 0.25 with normal +Y", r)
	}
	// Sliding on along the floor is not blocked by it.
	r2, _ := w.MoveAndSlide(ball, collide.NewTransform(r.Position, 0), collide.V(5, 0), collide.Filter{})
	if r2.Position != collide.V(8, -0.5) || r2.Blocked {
		t.Errorf("sliding along the floor = %+v; want (8, -0.5), not blocked", r2)
	}
}

func TestMoveAndSlideStopsInACorner(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	wallV := must[collide.Shape](t)(collide.NewAABB(0.5, 10))
	wallH := must[collide.Shape](t)(collide.NewAABB(10, 0.5))
	_, _ = w.Add(collide.BodyDef{Shape: wallV, Position: collide.V(5.5, 0), Kind: collide.Static})  // face at x = 5
	_, _ = w.Add(collide.BodyDef{Shape: wallH, Position: collide.V(0, -5.5), Kind: collide.Static}) // face at y = -5
	box := must[collide.Shape](t)(collide.NewAABB(0.5, 0.5))
	r, err := w.MoveAndSlide(box, collide.Transform{}, collide.V(20, -30), collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Position.X-4.5) > 1e-12 || math.Abs(r.Position.Y+4.5) > 1e-12 {
		t.Errorf("into a corner: %+v, want (4.5, -4.5)", r)
	}
	if _, ok := overlapsAny(w, box, collide.NewTransform(r.Position, 0)); ok {
		t.Errorf("ends overlapping a wall at %v", r.Position)
	}
}

// overlapsAny reports a body that shape s placed by t overlaps.
func overlapsAny(w *collide.World, s collide.Shape, t collide.Transform) (collide.BodyID, bool) {
	var hit collide.BodyID
	found := false
	_ = w.QueryShape(s, t, collide.Filter{}, func(id collide.BodyID, m collide.Manifold) bool {
		hit, found = id, true
		return false
	})
	return hit, found
}

// TestMoveAndSlideNeverPassesThrough moves characters of every kind through
// random levels of walls (thin ones included) with long moves: the first
// leg never overlaps a wall on the way and the character never ends
// overlapping one.
func TestMoveAndSlideNeverPassesThrough(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	rounds := 200
	if testing.Short() {
		rounds = 40
	}
	for round := range rounds {
		w := collide.NewWorld(collide.Config{Workers: 1})
		for range 25 {
			var sh collide.Shape
			switch r.IntN(3) {
			case 0:
				sh = must[collide.Shape](t)(collide.NewOBB(0.05+3*r.Float64(), 0.01+0.3*r.Float64()))
			case 1:
				sh = must[collide.Shape](t)(collide.NewAABB(0.1+2*r.Float64(), 0.1+2*r.Float64()))
			default:
				sh = must[collide.Shape](t)(collide.NewCircle(0.2 + r.Float64()))
			}
			_, _ = w.Add(collide.BodyDef{Shape: sh, Position: collide.V(20*r.Float64(), 20*r.Float64()), Angle: 7 * r.Float64(), Kind: collide.Static})
		}
		var ch collide.Shape
		switch round % 3 {
		case 0:
			ch = must[collide.Shape](t)(collide.NewCircle(0.3))
		case 1:
			ch = must[collide.Shape](t)(collide.NewAABB(0.3, 0.5))
		default:
			ch = must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.3, Y: -0.4}, {X: 0.3, Y: -0.4}, {X: 0, Y: 0.5}}))
		}
		start := collide.NewTransform(collide.V(20*r.Float64(), 20*r.Float64()), 0)
		if _, ok := overlapsAny(w, ch, start); ok {
			continue // the wedged case is Depenetrate's test
		}
		delta := collide.V(30*(r.Float64()-0.5), 30*(r.Float64()-0.5))
		res, err := w.MoveAndSlide(ch, start, delta, collide.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if id, ok := overlapsAny(w, ch, collide.NewTransform(res.Position, 0)); ok {
			b, _ := w.Body(id)
			m, _ := collide.Collide(ch, collide.NewTransform(res.Position, 0), b.Shape, collide.NewTransform(b.Position, b.Angle))
			if m.Depth > 1e-9 {
				t.Fatalf("round %d: MoveAndSlide(%v from %v by %v) = %+v ends %g deep in %v", round, ch, start.Pos, delta, res, m.Depth, b.Shape)
			}
		}
		first := delta
		if res.Count > 0 {
			first = delta.Scale(res.Hits[0].Fraction)
		}
		for i := 0; i <= 200; i++ {
			p := start.Pos.Add(first.Scale(float64(i) / 200))
			if id, ok := overlapsAny(w, ch, collide.NewTransform(p, 0)); ok {
				b, _ := w.Body(id)
				m, _ := collide.Collide(ch, collide.NewTransform(p, 0), b.Shape, collide.NewTransform(b.Position, b.Angle))
				if m.Depth > 1e-9 {
					t.Fatalf("round %d: the first leg of %v from %v by %v passes %g deep through %v at %v", round, ch, start.Pos, delta, m.Depth, b.Shape, p)
				}
			}
		}
	}
}

// TestDepenetrateWedgedInACorner: players wedged where two overlapping
// walls meet are pushed out of both at once (summing the two MTVs, or
// taking them one after the other, left some stuck or pushed too far).
func TestDepenetrateWedgedInACorner(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	stuck, checked := 0, 0
	for range 500 {
		w := collide.NewWorld(collide.Config{Workers: 1})
		a := 3 * r.Float64()
		wall := must[collide.Shape](t)(collide.NewOBB(5, 0.5))
		_, _ = w.Add(collide.BodyDef{Shape: wall, Angle: a, Kind: collide.Static})
		_, _ = w.Add(collide.BodyDef{Shape: wall, Angle: a + 0.6 + 1.5*r.Float64(), Kind: collide.Static})
		ball := must[collide.Shape](t)(collide.NewCircle(0.5))
		p := collide.V(r.Float64()-0.5, r.Float64()-0.5)
		d, err := w.Depenetrate(ball, collide.NewTransform(p, 0), collide.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := overlapsAny(w, ball, collide.NewTransform(p.Add(d), 0)); ok {
			stuck++
		}
		if checked < 40 {
			// Brute force: the shortest escape on a polar grid.
			checked++
			best := math.Inf(1)
			for i := range 360 {
				s, c := math.Sincos(2 * math.Pi * float64(i) / 360)
				for k := 1; k <= 800 && float64(k)*0.01 < best; k++ {
					x := collide.V(c, s).Scale(float64(k) * 0.01)
					if _, ok := overlapsAny(w, ball, collide.NewTransform(p.Add(x), 0)); !ok {
						best = math.Min(best, x.Len())
						break
					}
				}
			}
			if d.Len() > 1.25*best+0.02 {
				t.Errorf("wedged at %v: pushed %v, but an escape of %v exists", p, d.Len(), best)
			}
		}
	}
	if stuck != 0 {
		t.Errorf("%d of 500 wedged players still overlap a wall", stuck)
	}
	// Two walls meeting at a right angle: out of both by exactly their
	// depths (to PushOut's margin).
	w := collide.NewWorld(collide.Config{Workers: 1})
	_, _ = w.Add(collide.BodyDef{Shape: must[collide.Shape](t)(collide.NewAABB(5, 0.5)), Position: collide.V(0, -0.5), Kind: collide.Static})
	_, _ = w.Add(collide.BodyDef{Shape: must[collide.Shape](t)(collide.NewAABB(0.5, 5)), Position: collide.V(-0.5, 0), Kind: collide.Static})
	box := must[collide.Shape](t)(collide.NewAABB(1, 1))
	d, _ := w.Depenetrate(box, collide.NewTransform(collide.V(0.7, 0.6), 0), collide.Filter{})
	if math.Abs(d.X-0.3) > 1e-12 || math.Abs(d.Y-0.4) > 1e-12 {
		t.Errorf("Depenetrate from a right-angled corner = %v, want (0.3, 0.4)", d)
	}
}

// TestMoveAndSlideSameWallTwiceBug: a ball (r 0.5) slid into a long wall
// turned by a multiple of π/2 (an OBB 100×0.5 at the origin, whose cos is
// 6e-17, not 0) recorded the wall twice. The motion clipped against the
// first hit's normal goes into the wall by an angle of rounding size, and
// the cast from the touch found the wall again a little later. The end was
// right, but each duplicate used one of the MaxSlides slides, so a
// character in a corner could stop early. Straight into a wall at any
// angle, the motion left after the clip is a vector of rounding size, in
// any direction: into the wall, the cast from the touch met it again.
func TestMoveAndSlideSameWallTwiceBug(t *testing.T) {
	tests := []struct {
		name         string
		angle        float64
		start, delta collide.Vec2
	}{
		{"quarter-turn", math.Pi / 2, collide.V(-2, -8), collide.V(4, 3)},
		{"half-turn", math.Pi, collide.V(8, -2), collide.V(7, 3)},
		{"three-quarter-turn", 3 * math.Pi / 2, collide.V(2, 8), collide.V(-3, -5)},
		// Straight into a wall at any angle: the motion left after the
		// clip is not zero but a vector of rounding size, in any direction.
		{"head-on", 0.125, collide.V(-0.24934946677045539, 1.984395334458658), collide.V(0.24934946677045539, -1.984395334458658)},
	}
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	wall := must[collide.Shape](t)(collide.NewOBB(100, 0.5))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := collide.NewWorld(collide.Config{Workers: 1})
			id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: wall, Angle: tt.angle, Kind: collide.Static}))
			r, err := w.MoveAndSlide(ball, collide.NewTransform(tt.start, 0), tt.delta, collide.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Count != 1 || r.Hits[0].Body != id {
				t.Errorf("MoveAndSlide(ball from %v by %v) into one wall at angle %v = %d hits %+v, want one, on the wall", tt.start, tt.delta, tt.angle, r.Count, r.Hits[:r.Count])
			}
		})
	}
}

// TestMoveAndSlideTouchingOnePartPassesAnotherBug: a character resting
// exactly on one part of a body and moving along it passed a touch at the
// start on the whole body, so it went straight through another part of
// the same body: a ball on the floor of an L-shaped chain ran through the
// chain's wall, and the same with a compound of a floor box and a wall box
// (the exact MoveAndSlide oracle found it with a compound, seed
// 8689384885091501911).
func TestMoveAndSlideTouchingOnePartPassesAnotherBug(t *testing.T) {
	ell := must[collide.Shape](t)(collide.NewChain([]collide.Vec2{collide.V(-10, 0), collide.V(10, 0), collide.V(10, 10)}, false))
	floor := must[collide.Shape](t)(collide.NewOBB(10, 0.5))
	wall := must[collide.Shape](t)(collide.NewOBB(0.5, 5))
	boxes := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		{Shape: floor, Offset: collide.NewTransform(collide.V(0, -0.5), 0)},
		{Shape: wall, Offset: collide.NewTransform(collide.V(10.5, 5), 0)},
	}))
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	for _, c := range []struct {
		name string
		body collide.Shape
	}{{"chain", ell}, {"compound", boxes}} {
		for _, base := range []float64{0, 1e6} {
			w := collide.NewWorld(collide.Config{Workers: 1})
			if _, err := w.Add(collide.BodyDef{Shape: c.body, Position: collide.V(base, base), Kind: collide.Static}); err != nil {
				t.Fatal(err)
			}
			// Resting exactly on the floor, then 20 units right: the wall's
			// face is at x = 10, so the ball stops at 9.5.
			res, err := w.MoveAndSlide(ball, collide.NewTransform(collide.V(base, base+0.5), 0), collide.V(20, 0), collide.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Position.X - base; !res.Blocked || math.Abs(got-9.5) > 1e-9 {
				t.Errorf("%s at %g: ball on the floor moved by (20, 0) ends at x = %v (blocked %v), want 9.5 against the wall", c.name, base, got, res.Blocked)
			}
		}
	}
}
