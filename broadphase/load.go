package broadphase

import "github.com/collide-go/collide/shape"

// Load adds to an empty tree the proxies among ids 0 to n−1 for which
// proxy reports ok, each with the tight box proxy returns, static or not:
// the tree is then what Insert and InsertStatic, called in id order, would
// make of them (the same fat boxes, pairs and queries), except that each
// R-tree is tiled once, for its final size, instead of again each time it
// doubles. A restored snapshot builds its broad phase this way. Loading
// into a tree that holds proxies panics.
func (t *Tree) Load(n int, proxy func(id int32) (tight shape.AABB, static, ok bool)) {
	if t.live != 0 || t.tr.Len() != 0 || t.st.Len() != 0 {
		panic("broadphase: Load into a tree that holds proxies")
	}
	for id := range int32(n) {
		tight, static, ok := proxy(id)
		if !ok {
			continue
		}
		for int(id) >= len(t.flags) {
			t.flags = append(t.flags, 0)
		}
		t.fat.grow(len(t.flags))
		fat := fatten(tight, shape.Vec2{}, t.margin, 0)
		f := flagAlive | flagRefilter
		if static {
			f |= flagStatic
		}
		t.fat.set(id, fat)
		t.flags[id] = t.flags[id]&flagMoved | f
		t.live++
		t.extSum += extent(fat)
		t.reinserted++
		t.markMoved(id)
	}
	mean := 0.0
	if t.live > 0 {
		mean = t.extSum / float64(t.live)
	}
	if len(t.flags) > flatMax {
		t.tr.src, t.st.src = nil, nil
	}
	t.tr.load(&t.fat, t.flags, 0, mean, &t.trAt)
	t.st.load(&t.fat, t.flags, flagStatic, mean, &t.stAt)
}

// load fills an empty index with the boxes fat[id] of the live ids whose
// flags have the given static bit, tiled as retune would tile that many
// (untiled below tileMin).
func (t *tiled) load(fat *fatBoxes, flags []uint8, static uint8, meanExt float64, tiledAt *int) {
	n := 0
	for id, f := range flags {
		if f&flagAlive != 0 && f&flagStatic == static {
			b := fat.at(int32(id))
			t.grow(arr(b.Min), arr(b.Max))
			n++
			t.n = n
		}
	}
	if t.src != nil {
		for id, f := range flags {
			if f&flagAlive != 0 && f&flagStatic == static {
				r := fat.r[id]
				t.flatInsert(r.x0, int32(id))
				t.flatWiden(r.x0, r.x1)
			}
		}
		return
	}
	// retune tiles an untiled index of tileMin boxes or more (with the
	// bounds grown above), inserting every box; below that, the boxes go
	// in one by one, as Insert puts them.
	if t.retune(fat, flags, static, meanExt, tiledAt) {
		return
	}
	*t = tiled{trees: &trees{}}
	for id, f := range flags {
		if f&flagAlive != 0 && f&flagStatic == static {
			b := fat.at(int32(id))
			t.Insert(arr(b.Min), arr(b.Max), int32(id))
		}
	}
}
