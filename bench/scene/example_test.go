package scene_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/collide-go/collide/bench/scene"
)

// A benchmark loop: generate a scene, then advance it frame by frame.
func ExampleSwarm() {
	s := scene.Swarm(1000, 1)
	var count [4]int
	for _, b := range s.Bodies {
		count[b.Kind]++
	}
	fmt.Printf("%s: %d bodies in a %.3f world, kinds %v\n", s.Name, s.N, s.World, count)
	for range 60 {
		s.Advance()
	}
	// Output: swarm: 1000 bodies in a 632.456 world, kinds [250 250 250 250]
}

func ExampleReadCSV() {
	const file = `# swarm n=2 world=100 seed=7
circle,1,50,-3,0,0.0,0.0,2.5,0.0,0
poly,50,50,0,0,0.0,0.01,0.0,0.0,3,1,0,0,1,-1,-1
`
	s, err := scene.ReadCSV(strings.NewReader(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Advance()
	b := s.Bodies[0]
	fmt.Printf("body 0 at (%.3f, %.3f) moving (%.3f, %.3f)\n", b.X, b.Y, b.VX, b.VY)

	_, err = scene.ReadCSV(strings.NewReader("# swarm n=1 world=10\ncircle,1,2,abc,0,0,0,1,0,0\n"))
	fmt.Println(err)
	// Output:
	// body 0 at (2.000, 50.000) moving (3.000, 0.000)
	// scene: line 2, field vx: invalid number "abc"
}

func ExampleWriteCSV() {
	s := scene.Arena(10, 1)
	if err := scene.WriteCSV(os.Stdout, &scene.Scene{Name: s.Name, N: 2, World: s.World, Seed: s.Seed, Bodies: s.Bodies[:2]}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # arena n=2 world=63.24555320336759 seed=1 static=0-1
	// aabb,31.622776601683796,0.5,0,0,0,0,31.622776601683796,0.5,0
	// aabb,31.622776601683796,62.74555320336759,0,0,0,0,31.622776601683796,0.5,0
}
