package broadphase

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestSteadyStateAllocs runs a swarm, whose pairs keep coming and going,
// past its warm-up and checks that a frame (Update of every body plus
// UpdatePairs) allocates nothing: the tree's buffers have reached their
// size. The R-tree itself allocates a node when one splits, a few times a
// hundred frames as nodes fill and drain; AllocsPerRun averages over the
// runs and rounds down, so those rare splits pass and a per-frame
// allocation does not.
func TestSteadyStateAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("long warm-up; the race detector allocates")
	}
	s := newSwarm(2000, 1)
	tr := NewTree(Config{})
	s.insert(tr)
	for range 300 {
		s.step(tr)
		tr.UpdatePairs()
	}
	ended := 0
	allocs := testing.AllocsPerRun(100, func() {
		s.step(tr)
		tr.UpdatePairs()
		ended += tr.Stats().EndedPairs
	})
	if allocs != 0 {
		t.Errorf("steady-state Update+UpdatePairs: %g allocations per frame, want 0", allocs)
	}
	if ended == 0 {
		t.Errorf("no pair ended in 100 frames: the scene does not exercise the pair set")
	}
}

func TestQueryAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	_, tr, _ := queryScene(1, 300)
	q := box(20, 20, 60, 60)
	origin, dir := shape.Vec2{X: -10, Y: 3}, shape.Vec2{X: 0.6, Y: 0.8}
	var sink int
	tests := []struct {
		name string
		fn   func()
	}{
		{"Query", func() {
			n := 0 // captured by the callback
			tr.Query(q, func(int32) bool { n++; return true })
			sink += n
		}},
		{"RayCast", func() {
			hits := 0
			tr.RayCast(origin, dir, math.Inf(1), func(_ int32, m float64) float64 { hits++; return m })
			sink += hits
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn()
			if allocs := testing.AllocsPerRun(100, tc.fn); allocs != 0 {
				t.Errorf("%s with a capturing closure: %g allocations per call, want 0", tc.name, allocs)
			}
		})
	}
	if sink == 0 {
		t.Errorf("the queries found nothing: the test measures empty calls")
	}
}
