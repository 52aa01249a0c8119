package engine

import (
	"runtime"
	"sync"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestWorkersAreShared steps a thousand zero-Config worlds, every step
// made to use the pool, from several goroutines at once: the process then
// runs at most GOMAXPROCS − 1 worker goroutines in all, not one set per
// world, and every world's contacts are the same as on one goroutine.
func TestWorkersAreShared(t *testing.T) {
	const n = 1000
	shared.mu.Lock()
	before := shared.n // other tests may have asked for more (Workers: 4)
	shared.mu.Unlock()
	c, _ := shape.NewCircle(1)
	worlds := make([]*World, n)
	for i := range worlds {
		w := NewWorld(Config{})
		w.setParallelFrom(1, 1) // every step through the pool
		for k := range 12 {
			if _, err := w.Add(BodyDef{Shape: c, Position: shape.V(float64(k%4)*1.5, float64(k/4)*1.5)}); err != nil {
				t.Fatal(err)
			}
		}
		worlds[i] = w
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 4 {
				worlds[i].Step()
			}
		}()
	}
	wg.Wait()
	shared.mu.Lock()
	started := shared.n
	shared.mu.Unlock()
	if limit := max(before, runtime.GOMAXPROCS(0)-1); started > limit {
		t.Errorf("%d shared workers for %d worlds, want at most %d (GOMAXPROCS − 1, or what was running before)", started, n, limit)
	}
	ref := NewWorld(Config{Workers: 1})
	for k := range 12 {
		_, _ = ref.Add(BodyDef{Shape: c, Position: shape.V(float64(k%4)*1.5, float64(k/4)*1.5)})
	}
	ref.Step()
	want := ref.ContactCount()
	for i, w := range worlds {
		if got := w.ContactCount(); got != want {
			t.Fatalf("world %d: %d contacts, want %d", i, got, want)
		}
		i := 0
		for c := range w.Contacts() {
			r := ref.contacts[i].export()
			if c.Manifold != r.Manifold || c.A != r.A || c.B != r.B {
				t.Fatalf("world's contact %d = %+v, want %+v", i, c, r)
			}
			i++
		}
	}
}

// TestIdleWorldsStartNoGoroutine creates and steps small zero-Config worlds
// (below the parallel thresholds): no goroutine is started for them.
func TestIdleWorldsStartNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	c, _ := shape.NewCircle(1)
	var worlds []*World
	for range 200 {
		w := NewWorld(Config{})
		for k := range 10 {
			_, _ = w.Add(BodyDef{Shape: c, Position: shape.V(float64(k), 0)})
		}
		w.Step()
		worlds = append(worlds, w)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after 200 small worlds, %d before", after, before)
	}
	runtime.KeepAlive(worlds)
}
