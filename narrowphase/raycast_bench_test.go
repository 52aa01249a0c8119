package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// Sinks keep the compiler from dropping the benchmarked calls.
var (
	rqSinkHit  narrowphase.RayHit
	rqSinkBool bool
	rqSinkF    float64
)

// rqBenchShapes returns one shape of each kind, about 2 units across, with a
// rotated transform at (1, 0.5).
func rqBenchShapes() []struct {
	name string
	s    shape.Shape
} {
	var oct []shape.Vec2
	for i := range 8 {
		a := float64(i) * math.Pi / 4
		oct = append(oct, shape.V(math.Cos(a), math.Sin(a)))
	}
	return []struct {
		name string
		s    shape.Shape
	}{
		{"circle", rqMust(shape.NewCircle(1))},
		{"aabb", rqMust(shape.NewAABB(1, 0.5))},
		{"obb", rqMust(shape.NewOBB(1, 0.5))},
		{"polygon", rqMust(shape.NewPolygon(oct))},
	}
}

var rqBenchTf = shape.NewTransform(shape.V(1, 0.5), 0.3)

func BenchmarkRayCast(b *testing.B) {
	for _, bs := range rqBenchShapes() {
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			origin, dir := shape.V(-5, 0.3), shape.V(1, 0.05).Normalize()
			for b.Loop() {
				rqSinkHit, rqSinkBool = narrowphase.RayCast(bs.s, rqBenchTf, origin, dir, 100)
			}
		})
	}
}

func BenchmarkContainsPoint(b *testing.B) {
	for _, bs := range rqBenchShapes() {
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			p := shape.V(1.3, 0.6)
			for b.Loop() {
				rqSinkBool = narrowphase.ContainsPoint(bs.s, rqBenchTf, p)
			}
		})
	}
}

func BenchmarkDistanceSq(b *testing.B) {
	for _, bs := range rqBenchShapes() {
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			p := shape.V(4, 3)
			for b.Loop() {
				rqSinkF = narrowphase.DistanceSq(bs.s, rqBenchTf, p)
			}
		})
	}
}
