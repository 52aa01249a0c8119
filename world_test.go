package collide_test

import (
	"testing"

	"github.com/collide-go/collide"
)

// TestRangingOverContactsAllocatesNothing checks what a server does every
// tick: range over Contacts, Began and Ended. The loop bodies capture and
// modify local state, as real ones do.
func TestRangingOverContactsAllocatesNothing(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	ball, _ := collide.NewCircle(1)
	for i := range 50 {
		if _, err := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(float64(i), 0)}); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	var n int
	var depth float64
	allocs := testing.AllocsPerRun(100, func() {
		for c := range w.Contacts() {
			n++
			depth += c.Manifold.Depth
		}
		for range w.Began() {
			n++
		}
		for range w.Ended() {
			n++
		}
	})
	if allocs != 0 {
		t.Errorf("ranging over the contact iterators allocates %.1f times, want 0", allocs)
	}
	if n == 0 || depth == 0 {
		t.Fatal("no contacts: the test measures empty loops")
	}
}
