package engine

import (
	"slices"
	"sync"
	"testing"
)

// TestSmallWorldsShareStepBuffers steps eight small worlds at once on four
// goroutines, so that their broad phases borrow and give back the same
// scratch while the others run, and one world that grows past the flat
// broad phase's 256 proxy ids, so that it goes from borrowed scratch to
// buffers of its own, then shrinks back. After every step each world's
// contacts must be the brute-force ones and its began and ended lists the
// difference from its last step's contacts.
func TestSmallWorldsShareStepBuffers(t *testing.T) {
	seed := testSeed(t, 31)
	steps := 120
	if testing.Short() {
		steps = 40
	}
	var scs []*scene
	for i := range 8 {
		sc := newScene(t, seed+uint64(i), 60+20*i, Config{Workers: 1})
		sc.w.setParallelFrom(minParallelPairs, minParallelQueries)
		scs = append(scs, sc)
	}
	cross := newScene(t, seed+100, flatIDs-10, Config{Workers: 1})
	cross.w.setParallelFrom(minParallelPairs, minParallelQueries)
	scs = append(scs, cross)
	prev := make([][]Contact, len(scs))
	crossed := [2]bool{}
	for step := range steps {
		for _, sc := range scs {
			sc.churn(t, step%4 == 0)
		}
		// The crossing world grows by 40 bodies, then shrinks back.
		for range 2 {
			if (step/20)%2 == 0 {
				cross.add(t)
			} else if len(cross.ids) > 0 {
				if err := cross.w.Remove(cross.ids[0]); err != nil {
					t.Fatal(err)
				}
				cross.ids = cross.ids[1:]
			}
		}
		crossed[0] = crossed[0] || cross.w.b.count > flatIDs
		crossed[1] = crossed[1] || crossed[0] && cross.w.b.count <= flatIDs
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < len(scs); i += 4 {
					scs[i].w.Step()
				}
			}()
		}
		wg.Wait()
		for i, sc := range scs {
			got := collect(sc.w.Contacts())
			if want := bruteContacts(sc.w); !slices.Equal(got, want) {
				t.Fatalf("world %d, step %d: %d contacts, brute force %d (or order or manifold differs)", i, step, len(got), len(want))
			}
			if err := checkEvents(prev[i], got, sc.w); err != nil {
				t.Fatalf("world %d, step %d: %v", i, step, err)
			}
			prev[i] = got
		}
	}
	if !crossed[0] || !crossed[1] {
		t.Fatalf("the crossing world never went above %d bodies and back (%v)", flatIDs, crossed)
	}
	for i := range scs {
		if len(prev[i]) == 0 {
			t.Fatalf("world %d ended with no contacts; the test would prove little", i)
		}
	}
}

// flatIDs is the broad phase's flatMax: up to that many proxy ids, its
// indexes are flat and it borrows its scratch.
const flatIDs = 256
