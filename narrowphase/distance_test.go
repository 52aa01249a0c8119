package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

func TestDistanceSq(t *testing.T) {
	circle, offCircle, box, obb, tri := rqFixtures()
	id := shape.Transform{}
	tf := shape.NewTransform
	far := shape.V(-1e6, 1e6)
	inf := math.Inf(1)
	tests := []struct {
		name string
		s    shape.Shape
		t    shape.Transform
		p    shape.Vec2
		want float64
	}{
		{"circle/outside", circle, id, shape.V(3, 4), 16},
		{"circle/inside", circle, id, shape.V(0.3, 0.4), 0},
		{"circle/on-boundary", circle, id, shape.V(0.6, 0.8), 0},
		{"circle/offset-rotated", offCircle, tf(shape.V(10, 0), math.Pi/2), shape.V(10, 4), 4},
		{"circle/large-coordinates", circle, tf(far, 2), far.Add(shape.V(-3, 4)), 16},

		{"aabb/side", box, id, shape.V(5, 0.5), 9},
		{"aabb/corner-region", box, id, shape.V(5, 5), 25},
		{"aabb/inside", box, id, shape.V(-1.5, 0.5), 0},
		{"aabb/on-corner", box, id, shape.V(-2, -1), 0},
		{"aabb/rotated-transform-ignored", box, tf(shape.V(1, 1), math.Pi/2), shape.V(6, 6), 25},
		{"aabb/large-coordinates", box, tf(far, 1), far.Add(shape.V(-5, -5)), 25},

		{"obb/rotated-90-side", obb, tf(shape.V(3, 4), math.Pi/2), shape.V(3, 9), 9},
		{"obb/rotated-90-corner", obb, tf(shape.V(3, 4), math.Pi/2), shape.V(7, 10), 25},
		{"obb/rotated-45-side", obb, tf(shape.V(0, 0), math.Pi/4), shape.V(-1, 1).Normalize().Scale(4), 9},
		{"obb/rotated-45-corner", obb, tf(shape.V(0, 0), math.Pi/4), rqRotate(shape.V(5, 5), math.Pi/4), 25},
		{"obb/large-coordinates", obb, tf(far, math.Pi/4), far.Add(shape.V(-1, 1).Normalize().Scale(4)), 9},

		{"polygon/edge-region", tri, tf(shape.V(10, 0), 0), shape.V(13, 3), 2},
		{"polygon/vertex-region", tri, tf(shape.V(10, 0), 0), shape.V(16, -1), 5},
		{"polygon/sharp-vertex-region", tri, tf(shape.V(10, 0), 0), shape.V(10, 7), 9},
		{"polygon/inside", tri, tf(shape.V(10, 0), 0), shape.V(11, 1), 0},
		{"polygon/on-edge", tri, tf(shape.V(10, 0), 0), shape.V(12, 2), 0},
		{"polygon/rotated-90", tri, tf(shape.V(0, 0), math.Pi/2), shape.V(3, 2), 9},
		{"polygon/large-coordinates", tri, tf(far, math.Pi/2), far.Add(shape.V(-3, 3)), 2},

		{"zero-shape", shape.Shape{}, id, shape.V(0, 0), inf},
		{"nan-point", box, id, shape.V(math.NaN(), 0), inf},
		{"inf-point", tri, id, shape.V(0, math.Inf(-1)), inf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := narrowphase.DistanceSq(tt.s, tt.t, tt.p)
			if !(got == tt.want || rqNear(got, tt.want, 1e-9)) {
				t.Errorf("DistanceSq(%v, %v) = %.12g, want %.12g", tt.s, tt.p, got, tt.want)
			}
			d := narrowphase.Distance(tt.s, tt.t, tt.p)
			if want := math.Sqrt(tt.want); !(d == want || rqNear(d, want, 1e-9)) {
				t.Errorf("Distance(%v, %v) = %.12g, want %.12g", tt.s, tt.p, d, want)
			}
		})
	}
}

// TestDistanceMatchesBoundarySample compares Distance with the distance to a
// dense, refined sample of the world boundary for random outside points, and
// checks that inside points are at distance 0.
func TestDistanceMatchesBoundarySample(t *testing.T) {
	for _, base := range []shape.Vec2{{}, {X: -1e6, Y: 1e6}} {
		for _, k := range rqKinds {
			name := k.String()
			if base != (shape.Vec2{}) {
				name += "/at-1e6"
			}
			t.Run(name, func(t *testing.T) {
				r := rqRand(t)
				outside := 0
				for range rqN(1000) {
					b := rqRandomBody(r, k, base)
					p := b.pos.Add(shape.V(30*r.Float64()-15, 30*r.Float64()-15))
					if r.IntN(4) == 0 {
						p = b.randomPoint(r)
					}
					got := narrowphase.Distance(b.s, b.tf, p)
					bd := b.boundaryDist(p)
					if bd <= 1e-9 {
						continue
					}
					want := bd
					if b.inside(p) {
						want = 0
					} else {
						outside++
					}
					if math.Abs(got-want) > 1e-8+1e-9*want {
						t.Fatalf("Distance(%v at %v angle %g, %v) = %.12g, want %.12g (boundary sample)", b.s, b.pos, b.angle, p, got, want)
					}
					if d2 := narrowphase.DistanceSq(b.s, b.tf, p); math.Abs(d2-got*got) > 1e-12*math.Max(1, d2) {
						t.Fatalf("DistanceSq(%v, %v) = %.15g, want Distance² = %.15g", b.s, p, d2, got*got)
					}
				}
				if outside == 0 {
					t.Fatalf("no random point was outside: the test checks nothing")
				}
			})
		}
	}
}
