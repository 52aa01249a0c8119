package bench

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
)

// rooms is a thousand small worlds, each a 100-body swarm (the swarm rule
// at n = 100: a 200 × 200 room), stepped by g goroutines that live as long
// as the benchmark, each owning a contiguous share of the rooms.
type rooms struct {
	scs  []*scene.Scene
	ws   []*collide.World
	ids  [][]collide.BodyID
	g    int
	wake []chan struct{}
	done sync.WaitGroup
	quit bool
	err  error
}

func newRooms(b *testing.B, n, bodies, g int, cfg collide.Config) *rooms {
	r := &rooms{g: g}
	for i := range n {
		sc := scene.Swarm(bodies, uint64(i+1))
		w := collide.NewWorld(cfg)
		ids, err := scene.Load(w, sc)
		if err != nil {
			b.Fatal(err)
		}
		r.scs, r.ws, r.ids = append(r.scs, sc), append(r.ws, w), append(r.ids, ids)
	}
	for k := range g {
		ch := make(chan struct{})
		r.wake = append(r.wake, ch)
		go func() {
			for range ch {
				if r.quit {
					return
				}
				for i := k * n / g; i < (k+1)*n/g; i++ {
					r.scs[i].Advance()
					if err := scene.Sync(r.ws[i], r.scs[i], r.ids[i]); err != nil {
						r.err = err
					}
					r.ws[i].Step()
				}
				r.done.Done()
			}
		}()
	}
	return r
}

// tick steps every room once.
func (r *rooms) tick() {
	r.done.Add(r.g)
	for _, ch := range r.wake {
		ch <- struct{}{}
	}
	r.done.Wait()
}

func (r *rooms) stop() {
	r.quit = true
	for _, ch := range r.wake {
		ch <- struct{}{}
		close(ch)
	}
}

// BenchmarkManyWorlds steps 1,000 worlds of 100 moving bodies once per op,
// on 1 and on GOMAXPROCS goroutines (the caller's own, as a server steps
// its rooms): one op is one tick of all 1,000.
func BenchmarkManyWorlds(b *testing.B) {
	for _, g := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("worlds=1000/bodies=100/goroutines=%d", g), func(b *testing.B) {
			r := newRooms(b, 1000, 100, g, collide.Config{Workers: 1})
			defer r.stop()
			for range 60 {
				r.tick()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				r.tick()
			}
			if r.err != nil {
				b.Fatal(r.err)
			}
		})
		if runtime.GOMAXPROCS(0) == 1 {
			break
		}
	}
}

// BenchmarkWorldHeap reports the heap a world holds: empty, and with the
// 100-body swarm room of BenchmarkManyWorlds after 60 steps (the mean of
// 1,000 such worlds, after a collection; the scenes' own data is made
// before the first reading and not counted).
func BenchmarkWorldHeap(b *testing.B) {
	for _, bodies := range []int{0, 100} {
		b.Run(fmt.Sprintf("bodies=%d", bodies), func(b *testing.B) {
			b.ReportAllocs()
			var per float64
			for b.Loop() {
				scs := make([]*scene.Scene, 1000)
				for i := range scs {
					scs[i] = scene.Swarm(bodies, uint64(i+1))
				}
				runtime.GC()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				ws := make([]*collide.World, len(scs))
				ids := make([][]collide.BodyID, len(scs))
				for i, sc := range scs {
					ws[i] = collide.NewWorld(collide.Config{})
					var err error
					if ids[i], err = scene.Load(ws[i], sc); err != nil {
						b.Fatal(err)
					}
				}
				for range 60 {
					for i, sc := range scs {
						sc.Advance()
						if err := scene.Sync(ws[i], sc, ids[i]); err != nil {
							b.Fatal(err)
						}
						ws[i].Step()
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&m1)
				// The ws and ids slices are the caller's, not the worlds'.
				per = float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc)-int64((8*bodies+32)*len(scs))) / float64(len(scs))
				runtime.KeepAlive(ws)
				runtime.KeepAlive(ids)
			}
			b.ReportMetric(per, "heap-B/world")
		})
	}
}
