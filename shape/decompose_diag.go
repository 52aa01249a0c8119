package shape

import "math"

// Budgets of the steps diagonalPartition may take (edge tests for its
// diagonals, then moves of its search), past which it gives up: where
// Bayazit's cuts failed, and a sixteenth of that where it goes first (see
// coarseGrain). On zigzag outlines of 60 to 1,000 vertices, the worst
// case here, the search ended within 79 ms and 4 ms.
const (
	diagBudget      = 1 << 24
	diagFirstBudget = 1 << 20
)

// pieceBound returns the most pieces Decompose may give for the clean
// counter-clockwise ring: r + 1 + ⌈n/14⌉ for its n vertices, r of them
// reflex (exactly).
func (d *decomposer) pieceBound(ring []int32) int {
	n, r := len(ring), 0
	for k := range n {
		if orientSign(d.pts[ring[pred(k, n)]], d.pts[ring[k]], d.pts[ring[succ(k, n)]]) < 0 {
			r++
		}
	}
	return r + 1 + (n+13)/14
}

// diagonalPartition returns the convex rings of a partition of the clean
// counter-clockwise ring into the fewest convex pieces whose edges are the
// ring's edges and diagonals between its vertices, with no new point, or
// false if there is no such partition (every one needs a turn NewPolygon
// finds straight) or finding it would take more than budget steps.
//
// It is Decompose's fallback for outlines only a few rounding steps of
// their coordinates across, where the Steiner points of Bayazit's cuts
// cannot be placed: a point rounded to the grid of such coordinates may
// lie outside the wedge it was meant to mend. Every predicate here is
// exact, and every piece vertex is a vertex of the outline, so the
// pieces' union is the outline exactly.
//
// The search is the classic dynamic programme over chords. For positions
// i < j joined by an edge or a diagonal, best(i, j) is the fewest pieces
// of the sub-polygon i, i+1, …, j closed by the chord j→i. The piece that
// holds the chord is a convex chain i = u₀ < u₁ < … < u_k = j of chords,
// each edge or diagonal, and the rest of the sub-polygon is the
// sub-polygons beyond those chords, so best(i, j) is 1 plus the least sum
// of best over such a chain's chords, found by a walk over the chain's
// last two vertices with left turns only. Only diagonals with a reflex
// end are used (Keil's observation): two convex pieces that share a
// diagonal between convex vertices of the outline make one convex piece.
func (d *decomposer) diagonalPartition(ring []int32, budget int) ([][]int32, bool) {
	n := len(ring)
	if n < 3 {
		return nil, false
	}
	p := make([]Vec2, n)
	for k, i := range ring {
		p[k] = d.pts[i]
	}
	reflex := make([]bool, n)
	r := 0
	for k := range n {
		if orientSign(p[pred(k, n)], p[k], p[succ(k, n)]) < 0 {
			reflex[k] = true
			r++
		}
	}
	// Each diagonal tested costs up to n edge tests.
	work := r * n * n
	if work > budget {
		return nil, false
	}
	// chord[i*n+j], i < j: an edge of the ring or a diagonal inside it
	// with a reflex end; next[b] lists the c > b with a chord (b, c).
	chord := make([]bool, n*n)
	next := make([][]int32, n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			ok := j == i+1 || (i == 0 && j == n-1) ||
				(reflex[i] || reflex[j]) && !d.dup(ring[i], ring[j]) && isDiagonal(p, i, j)
			if ok {
				chord[i*n+j] = true
				next[i] = append(next[i], int32(j))
			}
		}
	}
	// turn reports whether a→b→c turns left, strictly and by more than
	// NewPolygon's straightness test.
	turn := func(a, b, c int) bool {
		if orientSign(p[a], p[b], p[c]) <= 0 {
			return false
		}
		flat, _ := d.flat(ring[a], ring[b], ring[c])
		return !flat
	}
	const none = math.MaxInt32
	best := make([]int32, n*n) // best[i*n+j]; none for no partition
	for i := range best {
		best[i] = none
	}
	for i := 0; i+1 < n; i++ {
		best[i*n+i+1] = 0
	}
	walk := make([]int32, n*n) // walk[a*n+b]: least cost of a chain ending a→b
	from := make([]int32, n*n) // the vertex before a on that chain, or -1
	// chain runs the walk for the chord (i, j) and returns its least cost
	// and the last two vertices before j of the best chain (from leads
	// back from them to i), or false past the budget.
	chain := func(i, j int) (total int32, la, lb int, ok bool) {
		for a := i; a < j; a++ {
			for _, b := range next[a] {
				if int(b) < j {
					walk[a*n+int(b)] = none
				}
			}
		}
		for _, u := range next[i] {
			if u := int(u); u < j && best[i*n+u] != none && turn(j, i, u) {
				walk[i*n+u], from[i*n+u] = best[i*n+u], -1
			}
		}
		total, la, lb = none, -1, -1
		for b := i + 1; b < j; b++ {
			for a := i; a < b; a++ {
				if !chord[a*n+b] {
					continue
				}
				w := walk[a*n+b]
				if w == none {
					continue
				}
				if work += len(next[b]); work > budget {
					return 0, 0, 0, false
				}
				for _, c := range next[b] {
					c := int(c)
					if c > j {
						break
					}
					if best[b*n+c] == none || !turn(a, b, c) {
						continue
					}
					s := w + best[b*n+c]
					if c < j {
						if s < walk[b*n+c] {
							walk[b*n+c], from[b*n+c] = s, int32(a)
						}
					} else if turn(b, j, i) && s+1 < total {
						total, la, lb = s+1, a, b
					}
				}
			}
		}
		return total, la, lb, true
	}
	for span := 2; span < n; span++ {
		for i := 0; i+span < n; i++ {
			if j := i + span; chord[i*n+j] {
				var ok bool
				if best[i*n+j], _, _, ok = chain(i, j); !ok {
					return nil, false
				}
			}
		}
	}
	if best[n-1] == none {
		return nil, false
	}
	// Trace the pieces, a chord at a time. Each walk again costs less
	// than the search did.
	var rings [][]int32
	var seq []int
	todo := [][2]int{{0, n - 1}}
	for len(todo) > 0 {
		i, j := todo[len(todo)-1][0], todo[len(todo)-1][1]
		todo = todo[:len(todo)-1]
		if j == i+1 {
			continue
		}
		work = 0
		_, a, b, _ := chain(i, j)
		seq = append(seq[:0], j, b)
		for {
			seq = append(seq, a)
			if a == i {
				break
			}
			a, b = int(from[a*n+b]), a
		}
		rp := make([]int32, len(seq))
		for t := range seq {
			rp[t] = ring[seq[len(seq)-1-t]]
		}
		rings = append(rings, rp)
		for t := len(seq) - 1; t > 0; t-- {
			todo = append(todo, [2]int{seq[t], seq[t-1]})
		}
	}
	return rings, true
}

// isDiagonal reports whether the segment between positions i and j of the
// ring (not neighbours) lies inside it: it leaves each end strictly inside
// the angle there, and touches no edge that does not end at i or j.
func isDiagonal(p []Vec2, i, j int) bool {
	n := len(p)
	if !inCone(p, i, j) || !inCone(p, j, i) {
		return false
	}
	for k := range n {
		kn := succ(k, n)
		if k == i || kn == i || k == j || kn == j {
			continue
		}
		if segmentsTouch(p[i], p[j], p[k], p[kn]) {
			return false
		}
	}
	return true
}

// inCone reports whether the segment from position i to position j of the
// counter-clockwise ring p leaves i strictly inside its interior angle.
func inCone(p []Vec2, i, j int) bool {
	n := len(p)
	a, v, b, w := p[pred(i, n)], p[i], p[succ(i, n)], p[j]
	if orientSign(v, b, a) >= 0 { // convex at i
		return orientSign(v, w, a) > 0 && orientSign(w, v, b) > 0
	}
	return !(orientSign(v, w, b) >= 0 && orientSign(w, v, a) >= 0)
}
