package view

import "time"

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

// EncodeFresh encodes f as the handler's encoder goroutine does a frame
// just captured, bounds included (a frame caches its bounds once asked),
// and returns its size.
func EncodeFresh(f *Frame) int {
	f.inside = false
	return EncodedSize(f)
}

var (
	scratch    encoder
	scratchMsg []byte
)

// SpareMessages returns the number of message buffers on h's free list.
func SpareMessages(h *Handler) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.freeMsgs)
}
