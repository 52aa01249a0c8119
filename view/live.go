package view

import (
	"crypto/subtle"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"path"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/collide-go/collide"
)

//go:embed live.html
var livePage []byte

// Options configure a Handler. The zero Options are safe defaults: no
// token (mount the handler on an internal port only), 4 stream clients,
// 2 frames of buffer each, 60 frames a second, a client dropped after 120
// frames in a row it had no room for.
type Options struct {
	// Token, when set, must come with every request, as the header
	// X-Collide-Token or the query parameter token (the page passes on the
	// one in its own address). It is compared in constant time.
	Token string
	// MaxClients bounds the stream clients at once; more are refused with
	// 503. 0 means 4.
	MaxClients int
	// ClientBuffer is the number of frames queued for one client. A frame
	// published while a client's queue is full is not sent to that client
	// (a browser that paints slower than the server publishes gets every
	// few frames, the newest once it has room). 0 means 2.
	ClientBuffer int
	// MaxMissed drops a client that had no room for this many published
	// frames in a row: it is stuck, or far too slow. 0 means 120 (two
	// seconds at 60 frames a second).
	MaxMissed int
	// MaxFPS bounds the frames captured a second; Publish returns at once
	// for the others. 0 means 60; a negative value captures every Publish.
	MaxFPS int
	// WriteTimeout bounds one write to a client; a client that takes
	// longer is dropped. 0 means 5 seconds.
	WriteTimeout time.Duration
	// Draw chooses what is captured; the page toggles the layers. The zero
	// value means bodies, contacts, MTVs, tight and fat boxes. Boxes are
	// captured only while a client shows them.
	Draw collide.DrawOptions
}

// HandlerStats counts what a Handler did.
type HandlerStats struct {
	Clients   int    // stream clients connected now
	Published uint64 // frames captured and sent
	Skipped   uint64 // Publish calls that captured nothing: nobody watching, above MaxFPS, or the encoder busy
	Dropped   uint64 // clients dropped: no room for MaxMissed frames in a row, or a write that failed or timed out
	Refused   uint64 // stream requests refused: over MaxClients, or a wrong or missing token
}

// ringSize is the number of recent frames kept for the page's hover
// requests (a paused page asks about the frame it shows).
const ringSize = 8

// Handler serves the live view: the page at its root, the stream of frames
// at stream (length-prefixed binary messages, read by the page with fetch)
// and body details at body. Mount it next
// to pprof:
//
//	mux.Handle("/debug/collide/", h)
//
// and call Publish from the game loop after each Step.
type Handler struct {
	o      Options
	period time.Duration

	// The loop's goroutine only.
	next time.Time // when the next capture is due, with MaxFPS
	// now is time.Now, or a test's clock.
	now func() time.Time
	seq uint64
	// syncEncode makes Publish encode and send on the caller's goroutine,
	// for tests that need every frame.
	syncEncode bool

	encoding atomic.Bool
	nclients atomic.Int32
	// boxes counts the clients that asked for the tight and fat boxes
	// (stream?boxes=1): they double a frame, so they are captured only
	// while someone looks at them.
	boxes   atomic.Int32
	skipped atomic.Uint64
	// The encoder and its scratch: one encoder runs at a time (encoding).
	enc encoder
	// scene is the copy of the world Publish hands to the encoder
	// goroutine, with its number and the world's stats; the goroutine
	// runs sendFn (h.sendScene, made once: a go statement with arguments
	// would allocate a closure a frame) and draws it into a frame.
	scene      collide.Scene
	sceneSeq   uint64
	sceneStats collide.Stats
	sendFn     func()

	mu       sync.Mutex
	clients  map[*client]struct{}
	ring     [ringSize]*Frame // recent frames by Seq % ringSize
	free     []*Frame
	latest   *message // the last message, for a client that connects
	freeMsgs []*message
	stats    HandlerStats
}

type client struct {
	ch     chan *message
	gone   chan struct{} // closed when the client is dropped
	missed int           // frames in a row it had no room for; guarded by Handler.mu
}

// message is one encoded frame, shared by every client it is queued for.
// Its buffer is recycled (Handler.freeMsgs) once the last holder lets go:
// h.latest holds one reference, each client queue it is in holds one, and
// a client keeps that one while it writes the message. A 10k-body frame is
// some 340 KB; a new buffer a frame was the bulk of the garbage that made
// GC cycles run beside the loop.
type message struct {
	b    []byte
	refs atomic.Int32
}

// NewHandler returns a live-view handler with options o.
func NewHandler(o Options) *Handler {
	if o.MaxClients <= 0 {
		o.MaxClients = 4
	}
	if o.ClientBuffer <= 0 {
		o.ClientBuffer = 2
	}
	if o.MaxMissed <= 0 {
		o.MaxMissed = 120
	}
	if o.MaxFPS == 0 {
		o.MaxFPS = 60
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 5 * time.Second
	}
	if o.Draw == (collide.DrawOptions{}) {
		o.Draw = collide.DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true}
	}
	h := &Handler{o: o, clients: make(map[*client]struct{}), now: time.Now}
	h.sendFn = h.sendScene
	if o.MaxFPS > 0 {
		h.period = time.Second / time.Duration(o.MaxFPS)
	}
	return h
}

// Publish offers the world's current frame to the clients. Call it from
// the goroutine that owns w, after Step. It never blocks on a client: with
// nobody watching it returns after an atomic load (and counts the skip);
// otherwise, at most
// MaxFPS times a second, it copies what the drawing reads of the world
// (World.CopyScene: the bodies' state, the contacts; a plain copy) and
// hands it to a goroutine that draws it into a recycled Frame, encodes
// it and queues it for each client that has room (see ClientBuffer and
// MaxMissed). A frame
// offered while the previous one is still being encoded is skipped.
// Frames and encoded messages are recycled: once they have grown to the
// world's size, a published frame allocates nothing here, on the loop's
// goroutine or off it (net/http's chunked encoding allocates a few bytes
// a write), so the view makes next to no garbage for the GC to collect.
func (h *Handler) Publish(w *collide.World) {
	if h.nclients.Load() == 0 {
		h.skip()
		return
	}
	if h.period > 0 {
		now := h.now()
		// Captures keep to a grid of one a period, and one up to a quarter
		// period early is taken: a loop ticking at MaxFPS, whose ticks
		// come a little early as often as late, gets every tick captured,
		// not every other one, and no loop gets more than MaxFPS a second.
		// A loop that paused catches up by one frame, not a burst.
		if now.Before(h.next.Add(-h.period / 4)) {
			h.skip()
			return
		}
		h.next = h.next.Add(h.period)
		if h.next.Before(now) {
			h.next = now
		}
	}
	if !h.encoding.CompareAndSwap(false, true) {
		h.skip()
		return
	}
	o := h.o.Draw
	if h.boxes.Load() == 0 {
		o.AABBs, o.FatAABBs = false, false
	}
	// On the loop, a plain copy of what the drawing reads; the encoder
	// draws it into a frame.
	w.CopyScene(&h.scene, o)
	h.seq++
	h.sceneSeq, h.sceneStats = h.seq, w.Stats()
	if h.syncEncode {
		h.sendScene()
		return
	}
	// The go statement orders these writes before the goroutine's reads,
	// and the next writes wait for encoding, cleared after those reads.
	go h.sendFn()
}

// sendScene draws h.scene into a recycled frame and sends it; it runs on
// the encoder goroutine (on the loop's with syncEncode).
func (h *Handler) sendScene() {
	f := h.takeFrame()
	f.drawScene(&h.scene, h.sceneStats)
	f.Seq = h.sceneSeq
	h.send(f)
}

func (h *Handler) skip() { h.skipped.Add(1) }

// Stats returns the handler's counters.
func (h *Handler) Stats() HandlerStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.stats
	s.Clients = len(h.clients)
	s.Skipped = h.skipped.Load()
	return s
}

func (h *Handler) takeFrame() *Frame {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.free); n > 0 {
		f := h.free[n-1]
		h.free = h.free[:n-1]
		return f
	}
	return new(Frame)
}

// send encodes f into a recycled message, keeps f in the ring for hover
// requests and queues the message for every client.
func (h *Handler) send(f *Frame) {
	h.mu.Lock()
	m := h.takeMessageLocked()
	h.mu.Unlock()
	m.b = h.enc.encode(m.b[:0], f)
	m.refs.Store(1) // h.latest's
	h.mu.Lock()
	k := f.Seq % ringSize
	if old := h.ring[k]; old != nil {
		h.free = append(h.free, old)
	}
	h.ring[k] = f
	old := h.latest
	h.latest = m
	h.stats.Published++
	for c := range h.clients {
		// The reference is taken before the client can see m: it may
		// write and release it at once.
		m.refs.Add(1)
		select {
		case c.ch <- m:
			c.missed = 0
		default:
			m.refs.Add(-1) // h.latest still holds m
			if c.missed++; c.missed > h.o.MaxMissed {
				h.dropLocked(c)
			}
		}
	}
	if old != nil {
		h.releaseLocked(old)
	}
	h.mu.Unlock()
	h.encoding.Store(false)
}

// takeMessageLocked returns a message to encode into, recycled if one is
// free; h.mu is held. The free list holds at most the messages that were
// in use at once: the latest, those queued (ClientBuffer a client) and
// those being written, one a client. It is emptied when the last client
// goes.
func (h *Handler) takeMessageLocked() *message {
	if n := len(h.freeMsgs); n > 0 {
		m := h.freeMsgs[n-1]
		h.freeMsgs[n-1] = nil
		h.freeMsgs = h.freeMsgs[:n-1]
		return m
	}
	return new(message)
}

// release drops a reference to m, recycling m with the last.
func (h *Handler) release(m *message) {
	if m.refs.Add(-1) == 0 {
		h.mu.Lock()
		h.freeMsgs = append(h.freeMsgs, m)
		h.mu.Unlock()
	}
}

// releaseLocked is release with h.mu held.
func (h *Handler) releaseLocked(m *message) {
	if m.refs.Add(-1) == 0 {
		h.freeMsgs = append(h.freeMsgs, m)
	}
}

// dropLocked removes c; h.mu is held.
func (h *Handler) dropLocked(c *client) {
	if _, ok := h.clients[c]; !ok {
		return
	}
	delete(h.clients, c)
	h.nclients.Add(-1)
	close(c.gone)
	h.stats.Dropped++
}

// authorized reports whether r carries the token, compared in constant
// time so that the time taken tells nothing about it.
func (h *Handler) authorized(r *http.Request) bool {
	if h.o.Token == "" {
		return true
	}
	got := r.Header.Get("X-Collide-Token")
	if got == "" {
		got = r.URL.Query().Get("token")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(h.o.Token)) == 1
}

// ServeHTTP serves the page, the stream and body details.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.authorized(r) {
		h.mu.Lock()
		h.stats.Refused++
		h.mu.Unlock()
		http.Error(w, "collide view: missing or wrong token", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "collide view: GET only", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	switch path.Base(r.URL.Path) {
	case "stream":
		h.serveStream(w, r)
	case "body":
		h.serveBody(w, r)
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
		_, _ = w.Write(livePage)
	}
}

func (h *Handler) serveStream(w http.ResponseWriter, r *http.Request) {
	c := &client{ch: make(chan *message, h.o.ClientBuffer), gone: make(chan struct{})}
	h.mu.Lock()
	if len(h.clients) >= h.o.MaxClients {
		h.stats.Refused++
		h.mu.Unlock()
		http.Error(w, "collide view: too many viewers", http.StatusServiceUnavailable)
		return
	}
	h.clients[c] = struct{}{}
	h.nclients.Add(1)
	first := h.latest
	if first != nil {
		first.refs.Add(1)
	}
	h.mu.Unlock()
	if r.URL.Query().Get("boxes") == "1" {
		h.boxes.Add(1)
		defer h.boxes.Add(-1)
	}
	defer func() {
		h.mu.Lock()
		if _, ok := h.clients[c]; ok {
			delete(h.clients, c)
			h.nclients.Add(-1)
		}
		// Out of h.clients, c gets no more messages (send queues under
		// h.mu) and this goroutine is its only reader: the ones left in
		// its queue are released.
		for len(c.ch) > 0 {
			h.releaseLocked(<-c.ch)
		}
		if len(h.clients) == 0 {
			// Nobody watches: the spare buffers go back to the GC.
			clear(h.freeMsgs)
			h.freeMsgs = h.freeMsgs[:0]
		}
		h.mu.Unlock()
	}()

	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(h.o.WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write(greeting) {
		if first != nil {
			h.release(first)
		}
		h.drop(c)
		return
	}
	if first != nil {
		ok := write(first.b)
		h.release(first)
		if !ok {
			h.drop(c)
			return
		}
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-c.gone:
			return
		case m := <-c.ch:
			ok := write(m.b)
			h.release(m)
			if !ok {
				h.drop(c)
				return
			}
		}
	}
}

// greeting opens every stream: an empty message, which tells the client
// that the stream is open before the first frame.
var greeting = []byte{0, 0, 0, 0}

func (h *Handler) drop(c *client) {
	h.mu.Lock()
	h.dropLocked(c)
	h.mu.Unlock()
}

// serveBody answers body?seq=N&i=K with the details of the K-th body drawn
// in frame N, if that frame is among the last few.
func (h *Handler) serveBody(w http.ResponseWriter, r *http.Request) {
	seq, err1 := strconv.ParseUint(r.URL.Query().Get("seq"), 10, 64)
	i, err2 := strconv.Atoi(r.URL.Query().Get("i"))
	if err1 != nil || err2 != nil {
		http.Error(w, "collide view: want seq and i", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	f := h.ring[seq%ringSize]
	var b BodyMeta
	ok := f != nil && f.Seq == seq && i >= 0 && i < len(f.bodies)
	if ok {
		b = f.bodies[i]
	}
	h.mu.Unlock()
	if !ok {
		http.Error(w, "collide view: frame gone or no such body", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	buf := []byte(`{"id":"`)
	buf = strconv.AppendUint(buf, uint64(b.ID), 10)
	buf = append(buf, `","slot":`...)
	buf = strconv.AppendUint(buf, uint64(uint32(b.ID)), 10)
	buf = append(buf, `,"kind":"`...)
	buf = append(buf, b.Kind.String()...)
	buf = append(buf, `","shape":"`...)
	buf = append(buf, b.Shape...)
	buf = append(buf, `","sensor":`...)
	buf = strconv.AppendBool(buf, b.Sensor)
	buf = append(buf, `,"bullet":`...)
	buf = strconv.AppendBool(buf, b.Bullet)
	buf = append(buf, `,"category":"`...)
	buf = fmt.Appendf(buf, "%#x", b.Filter.Category)
	buf = append(buf, `","mask":"`...)
	buf = fmt.Appendf(buf, "%#x", b.Filter.Mask)
	buf = append(buf, `","user":`...)
	if b.User == nil {
		buf = append(buf, "null"...)
	} else {
		buf = strconv.AppendQuote(buf, fmt.Sprint(b.User))
	}
	buf = append(buf, "}\n"...)
	_, _ = w.Write(buf)
}

// wireBits is the number of bits below a frame's extent that its quantum
// keeps: a point is sent as a multiple of 2^-wireBits of the frame's size
// (rounded up to a power of two), 1/1,000,000 of it, so a point is off by
// at most a millionth of the frame, a thousandth of a pixel fitted to a
// 1280-pixel screen.
const wireBits = 20

// encoder encodes frames as messages of the stream; it keeps its scratch
// buffers from frame to frame.
type encoder struct {
	cmd, anchors, radii, wide, deltas []byte
	styles                            []uint64
	texts                             []string
}

// encode appends f to dst as one message of the stream, all numbers
// little-endian, and returns it:
//
//	uint32   the length of the rest of the message
//	uint32   the length of the header
//	header   JSON: {"seq":…,"origin":[x,y],"q":…,"bounds":[…],"stats":{…},"styles":[[fill,stroke],…],"texts":[…]}
//	0-3      zero bytes, so that what follows starts at a multiple of 4 from the message's start
//	uint32   the number of commands
//	cmd      one uint32 a primitive
//	anchors  two float32s a primitive: its first point, relative to origin
//	radii    one float32 for each circle and segment: its radius
//	wide     float32 pairs: the other points of the wide primitives, relative to origin
//	deltas   int16 pairs, to the end of the message: the other points of
//	         the other primitives, relative to their first, in units of q
//
// A command is: op (3 bits), layer (3 bits) << 3, 1 << 6 if it is the
// outline of the next body (the bodies are numbered in order), its style's
// index in styles (9 bits) << 7, its point count (15 bits) << 16, and
// 1 << 31 if it is wide: a primitive is wide when one of its points is
// more than 32767·q from its first. q is a power of two, about a
// millionth of the frame's size (see wireBits): the 10k swarm's bodies
// are all narrow, so most points take 4 bytes, not 8. Colours are
// 0xRRGGBBAA; the k-th text primitive is texts[k]. A frame with more than
// 512 styles shows the rest in the last one; a primitive of more than
// 32767 points is left out. Raw bytes, not base64 in JSON: the page views
// the commands in place and expands the points once, when it paints the
// frame. Every section's length is a multiple of 4 bytes, so the next
// message starts aligned too.
func (e *encoder) encode(dst []byte, f *Frame) []byte {
	b := f.Bounds()
	origin, size := b.Min, max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
	if !f.inside {
		origin, size = collide.Vec2{}, 1
	}
	_, exp := math.Frexp(size)
	q := math.Ldexp(1, exp-wireBits)
	inv := 1 / q // exact: q is a power of two
	cmd := slices.Grow(e.cmd[:0], 4*len(f.prims))
	anchors := slices.Grow(e.anchors[:0], 8*len(f.prims))
	deltas := slices.Grow(e.deltas[:0], 4*len(f.pts))
	radii, wide := e.radii[:0], e.wide[:0]
	// styles holds each style as its fill and stroke colours in one
	// number (fill << 32 | stroke), which compares in one instruction.
	styles := e.styles[:0]
	last := -1
	texts := e.texts[:0]
	f32 := func(b []byte, x float64) []byte {
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
	}
	for i := range f.prims {
		p := &f.prims[i]
		if p.n > 0x7fff {
			continue
		}
		// Frames hold a handful of styles: a linear search with the last
		// hit first is faster than a map.
		key := uint64(rgba(p.st.Fill))<<32 | uint64(rgba(p.st.Stroke))
		si := last
		if si < 0 || styles[si] != key {
			si = -1
			for k, st := range styles {
				if st == key {
					si = k
					break
				}
			}
			if si < 0 {
				if len(styles) < 512 {
					styles = append(styles, key)
				}
				si = len(styles) - 1
			}
			last = si
		}
		pts := f.pts[p.i : p.i+p.n]
		first := origin // the anchor of a primitive without points
		if len(pts) > 0 {
			first = pts[0]
		}
		w0 := uint32(p.op) | uint32(p.layer&7)<<3 | uint32(si)<<7 | uint32(p.n)<<16
		if p.body >= 0 {
			w0 |= 1 << 6
		}
		// The other points as deltas; if one is too far from the first,
		// they are taken back and the primitive is sent wide.
		mark := len(deltas)
		for _, v := range pts[min(1, len(pts)):] {
			dx, dy := float64((v.X-first.X)*inv), float64((v.Y-first.Y)*inv)
			if !(dx >= -32767 && dx <= 32767 && dy >= -32767 && dy <= 32767) {
				w0 |= 1 << 31
				break
			}
			// Rounded half away from zero: adding ±½ and truncating is
			// math.Round for these magnitudes, at a fraction of its cost.
			ix, iy := int16(dx+math.Copysign(0.5, dx)), int16(dy+math.Copysign(0.5, dy))
			deltas = binary.LittleEndian.AppendUint32(deltas, uint32(uint16(ix))|uint32(uint16(iy))<<16)
		}
		if w0&(1<<31) != 0 {
			deltas = deltas[:mark]
			for _, v := range pts[1:] {
				wide = f32(wide, v.X-origin.X)
				wide = f32(wide, v.Y-origin.Y)
			}
		}
		if p.op == opText {
			texts = append(texts, f.texts[p.text])
		}
		cmd = binary.LittleEndian.AppendUint32(cmd, w0)
		anchors = f32(anchors, first.X-origin.X)
		anchors = f32(anchors, first.Y-origin.Y)
		if p.op == opCircle || p.op == opSegment {
			radii = f32(radii, p.r)
		}
	}
	e.cmd, e.anchors, e.radii, e.wide, e.deltas, e.styles = cmd, anchors, radii, wide, deltas, styles
	body := len(cmd) + len(anchors) + len(radii) + len(wide) + len(deltas)
	dst = slices.Grow(dst, 1024+12+body+16*len(f.texts))
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0) // the lengths, set below
	st := f.Stats
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, f.Seq, 10)
	dst = append(dst, `,"origin":[`...)
	dst = appendFloats(dst, origin.X, origin.Y)
	dst = append(dst, `],"q":`...)
	dst = appendFloats(dst, q)
	dst = append(dst, `,"bounds":[`...)
	dst = appendFloats(dst, b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)
	dst = append(dst, `],"stats":{"bodies":`...)
	dst = strconv.AppendInt(dst, int64(st.Bodies), 10)
	dst = append(dst, `,"contacts":`...)
	dst = strconv.AppendInt(dst, int64(st.Contacts), 10)
	dst = append(dst, `,"pairs":`...)
	dst = strconv.AppendInt(dst, int64(st.Pairs), 10)
	dst = append(dst, `,"updateNs":`...)
	dst = strconv.AppendInt(dst, st.UpdateNs, 10)
	dst = append(dst, `,"pairsNs":`...)
	dst = strconv.AppendInt(dst, st.PairsNs, 10)
	dst = append(dst, `,"narrowNs":`...)
	dst = strconv.AppendInt(dst, st.NarrowNs, 10)
	dst = append(dst, `,"eventsNs":`...)
	dst = strconv.AppendInt(dst, st.EventsNs, 10)
	dst = append(dst, `},"styles":[`...)
	for i, st := range styles {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = strconv.AppendUint(dst, st>>32, 10)
		dst = append(dst, ',')
		dst = strconv.AppendUint(dst, st&0xffffffff, 10)
		dst = append(dst, ']')
	}
	dst = append(dst, `],"texts":[`...)
	for i, s := range texts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendQuoteToASCII(dst, s)
	}
	dst = append(dst, "]}"...)
	clear(texts) // keeps no frame's string alive
	e.texts = texts[:0]
	binary.LittleEndian.PutUint32(dst[start+4:], uint32(len(dst)-start-8))
	for (len(dst)-start)%4 != 0 {
		dst = append(dst, 0)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(cmd)/4))
	for _, b := range [...][]byte{cmd, anchors, radii, wide, deltas} {
		dst = append(dst, b...)
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

func rgba(c collide.Color) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

func appendFloats(dst []byte, v ...float64) []byte {
	for i, x := range v {
		if i > 0 {
			dst = append(dst, ',')
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			x = 0
		}
		dst = strconv.AppendFloat(dst, x, 'g', -1, 64)
	}
	return dst
}
