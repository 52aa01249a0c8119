package view_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
	"github.com/collide-go/collide/view"
)

var loadFor = flag.Duration("load", 0, "run TestHandlerUnderLoad for this long (the issue's figure: 30s) instead of 3,000 frames")

// waitFor polls cond, yielding the processor, until it holds or a generous
// limit passes (a failure, not a timing assertion: the conditions are
// reached in microseconds).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		runtime.Gosched()
	}
}

func TestTokenChecks(t *testing.T) {
	tests := []struct {
		name, token, header, query string
		want                       int
	}{
		{name: "no token configured", want: http.StatusOK},
		{name: "missing", token: "s3cret", want: http.StatusUnauthorized},
		{name: "wrong", token: "s3cret", header: "s3cres", want: http.StatusUnauthorized},
		{name: "wrong length", token: "s3cret", query: "s3cret2", want: http.StatusUnauthorized},
		{name: "prefix", token: "s3cret", query: "s3c", want: http.StatusUnauthorized},
		{name: "right in the header", token: "s3cret", header: "s3cret", want: http.StatusOK},
		{name: "right in the query", token: "s3cret", query: "s3cret", want: http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := view.NewHandler(view.Options{Token: tc.token})
			for _, p := range []string{"/debug/collide/", "/debug/collide/body?seq=1&i=0"} {
				u := p
				if tc.query != "" {
					sep := "?"
					if strings.Contains(u, "?") {
						sep = "&"
					}
					u += sep + "token=" + tc.query
				}
				r := httptest.NewRequest("GET", u, nil)
				if tc.header != "" {
					r.Header.Set("X-Collide-Token", tc.header)
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				want := tc.want
				if want == http.StatusOK && strings.Contains(p, "body") {
					want = http.StatusNotFound // authorised, but no frame yet
				}
				if rec.Code != want {
					t.Errorf("GET %s: status %d, want %d", u, rec.Code, want)
				}
				if rec.Code == http.StatusOK && !strings.Contains(rec.Body.String(), "<canvas") {
					t.Errorf("GET %s: no page", u)
				}
			}
		})
	}
}

// TestTokenComparedInConstantTime reads the handler's source: the token
// check must go through crypto/subtle.ConstantTimeCompare, and the token
// must not meet ==, != or a strings function, whose time depends on where
// the first difference is.
func TestTokenComparedInConstantTime(t *testing.T) {
	fs := token.NewFileSet()
	file, err := parser.ParseFile(fs, "live.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var auth *ast.FuncDecl
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "authorized" {
			auth = fd
		}
	}
	if auth == nil {
		t.Fatal("no func authorized in live.go")
	}
	subtleCalls := 0
	ast.Inspect(auth, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "subtle" && n.Sel.Name == "ConstantTimeCompare" {
				subtleCalls++
			}
			if x, ok := n.X.(*ast.Ident); ok && (x.Name == "strings" || x.Name == "bytes") {
				t.Errorf("%s: authorized calls %s.%s", fs.Position(n.Pos()), x.Name, n.Sel.Name)
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				// Only the emptiness checks and the result of the
				// constant-time compare may meet ==.
				if lit, ok := n.Y.(*ast.BasicLit); !ok || (lit.Value != `""` && lit.Value != "1") {
					t.Errorf("%s: authorized compares with %s against something else than \"\" or 1", fs.Position(n.Pos()), n.Op)
				}
			}
		}
		return true
	})
	if subtleCalls != 1 {
		t.Errorf("authorized calls subtle.ConstantTimeCompare %d times, want 1", subtleCalls)
	}
}

// stream reads the live view's messages.
type stream struct {
	r *bufio.Reader
}

// message is one message of the stream, split as encode lays it out: the
// JSON header, the commands, and the rest (anchors, radii, wide points and
// deltas).
type message struct {
	header    []byte // JSON
	cmd, rest []byte
}

// next returns the next frame message, checking its framing: the lengths
// fit the message, the commands start 4-byte aligned.
func (s *stream) next() (message, error) {
	for {
		var n [4]byte
		if _, err := io.ReadFull(s.r, n[:]); err != nil {
			return message{}, err
		}
		size := binary.LittleEndian.Uint32(n[:])
		if size == 0 {
			continue // the greeting
		}
		if size > 64<<20 {
			return message{}, fmt.Errorf("message of %d bytes", size)
		}
		b := make([]byte, 4+size)
		copy(b, n[:])
		if _, err := io.ReadFull(s.r, b[4:]); err != nil {
			return message{}, err
		}
		h := int(binary.LittleEndian.Uint32(b[4:]))
		o := (8 + h + 3) &^ 3
		if o+4 > len(b) {
			return message{}, fmt.Errorf("header of %d bytes in a message of %d", h, len(b))
		}
		c := int(binary.LittleEndian.Uint32(b[o:]))
		if o+4+4*c > len(b) || (len(b)-o-4-4*c)%4 != 0 {
			return message{}, fmt.Errorf("%d commands and %d bytes after the header", c, len(b)-o-4)
		}
		return message{header: b[8 : 8+h], cmd: b[o+4 : o+4+4*c], rest: b[o+4+4*c:]}, nil
	}
}

type wireFrame struct {
	bodies int
	layers [8]int
	prims  []wirePrim
	Seq    uint64      `json:"seq"`
	Styles [][2]uint32 `json:"styles"`
	Origin []float64   `json:"origin"`
	Q      float64     `json:"q"`
	Texts  []string    `json:"texts"`
}

// wirePrim is a primitive as the stream carries it, its points back in
// world units.
type wirePrim struct {
	op, layer, style int
	body             bool
	pts              [][2]float64
	r                float64
}

// open connects a stream client and waits for the server's greeting.
func open(t *testing.T, url string) (*http.Response, *stream) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/octet-stream" {
		t.Fatalf("stream Content-Type %q, want application/octet-stream", ct)
	}
	s := &stream{r: bufio.NewReader(resp.Body)}
	var greeting [4]byte
	if _, err := io.ReadFull(s.r, greeting[:]); err != nil || greeting != [4]byte{} {
		t.Fatalf("stream greeting %v, %v; want an empty message", greeting, err)
	}
	return resp, s
}

func TestClientBound(t *testing.T) {
	h := view.NewHandler(view.Options{MaxClients: 2})
	srv := httptest.NewServer(h)
	defer srv.Close()
	a, _ := open(t, srv.URL+"/stream")
	b, _ := open(t, srv.URL+"/stream")
	resp, err := http.Get(srv.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("third stream client: %s, want 503", resp.Status)
	}
	if s := h.Stats(); s.Clients != 2 || s.Refused != 1 {
		t.Errorf("Stats() = %+v, want 2 clients and 1 refused", s)
	}
	// A client that goes away frees its place.
	a.Body.Close()
	waitFor(t, "the closed client to be dropped", func() bool { return h.Stats().Clients == 1 })
	c, _ := open(t, srv.URL+"/stream")
	c.Body.Close()
	b.Body.Close()
}

// gatedWriter is a ResponseWriter whose every Write waits for the test:
// it announces itself on started, then waits for one release (or for all,
// once all is closed). It plays a client that reads exactly when told.
type gatedWriter struct {
	hdr     http.Header
	started chan struct{}
	release chan struct{}
	all     chan struct{}
}

func newGatedWriter() *gatedWriter {
	return &gatedWriter{hdr: http.Header{}, started: make(chan struct{}, 100), release: make(chan struct{}), all: make(chan struct{})}
}

func (w *gatedWriter) Header() http.Header { return w.hdr }
func (w *gatedWriter) WriteHeader(int)     {}
func (w *gatedWriter) Flush()              {}
func (w *gatedWriter) Write(b []byte) (int, error) {
	w.started <- struct{}{}
	select {
	case <-w.release:
	case <-w.all:
	}
	return len(b), nil
}

// TestSlowClientKeptStuckClientDropped: a client that takes a frame now and
// then misses the frames it has no room for and stays; one that has had no
// room for more than MaxMissed frames in a row is dropped. Every Publish
// returns at once on the test's goroutine whatever the client does.
func TestSlowClientKeptStuckClientDropped(t *testing.T) {
	const buffer, maxMissed = 2, 3
	h := view.NewHandler(view.Options{ClientBuffer: buffer, MaxMissed: maxMissed, MaxFPS: -1})
	view.SetSyncEncode(h)
	w := fixedScene(t)
	gw := newGatedWriter()
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(gw, httptest.NewRequest("GET", "/debug/collide/stream", nil))
		close(done)
	}()
	<-gw.started // the greeting
	gw.release <- struct{}{}
	publish := func(n int) {
		for range n {
			w.Step()
			h.Publish(w)
		}
	}
	check := func(when string, clients int, dropped uint64) {
		t.Helper()
		if s := h.Stats(); s.Clients != clients || s.Dropped != dropped {
			t.Errorf("%s: Stats() = %+v, want %d clients, %d dropped", when, s, clients, dropped)
		}
	}
	publish(1)
	<-gw.started // the client is writing frame 1, and stays there
	publish(buffer + maxMissed)
	check("frames 2-3 queued, 4-6 missed", 1, 0)
	gw.release <- struct{}{} // frame 1 written
	<-gw.started             // frame 2 taken: room for one
	publish(1)
	check("frame 7 queued: the misses start again", 1, 0)
	publish(maxMissed)
	check("frames 8-10 missed", 1, 0)
	publish(1)
	check("frame 11 missed: more than MaxMissed in a row", 0, 1)
	if s := h.Stats(); s.Published != 11 {
		t.Errorf("published %d frames, want 11: Publish must not wait for a client", s.Published)
	}
	close(gw.all)
	<-done
	// Nobody watching: Publish captures nothing.
	before := h.Stats()
	publish(1)
	if got := h.Stats(); got.Published != before.Published || got.Skipped != before.Skipped+1 {
		t.Errorf("Publish with nobody watching: %+v, want one more skipped and none published", got)
	}
}

// decodeWire decodes a frame message and checks it against its own
// framing: the header is JSON, the commands' styles exist, and their point
// counts account for every byte after them: one anchor a primitive, one
// radius a circle or segment, the wide primitives' other points as
// float32s and the others' as int16 multiples of q from their anchor.
func decodeWire(t *testing.T, m message) wireFrame {
	t.Helper()
	var f wireFrame
	if err := json.Unmarshal(m.header, &f); err != nil {
		t.Fatalf("frame header is not JSON: %v", err)
	}
	if len(f.Origin) != 2 || !(f.Q > 0) {
		t.Fatalf("frame header: origin %v, q %v", f.Origin, f.Q)
	}
	cmd := m.cmd
	n := len(cmd) / 4
	radii, wide, deltas := 0, 0, 0
	for k := range n {
		w0 := binary.LittleEndian.Uint32(cmd[4*k:])
		op, np := w0&7, int(w0>>16&0x7fff)
		if op == 1 || op == 2 {
			radii++
		}
		if np > 1 {
			if w0&(1<<31) != 0 {
				wide += np - 1
			} else {
				deltas += np - 1
			}
		}
		if int(w0>>7&511) >= len(f.Styles) {
			t.Fatalf("primitive %d names style %d of %d", k, w0>>7&511, len(f.Styles))
		}
	}
	if want := 8*n + 4*radii + 8*wide + 4*deltas; len(m.rest) != want {
		t.Fatalf("commands name %d anchors, %d radii, %d wide and %d narrow points (%d bytes); the message holds %d bytes after them", n, radii, wide, deltas, want, len(m.rest))
	}
	rest := m.rest
	f32 := func(o int) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(rest[o:]))) }
	ri, wi, di := 8*n, 8*n+4*radii, 8*n+4*radii+8*wide
	for k := range n {
		w0 := binary.LittleEndian.Uint32(cmd[4*k:])
		p := wirePrim{op: int(w0 & 7), layer: int(w0 >> 3 & 7), style: int(w0 >> 7 & 511), body: w0&(1<<6) != 0}
		np := int(w0 >> 16 & 0x7fff)
		ax, ay := f32(8*k), f32(8*k+4)
		if np > 0 {
			p.pts = append(p.pts, [2]float64{f.Origin[0] + ax, f.Origin[1] + ay})
		}
		for range max(np-1, 0) {
			if w0&(1<<31) != 0 {
				p.pts = append(p.pts, [2]float64{f.Origin[0] + f32(wi), f.Origin[1] + f32(wi+4)})
				wi += 8
			} else {
				dx, dy := int16(binary.LittleEndian.Uint16(rest[di:])), int16(binary.LittleEndian.Uint16(rest[di+2:]))
				p.pts = append(p.pts, [2]float64{f.Origin[0] + ax + float64(dx)*f.Q, f.Origin[1] + ay + float64(dy)*f.Q})
				di += 4
			}
		}
		if p.op == 1 || p.op == 2 {
			p.r = f32(ri)
			ri += 4
		}
		if p.body {
			f.bodies++
		}
		f.layers[p.layer]++
		f.prims = append(f.prims, p)
	}
	return f
}

// TestPublishPacedByMaxFPS runs Publish on a test clock: a loop ticking
// at MaxFPS with jitter gets every tick captured (the bug: a tick that came
// a little early after a late one was skipped, so a 60 Hz loop sent about
// 30 frames a second), and a faster loop gets MaxFPS frames a second.
func TestPublishPacedByMaxFPS(t *testing.T) {
	const fps = 60
	period := time.Second / fps
	tests := []struct {
		name       string
		tick       time.Duration
		jitter     time.Duration // alternately added and taken away
		ticks      int
		minP, maxP uint64
	}{
		{name: "60 Hz, on time", tick: period, ticks: 120, minP: 120, maxP: 120},
		{name: "60 Hz, 2 ms early and late by turns", tick: period, jitter: 2 * time.Millisecond, ticks: 120, minP: 120, maxP: 120},
		{name: "240 Hz", tick: period / 4, ticks: 480, minP: 119, maxP: 121},
		{name: "30 Hz", tick: 2 * period, ticks: 60, minP: 60, maxP: 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := view.NewHandler(view.Options{MaxFPS: fps})
			view.SetSyncEncode(h)
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			now := start
			view.SetClock(h, func() time.Time { return now })
			srv := httptest.NewServer(h)
			defer srv.Close()
			resp, s := open(t, srv.URL+"/stream")
			defer resp.Body.Close()
			go func() {
				for {
					if _, err := s.next(); err != nil {
						return
					}
				}
			}()
			w := fixedScene(t)
			for k := range tc.ticks {
				now = start.Add(time.Duration(k) * tc.tick)
				if k%2 == 1 {
					now = now.Add(tc.jitter)
				} else if k > 0 {
					now = now.Add(-tc.jitter)
				}
				h.Publish(w)
			}
			if p := h.Stats().Published; p < tc.minP || p > tc.maxP {
				t.Errorf("%d ticks published %d frames, want %d to %d", tc.ticks, p, tc.minP, tc.maxP)
			}
		})
	}
}

func TestStreamCarriesFramesAndBodies(t *testing.T) {
	h := view.NewHandler(view.Options{MaxFPS: -1, Token: "t"})
	view.SetSyncEncode(h)
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, s := open(t, srv.URL+"/debug/collide/stream?token=t")
	defer resp.Body.Close()
	w := fixedScene(t)
	h.Publish(w)
	data, err := s.next()
	if err != nil {
		t.Fatal(err)
	}
	f := decodeWire(t, data)
	if f.Seq != 1 || f.bodies != 5 {
		t.Errorf("first frame: seq %d with %d body outlines, want seq 1 with 5", f.Seq, f.bodies)
	}
	if f.layers[collide.LayerAABBs]+f.layers[collide.LayerFatAABBs] != 0 || f.layers[collide.LayerContacts] != 1 {
		t.Errorf("frame for a client without boxes: primitives by layer %v, want no boxes and one contact point", f.layers)
	}
	// A client that shows boxes gets them (and so does everyone while it
	// watches).
	resp2, s2 := open(t, srv.URL+"/debug/collide/stream?token=t&boxes=1")
	if _, err := s2.next(); err != nil { // the latest frame, sent on connecting
		t.Fatal(err)
	}
	h.Publish(w)
	data, err = s2.next()
	if err != nil {
		t.Fatal(err)
	}
	if f2 := decodeWire(t, data); f2.layers[collide.LayerAABBs] != 5 || f2.layers[collide.LayerFatAABBs] != 5 {
		t.Errorf("frame for a client with boxes: primitives by layer %v, want 5 tight and 5 fat boxes", f2.layers)
	}
	resp2.Body.Close()
	// Body 0 of that frame is the hero, with its user value.
	r, err := http.Get(srv.URL + "/debug/collide/body?seq=1&i=0&token=t")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var b map[string]any
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		t.Fatal(err)
	}
	if b["user"] != "hero" || b["kind"] != "dynamic" || b["shape"] != "circle" || b["category"] != "0x1" {
		t.Errorf("body 0 of frame 1 = %v, want the dynamic circle hero of category 0x1", b)
	}
}

func TestHandlerUnderLoad(t *testing.T) {
	// About 3 s of stepping a 2,000-body swarm on a 2-core machine; the
	// race detector slows the loop some 50 times, so it gets fewer.
	frames := 3000
	if testing.Short() || raceEnabled {
		frames = 200
	}
	var until time.Time
	if *loadFor > 0 {
		until = time.Now().Add(*loadFor)
	}
	before := runtime.NumGoroutine()
	h := view.NewHandler(view.Options{MaxClients: 10, MaxFPS: -1, ClientBuffer: 8})
	srv := httptest.NewServer(h)
	sc := scene.Swarm(2000, 1)
	w := collide.NewWorld(collide.Config{Workers: 1})
	ids, err := scene.Load(w, sc)
	if err != nil {
		t.Fatal(err)
	}
	const n = 10
	var wg sync.WaitGroup
	resps := make([]*http.Response, n)
	got := make([]int, n)
	for i := range n {
		resp, s := open(t, srv.URL+"/debug/collide/stream")
		resps[i] = resp
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last uint64
			for {
				m, err := s.next()
				if err != nil {
					return // closed by us or dropped by the server
				}
				var f wireFrame
				if json.Unmarshal(m.header, &f) != nil || f.Seq <= last {
					t.Errorf("client %d: bad frame after seq %d", i, last)
					return
				}
				last = f.Seq
				got[i]++
			}
		}()
	}
	half := false
	for k := 0; k < frames || time.Now().Before(until); k++ {
		sc.Advance()
		if err := scene.Sync(w, sc, ids); err != nil {
			t.Fatal(err)
		}
		w.Step()
		h.Publish(w)
		if !half && k >= frames/2 && (until.IsZero() || time.Until(until) < *loadFor/2) {
			half = true
			// Half the clients go away; the server must notice.
			for i := range n / 2 {
				resps[i].Body.Close()
			}
		}
	}
	waitFor(t, "the departed clients to be dropped", func() bool { return h.Stats().Clients <= n/2 })
	for i := n / 2; i < n; i++ {
		resps[i].Body.Close()
	}
	wg.Wait()
	srv.Close()
	w.Close()
	st := h.Stats()
	if st.Published == 0 {
		t.Errorf("no frame published: %+v", st)
	}
	for i, c := range got {
		if c == 0 {
			t.Errorf("client %d received no frame (%+v)", i, st)
		}
	}
	waitFor(t, "the stream goroutines to end", func() bool { return h.Stats().Clients == 0 })
	// Bounded memory: what the handler holds (the ring of frames, the
	// queues) is a few frames of this 2,000-body world, a few MiB.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > 64<<20 {
		t.Errorf("heap in use after the run: %.1f MiB, want under 64", float64(ms.HeapInuse)/(1<<20))
	}
	http.DefaultClient.CloseIdleConnections()
	waitFor(t, "the goroutine count to come back", func() bool { return runtime.NumGoroutine() <= before })
	t.Logf("%+v, frames per client %v, heap in use %.1f MiB", st, got, float64(ms.HeapInuse)/(1<<20))
}

// pointCollector is a Drawer that keeps each primitive's op (numbered as
// on the wire), points and radius, in the order drawn.
type pointCollector struct{ prims *[]wirePrim }

func (d pointCollector) add(op int, r float64, pts ...collide.Vec2) {
	p := wirePrim{op: op, r: r}
	for _, v := range pts {
		p.pts = append(p.pts, [2]float64{v.X, v.Y})
	}
	*d.prims = append(*d.prims, p)
}
func (d pointCollector) Layer(collide.Layer)                               {}
func (d pointCollector) Body(collide.BodyInfo)                             {}
func (d pointCollector) Polygon(pts []collide.Vec2, _ collide.Style)       { d.add(0, 0, pts...) }
func (d pointCollector) Circle(c collide.Vec2, r float64, _ collide.Style) { d.add(1, r, c) }
func (d pointCollector) Segment(a, b collide.Vec2, r float64, _ collide.Style) {
	d.add(2, r, a, b)
}
func (d pointCollector) Point(p collide.Vec2, _ collide.Color)          { d.add(3, 0, p) }
func (d pointCollector) Arrow(a, b collide.Vec2, _ collide.Color)       { d.add(4, 0, a, b) }
func (d pointCollector) Box(b collide.AABB, _ collide.Color)            { d.add(5, 0, b.Min, b.Max) }
func (d pointCollector) Text(p collide.Vec2, _ string, _ collide.Color) { d.add(6, 0, p) }

// TestStreamPointsMatchTheWorld decodes frames from the stream, the
// narrow primitives' points sent as int16 steps of q from their first,
// and compares every point and radius with what the world draws: each
// within q (a float32 anchor is off by far less). The swarm's bodies are
// all narrow; a floor 8,000 units long in a small world is wide.
func TestStreamPointsMatchTheWorld(t *testing.T) {
	floorWorld := func(t *testing.T) *collide.World {
		w := fixedScene(t)
		floor, _ := collide.NewAABB(4000, 0.5)
		if _, err := w.Add(collide.BodyDef{Shape: floor, Position: collide.V(3000, -30), Kind: collide.Static}); err != nil {
			t.Fatal(err)
		}
		w.Step()
		return w
	}
	swarm := func(t *testing.T) *collide.World {
		sc := scene.Swarm(10000, 1)
		w := collide.NewWorld(collide.Config{Workers: 1})
		t.Cleanup(w.Close)
		ids, err := scene.Load(w, sc)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			sc.Advance()
			if err := scene.Sync(w, sc, ids); err != nil {
				t.Fatal(err)
			}
			w.Step()
		}
		return w
	}
	tests := []struct {
		name       string
		world      func(*testing.T) *collide.World
		wantNarrow bool // every primitive narrow
	}{
		{name: "swarm 10k", world: swarm, wantNarrow: true},
		{name: "fixed scene and a long floor", world: floorWorld},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.world(t)
			h := view.NewHandler(view.Options{MaxFPS: -1})
			view.SetSyncEncode(h)
			srv := httptest.NewServer(h)
			defer srv.Close()
			resp, s := open(t, srv.URL+"/stream?boxes=1")
			defer resp.Body.Close()
			h.Publish(w)
			m, err := s.next()
			if err != nil {
				t.Fatal(err)
			}
			f := decodeWire(t, m)
			var want []wirePrim
			w.Draw(pointCollector{&want}, collide.DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true})
			if len(f.prims) != len(want) {
				t.Fatalf("the stream carries %d primitives, the world draws %d", len(f.prims), len(want))
			}
			wide := 0
			for k, p := range f.prims {
				g := want[k]
				if p.op != g.op || len(p.pts) != len(g.pts) {
					t.Fatalf("primitive %d: op %d with %d points, the world draws op %d with %d", k, p.op, len(p.pts), g.op, len(g.pts))
				}
				if math.Abs(p.r-g.r) > 1e-6*max(1, g.r) {
					t.Errorf("primitive %d: radius %v, want %v", k, p.r, g.r)
				}
				far := false
				for j, v := range p.pts {
					if e := max(math.Abs(v[0]-g.pts[j][0]), math.Abs(v[1]-g.pts[j][1])); e > f.Q {
						t.Fatalf("primitive %d point %d: %v, want %v (off by %.3g, q = %.3g)", k, j, v, g.pts[j], e, f.Q)
					}
					far = far || math.Abs(g.pts[j][0]-g.pts[0][0]) > 32767*f.Q || math.Abs(g.pts[j][1]-g.pts[0][1]) > 32767*f.Q
				}
				if far {
					wide++
				}
			}
			if tc.wantNarrow != (wide == 0) {
				t.Errorf("%d primitives wide (q = %v), want narrow %v", wide, f.Q, tc.wantNarrow)
			}
			t.Logf("%d primitives, %d wide, q = %v, %d bytes", len(f.prims), wide, f.Q, len(m.rest)+len(m.cmd)+len(m.header))
		})
	}
}
