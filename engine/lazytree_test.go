package engine

import (
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestEmptyWorldMakesNoTree: a world makes its broad phase at its first
// body. Until then every query, Step, snapshot and Clone reads it as empty;
// a world given the pool before its first body, restored from bytes or
// cloned, gets a tree with the pool's parallel hook and the pair filter,
// and finds the same contacts as one built body by body.
func TestEmptyWorldMakesNoTree(t *testing.T) {
	w := NewWorld(Config{Workers: 2})
	w.setParallelFrom(1, 1) // the pool at once, before any tree
	ball, _ := shape.NewCircle(1)
	for range 3 {
		w.Step()
	}
	if w.tree != nil {
		t.Fatal("an empty world made a broad phase")
	}
	n := 0
	count := func(BodyID) bool { n++; return true }
	_ = w.QueryAABB(shape.AABB{Min: shape.V(-9, -9), Max: shape.V(9, 9)}, Filter{}, count)
	_ = w.QueryPoint(shape.V(0, 0), Filter{}, count)
	_ = w.QueryShape(ball, shape.Transform{}, Filter{}, func(BodyID, narrowphase.Manifold) bool { n++; return true })
	if _, ok, _ := w.RayCast(shape.V(-5, 0), shape.V(1, 0), 10, Filter{}); ok {
		n++
	}
	if _, ok, _ := w.CastShape(ball, shape.Transform{}, shape.V(3, 0), Filter{}); ok {
		n++
	}
	if res, err := w.MoveAndSlide(ball, shape.Transform{}, shape.V(3, 0), Filter{}); err != nil || res.Blocked {
		t.Fatalf("MoveAndSlide in an empty world: %+v, %v", res, err)
	}
	_ = w.Nearest(shape.V(0, 0), 4, Filter{}, func(BodyID, float64) bool { n++; return true })
	if n != 0 || len(w.contacts) != 0 || w.Stats().Pairs != 0 {
		t.Fatalf("an empty world answered %d hits, %d contacts", n, len(w.contacts))
	}
	data, err := w.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := w.Clone()
	if c.tree != nil {
		t.Fatal("the clone of an empty world made a broad phase")
	}

	// Bodies, then the same world three ways: stepped as is, restored from
	// the bytes of a world that has them, and cloned.
	for i := range 6 {
		if _, err := w.Add(BodyDef{Shape: ball, Position: shape.V(float64(i)*1.5, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	if w.tree == nil || w.tree.Len() != 6 {
		t.Fatal("the first body made no broad phase")
	}
	full, _ := w.AppendBinary(nil)
	r := NewWorld(Config{Workers: 2})
	r.setParallelFrom(1, 1)
	if err := r.UnmarshalBinary(full); err != nil {
		t.Fatal(err)
	}
	k := w.Clone()
	for _, x := range []*World{w, r, k} {
		x.Step()
		if len(x.contacts) != 5 {
			t.Fatalf("%d contacts, want 5 (a row of touching circles overlapping by 0.5)", len(x.contacts))
		}
	}
	// Back to empty through the bytes of the empty world.
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	r.Step()
	if len(r.contacts) != 0 || r.tree.Len() != 0 {
		t.Fatalf("restored to empty: %d contacts, %d proxies", len(r.contacts), r.tree.Len())
	}
}
