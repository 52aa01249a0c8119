package broadphase

import (
	"math"
	"slices"

	"github.com/tidwall/rtree"
)

// A tiled index holds boxes in several R-trees. While it holds few, they
// all live in one tree. Once it holds many (tileMin), the plane is cut into
// square tiles: each box lives in the tree of the tile its centre lies in,
// and a box wider or taller than half a tile lives in the one tree (big).
// Every box in a tile's tree then lies within the tile grown by half a side,
// so a search looks only at the tiles of its box grown by half a side, and
// each of those trees rejects it at once when its bounds miss.
//
// Why: tidwall/rtree's nodes hold 64 entries and a search tests every entry
// of every node it enters, so a search in a tree of 10,000 boxes tests about
// 120 rectangles to find one or two. A tile's tree holds a few dozen boxes,
// one or two nodes, and the tiles themselves cost a hash probe each.
type tiled struct {
	// src is the tree whose proxies this index holds, while the index is
	// flat (see flatMax): it then keeps no R-tree but the ids of its boxes
	// in ord, sorted by their rectangles' left edges and then by id, and
	// a search looks at the run of ord whose left edges lie within its
	// box grown left by maxW, reading the rectangles from src's fat
	// boxes. src is nil once the index holds R-trees.
	src  *Tree
	ord  []int32
	maxW float64 // no rectangle held is wider; exact after tighten
	n    int     // boxes held
	// wide is set once a box reaching beyond float32's range is inserted:
	// its rectangle is clamped, and exact searches test its box.
	wide bool
	// lo, hi bound every box held. They grow with each insertion and are
	// tightened by tighten; in between they may be larger than needed.
	lo, hi [2]float64
	// The R-trees, nil while flat: a flat index costs a small world only
	// the fields above.
	*trees
}

// trees is the R-tree part of a tiled index.
type trees struct {
	side  float64 // tile side; 0 while untiled
	inv   float64 // 1/side
	big   rtree.RTreeGN[float32, int32]
	tiles []rtree.RTreeGN[float32, int32]
	// An open-addressed map from a tile's cell key to its index in tiles,
	// for the tiles outside grid.
	keys   []uint64
	index  []int32 // -1: empty
	shift  uint8   // 64 − log2(len(index))
	hashed int     // tiles in the map
	// grid is a dense array over the cells the boxes covered when the
	// index was tiled: gw × gh cells from cell (gx, gy), row by row, each
	// its tile's index in tiles (every cell of it has a tile, made when
	// it was). Most lookups land in it and cost one load instead of a
	// hash probe; cells outside it are looked up in the map.
	grid   []int32
	gx, gy int64
	gw, gh uint64
	// reach bounds how far a box in a tile reaches beyond its tile's cell
	// (a quarter side at most, but a box is often much smaller than half a
	// side). It grows with each box put in a tile and is reset when the
	// index is re-tiled. Searches grow their box by it, not by a quarter
	// side, to find the tiles to look in.
	reach float64
}

// tileMin is the number of boxes from which the index is tiled, and
// tileMin/2 the number below which it is untiled again; tileFill is the
// number of boxes a tile should hold on average. Tests lower both. 16
// measured fewer instructions than 24 (every re-insert deletes from a tile's
// tree by a scan of its entries, and every search tests the entries of the
// tiles it meets) for the 1k and 10k swarm steps and for the queries, and
// fewer than 12 or 20 at 10k.
var (
	tileMin  = 512
	tileFill = 16.0
)

// flatMax is the number of proxy ids up to which a tree's indexes stay flat:
// no R-tree, only the ids sorted by left edge (4 bytes a box), and a
// search is a binary search and a short scan (a sweep-and-prune list, kept
// sorted as boxes move). A room of a hundred bodies then spends nothing on
// R-tree nodes (three of 64 entries for 100 boxes, which a search would
// test nearly whole), and a re-insert moves an id a few places. Past
// flatMax both indexes get their R-trees, for good (ids never shrink).
//
// Why 256: rooms of n swarm bodies, 25,000 bodies a tick in all, stepped
// on one goroutine with every tree flat and with none (medians of three
// runs), took 5.5 ms flat against 5.8 on R-trees at n = 50, 5.4 against
// 6.2 at 100, 5.6 against 5.8 at 200, and 5.8 against 6.4 at 400. A search scans every box whose left edge lies
// within its box grown left by the widest box, so a column of boxes
// sharing their left edges is scanned whole; 256 bounds that scan.
var flatMax = 256

const (
	// cellLimit clamps cell coordinates: boxes beyond it share the edge
	// cells, which keeps the cell arithmetic exact to far below a tile.
	cellLimit = 1 << 30
)

// cell returns the cell coordinate of x, clamped to ±cellLimit.
func (t *tiled) cell(x float64) int64 {
	c := math.Floor(float64(x * t.inv))
	switch {
	case c < -cellLimit:
		return -cellLimit
	case c > cellLimit:
		return cellLimit
	}
	return int64(c)
}

func cellKey(cx, cy int64) uint64 { return uint64(uint32(int32(cx)))<<32 | uint64(uint32(int32(cy))) }

// isBig reports whether a box goes to the big tree.
func (t *tiled) isBig(min, max [2]float64) bool {
	h := t.side * 0.5
	return t.side == 0 || !(max[0]-min[0] <= h) || !(max[1]-min[1] <= h)
}

// keyOf returns the key of the cell a box's centre lies in.
func (t *tiled) keyOf(min, max [2]float64) uint64 {
	cx := float64(min[0]*0.5) + float64(max[0]*0.5)
	cy := float64(min[1]*0.5) + float64(max[1]*0.5)
	return cellKey(t.cell(cx), t.cell(cy))
}

// find returns the index in tiles of the tile with key k, or -1.
func (t *tiled) find(k uint64) int32 { return t.findCell(int64(int32(k>>32)), int64(int32(k))) }

// findCell returns the index in tiles of the tile of cell (cx, cy), or -1.
func (t *tiled) findCell(cx, cy int64) int32 {
	if ux, uy := uint64(cx-t.gx), uint64(cy-t.gy); ux < t.gw && uy < t.gh {
		return t.grid[uy*t.gw+ux]
	}
	return t.findHash(cellKey(cx, cy))
}

// findHash is find by the map alone.
func (t *tiled) findHash(k uint64) int32 {
	if len(t.index) == 0 {
		return -1
	}
	mask := uint64(len(t.index) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		j := t.index[i]
		if j < 0 || t.keys[i] == k {
			return j
		}
	}
}

// tileFor returns the tree for a box, making its tile if it has none.
func (t *tiled) tileFor(min, max [2]float64) *rtree.RTreeGN[float32, int32] {
	if t.isBig(min, max) {
		return &t.big
	}
	k := t.keyOf(min, max)
	t.widen(k, min, max)
	if j := t.find(k); j >= 0 {
		return &t.tiles[j]
	}
	return t.newTile(k)
}

// newTile makes the tile of key k, which has none, and returns its tree.
func (t *tiled) newTile(k uint64) *rtree.RTreeGN[float32, int32] {
	j := int32(len(t.tiles))
	t.tiles = append(t.tiles, rtree.RTreeGN[float32, int32]{})
	if ux, uy := uint64(int64(int32(k>>32))-t.gx), uint64(int64(int32(k))-t.gy); ux < t.gw && uy < t.gh {
		t.grid[uy*t.gw+ux] = j
	} else {
		if 2*(t.hashed+1) > len(t.index) {
			n := 2 * len(t.index)
			if n < 64 {
				n = 64
			}
			t.rehash(n)
		}
		t.put(k, j)
		t.hashed++
	}
	tr := &t.tiles[len(t.tiles)-1]
	// A tile's tree never empties: tidwall/rtree drops the root node of an
	// empty tree and allocates a new one at the next insertion, and boxes
	// moving back and forth between two tiles would then allocate every
	// frame. The tile's centre holds the place, with id -1, which searches
	// skip; the tree's bounds reach it, and so the tile's box at most.
	c := rect32{to32(finite(float64(float64(int32(k>>32))+0.5) * t.side)), to32(finite(float64(float64(int32(k))+0.5) * t.side))}
	tr.Insert(c, c, sentinel)
	return tr
}

// widen grows reach to cover the box lo, hi going into the tile of key k.
// Far beyond the clamped cells the box is far from its cell, reach becomes
// large, and searches fall back to a quarter side.
func (t *tiled) widen(k uint64, lo, hi [2]float64) {
	x0 := float64(float64(int32(k>>32)) * t.side)
	y0 := float64(float64(int32(k)) * t.side)
	if o := max(x0-lo[0], y0-lo[1], hi[0]-(x0+t.side), hi[1]-(y0+t.side)); o > t.reach {
		t.reach = o
	}
}

// margin returns how far a search grows its box to find the tiles that
// may hold a box it meets: a box in a tile lies within the tile's cell
// grown by reach (or by a quarter side: it is at most half a side wide,
// with its centre in the cell), and a hundredth of a side more covers the
// rounding of the centre and of the cell arithmetic.
func (t *tiled) margin() float64 {
	return min(t.reach+float64(t.side*0.01), float64(t.side*0.26)) // explicit: no fused multiply-add on arm64
}

// finite clamps x to the finite floats.
func finite(x float64) float64 { return max(-math.MaxFloat64, min(x, math.MaxFloat64)) }

// sentinel is the id of the entry at the centre of each tile's tree.
const sentinel = -1

// treeOf returns the tree holding a box that was inserted as min, max.
func (t *tiled) treeOf(min, max [2]float64) *rtree.RTreeGN[float32, int32] {
	if t.isBig(min, max) {
		return &t.big
	}
	return &t.tiles[t.find(t.keyOf(min, max))]
}

func (t *tiled) put(k uint64, j int32) {
	mask := uint64(len(t.index) - 1)
	i := (k * 0x9E3779B97F4A7C15) >> t.shift
	for t.index[i] >= 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.index[i] = k, j
}

// rehash resizes the tile map to n (a power of two) slots.
func (t *tiled) rehash(n int) {
	keys, index := t.keys, t.index
	t.keys, t.index = make([]uint64, n), make([]int32, n)
	for i := range t.index {
		t.index[i] = -1
	}
	t.shift = uint8(64 - log2(n))
	for i, j := range index {
		if j >= 0 {
			t.put(keys[i], j)
		}
	}
}

func log2(n int) int {
	b := 0
	for 1<<b < n {
		b++
	}
	return b
}

func (t *tiled) grow(bmin, bmax [2]float64) {
	if t.n == 0 {
		t.lo, t.hi = bmin, bmax
		return
	}
	t.lo = [2]float64{min(t.lo[0], bmin[0]), min(t.lo[1], bmin[1])}
	t.hi = [2]float64{max(t.hi[0], bmax[0]), max(t.hi[1], bmax[1])}
}

// Insert adds a box.
func (t *tiled) Insert(min, max [2]float64, id int32) {
	t.grow(min, max)
	mn, mx := lo32(min), hi32(max)
	t.wide = t.wide || clamped(mn, mx)
	t.n++
	if t.src != nil {
		t.flatInsert(mn[0], id)
		t.flatWiden(mn[0], mx[0])
		return
	}
	if t.trees == nil {
		t.trees = &trees{} // a Tree not made by NewTree starts with R-trees
	}
	t.tileFor(min, max).Insert(mn, mx, id)
}

// Delete removes a box inserted as min, max.
func (t *tiled) Delete(min, max [2]float64, id int32) {
	t.n--
	if t.src != nil {
		t.flatDelete(lo32(min)[0], id)
		return
	}
	t.treeOf(min, max).Delete(lo32(min), hi32(max), id)
}

// Replace moves a box from omin, omax to nmin, nmax.
func (t *tiled) Replace(omin, omax [2]float64, id int32, nmin, nmax [2]float64) {
	t.replaceRect(omin, omax, rectOf(omin, omax), id, nmin, nmax, rectOf(nmin, nmax))
}

// replaceRect is Replace given the tree rectangles of both boxes too
// (rectOf's), which a fat box has at hand.
func (t *tiled) replaceRect(omin, omax [2]float64, o box32, id int32, nmin, nmax [2]float64, n box32) {
	t.grow(nmin, nmax)
	t.wide = t.wide || n.clamped()
	if t.src != nil {
		t.flatMove(o.x0, n.x0, id)
		t.flatWiden(n.x0, n.x1)
		return
	}
	// Mostly the box stays in its tile: one key and one lookup then.
	if !t.isBig(omin, omax) && !t.isBig(nmin, nmax) {
		if k := t.keyOf(nmin, nmax); k == t.keyOf(omin, omax) {
			t.widen(k, nmin, nmax)
			t.tiles[t.find(k)].Replace(rect32{o.x0, o.y0}, rect32{o.x1, o.y1}, id, rect32{n.x0, n.y0}, rect32{n.x1, n.y1}, id)
			return
		}
	}
	to := t.tileFor(nmin, nmax) // may move t.tiles: look from up after it
	from := t.treeOf(omin, omax)
	if from == to {
		to.Replace(rect32{o.x0, o.y0}, rect32{o.x1, o.y1}, id, rect32{n.x0, n.y0}, rect32{n.x1, n.y1}, id)
		return
	}
	from.Delete(rect32{o.x0, o.y0}, rect32{o.x1, o.y1}, id)
	to.Insert(rect32{n.x0, n.y0}, rect32{n.x1, n.y1}, id)
}

// Len returns the number of boxes held.
func (t *tiled) Len() int { return t.n }

// Bounds returns a box around every box held (not always the smallest:
// see tighten); meaningless when empty.
func (t *tiled) Bounds() (min, max [2]float64) { return t.lo, t.hi }

// tighten makes Bounds the smallest box around the boxes held.
func (t *tiled) tighten() {
	if t.src != nil {
		t.tightenFlat()
		return
	}
	if t.trees == nil {
		return
	}
	first := true
	each := func(tr *rtree.RTreeGN[float32, int32]) {
		if tr.Len() == 0 {
			return
		}
		m32, x32 := tr.Bounds()
		mn, mx := from32Lo(m32), from32Hi(x32)
		if first {
			t.lo, t.hi, first = mn, mx, false
			return
		}
		t.lo = [2]float64{min(t.lo[0], mn[0]), min(t.lo[1], mn[1])}
		t.hi = [2]float64{max(t.hi[0], mx[0]), max(t.hi[1], mx[1])}
	}
	each(&t.big)
	for i := range t.tiles {
		each(&t.tiles[i])
	}
}

// Search calls iter with every box whose tree rectangle overlaps min, max
// (boundaries included; the rectangles are the boxes rounded outward to
// float32), and with placeholder entries (id sentinel, which iter must
// skip), until iter sets *stop; iter's result goes to the R-trees, and
// false ends the search in the one it is in.
func (t *tiled) Search(min, max [2]float64, iter func(min, max rect32, id int32) bool, stop *bool) {
	if t.n == 0 {
		return
	}
	t.searchRect(min, max, rectOf(min, max), iter, stop)
}

// searchRect is Search given the search box's tree rectangle r too
// (rectOf's), which a fat box has at hand.
func (t *tiled) searchRect(min, max [2]float64, r box32, iter func(min, max rect32, id int32) bool, stop *bool) {
	if t.n == 0 {
		return
	}
	if t.src != nil {
		t.searchFlat(r, false, iter)
		return
	}
	mn, mx := rect32{r.x0, r.y0}, rect32{r.x1, r.y1}
	// A tiled index's big tree always holds its placeholder (see retune).
	if t.big.Len() > 0 && (t.side == 0 || t.big.Len() > 1) {
		if t.big.Search(mn, mx, iter); *stop {
			return
		}
	}
	if len(t.tiles) == 0 {
		return
	}
	e := t.margin()
	x0, x1 := t.cell(min[0]-e), t.cell(max[0]+e)
	y0, y1 := t.cell(min[1]-e), t.cell(max[1]+e)
	if (x1-x0+1)*(y1-y0+1) > int64(len(t.tiles)) {
		for i := range t.tiles {
			if t.searchTile(i, mn, mx, iter); *stop {
				return
			}
		}
		return
	}
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			if j := t.findCell(cx, cy); j >= 0 {
				if t.searchTile(int(j), mn, mx, iter); *stop {
					return
				}
			}
		}
	}
}

// searchTile searches tile i's tree when its bounds meet min, max.
func (t *tiled) searchTile(i int, min, max rect32, iter func(min, max rect32, id int32) bool) {
	tr := &t.tiles[i]
	mn, mx := tr.Bounds()
	if min[0] > mx[0] || max[0] < mn[0] || min[1] > mx[1] || max[1] < mn[1] {
		return
	}
	tr.Search(min, max, iter)
}

// Scan calls iter with every box held, as its tree rectangle, until it
// returns false.
func (t *tiled) Scan(iter func(min, max rect32, id int32) bool) {
	if t.src != nil {
		t.searchFlat(box32{}, true, iter)
		return
	}
	if t.trees == nil {
		return
	}
	done := true
	visit := func(mn, mx rect32, id int32) bool {
		if id == sentinel {
			return true
		}
		done = iter(mn, mx, id)
		return done
	}
	if t.big.Scan(visit); !done {
		return
	}
	for i := range t.tiles {
		if t.tiles[i].Scan(visit); !done {
			return
		}
	}
}

// Copy returns a copy sharing nothing mutable (the trees copy on write).
func (t *tiled) Copy() tiled {
	c := *t
	c.ord = slices.Clone(t.ord)
	if t.trees == nil {
		return c
	}
	r := *t.trees
	c.trees = &r
	c.big = *t.big.Copy()
	c.tiles = make([]rtree.RTreeGN[float32, int32], len(t.tiles))
	for i := range t.tiles {
		c.tiles[i] = *t.tiles[i].Copy()
	}
	c.keys = append([]uint64(nil), t.keys...)
	c.index = append([]int32(nil), t.index...)
	c.grid = append([]int32(nil), t.grid...)
	return c
}

// gridMax bounds the dense grid: at most gridMax cells a box held (the
// side is chosen for about tileFill boxes a tile, so the cells of the
// boxes' bounds are about n/tileFill unless a few boxes lie far away).
const gridMax = 2

// makeGrid makes the dense grid over the cells of the box lo, hi, which
// bounds the n boxes about to be inserted, unless it would have more than
// gridMax·n + 64 cells.
func (t *tiled) makeGrid(lo, hi [2]float64, n int) {
	x0, x1, y0, y1 := t.cell(lo[0]), t.cell(hi[0]), t.cell(lo[1]), t.cell(hi[1])
	w, h := uint64(x1-x0+1), uint64(y1-y0+1)
	if w > uint64(gridMax*n+64) || h > uint64(gridMax*n+64) || w*h > uint64(gridMax*n+64) {
		return
	}
	t.grid = make([]int32, w*h)
	for i := range t.grid {
		t.grid[i] = -1
	}
	t.gx, t.gy, t.gw, t.gh = x0, y0, w, h
}

// retune re-tiles the index when its size has crossed a threshold since it
// was last tiled: tiled from tileMin boxes, with tiles of about tileFill
// boxes over the area the boxes cover (and at least a few times their mean
// size), untiled again below tileMin/2. The boxes are re-inserted from fat, for the ids whose
// flags are alive and have the given static bit; meanExt is their mean
// width plus height. It reports whether it did.
func (t *tiled) retune(fat *fatBoxes, flags []uint8, static uint8, meanExt float64, tiledAt *int) bool {
	if t.src != nil {
		return false
	}
	if t.trees == nil {
		t.trees = &trees{}
	}
	n := t.n
	switch {
	case t.side == 0 && n >= tileMin:
	case t.side > 0 && (n < tileMin/2 || n > 2**tiledAt || 2*n < *tiledAt):
	default:
		return false
	}
	side := 0.0
	if n >= tileMin/2 {
		t.tighten()
		// √(area·fill/n), without overflowing the area.
		w, h := math.Sqrt(t.hi[0]-t.lo[0]), math.Sqrt(t.hi[1]-t.lo[1])
		side = max(float64(w*h)*math.Sqrt(tileFill/float64(n)), 3*meanExt)
		if !(side > 0) || math.IsInf(side, 0) || n < tileMin {
			side = 0
		}
	}
	lo, hi := t.lo, t.hi
	*t = tiled{trees: &trees{side: side}}
	if side > 0 {
		t.inv = 1 / side
		t.makeGrid(lo, hi, n)
		// Every cell of the grid gets its tile now, empty or not: a box
		// that later moves into an empty cell would otherwise make its
		// tile there, and a steady world allocate a node now and then
		// for as long as its boxes keep finding cells they never visited.
		for gy := range int64(t.gh) {
			for gx := range int64(t.gw) {
				t.newTile(cellKey(t.gx+gx, t.gy+gy))
			}
		}
		// The big tree holds a place too (see tileFor): boxes that grow
		// past half a side and shrink back would otherwise empty it and
		// make it allocate a root again and again.
		t.big.Insert(lo32(lo), lo32(lo), sentinel)
	}
	for id, f := range flags {
		if f&flagAlive != 0 && f&flagStatic == static {
			b := fat.at(int32(id))
			t.Insert(arr(b.Min), arr(b.Max), int32(id))
		}
	}
	*tiledAt = n
	return true
}

// flatWiden grows maxW to cover a rectangle from x0 to x1.
func (t *tiled) flatWiden(x0, x1 float32) {
	w := float64(x1) - float64(x0)
	t.maxW = max(t.maxW, w+float64(w*0x1p-50))
}

// flatAt returns the place in ord of the box with left edge x0 and id id,
// or where it would go. It reads the other boxes' left edges from src; id's
// own may have changed already (see flatMove), so meeting id ends the
// search.
func (t *tiled) flatAt(x0 float32, id int32) int {
	boxes := t.src.fat.r
	lo, hi := 0, len(t.ord)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		j := t.ord[m]
		if j == id {
			return m
		}
		if x := boxes[j].x0; x < x0 || (x == x0 && j < id) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (t *tiled) flatInsert(x0 float32, id int32) {
	t.ord = slices.Insert(t.ord, t.flatAt(x0, id), id)
}

func (t *tiled) flatDelete(x0 float32, id int32) {
	i := t.flatAt(x0, id)
	t.ord = slices.Delete(t.ord, i, i+1)
}

// flatMove moves id, whose left edge was x0 and is now x1 (src holds the
// new box already), to its new place, shifting the ids between (a box
// moves a few places a frame).
func (t *tiled) flatMove(x0, x1 float32, id int32) {
	i := t.flatAt(x0, id)
	ord, boxes := t.ord, t.src.fat.r
	for i > 0 {
		j := ord[i-1]
		if x := boxes[j].x0; x < x1 || (x == x1 && j < id) {
			break
		}
		ord[i] = j
		i--
	}
	for i+1 < len(ord) {
		j := ord[i+1]
		if x := boxes[j].x0; x > x1 || (x == x1 && j > id) {
			break
		}
		ord[i] = j
		i++
	}
	ord[i] = id
}

// searchFlat is searchRect for a flat index: it calls iter with every box
// whose rectangle overlaps r (boundaries included, as the R-trees test),
// or with every box if all is set, in order of left edge, until iter
// returns false.
func (t *tiled) searchFlat(r box32, all bool, iter func(min, max rect32, id int32) bool) {
	boxes := t.src.fat.r
	i, end := 0, len(t.ord)
	if !all {
		// A box meeting r has its left edge in [r.x0 − width, r.x1].
		from := float64(r.x0) - t.maxW
		from -= float64(math.Abs(from) * 0x1p-50)
		lo, hi := 0, len(t.ord)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if float64(boxes[t.ord[m]].x0) < from {
				lo = m + 1
			} else {
				hi = m
			}
		}
		i = lo
	}
	for ; i < end; i++ {
		id := t.ord[i]
		b := boxes[id]
		if !all && b.x0 > r.x1 {
			return
		}
		if !all && (b.x1 < r.x0 || b.y0 > r.y1 || b.y1 < r.y0) {
			continue
		}
		if !iter(rect32{b.x0, b.y0}, rect32{b.x1, b.y1}, id) {
			return
		}
	}
}

// tightenFlat is tighten for a flat index: the bounds of its rectangles,
// as an R-tree holding them would give them, and maxW made exact.
func (t *tiled) tightenFlat() {
	if len(t.ord) == 0 {
		t.maxW = 0
		return
	}
	boxes := t.src.fat.r
	b := boxes[t.ord[0]]
	x0, y0, x1, y1 := b.x0, b.y0, b.x1, b.y1
	w := 0.0
	for _, id := range t.ord {
		b := boxes[id]
		y0, x1, y1 = min(y0, b.y0), max(x1, b.x1), max(y1, b.y1)
		w = max(w, float64(b.x1)-float64(b.x0))
	}
	// ord's first box has the leftmost edge.
	t.lo, t.hi = from32Lo(rect32{x0, y0}), from32Hi(rect32{x1, y1})
	t.maxW = w + float64(w*0x1p-50)
}

// unflatten gives a flat index its R-trees, inserting its boxes from src's
// fat boxes.
func (t *tiled) unflatten() {
	src := t.src
	if src == nil {
		return
	}
	ord := t.ord
	*t = tiled{trees: &trees{}}
	for _, id := range ord {
		b := src.fat.at(id)
		t.Insert(arr(b.Min), arr(b.Max), id)
	}
}
