package view_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/view"
)

// requireBrowser is the environment variable that makes a missing Chromium
// a failure instead of a skip; CI sets it.
const requireBrowser = "COLLIDE_REQUIRE_BROWSER"

// chromium returns the path of a Chromium or Chrome binary, or skips (or,
// with COLLIDE_REQUIRE_BROWSER set, fails) the test.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium on PATH (Debian: apt-get install chromium); the browser test of the live view did not run"
	if os.Getenv(requireBrowser) != "" {
		t.Fatalf("%s, and %s is set", msg, requireBrowser)
	}
	t.Skipf("%s; set %s=1 to make this a failure", msg, requireBrowser)
	return ""
}

// browser starts headless Chromium (exe) at 1280×720 without a GPU and
// returns a context for chromedp that ends after limit; the browser is
// closed when t ends.
func browser(t *testing.T, exe string, limit time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1280, 720),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, limit)
	t.Cleanup(cancelT)
	return ctx
}

// TestLiveViewInBrowser drives headless Chromium against the live view:
// the page loads, frames arrive, the canvas shows the bodies, pause holds
// the frame shown and step shows the next one.
func TestLiveViewInBrowser(t *testing.T) {
	exe := chromium(t)
	h := view.NewHandler(view.Options{Token: "tk", MaxFPS: -1})
	mux := http.NewServeMux()
	mux.Handle("/debug/collide/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close) // after the browser's cleanup: its stream must end first

	// The game loop: the fixed scene, its bullet moving, about 30 frames
	// a second, on a goroutine of its own that alone touches the world.
	w := fixedScene(t)
	bodies := []collide.BodyID{}
	w.Draw(idCollector{&bodies}, collide.DrawOptions{})
	bullet := bodies[4]
	loopCtx, stopLoop := context.WithCancel(context.Background())
	var loop sync.WaitGroup
	loop.Add(1)
	go func() {
		defer loop.Done()
		tick := time.NewTicker(33 * time.Millisecond)
		defer tick.Stop()
		for k := 0; ; k++ {
			select {
			case <-loopCtx.Done():
				return
			case <-tick.C:
			}
			_ = w.SetTransform(bullet, collide.V(-3+float64(k%20)*0.1, 3), 0)
			w.Step()
			h.Publish(w)
		}
	}()
	defer func() { stopLoop(); loop.Wait() }()

	ctx := browser(t, exe, 90*time.Second)

	var received int
	state := func(field string) (float64, error) {
		var v float64
		err := chromedp.Run(ctx, chromedp.Evaluate("window.collideView."+field, &v))
		return v, err
	}
	waitUntil := func(what, expr string) {
		t.Helper()
		if err := chromedp.Run(ctx, chromedp.Poll(expr, nil, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
			t.Fatalf("waiting for %s (%s): %v", what, expr, err)
		}
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/debug/collide/?token=tk"), chromedp.WaitVisible("#view", chromedp.ByID)); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	waitUntil("three frames", "window.collideView.received >= 3")
	if r, err := state("received"); err == nil {
		received = int(r)
	}

	// The canvas shows the bodies: count pixels of each body colour.
	var shot []byte
	if err := chromedp.Run(ctx, chromedp.Screenshot("#view", &shot, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("COLLIDE_SCREENSHOT"); out != "" {
		// For the docs: COLLIDE_SCREENSHOT=docs/live.png go test -run Browser ./view
		var full []byte
		if err := chromedp.Run(ctx, chromedp.FullScreenshot(&full, 100)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, full, 0o644); err != nil {
			t.Error(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	counts := colourCounts(img)
	for _, c := range []struct {
		name string
		min  int
	}{{"dynamic blue", 500}, {"static grey", 500}, {"sensor green", 200}, {"bullet orange", 20}} {
		if counts[c.name] < c.min {
			t.Errorf("the canvas shows %d %s pixels, want at least %d (counts %v)", counts[c.name], c.name, c.min, counts)
		}
	}

	// Where the hero circle and the OBB overlap, both fills show: the blue
	// is blended twice (shapes batched into one path would fill it once,
	// or not at all where their windings cancel).
	var in []float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const [x, y] = window.collideView.pageXY(0.85, -0.15), r = document.getElementById("view").getBoundingClientRect(); return [x - r.left, y - r.top]; })()`, &in)); err != nil || len(in) != 2 {
		t.Fatalf("pageXY: %v %v", in, err)
	}
	fill := collide.DefaultPalette.Dynamic.Fill
	once := func(c, under uint8) int { return (int(c)*int(fill.A) + int(under)*(255-int(fill.A))) / 255 }
	r, g, bl, _ := img.At(int(in[0]), int(in[1])).RGBA()
	wantR, wantG, wantB := once(fill.R, uint8(once(fill.R, 255))), once(fill.G, uint8(once(fill.G, 255))), once(fill.B, uint8(once(fill.B, 255)))
	if abs(int(r>>8)-wantR) > 8 || abs(int(g>>8)-wantG) > 8 || abs(int(bl>>8)-wantB) > 8 {
		t.Errorf("where the circle and the OBB overlap the canvas shows rgb(%d,%d,%d), want the blue blended twice, rgb(%d,%d,%d)", r>>8, g>>8, bl>>8, wantR, wantG, wantB)
	}

	// Pause holds the frame shown while frames keep arriving.
	if err := chromedp.Run(ctx, chromedp.Click("#pause", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	held, _ := state("shownSeq")
	waitUntil("frames while paused", fmt.Sprintf("window.collideView.receivedSeq >= %d", int(held)+3))
	if now, _ := state("shownSeq"); now != held {
		t.Errorf("paused at frame %v, the page shows frame %v", held, now)
	}
	// Step shows the next frame, then holds again.
	if err := chromedp.Run(ctx, chromedp.Click("#step", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	waitUntil("the stepped frame", fmt.Sprintf("window.collideView.shownSeq > %d", int(held)))
	stepped, _ := state("shownSeq")
	waitUntil("frames after the step", fmt.Sprintf("window.collideView.receivedSeq >= %d", int(stepped)+3))
	if now, _ := state("shownSeq"); now != stepped {
		t.Errorf("after one step the page moved on from frame %v to %v while paused", stepped, now)
	}
	// Resume follows the stream again.
	if err := chromedp.Run(ctx, chromedp.Click("#pause", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	waitUntil("frames after resuming", fmt.Sprintf("window.collideView.shownSeq >= %d", int(stepped)+3))

	// Hover over the hero (the circle at the origin, a little off its
	// centre, away from the OBB): the tip shows its id, kind, filter and
	// user value.
	var xy []float64
	if err := chromedp.Run(ctx, chromedp.Evaluate("window.collideView.pageXY(-0.5, -0.3)", &xy)); err != nil || len(xy) != 2 {
		t.Fatalf("pageXY: %v %v", xy, err)
	}
	if err := chromedp.Run(ctx, chromedp.MouseEvent(input.MouseMoved, xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	waitUntil("the hover tip", `document.getElementById("tip").textContent.includes("user hero")`)
	var tipText string
	if err := chromedp.Run(ctx, chromedp.Text("#tip", &tipText, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("id %d", uint64(bodies[0])), "dynamic circle", "category 0x1", "mask 0xffffffff", "user hero"} {
		if !strings.Contains(tipText, want) {
			t.Errorf("hover tip %q lacks %q", tipText, want)
		}
	}

	// Boxes are off at first and not even sent; ticking a toggle asks the
	// server for them, and they arrive.
	var boxes float64
	if err := chromedp.Run(ctx, chromedp.Evaluate("window.collideView.layers[1] + window.collideView.layers[2]", &boxes)); err != nil || boxes != 0 {
		t.Errorf("boxes in a frame before asking: %v (%v), want 0", boxes, err)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#l-fat", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	waitUntil("frames with fat boxes", "window.collideView.layers[2] === 5 && window.collideView.layers[1] === 5")

	// The server drops the connection: the page says so and opens the
	// stream again, and frames come again.
	before, err := state("received")
	if err != nil {
		t.Fatal(err)
	}
	srv.CloseClientConnections()
	waitUntil("frames after the server closed the stream", fmt.Sprintf("window.collideView.received >= %d", int(before)+3))
	t.Logf("frames received before the screenshot: %d; handler %+v", received, h.Stats())
}

// idCollector is a Drawer that keeps the ids of the bodies drawn.
type idCollector struct{ ids *[]collide.BodyID }

func (d idCollector) Layer(collide.Layer)                                        {}
func (d idCollector) Body(b collide.BodyInfo)                                    { *d.ids = append(*d.ids, b.ID) }
func (d idCollector) Polygon([]collide.Vec2, collide.Style)                      {}
func (d idCollector) Circle(collide.Vec2, float64, collide.Style)                {}
func (d idCollector) Segment(collide.Vec2, collide.Vec2, float64, collide.Style) {}
func (d idCollector) Point(collide.Vec2, collide.Color)                          {}
func (d idCollector) Arrow(collide.Vec2, collide.Vec2, collide.Color)            {}
func (d idCollector) Box(collide.AABB, collide.Color)                            {}
func (d idCollector) Text(collide.Vec2, string, collide.Color)                   {}

// colourCounts counts the pixels of img near each body fill colour of the
// default palette blended on white.
func colourCounts(img image.Image) map[string]int {
	p := collide.DefaultPalette
	want := map[string]collide.Color{
		"dynamic blue":  p.Dynamic.Fill,
		"static grey":   p.Static.Fill,
		"sensor green":  p.Sensor.Fill,
		"bullet orange": p.Bullet.Fill,
	}
	blend := func(c, a uint8) int { return (int(c)*int(a) + 255*(255-int(a))) / 255 }
	counts := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for name, c := range want {
				if abs(int(r>>8)-blend(c.R, c.A)) <= 6 && abs(int(g>>8)-blend(c.G, c.A)) <= 6 && abs(int(bl>>8)-blend(c.B, c.A)) <= 6 {
					counts[name]++
				}
			}
		}
	}
	return counts
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
