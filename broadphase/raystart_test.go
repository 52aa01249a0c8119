package broadphase

import (
	"math"
	"math/rand/v2"
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

// TestSweepMatchesGrownBoxes checks Sweep against a scan: it must visit
// exactly the proxies whose fat box, grown by the half extents, the segment
// enters or starts in, in order of that entry distance.
func TestSweepMatchesGrownBoxes(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 77))
	for round := range queryRounds() {
		_, tr, _ := queryScene(r.Uint64(), 1+r.IntN(200))
		origin := shape.V(r.Float64()*140-20, r.Float64()*140-20)
		s, c := math.Sincos(2 * math.Pi * r.Float64())
		dir := shape.V(c, s)
		maxDist := []float64{0, r.Float64() * 60, math.Inf(1)}[r.IntN(3)]
		half := shape.V(r.Float64()*3, r.Float64()*3)
		var got []int32
		tr.Sweep(origin, dir, maxDist, half, func(id int32, m float64) float64 {
			got = append(got, id)
			return m
		})
		type cand struct {
			t  float64
			id int32
		}
		var want []cand
		for id := range int32(len(tr.flags)) {
			if tr.flags[id]&flagAlive == 0 {
				continue
			}
			f := tr.FatAABB(id)
			g := shape.AABB{Min: f.Min.Sub(half), Max: f.Max.Add(half)}
			if te, _, ok := slab(g, origin, dir, 0, maxDist); ok {
				want = append(want, cand{te, id})
			}
		}
		slices.SortFunc(want, func(a, b cand) int {
			if a.t != b.t {
				if a.t < b.t {
					return -1
				}
				return 1
			}
			return int(a.id - b.id)
		})
		ids := make([]int32, len(want))
		for i, c := range want {
			ids[i] = c.id
		}
		gs, ws := slices.Clone(got), slices.Clone(ids)
		slices.Sort(gs)
		slices.Sort(ws)
		if !slices.Equal(gs, ws) {
			t.Fatalf("round %d: Sweep(%v, %v, %g, half %v) visited %v, want %v", round, origin, dir, maxDist, half, got, ids)
		}
	}
}
