package narrowphase_test

import (
	"fmt"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

func ExampleCollide() {
	ball, _ := shape.NewCircle(1)
	crate, _ := shape.NewOBB(2, 1)

	// The ball sits just above the crate's top face and sinks 0.25 into it.
	m, hit := narrowphase.Collide(
		ball, shape.NewTransform(shape.V(0.5, 1.75), 0),
		crate, shape.NewTransform(shape.V(0, 0), 0),
	)
	fmt.Println(hit)
	fmt.Printf("normal (%.3f, %.3f) depth %.3f\n", m.Normal.X, m.Normal.Y, m.Depth)
	p := m.Points[0]
	fmt.Printf("point (%.3f, %.3f)\n", p.Point.X, p.Point.Y)

	// The minimum translation vector makes them touch (up to rounding):
	// moving the crate a hair beyond it clears them. PushOut gives a move
	// checked to clear.
	mtv := m.MTV()
	_, hit = narrowphase.Collide(
		ball, shape.NewTransform(shape.V(0.5, 1.75), 0),
		crate, shape.NewTransform(mtv.Scale(1.001), 0),
	)
	fmt.Println(hit)
	// Output:
	// true
	// normal (0.000, -1.000) depth 0.250
	// point (0.500, 0.875)
	// false
}
