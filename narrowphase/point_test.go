package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

func TestContainsPoint(t *testing.T) {
	circle, offCircle, box, obb, tri := rqFixtures()
	id := shape.Transform{}
	tf := shape.NewTransform
	far := shape.V(1e6, -1e6)
	tests := []struct {
		name string
		s    shape.Shape
		t    shape.Transform
		p    shape.Vec2
		want bool
	}{
		{"circle/centre", circle, id, shape.V(0, 0), true},
		{"circle/on-boundary", circle, id, shape.V(0, -1), true},
		{"circle/just-outside", circle, id, shape.V(0, -1-1e-12), false},
		{"circle/diagonal-outside", circle, id, shape.V(0.71, 0.71), false},
		{"circle/offset-rotated-inside", offCircle, tf(shape.V(10, 0), math.Pi/2), shape.V(10, 1.9), true},
		{"circle/offset-rotated-unrotated-spot", offCircle, tf(shape.V(10, 0), math.Pi/2), shape.V(11.9, 0), false},
		{"circle/large-coordinates", circle, tf(far, 1), far.Add(shape.V(0.6, 0.79)), true},
		{"circle/large-coordinates-outside", circle, tf(far, 1), far.Add(shape.V(0.6, 0.81)), false},

		{"aabb/inside", box, id, shape.V(1.9, 0.9), true},
		{"aabb/corner", box, id, shape.V(2, 1), true},
		{"aabb/edge", box, id, shape.V(-2, 0.3), true},
		{"aabb/outside", box, id, shape.V(2.0001, 0), false},
		{"aabb/rotated-transform-ignored-inside", box, tf(shape.V(0, 0), math.Pi/2), shape.V(1.9, 0.9), true},
		{"aabb/rotated-transform-ignored-outside", box, tf(shape.V(0, 0), math.Pi/2), shape.V(0.5, 1.9), false},
		{"aabb/large-coordinates", box, tf(far, 0.5), far.Add(shape.V(-1.999, 0.999)), true},
		{"aabb/large-coordinates-outside", box, tf(far, 0.5), far.Add(shape.V(-2.001, 0.999)), false},

		{"obb/rotated-90-inside", obb, tf(shape.V(3, 4), math.Pi/2), shape.V(3.9, 5.9), true},
		{"obb/rotated-90-outside", obb, tf(shape.V(3, 4), math.Pi/2), shape.V(4.9, 4), false},
		{"obb/rotated-45-edge", obb, tf(shape.V(0, 0), math.Pi/4), shape.V(1, 1).Normalize().Scale(1.999), true},
		{"obb/rotated-45-beyond-corner", obb, tf(shape.V(0, 0), math.Pi/4), shape.V(1.99, 0), false},
		{"obb/large-coordinates", obb, tf(far, math.Pi/4), far.Add(shape.V(1, 1).Normalize().Scale(1.999)), true},

		{"polygon/inside", tri, tf(shape.V(10, 0), 0), shape.V(11, 1), true},
		{"polygon/vertex", tri, tf(shape.V(10, 0), 0), shape.V(14, 0), true},
		{"polygon/on-edge", tri, tf(shape.V(10, 0), 0), shape.V(12, 2), true},
		{"polygon/beyond-hypotenuse", tri, tf(shape.V(10, 0), 0), shape.V(12.01, 2), false},
		{"polygon/below", tri, tf(shape.V(10, 0), 0), shape.V(11, -1e-9), false},
		{"polygon/rotated-90", tri, tf(shape.V(0, 0), math.Pi/2), shape.V(-1, 1), true},
		{"polygon/rotated-90-unrotated-spot", tri, tf(shape.V(0, 0), math.Pi/2), shape.V(1, 1), false},
		{"polygon/large-coordinates", tri, tf(far, math.Pi/2), far.Add(shape.V(-1, 2.99)), true},
		{"polygon/large-coordinates-outside", tri, tf(far, math.Pi/2), far.Add(shape.V(-1, 3.01)), false},

		{"zero-shape", shape.Shape{}, id, shape.V(0, 0), false},
		{"nan-point", box, id, shape.V(math.NaN(), 0), false},
		{"nan-point-polygon", tri, id, shape.V(1, math.NaN()), false},
		{"nan-point-circle", circle, id, shape.V(math.NaN(), math.NaN()), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := narrowphase.ContainsPoint(tt.s, tt.t, tt.p); got != tt.want {
				t.Errorf("ContainsPoint(%v, %v) = %v, want %v", tt.s, tt.p, got, tt.want)
			}
		})
	}
}

// TestContainsPointMatchesOracle compares ContainsPoint with the independent
// side-of-edge test on random points at least 1e-9 from the boundary, and
// checks everywhere, boundary points included, that ContainsPoint holds
// exactly when DistanceSq is 0.
func TestContainsPointMatchesOracle(t *testing.T) {
	for _, base := range []shape.Vec2{{}, {X: 1e6, Y: -1e6}} {
		for _, k := range rqKinds {
			name := k.String()
			if base != (shape.Vec2{}) {
				name += "/at-1e6"
			}
			t.Run(name, func(t *testing.T) {
				r := rqRand(t)
				inside := 0
				for i := range rqN(3000) {
					b := rqRandomBody(r, k, base)
					var p shape.Vec2
					switch i % 4 {
					case 0:
						p = b.randomPoint(r)
					case 1:
						if len(b.verts) > 0 {
							j := r.IntN(len(b.verts))
							v, w := b.verts[j], b.verts[(j+1)%len(b.verts)]
							p = v.Add(w.Sub(v).Scale(r.Float64())) // on an edge, up to rounding
						} else {
							a := 2 * math.Pi * r.Float64()
							p = b.centre.Add(shape.V(b.radius*math.Cos(a), b.radius*math.Sin(a)))
						}
					default:
						p = b.pos.Add(shape.V(20*r.Float64()-10, 20*r.Float64()-10))
					}
					got := narrowphase.ContainsPoint(b.s, b.tf, p)
					if d2 := narrowphase.DistanceSq(b.s, b.tf, p); got != (d2 == 0) {
						t.Fatalf("ContainsPoint(%v at %v angle %g, %v) = %v but DistanceSq = %g", b.s, b.pos, b.angle, p, got, d2)
					}
					if b.boundaryDist(p) <= 1e-9 {
						continue
					}
					if want := b.inside(p); got != want {
						t.Fatalf("ContainsPoint(%v at %v angle %g, %v) = %v, want %v (oracle)", b.s, b.pos, b.angle, p, got, want)
					}
					if got {
						inside++
					}
				}
				if inside == 0 {
					t.Fatalf("no random point was inside: the test checks nothing")
				}
			})
		}
	}
}
