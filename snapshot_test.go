package collide_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
)

// snapScene drives a world with a seeded stream of inputs: adds (bullets and
// sensors among them), removes, moves, teleports, filter and shape changes,
// and Steps. The same seed gives the same inputs to any world.
type snapScene struct {
	pcg    *rand.PCG
	r      *rand.Rand
	ids    []collide.BodyID
	shapes []collide.Shape
}

// clone returns a scene that will give the same inputs from here on.
func (sc *snapScene) clone(t testing.TB) *snapScene {
	state, err := sc.pcg.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(state); err != nil {
		t.Fatal(err)
	}
	return &snapScene{pcg: pcg, r: rand.New(pcg), ids: slices.Clone(sc.ids), shapes: sc.shapes}
}

func newSnapScene(t testing.TB, seed uint64) *snapScene {
	pcg := rand.NewPCG(seed, 5)
	sc := &snapScene{pcg: pcg, r: rand.New(pcg)}
	for _, mk := range []func() (collide.Shape, error){
		func() (collide.Shape, error) { return collide.NewCircle(0.6) },
		func() (collide.Shape, error) { return collide.NewOffsetCircle(collide.V(0.2, -0.1), 0.4) },
		func() (collide.Shape, error) { return collide.NewAABB(0.7, 0.3) },
		func() (collide.Shape, error) { return collide.NewOBB(0.9, 0.2) },
		func() (collide.Shape, error) {
			return collide.NewPolygon([]collide.Vec2{{X: -0.5, Y: -0.4}, {X: 0.6, Y: -0.3}, {X: 0.1, Y: 0.7}})
		},
		func() (collide.Shape, error) { return collide.NewCapsule(collide.V(-0.4, 0), collide.V(0.5, 0.1), 0.3) },
		func() (collide.Shape, error) { return collide.NewSegment(collide.V(-0.8, 0.1), collide.V(0.7, -0.2)) },
		func() (collide.Shape, error) {
			a, _ := collide.NewOBB(0.4, 0.2)
			b, _ := collide.NewCapsule(collide.V(0, -0.3), collide.V(0, 0.3), 0.2)
			return collide.NewCompound([]collide.Part{
				{Shape: a, Offset: collide.NewTransform(collide.V(-0.5, 0), 0.3)},
				{Shape: b, Offset: collide.NewTransform(collide.V(0.5, 0.1), -1)},
			})
		},
		func() (collide.Shape, error) {
			return collide.NewConcavePolygon([]collide.Vec2{{X: 0, Y: 0}, {X: 1.2, Y: 0}, {X: 1.2, Y: 0.4}, {X: 0.4, Y: 0.4}, {X: 0.4, Y: 1.2}, {X: 0, Y: 1.2}})
		},
		func() (collide.Shape, error) {
			return collide.NewChain([]collide.Vec2{{X: -1, Y: 0}, {X: -0.3, Y: 0.1}, {X: 0.3, Y: 0.1}, {X: 1, Y: -0.2}}, false)
		},
	} {
		s, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		sc.shapes = append(sc.shapes, s)
	}
	return sc
}

// frame applies one frame of inputs to w and steps it. The inputs depend
// only on the scene's random stream, and the ids on w's answers (which must
// agree between the worlds compared).
func (sc *snapScene) frame(t testing.TB, w *collide.World) {
	sc.mutate(t, w)
	w.Step()
}

// mutate applies one frame of inputs to w without stepping it.
func (sc *snapScene) mutate(t testing.TB, w *collide.World) {
	r := sc.r
	for range 3 {
		def := collide.BodyDef{Shape: sc.shapes[r.IntN(len(sc.shapes))], Position: collide.V(12*r.Float64(), 12*r.Float64()),
			Angle: 6 * r.Float64(), Kind: collide.BodyKind(r.IntN(4) / 3), Sensor: r.IntN(7) == 0, Bullet: r.IntN(5) == 0}
		if r.IntN(4) == 0 {
			def.Filter = collide.Filter{Category: 2, Mask: 3}
		}
		id, err := w.Add(def)
		if err != nil {
			t.Fatal(err)
		}
		sc.ids = append(sc.ids, id)
	}
	for i := 0; i < len(sc.ids); i++ {
		id := sc.ids[i]
		var err error
		switch r.IntN(12) {
		case 0:
			err = w.Remove(id)
			sc.ids = slices.Delete(sc.ids, i, i+1)
			i--
		case 1:
			err = w.SetTransform(id, collide.V(12*r.Float64(), 12*r.Float64()), 6*r.Float64())
		case 2:
			err = w.SetFilter(id, collide.Filter{Category: 1 + uint32(r.IntN(2)), Mask: 3})
		case 3:
			err = w.SetShape(id, sc.shapes[r.IntN(len(sc.shapes))])
		default:
			err = w.Move(id, collide.V(r.NormFloat64()*0.3, r.NormFloat64()*0.3))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// observe hashes everything a server reads from w: contacts and events bit
// for bit, a few query answers, and the state hash.
func observe(w *collide.World) uint64 {
	h := fnv.New64a()
	put := func(format string, a ...any) { fmt.Fprintf(h, format, a...) }
	contact := func(tag string, c collide.Contact) {
		m := c.Manifold
		put("%s %d %d %d %d %x %x %x %v %v %x %d", tag, c.A, c.B, c.PartA, c.PartB, math.Float64bits(m.Normal.X), math.Float64bits(m.Normal.Y), math.Float64bits(m.Depth), c.Sensor, c.Swept, math.Float64bits(c.TOI), m.Count)
		for _, p := range m.Points[:m.Count] {
			put(" %x %x %x", math.Float64bits(p.Point.X), math.Float64bits(p.Point.Y), math.Float64bits(p.Depth))
		}
		put("|")
	}
	for c := range w.Contacts() {
		contact("c", c)
	}
	for c := range w.Began() {
		contact("b", c)
	}
	for c := range w.Ended() {
		contact("e", c)
	}
	var ids []collide.BodyID
	_ = w.QueryAABB(collide.AABB{Min: collide.V(3, 3), Max: collide.V(9, 9)}, collide.Filter{}, func(id collide.BodyID) bool { ids = append(ids, id); return true })
	slices.Sort(ids)
	put("q %v|", ids)
	if hit, ok, _ := w.RayCast(collide.V(0, 6), collide.V(1, 0), 20, collide.Filter{}); ok {
		put("r %d %x|", hit.Body, math.Float64bits(hit.Distance))
	}
	_ = w.Nearest(collide.V(6, 6), 3, collide.Filter{}, func(id collide.BodyID, d float64) bool { put("n %d %x|", id, math.Float64bits(d)); return true })
	put("s %x", w.StateHash())
	return h.Sum64()
}

// TestSnapshotReplay: a world restored from frame N's bytes, or cloned at
// frame N, driven by the same inputs, observes exactly what the original
// does at every later frame, for any worker count; and every frame
// re-simulated from its own snapshot (a rollback netcode's "synctest")
// gives the same checksum.
func TestSnapshotReplay(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			orig := collide.NewWorld(collide.Config{Workers: 1})
			sc := newSnapScene(t, seed)
			for range 20 {
				sc.frame(t, orig)
			}
			data, err := orig.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			restored := collide.NewWorld(collide.Config{Workers: 3})
			if err := restored.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			again, _ := restored.MarshalBinary()
			if !bytes.Equal(again, data) {
				t.Fatalf("Marshal → Unmarshal → Marshal changed the bytes (%d → %d)", len(data), len(again))
			}
			clone := orig.Clone()
			if a, b, c := observe(orig), observe(restored), observe(clone); a != b || a != c {
				t.Fatalf("right after the snapshot: original %x, restored %x, clone %x", a, b, c)
			}
			// The same inputs to all three: each gets its own copy of the
			// scene's stream and id list.
			scR, scC := sc.clone(t), sc.clone(t)
			for f := range 30 {
				sc.frame(t, orig)
				scR.frame(t, restored)
				scC.frame(t, clone)
				if !slices.Equal(sc.ids, scR.ids) || !slices.Equal(sc.ids, scC.ids) {
					t.Fatalf("frame %d: Add handed out different ids", f)
				}
				if a, b, c := observe(orig), observe(restored), observe(clone); a != b || a != c {
					t.Fatalf("frame %d after the snapshot: original %x, restored %x, clone %x", f, a, b, c)
				}
				// Synctest: roll back one frame and simulate it again.
				snap, _ := orig.MarshalBinary()
				want := orig.StateHash()
				if err := restored.UnmarshalBinary(snap); err != nil {
					t.Fatal(err)
				}
				if got := restored.StateHash(); got != want {
					t.Fatalf("frame %d: state hash %x after a restore, %x before", f, got, want)
				}
			}
		})
	}
}

// TestSnapshotMidFrame: a snapshot taken between a frame's mutations and
// its Step (moves pending, contacts of the moved bodies stored whole)
// restores to a world that steps to exactly what the original does.
func TestSnapshotMidFrame(t *testing.T) {
	for _, seed := range []uint64{4, 5, 6} {
		orig := collide.NewWorld(collide.Config{Workers: 1})
		sc := newSnapScene(t, seed)
		restored := collide.NewWorld(collide.Config{Workers: 2})
		for f := range 25 {
			sc.mutate(t, orig)
			data, err := orig.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if err := restored.UnmarshalBinary(data); err != nil {
				t.Fatalf("seed %d frame %d: %v", seed, f, err)
			}
			if again, _ := restored.MarshalBinary(); !bytes.Equal(again, data) {
				t.Fatalf("seed %d frame %d: Marshal → Unmarshal → Marshal changed the bytes", seed, f)
			}
			if a, b := observe(orig), observe(restored); a != b {
				t.Fatalf("seed %d frame %d, before the Step: original %x, restored %x", seed, f, a, b)
			}
			orig.Step()
			restored.Step()
			if a, b := observe(orig), observe(restored); a != b {
				t.Fatalf("seed %d frame %d, after the Step: original %x, restored %x", seed, f, a, b)
			}
		}
	}
}

// TestSnapshotRollback is rollback netcode: every frame is saved; now and
// then the world goes back k frames (restored into itself, whose broad
// phase then holds boxes of a later frame) and simulates them again with
// the same inputs, and must observe at each of them what it did the first
// time.
func TestSnapshotRollback(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	sc := newSnapScene(t, 11)
	type saved struct {
		data []byte
		sc   *snapScene
		obs  uint64
	}
	var hist []saved
	for f := range 60 {
		data, err := w.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		hist = append(hist, saved{data: data, sc: sc.clone(t)})
		sc.frame(t, w)
		hist[len(hist)-1].obs = observe(w)
		if f%7 != 6 {
			continue
		}
		k := 1 + f%5
		from := len(hist) - k
		if err := w.UnmarshalBinary(hist[from].data); err != nil {
			t.Fatal(err)
		}
		sc = hist[from].sc.clone(t)
		for i := from; i < len(hist); i++ {
			if data, _ := w.AppendBinary(nil); !bytes.Equal(data, hist[i].data) {
				t.Fatalf("frame %d, rolled back %d: the state before frame %d differs from the first time", f, k, i)
			}
			sc.frame(t, w)
			if got := observe(w); got != hist[i].obs {
				t.Fatalf("frame %d, rolled back %d: frame %d observed %x, the first time %x", f, k, i, got, hist[i].obs)
			}
		}
	}
}

// TestSnapshotKeepsIDsAndRemovedBodies: stale ids stay stale, a removed
// body stays readable for its Ended contacts, and the next Add reuses the
// slot the original would.
func TestSnapshotKeepsIDsAndRemovedBodies(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball}))
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(1, 0), UserData: "b"}))
	w.Step()
	_ = w.Remove(b)
	data, _ := w.MarshalBinary()
	r := collide.NewWorld(collide.Config{Workers: 1})
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	for _, x := range []*collide.World{w, r} {
		x.Step()
		n := 0
		for c := range x.Ended() {
			if body, err := x.Body(c.Other(a)); err != nil || !body.Removed {
				t.Errorf("Body of the removed body after a restore: %+v, %v", body, err)
			}
			n++
		}
		if n != 1 {
			t.Errorf("%d Ended contacts, want 1", n)
		}
	}
	if body, _ := r.Body(a); body.UserData != nil {
		t.Errorf("a restored body's user value is %v, want nil", body.UserData)
	}
	w.Step()
	r.Step()
	idW := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball}))
	idR := must[collide.BodyID](t)(r.Add(collide.BodyDef{Shape: ball}))
	if idW != idR {
		t.Errorf("Add after a restore gave %v, the original %v", idR, idW)
	}
	if err := r.Move(b, collide.V(1, 0)); !errors.Is(err, collide.ErrUnknownBody) {
		t.Errorf("a stale id after a restore: %v", err)
	}
}

// TestSnapshotGolden pins a snapshot's bytes and state hash, so that the
// format cannot change unnoticed and bytes written on one CPU restore on
// another (CI runs this under qemu on arm64).
func TestSnapshotGolden(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	sc := newSnapScene(t, 42)
	for range 10 {
		sc.frame(t, w)
	}
	data, _ := w.MarshalBinary()
	sum := fnv.New64a()
	sum.Write(data)
	const wantBytes, wantState = 0x58d43e7cdf83c90f, 0x5fe83dd7735b244f
	if got := sum.Sum64(); got != wantBytes {
		t.Errorf("snapshot bytes hash to %#x (%d bytes), want %#x", got, len(data), uint64(wantBytes))
	}
	if got := w.StateHash(); got != wantState {
		t.Errorf("StateHash = %#x, want %#x", got, uint64(wantState))
	}
	// Restored and stepped on, it continues with the same hashes.
	r := collide.NewWorld(collide.Config{Workers: 2})
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	w.Step()
	r.Step()
	if w.StateHash() != r.StateHash() {
		t.Error("restored world diverged after a Step")
	}
}

// TestSnapshotHostileInput: truncated, bit-flipped and crafted bytes give an
// error wrapping ErrSnapshot (or a shape sentinel), never a panic, leave the
// world unchanged, and allocate no more than the input justifies.
func TestSnapshotHostileInput(t *testing.T) {
	src := collide.NewWorld(collide.Config{Workers: 1})
	sc := newSnapScene(t, 7)
	for range 8 {
		sc.frame(t, src)
	}
	data, _ := src.MarshalBinary()
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	_, _ = w.Add(collide.BodyDef{Shape: ball})
	w.Step()
	before := w.StateHash()
	check := func(name string, b []byte) {
		t.Helper()
		err := w.UnmarshalBinary(b)
		if err == nil {
			// A flip that lands in a float or an id can still be a valid
			// snapshot: then it must be fully usable.
			w.Step()
			if _, e := w.MarshalBinary(); e != nil {
				t.Fatalf("%s: accepted, then %v", name, e)
			}
			_ = w.UnmarshalBinary(nil) // leaves it as accepted
			restore := collide.NewWorld(collide.Config{Workers: 1})
			_, _ = restore.Add(collide.BodyDef{Shape: ball})
			restore.Step()
			*w = *restore
			return
		}
		if got := w.StateHash(); got != before {
			t.Fatalf("%s: failed with %v but changed the world", name, err)
		}
	}
	for n := 0; n < len(data); n++ {
		check(fmt.Sprintf("truncated to %d", n), data[:n])
	}
	r := rand.New(rand.NewPCG(9, 9))
	for i := range 3000 {
		b := slices.Clone(data)
		b[r.IntN(len(b))] ^= 1 << r.IntN(8)
		check(fmt.Sprintf("flip %d", i), b)
	}
	// Crafted: a wrong version, and counts far beyond the input.
	bad := slices.Clone(data)
	binary.LittleEndian.PutUint16(bad[4:], 99)
	if err := w.UnmarshalBinary(bad); !errors.Is(err, collide.ErrSnapshot) {
		t.Errorf("wrong version: %v", err)
	}
	for _, off := range []int{24, 28} { // the shape count, and a little past
		huge := slices.Clone(data)
		binary.LittleEndian.PutUint32(huge[off:], math.MaxUint32)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := w.UnmarshalBinary(huge)
		runtime.ReadMemStats(&m1)
		if err == nil {
			t.Errorf("count %#x at offset %d accepted", uint32(math.MaxUint32), off)
		}
		if grew := m1.TotalAlloc - m0.TotalAlloc; grew > uint64(64*len(data)) {
			t.Errorf("a crafted count made it allocate %d bytes for %d bytes of input", grew, len(data))
		}
	}
	if err := w.UnmarshalBinary([]byte("not a snapshot at all")); !errors.Is(err, collide.ErrSnapshot) {
		t.Errorf("garbage: %v", err)
	}
}

// FuzzUnmarshal: no input panics, and an accepted one leaves a world that
// steps, marshals and restores.
func FuzzUnmarshal(f *testing.F) {
	for _, seed := range []uint64{1, 7} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		sc := newSnapScene(f, seed)
		for range 3 {
			sc.frame(f, w)
		}
		data, _ := w.MarshalBinary()
		f.Add(data)
	}
	empty, _ := collide.NewWorld(collide.Config{Workers: 1}).MarshalBinary()
	f.Add(empty)
	f.Add([]byte("CLDW"))
	// A world that holds a state and has restored before: a restore into it
	// reuses its buffers, shapes, transforms and contacts where it can.
	base := collide.NewWorld(collide.Config{Workers: 1})
	sc := newSnapScene(f, 1)
	for range 4 {
		sc.frame(f, base)
	}
	baseData, _ := base.MarshalBinary()
	f.Add(baseData)
	f.Fuzz(func(t *testing.T, data []byte) {
		held := base.Clone()
		if err := held.UnmarshalBinary(baseData); err != nil {
			t.Fatal(err)
		}
		heldErr := held.UnmarshalBinary(data)
		w := collide.NewWorld(collide.Config{Workers: 1})
		if err := w.UnmarshalBinary(data); err != nil {
			if heldErr == nil {
				t.Fatalf("restored into a world that held a state, refused by a new world: %v", err)
			}
			if got, _ := held.MarshalBinary(); !bytes.Equal(got, baseData) {
				t.Fatalf("a failed restore (%v) changed the world", heldErr)
			}
			return
		}
		if heldErr != nil {
			t.Fatalf("restored into a new world, refused by one that held a state: %v", heldErr)
		}
		if a, b := observe(w), observe(held); a != b {
			t.Fatalf("restored into a new world, observed %x; into one that held a state, %x", a, b)
		}
		w.Step()
		held.Step()
		if a, b := observe(w), observe(held); a != b {
			t.Fatalf("after a Step: restored into a new world, observed %x; into one that held a state, %x", a, b)
		}
		out, err := w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := collide.NewWorld(collide.Config{Workers: 1}).UnmarshalBinary(out); err != nil {
			t.Fatalf("a world restored from accepted bytes marshals bytes it refuses: %v", err)
		}
	})
}

// TestSnapshotRollbackSwarm rolls a moving swarm back 1 to 6 frames, into
// itself, and simulates again: most bodies still fit the fat boxes of the
// later frame, so the restore keeps the broad phase and updates the rest.
// Every re-simulated frame must observe what it did the first time.
func TestSnapshotRollbackSwarm(t *testing.T) {
	sc := scene.Swarm(400, 3)
	w := collide.NewWorld(collide.Config{Workers: 1})
	ids, err := scene.Load(w, sc)
	if err != nil {
		t.Fatal(err)
	}
	step := func(sc *scene.Scene) {
		sc.Advance()
		if err := scene.Sync(w, sc, ids); err != nil {
			t.Fatal(err)
		}
		w.Step()
	}
	cloneScene := func(sc *scene.Scene) *scene.Scene {
		c := *sc
		c.Bodies = slices.Clone(sc.Bodies)
		return &c
	}
	type saved struct {
		data []byte
		sc   *scene.Scene
		obs  uint64
	}
	var hist []saved
	for f := range 48 {
		data, err := w.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		hist = append(hist, saved{data: data, sc: cloneScene(sc)})
		step(sc)
		hist[len(hist)-1].obs = observe(w)
		if f%8 != 7 {
			continue
		}
		k := 1 + f%6
		from := len(hist) - k
		if err := w.UnmarshalBinary(hist[from].data); err != nil {
			t.Fatal(err)
		}
		sc = cloneScene(hist[from].sc)
		for i := from; i < len(hist); i++ {
			step(sc)
			if got := observe(w); got != hist[i].obs {
				t.Fatalf("frame %d, rolled back %d: frame %d observed %x, the first time %x", f, k, i, got, hist[i].obs)
			}
		}
	}
}

// TestSnapshotSignedZeroShapes: shapes that differ only in the sign of a
// zero are different shapes to a snapshot (their bits differ), even next to
// each other, where the encoder reuses the slot before's entry for the same
// shape value.
func TestSnapshotSignedZeroShapes(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	pos := must[collide.Shape](t)(collide.NewOffsetCircle(collide.V(0, 0), 1))
	neg := must[collide.Shape](t)(collide.NewOffsetCircle(collide.V(math.Copysign(0, -1), 0), 1))
	if pos.Identical(neg) || !pos.Identical(pos) {
		t.Fatalf("Identical: +0 and −0 centres %v, a shape and itself %v", pos.Identical(neg), pos.Identical(pos))
	}
	for i, sh := range []collide.Shape{pos, neg, neg, pos} {
		must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: sh, Position: collide.V(float64(3*i), 0)}))
	}
	w.Step()
	data := must[[]byte](t)(w.MarshalBinary())
	r := collide.NewWorld(collide.Config{Workers: 1})
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if a, b := w.StateHash(), r.StateHash(); a != b {
		t.Fatalf("StateHash %x, restored %x", a, b)
	}
	again := must[[]byte](t)(r.MarshalBinary())
	if !bytes.Equal(again, data) {
		t.Fatal("Marshal → Unmarshal → Marshal changed the bytes")
	}
}
