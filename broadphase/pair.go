package broadphase

// Pair is a candidate pair of proxies, with A < B.
type Pair struct {
	A, B int32
}

// Key returns the pair's sort key, uint64(A)<<32 | uint64(B). Pair sets are
// sorted by it.
func (p Pair) Key() uint64 { return uint64(p.A)<<32 | uint64(p.B) }

// pairKey returns the key of the pair {a, b} in either order.
func pairKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

// pairFromKey is the inverse of [Pair.Key].
func pairFromKey(k uint64) Pair { return Pair{A: int32(k >> 32), B: int32(uint32(k))} }

// Stats counts the work of the last [Tree.UpdatePairs] (and of the mutations
// since the one before it).
type Stats struct {
	// Proxies is the number of live proxies.
	Proxies int
	// Reinserted is the number of proxies inserted or re-inserted into the
	// tree (their tight box left the fat box) since the previous UpdatePairs.
	Reinserted int
	// Queried is the number of proxies that queried the tree: the
	// re-inserted, inserted and touched ones still alive.
	Queried int
	// Candidates is the number of overlapping fat-box pairs those queries
	// found, before the filter.
	Candidates int
	// NewPairs is the number of pairs that entered the pair set.
	NewPairs int
	// EndedPairs is the number of pairs that left it.
	EndedPairs int
	// Pairs is the size of the pair set afterwards.
	Pairs int
}
