package broadphase

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/collide-go/collide/shape"
)

// DefaultMargin is the fat-box margin, in world units, used when
// [Config.Margin] is zero.
const DefaultMargin = 0.25

// DefaultMotionFrames is the number of frames of displacement a fat box is
// stretched by when [Config.MotionFrames] is zero.
const DefaultMotionFrames = 8

// stretchCap bounds the motion stretch on each axis to this many times the
// larger side of the tight box (or the margin, if larger). Without it a
// teleported body, whose displacement is the jump, would get a fat box
// spanning the jump several times over and pair with everything in between.
const stretchCap = 8

// Config tunes a [Tree]. The zero Config is a working one.
type Config struct {
	// Margin is how far, in world units, a fat box reaches beyond the tight
	// box on every side. Zero means [DefaultMargin]; a negative value means
	// no margin.
	Margin float64
	// MotionFrames is how many frames of displacement stretch the fat box
	// along the motion: the fat box is the union of the tight box and the
	// tight box moved by MotionFrames·disp, grown by Margin. Zero means
	// [DefaultMotionFrames]; a negative value turns stretching off.
	MotionFrames float64
}

// resolve returns the margin and frame count c stands for.
func (c Config) resolve() (margin, frames float64) {
	margin, frames = c.Margin, c.MotionFrames
	switch {
	case margin == 0:
		margin = DefaultMargin
	case !(margin > 0):
		margin = 0
	}
	switch {
	case frames == 0:
		frames = DefaultMotionFrames
	case !(frames > 0):
		frames = 0
	}
	return margin, frames
}

// Proxy flags.
const (
	flagAlive    uint8 = 1 << iota
	flagMoved          // in t.moved: queries at the next UpdatePairs
	flagRefilter       // inserted or touched: its found pairs go through the filter again
	flagStatic         // lives in the static tree; never paired with another static proxy
)

// Tree is the broad phase: proxies keyed by fat AABBs in an R-tree, and a
// persistent, sorted set of the pairs whose fat boxes overlap.
//
// Mutations (Insert, Remove, Update, Touch, UpdatePairs, SetFilter) need
// exclusive access. Query, RayCast, Bounds, Pairs, FatAABB, Len and Stats
// only read, so any number of goroutines may call them at once while nothing
// mutates.
//
// A nil *Tree is an empty tree to Query, RayCast, Sweep, Len, Bounds,
// Pairs, Stats, UpdatePairs and Clone, so that a world with no body need
// not make one.
type Tree struct {
	// Two R-trees, as in Box2D: moving proxies in tr, static ones in st.
	// Re-inserts then never wade through long static walls, and static
	// proxies never look for each other.
	tr tiled
	st tiled
	// Sizes at which tr and st were last tiled (see tiled.retune).
	trAt, stAt int
	margin     float64
	frames     float64
	filter     func(a, b int32) bool

	// Proxy storage, indexed by id.
	fat   fatBoxes
	flags []uint8
	live  int32
	// extSum is the sum over live proxies of their fat width plus height,
	// for RayCast's chunk length.
	extSum float64

	moved []int32            // proxies to query at the next UpdatePairs
	cand  []uint64           // scratch: candidate keys found by the queries
	hist  *[4][radixSize]int // scratch: radix sort digit counts, one row a pass
	pairs []Pair             // the pair set, sorted by key; see UpdatePairs for its array
	// Parallel queries (SetParallel), nil until set: a small world's tree
	// carries none of it.
	par        *parallel
	reinserted int32  // since the last UpdatePairs (int32s, packed: an empty tree stays small)
	seq        uint32 // re-inserts by Update, ever: drives stretchJitter
	oversized  int32  // UpdatePairs in a row whose scratch was oversized (see trimScratch)
	stats      Stats
}

// parallel is a tree's parallel-query state: the hook, the size from which
// it is used, and per-worker candidate buffers.
type parallel struct {
	run          func(n int, fn func(worker, lo, hi int))
	min          int
	queryRangeFn func(worker, lo, hi int)
	wcand        [][]uint64
	wqueried     []int
}

// NewTree returns an empty tree tuned by cfg.
func NewTree(cfg Config) *Tree {
	t := &Tree{}
	t.margin, t.frames = cfg.resolve()
	t.tr.src, t.st.src = t, t
	return t
}

// SetFilter sets the pair filter: f(a, b), a < b, is called for each
// candidate pair found by [Tree.UpdatePairs] that is not in the pair set
// yet, and for every found pair of a proxy inserted or touched since the
// last UpdatePairs; false keeps the pair out of the set. A pair the filter
// rejected is asked again whenever one of its proxies queries the tree
// again, so f must be a pure function of the proxies' state; after changing
// that state, call [Tree.Touch]. nil accepts every pair.
func (t *Tree) SetFilter(f func(a, b int32) bool) { t.filter = f }

// Insert adds proxy id with tight box tight. Ids are chosen by the caller:
// small, dense and non-negative (body slot indexes). The proxy queries the
// tree at the next [Tree.UpdatePairs]. Inserting an id that is alive panics.
func (t *Tree) Insert(id int32, tight shape.AABB) { t.insert(id, tight, 0) }

// InsertStatic adds proxy id like [Tree.Insert], as a static proxy: it
// lives in a tree of its own and is never paired with another static
// proxy. It may still be updated (a door that is moved now and then).
func (t *Tree) InsertStatic(id int32, tight shape.AABB) { t.insert(id, tight, flagStatic) }

func (t *Tree) insert(id int32, tight shape.AABB, static uint8) {
	if id < 0 {
		panic(fmt.Sprintf("broadphase: Insert of negative proxy id %d", id))
	}
	for int(id) >= len(t.flags) {
		t.flags = append(t.flags, 0)
	}
	t.fat.grow(len(t.flags))
	if t.flags[id]&flagAlive != 0 {
		panic(fmt.Sprintf("broadphase: Insert of live proxy %d", id))
	}
	fat := fatten(tight, shape.Vec2{}, t.margin, 0)
	t.fat.set(id, fat)
	t.flags[id] = t.flags[id]&flagMoved | flagAlive | flagRefilter | static
	t.treeOf(id).Insert(arr(fat.Min), arr(fat.Max), id)
	t.live++
	t.extSum += extent(fat)
	t.retune(static)
	t.reinserted++
	t.markMoved(id)
}

// retune re-tiles the tree of the static or moving proxies when its size
// calls for it (see tiled.retune).
func (t *Tree) retune(static uint8) {
	if t.tr.src != nil && len(t.flags) > flatMax {
		t.tr.unflatten()
		t.st.unflatten()
	}
	mean := 0.0
	if t.live > 0 {
		mean = t.extSum / float64(t.live)
	}
	if static != 0 {
		t.st.retune(&t.fat, t.flags, flagStatic, mean, &t.stAt)
	} else {
		t.tr.retune(&t.fat, t.flags, 0, mean, &t.trAt)
	}
}

// treeOf returns the R-tree that holds proxy id.
func (t *Tree) treeOf(id int32) *tiled {
	if t.flags[id]&flagStatic != 0 {
		return &t.st
	}
	return &t.tr
}

// Trim cuts the room the proxy arrays hold beyond the largest id inserted
// so far to a sixty-fourth of their length, for a caller whose ids have
// stopped growing. Insert grows them again as it needs.
func (t *Tree) Trim() {
	n := len(t.flags)
	c := n + n/64
	if cap(t.flags) > c+n/32 {
		t.flags = append(make([]uint8, 0, c), t.flags...)
	}
	if cap(t.fat.r) > c+n/32 {
		t.fat.r = append(make([]box32, 0, c), t.fat.r...)
	}
}

// Remove deletes proxy id. Its pairs leave the set at the next
// [Tree.UpdatePairs]. Removing an id that is not alive panics.
func (t *Tree) Remove(id int32) {
	t.mustLive(id, "Remove")
	fat := t.fat.at(id)
	static := t.flags[id] & flagStatic
	t.treeOf(id).Delete(arr(fat.Min), arr(fat.Max), id)
	t.flags[id] &^= flagAlive | flagStatic
	t.live--
	t.extSum -= extent(fat)
	if t.live == 0 {
		t.extSum = 0
	}
	t.retune(static)
}

// Update tells the tree that proxy id now has tight box tight, having moved
// by disp since the last step. The proxy is re-inserted, with a fat box
// stretched along disp, only when tight leaves its fat box; then it queries
// the tree at the next [Tree.UpdatePairs].
func (t *Tree) Update(id int32, tight shape.AABB, disp shape.Vec2) {
	t.mustLive(id, "Update")
	// While no fat box was ever beyond float32's range, each is its
	// float32 rectangle.
	if t.fat.wide == nil && t.fat.r[id].contains(tight) {
		return
	}
	old, or := t.fat.at(id), t.fat.r[id]
	if old.ContainsAABB(tight) {
		return
	}
	t.seq++
	fat := fatten(tight, disp, t.margin, t.frames*stretchJitter(t.seq))
	fr := t.fat.set(id, fat)
	t.treeOf(id).replaceRect(arr(old.Min), arr(old.Max), or, id, arr(fat.Min), arr(fat.Max), fr)
	t.extSum += extent(fat) - extent(old)
	t.reinserted++
	t.markMoved(id)
}

// Touch makes proxy id query the tree at the next [Tree.UpdatePairs] and
// sends all the pairs it finds through the filter again, for when whatever
// the filter looks at (collision layers, say) changed.
func (t *Tree) Touch(id int32) {
	t.mustLive(id, "Touch")
	t.flags[id] |= flagRefilter
	t.markMoved(id)
}

func (t *Tree) markMoved(id int32) {
	if t.flags[id]&flagMoved == 0 {
		t.flags[id] |= flagMoved
		t.moved = append(t.moved, id)
	}
}

func (t *Tree) mustLive(id int32, op string) {
	if id < 0 || int(id) >= len(t.flags) || t.flags[id]&flagAlive == 0 {
		panic(fmt.Sprintf("broadphase: %s of unknown proxy %d", op, id))
	}
}

// UpdatePairs brings the pair set up to date. Every inserted, re-inserted or
// touched proxy queries the tree with its fat box; the pairs found that are
// new pass through the filter and join the set. Pairs with a removed proxy
// leave it, and so do pairs with a proxy that queried without finding the
// other: their fat boxes no longer overlap. Pairs of two proxies that did not
// query stay, since neither fat box changed.
//
// Afterwards the set holds exactly the pairs of live proxies, not both
// static, whose fat boxes overlap (boundaries included) and that the filter
// accepted.
func (t *Tree) UpdatePairs() {
	if t == nil {
		return
	}
	st := Stats{Reinserted: int(t.reinserted)}
	t.reinserted = 0
	t.tr.tighten()
	t.st.tighten()

	var sc *scratch
	if t.borrows() {
		sc = getScratch()
	}
	// Query. When both ends of a pair moved, only the lower id records it,
	// so each candidate is found once.
	if p := t.par; p != nil && len(t.moved) >= p.min {
		// The queries only read the tree, so they run in parallel, each
		// worker into its own buffer; sorting makes the order independent
		// of the split.
		for i := range p.wcand {
			p.wcand[i] = p.wcand[i][:0]
			p.wqueried[i] = 0
		}
		p.run(len(t.moved), p.queryRangeFn)
		t.cand = t.cand[:0]
		for i := range p.wcand {
			t.cand = append(t.cand, p.wcand[i]...)
			st.Queried += p.wqueried[i]
		}
	} else {
		if sc != nil {
			t.cand = sc.cand
		}
		t.cand, st.Queried = t.queryMoved(t.moved, t.cand[:0])
	}
	// The merge below needs an array with room for the pair set and every
	// candidate: the set's own, or the borrowed one. Made first, the
	// room for the candidates is their sort's scratch.
	need := len(t.pairs) + len(t.cand)
	var next []Pair
	if sc != nil {
		if cap(sc.next) < need {
			sc.next = make([]Pair, 0, need+need/4)
		}
		next = sc.next[:need]
	} else {
		if cap(t.pairs) < need {
			t.pairs = slices.Grow(t.pairs, need-len(t.pairs))
		}
		next = t.pairs[:need]
	}
	t.sortCandidates(pairKeys(next[len(next)-len(t.cand):]))
	st.Candidates = len(t.cand)

	// Merge the sorted candidates into the sorted pair set, in its own
	// array rather than a second one: the set moves up by len(cand)
	// first, so that the merged set, written from the start, never
	// overtakes the pairs still to be read (after reading i pairs and j
	// candidates, at most i+j are written, and pair i sits at
	// len(cand)+i). Most pairs of the set have two ends that neither
	// moved nor were removed, and no candidate (a candidate has an end
	// that queried): they stay. So do the candidates already in the set
	// whose ends need no new look by the filter. mergeRun does all that
	// with a flag test a pair, and returns here for each candidate the
	// filter must see. An old pair that fails the test and was not found
	// again leaves: an end was removed, or queried without finding the
	// other.
	old, cand, flags := t.pairs, t.cand, t.flags
	if sc == nil {
		copy(next[len(cand):], old)
		old = next[len(cand):]
	}
	n, i, j := 0, 0, 0
	for {
		if i, j, n = mergeRun(old, cand, next, flags, i, j, n); j == len(cand) {
			break
		}
		// Found by a query: both ends are alive and the fat boxes overlap.
		ck := cand[j]
		j++
		inOld := i < len(old) && old[i].Key() == ck
		if inOld {
			i++
		}
		p := pairFromKey(ck)
		if (inOld && (flags[p.A]|flags[p.B])&flagRefilter == 0) || t.filter == nil || t.filter(p.A, p.B) {
			next[n] = p
			n++
			if !inOld {
				st.NewPairs++
			}
		}
	}
	// Every old pair stayed or left; the pairs kept are n, new ones
	// included.
	st.EndedPairs = len(old) - (n - st.NewPairs)
	if sc != nil {
		// Back into the set's own array. When it must grow, it grows
		// to half as much again as the set or twice its size, whichever
		// is more, rounded up to the allocator's block: a room's pair
		// count climbs for a while after it is loaded, and each step up
		// would otherwise allocate.
		if cap(t.pairs) < n {
			t.pairs = append([]Pair(nil), make([]Pair, max(n+n/2, 2*cap(t.pairs)))...)[:0]
		}
		t.pairs = append(t.pairs[:0], next[:n]...)
		sc.cand, sc.next, t.cand = t.cand[:0], next[:0], nil
		putScratch(sc)
	} else {
		t.pairs = next[:n]
	}

	for _, id := range t.moved {
		t.flags[id] &^= flagMoved | flagRefilter
	}
	t.trimScratch(len(t.cand), len(t.moved))
	t.moved = t.moved[:0]
	st.Pairs = len(t.pairs)
	st.Proxies = int(t.live)
	t.stats = st
}

// mergeRun is UpdatePairs' inner loop: from old[i] and cand[j] on it
// copies to next, from n, the old pairs whose ends neither moved nor were
// removed and that no candidate matches, and the candidates that are old
// pairs with no end to refilter; it returns the new i, j and n when the
// candidates run out (old is then done too) or at a candidate it cannot
// decide, with i at the first old pair not below it. A function of its
// own, so that the loop's state lives in registers (inlined into
// UpdatePairs, the copy loop measured 30% more instructions: its many live
// values spill it to the stack).
//
//go:noinline
func mergeRun(old []Pair, cand []uint64, next []Pair, flags []uint8, i, j, n int) (int, int, int) {
	for ; j < len(cand); j++ {
		ck := cand[j]
		for ; i < len(old); i++ {
			p := old[i]
			if p.Key() >= ck {
				break
			}
			// Either end dead (no flagAlive) or moved, in one test.
			if ((flags[p.A]^flagAlive)|(flags[p.B]^flagAlive))&(flagAlive|flagMoved) == 0 {
				next[n] = p
				n++
			}
		}
		if i == len(old) || old[i].Key() != ck {
			return i, j, n // a new pair
		}
		if p := old[i]; (flags[p.A]|flags[p.B])&flagRefilter == 0 {
			next[n] = p
			n++
			i++
			continue
		}
		return i, j, n // an old pair to refilter
	}
	for ; i < len(old); i++ {
		p := old[i]
		if ((flags[p.A]^flagAlive)|(flags[p.B]^flagAlive))&(flagAlive|flagMoved) == 0 {
			next[n] = p
			n++
		}
	}
	return i, j, n
}

// queryMoved lets the live proxies among moved query the trees and appends
// the candidate keys they find to cand. It only reads the Tree.
func (t *Tree) queryMoved(moved []int32, cand []uint64) ([]uint64, int) {
	queried := 0
	never := false // the queries go through every box
	wide := t.tr.wide || t.st.wide
	for _, id := range moved {
		if t.flags[id]&flagAlive == 0 {
			continue
		}
		queried++
		fat, r := t.fat.at(id), t.fat.r[id]
		found := func(mn, mx rect32, j int32) bool {
			if j != id && j != sentinel && (j > id || t.flags[j]&flagMoved == 0) && (!wide || !clamped(mn, mx) || t.fat.at(j).Overlaps(fat)) {
				cand = append(cand, pairKey(id, j))
			}
			return true
		}
		t.tr.searchRect(arr(fat.Min), arr(fat.Max), r, found, &never)
		if t.flags[id]&flagStatic == 0 {
			t.st.searchRect(arr(fat.Min), arr(fat.Max), r, found, &never)
		}
	}
	return cand, queried
}

// queryRange is the parallel unit of UpdatePairs: worker w queries the
// moved proxies lo to hi into its own buffer.
func (t *Tree) queryRange(w, lo, hi int) {
	p := t.par
	var q int
	p.wcand[w], q = t.queryMoved(t.moved[lo:hi], p.wcand[w])
	p.wqueried[w] += q
}

// SetParallel lets UpdatePairs spread the queries of the moved proxies over
// goroutines once at least minMoved proxies moved. par(n, fn) must call
// fn(worker, lo, hi) for disjoint ranges [lo, hi) covering [0, n), with
// worker indexes below workers, possibly at the same time for different
// workers (a worker may get several ranges, one after another), and return
// when all calls are done. The pairs found are the same as without it. nil turns
// it off.
func (t *Tree) SetParallel(workers, minMoved int, par func(n int, fn func(worker, lo, hi int))) {
	if par == nil {
		t.par = nil
		return
	}
	t.par = &parallel{run: par, min: minMoved, wcand: make([][]uint64, workers), wqueried: make([]int, workers)}
	t.par.queryRangeFn = t.queryRange // one method value, not one per step
}

// Scratch trimming. The first UpdatePairs after a load queries every
// proxy, and its candidates (every pair) size the candidate buffers, which
// would keep that size while a steady frame finds a fraction of it: a
// hundred-thousand-body swarm then held about 25 bytes a body of scratch it
// never used. A tree of trimMin proxies or more whose candidate or moved
// buffer has held more than four times what it needed for trimFrames
// calls in a row cuts it to one and a half times what the last call
// needed, plus a sixteenth of the proxies. A steady world is left with
// room to spare, so it does not allocate again, and a world that bursts
// now and then (every body teleported) reallocates at most once in
// trimFrames frames. Small
// trees are left alone: their scratch is small, and their counts vary too
// much from frame to frame for a cut to last.
const (
	trimMin    = 4096
	trimFrames = 32
)

// trimScratch applies the rule above after an UpdatePairs that found cand
// candidates for moved proxies.
func (t *Tree) trimScratch(cand, moved int) {
	slack := int(t.live) / 8
	big := func(c, n int) bool { return c > 4*n+slack }
	if t.live < trimMin || (!big(cap(t.cand), cand) && !big(cap(t.moved), moved)) {
		t.oversized = 0
		return
	}
	if t.oversized++; t.oversized < trimFrames {
		return
	}
	t.oversized = 0
	if big(cap(t.cand), cand) {
		t.cand = make([]uint64, 0, cand+cand/2+slack/2)
		if p := t.par; p != nil {
			for i := range p.wcand {
				p.wcand[i] = make([]uint64, 0, cap(t.cand)/len(p.wcand))
			}
		}
	}
	if big(cap(t.moved), moved) {
		t.moved = make([]int32, 0, moved+moved/2+slack/2)
	}
}

// sortCandidates sorts t.cand. A key holds two ids below len(t.flags), so
// only the low bytes of each half vary: an LSD radix sort over those bytes
// (4 passes below 65536 proxies; sortWide from there) beats a comparison
// sort on the thousands of candidates of a busy frame.
func (t *Tree) sortCandidates(tmp []uint64) {
	n := len(t.cand)
	nb := (bits.Len(uint(len(t.flags))) + 7) / 8
	if n < 256 || tmp == nil {
		slices.Sort(t.cand)
		return
	}
	if nb > 2 {
		t.sortWide(tmp)
		return
	}
	src, dst := t.cand, tmp
	shifts := [4]uint{0, 8, 32, 40}
	if nb == 1 {
		shifts = [4]uint{0, 32}
	}
	for _, shift := range shifts[:2*nb] {
		var count [256]int
		for _, k := range src {
			count[byte(k>>shift)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			b := byte(k >> shift)
			dst[count[b]] = k
			count[b]++
		}
		src, dst = dst, src
	}
	// An even number of passes leaves the result in t.cand.
}

// sortWide sorts t.cand when the ids need more than 16 bits (from 65536
// proxies). A key holds two ids below len(t.flags) <= 2^l, so it orders
// like the 2l-bit number a<<l | b: the keys are packed so, sorted by an LSD
// radix sort in passes of at most 11 bits (four at a hundred thousand
// proxies, where a comparison sort of the tens of thousands of candidates
// cost twice as much), and unpacked. One read of the keys counts the
// digits of every pass.
func (t *Tree) sortWide(tmp []uint64) {
	l := uint(bits.Len(uint(len(t.flags)))) & 63
	passes := (2*l + 10) / 11
	if passes > 4 {
		slices.Sort(t.cand)
		return
	}
	width := (2*l + passes - 1) / passes & 63
	mask := uint64(1)<<width - 1 // below radixSize
	if t.hist == nil {
		t.hist = new([4][radixSize]int)
	}
	hist := t.hist
	lo := uint64(1)<<l - 1
	w2, w3 := 2*width&63, 3*width&63
	if passes < 4 {
		// The digits beyond 2l bits are zero: h[3] is neither counted
		// nor read.
		clear(hist[0][:mask+1])
		clear(hist[1][:mask+1])
		clear(hist[2][:mask+1])
		for i, k := range t.cand {
			c := k>>32<<l | k&lo
			t.cand[i] = c
			hist[0][c&mask&(radixSize-1)]++
			hist[1][c>>width&mask&(radixSize-1)]++
			hist[2][c>>w2&mask&(radixSize-1)]++
		}
	} else {
		for i := range hist {
			clear(hist[i][:mask+1])
		}
		for i, k := range t.cand {
			c := k>>32<<l | k&lo
			t.cand[i] = c
			hist[0][c&mask&(radixSize-1)]++
			hist[1][c>>width&mask&(radixSize-1)]++
			hist[2][c>>w2&mask&(radixSize-1)]++
			hist[3][c>>w3&mask&(radixSize-1)]++
		}
	}
	src, dst := t.cand, tmp
	for p := range passes {
		h := &hist[p&3]
		sum := 0
		for i, c := range h[:mask+1] {
			h[i] = sum
			sum += c
		}
		shift := p * width & 63
		for _, c := range src {
			d := c >> shift & mask & (radixSize - 1)
			dst[h[d]] = c
			h[d]++
		}
		src, dst = dst, src
	}
	// The sorted keys are in src: t.cand after an even number of passes,
	// the scratch after an odd one, and go back to t.cand unpacked.
	for i, c := range src {
		t.cand[i] = c>>l<<32 | c&lo
	}
}

// radixSize is the number of digit values of a pass of sortCandidates.
const radixSize = 1 << 11

// Pairs returns the pair set, sorted by [Pair.Key]. The slice belongs to the
// tree and stays valid until the next mutation.
func (t *Tree) Pairs() []Pair {
	if t == nil {
		return nil
	}
	return t.pairs
}

// FatAABB returns the fat box of proxy id, the box the tree indexes it by.
func (t *Tree) FatAABB(id int32) shape.AABB { return t.fat.at(id) }

// Alive reports whether proxy id is alive, and if so whether it is static.
func (t *Tree) Alive(id int32) (alive, static bool) {
	if id < 0 || int(id) >= len(t.flags) {
		return false, false
	}
	f := t.flags[id]
	return f&flagAlive != 0, f&flagStatic != 0
}

// IDs returns one more than the largest proxy id the tree has held: every
// live id is below it.
func (t *Tree) IDs() int { return len(t.flags) }

// Len returns the number of live proxies.
func (t *Tree) Len() int {
	if t == nil {
		return 0
	}
	return int(t.live)
}

// Stats returns the counters of the last [Tree.UpdatePairs].
func (t *Tree) Stats() Stats {
	if t == nil {
		return Stats{}
	}
	return t.stats
}

// fatten returns the fat box of a proxy with tight box tight that moved by
// disp in the last step: tight ∪ (tight + frames·disp), grown by margin,
// with the stretch bounded by stretchCap, and rounded outward to float32
// values.
func fatten(tight shape.AABB, disp shape.Vec2, margin, frames float64) shape.AABB {
	fat := tight
	if frames > 0 && disp.IsFinite() {
		lim := stretchCap * max(max(tight.Max.X-tight.Min.X, tight.Max.Y-tight.Min.Y), margin)
		// Explicit conversions: no fused multiply-add on arm64, so fat
		// boxes are the same on every architecture.
		dx := clamp(float64(disp.X*frames), lim)
		dy := clamp(float64(disp.Y*frames), lim)
		if dx < 0 {
			fat.Min.X += dx
		} else {
			fat.Max.X += dx
		}
		if dy < 0 {
			fat.Min.Y += dy
		} else {
			fat.Max.Y += dy
		}
	}
	return roundOut(fat.Expand(margin))
}

// roundOut returns b rounded outward to float32 values (see rect32.go), so
// that the R-trees hold fat boxes exactly.
func roundOut(b shape.AABB) shape.AABB {
	return shape.AABB{
		Min: shape.Vec2{X: down32(b.Min.X), Y: down32(b.Min.Y)},
		Max: shape.Vec2{X: up32(b.Max.X), Y: up32(b.Max.Y)},
	}
}

// stretchJitter returns a factor in [0.75, 1.25) that varies the motion
// stretch from one re-insert to the next; seq counts re-inserts. Bodies
// created together all leave their first, unstretched fat box in the same
// frame. With a fixed stretch each body would then leave its box every
// floor(MotionFrames + Margin/speed) + 1 frames, a whole number, so the
// bodies would stay in phase forever and the frame time would come in
// spikes wherever those periods meet. Varying the stretch by a
// low-discrepancy sequence (multiples of the golden ratio, mod 1) makes each
// body's phase drift, and the waves die out within a few periods, for about
// 2% more re-inserts on average.
func stretchJitter(seq uint32) float64 {
	const phi = 0.6180339887498949
	f := float64(float64(seq) * phi)
	return 0.75 + float64(0.5*(f-math.Floor(f)))
}

// clamp returns v limited to [-lim, lim].
func clamp(v, lim float64) float64 {
	if v > lim {
		return lim
	}
	if v < -lim {
		return -lim
	}
	return v
}

// extent returns the width plus the height of b.
func extent(b shape.AABB) float64 { return (b.Max.X - b.Min.X) + (b.Max.Y - b.Min.Y) }

// arr returns v as the rtree's point type.
func arr(v shape.Vec2) [2]float64 { return [2]float64{v.X, v.Y} }

// Bounds returns the box around every proxy's fat box, or an empty box when
// the tree is empty.
func (t *Tree) Bounds() shape.AABB {
	if t == nil {
		return shape.EmptyAABB()
	}
	if t.live == 0 {
		return shape.EmptyAABB()
	}
	return t.bounds()
}

// bounds returns the box around both trees.
func (t *Tree) bounds() shape.AABB {
	b := shape.EmptyAABB()
	if t.tr.Len() > 0 {
		mn, mx := t.tr.Bounds()
		b = b.Union(shape.AABB{Min: vec(mn), Max: vec(mx)})
	}
	if t.st.Len() > 0 {
		mn, mx := t.st.Bounds()
		b = b.Union(shape.AABB{Min: vec(mn), Max: vec(mx)})
	}
	return b
}

// Clone returns a copy of the tree that shares nothing mutable with it: the
// R-trees are copied on write (tidwall/rtree's Copy: nodes are shared until
// either tree changes them), the rest is copied. The filter and the
// parallel hook are not copied; set them on the clone. Clone writes to t
// (the R-trees' copy-on-write marks), so it needs exclusive access.
func (t *Tree) Clone() *Tree {
	if t == nil {
		return nil
	}
	c := &Tree{
		margin: t.margin, frames: t.frames,
		fat: fatBoxes{r: slices.Clone(t.fat.r), wide: maps.Clone(t.fat.wide)}, flags: slices.Clone(t.flags), live: t.live, extSum: t.extSum,
		moved: slices.Clone(t.moved), pairs: slices.Clone(t.pairs),
		reinserted: t.reinserted, seq: t.seq, stats: t.stats,
	}
	c.tr, c.st = t.tr.Copy(), t.st.Copy()
	if c.tr.src != nil {
		c.tr.src, c.st.src = c, c
	}
	c.trAt, c.stAt = t.trAt, t.stAt
	return c
}

// pairKeys returns the memory of p as keys, for the candidate sort's
// scratch (a Pair is 8 bytes, as a key is), or nil if p is not 8-byte
// aligned (an array of a few pairs may come from the allocator's tiny
// blocks, aligned to 4), when the sort does without.
func pairKeys(p []Pair) []uint64 {
	if len(p) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(p)))%8 != 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(p))), len(p))
}
