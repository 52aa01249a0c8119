package engine

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPoolChunksCoverEachItemOnce runs parallelFor on the shared workers
// over many sizes: every item is run exactly once per run, by a worker
// index below the pool's, no worker index runs two chunks at once, and
// every chunk but the last holds at least the pool's least items.
func TestPoolChunksCoverEachItemOnce(t *testing.T) {
	for _, workers := range []int{2, 3, 4} {
		for _, least := range []int{1, minChunk} {
			for _, n := range []int{0, 1, 2, 63, 64, 65, 1000, 5000} {
				t.Run(fmt.Sprintf("workers=%d/least=%d/n=%d", workers, least, n), func(t *testing.T) {
					p := newPool(workers)
					p.least = least
					busy := make([]atomic.Int32, workers)
					counts := make([]atomic.Int32, n)
					for range 20 {
						for i := range counts {
							counts[i].Store(0)
						}
						var bad atomic.Int32
						p.parallelFor(n, func(w, lo, hi int) {
							if w < 0 || w >= workers || !busy[w].CompareAndSwap(0, 1) {
								bad.Add(1)
								return
							}
							if hi-lo < least && hi != n {
								bad.Add(1) // a chunk short of least that is not the last
							}
							for i := lo; i < hi; i++ {
								counts[i].Add(1)
							}
							busy[w].Store(0)
						})
						if bad.Load() != 0 {
							t.Fatalf("%d chunks ran on a bad or busy worker index, or held too few items", bad.Load())
						}
						for i := range counts {
							if c := counts[i].Load(); c != 1 {
								t.Fatalf("item %d ran %d times, want 1", i, c)
							}
						}
					}
				})
			}
		}
	}
}

// TestPoolStaleJobTakesNothing hands the worker's jobs to the test instead
// of the shared workers: a job of a run that is over takes no chunk of the
// next run, and a job that starts after the caller began takes the chunks
// the caller left, from the back.
func TestPoolStaleJobTakesNothing(t *testing.T) {
	p := newPool(2)
	p.least = 1
	p.jobs = make(chan job, 1) // no goroutine reads it: the test does
	var ranA, ranB []int
	fnA := func(w, lo, hi int) { ranA = append(ranA, lo) }
	fnB := func(w, lo, hi int) { ranB = append(ranB, lo) }

	_, chunksA := p.begin(nil, nil, fnA, 10)
	jobA := <-p.jobs
	for c := p.front(); c >= 0; c = p.front() {
		fnA(0, c, c+1)
	}
	if first := p.wait(chunksA); first != chunksA {
		t.Fatalf("run A: workers' first chunk %d, want %d (the caller took all)", first, chunksA)
	}

	size, chunksB := p.begin(nil, nil, fnB, 10)
	jobB := <-p.jobs
	if size != 1 || chunksB != 10 {
		t.Fatalf("run B: %d chunks of %d, want 10 of 1", chunksB, size)
	}
	claim := p.claim.Load()
	ranA = nil
	jobA.do()
	if len(ranA) != 0 || p.claim.Load() != claim {
		t.Fatalf("run A's job ran %v in run B (claim %#x → %#x)", ranA, claim, p.claim.Load())
	}
	// The caller takes three chunks, then the late job takes the rest.
	for range 3 {
		c := p.front()
		fnB(0, c, c+1)
	}
	jobB.do()
	if c := p.front(); c != -1 {
		t.Fatalf("caller took chunk %d after the job took the rest", c)
	}
	if first := p.wait(chunksB); first != 3 {
		t.Fatalf("run B: workers' first chunk %d, want 3", first)
	}
	want := []int{0, 1, 2, 9, 8, 7, 6, 5, 4, 3}
	if fmt.Sprint(ranB) != fmt.Sprint(want) {
		t.Fatalf("run B ran chunks %v, want %v", ranB, want)
	}
}

// TestWorldsAgreeAcrossWorkersAtOnce steps worlds of 2, 3, 4 and 7
// workers side by side, every step through the pool and so through the
// same shared workers, with bodies added, moved and removed every step and
// a clone, a restored copy and a closed world stepping beside them: after
// every step each has the contacts, began and ended lists of its Workers 1
// twin.
func TestWorldsAgreeAcrossWorkersAtOnce(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	var helped [4]atomic.Bool
	defer func() {
		for g := range helped {
			t.Logf("world %d: workers wrote contacts: %v", g, helped[g].Load())
		}
	}()
	for g, workers := range []int{2, 3, 4, 7} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := uint64(100 + g)
			ref := newSceneKinds(t, seed, 150, Config{Workers: 1}, true)
			par := newSceneKinds(t, seed, 150, Config{Workers: workers}, true)
			worlds := []*World{par.w}
			for step := range 40 {
				ref.churn(t, true)
				par.churn(t, true)
				switch step {
				case 10:
					worlds = append(worlds, par.w.Clone())
				case 20:
					data, err := par.w.MarshalBinary()
					if err != nil {
						errs <- err.Error()
						return
					}
					rs := NewWorld(Config{Workers: workers})
					rs.setParallelFrom(1, 1)
					if err := rs.UnmarshalBinary(data); err != nil {
						errs <- err.Error()
						return
					}
					worlds = append(worlds, rs)
				case 30:
					worlds[1].Close()
				}
				// Clones and restores don't follow the churn: move the
				// scene's world only, step all.
				ref.w.Step()
				for _, w := range worlds {
					w.Step()
				}
				if pl := par.w.pool; pl != nil {
					for i := 1; i < len(pl.bufs); i++ {
						if pl.bufs[i] != nil {
							helped[g].Store(true)
						}
					}
				}
				want := fmt.Sprint(ref.w.contacts, ref.w.began, ref.w.ended)
				if got := fmt.Sprint(par.w.contacts, par.w.began, par.w.ended); got != want {
					errs <- fmt.Sprintf("workers %d step %d: differs from Workers 1", workers, step)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestPoolWaitSleepsUntilTheLastChunk makes the workers' chunks slow, so
// that the caller runs out of chunks first and sleeps, with a token left
// on the wake-up channel as an earlier run can leave one: the run returns
// only after every chunk ran.
func TestPoolWaitSleepsUntilTheLastChunk(t *testing.T) {
	p := newPool(3)
	p.least = 1
	took := 0
	defer func() {
		if took == 0 && runtime.GOMAXPROCS(0) > 1 {
			t.Errorf("the workers took no chunk in 20 runs: the caller never waited")
		}
	}()
	for round := range 20 {
		select {
		case p.done <- struct{}{}: // a stale token
		default:
		}
		const n = 12
		var counts [n]atomic.Int32
		var workers atomic.Int32
		p.parallelFor(n, func(w, lo, hi int) {
			if w != 0 {
				workers.Add(1)
				time.Sleep(2 * time.Millisecond)
			} else {
				time.Sleep(300 * time.Microsecond) // time for a worker to wake
			}
			for i := lo; i < hi; i++ {
				counts[i].Add(1)
			}
		})
		took += int(workers.Load())
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("round %d: item %d ran %d times by the time the run returned, want 1", round, i, c)
			}
		}
	}
}
