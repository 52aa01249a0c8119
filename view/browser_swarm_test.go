package view_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
	"github.com/collide-go/collide/view"
)

// pageStats are the page's running totals (window.__collideStats) plus
// the animation frames counted by the test and the page's clock.
type pageStats struct {
	Received float64 `json:"received"`
	Bytes    float64 `json:"bytes"`
	Painted  float64 `json:"painted"`
	ParseMs  float64 `json:"parseMs"`
	DecodeMs float64 `json:"decodeMs"`
	PaintMs  float64 `json:"paintMs"`
	RAFs     float64 `json:"rafs"`
	Now      float64 `json:"now"`
}

// swarmMeasureMs is how long TestLiveViewSwarmInBrowser measures, by the
// page's clock.
const swarmMeasureMs = 5000

// TestLiveViewSwarmInBrowser serves the 10k swarm, stepped and published
// at 60 Hz, to headless Chromium and logs what the page did over about
// five seconds: frames received and painted a second, bytes a frame, and
// the milliseconds a frame spent in parsing, decoding and painting. It
// asserts only that frames arrive and are painted; the figures are for
// reading (go test -run SwarmInBrowser -v ./view), not for a limit.
func TestLiveViewSwarmInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("measures for five seconds; not under -short")
	}
	exe := chromium(t)
	h := view.NewHandler(view.Options{})
	mux := http.NewServeMux()
	mux.Handle("/debug/collide/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close) // after the browser's cleanup: its stream must end first

	sc := scene.Swarm(10000, 1)
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	ids, err := scene.Load(w, sc)
	if err != nil {
		t.Fatal(err)
	}
	loopCtx, stopLoop := context.WithCancel(context.Background())
	var loop sync.WaitGroup
	var steps atomic.Int64
	loop.Add(1)
	go func() {
		defer loop.Done()
		tick := time.NewTicker(time.Second / 60)
		defer tick.Stop()
		for {
			select {
			case <-loopCtx.Done():
				return
			case <-tick.C:
			}
			sc.Advance()
			if err := scene.Sync(w, sc, ids); err != nil {
				t.Error(err)
				return
			}
			w.Step()
			h.Publish(w)
			steps.Add(1)
		}
	}()
	defer func() { stopLoop(); loop.Wait() }()

	ctx := browser(t, exe, 90*time.Second)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/debug/collide/"), chromedp.WaitVisible("#view", chromedp.ByID)); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	poll := func(what, expr string) {
		t.Helper()
		if err := chromedp.Run(ctx, chromedp.Poll(expr, nil, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
			t.Fatalf("waiting for %s (%s): %v", what, expr, err)
		}
	}
	poll("the first painted frames", "window.__collideStats && window.__collideStats.painted >= 3")
	// Count the browser's animation frames too: a page that paints slowly
	// gets fewer of them.
	const snap = `(() => { const s = Object.assign({}, window.__collideStats); s.rafs = window.__rafs || 0; s.now = performance.now(); return s; })()`
	var s0, s1 pageStats
	var m0, m1 []*performance.Metric
	getMetrics := func(m *[]*performance.Metric) chromedp.ActionFunc {
		return func(ctx context.Context) (err error) {
			*m, err = performance.GetMetrics().Do(ctx)
			return err
		}
	}
	if err := chromedp.Run(ctx,
		performance.Enable(),
		chromedp.Evaluate(`window.__rafs = 0; (function tick() { window.__rafs++; requestAnimationFrame(tick); })(); 0`, nil),
		chromedp.Evaluate(snap, &s0), getMetrics(&m0)); err != nil {
		t.Fatal(err)
	}
	published0, steps0 := h.Stats().Published, steps.Load()
	poll("the measurement", fmt.Sprintf("performance.now() >= %f", s0.Now+swarmMeasureMs))
	if err := chromedp.Run(ctx, chromedp.Evaluate(snap, &s1), getMetrics(&m1)); err != nil {
		t.Fatal(err)
	}
	published, stepped := h.Stats().Published-published0, steps.Load()-steps0
	secs := (s1.Now - s0.Now) / 1000
	rec, painted := s1.Received-s0.Received, s1.Painted-s0.Painted
	if rec == 0 || painted == 0 {
		t.Fatalf("over %.1f s the page received %v frames and painted %v, want some of each", secs, rec, painted)
	}
	perFrame := func(ms, n float64) float64 { return ms / n }
	t.Logf("10k swarm over %.1f s: stepped %.1f/s, published %.1f/s; page received %.1f/s (%.0f KB a frame, parse %.2f ms), painted %.1f/s (decode %.2f ms, paint %.2f ms a frame), %.1f animation frames/s",
		secs, float64(stepped)/secs, float64(published)/secs, rec/secs, (s1.Bytes-s0.Bytes)/rec/1000, perFrame(s1.ParseMs-s0.ParseMs, rec),
		painted/secs, perFrame(s1.DecodeMs-s0.DecodeMs, painted), perFrame(s1.PaintMs-s0.PaintMs, painted), (s1.RAFs-s0.RAFs)/secs)
	// The renderer's main thread: the share of the time it was busy, and
	// in script.
	metric := func(m []*performance.Metric, name string) float64 {
		for _, x := range m {
			if x.Name == name {
				return x.Value
			}
		}
		return 0
	}
	t.Logf("renderer main thread busy %.0f%% of the time, %.0f%% in script",
		100*(metric(m1, "TaskDuration")-metric(m0, "TaskDuration"))/secs,
		100*(metric(m1, "ScriptDuration")-metric(m0, "ScriptDuration"))/secs)
	// The canvas shows the swarm's bodies.
	var shot []byte
	if err := chromedp.Run(ctx, chromedp.Screenshot("#view", &shot, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("COLLIDE_SWARM_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, shot, 0o644); err != nil {
			t.Error(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n := colourCounts(img)["dynamic blue"]; n < 2000 {
		t.Errorf("the canvas shows %d pixels of the dynamic bodies' blue, want at least 2,000", n)
	}
	// Paint the frame shown again and again, paused, its raster forced.
	var benchMs float64
	if err := chromedp.Run(ctx, chromedp.Click("#pause", chromedp.ByID), chromedp.Evaluate("window.collideView.paintBench(20)", &benchMs)); err != nil {
		t.Fatal(err)
	}
	t.Logf("paused, one paint of the frame shown with its raster: %.1f ms; %d dynamic blue pixels", benchMs, colourCounts(img)["dynamic blue"])
}
