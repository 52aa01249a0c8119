package shape

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Decompose splits the simple polygon outline into convex pieces whose union
// is the polygon. Every piece is counter-clockwise, has at most
// [MaxPolygonVertices] vertices, has no duplicate or collinear vertex, and is
// accepted unchanged by [NewPolygon]. Pieces meet edge to edge and do not
// overlap. A piece thinner than the tolerance below is left out, so the
// pieces' areas sum to the outline's area up to rounding and such slivers.
//
// The outline may run either way round. It is cleaned as [NewPolygon] cleans
// its input: a vertex that duplicates its neighbour, or continues its edge in
// a straight line, to within 1e-12 of the polygon's size is removed. For n
// vertices left, r of them reflex, Decompose returns at most
// r + 1 + ⌈n/14⌉ pieces, but for rare outlines only a few rounding steps
// of their coordinates across (far from the origin), such as those where
// no float lies inside a reflex vertex's wedge: those may take one piece
// more.
//
// Errors wrap [ErrNotFinite] (NaN or infinite coordinate), [ErrTooLarge]
// (coordinate beyond [MaxMagnitude]), [ErrTooFewVertices] (fewer than 3
// distinct vertices), [ErrCollinear] (every vertex on one line, a vertex
// so close to straight that no cut can be placed at this precision, or an
// outline so thin that every piece is a sliver NewPolygon refuses) or
// [ErrSelfIntersecting] (edges that cross or touch, which includes holes
// pinched off by a vertex on another edge, and edges that fold back). They
// name the offending vertices or edges by their index in outline.
//
// The algorithm is Mark Bayazit's convex decomposition, as described with
// the poly-decomp library. Each reflex vertex v gets one cut, which splits
// the polygon in two; both halves are decomposed the same way until none has
// a reflex vertex. The cut must leave the polygon within the wedge between
// the extensions of v's two edges, so that v is convex on both sides.
// Extending the two edges until they first hit the outline bounds the part
// of the outline v can see in that wedge. If a vertex there is visible, the
// cut goes to the best of them: one that is reflex and also sees v inside
// its own wedge (the cut then mends both), else any reflex one, else any,
// nearer ones first. Otherwise a single edge faces v across the wedge, and
// the cut ends on a new point where the wedge's bisector meets that edge.
// A cut never adds a reflex vertex, so there are at most r cuts and r + 1
// convex pieces. Pieces of more than [MaxPolygonVertices] vertices are then
// split into fans of diagonals from one vertex, of at most 16 vertices each.
//
// Far from the origin, an outline only a few rounding steps of its
// coordinates across may leave a cut no place on the grid of floats: a
// Steiner point rounded to it can fall outside the wedge it was meant to
// mend. It then moves to the float within four steps of it on each axis
// that mends v and lies within two rounding steps of the edge, inside
// the polygon if it can, nearest the edge. A cut point on an earlier cut
// stays on the side being cut and becomes a vertex of the ring across
// too, so that no gap opens between the pieces on the two sides. Where a
// reflex vertex's bisector leaves its ring through no edge because the
// vertex lies on another edge of the ring to within rounding (the ring
// pinches there, as where an outline vertex lies a rounding step from
// another edge's line), the ring splits at the pinch into the two rings
// it joins and the sliver between them.
// Where no cut from a reflex vertex can be placed, the part of the
// outline being cut is split instead into
// the fewest convex pieces whose edges join its own vertices (a dynamic
// programme over diagonals with exact predicates, which adds no point);
// where rounding made the cuts cost more than r + 1 + ⌈n/14⌉ pieces, the
// whole outline is split that way when that gives fewer. An outline whose
// coordinates' rounding step is a ten-thousandth of its size or more is
// split by diagonals first, and by cuts only if that needs more than
// r + 1 + ⌈n/14⌉ pieces or a piece too thin for NewPolygon (at that grain
// a sliver left out is no rounding: diagonals that leave one out are the
// last resort). The search over diagonals takes about n⁵/120
// steps at most, and gives up past 2²⁴ of them (2²⁰ where it goes first).
// Where both cost more than r + 1 + ⌈n/14⌉ pieces, an outline of up to 64
// vertices is also split through one new point inside it, a float joined
// by chords to vertices it sees, each part split by diagonals, if that
// gives fewer (up to 1,024 points tried, in the wedges of its reflex
// vertices).
//
// The recursion runs on an explicit stack, and the reflex vertex cut first is
// the middle one of its polygon, so that long outlines such as spirals split
// evenly. Memory stays linear in the number of vertices.
func Decompose(outline []Vec2) ([][]Vec2, error) {
	d, ring, err := newDecomposer(outline)
	if err != nil {
		return nil, err
	}
	bound := d.pieceBound(ring)
	var pieces [][]Vec2
	var first [][]int32 // the first try's rings, if it found a partition
	if d.grain > coarseGrain {
		// Coarse: Steiner points rounded this far can overlap pieces or
		// leave slivers, so diagonals go first.
		if rings, ok := d.diagonalPartition(ring, diagFirstBudget); ok {
			first = slices.Clone(rings)
			d.done = rings
			// A piece of the outline's own vertices too thin for
			// NewPolygon would be left out with its area, which at this
			// grain is no rounding: such a partition is the last resort.
			if got, gerr := d.output(); gerr == nil && len(got) <= bound && d.sliver == 0 {
				return got, nil
			}
			d.done, d.sliver = d.done[:0], 0
		}
	}
	if err = d.run(ring); err == nil {
		pieces, err = d.output()
	}
	if err == nil && len(pieces) <= bound {
		return pieces, nil
	}
	// Cuts could not be placed, or rounding cost pieces: try the fewest
	// pieces with no new point, on the ring run cut up (the first try's
	// partition, if it found one, is that already).
	d, ring, _ = newDecomposer(outline)
	rings, ok := first, first != nil
	if !ok {
		rings, ok = d.diagonalPartition(ring, diagBudget)
	}
	if ok {
		d.done, d.sliver = rings, 0
		if alt, aerr := d.output(); aerr == nil && (err != nil || d.sliver == 0 && len(alt) < len(pieces)) {
			pieces, err = alt, nil
		}
	}
	if err == nil && len(pieces) <= bound {
		return pieces, nil
	}
	// Both over the bound, or neither placed: one new point inside, where
	// the floats have room for it.
	limit := math.MaxInt
	if err == nil {
		limit = len(pieces)
	}
	d, ring, _ = newDecomposer(outline)
	if rings, ok := d.steinerPartition(ring, limit, bound); ok {
		d.done, d.sliver = rings, 0
		if alt, aerr := d.output(); aerr == nil && (err != nil || d.sliver == 0) && len(alt) < limit {
			return alt, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return pieces, nil
}

// coarseGrain is the grain (see decomposer), in units of the outline's size,
// from which Decompose tries the partition by diagonals before Bayazit's
// cuts: a rounding step of the coordinates a ten-thousandth of the outline
// or more, as for an outline of a thousandth of a unit at 3e9.
const coarseGrain = 1e-4

// decomposer holds the state of one Decompose call. Polygons are rings of
// indexes into pts; the first len(in) indexes are the caller's vertices, so
// an index is also the vertex's name in errors.
type decomposer struct {
	in      []Vec2  // the caller's outline
	pts     []Vec2  // in scaled by a power of two, then the new cut points
	unscale float64 // pts[k]·unscale is in the caller's units, exactly
	dup2    float64 // squared distance, in pts units, below which points merge
	grain   float64 // distance, in pts units, within which a cut passes a vertex
	near2   float64 // grain²
	cuts    int     // cuts made so far, against a runaway on rounding
	stack   [][]int32
	done    [][]int32
	cand    []cutCandidate
	tmp     []int32
	arena   []int32 // backing carved into the smaller halves of cuts
	refl    []int32 // middleReflex's scratch: the positions of a ring's reflex vertices
	poly    polygonScratch
	sliver  int32 // 1 + the caller's index of a vertex of the first sliver left out, or 0
	folded  bool  // clean dropped a vertex that turned straight back
	stWork  int   // work spent by steinerPartition: parts' vertex counts cubed
	stTried int   // points steinerPartition tried
	// succ0[k] is the caller's vertex after vertex k on the clean
	// outline; onEdge[j] is the vertex that starts the outline edge the
	// cut point len(in)+j lies on, or -1 if it lies on an earlier cut.
	succ0  []int32
	onEdge []int32
}

// cutCandidate is a vertex a reflex vertex might be cut to: its position in
// the ring, its class (3: reflex and mended by the same cut; 2: reflex;
// 1: convex) and its squared distance.
type cutCandidate struct {
	pos   int
	class int
	dist  float64
}

// newDecomposer validates and cleans outline. It returns the cleaned outline
// as a counter-clockwise ring.
func newDecomposer(outline []Vec2) (*decomposer, []int32, error) {
	for i, v := range outline {
		if !v.IsFinite() {
			return nil, nil, fmt.Errorf("%w: vertex %d is %v", ErrNotFinite, i, v)
		}
	}
	for i, v := range outline {
		if math.Abs(v.X) > MaxMagnitude || math.Abs(v.Y) > MaxMagnitude {
			return nil, nil, fmt.Errorf("%w: vertex %d is %v (limit %g)", ErrTooLarge, i, v, MaxMagnitude)
		}
	}
	if len(outline) < 3 {
		return nil, nil, fmt.Errorf("%w: got %d", ErrTooFewVertices, len(outline))
	}
	if len(outline) > math.MaxInt32/4 {
		return nil, nil, fmt.Errorf("%w: %d vertices, the most Decompose takes is %d", ErrTooManyVertices, len(outline), math.MaxInt32/4)
	}
	box := AABBFromPoints(outline...)
	size := hypot(box.Max.X-box.Min.X, box.Max.Y-box.Min.Y)
	if size == 0 {
		return nil, nil, fmt.Errorf("%w: all %d vertices coincide", ErrTooFewVertices, len(outline))
	}
	// Work in units where the size is in [1/2, 1): the orientation products
	// then neither underflow nor overflow. Scaling by a power of two is exact.
	_, e := math.Frexp(size)
	scale := math.Ldexp(1, -e)
	n := len(outline)
	d := &decomposer{
		in:      outline,
		pts:     make([]Vec2, n, n+n/2+8),
		unscale: math.Ldexp(1, e),
	}
	for i, v := range outline {
		d.pts[i] = Vec2{v.X * scale, v.Y * scale}
	}
	sz := float64(size * scale)
	d.dup2 = float64(dupTol*sz) * float64(dupTol*sz)
	maxAbs := 0.0
	for _, v := range d.pts {
		maxAbs = max(maxAbs, math.Abs(v.X), math.Abs(v.Y))
	}
	d.grain = float64(nearUlps * (math.Nextafter(maxAbs, math.Inf(1)) - maxAbs))
	d.near2 = float64(d.grain * d.grain)

	// Drop consecutive (cyclic) duplicates, as NewPolygon does.
	ring := make([]int32, 0, n)
	for i := range n {
		if len(ring) > 0 && d.dup(ring[len(ring)-1], int32(i)) {
			continue
		}
		ring = append(ring, int32(i))
	}
	for len(ring) > 1 && d.dup(ring[0], ring[len(ring)-1]) {
		ring = ring[:len(ring)-1]
	}
	if len(ring) < 3 {
		return nil, nil, fmt.Errorf("%w: %d distinct: vertices closer to their neighbour than %.3g (%g of the polygon's size %.3g) are merged",
			ErrTooFewVertices, len(ring), dupTol*size, dupTol, size)
	}
	distinct := make([]Vec2, len(ring))
	for k, i := range ring {
		distinct[k] = d.pts[i]
	}
	if thick, ok := allCollinear(distinct, 1/sz); ok {
		return nil, nil, collinearError(len(ring), thick, size)
	}
	ring, err := d.clean(ring, true, 0, -1)
	if err != nil {
		return nil, nil, err
	}
	if len(ring) < 3 {
		return nil, nil, fmt.Errorf("%w: %d vertices left after removing collinear ones", ErrCollinear, len(ring))
	}
	if i, j, bad := d.selfIntersection(ring); bad {
		n := len(ring)
		return nil, nil, fmt.Errorf("%w: edge from vertex %d to %d touches or crosses edge from vertex %d to %d",
			ErrSelfIntersecting, ring[i], ring[(i+1)%n], ring[j], ring[(j+1)%n])
	}
	if d.area2(ring) < 0 {
		slices.Reverse(ring)
	}
	d.succ0 = make([]int32, n)
	for k := range d.succ0 {
		d.succ0[k] = -1
	}
	for k := range ring {
		d.succ0[ring[k]] = ring[succ(k, len(ring))]
	}
	return d, ring, nil
}

// dup reports whether points i and j are closer than the merge distance.
func (d *decomposer) dup(i, j int32) bool { return d.pts[i].Sub(d.pts[j]).LenSq() <= d.dup2 }

// flat reports whether b continues the edge ab in a straight line, by
// NewPolygon's test, and whether it does so by turning back.
func (d *decomposer) flat(a, b, c int32) (flat, fold bool) {
	e1, e2 := d.pts[b].Sub(d.pts[a]), d.pts[c].Sub(d.pts[b])
	cr := e1.Cross(e2)
	if float64(cr*cr) > float64(sinTol*sinTol)*float64(e1.LenSq()*e2.LenSq()) {
		return false, false
	}
	return true, e1.Dot(e2) < 0
}

// clean removes, in place, vertices that duplicate their predecessor and
// vertices that continue their edge in a straight line, until none is left.
// In strict mode (the caller's outline) a straight turn back is an error;
// inside a piece it is a sliver of no width and is dropped, and d.folded
// is set.
//
// r[run0:run1+1] is a run of consecutive vertices of a ring clean already
// (empty if run1 < run0): none of them duplicates its neighbour and no
// three turn straight, and a clean ring stays clean reversed, since both
// tests are symmetric. Until the walk first removes a vertex, it keeps a
// third vertex of the run in a row without testing it, as the tests would:
// in the halves of a cut, only the vertices at its ends are tested.
func (d *decomposer) clean(r []int32, strict bool, run0, run1 int) ([]int32, error) {
	out := r[:0]
	for t, k := range r {
		// While nothing has been removed, out is r[:t]: the walk has
		// three of the run in a row when t-2 and t are in it.
		if t <= run1 && t-2 >= run0 && len(out) == t {
			out = append(out, k)
			continue
		}
		keep := true
		for len(out) > 0 {
			n := len(out)
			if d.dup(out[n-1], k) {
				keep = false
				break
			}
			if n < 2 {
				break
			}
			flat, fold := d.flat(out[n-2], out[n-1], k)
			if !flat {
				break
			}
			if fold && strict {
				return nil, foldError(out[n-2], out[n-1], k)
			}
			d.folded = d.folded || fold
			out = out[:n-1]
		}
		if keep {
			out = append(out, k)
		}
	}
	// Close the ring: the seam between the last and the first vertex.
	for len(out) >= 3 {
		n := len(out)
		if d.dup(out[n-1], out[0]) {
			out = out[:n-1]
			continue
		}
		if flat, fold := d.flat(out[n-2], out[n-1], out[0]); flat {
			if fold && strict {
				return nil, foldError(out[n-2], out[n-1], out[0])
			}
			d.folded = d.folded || fold
			out = out[:n-1]
			continue
		}
		if flat, fold := d.flat(out[n-1], out[0], out[1]); flat {
			if fold && strict {
				return nil, foldError(out[n-1], out[0], out[1])
			}
			d.folded = d.folded || fold
			out = out[1:]
			continue
		}
		break
	}
	return out, nil
}

// foldError reports the outline a→b→c turning straight back at b.
func foldError(a, b, c int32) error {
	return fmt.Errorf("%w: edge from vertex %d to %d folds back over edge from vertex %d to %d",
		ErrSelfIntersecting, b, c, a, b)
}

// area2 returns twice the signed area of the ring, positive when it runs
// counter-clockwise.
func (d *decomposer) area2(r []int32) float64 {
	o := d.pts[r[0]]
	var a float64
	for k := 1; k+1 < len(r); k++ {
		a += d.pts[r[k]].Sub(o).Cross(d.pts[r[k+1]].Sub(o))
	}
	return a
}

// selfIntersection returns the first pair of non-adjacent edges of the ring
// (by start position) that touch or cross. Edges are swept in order of their
// left end, and only pairs whose boxes overlap are tested exactly. The
// answer, the least such pair that touches, does not depend on how edges
// with equal left ends are ordered.
//
// The order comes from one slices.Sort of integers, with no comparison
// function: each key packs the left end, mapped by a rounded affine map
// (so x ≤ x' gives key(x) ≤ key(x')), above the edge's position. Left ends
// that the map puts in one bucket may come out of order; an insertion
// pass, linear on an order this nearly right, puts them in order.
func (d *decomposer) selfIntersection(r []int32) (int, int, bool) {
	type span struct {
		lo, hi, ylo, yhi float64
		a, b             Vec2 // the edge, from position k
		k                int
	}
	n := len(r)
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, i := range r {
		x0, x1 = min(x0, d.pts[i].X), max(x1, d.pts[i].X)
	}
	shift := uint(bits.Len(uint(n)))
	q := math.Ldexp(1, min(52, 62-int(shift))) / (x1 - x0)
	if !(q <= math.MaxFloat64) {
		q = 0 // no width to spread: one bucket
	}
	keys := make([]uint64, n)
	for k := range n {
		lo := min(d.pts[r[k]].X, d.pts[r[succ(k, n)]].X)
		keys[k] = uint64(float64((lo-x0)*q))<<shift | uint64(k)
	}
	slices.Sort(keys)
	mask := uint64(1)<<shift - 1
	spans := make([]span, n)
	for s, key := range keys {
		k := int(key & mask)
		a, b := d.pts[r[k]], d.pts[r[succ(k, n)]]
		sp := span{min(a.X, b.X), max(a.X, b.X), min(a.Y, b.Y), max(a.Y, b.Y), a, b, k}
		t := s
		for ; t > 0 && spans[t-1].lo > sp.lo; t-- {
			spans[t] = spans[t-1]
		}
		spans[t] = sp
	}
	bi, bj := -1, -1
	for s := range spans {
		sp := &spans[s]
		e := sp.b.Sub(sp.a)
		for t := s + 1; t < n && spans[t].lo <= sp.hi; t++ {
			tp := &spans[t]
			if tp.yhi < sp.ylo || tp.ylo > sp.yhi {
				continue
			}
			i, j := sp.k, tp.k
			if i > j {
				i, j = j, i
			}
			if j == i+1 || (i == 0 && j == n-1) {
				continue // adjacent: they meet at their shared vertex
			}
			if bi >= 0 && (i > bi || (i == bi && j > bj)) {
				continue
			}
			// Both ends of one edge clearly on one side of the other's
			// line, by the float filter alone: apart, as segmentsTouch
			// would find.
			if o := orientFilter(sp.a, e, tp.a); o != 0 && o == orientFilter(sp.a, e, tp.b) {
				continue
			}
			if segmentsTouch(d.pts[r[i]], d.pts[r[i+1]], d.pts[r[j]], d.pts[r[succ(j, n)]]) {
				bi, bj = i, j
			}
		}
	}
	return bi, bj, bi >= 0
}

// run decomposes the ring into convex rings, collected in d.done.
func (d *decomposer) run(ring []int32) error {
	// In exact arithmetic each cut removes a reflex vertex, so the number of
	// cuts is below the number of vertices. Rounding can leave a vertex a
	// hair short of straight after its cut; the cap stops that from looping.
	maxCuts := 2*len(ring) + 16
	d.stack = append(d.stack[:0], ring)
	for len(d.stack) > 0 {
		p := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		i := d.middleReflex(p)
		if i < 0 {
			d.done = append(d.done, p)
			continue
		}
		if d.cuts++; d.cuts > maxCuts {
			return fmt.Errorf("%w: vertex %d is too close to straight to be cut at this precision", ErrCollinear, d.name(p[i]))
		}
		if err := d.cut(p, i); err != nil {
			// No cut from that vertex can be placed at this precision:
			// this part of the outline takes the fewest pieces with no
			// new point, if it is small enough to search.
			rings, ok := d.diagonalPartition(p, diagBudget)
			if !ok {
				return err
			}
			d.done = append(d.done, rings...)
		}
	}
	return nil
}

// name returns the caller's index of point k, or of the nearest caller's
// vertex for a cut point.
func (d *decomposer) name(k int32) int32 {
	if int(k) < len(d.in) {
		return k
	}
	best, bd := int32(0), math.Inf(1)
	for i := range d.in {
		if l := d.pts[i].Sub(d.pts[k]).LenSq(); l < bd {
			best, bd = int32(i), l
		}
	}
	return best
}

// middleReflex returns the position of the middle reflex vertex of the ring,
// or -1 if it is convex. The ring is clean, so a turn is either clearly left
// or clearly right.
func (d *decomposer) middleReflex(p []int32) int {
	d.refl = d.refl[:0]
	// reflex's test, walking the ring with each point loaded once.
	m := len(p)
	a, v := d.pts[p[m-1]], d.pts[p[0]]
	for k, ib := range p[1:] {
		b := d.pts[ib]
		if v.Sub(a).Cross(b.Sub(v)) < 0 {
			d.refl = append(d.refl, int32(k))
		}
		a, v = v, b
	}
	if b := d.pts[p[0]]; v.Sub(a).Cross(b.Sub(v)) < 0 {
		d.refl = append(d.refl, int32(m-1))
	}
	if len(d.refl) == 0 {
		return -1
	}
	return int(d.refl[len(d.refl)/2])
}

// reflex reports whether the ring turns clockwise at position k.
func (d *decomposer) reflex(p []int32, k int) bool {
	m := len(p)
	a, v, b := d.pts[p[pred(k, m)]], d.pts[p[k]], d.pts[p[succ(k, m)]]
	return v.Sub(a).Cross(b.Sub(v)) < 0
}

// succ and pred return the position after and before k in a ring of m,
// without a division.
func succ(k, m int) int {
	if k++; k == m {
		return 0
	}
	return k
}

func pred(k, m int) int {
	if k == 0 {
		return m - 1
	}
	return k - 1
}

// rayHit returns how far along dir (in units of |dir|²) the ray from o
// leaves the polygon through the edge q0→q1, which must cross the ray's line
// from its right to its left, as an exit edge of a counter-clockwise
// polygon does. ok is false if the edge does not cross ahead of o.
//
// A crossing point the floats put behind o or on it is checked exactly: an
// edge that crosses the line from right to left passes ahead of o exactly
// when o is on its left. An edge less than an ulp beyond o, as beside a
// reflex vertex with an edge an ulp long, has its crossing point rounded
// onto or behind o; it is still the exit, at t = 0.
func rayHit(o, dir, q0, q1 Vec2) (t float64, x Vec2, ok bool) {
	return rayExit(o, dir, q0, q1, dir.Cross(q0.Sub(o)), dir.Cross(q1.Sub(o)))
}

// rayExit is rayHit given the sides s0 and s1 of q0 and q1 (dir × (q − o)).
func rayExit(o, dir, q0, q1 Vec2, s0, s1 float64) (t float64, x Vec2, ok bool) {
	if !(s0 <= 0 && s1 > 0) {
		return 0, Vec2{}, false
	}
	x = q0.Add(q1.Sub(q0).Scale(s0 / (s0 - s1)))
	if t = x.Sub(o).Dot(dir); t > 0 {
		return t, x, true
	}
	// orientSign's float filter, inline: most such edges cross clearly
	// behind o, and the call costs more than the test.
	l := float64((q1.X - q0.X) * (o.Y - q0.Y))
	r := float64((q1.Y - q0.Y) * (o.X - q0.X))
	if det, sum := l-r, math.Abs(l)+math.Abs(r); -det > float64(orientErr*sum) && sum > 1e-290 {
		return 0, x, false
	}
	return 0, x, orientSign(q0, q1, o) > 0
}

// cut splits ring p with one cut from its reflex vertex at position i and
// pushes the two halves.
func (d *decomposer) cut(p []int32, i int) error {
	m := len(p)
	prev, next := (i+m-1)%m, (i+1)%m
	fwd := func(k int) int { return (k - i + m) % m }
	v, a, b := d.pts[p[i]], d.pts[p[prev]], d.pts[p[next]]
	d1, d2 := v.Sub(a), v.Sub(b) // the wedge lies left of d1 and right of d2

	// Where the extensions of v's edges first leave the polygon.
	// The sides of each point are computed once, for the two edges that
	// share it, as rayHit would compute them.
	e1, e2 := -1, -1
	t1, t2 := math.Inf(1), math.Inf(1)
	q0 := d.pts[p[0]]
	s10, s20 := d1.Cross(q0.Sub(v)), d2.Cross(q0.Sub(v))
	for k := range m {
		q1 := d.pts[p[succ(k, m)]]
		s11, s21 := d1.Cross(q1.Sub(v)), d2.Cross(q1.Sub(v))
		if k != i && k != prev {
			// rayExit's first test, inline: most edges fail it.
			if s10 <= 0 && s11 > 0 {
				if t, _, ok := rayExit(v, d1, q0, q1, s10, s11); ok && t < t1 {
					t1, e1 = t, k
				}
			}
			if s20 <= 0 && s21 > 0 {
				if t, _, ok := rayExit(v, d2, q0, q1, s20, s21); ok && t < t2 {
					t2, e2 = t, k
				}
			}
		}
		q0, s10, s20 = q1, s11, s21
	}

	// The vertices v may see in its wedge lie on the outline between the
	// two hit edges, ends included.
	d.cand = d.cand[:0]
	if e1 >= 0 && e2 >= 0 && fwd(e1) <= fwd(e2) {
		for f := fwd(e1); f <= fwd(e2)+1 && f < m; f++ {
			if f <= 1 || f >= m-1 {
				continue // v itself and its neighbours
			}
			q := (i + f) % m
			w := d.pts[p[q]]
			rel := w.Sub(v)
			if d1.Cross(rel) < 0 || d2.Cross(rel) > 0 {
				continue
			}
			class := 1
			if d.reflex(p, q) {
				class = 2
				wa, wb := d.pts[p[(q+m-1)%m]], d.pts[p[(q+1)%m]]
				back := v.Sub(w)
				if w.Sub(wa).Cross(back) >= 0 && w.Sub(wb).Cross(back) <= 0 {
					class = 3
				}
			}
			d.cand = append(d.cand, cutCandidate{q, class, rel.LenSq()})
		}
	}
	for len(d.cand) > 0 {
		best := 0
		for c := 1; c < len(d.cand); c++ {
			x, y := d.cand[c], d.cand[best]
			if x.class > y.class || (x.class == y.class && x.dist < y.dist) {
				best = c
			}
		}
		q := d.cand[best].pos
		if d.visible(p, i, q) {
			d.split(p, i, q, -1)
			return nil
		}
		d.cand[best] = d.cand[len(d.cand)-1]
		d.cand = d.cand[:len(d.cand)-1]
	}

	// No vertex in sight: cut along the wedge's bisector to the edge it
	// meets first. Of the two formulas for the bisector, use the one that
	// does not cancel.
	u1, u2 := d1.Scale(1/d1.Len()), d2.Scale(1/d2.Len())
	u := u1.Add(u2)
	if diff := u1.Sub(u2); diff.LenSq() > u.LenSq() {
		u = diff.Perp()
		if d1.Cross(u) < 0 {
			u = u.Neg()
		}
	}
	ek, te := -1, math.Inf(1)
	var x Vec2
	for k := range m {
		if k == i || k == prev {
			continue
		}
		if t, hit, ok := rayHit(v, u, d.pts[p[k]], d.pts[p[succ(k, m)]]); ok && t < te {
			ek, te, x = k, t, hit
		}
	}
	if ek < 0 {
		// The bisector leaves through no edge. Where v lies on another
		// edge of its ring to within rounding, the ring pinches there: it
		// splits at v into the two rings the pinch joins and the sliver
		// between v and that edge.
		if k := d.pinchEdge(p, i); k >= 0 {
			d.pinch(p, i, k)
			return nil
		}
		return fmt.Errorf("%w: vertex %d is too close to straight to be cut at this precision", ErrCollinear, d.name(p[i]))
	}
	if x.Sub(v).LenSq() <= d.near2 {
		// The edge passes within rounding of v: v and that edge pinch the
		// polygon, and a Steiner point there would round onto v. The cut
		// across the pinch goes to the edge's nearer end.
		q0, q1 := ek, succ(ek, m)
		if d.pts[p[q1]].Sub(v).LenSq() < d.pts[p[q0]].Sub(v).LenSq() {
			q0, q1 = q1, q0
		}
		for _, q := range [2]int{q0, q1} {
			if f := fwd(q); f > 1 && f < m-1 && d.visible(p, i, q) {
				d.split(p, i, q, -1)
				return nil
			}
		}
	}
	// A cut point on top of a vertex is that vertex.
	target := -1
	for _, q := range [2]int{ek, (ek + 1) % m} {
		if f := fwd(q); f > 1 && f < m-1 && x.Sub(d.pts[p[q]]).LenSq() <= d.dup2 {
			target, x = q, d.pts[p[q]]
		}
	}
	// The bisector meets no edge before x, but it may pass a vertex within
	// rounding (by passes), as a cut to a candidate may not: the cut then
	// goes to the nearest vertex it passes and reaches across no edge,
	// which lies on the bisector to rounding and so mends v as well.
	if q := d.firstPassed(p, i, x, target); q >= 0 {
		d.split(p, i, q, -1)
		return nil
	}
	if target >= 0 {
		d.split(p, i, target, -1)
		return nil
	}
	k0, k1 := p[ek], p[succ(ek, m)]
	edge := d.outlineEdge(k0, k1)
	x = snapCut(a, v, b, d.pts[k0], d.pts[k1], x, d.grain, edge < 0)
	d.pts = append(d.pts, x)
	d.onEdge = append(d.onEdge, edge)
	xi := int32(len(d.pts) - 1)
	if edge < 0 && orientSign(d.pts[k0], d.pts[k1], x) > 0 {
		d.mendAcross(k0, k1, xi)
	}
	d.split(p, i, ek, xi)
	return nil
}

// pinchEdge returns the position k of the edge from p[k] to p[k+1], not
// one of v = p[i]'s own, that passes v (by passes) with v on its inner
// side or on it, and whose ends v sees; the nearest such edge, or -1.
func (d *decomposer) pinchEdge(p []int32, i int) int {
	m := len(p)
	prev := (i + m - 1) % m
	v := d.pts[p[i]]
	best, bestD := -1, math.Inf(1)
	for k := range m {
		k1 := succ(k, m)
		if k == i || k == prev || k1 == i {
			continue
		}
		q0, q1 := d.pts[p[k]], d.pts[p[k1]]
		if !d.passes(q0, v, q1) || orientSign(q0, q1, v) < 0 {
			continue
		}
		e := q1.Sub(q0)
		dist := math.Abs(e.Cross(v.Sub(q0))) / e.Len()
		if dist < bestD && d.visible(p, i, k) && d.visible(p, i, k1) {
			best, bestD = k, dist
		}
	}
	return best
}

// pinch splits ring p at v = p[i], which lies within rounding of its edge
// from p[k] to p[k+1] (pinchEdge): into the ring from v forward to p[k],
// the ring from p[k+1] forward to v, and the sliver triangle p[k], p[k+1],
// v between them, counter-clockwise since v lies on the edge's inner side.
// On the edge itself, v would split its angle at the edge's line: both
// rings then turn less than straight at v, and neither needs a cut there.
// A sliver too thin for NewPolygon is left out as output leaves any out.
func (d *decomposer) pinch(p []int32, i, k int) {
	m := len(p)
	k1 := succ(k, m)
	la, lb := (k-i+m)%m+1, (i-k1+m)%m+1
	a, b, s := d.carve(la), d.carve(lb), d.carve(3)
	for j, n := i, 0; n < la; j, n = succ(j, m), n+1 {
		a = append(a, p[j])
	}
	for j, n := k1, 0; n < lb; j, n = succ(j, m), n+1 {
		b = append(b, p[j])
	}
	s = append(s, p[k], p[k1], p[i])
	d.push(a, 0, la-1)
	d.push(b, 0, lb-1)
	d.push(s, 0, 1)
}

// outlineEdge returns the vertex that starts the outline edge that the
// segment between points a and b lies on, or -1 if it lies on none (it
// is part of an earlier cut).
func (d *decomposer) outlineEdge(a, b int32) int32 {
	n := int32(len(d.in))
	// on returns -2 for a caller's vertex, else the outline edge the cut
	// point lies on, or -1.
	on := func(k int32) int32 {
		if k < n {
			return -2
		}
		if j := int(k - n); j < len(d.onEdge) {
			return d.onEdge[j]
		}
		return -1
	}
	// The rings run counter-clockwise, as the outline: a then b follow
	// its direction.
	switch ea, eb := on(a), on(b); {
	case ea == -2 && eb == -2:
		if d.succ0[a] == b {
			return a
		}
	case ea == -2:
		if eb == a {
			return a
		}
	case eb == -2:
		if ea >= 0 && d.succ0[ea] == b {
			return ea
		}
	case ea >= 0 && ea == eb:
		return ea
	}
	return -1
}

// mendAcross inserts the cut point x, placed beside the earlier cut from
// a to b inside the ring being cut, into the ring across that cut, between
// b and a: without it, the rounding of x off the cut would leave a gap
// between the pieces on its two sides. x lies outside the ring across, so
// it stays convex there; a finished ring that turns reflex at a or b by
// the hair x added goes back on the stack.
func (d *decomposer) mendAcross(a, b, x int32) {
	find := func(rings [][]int32) (int, int) {
		for r, ring := range rings {
			m := len(ring)
			for k := range m {
				if ring[k] == b && ring[succ(k, m)] == a {
					return r, k
				}
			}
		}
		return -1, -1
	}
	insert := func(ring []int32, k int) []int32 {
		out := make([]int32, 0, len(ring)+1)
		out = append(out, ring[:k+1]...)
		out = append(out, x)
		return append(out, ring[k+1:]...)
	}
	if r, k := find(d.stack); r >= 0 {
		// Still to be cut: clean, as pushed rings are (x, an ulp off
		// the line, may still be straight by NewPolygon's test).
		d.folded = false
		if ring, _ := d.clean(insert(d.stack[r], k), false, 0, -1); len(ring) >= 3 && !d.folded {
			d.stack[r] = ring
		}
		return
	}
	r, k := find(d.done)
	if r < 0 {
		return
	}
	ring := insert(d.done[r], k)
	m := len(ring)
	for _, c := range [3]int{k, k + 1, (k + 2) % m} {
		if orientSign(d.pts[ring[pred(c, m)]], d.pts[ring[c]], d.pts[ring[succ(c, m)]]) <= 0 {
			d.done = slices.Delete(d.done, r, r+1)
			d.stack = append(d.stack, ring)
			return
		}
	}
	d.done[r] = ring
}

// snapReach is how many floats away from the rounded crossing point, along
// each axis, snapCut looks for a cut point that mends its vertex.
const snapReach = 4

// snapCut returns x, the rounded point where the cut from the reflex vertex
// v (between a and b) meets the edge q0→q1, if it mends v (lies strictly
// inside v's wedge and strictly between q0 and q1) from inside the polygon
// or on the edge. Otherwise it returns, of the floats within snapReach
// steps of x on each axis that mend v and lie within reach of the edge's
// line, one inside the polygon or on the edge if there is one, nearest the
// line, then nearest x; or x if none does. Where the wedge is only a few
// rounding steps wide at the edge, x may have rounded out of it, and v
// would stay reflex. The point moved lies off the edge by rounding, as x
// does: a point inside leaves a sliver that thin out of the pieces, one
// outside adds it. With inside set (the edge is an earlier cut, and the
// ring across it will take the point as a vertex too), no point outside
// is taken, and failing one that mends v, the nearest the line inside.
func snapCut(a, v, b, q0, q1, x Vec2, reach float64, inside bool) Vec2 {
	e := q1.Sub(q0)
	off := float64(reach * e.Len()) // |e × (s − q0)| of a point reach from the line
	mends := func(s Vec2) bool {
		return orientSign(a, v, s) > 0 && orientSign(v, b, s) > 0 &&
			s.Sub(q0).Dot(e) > 0 && q1.Sub(s).Dot(e) > 0
	}
	if mends(x) && orientSign(q0, q1, x) >= 0 {
		return x
	}
	// Where the edge is an earlier cut (inside), the point must not cross
	// it: the ring across gets it too. Failing a point that mends v, the
	// nearest the line on this side will do.
	best, bo, bd, bx := x, 3, math.Inf(1), math.Inf(1)
	sx := x.X
	for range snapReach {
		sx = math.Nextafter(sx, math.Inf(-1))
	}
	for range 2*snapReach + 1 {
		sy := x.Y
		for range snapReach {
			sy = math.Nextafter(sy, math.Inf(-1))
		}
		for range 2*snapReach + 1 {
			s := Vec2{sx, sy}
			out := 0
			switch {
			case inside && orientSign(q0, q1, s) < 0:
				out = 3
			case !mends(s):
				out = 2
				if !inside || !(s.Sub(q0).Dot(e) > 0 && q1.Sub(s).Dot(e) > 0) {
					out = 3
				}
			case orientSign(q0, q1, s) < 0:
				out = 1
			}
			if out < 3 {
				dl, dx := math.Abs(e.Cross(s.Sub(q0))), s.Sub(x).LenSq()
				if dl <= off && (out < bo || out == bo && (dl < bd || dl == bd && dx < bx)) {
					best, bo, bd, bx = s, out, dl, dx
				}
			}
			sy = math.Nextafter(sy, math.Inf(1))
		}
		sx = math.Nextafter(sx, math.Inf(1))
	}
	return best
}

// firstPassed returns the position of the vertex nearest v = p[i] that
// the cut from v to x passes (by passes) and that a cut from v reaches
// without crossing an edge, other than v's neighbours and the vertex at
// position skip, or -1.
//
// A vertex the cut passes within rounding may yet lie just beyond an edge
// that the bisector meets, where notch vertices crowd within ulps of each
// other: a cut to it would cross that edge and leave a crossed half that
// no cut can mend. The full visibility test would also refuse vertices
// that the cut passes within rounding next to the one it goes to, which
// outlines a few ulps across have everywhere, and cost pieces there.
func (d *decomposer) firstPassed(p []int32, i int, x Vec2, skip int) int {
	m := len(p)
	v := d.pts[p[i]]
	g := d.reach(v, x)
	lo := Vec2{min(v.X, x.X) - g, min(v.Y, x.Y) - g}
	hi := Vec2{max(v.X, x.X) + g, max(v.Y, x.Y) + g}
	best, bt := -1, math.Inf(1)
	for k := range m {
		q := d.pts[p[k]]
		if q.X < lo.X || q.X > hi.X || q.Y < lo.Y || q.Y > hi.Y ||
			k == i || k == skip || k == pred(i, m) || k == succ(i, m) {
			continue
		}
		if !d.passes(v, q, x) {
			continue
		}
		if t := q.Sub(v).LenSq(); t < bt && !d.crossesEdge(p, i, k) {
			best, bt = k, t
		}
	}
	return best
}

// visible reports whether the segment from position i to position j of the
// ring touches no edge other than those at its ends, and passes no vertex
// closely (by passes). The caller has checked that it leaves i into the
// polygon.
//
// A cut that misses a vertex by a rounding is exact, but cleaning the
// halves may then drop an end of the cut as straight (when the cut
// continues one of its edges) and leave an edge through that vertex: a
// half pinched there, whose vertex no cut can mend. The vertex itself is
// the better end for the cut, and is among the candidates.
func (d *decomposer) visible(p []int32, i, j int) bool {
	m := len(p)
	// The vertices before i and j start the edges blocked skips.
	for _, k := range [2]int{pred(i, m), pred(j, m)} {
		if k != i && k != j && d.onCut(p[i], p[k], p[j]) {
			return false
		}
	}
	return !d.blocked(p, i, j, true)
}

// crossesEdge reports whether the segment from position i to position j of
// the ring touches an edge other than those at its ends.
func (d *decomposer) crossesEdge(p []int32, i, j int) bool { return d.blocked(p, i, j, false) }

// blocked reports whether the segment from position i to position j of the
// ring touches an edge other than those at its ends, or, with vertices
// set, passes (onCut) the start of such an edge within its box: the walk
// that visible and crossesEdge share.
func (d *decomposer) blocked(p []int32, i, j int, vertices bool) bool {
	m := len(p)
	v, w := d.pts[p[i]], d.pts[p[j]]
	e := w.Sub(v)
	lo, hi := Vec2{min(v.X, w.X), min(v.Y, w.Y)}, Vec2{max(v.X, w.X), max(v.Y, w.Y)}
	// Each point is loaded once, for the two edges that share it. The
	// box test compares both ends, as max and min of them would.
	q1 := d.pts[p[0]]
	for k := range m {
		kn := succ(k, m)
		q0 := q1
		q1 = d.pts[p[kn]]
		if k == i || kn == i || k == j || kn == j {
			continue
		}
		if q0.X < lo.X && q1.X < lo.X || q0.X > hi.X && q1.X > hi.X ||
			q0.Y < lo.Y && q1.Y < lo.Y || q0.Y > hi.Y && q1.Y > hi.Y {
			continue
		}
		// An edge with both ends clearly on one side of the cut's line,
		// by orientSign's float filter, does not touch it.
		if o := orientFilter(v, e, q0); (o == 0 || o != orientFilter(v, e, q1)) && segmentsTouch(v, w, q0, q1) {
			return true
		}
		if vertices && lo.X <= q0.X && q0.X <= hi.X && lo.Y <= q0.Y && q0.Y <= hi.Y && d.onCut(p[i], p[k], p[j]) {
			return true
		}
	}
	return false
}

// onCut reports whether the cut from point v to point w passes point q.
func (d *decomposer) onCut(v, q, w int32) bool { return d.passes(d.pts[v], d.pts[q], d.pts[w]) }

// nearUlps is how many rounding steps of the largest coordinate (an ulp of
// it) a cut must clear a vertex by. Far from the origin an ulp is far
// above the 1e-12 tolerances (2.4e-7 of the size of a unit outline at
// −3e9), and a vertex that close to a cut, though off it by a sine above
// sinTol, is left facing that cut edge across less than the rounding: a
// later cut's Steiner point on it rounds onto the vertex itself or behind
// it, and the vertex can no longer be mended. Two ulps is the least that
// cleared every such case the hunt found; four refused cuts the grid of
// outlines only a few ulps across needs, and cost pieces.
const nearUlps = 2

// reach bounds how far from the segment from a to b a point it passes
// (by passes) may lie: within d.grain, or within sinTol·|ab|/4 by the
// straightness test.
func (d *decomposer) reach(a, b Vec2) float64 {
	return max(d.grain, float64(sinTol*(math.Abs(b.X-a.X)+math.Abs(b.Y-a.Y))))
}

// passes reports whether the segment from a to b passes q: q lies between
// them, and on the segment to within NewPolygon's straightness test or
// within d.grain (nearUlps ulps of the largest coordinate).
func (d *decomposer) passes(a, q, b Vec2) bool {
	e, r := b.Sub(a), q.Sub(a)
	cr, l2 := e.Cross(r), e.LenSq()
	cr2 := float64(cr * cr)
	if cr2 > float64(d.near2*l2) && cr2 > float64(sinTol*sinTol)*float64(r.LenSq()*b.Sub(q).LenSq()) {
		return false
	}
	t := r.Dot(e)
	return t > 0 && t < l2
}

// split cuts ring p from position i to position j, or, if s >= 0, to the
// new point s on the edge from position j to j+1. It pushes the cleaned
// halves. The smaller half gets a slice carved from d.arena; the larger
// reuses p's.
func (d *decomposer) split(p []int32, i, j int, s int32) {
	m := len(p)
	f := (j - i + m) % m
	// Half A runs from i forward to j (then s); half B from j (or s, then
	// j+1) forward to i.
	la, lb := f+1, m-f+1
	if s >= 0 {
		la, lb = f+2, m-f+1
	}
	appendA := func(dst []int32) []int32 {
		for k, n := i, 0; n <= f; k, n = succ(k, m), n+1 {
			dst = append(dst, p[k])
		}
		if s >= 0 {
			dst = append(dst, s)
		}
		return dst
	}
	appendB := func(dst []int32) []int32 {
		start := j
		if s >= 0 {
			dst = append(dst, s)
			start = (j + 1) % m
		}
		for k := start; ; k = succ(k, m) {
			dst = append(dst, p[k])
			if k == i {
				return dst
			}
		}
	}
	// Each half keeps a run of p's vertices in p's order, which p's
	// cleaning has cleared: A's first f+1, and B's all but s.
	b0 := 0
	if s >= 0 {
		b0 = 1
	}
	var small, large []int32
	if la <= lb {
		small = appendA(d.carve(la))
		d.tmp = appendB(d.tmp[:0])
		large = append(p[:0], d.tmp...)
		d.push(large, b0, lb-1)
		d.push(small, 0, f)
	} else {
		small = appendB(d.carve(lb))
		d.tmp = appendA(d.tmp[:0])
		large = append(p[:0], d.tmp...)
		d.push(large, 0, f)
		d.push(small, b0, lb-1)
	}
}

// carve returns an empty slice of capacity n from d.arena, which grows by
// chunks of the outline's length: one allocation for many halves, instead
// of one each.
func (d *decomposer) carve(n int) []int32 {
	k := len(d.arena)
	if cap(d.arena)-k < n {
		d.arena, k = make([]int32, 0, max(n, len(d.in)+16)), 0
	}
	d.arena = d.arena[:k+n]
	return d.arena[k : k : k+n]
}

// push cleans a half and stacks it, unless it is a sliver: fewer than 3
// vertices, or a half whose cleaning dropped a fold and left it turning
// clockwise. Dropping a fold changes the area by less than sinTol times
// the squares of the edges, so a half it turns over was that thin; kept,
// its "reflex" vertices could not be mended by any cut. r[run0:run1+1] is
// a run of a clean ring, as clean takes it.
func (d *decomposer) push(r []int32, run0, run1 int) {
	d.folded = false
	r, _ = d.clean(r, false, run0, run1)
	if len(r) < 3 || d.folded && !(d.area2(r) > 0) {
		return
	}
	d.stack = append(d.stack, r)
}

// output turns the convex rings into pieces in the caller's units, splitting
// those over MaxPolygonVertices into fans, and checks each with NewPolygon.
func (d *decomposer) output() ([][]Vec2, error) {
	const per = MaxPolygonVertices - 2 // triangles of a fan per piece
	total, count := 0, 0
	for _, r := range d.done {
		if len(r) <= MaxPolygonVertices {
			total, count = total+len(r), count+1
			continue
		}
		q := (len(r) - 2 + per - 1) / per
		total, count = total+len(r)-2+2*q, count+q
	}
	backing := make([]Vec2, total)
	pieces := make([][]Vec2, 0, count)
	var fan [MaxPolygonVertices]int32
	for _, r := range d.done {
		if len(r) <= MaxPolygonVertices {
			var err error
			if pieces, backing, err = d.emit(pieces, backing, r); err != nil {
				return nil, err
			}
			continue
		}
		// Spread the len(r)-2 triangles of the fan from r[0] evenly over
		// the fewest pieces of at most `per` triangles.
		tri := len(r) - 2
		q := (tri + per - 1) / per
		start := 1
		for k := range q {
			t := tri / q
			if k < tri%q {
				t++
			}
			fan[0] = r[0]
			copy(fan[1:], r[start:start+t+1])
			var err error
			if pieces, backing, err = d.emit(pieces, backing, fan[:t+2]); err != nil {
				return nil, err
			}
			start += t
		}
	}
	if len(pieces) == 0 {
		// Every piece was a sliver: the outline itself is one, and an
		// empty union is no decomposition.
		return nil, fmt.Errorf("%w: every piece, such as the one at vertex %d, is thinner than the rounding of its coordinates", ErrCollinear, d.sliver-1)
	}
	return pieces, nil
}

// emit appends the piece with vertices r, carved from backing, after checking
// it with NewPolygon's tests (buildPolygon, in the decomposer's buffers). A piece NewPolygon finds too thin to have a direction is
// a sliver of no area and is left out.
func (d *decomposer) emit(pieces [][]Vec2, backing []Vec2, r []int32) ([][]Vec2, []Vec2, error) {
	piece := backing[:len(r):len(r)]
	for k, i := range r {
		if int(i) < len(d.in) {
			piece[k] = d.in[i]
		} else {
			piece[k] = d.pts[i].Scale(d.unscale)
		}
	}
	s, err := buildPolygon(piece, &d.poly)
	switch {
	case errors.Is(err, ErrCollinear) || errors.Is(err, ErrTooFewVertices):
		if d.sliver == 0 {
			d.sliver = d.name(r[0]) + 1
		}
		return pieces, backing, nil
	case err != nil:
		return nil, nil, fmt.Errorf("%w: a piece around vertex %d is not valid at this precision (%v)",
			ErrCollinear, d.name(r[0]), err)
	}
	if v := s.Vertices(); len(v) != len(piece) {
		piece = piece[:copy(piece, v):len(v)]
	}
	return append(pieces, piece), backing[len(r):], nil
}
