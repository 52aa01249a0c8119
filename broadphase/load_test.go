package broadphase

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestLoadMatchesInserts: Load gives the tree that Insert and InsertStatic
// in id order give (fat boxes, flags, moved list, counters, pairs, the
// filter's calls, query answers, and the same again after some frames of
// motion), tiled or not, with dead ids, static proxies and big boxes among
// them, and the tree's invariants hold.
func TestLoadMatchesInserts(t *testing.T) {
	for _, small := range []bool{false, true} {
		t.Run(fmt.Sprintf("smallTiles=%v", small), func(t *testing.T) {
			if small {
				smallTiles(t)
			}
			seed := testSeed(t)
			for _, n := range []int{0, 1, 7, 40, 300, 2500} {
				testLoad(t, seed+uint64(n), n)
			}
		})
	}
}

func testLoad(t *testing.T, seed uint64, n int) {
	r := rand.New(rand.NewPCG(seed, 5))
	type proxy struct {
		tight         shape.AABB
		static, alive bool
	}
	ps := make([]proxy, n)
	side := 10 * float64(n+1)
	for i := range ps {
		c := shape.V(r.Float64()*side, r.Float64()*side)
		h := shape.V(0.5+r.Float64()*3, 0.5+r.Float64()*3)
		if r.IntN(50) == 0 {
			h = h.Scale(40) // a big box
		}
		ps[i] = proxy{tight: shape.AABBFromCenter(c, h), static: r.IntN(4) == 0, alive: r.IntN(6) != 0}
	}
	var calls [2][]Pair
	filter := func(k int) func(a, b int32) bool {
		return func(a, b int32) bool {
			calls[k] = append(calls[k], Pair{a, b})
			return (a+b)%5 != 0
		}
	}
	want := NewTree(Config{})
	want.SetFilter(filter(0))
	for i, p := range ps {
		switch {
		case !p.alive:
		case p.static:
			want.InsertStatic(int32(i), p.tight)
		default:
			want.Insert(int32(i), p.tight)
		}
	}
	got := NewTree(Config{})
	got.SetFilter(filter(1))
	got.Load(n, func(id int32) (shape.AABB, bool, bool) {
		p := ps[id]
		return p.tight, p.static, p.alive
	})
	tights := make([]shape.AABB, n)
	for i := range ps {
		tights[i] = ps[i].tight
	}
	for f := range 4 {
		if f > 0 {
			// Move the moving proxies, some out of their fat boxes.
			for i, p := range ps {
				if p.alive && !p.static {
					d := shape.V(r.NormFloat64(), r.NormFloat64())
					tights[i] = shape.AABB{Min: tights[i].Min.Add(d), Max: tights[i].Max.Add(d)}
					want.Update(int32(i), tights[i], d)
					got.Update(int32(i), tights[i], d)
				}
			}
		}
		if err := sameTree(want, got); err != nil {
			t.Fatalf("seed %d, n %d, frame %d, before UpdatePairs: %v", seed, n, f, err)
		}
		want.UpdatePairs()
		got.UpdatePairs()
		if !slices.Equal(calls[0], calls[1]) {
			t.Fatalf("seed %d, n %d, frame %d: the filter was called with %v, by the inserted tree with %v", seed, n, f, calls[1], calls[0])
		}
		if err := sameTree(want, got); err != nil {
			t.Fatalf("seed %d, n %d, frame %d: %v", seed, n, f, err)
		}
		if !slices.Equal(want.Pairs(), got.Pairs()) {
			t.Fatalf("seed %d, n %d, frame %d: pairs differ at %v", seed, n, f, firstDiff(got.Pairs(), want.Pairs()))
		}
		if err := got.validate(tights); err != nil { // calls the filter
			t.Fatalf("seed %d, n %d, frame %d: validate() = %v", seed, n, f, err)
		}
		calls[0], calls[1] = calls[0][:0], calls[1][:0]
		for range 20 {
			c := shape.V(r.Float64()*side, r.Float64()*side)
			box := shape.AABBFromCenter(c, shape.V(r.Float64()*30, r.Float64()*30))
			var a, b []int32
			want.Query(box, func(id int32) bool { a = append(a, id); return true })
			got.Query(box, func(id int32) bool { b = append(b, id); return true })
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Fatalf("seed %d, n %d, frame %d: Query(%v) = %v, want %v", seed, n, f, box, b, a)
			}
		}
	}
}

// sameTree reports how got's proxies and counters differ from want's.
func sameTree(want, got *Tree) error {
	switch {
	case !slices.Equal(want.fat.r, got.fat.r) || !maps.Equal(want.fat.wide, got.fat.wide):
		return fmt.Errorf("fat boxes differ")
	case !slices.Equal(want.flags, got.flags):
		return fmt.Errorf("flags differ")
	case !slices.Equal(want.moved, got.moved):
		return fmt.Errorf("moved %v, want %v", got.moved, want.moved)
	case want.live != got.live || want.extSum != got.extSum || want.reinserted != got.reinserted || want.seq != got.seq:
		return fmt.Errorf("live %d, extSum %v, reinserted %d, seq %d; want %d, %v, %d, %d",
			got.live, got.extSum, got.reinserted, got.seq, want.live, want.extSum, want.reinserted, want.seq)
	case want.tr.Len() != got.tr.Len() || want.st.Len() != got.st.Len():
		return fmt.Errorf("%d moving, %d static boxes; want %d, %d", got.tr.Len(), got.st.Len(), want.tr.Len(), want.st.Len())
	case want.Stats() != got.Stats():
		return fmt.Errorf("stats %+v, want %+v", got.Stats(), want.Stats())
	}
	return nil
}

// TestLoadTiles: a Load of many proxies tiles the R-trees at once, and a
// Load into a tree that holds proxies panics.
func TestLoadTiles(t *testing.T) {
	smallTiles(t)
	tr := NewTree(Config{})
	tr.Load(200, func(id int32) (shape.AABB, bool, bool) {
		c := shape.V(float64(id%20)*5, float64(id/20)*5)
		return shape.AABBFromCenter(c, shape.V(1, 1)), false, true
	})
	if tr.tr.side == 0 || len(tr.tr.tiles) < 4 || tr.trAt != 200 {
		t.Fatalf("side %v, %d tiles, tiled at %d", tr.tr.side, len(tr.tr.tiles), tr.trAt)
	}
	defer func() {
		if recover() == nil {
			t.Error("Load into a tree that holds proxies did not panic")
		}
	}()
	tr.Load(1, func(int32) (shape.AABB, bool, bool) { return shape.AABB{}, false, true })
}
