package shape

import (
	"math"
	"slices"
)

// Limits of steinerPartition's search: the outlines it takes (vertices),
// the candidate points it takes from each region and in all, the columns
// of floats it samples in a region, and the work of the parts it splits
// by diagonals (the sum of their vertex counts cubed).
const (
	steinerMaxVertices = 64
	steinerPerRegion   = 8
	steinerPoints      = 1024
	steinerColumns     = 256
	steinerWork        = 1 << 24
)

// steinerPartition returns the convex rings of a partition of the clean
// counter-clockwise ring into fewer than limit pieces that adds one new
// point s inside it, or false if it finds none. It stops at the first
// partition of goal pieces or fewer.
//
// It is Decompose's last resort for outlines a few rounding steps of their
// coordinates across, where Bayazit's Steiner points on edges have no
// place on the grid of floats and the fewest pieces by diagonals are too
// many. A point inside, where floats are plenty, can still mend reflex
// vertices: s is joined by chords to three or more vertices it sees, every
// angle at s under a half turn, and each part between two chords is split
// by diagonalPartition. Every predicate is exact and s is a float, so the
// pieces' union is the outline exactly.
//
// Candidates for s are every float inside the outline where its box holds
// at most steinerPoints floats, else floats inside the wedge of one reflex
// vertex, or of two (where one point can mend both), sampled along the
// region's longer side. For each, the chords are the best cycle over the
// vertices s sees, found by a walk in ring order. The search stops after
// steinerPoints candidates or steinerWork work in all.
func (d *decomposer) steinerPartition(ring []int32, limit, goal int) ([][]int32, bool) {
	n := len(ring)
	if n < 4 || n > steinerMaxVertices {
		return nil, false
	}
	p := make([]Vec2, n)
	for k, i := range ring {
		p[k] = d.pts[i]
	}
	var refl []int
	for k := range n {
		if orientSign(p[pred(k, n)], p[k], p[succ(k, n)]) < 0 {
			refl = append(refl, k)
		}
	}
	if len(refl) == 0 {
		return nil, false
	}
	box := AABBFromPoints(p...)
	si := int32(len(d.pts))
	d.pts = append(d.pts, Vec2{})
	var best [][]int32
	var win Vec2 // the new point of best
	seen := map[Vec2]bool{}
	var lines [][2]Vec2
	try := func(s Vec2) bool { // reports whether the search is over
		if seen[s] || !strictlyInside(p, s) {
			return false
		}
		seen[s] = true
		d.pts[si] = s
		if rings, ok := d.starPartition(ring, p, si, limit); ok {
			best, limit, win = rings, countPieces(rings), s
		}
		d.stTried++
		return limit <= goal || d.stTried >= steinerPoints || d.stWork >= steinerWork
	}
	if nx, ny := floatsIn(box.Min.X, box.Max.X), floatsIn(box.Min.Y, box.Max.Y); nx*ny <= steinerPoints {
		// Few enough floats in the box to try every one inside.
	every:
		for x := box.Min.X; x <= box.Max.X; x = math.Nextafter(x, math.Inf(1)) {
			for y := box.Min.Y; y <= box.Max.Y; y = math.Nextafter(y, math.Inf(1)) {
				if try(Vec2{x, y}) {
					break every
				}
			}
		}
	} else {
	search:
		for x, v := range refl {
			for _, w := range refl[x:] {
				lines = append(lines[:0],
					[2]Vec2{p[pred(v, n)], p[v]}, [2]Vec2{p[v], p[succ(v, n)]})
				if w != v {
					lines = append(lines, [2]Vec2{p[pred(w, n)], p[w]}, [2]Vec2{p[w], p[succ(w, n)]})
				}
				for _, s := range latticeIn(lines, box, steinerPerRegion) {
					if try(s) {
						break search
					}
				}
			}
		}
	}
	if best == nil {
		d.pts = d.pts[:si]
		return nil, false
	}
	d.pts[si] = win // the search left another candidate there
	return best, true
}

// countPieces returns how many pieces output makes of the rings: a ring
// over MaxPolygonVertices becomes a fan of several.
func countPieces(rings [][]int32) int {
	const per = MaxPolygonVertices - 2
	c := 0
	for _, r := range rings {
		if len(r) <= MaxPolygonVertices {
			c++
		} else {
			c += (len(r) - 2 + per - 1) / per
		}
	}
	return c
}

// starPartition splits the ring (points p) with chords from the new point
// d.pts[si], strictly inside it, into parts split by diagonals, with the
// fewest pieces in all, if fewer than limit. The work of the parts it
// splits (their vertex counts cubed) adds to d.stWork; past steinerWork it
// splits no more.
func (d *decomposer) starPartition(ring []int32, p []Vec2, si int32, limit int) ([][]int32, bool) {
	n := len(ring)
	s := d.pts[si]
	var vis []int // positions s sees, in ring order
	for k := range n {
		if chordClear(p, s, k) {
			vis = append(vis, k)
		}
	}
	m := len(vis)
	if m < 3 {
		return nil, false
	}
	const none = math.MaxInt32
	cost := make([]int32, m*m) // cost[a*m+b]: pieces of the part from vis[a] forward to vis[b], then s
	rings := make([][][]int32, m*m)
	for i := range cost {
		cost[i] = -1
	}
	var tmp []int32
	part := func(a, b int) int32 {
		if c := cost[a*m+b]; c >= 0 {
			return c
		}
		cost[a*m+b] = none
		ja, jb := vis[a], vis[b]
		if orientSign(p[jb], s, p[ja]) <= 0 {
			return none
		}
		tmp = tmp[:0]
		for k := ja; ; k = succ(k, n) {
			tmp = append(tmp, ring[k])
			if k == jb {
				break
			}
		}
		tmp = append(tmp, si)
		if f, _ := d.flat(tmp[len(tmp)-2], si, tmp[0]); f {
			return none
		}
		d.folded = false
		r, _ := d.clean(slices.Clone(tmp), false, 0, len(tmp)-2)
		if d.folded || len(r) < 3 || !slices.Contains(r, si) {
			return none
		}
		if d.stWork += len(r) * len(r) * len(r); d.stWork > steinerWork {
			return none
		}
		rs, ok := d.diagonalPartition(r, diagBudget>>4)
		if !ok {
			return none
		}
		cost[a*m+b], rings[a*m+b] = int32(countPieces(rs)), rs
		return cost[a*m+b]
	}
	// The best cycle through vis in ring order: for each first chord a,
	// the cheapest chain a < … < z forward, closed by the part z → a.
	bestTotal, bestA := int32(min(limit, none)), -1
	var bestFrom []int32
	f := make([]int32, m)
	from := make([]int32, m)
	for a := range m {
		for c := range f {
			f[c] = none
		}
		f[a] = 0
		for b := a; b < m; b++ {
			if f[b] >= bestTotal {
				continue
			}
			for c := b + 1; c < m; c++ {
				if pc := part(b, c); pc != none && f[b]+pc < f[c] {
					f[c], from[c] = f[b]+pc, int32(b)
				}
			}
			if b != a {
				if pc := part(b, a); pc != none && f[b]+pc < bestTotal {
					bestTotal, bestA = f[b]+pc, a
					bestFrom = append(append(bestFrom[:0], from...), int32(b))
				}
			}
		}
	}
	if bestA < 0 {
		return nil, false
	}
	z := int(bestFrom[m])
	out := append([][]int32(nil), rings[z*m+bestA]...)
	for c := z; c != bestA; {
		b := int(bestFrom[c])
		out = append(out, rings[b*m+c]...)
		c = b
	}
	return out, true
}

// chordClear reports whether the segment from s, strictly inside the ring
// p, to its vertex k touches the outline nowhere but at k.
func chordClear(p []Vec2, s Vec2, k int) bool {
	n := len(p)
	v := p[k]
	for e := range n {
		a, b := p[e], p[succ(e, n)]
		// An edge at v could only hold the chord if it held s, which is
		// strictly inside; a vertex on the chord is an end of another edge.
		if e != k && succ(e, n) != k && segmentsTouch(s, v, a, b) {
			return false
		}
	}
	return true
}

// strictlyInside reports whether q lies inside the ring p and on none of
// its edges, exactly.
func strictlyInside(p []Vec2, q Vec2) bool {
	n := len(p)
	in := false
	for e := range n {
		a, b := p[e], p[succ(e, n)]
		o := orientSign(a, b, q)
		if o == 0 && onSegment(a, b, q) {
			return false
		}
		if (a.Y > q.Y) != (b.Y > q.Y) {
			// The edge crosses q's horizontal line: right of q when q is on
			// the side of the edge facing its downward end.
			if (b.Y > a.Y) == (o > 0) {
				in = !in
			}
		}
	}
	return in
}

// latticeIn returns up to max floats points strictly left of every line
// (from [0] to [1]) and inside box, sampled over the region's longer side.
func latticeIn(lines [][2]Vec2, box AABB, max int) []Vec2 {
	// The region, clipped in floats; the exact test comes after.
	poly := []Vec2{box.Min, {box.Max.X, box.Min.Y}, box.Max, {box.Min.X, box.Max.Y}}
	for _, l := range lines {
		poly = clipLeft(poly, l[0], l[1])
		if len(poly) == 0 {
			return nil
		}
	}
	rb := AABBFromPoints(poly...)
	ux := ulpOf(math.Max(math.Abs(rb.Min.X), math.Abs(rb.Max.X)))
	uy := ulpOf(math.Max(math.Abs(rb.Min.Y), math.Abs(rb.Max.Y)))
	alongX := (rb.Max.X-rb.Min.X)/ux >= (rb.Max.Y-rb.Min.Y)/uy
	left := func(q Vec2) bool {
		for _, l := range lines {
			if orientSign(l[0], l[1], q) <= 0 {
				return false
			}
		}
		return true
	}
	var got []Vec2
	lo, hi, u := rb.Min.X, rb.Max.X, ux
	if !alongX {
		lo, hi, u = rb.Min.Y, rb.Max.Y, uy
	}
	cols := int(math.Min((hi-lo)/u+1, steinerColumns))
	for c := 0; c < cols && len(got) < 4*max; c++ {
		t := lo + (hi-lo)*(float64(c)+0.5)/float64(cols)
		a, b, ok := crossSpan(poly, t, alongX)
		if !ok {
			continue
		}
		// The floats across the column, or four spread over it.
		var ys [6]float64
		row := ys[:0]
		if uc := ulpOf(math.Max(math.Abs(a), math.Abs(b))); (b-a)/uc > 4 {
			for k := range 4 {
				row = append(row, a+float64((b-a)*(float64(k)+0.5)/4))
			}
		} else {
			for y := math.Nextafter(a, math.Inf(-1)); y <= b || len(row) < 2; y = math.Nextafter(y, math.Inf(1)) {
				if row = append(row, y); len(row) == cap(ys) {
					break
				}
			}
		}
		for _, y := range row {
			q := Vec2{t, y}
			if !alongX {
				q = Vec2{y, t}
			}
			if box.Contains(q) && left(q) {
				got = append(got, q)
			}
		}
	}
	if len(got) <= max {
		return got
	}
	out := make([]Vec2, max)
	for k := range out {
		out[k] = got[k*len(got)/max]
	}
	return out
}

// floatsIn returns how many floats lie in [a, b], or a huge number where
// that is more than an int holds.
func floatsIn(a, b float64) int {
	order := func(x float64) int64 {
		u := int64(math.Float64bits(x) &^ (1 << 63))
		if x < 0 {
			return -u
		}
		return u
	}
	c := order(b) - order(a) + 1
	if c < 0 || c > 1<<31 {
		return 1 << 31
	}
	return int(c)
}

// ulpOf returns the gap between x ≥ 0 and the next float up.
func ulpOf(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }

// clipLeft returns the part of the convex polygon left of the line a→b
// (closed), in floats.
func clipLeft(poly []Vec2, a, b Vec2) []Vec2 {
	var out []Vec2
	e := b.Sub(a)
	side := func(q Vec2) float64 { return e.Cross(q.Sub(a)) }
	for k := range poly {
		c, nx := poly[k], poly[(k+1)%len(poly)]
		sc, sn := side(c), side(nx)
		if sc >= 0 {
			out = append(out, c)
		}
		if (sc >= 0) != (sn >= 0) {
			out = append(out, c.Add(nx.Sub(c).Scale(sc/(sc-sn))))
		}
	}
	return out
}

// crossSpan returns the span of the convex polygon along the line x = t
// (alongX) or y = t, in floats.
func crossSpan(poly []Vec2, t float64, alongX bool) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for k := range poly {
		a, b := poly[k], poly[(k+1)%len(poly)]
		if !alongX {
			a, b = Vec2{a.Y, a.X}, Vec2{b.Y, b.X}
		}
		if (a.X <= t) != (b.X <= t) || a.X == t {
			var y float64
			if a.X == b.X {
				lo, hi = math.Min(lo, math.Min(a.Y, b.Y)), math.Max(hi, math.Max(a.Y, b.Y))
				continue
			}
			y = a.Y + (b.Y-a.Y)*(t-a.X)/(b.X-a.X)
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	return lo, hi, lo <= hi
}
