package view_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
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

// sse reads server-sent events from a stream.
type sse struct {
	r *bufio.Reader
}

// next returns the data of the next frame event.
func (s *sse) next() (string, error) {
	var data string
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return "", err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		case line == "" && data != "":
			return data, nil
		}
	}
}

type wireFrame struct {
	Seq    uint64    `json:"seq"`
	Origin []float64 `json:"origin"`
	Cmd    string    `json:"cmd"`
	Pts    string    `json:"pts"`
	Texts  []string  `json:"texts"`
}

// open connects a stream client and waits for the server's greeting.
func open(t *testing.T, url string) (*http.Response, *sse) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	s := &sse{r: bufio.NewReader(resp.Body)}
	if line, err := s.r.ReadString('\n'); err != nil || !strings.HasPrefix(line, ":") {
		t.Fatalf("stream greeting %q, %v", line, err)
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

// stuckWriter is a ResponseWriter whose writes after the first block until
// released: a client that stopped reading.
type stuckWriter struct {
	hdr     http.Header
	mu      sync.Mutex
	writes  int
	release chan struct{}
}

func (w *stuckWriter) Header() http.Header { return w.hdr }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) Flush()              {}
func (w *stuckWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	n := w.writes
	w.mu.Unlock()
	if n > 1 {
		<-w.release
	}
	return len(b), nil
}

func TestSlowClientIsDroppedAndPublishNeverBlocks(t *testing.T) {
	const buffer = 3
	h := view.NewHandler(view.Options{ClientBuffer: buffer, MaxFPS: -1})
	view.SetSyncEncode(h)
	w := fixedScene(t)
	sw := &stuckWriter{hdr: http.Header{}, release: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(sw, httptest.NewRequest("GET", "/debug/collide/stream", nil))
		close(done)
	}()
	waitFor(t, "the client to connect", func() bool { return h.Stats().Clients == 1 })
	// One frame is taken and stuck in Write, buffer more fill the queue,
	// the next finds it full. Every Publish returns on this goroutine.
	for range buffer + 2 {
		w.Step()
		h.Publish(w)
	}
	s := h.Stats()
	if s.Dropped != 1 || s.Clients != 0 {
		t.Errorf("after %d frames to a stuck client with a buffer of %d: Stats() = %+v, want 1 dropped, 0 clients", buffer+2, buffer, s)
	}
	if s.Published != buffer+2 {
		t.Errorf("published %d frames, want %d: Publish must not wait for a client", s.Published, buffer+2)
	}
	close(sw.release)
	<-done
	// Nobody watching: Publish captures nothing.
	h.Publish(w)
	if got := h.Stats(); got.Published != s.Published || got.Skipped != s.Skipped+1 {
		t.Errorf("Publish with nobody watching: %+v, want one more skipped and none published", got)
	}
}

// decodeWire checks a frame event's payload against its own framing: the
// commands' point counts add up to the floats sent.
func decodeWire(t *testing.T, data string) wireFrame {
	t.Helper()
	var f wireFrame
	if err := json.Unmarshal([]byte(data), &f); err != nil {
		t.Fatalf("frame event is not JSON: %v", err)
	}
	cmd, err1 := base64.StdEncoding.DecodeString(f.Cmd)
	pts, err2 := base64.StdEncoding.DecodeString(f.Pts)
	if err1 != nil || err2 != nil || len(cmd)%16 != 0 || len(pts)%4 != 0 {
		t.Fatalf("cmd %d bytes (%v), pts %d bytes (%v)", len(cmd), err1, len(pts), err2)
	}
	floats := 0
	for k := 0; k < len(cmd); k += 16 {
		w0 := uint32(cmd[k]) | uint32(cmd[k+1])<<8 | uint32(cmd[k+2])<<16 | uint32(cmd[k+3])<<24
		op, n := w0&7, int(w0>>8)
		floats += 2 * n
		if op == 1 || op == 2 {
			floats++
		}
	}
	if floats*4 != len(pts) {
		t.Fatalf("commands name %d floats, pts holds %d", floats, len(pts)/4)
	}
	return f
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
	if f.Seq != 1 {
		t.Errorf("first frame seq %d, want 1", f.Seq)
	}
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
				data, err := s.next()
				if err != nil {
					return // closed by us or dropped by the server
				}
				var f wireFrame
				if json.Unmarshal([]byte(data), &f) != nil || f.Seq <= last {
					t.Errorf("client %d: bad frame after seq %d", i, last)
					return
				}
				last = f.Seq
				got[i]++
			}
		}()
	}
	for k := range frames {
		sc.Advance()
		if err := scene.Sync(w, sc, ids); err != nil {
			t.Fatal(err)
		}
		w.Step()
		h.Publish(w)
		if k == frames/2 {
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
	http.DefaultClient.CloseIdleConnections()
	waitFor(t, "the goroutine count to come back", func() bool { return runtime.NumGoroutine() <= before })
	t.Logf("%d frames stepped, %+v, frames per client %v", frames, st, got)
}
