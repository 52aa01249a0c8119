package bench

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
)

// BenchmarkMoveAndSlideSlope walks a character down and along a long
// floor from where its previous move left it, as a game loop does: each
// move starts touching the floor, slides along it and ends touching it
// again. On a turned floor every query at a touch sees an overlap of
// rounding size about half the time, which the narrow phase decides in
// exact arithmetic; on a flat one the floats are exact. One op is one
// MoveAndSlide; the walk restarts every 200.
func BenchmarkMoveAndSlideSlope(b *testing.B) {
	circle, err := collide.NewCircle(0.5)
	if err != nil {
		b.Fatal(err)
	}
	capsule, err := collide.NewCapsule(collide.V(0, -0.5), collide.V(0, 0.5), 0.4)
	if err != nil {
		b.Fatal(err)
	}
	floor, err := collide.NewOBB(1000, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		ch    collide.Shape
		angle float64
	}{
		{"circle/turned", circle, 0.3},
		{"circle/flat", circle, 0},
		{"capsule/turned", capsule, 0.3},
		{"capsule/flat", capsule, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := collide.NewWorld(collide.Config{Workers: 1})
			defer w.Close()
			centre := collide.V(100, 50)
			if _, err := w.Add(collide.BodyDef{Shape: floor, Position: centre, Angle: c.angle, Kind: collide.Static}); err != nil {
				b.Fatal(err)
			}
			s, co := math.Sincos(c.angle)
			along, up := collide.V(co, s), collide.V(-s, co)
			start := centre.Add(up.Scale(3))
			step := along.Scale(0.05).Sub(up.Scale(0.2))
			pos := start
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if i%200 == 0 {
					pos = start
				}
				r, err := w.MoveAndSlide(c.ch, collide.NewTransform(pos, 0), step, collide.Filter{})
				if err != nil {
					b.Fatal(err)
				}
				pos = r.Position
				i++
			}
		})
	}
}
