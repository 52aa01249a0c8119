package view_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
	"github.com/collide-go/collide/view"
)

// BenchmarkLiveView measures the game loop's frame (the swarm's moves and
// Step, one op a frame, one worker) alone, with the live view's handler
// mounted and Publish called after every Step but nobody watching, and with
// one stream client reading every frame over loopback, at the default 60
// frames a second captured and at 30. It reports the GC cycles a frame
// (gc/op) with the time of the loop's own work and of Publish.
func BenchmarkLiveView(b *testing.B) {
	for _, n := range []int{10000} {
		for _, mode := range []string{"plain", "idle", "one-client", "one-client-30fps"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, mode), func(b *testing.B) {
				sc := scene.Swarm(n, 1)
				w := collide.NewWorld(collide.Config{Workers: 1})
				defer w.Close()
				ids, err := scene.Load(w, sc)
				if err != nil {
					b.Fatal(err)
				}
				var h *view.Handler
				if mode != "plain" {
					o := view.Options{}
					if mode == "one-client-30fps" {
						o.MaxFPS = 30
					}
					h = view.NewHandler(o)
					mux := http.NewServeMux()
					mux.Handle("/debug/collide/", h)
					srv := httptest.NewServer(mux)
					defer srv.Close()
					if mode != "idle" {
						resp, err := http.Get(srv.URL + "/debug/collide/stream")
						if err != nil {
							b.Fatal(err)
						}
						defer resp.Body.Close()
						r := bufio.NewReader(resp.Body)
						var greeting [4]byte
						if _, err := io.ReadFull(r, greeting[:]); err != nil {
							b.Fatal(err)
						}
						go func() { _, _ = io.Copy(io.Discard, r) }()
					}
				}
				// The loop's own time and Publish's are summed apart, so
				// that Publish's share is measured within one run, free of
				// the drift between runs on a shared machine.
				var stepNs, publishNs time.Duration
				frame := func() {
					t0 := time.Now()
					sc.Advance()
					if err := scene.Sync(w, sc, ids); err != nil {
						b.Fatal(err)
					}
					w.Step()
					t1 := time.Now()
					if h != nil {
						h.Publish(w)
					}
					stepNs += t1.Sub(t0)
					publishNs += time.Since(t1)
				}
				for range 100 {
					frame()
				}
				stepNs, publishNs = 0, 0
				b.ReportAllocs()
				frames := 0
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				gcs := ms.NumGC
				for b.Loop() {
					frame()
					frames++
				}
				runtime.ReadMemStats(&ms)
				// GC cycles a frame: the off-loop work's garbage makes
				// them, and their mark work and write barriers slow Step.
				b.ReportMetric(float64(ms.NumGC-gcs)/float64(frames), "gc/op")
				b.ReportMetric(float64(stepNs.Nanoseconds())/float64(frames), "step-ns/op")
				b.ReportMetric(float64(publishNs.Nanoseconds())/float64(frames), "publish-ns/op")
				b.ReportMetric(100*float64(publishNs)/float64(stepNs), "publish-%")
				if h != nil {
					st := h.Stats()
					b.ReportMetric(float64(st.Published)/float64(st.Published+st.Skipped), "published/frame")
				}
			})
		}
	}
}

// BenchmarkPublishCost measures what one published frame costs: the copy
// of the world that Publish does on the loop's goroutine (capture), and
// the work done off it (encode: drawing the copy into a frame, its bounds
// and its encoding), for the 10k swarm, with the boxes and without. Both
// reuse their buffers as the Handler does, so their allocations are
// those of a steady-state published frame.
func BenchmarkPublishCost(b *testing.B) {
	sc := scene.Swarm(10000, 1)
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	ids, err := scene.Load(w, sc)
	if err != nil {
		b.Fatal(err)
	}
	for range 100 {
		sc.Advance()
		_ = scene.Sync(w, sc, ids)
		w.Step()
	}
	// With boxes, as for a client that shows them; without, the
	// handler's default (the frames BenchmarkLiveView's client gets).
	for _, tc := range []struct {
		suffix string
		o      collide.DrawOptions
	}{
		{"", collide.DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true}},
		{"-noboxes", collide.DrawOptions{Contacts: true, MTV: true}},
	} {
		o := tc.o
		b.Run("capture"+tc.suffix, func(b *testing.B) {
			view.CopyForStream(w, o)
			b.ReportAllocs()
			for b.Loop() {
				view.CopyForStream(w, o)
			}
		})
		b.Run("encode"+tc.suffix, func(b *testing.B) {
			var f view.Frame
			view.CopyForStream(w, o)
			view.DrawAndEncode(&f) // the frame, the scratch and the message grow once
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = view.DrawAndEncode(&f)
			}
			b.ReportMetric(float64(n), "bytes/frame")
		})
	}
}
