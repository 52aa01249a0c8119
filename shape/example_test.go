package shape_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/collide-go/collide/shape"
)

// ExampleNewPolygon shows a rejected non-convex outline, whose error names
// the reflex vertex by its index in the input, and an accepted clockwise
// outline, whose collinear midpoint is dropped.
func ExampleNewPolygon() {
	lShape := []shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	_, err := shape.NewPolygon(lShape)
	fmt.Println(err)
	fmt.Println(errors.Is(err, shape.ErrNonConvex))

	// Clockwise, with a midpoint on the bottom edge.
	box := []shape.Vec2{{0, 0}, {0, 1}, {2, 1}, {2, 0}, {1, 0}}
	p, err := shape.NewPolygon(box)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := p.Center()
	fmt.Printf("%d vertices, centroid (%.3f, %.3f)\n", len(p.Vertices()), c.X, c.Y)
	// Output:
	// shape: polygon is not convex: reflex angle at vertex 3
	// true
	// 4 vertices, centroid (1.000, 0.500)
}

// ExampleNewTransform places a local point in the world and back: rotate by a
// quarter turn, then translate.
func ExampleNewTransform() {
	t := shape.NewTransform(shape.V(10, 5), math.Pi/2)
	w := t.Apply(shape.V(1, 0))
	fmt.Printf("world (%.3f, %.3f)\n", w.X, w.Y)
	l := t.ApplyInv(w)
	fmt.Printf("local (%.3f, %.3f)\n", l.X, l.Y)

	// The zero Transform is the identity.
	var id shape.Transform
	fmt.Println(id.Apply(shape.V(3, 4)))
	// Output:
	// world (10.000, 6.000)
	// local (1.000, 0.000)
	// {3 4}
}

// ExampleConvexHull builds a polygon from a point cloud: interior and
// duplicate points are dropped.
func ExampleConvexHull() {
	pts := []shape.Vec2{{0, 0}, {4, 0}, {2, 1}, {4, 3}, {1, 1}, {0, 3}, {4, 0}}
	h, err := shape.ConvexHull(pts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Vertices())
	// Output:
	// [{0 0} {4 0} {4 3} {0 3}]
}

// ExampleShape_WorldAABB shows that an AABB shape ignores its body's angle
// while an OBB turns with it.
func ExampleShape_WorldAABB() {
	aabb, _ := shape.NewAABB(2, 1)
	obb, _ := shape.NewOBB(2, 1)
	t := shape.NewTransform(shape.V(0, 0), math.Pi/2)
	a, o := aabb.WorldAABB(t), obb.WorldAABB(t)
	fmt.Printf("aabb: (%.3f, %.3f)-(%.3f, %.3f)\n", a.Min.X, a.Min.Y, a.Max.X, a.Max.Y)
	fmt.Printf("obb:  (%.3f, %.3f)-(%.3f, %.3f)\n", o.Min.X, o.Min.Y, o.Max.X, o.Max.Y)
	// Output:
	// aabb: (-2.000, -1.000)-(2.000, 1.000)
	// obb:  (-1.000, -2.000)-(1.000, 2.000)
}
