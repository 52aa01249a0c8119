package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestCloneSharesShapesUntilWritten: a clone shares the shapes and filter
// arrays with its world, and every write to either, on either side, leaves
// the other world exactly as it was: its snapshot bytes do not change. The
// side written gives the same bytes as a world never cloned that took the
// same calls.
func TestCloneSharesShapesUntilWritten(t *testing.T) {
	circle := func(r float64) shape.Shape {
		s, err := shape.NewCircle(r)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	build := func() (*World, []BodyID) {
		w := NewWorld(Config{Workers: 1})
		rng := rand.New(rand.NewPCG(3, 4))
		var ids []BodyID
		for i := range 40 {
			id, err := w.Add(BodyDef{Shape: circle(0.5 + rng.Float64()), Position: shape.Vec2{X: rng.Float64() * 20, Y: rng.Float64() * 20}, Filter: Filter{Category: 1 << (i % 3), Mask: ^uint32(0)}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		w.Step()
		return w, ids
	}
	snap := func(w *World) []byte {
		b, err := w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	type write struct {
		name string
		do   func(w *World, ids []BodyID) error
	}
	writes := []write{
		{"add", func(w *World, _ []BodyID) error {
			_, err := w.Add(BodyDef{Shape: circle(2), Position: shape.Vec2{X: 5, Y: 5}})
			return err
		}},
		{"remove-step-add", func(w *World, ids []BodyID) error {
			if err := w.Remove(ids[3]); err != nil {
				return err
			}
			w.Step()
			// The slot is freed at the second Step (reap writes its shape),
			// and the Add reuses it.
			w.Step()
			_, err := w.Add(BodyDef{Shape: circle(3), Position: shape.Vec2{X: 1, Y: 1}})
			return err
		}},
		{"add-into-free-slot", func(w *World, _ []BodyID) error {
			_, err := w.Add(BodyDef{Shape: circle(2.5), Position: shape.Vec2{X: 2, Y: 9}, Filter: Filter{Category: 4, Mask: 4}})
			return err
		}},
		{"set-shape", func(w *World, ids []BodyID) error { return w.SetShape(ids[7], circle(4)) }},
		{"set-filter", func(w *World, ids []BodyID) error {
			return w.SetFilter(ids[9], Filter{Category: 8, Mask: 8})
		}},
		{"restore", func(w *World, _ []BodyID) error {
			other, _ := build()
			if err := other.SetShape(other.idOf(0), circle(6)); err != nil {
				return err
			}
			data := snap(other)
			// Twice: the second restore decodes into the buffers the first
			// replaced, which were the shared ones.
			if err := w.UnmarshalBinary(data); err != nil {
				return err
			}
			return w.UnmarshalBinary(data)
		}},
	}
	// A world with a free slot, for the write that fills it.
	freed := func(w *World, ids []BodyID) {
		if err := w.Remove(ids[5]); err != nil {
			t.Fatal(err)
		}
		w.Step()
		w.Step()
	}
	for _, wr := range writes {
		for _, onClone := range []bool{false, true} {
			w, ids := build()
			control, _ := build()
			if wr.name == "add-into-free-slot" {
				freed(w, ids)
				freed(control, ids)
			}
			c := w.Clone()
			if !w.b.shared || !c.b.shared || &w.b.shapes[0] != &c.b.shapes[0] || &w.b.filter[0] != &c.b.filter[0] {
				t.Fatal("the clone does not share the shapes and filter arrays")
			}
			target, other := w, c
			if onClone {
				target, other = c, w
			}
			before := snap(other)
			shapes, filter := slices.Clone(other.b.shapes), slices.Clone(other.b.filter)
			if err := wr.do(target, ids); err != nil {
				t.Fatalf("%s: %v", wr.name, err)
			}
			if err := wr.do(control, ids); err != nil {
				t.Fatalf("%s on the control: %v", wr.name, err)
			}
			target.Step()
			control.Step()
			// The snapshot's shape table is cached, so the arrays are
			// compared too.
			if !slices.Equal(other.b.shapes, shapes) || !slices.Equal(other.b.filter, filter) || !bytes.Equal(snap(other), before) {
				t.Errorf("%s on the %s changed the other world", wr.name, map[bool]string{false: "original", true: "clone"}[onClone])
			}
			if !bytes.Equal(snap(target), snap(control)) {
				t.Errorf("%s on the %s: the world differs from one never cloned", wr.name, map[bool]string{false: "original", true: "clone"}[onClone])
			}
		}
	}
}
