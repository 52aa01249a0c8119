package broadphase

import (
	"math"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestRayCastZeroClipStillVisitsStartBoxes is the maxDist-0 bug: a callback
// that clips the ray to its origin (returns 0) stopped the cast, so a ray
// starting inside two bodies reported only the first.
func TestRayCastZeroClipStillVisitsStartBoxes(t *testing.T) {
	for _, ix := range []interface {
		Insert(int32, shape.AABB)
		RayCast(shape.Vec2, shape.Vec2, float64, func(int32, float64) float64)
	}{NewTree(Config{Margin: -1, MotionFrames: -1}), NewBruteForce(Config{Margin: -1, MotionFrames: -1})} {
		ix.Insert(0, box(-1, -1, 1, 1))
		ix.Insert(1, box(-0.5, -1, 1.5, 1))
		ix.Insert(2, box(5, -1, 6, 1)) // ahead of the origin: clipped away
		for _, maxDist := range []float64{0, 10, math.Inf(1)} {
			var got []int32
			ix.RayCast(shape.V(0.2, 0), shape.V(1, 0), maxDist, func(id int32, m float64) float64 {
				got = append(got, id)
				return 0 // a hit at the origin
			})
			if want := []int32{0, 1}; !slices.Equal(got, want) {
				t.Errorf("%T.RayCast from inside two boxes, maxDist %g, clip 0: visited %v, want %v", ix, maxDist, got, want)
			}
		}
	}
}
