package collide_test

import (
	"fmt"
	"sync"

	"github.com/collide-go/collide"
)

// Rollback netcode: save the world every frame, and when a late input
// arrives, restore the frame it belongs to and simulate again; the state
// hashes tell whether the re-simulated frames match.
func ExampleWorld_UnmarshalBinary_rollback() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball, _ := collide.NewCircle(0.5)
	wall, _ := collide.NewAABB(0.5, 5)
	_, _ = w.Add(collide.BodyDef{Shape: wall, Position: collide.V(6, 0), Kind: collide.Static})
	player, _ := w.Add(collide.BodyDef{Shape: ball})

	inputs := []collide.Vec2{{X: 1}, {X: 1}, {X: 1}, {X: 1}, {X: 1}, {X: 1}}
	saved := make([][]byte, len(inputs))
	hashes := make([]uint64, len(inputs))
	for f, in := range inputs {
		saved[f], _ = w.MarshalBinary() // the state before frame f
		_ = w.Move(player, in)
		w.Step()
		hashes[f] = w.StateHash()
	}

	// Replaying from frame 2's snapshot with the same inputs gives the same
	// states, bit for bit.
	resim := func(from int) (same int) {
		if err := w.UnmarshalBinary(saved[from]); err != nil {
			fmt.Println(err)
			return 0
		}
		for f := from; f < len(inputs); f++ {
			_ = w.Move(player, inputs[f])
			w.Step()
			if w.StateHash() == hashes[f] {
				same++
			}
		}
		return same
	}
	fmt.Printf("replayed 4 frames, %d with the same state hash\n", resim(2))

	// Frame 2's input was really (1, 0.5): roll back and simulate again.
	inputs[2] = collide.V(1, 0.5)
	fmt.Printf("corrected frame 2, %d of 4 frames with the old hash\n", resim(2))
	p, _ := w.Body(player)
	fmt.Printf("the player is at (%.1f, %.1f), touching the wall: %v\n", p.Position.X, p.Position.Y, w.ContactCount() == 1)
	// Output:
	// replayed 4 frames, 4 with the same state hash
	// corrected frame 2, 0 of 4 frames with the old hash
	// the player is at (6.0, 0.5), touching the wall: true
}

// A game server runs one World per room and steps all its rooms each tick
// on a few goroutines of its own. Small rooms step on the goroutine that
// calls Step; the worker goroutines of big rooms are shared by all worlds.
func Example_manyRooms() {
	const rooms = 100
	ball, _ := collide.NewCircle(1)
	worlds := make([]*collide.World, rooms)
	players := make([]collide.BodyID, rooms)
	for i := range worlds {
		worlds[i] = collide.NewWorld(collide.Config{Workers: 1})
		_, _ = worlds[i].Add(collide.BodyDef{Shape: ball, Position: collide.V(5, 0), Kind: collide.Static})
		players[i], _ = worlds[i].Add(collide.BodyDef{Shape: ball, Position: collide.V(float64(i%4), 0)})
	}
	const goroutines = 4
	var wg sync.WaitGroup
	contacts := make([]int, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() { // in a server: long-lived, woken once per tick
			defer wg.Done()
			for i := g; i < rooms; i += goroutines {
				_ = worlds[i].Move(players[i], collide.V(2, 0))
				worlds[i].Step()
				contacts[g] += worlds[i].ContactCount()
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range contacts {
		total += c
	}
	fmt.Printf("%d rooms stepped, %d with a contact\n", rooms, total)
	// Output: 100 rooms stepped, 50 with a contact
}
