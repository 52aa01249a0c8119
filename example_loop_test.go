package collide_test

import (
	"fmt"

	"github.com/collide-go/collide"
)

// A server tick as a game loop writes it: move the players, push them out of
// the walls, step, act on the events, then answer the tick's questions.
func Example_gameLoop() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	body, _ := collide.NewCircle(0.5)
	wallShape, _ := collide.NewAABB(5, 0.5)
	shopShape, _ := collide.NewAABB(1, 1)

	const players, monsters = 2, 4 // category bits (1 is the default's)
	_, _ = w.Add(collide.BodyDef{Shape: wallShape, Position: collide.V(0, -1), Kind: collide.Static})
	shop, _ := w.Add(collide.BodyDef{Shape: shopShape, Position: collide.V(3, 0.5), Kind: collide.Static, Sensor: true})
	hero, _ := w.Add(collide.BodyDef{Shape: body, UserData: "hero",
		Filter: collide.Filter{Category: players, Mask: ^uint32(0)}})
	orc, _ := w.Add(collide.BodyDef{Shape: body, Position: collide.V(8, 0), UserData: "orc",
		Filter: collide.Filter{Category: monsters, Mask: ^uint32(0)}})
	solid := collide.Filter{Exclude: hero, SkipSensors: true} // walls and monsters, not the hero

	for tick := range 4 {
		// 1. Move: the input says right and a little down, into the wall.
		_ = w.Move(hero, collide.V(1, -0.2))

		// 2. Push out: the query sees the move already, no Step needed.
		b, _ := w.Body(hero)
		xf := collide.NewTransform(b.Position, 0)
		_ = w.QueryShape(body, xf, solid, func(id collide.BodyID, _ collide.Manifold) bool {
			other, _ := w.Body(id)
			if d, ok := collide.PushOut(body, xf, other.Shape, collide.NewTransform(other.Position, other.Angle)); ok {
				_ = w.Move(hero, d)
				xf.Pos = xf.Pos.Add(d)
			}
			return true
		})

		// 3. Step, 4. events: the shop is a trigger zone.
		w.Step()
		for c := range w.Began() {
			if c.Sensor && c.Other(shop) == hero {
				fmt.Printf("tick %d: hero entered the shop\n", tick)
			}
		}
		for c := range w.Contacts() {
			if !c.Sensor && (c.A == hero || c.B == hero) {
				fmt.Printf("tick %d: hero still in a wall\n", tick)
			}
		}

		// 5. Queries: line of sight to the orc, and aggro within 6 units.
		b, _ = w.Body(hero)
		if h, ok, _ := w.RayCast(b.Position, collide.V(1, 0), 20, solid); ok && h.Body == orc {
			fmt.Printf("tick %d: hero at x=%.1f y=%.3f sees the orc %.1f away\n", tick, b.Position.X, b.Position.Y, h.Distance)
		}
		_ = w.NearestWithin(collide.V(8, 0), 1, 6, collide.Filter{Mask: players}, func(id collide.BodyID, d float64) bool {
			fmt.Printf("tick %d: the orc aggroes on the hero, %.1f away\n", tick, d)
			return true
		})
	}
	// Output:
	// tick 0: hero at x=1.0 y=0.000 sees the orc 6.5 away
	// tick 1: hero entered the shop
	// tick 1: hero at x=2.0 y=0.000 sees the orc 5.5 away
	// tick 1: the orc aggroes on the hero, 5.5 away
	// tick 2: hero at x=3.0 y=0.000 sees the orc 4.5 away
	// tick 2: the orc aggroes on the hero, 4.5 away
	// tick 3: hero at x=4.0 y=0.000 sees the orc 3.5 away
	// tick 3: the orc aggroes on the hero, 3.5 away
}

// A fast projectile never passes through a thin wall: the cast finds the
// wall at the exact fraction of the tick's motion.
func ExampleWorld_CastShape() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	wallShape, _ := collide.NewAABB(0.01, 5) // 2 cm thick
	wall, _ := w.Add(collide.BodyDef{Shape: wallShape, Position: collide.V(10, 0), Kind: collide.Static})
	bullet, _ := collide.NewCircle(0.1)

	// 40 units in one tick, from x = 0: the wall is 9.89 units away.
	hit, ok, _ := w.CastShape(bullet, collide.NewTransform(collide.V(0, 0), 0), collide.V(40, 0), collide.Filter{})
	fmt.Printf("hit the wall: %v, after %.3f of the motion, at (%.2f, %.2f), normal (%.0f, %.0f)\n",
		ok && hit.Body == wall, hit.Fraction, hit.Point.X, hit.Point.Y, hit.Normal.X, hit.Normal.Y)
	// Output: hit the wall: true, after 0.247 of the motion, at (9.99, 0.00), normal (-1, 0)
}

// A character walking diagonally into a wall slides along it.
func ExampleWorld_MoveAndSlide() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	wallShape, _ := collide.NewAABB(0.5, 20)
	_, _ = w.Add(collide.BodyDef{Shape: wallShape, Position: collide.V(3.5, 0), Kind: collide.Static}) // face at x = 3
	player, _ := collide.NewCircle(0.5)

	r, _ := w.MoveAndSlide(player, collide.NewTransform(collide.V(0, 0), 0), collide.V(4, 3), collide.Filter{})
	fmt.Printf("ended at (%.2f, %.2f), blocked: %v, wall normal (%.0f, %.0f)\n",
		r.Position.X, r.Position.Y, r.Blocked, r.Hits[0].Normal.X, r.Hits[0].Normal.Y)
	// Output: ended at (2.50, 3.00), blocked: true, wall normal (-1, 0)
}

// A bullet body crossing a trigger zone and a thin wall within one Step:
// both are contacts of that Step, swept, with the fraction of the motion at
// which the bullet reached each.
func ExampleBodyDef_bullet() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	zoneShape, _ := collide.NewAABB(1, 3)
	wallShape, _ := collide.NewAABB(0.01, 3)
	zone, _ := w.Add(collide.BodyDef{Shape: zoneShape, Position: collide.V(5, 0), Kind: collide.Static, Sensor: true})
	wall, _ := w.Add(collide.BodyDef{Shape: wallShape, Position: collide.V(20, 0), Kind: collide.Static})
	ball, _ := collide.NewCircle(0.1)
	shot, _ := w.Add(collide.BodyDef{Shape: ball, Bullet: true})
	w.Step()

	_ = w.Move(shot, collide.V(40, 0)) // 40 units in one tick: past both
	w.Step()
	for c := range w.Began() {
		what := map[collide.BodyID]string{zone: "zone", wall: "wall"}[c.Other(shot)]
		fmt.Printf("%s: swept %v at %.4f of the motion\n", what, c.Swept, c.TOI)
	}
	// Output:
	// zone: swept true at 0.0975 of the motion
	// wall: swept true at 0.4972 of the motion
}
