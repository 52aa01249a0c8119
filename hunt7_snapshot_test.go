package collide_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
)

var unmarshalSeed = flag.Uint64("unmarshalseed", 0, "seed for TestFailedUnmarshalChangesNothing (0: a random one)")

// h7Events returns a world's contacts, began and ended lists.
func h7Events(w *collide.World) (cs, bg, en []collide.Contact) {
	for c := range w.Contacts() {
		cs = append(cs, c)
	}
	for c := range w.Began() {
		bg = append(bg, c)
	}
	for c := range w.Ended() {
		en = append(en, c)
	}
	return cs, bg, en
}

// TestFailedUnmarshalChangesNothing feeds worlds in the middle of play
// (bullets in flight, bodies removed and still readable, moves pending,
// user values set) truncated and bit-flipped snapshots of other worlds,
// and compares every world a failed UnmarshalBinary touched with a Clone
// taken before: the same StateHash, contacts and events, the same Body of
// every id ever issued (user value included, which StateHash leaves out),
// Len, and, driven by the same moves and Steps afterwards, the same
// contacts, events, query answers and hashes.
func TestFailedUnmarshalChangesNothing(t *testing.T) {
	seed := oracleSeed(t, *unmarshalSeed, "unmarshalseed")
	worlds, tries := 12, 300
	if testing.Short() {
		worlds, tries = 4, 120
	}
	failed := 0
	for wi := range worlds {
		r := rand.New(rand.NewPCG(seed, uint64(wi)))
		name := fmt.Sprintf("seed %d world %d", seed, wi)
		src, _ := h7PlayWorld(t, r, 1+3*r.IntN(2))
		data, err := src.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		w, ids := h7PlayWorld(t, r, 1+3*r.IntN(2))
		for i := range tries {
			b := slices.Clone(data)
			switch r.IntN(3) {
			case 0:
				b = b[:r.IntN(len(b))]
			default:
				for range 1 + r.IntN(3) {
					b[r.IntN(len(b))] ^= 1 << r.IntN(8)
				}
			}
			before := w.Clone()
			if err := w.UnmarshalBinary(b); err == nil {
				// A valid snapshot after all: start again from a fresh world.
				w, ids = h7PlayWorld(t, r, 1+3*r.IntN(2))
				continue
			}
			failed++
			what := fmt.Sprintf("%s try %d", name, i)
			h7SameWorlds(t, what, before, w, ids)
			// Driven alike, they stay alike.
			for step := range 3 {
				for range 3 {
					id := ids[r.IntN(len(ids))]
					p := collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8))
					a := r.Float64() * 6
					e1, e2 := before.SetTransform(id, p, a), w.SetTransform(id, p, a)
					if (e1 == nil) != (e2 == nil) {
						t.Fatalf("%s: SetTransform(%v) = %v on the clone, %v on the world", what, id, e1, e2)
					}
				}
				before.Step()
				w.Step()
				h7SameWorlds(t, fmt.Sprintf("%s step %d", what, step), before, w, ids)
			}
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d failed restores checked", failed)
	if failed < worlds*tries/4 {
		t.Fatalf("only %d failed restores: the test proves little", failed)
	}
}

// h7PlayWorld returns a world in the middle of play, and every id it
// issued.
func h7PlayWorld(t *testing.T, r *rand.Rand, workers int) (*collide.World, []collide.BodyID) {
	t.Helper()
	w := collide.NewWorld(collide.Config{Workers: workers})
	var ids []collide.BodyID
	for i := range 10 + r.IntN(8) {
		def := collide.BodyDef{Shape: woShape(r), Position: collide.V(woDyad(r, -6, 6), woDyad(r, -6, 6)), Angle: r.Float64() * 6,
			Filter: woFilters[r.IntN(len(woFilters))], Sensor: r.IntN(6) == 0, Bullet: i%3 == 0, UserData: fmt.Sprintf("body %d", i)}
		if !def.Bullet && r.IntN(3) == 0 {
			def.Kind = collide.Static
		}
		ids = append(ids, must[collide.BodyID](t)(w.Add(def)))
	}
	for range 2 + r.IntN(3) {
		for range 4 {
			id := ids[r.IntN(len(ids))]
			if w.Contains(id) {
				_ = w.SetTransform(id, collide.V(woDyad(r, -6, 6), woDyad(r, -6, 6)), r.Float64()*6)
			}
		}
		if r.IntN(2) == 0 {
			id := ids[r.IntN(len(ids))]
			_ = w.Remove(id)
		}
		w.Step()
	}
	// Moves and a removal pending.
	for range 3 {
		id := ids[r.IntN(len(ids))]
		_ = w.Move(id, collide.V(woDyad(r, -2, 2), woDyad(r, -2, 2)))
	}
	_ = w.Remove(ids[r.IntN(len(ids))])
	return w, ids
}

// h7SameWorlds fails unless a and b agree on everything a caller can read.
func h7SameWorlds(t *testing.T, what string, a, b *collide.World, ids []collide.BodyID) {
	t.Helper()
	if a.StateHash() != b.StateHash() {
		t.Fatalf("%s: StateHash differs", what)
	}
	ca, ba, ea := h7Events(a)
	cb, bb, eb := h7Events(b)
	if !slices.Equal(ca, cb) || !slices.Equal(ba, bb) || !slices.Equal(ea, eb) {
		t.Fatalf("%s: contacts or events differ:\n%v\n%v\n%v\n%v\n%v\n%v", what, ca, cb, ba, bb, ea, eb)
	}
	if a.Len() != b.Len() {
		t.Fatalf("%s: Len %d and %d", what, a.Len(), b.Len())
	}
	for _, id := range ids {
		x, e1 := a.Body(id)
		y, e2 := b.Body(id)
		if (e1 == nil) != (e2 == nil) || x.UserData != y.UserData || x.ID != y.ID || x.Position != y.Position || x.Angle != y.Angle ||
			x.Filter != y.Filter || x.Kind != y.Kind || x.Sensor != y.Sensor || x.Bullet != y.Bullet || x.AABB != y.AABB || x.Removed != y.Removed ||
			!x.Shape.Identical(y.Shape) {
			t.Fatalf("%s: Body(%v) = %+v, %v; before the restore %+v, %v", what, id, y, e2, x, e1)
		}
	}
	var qa, qb []collide.BodyID
	box := collide.AABB{Min: collide.V(-4, -4), Max: collide.V(4, 4)}
	_ = a.QueryAABB(box, collide.Filter{}, func(id collide.BodyID) bool { qa = append(qa, id); return true })
	_ = b.QueryAABB(box, collide.Filter{}, func(id collide.BodyID) bool { qb = append(qb, id); return true })
	ha, oka, _ := a.RayCast(collide.V(-9, 0.3), collide.V(1, 0.1), math.Inf(1), collide.Filter{})
	hb, okb, _ := b.RayCast(collide.V(-9, 0.3), collide.V(1, 0.1), math.Inf(1), collide.Filter{})
	if !slices.Equal(qa, qb) || ha != hb || oka != okb {
		t.Fatalf("%s: queries differ: %v and %v, %+v and %+v", what, qa, qb, ha, hb)
	}
}
