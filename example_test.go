package collide_test

import (
	"fmt"

	"github.com/collide-go/collide"
)

// A game server's tick: move bodies, step, read the contacts and the events.
func Example() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	ball, _ := collide.NewCircle(1)
	crate, _ := collide.NewAABB(1, 1)
	hero, _ := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(0, 0)})
	box, _ := w.Add(collide.BodyDef{Shape: crate, Position: collide.V(3, 0), Kind: collide.Static})

	// At tick 1 the ball just touches the crate: touching is not a contact.
	for tick := range 4 {
		_ = w.Move(hero, collide.V(0.5, 0))
		w.Step()
		for c := range w.Began() {
			fmt.Printf("tick %d: began, hero is A: %v\n", tick, c.A == hero)
		}
		for c := range w.Contacts() {
			m := c.Manifold
			fmt.Printf("tick %d: normal (%.3f, %.3f) depth %.3f\n", tick, m.Normal.X, m.Normal.Y, m.Depth)
		}
	}
	_ = w.Remove(box)
	w.Step()
	for range w.Ended() {
		fmt.Println("ended after the crate was removed")
	}
	// Output:
	// tick 2: began, hero is A: true
	// tick 2: normal (1.000, 0.000) depth 0.500
	// tick 3: normal (1.000, 0.000) depth 1.000
	// ended after the crate was removed
}

// A rotated skill hitbox in front of a hero: which enemies does it touch,
// and how far would each be pushed out?
func ExampleWorld_QueryShape() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	enemy, _ := collide.NewCircle(0.5)
	a, _ := w.Add(collide.BodyDef{Shape: enemy, Position: collide.V(1.8, 2.2)})
	_, _ = w.Add(collide.BodyDef{Shape: enemy, Position: collide.V(-3, 0)})

	hitbox, _ := collide.NewOBB(2, 0.5)
	xf := collide.NewTransform(collide.V(1, 1), 0.785398) // 45° towards +X+Y
	_ = w.QueryShape(hitbox, xf, collide.Filter{}, func(id collide.BodyID, m collide.Manifold) bool {
		fmt.Printf("hit enemy a: %v, push (%.3f, %.3f) by %.3f\n", id == a, m.Normal.X, m.Normal.Y, m.Depth)
		return true
	})
	// Output:
	// hit enemy a: true, push (-0.707, 0.707) by 0.717
}

// A bullet's ray: the first body it hits.
func ExampleWorld_RayCast() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	wall, _ := collide.NewAABB(0.5, 5)
	far, _ := w.Add(collide.BodyDef{Shape: wall, Position: collide.V(20, 0)})
	near, _ := w.Add(collide.BodyDef{Shape: wall, Position: collide.V(10, 0)})
	_ = far

	hit, ok, err := w.RayCast(collide.V(0, 1), collide.V(1, 0), 100, collide.Filter{})
	if err != nil || !ok {
		fmt.Println("miss", err)
		return
	}
	fmt.Printf("hit near wall: %v at (%.3f, %.3f), normal (%.3f, %.3f), distance %.3f\n",
		hit.Body == near, hit.Point.X, hit.Point.Y, hit.Normal.X, hit.Normal.Y, hit.Distance)
	// Output:
	// hit near wall: true at (9.500, 1.000), normal (-1.000, 0.000), distance 9.500
}
