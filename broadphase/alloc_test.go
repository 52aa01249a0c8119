package broadphase

import (
	"math"
	"slices"
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

// TestScratchTrimmedAfterLoad checks that the candidate and moved buffers,
// which the first UpdatePairs sizes for every proxy and pair, are cut once
// steady frames (a fiftieth of the bodies moving) have needed far less
// for trimFrames frames in a row; that the pair set stays exact across the
// cut; and that steady frames after it allocate nothing.
func TestScratchTrimmedAfterLoad(t *testing.T) {
	s := newSwarm(trimMin+1000, 7)
	for i := range s.half {
		s.half[i] = s.half[i].Scale(3) // crowded: many pairs a body
	}
	tr := NewTree(Config{})
	s.insert(tr)
	first, firstMoved := cap(tr.cand), cap(tr.moved)
	if first < tr.Stats().Pairs || firstMoved < len(s.pos) {
		t.Fatalf("first UpdatePairs: buffers of %d candidates and %d moved, below its %d pairs and %d proxies", first, firstMoved, tr.Stats().Pairs, len(s.pos))
	}
	f := 0
	frame := func() {
		for i := f % 50; i < len(s.pos); i += 50 {
			old := s.pos[i]
			s.pos[i] = old.Add(shape.Vec2{X: 4, Y: float64(f%3) - 1})
			tr.Update(int32(i), s.box(i), s.pos[i].Sub(old))
		}
		tr.UpdatePairs()
		f++
	}
	for range trimFrames + 8 {
		if frame(); f%24 == 0 {
			if err := tr.validate(s.boxes()); err != nil {
				t.Fatalf("frame %d: %v", f, err)
			}
		}
	}
	steady, limit := tr.Stats().Candidates, int(tr.live)/8
	if c := cap(tr.cand); c > 4*steady+limit || c >= first {
		t.Errorf("candidate buffer %d after %d frames of about %d candidates (%d after the load); want at most %d", c, f, steady, first, 4*steady+limit)
	}
	if c := cap(tr.moved); c > 4*len(s.pos)/50+limit || c >= firstMoved {
		t.Errorf("moved buffer %d after %d frames of %d moved (%d after the load)", c, f, len(s.pos)/50, firstMoved)
	}
	if err := tr.validate(s.boxes()); err != nil {
		t.Fatalf("after the cut: %v", err)
	}
	if testing.Short() || raceEnabled {
		return
	}
	allocs := testing.AllocsPerRun(50, frame)
	if allocs != 0 {
		t.Errorf("steady frames after the cut: %g allocations per frame, want 0", allocs)
	}
}

// TestTrimCutsProxyArrays checks Trim: proxy arrays grown one insert at a
// time are cut to their length plus at most a thirty-second, the tree
// stays valid and finds the same pairs, and inserts after the cut grow
// them again.
func TestTrimCutsProxyArrays(t *testing.T) {
	s := newSwarm(3000, 9)
	tr := NewTree(Config{})
	s.insert(tr)
	n := len(tr.flags)
	if cap(tr.flags) < n+n/10 && cap(tr.fat.r) < n+n/10 {
		t.Fatalf("arrays of %d and %d for %d proxies: too little spare for the test to prove anything", cap(tr.flags), cap(tr.fat.r), n)
	}
	before := slices.Clone(tr.Pairs())
	tr.Trim()
	if cap(tr.flags) > n+n/32 || cap(tr.fat.r) > n+n/32 {
		t.Fatalf("after Trim: arrays of %d and %d for %d proxies", cap(tr.flags), cap(tr.fat.r), n)
	}
	if err := tr.validate(s.boxes()); err != nil {
		t.Fatalf("after Trim: %v", err)
	}
	tr.UpdatePairs()
	if !slices.Equal(tr.Pairs(), before) {
		t.Fatalf("after Trim: %d pairs, %d before", len(tr.Pairs()), len(before))
	}
	more := newSwarm(3500, 9)
	for i := 3000; i < 3500; i++ {
		s.pos, s.vel, s.half = append(s.pos, more.pos[i]), append(s.vel, more.vel[i]), append(s.half, more.half[i])
		tr.Insert(int32(i), s.box(i))
	}
	for range 3 {
		s.step(tr)
		tr.UpdatePairs()
	}
	if err := tr.validate(s.boxes()); err != nil {
		t.Fatalf("after growing again: %v", err)
	}
}
