package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestGJKGapMatchesMinkowski compares gjkGap with the Minkowski difference's
// gap on random pairs of the four first kinds, from scratch and again from
// the simplex the first call left after a small move.
func TestGJKGapMatchesMinkowski(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var mk func() shape.Shape
	mk = func() shape.Shape {
		var s shape.Shape
		var err error
		switch r.IntN(4) {
		case 0:
			s, err = shape.NewOffsetCircle(shape.V(r.Float64()-0.5, r.Float64()-0.5), 0.2+r.Float64())
		case 1:
			s, err = shape.NewAABB(0.2+r.Float64(), 0.2+r.Float64())
		case 2:
			s, err = shape.NewOBB(0.2+r.Float64(), 0.2+r.Float64())
		default:
			pts := make([]shape.Vec2, 3+r.IntN(10))
			for i := range pts {
				pts[i] = shape.V(2*r.Float64()-1, 2*r.Float64()-1)
			}
			s, err = shape.ConvexHull(pts)
		}
		if err != nil {
			return mk()
		}
		return s
	}
	for i := range 20000 {
		a, b := mk(), mk()
		ta := shape.NewTransform(shape.V(6*r.Float64()-3, 6*r.Float64()-3), 7*r.Float64())
		tb := shape.NewTransform(shape.V(0, 0), 7*r.Float64())
		var ca, cb core
		ca.set(a, ta, tb.Pos)
		cb.set(b, tb, tb.Pos)
		var m mink
		m.build(&cb, &ca)
		d1, n1 := m.gap()
		var pa, pb placed
		pa.init(a)
		pb.init(b)
		pa.place(a, ta, tb.Pos)
		pb.place(b, tb, tb.Pos)
		var sx simplex
		d2, n2 := gjkGap(&pa, &pb, &sx)
		// Again from the simplex left, after a small move of a.
		pa.place(a, shape.Transform{Pos: ta.Pos.Add(shape.V(1e-3, -2e-3)), Rot: ta.Rot}, tb.Pos)
		var cm core
		cm.set(a, shape.Transform{Pos: ta.Pos.Add(shape.V(1e-3, -2e-3)), Rot: ta.Rot}, tb.Pos)
		var mm mink
		mm.build(&cb, &cm)
		d1m, n1m := mm.gap()
		if d3, n3 := gjkGap(&pa, &pb, &sx); math.Abs(d3-d1m) > 1e-9 || (d1m > 1e-9 && (math.Abs(n1m.X-n3.X) > 1e-6 || math.Abs(n1m.Y-n3.Y) > 1e-6)) {
			t.Fatalf("case %d: GJK from the last simplex %v %v, Minkowski %v %v", i, d3, n3, d1m, n1m)
		}
		if math.Abs(d1-d2) > 1e-9 || (d1 > 1e-9 && (math.Abs(n1.X-n2.X) > 1e-6 || math.Abs(n1.Y-n2.Y) > 1e-6)) {
			t.Fatalf("case %d: %v at %v, %v at %v: Minkowski gap %v %v, GJK %v %v", i, a, ta, b, tb, d1, n1, d2, n2)
		}
	}
}
