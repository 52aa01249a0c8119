package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
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
