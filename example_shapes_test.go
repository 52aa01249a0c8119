package collide_test

import (
	"fmt"

	"github.com/collide-go/collide"
)

// A capsule player walks diagonally into a level wall made of a chain of
// short collinear segments: it slides along the chain as along one flat
// wall, never catching on the segments' joints.
func ExampleNewChain() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	var pts []collide.Vec2
	for y := -10.0; y <= 10; y += 0.75 {
		pts = append(pts, collide.V(3, y)) // the wall x = 3, in 27 pieces
	}
	wall, _ := collide.NewChain(pts, false)
	_, _ = w.Add(collide.BodyDef{Shape: wall, Kind: collide.Static})
	player, _ := collide.NewCapsule(collide.V(0, -0.5), collide.V(0, 0.5), 0.5)

	r, _ := w.MoveAndSlide(player, collide.NewTransform(collide.V(0, -4), 0), collide.V(6, 8), collide.Filter{})
	fmt.Printf("ended at (%.2f, %.2f), blocked: %v, wall normal (%.0f, %.0f)\n",
		r.Position.X, r.Position.Y, r.Blocked, r.Hits[0].Normal.X, r.Hits[0].Normal.Y)
	// Output: ended at (2.50, 4.00), blocked: true, wall normal (-1, 0)
}

// A concave L-shaped building as one body: NewConcavePolygon cuts the
// outline into convex parts, and contacts name the part they touch.
func ExampleNewConcavePolygon() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	outline := []collide.Vec2{
		collide.V(0, 0), collide.V(6, 0), collide.V(6, 2), collide.V(2, 2), collide.V(2, 6), collide.V(0, 6),
	}
	building, err := collide.NewConcavePolygon(outline)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := w.Add(collide.BodyDef{Shape: building, Kind: collide.Static})
	ball, _ := collide.NewCircle(0.5)
	inNotch, _ := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(4, 4)})  // in the L's notch: no contact
	onArm, _ := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(5, 2.25)}) // on the lower arm
	w.Step()

	fmt.Printf("%d convex parts\n", len(building.Parts()))
	for c := range w.Contacts() {
		c = c.From(b)
		fmt.Printf("contact with the ball in the notch: %v; on the arm: %v, depth %.2f, normal (%.0f, %.0f)\n",
			c.B == inNotch, c.B == onArm, c.Manifold.Depth, c.Manifold.Normal.X+0, c.Manifold.Normal.Y+0)
	}
	// Output:
	// 2 convex parts
	// contact with the ball in the notch: false; on the arm: true, depth 0.25, normal (0, 1)
}
