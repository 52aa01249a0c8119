package broadphase

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/collide-go/collide/shape"
)

// queryScene returns a Tree and a BruteForce holding the same random scene
// after a few frames of motion, so that fat boxes are stretched, with some
// proxies removed.
func queryScene(seed uint64, n int) (*scene, *Tree, *BruteForce) {
	s := newScene(seed, 100)
	tr, bf := NewTree(Config{}), NewBruteForce(Config{})
	ixs := []index{tr, bf}
	for range n {
		s.insert(ixs)
	}
	for range 5 {
		for i := range s.alive {
			if s.alive[i] {
				s.move(ixs, int32(i))
			}
		}
	}
	for range n / 10 {
		s.remove(ixs, s.randomLive())
	}
	tr.UpdatePairs()
	bf.UpdatePairs()
	return s, tr, bf
}

func queryRounds() int {
	if testing.Short() {
		return 20
	}
	return 200
}

func TestQueryMatchesBruteForce(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 3))
	for round := range queryRounds() {
		_, tr, bf := queryScene(r.Uint64(), 1+r.IntN(200))
		c := shape.Vec2{X: r.Float64()*140 - 20, Y: r.Float64()*140 - 20}
		q := shape.AABBFromCenter(c, shape.Vec2{X: r.Float64() * 30, Y: r.Float64() * 30})
		var got, want []int32
		tr.Query(q, func(id int32) bool { got = append(got, id); return true })
		bf.Query(q, func(id int32) bool { want = append(want, id); return true })
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: Query(%v) = %v, want %v", round, q, got, want)
		}
		for _, id := range want {
			if !tr.FatAABB(id).Overlaps(q) {
				t.Fatalf("round %d: Query(%v) returned %d with fat box %v", round, q, id, tr.FatAABB(id))
			}
		}
		if len(want) > 1 {
			calls := 0
			tr.Query(q, func(int32) bool { calls++; return false })
			if calls != 1 {
				t.Fatalf("round %d: Query(%v) called fn %d times after it returned false, want 1", round, q, calls)
			}
		}
	}
}

// segmentTouchesBox is the oracle of the ray tests, independent of slab:
// the separating axis test of a segment against a box (Ericson, Real-Time
// Collision Detection, 5.3.3), on the box's two axes and the segment's
// normal.
func segmentTouchesBox(a, b shape.Vec2, box shape.AABB) bool {
	if math.Max(a.X, b.X) < box.Min.X || math.Min(a.X, b.X) > box.Max.X ||
		math.Max(a.Y, b.Y) < box.Min.Y || math.Min(a.Y, b.Y) > box.Max.Y {
		return false
	}
	n := b.Sub(a).Perp()
	c, h := box.Center(), box.HalfExtents()
	return math.Abs(n.Dot(c.Sub(a))) <= math.Abs(n.X)*h.X+math.Abs(n.Y)*h.Y
}

// randomRay returns a ray through the scene: random, axis-aligned,
// starting inside a box, or unbounded.
func randomRay(r *rand.Rand, s *scene) (origin, dir shape.Vec2, maxDist float64) {
	origin = shape.Vec2{X: r.Float64()*160 - 30, Y: r.Float64()*160 - 30}
	a := r.Float64() * 2 * math.Pi
	dir = shape.Vec2{X: math.Cos(a), Y: math.Sin(a)}
	maxDist = r.Float64() * 200
	switch r.IntN(6) {
	case 0:
		dir = [4]shape.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[r.IntN(4)]
	case 1:
		if s.live > 0 {
			origin = s.tight[s.randomLive()].Center()
		}
	case 2:
		maxDist = math.Inf(1)
	case 3:
		maxDist = r.Float64() * 5
	}
	return origin, dir, maxDist
}

func TestRayCastVisitsEveryFatBox(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 4))
	for round := range queryRounds() {
		s, tr, _ := queryScene(r.Uint64(), 1+r.IntN(300))
		for range 10 {
			origin, dir, maxDist := randomRay(r, s)
			end := origin.Add(dir.Scale(math.Min(maxDist, 1e4)))
			var want []int32
			for i, ok := range s.alive {
				if ok && segmentTouchesBox(origin, end, tr.FatAABB(int32(i))) {
					want = append(want, int32(i))
				}
			}
			var got []int32
			tr.RayCast(origin, dir, maxDist, func(id int32, m float64) float64 {
				if m != maxDist {
					t.Errorf("round %d: RayCast passed maxDist %g, want %g", round, m, maxDist)
				}
				got = append(got, id)
				return m
			})
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: RayCast(%v, %v, %g) visited %v, want %v", round, origin, dir, maxDist, got, want)
			}
		}
	}
}

// TestRayCastFirstHit clips the ray at each hit on a tight box, as a
// first-hit search does, and compares the nearest hit with a scan.
func TestRayCastFirstHit(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 5))
	for round := range queryRounds() {
		s, tr, bf := queryScene(r.Uint64(), 1+r.IntN(300))
		for range 10 {
			origin, dir, maxDist := randomRay(r, s)
			hitTight := func(id int32, m float64) float64 {
				if te, _, ok := slab(s.tight[id], origin, dir, 0, m); ok && te > 0 {
					return te
				}
				return m
			}
			want := math.Inf(1)
			for i, ok := range s.alive {
				if ok {
					if te, _, hit := slab(s.tight[i], origin, dir, 0, maxDist); hit && te > 0 {
						want = math.Min(want, te)
					}
				}
			}
			for _, ix := range []index{tr, bf} {
				got, visits := math.Inf(1), 0
				ix.RayCast(origin, dir, maxDist, func(id int32, m float64) float64 {
					visits++
					if te := hitTight(id, m); te < m {
						got = te
						return te
					}
					return m
				})
				if got != want {
					t.Fatalf("round %d: %T.RayCast(%v, %v, %g) first hit at %g, want %g", round, ix, origin, dir, maxDist, got, want)
				}
			}
		}
	}
}

// TestRayCastFrontToBack checks the visiting order where it is exact: with
// fewer proxies than one sorted batch, entry distances never decrease.
func TestRayCastFrontToBack(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 6))
	for round := range queryRounds() {
		s, tr, _ := queryScene(r.Uint64(), 1+r.IntN(rayBatch-1))
		origin, dir, maxDist := randomRay(r, s)
		last := math.Inf(-1)
		tr.RayCast(origin, dir, maxDist, func(id int32, m float64) float64 {
			te, _, _ := slab(tr.FatAABB(id), origin, dir, 0, m)
			if te < last {
				t.Fatalf("round %d: RayCast visited %d entering at %g after one entering at %g", round, id, te, last)
			}
			last = te
			return m
		})
	}
}

func TestRayCastStops(t *testing.T) {
	// Long boxes, entered every 10 units: several fall in one chunk, so
	// clipping must also work within a sorted batch.
	tr := NewTree(Config{Margin: -1, MotionFrames: -1})
	for i := range 10 {
		x := float64(i * 10)
		tr.Insert(int32(i), box(x, -1, x+30, 1))
	}
	tests := []struct {
		name    string
		ret     func(m float64) float64
		maxDist float64
		visits  []int32
	}{
		{"keep-going", func(m float64) float64 { return m }, 1000, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"zero-clips", func(float64) float64 { return 0 }, 1000, []int32{0}},
		{"negative-stops", func(float64) float64 { return -1 }, 1000, []int32{0}},
		{"nan-stops", func(float64) float64 { return math.NaN() }, 1000, []int32{0}},
		{"clip-at-25", func(m float64) float64 { return math.Min(m, 25) }, 1000, []int32{0, 1, 2}},
		{"larger-ignored", func(m float64) float64 { return m * 2 }, 35, []int32{0, 1, 2, 3}},
		{"max-dist-zero", func(m float64) float64 { return m }, 0, nil},
		{"max-dist-nan", func(m float64) float64 { return m }, math.NaN(), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []int32
			tr.RayCast(shape.Vec2{X: -5}, shape.Vec2{X: 1}, tc.maxDist, func(id int32, m float64) float64 {
				got = append(got, id)
				return tc.ret(m)
			})
			if !slices.Equal(got, tc.visits) {
				t.Errorf("RayCast((-5, 0), +X, %g) visited %v, want %v", tc.maxDist, got, tc.visits)
			}
		})
	}
}

// TestConcurrentQueries runs the read-only queries from several goroutines
// at once; under -race it proves they write nothing shared.
func TestConcurrentQueries(t *testing.T) {
	seed := testSeed(t)
	_, tr, _ := queryScene(seed, 300)
	run := func() (q, ray int) {
		tr.Query(box(20, 20, 60, 60), func(int32) bool { q++; return true })
		tr.RayCast(shape.Vec2{X: -10, Y: 3}, shape.Vec2{X: 0.6, Y: 0.8}, math.Inf(1), func(_ int32, m float64) float64 { ray++; return m })
		return q, ray
	}
	wq, wr := run()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if q, ray := run(); q != wq || ray != wr {
					t.Errorf("concurrent queries = %d, %d; want %d, %d", q, ray, wq, wr)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestRayCastFarFromOrigin repeats the visit check with the scene and the
// rays a million units from the origin, where rounding in origin + d·dir
// is a thousand times coarser.
func TestRayCastFarFromOrigin(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 9))
	far := shape.Vec2{X: 1e6, Y: -3e6}
	for round := range queryRounds() {
		s := newScene(r.Uint64(), 100)
		tr := NewTree(Config{})
		for range 1 + r.IntN(200) {
			s.insert(nil)
			id := int32(len(s.alive) - 1)
			if s.tight[id].Min.X < 1e5 { // not a copy of a moved box
				s.tight[id] = s.tight[id].Translate(far)
			}
			tr.Insert(id, s.tight[id])
		}
		for range 10 {
			origin, dir, maxDist := randomRay(r, s)
			if origin.X < 1e5 {
				origin = origin.Add(far)
			}
			end := origin.Add(dir.Scale(math.Min(maxDist, 1e4)))
			var want, got []int32
			for i, ok := range s.alive {
				if ok && segmentTouchesBox(origin, end, tr.FatAABB(int32(i))) {
					want = append(want, int32(i))
				}
			}
			tr.RayCast(origin, dir, maxDist, func(id int32, m float64) float64 {
				got = append(got, id)
				return m
			})
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: RayCast(%v, %v, %g) visited %v, want %v", round, origin, dir, maxDist, got, want)
			}
		}
	}
}
