package view_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
	"github.com/collide-go/collide/view"
)

// countingWriter is a ResponseWriter that a stream writes to and that
// keeps nothing: it counts the writes. It has the deadline and flush
// methods of a real connection, so that the handler's write path is the
// one it takes on a server.
type countingWriter struct {
	hdr    http.Header
	writes atomic.Int64
}

func (w *countingWriter) Header() http.Header              { return w.hdr }
func (w *countingWriter) WriteHeader(int)                  {}
func (w *countingWriter) Flush()                           {}
func (w *countingWriter) SetWriteDeadline(time.Time) error { return nil }
func (w *countingWriter) Write(b []byte) (int, error) {
	w.writes.Add(1)
	return len(b), nil
}

// TestPublishAllocatesNothing: in steady state a published frame costs no
// allocation from Publish to the client's write: the frame is recycled,
// the encoder keeps its scratch, the message's buffer is recycled once
// its last client has written it, and the encoder goroutine is started
// without a closure. (net/http's chunked writer, not used here, allocates
// a few bytes a write for the chunk's size.)
func TestPublishAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	sc := scene.Swarm(2000, 1)
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
	for _, mode := range []string{"sync", "async"} {
		t.Run(mode, func(t *testing.T) {
			h := view.NewHandler(view.Options{MaxFPS: -1})
			if mode == "sync" {
				view.SetSyncEncode(h)
			}
			cw := &countingWriter{hdr: http.Header{}}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				h.ServeHTTP(cw, httptest.NewRequest("GET", "/stream?boxes=1", nil).WithContext(ctx))
				close(done)
			}()
			defer func() { cancel(); <-done }()
			var want int64 = 1 // the greeting
			// publish publishes a frame and waits until the client has
			// written it.
			publish := func() {
				for cw.writes.Load() < want || !view.EncoderIdle(h) {
					runtime.Gosched()
				}
				h.Publish(w)
				want++
				for cw.writes.Load() < want {
					runtime.Gosched()
				}
			}
			for range 30 { // the ring of frames and the buffers fill up
				publish()
			}
			if got := testing.AllocsPerRun(100, publish); got != 0 {
				t.Errorf("a published frame, captured, encoded and written: %v allocations, want 0", got)
			}
			if s := h.Stats(); s.Published != 131 || s.Skipped != 0 || s.Dropped != 0 {
				t.Errorf("Stats() = %+v, want 131 published, none skipped or dropped", s)
			}
		})
	}
}

// recordingWriter is a stream client that keeps every message written to
// it. Each Write announces itself on started and waits for the test on
// release (or for none, once all is closed); it checks that the bytes it
// was handed did not change while it waited, as they would if the
// message's buffer were recycled under it.
type recordingWriter struct {
	hdr      http.Header
	started  chan struct{}
	release  chan struct{}
	all      chan struct{}
	mu       sync.Mutex
	msgs     [][]byte
	modified int
}

func (w *recordingWriter) Header() http.Header { return w.hdr }
func (w *recordingWriter) WriteHeader(int)     {}
func (w *recordingWriter) Flush()              {}
func (w *recordingWriter) Write(b []byte) (int, error) {
	at := bytes.Clone(b)
	w.started <- struct{}{}
	select {
	case <-w.release:
	case <-w.all:
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !bytes.Equal(at, b) {
		w.modified++
	}
	w.msgs = append(w.msgs, bytes.Clone(b))
	return len(b), nil
}

// TestRecycledMessagesStayIntact: message buffers are recycled, so a
// message must not be reused while a client has it queued or is writing
// it. The world gains a body a frame, so each frame's message is told
// from the others by its size and its body count; a slow client that
// holds one message for many frames, and a fast one over HTTP, must each
// get whole messages in order, each frame's own.
func TestRecycledMessagesStayIntact(t *testing.T) {
	const frames = 40
	h := view.NewHandler(view.Options{ClientBuffer: 2, MaxMissed: 1000, MaxFPS: -1})
	view.SetSyncEncode(h)
	w := fixedScene(t)
	base := w.Stats().Bodies
	small, _ := collide.NewCircle(0.2)

	// check decodes m and reports whether it is frame seq's: the header
	// and the commands both count the bodies that the world had then.
	check := func(who string, m message) uint64 {
		t.Helper()
		f := decodeWire(t, m)
		var hd struct {
			Stats struct{ Bodies int } `json:"stats"`
		}
		if err := json.Unmarshal(m.header, &hd); err != nil {
			t.Fatalf("%s: header: %v", who, err)
		}
		if want := base + int(f.Seq) - 1; hd.Stats.Bodies != want || f.bodies != want {
			t.Errorf("%s: frame %d counts %d bodies in its header and %d in its commands, want %d", who, f.Seq, hd.Stats.Bodies, f.bodies, want)
		}
		return f.Seq
	}

	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, s := open(t, srv.URL+"/stream")
	defer resp.Body.Close()
	fast := make(chan []message, 1)
	var fastGot atomic.Int32
	go func() {
		var got []message
		for {
			m, err := s.next()
			if err != nil {
				fast <- got
				return
			}
			got = append(got, m)
			fastGot.Add(1)
		}
	}()

	rw := &recordingWriter{hdr: http.Header{}, started: make(chan struct{}, 100), release: make(chan struct{}), all: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(rw, httptest.NewRequest("GET", "/stream", nil).WithContext(ctx))
		close(done)
	}()
	<-rw.started // the greeting
	rw.release <- struct{}{}
	waitFor(t, "two clients", func() bool { return h.Stats().Clients == 2 })

	publish := func() {
		// Frame k is drawn with base+k-1 bodies.
		h.Publish(w)
		if _, err := w.Add(collide.BodyDef{Shape: small, Position: collide.V(float64(10+w.Stats().Bodies), 20), Kind: collide.Static}); err != nil {
			t.Fatal(err)
		}
		w.Step()
	}
	publish()
	<-rw.started // the slow client holds frame 1 while frames go by
	for range frames / 2 {
		publish()
	}
	rw.release <- struct{}{} // frame 1 written; frames 2 and 3 were queued
	<-rw.started             // frame 2 taken, frame 3 queued
	for range frames / 2 {
		publish() // the first is queued, the others missed
	}
	close(rw.all)
	waitFor(t, "the slow client to write its queue", func() bool {
		rw.mu.Lock()
		defer rw.mu.Unlock()
		return len(rw.msgs) == 5 // the greeting and 4 frames
	})
	if n := view.SpareMessages(h); n == 0 {
		t.Error("no message buffer on the free list after 41 frames: nothing is recycled")
	}
	cancel()
	<-done
	waitFor(t, "the fast client to read a frame", func() bool { return fastGot.Load() > 0 })
	resp.Body.Close()
	srv.Close()
	waitFor(t, "the clients to go", func() bool { return h.Stats().Clients == 0 })
	if n := view.SpareMessages(h); n != 0 {
		t.Errorf("%d spare message buffers kept with nobody watching, want 0", n)
	}

	if rw.modified != 0 {
		t.Errorf("the slow client's messages changed under it %d times", rw.modified)
	}
	var slow []uint64
	for _, b := range rw.msgs[1:] {
		s := &stream{r: bufio.NewReader(bytes.NewReader(b))}
		m, err := s.next()
		if err != nil {
			t.Fatalf("slow client: %v", err)
		}
		slow = append(slow, check("slow client", m))
	}
	if want := []uint64{1, 2, 3, frames/2 + 2}; !slices.Equal(slow, want) {
		t.Errorf("the slow client got frames %v, want %v", slow, want)
	}
	var last uint64
	got := <-fast
	for _, m := range got {
		seq := check("fast client", m)
		if seq <= last {
			t.Errorf("fast client: frame %d after %d", seq, last)
		}
		last = seq
	}
	if len(got) == 0 {
		t.Error("the fast client got no frame")
	}
}
