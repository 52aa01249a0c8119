package engine

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// poke makes the changes churn does not: a body given a new shape, or the
// same numbers built again (equal, not Identical); a body set to its own
// place; a body turned in place, sometimes to −0; a body left alone.
func (sc *scene) poke(t testing.TB) {
	r := sc.r
	for _, id := range sc.ids {
		s, err := sc.w.lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		xf, angle := sc.w.b.xf[s], sc.w.b.angle[s]
		switch r.IntN(12) {
		case 0:
			k := shape.Kind(r.IntN(int(shape.KindPolygon) + 1))
			err = sc.w.SetShape(id, randomShape(t, r, k))
		case 1:
			sh := sc.w.b.shapes[s]
			if sh.Kind() == shape.KindCircle {
				sh, err = shape.NewOffsetCircle(sh.Center(), sh.Radius())
				if err != nil {
					t.Fatal(err)
				}
			}
			err = sc.w.SetShape(id, sh)
		case 2:
			err = sc.w.SetTransform(id, xf.Pos, angle)
		case 3:
			err = sc.w.SetTransform(id, xf.Pos, uni(r, 0, 7))
		case 4:
			if angle == 0 {
				angle = math.Copysign(0, -math.Copysign(1, angle))
			} else {
				angle = 0
			}
			err = sc.w.SetTransform(id, xf.Pos, angle)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkBodies checks what a restore that reuses the world's transforms and
// boxes relies on: every body's transform is NewTransform of its position
// and angle, and its box is its shape's box there, bit for bit.
func checkBodies(t testing.TB, w *World) {
	t.Helper()
	b := &w.b
	for s := range b.hot {
		if b.hot[s].flags&(flagAlive|flagRemoved) == 0 {
			continue
		}
		xf := shape.NewTransform(b.xf[s].Pos, b.angle[s])
		if !sameXf(xf, b.xf[s]) {
			t.Fatalf("slot %d: transform %v, NewTransform(%v, %v) = %v", s, b.xf[s], b.xf[s].Pos, b.angle[s], xf)
		}
		if box := b.shapes[s].WorldAABB(xf); b.tight[s] != round32(box) {
			t.Fatalf("slot %d: box %v, the shape's box there %v rounded out %v", s, b.tight[s], box, round32(box))
		}
	}
	if !b.cats.on {
		return
	}
	listed := 0
	for s := range int32(len(b.hot)) {
		if b.hot[s].flags&flagAlive == 0 {
			continue
		}
		listed++
		if l := *b.cats.list(b.filter[s].cat); int(b.cats.pos[s]) >= len(l) || l[b.cats.pos[s]] != s {
			t.Fatalf("slot %d: not at its place %d in the category index", s, b.cats.pos[s])
		}
	}
	if n := b.cats.count(math.MaxUint32); n != listed {
		t.Fatalf("category index lists %d bodies, want %d", n, listed)
	}
}

// keepCats makes w keep its category index, as a Nearest with a
// selective filter does, so that restores exercise it.
func keepCats(w *World) *World {
	w.b.cats.build(&w.b)
	w.syncCatState()
	return w
}

func bitsEq(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

func sameVec(a, b shape.Vec2) bool { return bitsEq(a.X, b.X) && bitsEq(a.Y, b.Y) }

func sameXf(a, b shape.Transform) bool {
	return sameVec(a.Pos, b.Pos) && bitsEq(a.Rot.CosMinusOne(), b.Rot.CosMinusOne()) && bitsEq(a.Rot.Sin(), b.Rot.Sin())
}

func sameManifold(a, b narrowphase.Manifold) bool {
	if !sameVec(a.Normal, b.Normal) || !bitsEq(a.Depth, b.Depth) || a.Count != b.Count {
		return false
	}
	for i := range a.Points {
		if !sameVec(a.Points[i].Point, b.Points[i].Point) || !bitsEq(a.Points[i].Depth, b.Points[i].Depth) {
			return false
		}
	}
	return true
}

// sameRestore reports how got, restored into a world that held some state,
// differs from want, restored into a new world: bodies, transforms, boxes,
// shapes, contacts and events, bit for bit.
func sameRestore(want, got *World) error {
	wb, gb := &want.b, &got.b
	if len(wb.hot) != len(gb.hot) || wb.count != gb.count {
		return fmt.Errorf("%d slots, %d bodies; want %d, %d", len(gb.hot), gb.count, len(wb.hot), wb.count)
	}
	for s := range wb.hot {
		wh, gh := wb.hot[s], gb.hot[s]
		if wh.gen != gh.gen || wh.flags != gh.flags || wb.tight[s] != gb.tight[s] ||
			!sameXf(wb.xf[s], gb.xf[s]) || !bitsEq(wb.angle[s], gb.angle[s]) ||
			!bytes.Equal(appendShape(nil, wb.shapes[s]), appendShape(nil, gb.shapes[s])) || wb.filter[s] != gb.filter[s] || wb.cats.on != gb.cats.on || wb.cats.on && wb.cats.pos[s] != gb.cats.pos[s] {
			return fmt.Errorf("slot %d: %+v %v %v, want %+v %v %v", s, gh, gb.xf[s], gb.shapes[s], wh, wb.xf[s], wb.shapes[s])
		}
	}
	for _, l := range [][2][]contact{{want.contacts, got.contacts}, {want.ended, got.ended}} {
		if len(l[0]) != len(l[1]) {
			return fmt.Errorf("%d contacts, want %d", len(l[1]), len(l[0]))
		}
		for i := range l[0] {
			wc, gc := l[0][i].export(), l[1][i].export()
			if wc.A != gc.A || wc.B != gc.B || wc.PartA != gc.PartA || wc.PartB != gc.PartB || wc.Sensor != gc.Sensor ||
				wc.Swept != gc.Swept || !bitsEq(wc.TOI, gc.TOI) || !sameManifold(wc.Manifold, gc.Manifold) {
				return fmt.Errorf("contact %d: %+v, want %+v", i, gc, wc)
			}
		}
	}
	if fmt.Sprint(want.began, wb.free, wb.dying, wb.dead, wb.moved) != fmt.Sprint(got.began, gb.free, gb.dying, gb.dead, gb.moved) {
		return fmt.Errorf("events or slot lists differ")
	}
	return nil
}

// TestRestoreReuseMatchesFresh: a restore takes transforms, boxes and
// manifolds from the world it restores into where the bodies are bit for
// bit the same. Into the world itself (the same frame), into worlds a few
// frames behind or ahead, into one that restored garbage first, and into
// an unrelated world, it must give bit for bit what a restore into a new
// world gives, and step on identically.
func TestRestoreReuseMatchesFresh(t *testing.T) {
	seed := testSeed(t, 1)
	sc := newSceneKinds(t, seed, 120, Config{Workers: 1}, true)
	keepCats(sc.w)
	other := keepCats(newScene(t, seed+1, 80, Config{Workers: 1}).w)
	r := rand.New(rand.NewPCG(seed, 3))
	var hist [][]byte
	for f := range 40 {
		sc.churn(t, true)
		sc.poke(t)
		if r.IntN(3) > 0 {
			sc.w.Step()
		}
		checkBodies(t, sc.w)
		data, err := sc.w.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		hist = append(hist, data)
		i := len(hist) - 1
		fresh := keepCats(NewWorld(Config{Workers: 1}))
		if err := fresh.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		checkBodies(t, fresh)
		targets := map[string]*World{"clone": keepCats(sc.w.Clone()), "other": keepCats(other.Clone())}
		for _, k := range []int{1, 3} {
			if i >= k {
				w := keepCats(NewWorld(Config{Workers: 1}))
				if err := w.UnmarshalBinary(hist[i-k]); err != nil {
					t.Fatal(err)
				}
				if w.UnmarshalBinary(data[:len(data)/2]) == nil {
					t.Fatal("half a snapshot restored")
				}
				targets[fmt.Sprintf("%d behind", k)] = w
			}
		}
		for name, w := range targets {
			if err := w.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if err := sameRestore(fresh, w); err != nil {
				t.Fatalf("seed %d frame %d, into %s: %v", seed, f, name, err)
			}
			if name == "clone" {
				// A restore into itself.
				if err := sc.w.UnmarshalBinary(data); err != nil {
					t.Fatal(err)
				}
				if err := sameRestore(fresh, sc.w); err != nil {
					t.Fatalf("seed %d frame %d, into itself: %v", seed, f, err)
				}
			}
			w.Step()
			fresh2 := keepCats(NewWorld(Config{Workers: 1}))
			if err := fresh2.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			fresh2.Step()
			if err := sameRestore(fresh2, w); err != nil {
				t.Fatalf("seed %d frame %d, into %s, after a Step: %v", seed, f, name, err)
			}
		}
		// The restored world goes on as the scene's world; rolling back now
		// and then to a frame before exercises restores into a world ahead.
		if f%7 == 6 && i >= 4 {
			if err := sc.w.UnmarshalBinary(hist[i-4]); err != nil {
				t.Fatal(err)
			}
			checkBodies(t, sc.w)
			hist = hist[:i-3]
			// The scene's ids of bodies added since are stale now: take
			// the live ids from the world.
			sc.ids = sc.ids[:0]
			for s := range sc.w.b.hot {
				if sc.w.b.hot[s].flags&flagAlive != 0 {
					sc.ids = append(sc.ids, makeID(int32(s), sc.w.b.hot[s].gen))
				}
			}
		}
	}
}
