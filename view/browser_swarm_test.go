package view_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
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
	browserPID := 0
	if c := chromedp.FromContext(ctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		browserPID = c.Browser.Process().Pid
	}
	cpuB0, cpuS0 := cpuSeconds(browserPID, true), cpuSeconds(os.Getpid(), false)
	published0, steps0 := h.Stats().Published, steps.Load()
	poll("the measurement", fmt.Sprintf("performance.now() >= %f", s0.Now+swarmMeasureMs))
	if err := chromedp.Run(ctx, chromedp.Evaluate(snap, &s1), getMetrics(&m1)); err != nil {
		t.Fatal(err)
	}
	published, stepped := h.Stats().Published-published0, steps.Load()-steps0
	cpuB, cpuS := cpuSeconds(browserPID, true)-cpuB0, cpuSeconds(os.Getpid(), false)-cpuS0
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
	// CPU time, which a busy machine inflates far less than it cuts the
	// rates above: the browser's (all its processes) a frame painted, and
	// this process's (the loop, the encoder, the server) a frame published.
	if cpuB > 0 && cpuS > 0 {
		t.Logf("CPU: browser %.1f ms a frame painted, server %.1f ms a frame published (%.0f%% and %.0f%% of a core)",
			1000*cpuB/painted, 1000*cpuS/float64(published), 100*cpuB/secs, 100*cpuS/secs)
	}
	// The loop stops; frames of the world as it now stands are published
	// (every Publish due, on the test's clock) until the page paints one.
	// A page whose painting stalls, or that paints an older frame than the
	// newest it received, fails here.
	stopLoop()
	loop.Wait()
	waitFor(t, "the last frame's encoding", func() bool { return view.EncoderIdle(h) })
	view.SetSyncEncode(h)
	view.SetClock(h, func() time.Time { return time.Now().Add(time.Hour) })
	h.Publish(w)
	final := h.Stats().Published
	for shown := float64(0); shown < float64(final); h.Publish(w) {
		if err := chromedp.Run(ctx, chromedp.Evaluate("window.collideView.shownSeq", &shown)); err != nil {
			t.Fatalf("waiting for the page to paint frame %d or later: %v", final, err)
		}
	}
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
	checkPainted(t, ctx, img, w)
	// Paint the frame shown again and again, paused, its raster forced.
	var benchMs float64
	if err := chromedp.Run(ctx, chromedp.Click("#pause", chromedp.ByID), chromedp.Evaluate("window.collideView.paintBench(20)", &benchMs)); err != nil {
		t.Fatal(err)
	}
	t.Logf("paused, one paint of the frame shown with its raster: %.1f ms; %d dynamic blue pixels", benchMs, colourCounts(img)["dynamic blue"])
}

// checkPainted compares the canvas (img, a screenshot of it) with what the
// world draws, mapped to the canvas by the page's camera: every body
// drawn wholly on the canvas covers a pixel in its box (a pixel around),
// and every pixel that is not white lies in the box of something drawn
// (two pixels around, six for arrows, whose heads stick out).
func checkPainted(t *testing.T, ctx context.Context, img image.Image, w *collide.World) {
	t.Helper()
	// The camera, from the page's own mapping of two world points.
	var cam []float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const v = window.collideView, r = document.getElementById("view").getBoundingClientRect(), [x0, y0] = v.pageXY(0, 0), [x1] = v.pageXY(1, 0); return [x0 - r.left, y0 - r.top, x1 - x0]; })()`, &cam)); err != nil || len(cam) != 3 {
		t.Fatalf("the page's camera: %v %v", cam, err)
	}
	ox, oy, s := cam[0], cam[1], cam[2]
	var prims []wirePrim
	w.Draw(pointCollector{&prims}, collide.DrawOptions{Contacts: true, MTV: true})
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	mask := make([]bool, W*H)
	white := func(x, y int) bool {
		r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return r>>8 >= 250 && g>>8 >= 250 && bl>>8 >= 250
	}
	bodies, bare := 0, 0
	for _, p := range prims {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, v := range p.pts {
			x, y := ox+v[0]*s, oy-v[1]*s
			x0, y0, x1, y1 = min(x0, x-p.r*s), min(y0, y-p.r*s), max(x1, x+p.r*s), max(y1, y+p.r*s)
		}
		pad := 2.0
		if p.op == 4 {
			pad = 6
		}
		for y := max(int(math.Floor(y0-pad)), 0); y <= min(int(math.Ceil(y1+pad)), H-1); y++ {
			for x := max(int(math.Floor(x0-pad)), 0); x <= min(int(math.Ceil(x1+pad)), W-1); x++ {
				mask[y*W+x] = true
			}
		}
		if p.op > 2 || x0 < 1 || y0 < 1 || x1 > float64(W-2) || y1 > float64(H-2) {
			continue // not a body outline, or not wholly on the canvas
		}
		bodies++
		covered := false
		for y := int(math.Floor(y0 - 1)); y <= int(math.Ceil(y1+1)) && !covered; y++ {
			for x := int(math.Floor(x0 - 1)); x <= int(math.Ceil(x1+1)) && !covered; x++ {
				covered = !white(x, y)
			}
		}
		if !covered {
			bare++
		}
	}
	stray := 0
	for y := range H {
		for x := range W {
			if !mask[y*W+x] && !white(x, y) {
				stray++
			}
		}
	}
	if bare > 0 || stray > 0 || bodies == 0 {
		t.Errorf("the canvas against the world: %d of %d outlines on the canvas cover no pixel, %d pixels are painted away from everything drawn", bare, bodies, stray)
	}
}

// cpuSeconds returns the CPU seconds (user and system) that process pid
// (and its descendants, with tree) has used, from Linux's /proc, or 0
// where there is none.
func cpuSeconds(pid int, tree bool) float64 {
	if pid <= 0 {
		return 0
	}
	// Each process's parent and times: fields 4, 14 and 15 of
	// /proc/N/stat, counted after the command's closing parenthesis.
	type proc struct {
		ppid  int
		ticks float64
	}
	procs := map[int]proc{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseFloat(f[11], 64)
		st, _ := strconv.ParseFloat(f[12], 64)
		procs[n] = proc{ppid, ut + st}
	}
	// Linux counts in USER_HZ ticks, 100 a second on every architecture
	// that Go supports.
	var sum float64
	for n, p := range procs {
		if !tree && n != pid {
			continue
		}
		for a := n; a > 1; a = procs[a].ppid {
			if a == pid {
				sum += p.ticks
				break
			}
			if _, ok := procs[a]; !ok {
				break
			}
		}
	}
	return sum / 100
}
