package broadphase

import (
	"errors"
	"fmt"
	"slices"

	"github.com/collide-go/collide/shape"
)

// validate checks the tree's invariants and returns the first one broken:
// slice lengths, live counts, every live tight box (tight[id], when tight
// is not nil; the tree keeps no tight boxes) inside its fat box, the
// R-tree holding exactly the live proxies under their fat boxes, the moved
// list matching the moved flags and, when no proxy awaits UpdatePairs, the
// pair set: sorted, unique, A < B, both ends live, fat boxes overlapping,
// accepted by the filter, and complete (no live pair, not both static, with
// overlapping fat boxes that the filter accepts is missing). It calls the filter, which
// must therefore be pure.
func (t *Tree) validate(tight []shape.AABB) error {
	if len(t.fat.r) != len(t.flags) {
		return fmt.Errorf("slice lengths fat %d, flags %d", len(t.fat.r), len(t.flags))
	}
	live, moved := 0, 0
	for i, f := range t.flags {
		if f&flagMoved != 0 {
			moved++
		}
		if f&flagAlive == 0 {
			continue
		}
		live++
		if i < len(tight) && !t.fat.at(int32(i)).ContainsAABB(tight[i]) {
			return fmt.Errorf("proxy %d: tight box %v outside fat box %v", i, tight[i], t.fat.at(int32(i)))
		}
	}
	if live != int(t.live) || t.tr.Len()+t.st.Len() != live {
		return fmt.Errorf("live proxies %d, Len() %d, rtree Lens %d + %d", live, t.live, t.tr.Len(), t.st.Len())
	}
	if moved != len(t.moved) {
		return fmt.Errorf("%d moved flags, moved list of %d", moved, len(t.moved))
	}
	for _, id := range t.moved {
		if t.flags[id]&flagMoved == 0 {
			return fmt.Errorf("proxy %d in moved list without moved flag", id)
		}
	}
	seen := make([]bool, len(t.flags))
	var err error
	scan := func(tree string, static uint8) func(mn, mx rect32, id int32) bool {
		return func(mn, mx rect32, id int32) bool {
			switch {
			case id < 0 || int(id) >= len(t.flags) || t.flags[id]&flagAlive == 0:
				err = fmt.Errorf("%s rtree holds dead proxy %d", tree, id)
			case seen[id]:
				err = fmt.Errorf("rtree holds proxy %d twice", id)
			case t.flags[id]&flagStatic != static:
				err = fmt.Errorf("proxy %d is in the %s rtree", id, tree)
			case mn != lo32(arr(t.fat.at(id).Min)) || mx != hi32(arr(t.fat.at(id).Max)):
				err = fmt.Errorf("rtree holds proxy %d as %v-%v, fat box %v", id, mn, mx, t.fat.at(id))
			}
			if id >= 0 && int(id) < len(seen) {
				seen[id] = true
			}
			return err == nil
		}
	}
	t.tr.Scan(scan("moving", 0))
	if err == nil {
		t.st.Scan(scan("static", flagStatic))
	}
	if err != nil {
		return err
	}
	if err := t.tr.validate(&t.fat); err != nil {
		return fmt.Errorf("moving tree: %w", err)
	}
	if err := t.st.validate(&t.fat); err != nil {
		return fmt.Errorf("static tree: %w", err)
	}
	if len(t.moved) > 0 {
		return nil
	}
	for i, p := range t.pairs {
		switch {
		case p.A >= p.B || p.A < 0:
			return fmt.Errorf("pair %v: want 0 <= A < B", p)
		case i > 0 && t.pairs[i-1].Key() >= p.Key():
			return fmt.Errorf("pairs %v, %v out of order or repeated", t.pairs[i-1], p)
		case int(p.B) >= len(t.flags) || t.flags[p.A]&t.flags[p.B]&flagAlive == 0:
			return fmt.Errorf("pair %v has a dead proxy", p)
		case !t.fat.at(p.A).Overlaps(t.fat.at(p.B)):
			return fmt.Errorf("pair %v: fat boxes %v and %v do not overlap", p, t.fat.at(p.A), t.fat.at(p.B))
		case t.filter != nil && !t.filter(p.A, p.B):
			return fmt.Errorf("pair %v: rejected by the filter", p)
		}
	}
	for i, f := range t.flags {
		if f&flagAlive == 0 {
			continue
		}
		a := int32(i)
		t.Query(t.fat.at(int32(i)), func(b int32) bool {
			if b <= a || t.flags[a]&t.flags[b]&flagStatic != 0 || (t.filter != nil && !t.filter(a, b)) {
				return true
			}
			if _, found := slices.BinarySearchFunc(t.pairs, Pair{a, b}, comparePairs); !found {
				err = fmt.Errorf("pair {%d %d} missing: fat boxes %v and %v overlap", a, b, t.fat.at(a), t.fat.at(b))
			}
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	if t.stats.Pairs != len(t.pairs) {
		return errors.New("Stats().Pairs is stale")
	}
	return nil
}

func comparePairs(p, q Pair) int {
	switch {
	case p.Key() < q.Key():
		return -1
	case p.Key() > q.Key():
		return 1
	}
	return 0
}

// validate checks that every box in a tile lies within the tile's cell
// grown by reach, which searches rely on, that every cell of the dense
// grid has its tile and the map none, that the map holds cells outside
// the grid only, and that each tile is found once; fat holds the boxes by
// id.
func (t *tiled) validate(fat *fatBoxes) error {
	if t.src != nil {
		if len(t.ord) != t.n || t.trees != nil {
			return fmt.Errorf("flat: %d boxes, ord %d, R-trees %v", t.n, len(t.ord), t.trees != nil)
		}
		for i, id := range t.ord {
			b := fat.r[id]
			switch {
			case i > 0 && (fat.r[t.ord[i-1]].x0 > b.x0 || (fat.r[t.ord[i-1]].x0 == b.x0 && t.ord[i-1] >= id)):
				return fmt.Errorf("flat: boxes %d, %d at %d out of order", t.ord[i-1], id, i)
			case !(float64(b.x1)-float64(b.x0) <= t.maxW):
				return fmt.Errorf("flat: box %d wider than maxW %g", id, t.maxW)
			}
		}
		return nil
	}
	if t.trees == nil {
		if t.n != 0 {
			return fmt.Errorf("%d boxes and no R-tree", t.n)
		}
		return nil
	}
	type cellTile struct {
		k uint64
		j int32
	}
	var all []cellTile
	for i, j := range t.grid {
		cx, cy := t.gx+int64(uint64(i)%t.gw), t.gy+int64(uint64(i)/t.gw)
		if j < 0 {
			return fmt.Errorf("grid cell (%d, %d) has no tile", cx, cy)
		}
		if m := t.findHash(cellKey(cx, cy)); m >= 0 {
			return fmt.Errorf("grid cell (%d, %d) holds tile %d, and the map %d too", cx, cy, j, m)
		}
		all = append(all, cellTile{cellKey(cx, cy), j})
	}
	hashed := 0
	for i, j := range t.index {
		if j < 0 {
			continue
		}
		k := t.keys[i]
		if ux, uy := uint64(int64(int32(k>>32))-t.gx), uint64(int64(int32(k))-t.gy); ux < t.gw && uy < t.gh {
			return fmt.Errorf("the map holds cell %x of the grid", k)
		}
		all = append(all, cellTile{k, j})
		hashed++
	}
	if hashed != t.hashed || len(all) != len(t.tiles) {
		return fmt.Errorf("%d tiles, %d found (%d in the map, which counts %d)", len(t.tiles), len(all), hashed, t.hashed)
	}
	seen := make([]bool, len(t.tiles))
	for _, c := range all {
		if seen[c.j] {
			return fmt.Errorf("tile %d found twice", c.j)
		}
		seen[c.j] = true
	}
	var err error
	for _, c := range all {
		k, j := c.k, c.j
		x0 := float64(float64(int32(k>>32)) * t.side)
		y0 := float64(float64(int32(k)) * t.side)
		t.tiles[j].Scan(func(_, _ rect32, id int32) bool {
			if id == sentinel {
				return true
			}
			b := fat.at(id)
			lo, hi := arr(b.Min), arr(b.Max)
			if o := max(x0-lo[0], y0-lo[1], hi[0]-(x0+t.side), hi[1]-(y0+t.side)); o > t.reach {
				err = fmt.Errorf("box %d (%v-%v) reaches %g beyond its cell at (%g, %g), reach %g", id, lo, hi, o, x0, y0, t.reach)
			}
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
