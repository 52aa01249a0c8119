package shape_test

import (
	"fmt"

	"github.com/collide-go/collide/shape"
)

// ExampleDecompose splits an L-shaped outline, which NewPolygon refuses as
// non-convex, into convex pieces that NewPolygon accepts. The single cut runs
// from the reflex corner (1, 1) to the far corner (0, 0).
func ExampleDecompose() {
	lShape := []shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	pieces, err := shape.Decompose(lShape)
	if err != nil {
		fmt.Println(err)
		return
	}
	total := 0.0
	for i, p := range pieces {
		s, err := shape.NewPolygon(p)
		if err != nil {
			fmt.Println(err)
			return
		}
		area := 0.0
		v := s.Vertices()
		for k := range v {
			area += v[k].Cross(v[(k+1)%len(v)]) / 2
		}
		total += area
		fmt.Printf("piece %d: %d vertices, area %.3f\n", i, len(p), area)
	}
	fmt.Printf("%d pieces, total area %.3f\n", len(pieces), total)
	// Output:
	// piece 0: 4 vertices, area 1.500
	// piece 1: 4 vertices, area 1.500
	// 2 pieces, total area 3.000
}
