package broadphase

// A flat tree (a room of a few hundred bodies, see flatMax) borrows the
// working buffers of UpdatePairs, its candidates and the merged pair set,
// from a process-wide free list for the call, instead of keeping them
// between calls: a server stepping a thousand rooms on a few goroutines
// then holds a few sets of them, not a thousand (about 2.5 KB a
// 100-body swarm room). The merged set is copied back into the tree's own
// array, which grows only when the set outgrows it (see UpdatePairs).
// Larger trees keep their own buffers: their copy would cost more, and
// they are few.
type scratch struct {
	cand []uint64
	next []Pair
}

// scratchFree holds the scratch not lent out. Its room bounds how many it
// keeps: more than that many flat trees updating at once (far more than
// any machine has cores) would make, and drop, scratch of their own.
var scratchFree = make(chan *scratch, 256)

// getScratch takes a scratch from the free list, or makes one.
func getScratch() *scratch {
	select {
	case s := <-scratchFree:
		return s
	default:
		return new(scratch)
	}
}

// putScratch gives s back to the free list.
func putScratch(s *scratch) {
	select {
	case scratchFree <- s:
	default:
	}
}

// borrows reports whether UpdatePairs borrows its buffers: while the tree
// is flat and its queries run on the caller's goroutine.
func (t *Tree) borrows() bool { return t.tr.src != nil && t.par == nil }
