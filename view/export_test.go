package view

import (
	"math"
	"time"

	"github.com/collide-go/collide"
)

// SetSyncEncode makes h's Publish encode and send on the caller's
// goroutine, so that a test sees every frame.
func SetSyncEncode(h *Handler) { h.syncEncode = true }

// EncoderIdle reports whether h encodes no frame now.
func EncoderIdle(h *Handler) bool { return !h.encoding.Load() }

// SetClock makes h's Publish read the time from now.
func SetClock(h *Handler, now func() time.Time) { h.now = now }

// EncodedSize encodes f as the stream does and returns its size.
// It reuses its scratch buffers and the message's buffer from call to
// call, as the Handler does.
func EncodedSize(f *Frame) int {
	scratchMsg = scratch.encode(scratchMsg[:0], f)
	return len(scratchMsg)
}

// CopyForStream does what Publish does on the loop's goroutine for a frame
// it captures: it copies w for the encoder goroutine, into a Scene kept
// from call to call.
func CopyForStream(w *collide.World, o collide.DrawOptions) {
	w.CopyScene(&scratchScene, o)
	scratchStats = w.Stats()
}

// DrawAndEncode does what the encoder goroutine then does: it draws the
// copy into f and encodes f, and returns the message's size.
func DrawAndEncode(f *Frame) int {
	f.drawScene(&scratchScene, scratchStats)
	return EncodedSize(f)
}

var (
	scratch      encoder
	scratchMsg   []byte
	scratchScene collide.Scene
	scratchStats collide.Stats
)

// SpareMessages returns the number of message buffers on h's free list.
func SpareMessages(h *Handler) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.freeMsgs)
}

// PointBounds returns the box around every recorded point of f, each
// widened by its primitive's radius, found by a pass over them all (the
// oracle for the bounds a Frame keeps as it records), and whether f holds
// a point.
func PointBounds(f *Frame) (collide.AABB, bool) {
	lo, hi := collide.V(math.Inf(1), math.Inf(1)), collide.V(math.Inf(-1), math.Inf(-1))
	for _, p := range f.prims {
		for _, q := range f.pts[p.i : p.i+p.n] {
			lo.X, lo.Y = min(lo.X, q.X-p.r), min(lo.Y, q.Y-p.r)
			hi.X, hi.Y = max(hi.X, q.X+p.r), max(hi.Y, q.Y+p.r)
		}
	}
	return collide.AABB{Min: lo, Max: hi}, lo.X <= hi.X
}
