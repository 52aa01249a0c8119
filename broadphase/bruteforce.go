package broadphase

import (
	"fmt"

	"github.com/collide-go/collide/shape"
)

// index is what both [Tree] and [BruteForce] offer, so that tests drive
// them the same way. The engine uses *Tree directly.
type index interface {
	SetFilter(f func(a, b int32) bool)
	Insert(id int32, tight shape.AABB)
	InsertStatic(id int32, tight shape.AABB)
	Remove(id int32)
	Update(id int32, tight shape.AABB, disp shape.Vec2)
	Touch(id int32)
	UpdatePairs()
	Pairs() []Pair
	FatAABB(id int32) shape.AABB
	Len() int
	Stats() Stats
	Query(box shape.AABB, fn func(id int32) bool)
	RayCast(origin, dir shape.Vec2, maxDist float64, fn func(id int32, maxDist float64) float64)
}

var (
	_ index = (*Tree)(nil)
	_ index = (*BruteForce)(nil)
)

// BruteForce is the reference broad phase: the same fat boxes as [Tree],
// kept in plain slices, with every pair and every query found by scanning
// all proxies. It is O(n²) per [BruteForce.UpdatePairs] and allocates in
// its queries; it exists to check Tree against.
type BruteForce struct {
	margin, frames float64
	filter         func(a, b int32) bool
	fat, tight     []shape.AABB
	alive, static  []bool
	live           int
	pairs          []Pair
	reinserted     int
	seq            uint32
	queried        int
	stats          Stats
}

// NewBruteForce returns an empty brute-force index with the fat-box rules
// of cfg.
func NewBruteForce(cfg Config) *BruteForce {
	b := &BruteForce{}
	b.margin, b.frames = cfg.resolve()
	return b
}

// SetFilter sets the pair filter; unlike [Tree.SetFilter], it is called
// for every overlapping pair at every [BruteForce.UpdatePairs].
func (b *BruteForce) SetFilter(f func(a, b int32) bool) { b.filter = f }

// Insert adds proxy id with tight box tight, like [Tree.Insert].
func (b *BruteForce) Insert(id int32, tight shape.AABB) { b.insert(id, tight, false) }

// InsertStatic adds a static proxy, like [Tree.InsertStatic]: it is never
// paired with another static proxy.
func (b *BruteForce) InsertStatic(id int32, tight shape.AABB) { b.insert(id, tight, true) }

func (b *BruteForce) insert(id int32, tight shape.AABB, static bool) {
	for int(id) >= len(b.alive) {
		b.fat = append(b.fat, shape.AABB{})
		b.tight = append(b.tight, shape.AABB{})
		b.alive = append(b.alive, false)
		b.static = append(b.static, false)
	}
	if b.alive[id] {
		panic(fmt.Sprintf("broadphase: Insert of live proxy %d", id))
	}
	b.alive[id] = true
	b.static[id] = static
	b.live++
	b.tight[id] = tight
	b.fat[id] = fatten(tight, shape.Vec2{}, b.margin, 0)
	b.reinserted++
	b.queried++
}

// Remove deletes proxy id, like [Tree.Remove].
func (b *BruteForce) Remove(id int32) {
	b.mustLive(id, "Remove")
	b.alive[id] = false
	b.live--
}

// Update moves proxy id, like [Tree.Update].
func (b *BruteForce) Update(id int32, tight shape.AABB, disp shape.Vec2) {
	b.mustLive(id, "Update")
	b.tight[id] = tight
	if !b.fat[id].ContainsAABB(tight) {
		b.seq++
		b.fat[id] = fatten(tight, disp, b.margin, b.frames*stretchJitter(b.seq))
		b.reinserted++
		b.queried++
	}
}

// Touch does nothing but count: BruteForce looks at every pair anyway.
func (b *BruteForce) Touch(id int32) {
	b.mustLive(id, "Touch")
	b.queried++
}

func (b *BruteForce) mustLive(id int32, op string) {
	if id < 0 || int(id) >= len(b.alive) || !b.alive[id] {
		panic(fmt.Sprintf("broadphase: %s of unknown proxy %d", op, id))
	}
}

// UpdatePairs recomputes the pair set from scratch: every pair of live
// proxies whose fat boxes overlap and that the filter accepts.
func (b *BruteForce) UpdatePairs() {
	prev := make(map[uint64]bool, len(b.pairs))
	for _, p := range b.pairs {
		prev[p.Key()] = true
	}
	st := Stats{Reinserted: b.reinserted, Queried: b.queried, Proxies: b.live}
	b.reinserted, b.queried = 0, 0
	b.pairs = b.pairs[:0]
	for i := range b.alive {
		if !b.alive[i] {
			continue
		}
		for j := i + 1; j < len(b.alive); j++ {
			if !b.alive[j] || (b.static[i] && b.static[j]) || !b.fat[i].Overlaps(b.fat[j]) {
				continue
			}
			st.Candidates++
			if b.filter == nil || b.filter(int32(i), int32(j)) {
				p := Pair{A: int32(i), B: int32(j)}
				b.pairs = append(b.pairs, p)
				if !prev[p.Key()] {
					st.NewPairs++
				}
				delete(prev, p.Key())
			}
		}
	}
	st.EndedPairs = len(prev)
	st.Pairs = len(b.pairs)
	b.stats = st
}

// Pairs returns the pair set sorted by [Pair.Key], valid until the next
// mutation.
func (b *BruteForce) Pairs() []Pair { return b.pairs }

// FatAABB returns the fat box of proxy id.
func (b *BruteForce) FatAABB(id int32) shape.AABB { return b.fat[id] }

// Len returns the number of live proxies.
func (b *BruteForce) Len() int { return b.live }

// Stats returns the counters of the last [BruteForce.UpdatePairs].
func (b *BruteForce) Stats() Stats { return b.stats }

// Query calls fn with every proxy whose fat box overlaps box, in id order,
// until fn returns false.
func (b *BruteForce) Query(box shape.AABB, fn func(id int32) bool) {
	for i, ok := range b.alive {
		if ok && b.fat[i].Overlaps(box) && !fn(int32(i)) {
			return
		}
	}
}

// RayCast visits the proxies whose fat box the segment enters in exact
// order of entry distance, with the clipping rules of [Tree.RayCast]
// (and its allowance for an entry rounded past maxDist, rayReach).
func (b *BruteForce) RayCast(origin, dir shape.Vec2, maxDist float64, fn func(id int32, maxDist float64) float64) {
	if !(maxDist >= 0) || !origin.IsFinite() || !dir.IsFinite() || dir.LenSq() == 0 {
		return
	}
	var hits []rayCand
	for i, ok := range b.alive {
		if !ok {
			continue
		}
		if te, _, hit := slab(b.fat[i], origin, dir, 0, rayReach(maxDist)); hit {
			hits = append(hits, rayCand{t: te, id: int32(i)})
		}
	}
	sortRayCands(hits)
	for _, h := range hits {
		if h.t > rayReach(maxDist) {
			return
		}
		m := fn(h.id, maxDist)
		if !(m >= 0) {
			return
		}
		maxDist = min(maxDist, m)
	}
}
