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

// BenchmarkCollideTouching measures Collide on pairs that touch to
// rounding, turned, where the float routines see an overlap of an ulp or
// so and touchApart decides it exactly: the cost of that path (the pairs
// of TestCollideTurnedTouchBug, and a disc resting on a turned octagon's
// face).
func BenchmarkCollideTouching(b *testing.B) {
	tri := mkPolygon(pt(-0.5, -0.375), pt(0.5, -0.375), pt(0.125, 0.625))
	compound, err := shape.NewCompound([]shape.Part{
		{Shape: mkOBB(1.25, 1), Offset: shape.Transform{Pos: pt(-0.3125, -1.125), Rot: shape.RotFromCosSin(-1, 0)}},
		{Shape: mkOBB(1.25, 1.3125), Offset: shape.Transform{Pos: pt(-0.625, -2)}},
	})
	if err != nil {
		panic(err)
	}
	oct := benchShapes()[3]
	// The disc's centre its radius out along the face's normal from the
	// face's midpoint, moved in by ulps until the floats find an overlap.
	v := oct.s.Vertices()
	n := oct.t.Rot.Apply(oct.s.Normals()[0])
	mid := oct.t.Apply(v[0].Add(v[1]).Scale(0.5))
	disc := shape.Transform{Pos: mid.Add(n.Scale(0.5))}
	for k := 0; k < 64; k++ {
		if _, ok := collideFloat(mkCircle(0.5), disc, oct.s, oct.t); ok {
			break
		}
		disc.Pos = disc.Pos.Sub(n.Scale(0x1p-51))
	}
	cases := []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}{
		{"aabb-poly", mkAABB(0.25, 0.375), place(-3.4375, 1.5625, 0),
			mkPolygon(pt(-0.5, 0.0625), pt(0.6875, -0.625), pt(0.0625, 0.625)), place(-3.9375, 2.25, math.Pi)},
		{"poly-compound-1e6", tri, place(1.0000049375e+06, -1.000000625e+06, 3*math.Pi/2),
			compound, place(1.00000125e+06, -999999.5625, math.Pi/2)},
		{"circle-poly", mkCircle(0.5), disc, oct.s, oct.t},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			if _, ok := collideFloat(c.a, c.ta, c.b, c.tb); !ok {
				b.Fatalf("%s: the floats find no overlap: the exact path would not run", c.name)
			}
			var hit bool
			for b.Loop() {
				_, hit = Collide(c.a, c.ta, c.b, c.tb)
			}
			_ = hit
		})
	}
}
