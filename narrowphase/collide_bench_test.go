package narrowphase

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// benchShape is one side of a benchmark pair: a shape and its placement.
type benchShape struct {
	name string
	s    shape.Shape
	t    shape.Transform
}

// benchShapes returns one shape of each kind, placed so that every pair of
// them overlaps: all sit around the origin with a small offset and a turn.
// The polygon is an octagon, a typical game hitbox.
func benchShapes() []benchShape {
	var oct [8]shape.Vec2
	for i := range oct {
		s, c := math.Sincos(2 * math.Pi * float64(i) / 8)
		oct[i] = pt(1.1*c, 0.9*s)
	}
	return []benchShape{
		{"circle", mkCircle(1), place(0.3, 0.2, 0)},
		{"aabb", mkAABB(1, 0.8), place(-0.4, 0.1, 0.5)},
		{"obb", mkOBB(1, 0.6), place(0.2, -0.5, 0.6)},
		{"poly", mkPolygon(oct[:]...), place(-0.1, 0.6, 0.3)},
		{"capsule", mkCapsule(pt(-0.8, 0), pt(0.8, 0), 0.5), place(0.1, -0.3, 0.4)},
		{"segment", mkSegment(pt(-1.5, 0), pt(1.5, 0)), place(0.05, 0.15, -0.7)},
	}
}

// neverCollide reports whether a benchmark pair is one that never
// collides: two segments.
func neverCollide(a, b benchShape) bool { return a.name == "segment" && b.name == "segment" }

func mkCapsule(p0, p1 shape.Vec2, r float64) shape.Shape {
	s, err := shape.NewCapsule(p0, p1, r)
	if err != nil {
		panic(err)
	}
	return s
}

func mkSegment(p0, p1 shape.Vec2) shape.Shape {
	s, err := shape.NewSegment(p0, p1)
	if err != nil {
		panic(err)
	}
	return s
}

func BenchmarkCollide(b *testing.B) {
	shapes := benchShapes()
	for _, sa := range shapes {
		for _, sb := range shapes {
			if neverCollide(sa, sb) {
				continue
			}
			b.Run(sa.name+"-"+sb.name, func(b *testing.B) {
				b.ReportAllocs()
				if _, hit := Collide(sa.s, sa.t, sb.s, sb.t); !hit {
					b.Fatalf("Collide(%s, %s) hit = false, want an overlapping configuration", sa.name, sb.name)
				}
				var m Manifold
				for b.Loop() {
					m, _ = Collide(sa.s, sa.t, sb.s, sb.t)
				}
				_ = m
			})
		}
	}
}

func BenchmarkOverlap(b *testing.B) {
	shapes := benchShapes()
	for _, sa := range shapes {
		for _, sb := range shapes {
			if neverCollide(sa, sb) {
				continue
			}
			b.Run(sa.name+"-"+sb.name, func(b *testing.B) {
				b.ReportAllocs()
				if !Overlap(sa.s, sa.t, sb.s, sb.t) {
					b.Fatalf("Overlap(%s, %s) = false, want an overlapping configuration", sa.name, sb.name)
				}
				var hit bool
				for b.Loop() {
					hit = Overlap(sa.s, sa.t, sb.s, sb.t)
				}
				_ = hit
			})
		}
	}
}
