package view

// SetSyncEncode makes h's Publish encode and send on the caller's
// goroutine, so that a test sees every frame.
func SetSyncEncode(h *Handler) { h.syncEncode = true }
