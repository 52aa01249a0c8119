package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// nearHit is a Nearest candidate: a body, its squared shape distance and
// the distance reported, its root.
type nearHit struct {
	d2, d float64
	id    BodyID
}

// nearLess orders hits as Nearest reports them: by the distance reported,
// equal distances by lower id. Two squares an ulp apart can share a root;
// ordered by the squares, such a pair came out with the higher id first.
func nearLess(a, b nearHit) bool { return a.d < b.d || (a.d == b.d && a.id < b.id) }

// nearCand is a body whose box a Nearest search met: its slot and the
// squared distance from the query point to its box.
type nearCand struct {
	bd2 float64
	s   int32
}

// nearBuf is a Nearest search's scratch, pooled: queries write nothing to
// the World.
type nearBuf struct {
	best []nearHit
	cand []nearCand
}

var nearPool = sync.Pool{New: func() any { return &nearBuf{best: make([]nearHit, 0, 16), cand: make([]nearCand, 0, 64)} }}

// Nearest calls fn for the k bodies passing filter f nearest to p, by the
// distance from p to each shape (0 inside), nearest first (ties by id),
// until fn returns false.
func (w *World) Nearest(p shape.Vec2, k int, f Filter, fn func(id BodyID, dist float64) bool) error {
	return w.NearestWithin(p, k, math.Inf(1), f, fn)
}

// NearestWithin is Nearest limited to bodies within maxDist of p (a body
// at exactly maxDist counts): aggro within a radius. maxDist may be +Inf.
//
// Two strategies, chosen by how many bodies can pass the filter (counted
// per category bit, kept up to date by Add, Remove and SetFilter from the
// first query whose filter leaves out some categories, which builds the
// count):
//
//   - Few candidates (one team among thousands of bodies): visit just
//     those bodies, by category.
//   - Otherwise: search a square around p whose size is guessed from the
//     density of candidate bodies, computing shape distances for the bodies
//     whose boxes it meets, and double the square until the k-th best
//     distance lies inside it (a body outside the square is farther than
//     its half side) or it reaches maxDist. A heap-ordered walk of the tree
//     (rtree's Nearby) pushes every entry of every leaf it opens and
//     measured several times slower.
//
// In both, a body is skipped without computing its distance when its box
// is farther than the current k-th best by more than a rounding margin, so
// that an exact tie is never lost to the box distance rounding up.
func (w *World) NearestWithin(p shape.Vec2, k int, maxDist float64, f Filter, fn func(id BodyID, dist float64) bool) error {
	if !p.IsFinite() {
		return fmt.Errorf("%w: query point %v", ErrNotFinite, p)
	}
	if math.IsNaN(maxDist) {
		return fmt.Errorf("%w: maximum distance %v", ErrNotFinite, maxDist)
	}
	if k < 0 || maxDist < 0 {
		return fmt.Errorf("%w: k = %d, maximum distance %v", ErrInvalidArgument, k, maxDist)
	}
	n := w.tree.Len()
	if k == 0 || n == 0 {
		return nil
	}
	q := newQuery(f)
	buf := nearPool.Get().(*nearBuf)
	ns := nearSearch{w: w, p: p, k: k, q: q, best: buf.best[:0], cand: buf.cand[:0]}
	ns.reset(maxDist)

	cand, indexed := n, w.categoryIndex(q.mask)
	if indexed {
		cand = w.b.cats.count(q.mask)
	}
	if indexed && (cand <= 4*k || cand*cand <= 2*k*n) {
		w.b.cats.each(q.mask, ns.visit)
		ns.finish()
	} else {
		bounds := w.tree.Bounds()
		size := bounds.Max.Sub(bounds.Min)
		// Half side of a square expected to hold about 2k candidates.
		r := math.Sqrt(float64(2*k) * max(float64(size.X*size.Y), 1e-300) / (4 * float64(cand)))
		r = max(r, 1e-9*max(math.Abs(p.X), math.Abs(p.Y)))
		if !(r > 0) || math.IsInf(r, 0) {
			r = 1
		}
		for {
			last := r >= maxDist
			if last {
				r = maxDist
			}
			ns.reset(maxDist)
			// Grown by a rounding margin: p ± r must not round inwards.
			box := shape.AABB{Min: shape.V(p.X-r, p.Y-r), Max: shape.V(p.X+r, p.Y+r)}.Expand(ns.slack)
			w.tree.Query(box, ns.visitTree)
			ns.finish()
			if last || box.ContainsAABB(bounds) {
				break
			}
			// A k-th best +Inf away (beyond about 1e154, where squares
			// overflow) is never inside the square, even one whose own
			// square overflowed: +Inf bodies tie, and one of lower id may
			// lie farther out.
			if len(ns.best) == k && ns.best[k-1].d2 <= float64(r*r)*(1-1e-9) && !math.IsInf(ns.best[k-1].d2, 1) {
				break
			}
			r *= 2
		}
	}
	for _, h := range ns.best {
		if !fn(h.id, h.d) {
			break
		}
	}
	buf.best, buf.cand = ns.best[:0], ns.cand[:0]
	nearPool.Put(buf)
	return nil
}

// nearSearch holds one Nearest search: the candidates met, and the best k
// so far, in order.
type nearSearch struct {
	w     *World
	p     shape.Vec2
	k     int
	q     query
	best  []nearHit
	cand  []nearCand
	max   float64 // maximum distance
	prune float64 // boxes farther than this (squared) are skipped
	slack float64 // rounding margin on distances
}

func (ns *nearSearch) reset(maxDist float64) {
	ns.best, ns.cand = ns.best[:0], ns.cand[:0]
	ns.max = maxDist
	// The boxes are rounded to float32 (box32), up to 2⁻²⁴ of their
	// coordinates, which lie within the distance of p: pruneAt adds 2⁻²²
	// of the distance, and the slack 2⁻²² of p's coordinates.
	ns.slack = float64(1e-12*(1+math.Abs(ns.p.X)+math.Abs(ns.p.Y)+maxDistOr0(maxDist))) +
		float64(0x1p-22*(math.Abs(ns.p.X)+math.Abs(ns.p.Y))) + 0x1p-148
	ns.prune = math.Inf(1)
	if !math.IsInf(maxDist, 1) {
		ns.prune = ns.pruneAt(maxDist)
	}
}

func maxDistOr0(d float64) float64 {
	if math.IsInf(d, 1) {
		return 0
	}
	return d
}

// pruneAt returns the squared box distance beyond which no shape can be
// within d of p, with the rounding margin.
func (ns *nearSearch) pruneAt(d float64) float64 {
	e := d + ns.slack + float64(0x1p-22*d)
	return float64(e * e)
}

func (ns *nearSearch) visitTree(s int32) bool {
	ns.visit(s)
	return true
}

// visit records body s as a candidate if it passes the filter and its box
// is not beyond the maximum distance.
func (ns *nearSearch) visit(s int32) bool {
	w := ns.w
	b := &w.b
	if b.hot[s].flags&flagAlive == 0 || !w.accept(s, ns.q) {
		return true
	}
	if bd := boxDistSq(ns.p, &b.tight[s]); bd <= ns.prune {
		ns.cand = append(ns.cand, nearCand{bd2: bd, s: s})
	}
	return true
}

// finish computes shape distances for the candidates nearest box first,
// and stops at the first box farther than the k-th best shape distance (by
// more than the rounding margin): most candidates never need theirs.
func (ns *nearSearch) finish() {
	c := ns.cand
	if len(c) <= 32 {
		for i := 1; i < len(c); i++ { // insertion sort: short lists
			x := c[i]
			j := i
			for ; j > 0 && c[j-1].bd2 > x.bd2; j-- {
				c[j] = c[j-1]
			}
			c[j] = x
		}
	} else {
		slices.SortFunc(c, func(x, y nearCand) int { return cmp.Compare(x.bd2, y.bd2) })
	}
	w := ns.w
	b := &w.b
	k := ns.k
	for _, cd := range c {
		if cd.bd2 > ns.prune {
			break
		}
		s := cd.s
		h := nearHit{d2: narrowphase.DistanceSq(b.shapes[s], b.xf[s], ns.p), id: w.idOf(s)}
		h.d = math.Sqrt(h.d2)
		// Compared as a distance, as reported: a square can round a body at
		// exactly maxDist out.
		if h.d > ns.max {
			continue
		}
		best := ns.best
		if len(best) == k {
			if !nearLess(h, best[k-1]) {
				continue
			}
			best = best[:k-1]
		}
		i := len(best) // insertion into the short sorted list
		best = append(best, h)
		for i > 0 && nearLess(h, best[i-1]) {
			best[i] = best[i-1]
			i--
		}
		best[i] = h
		ns.best = best
		if len(best) == k {
			if p := ns.pruneAt(best[k-1].d); p < ns.prune {
				ns.prune = p
			}
		}
	}
}

// boxDistSq returns the squared distance from p to box b, zero inside. The
// rounding of b's edges may make it larger than the distance to the box b
// was rounded from, by at most 2⁻²⁴ of the coordinates, which pruneAt's
// margin covers. An infinite edge (a box beyond float32's range) counts as
// float32's largest value, which the box reaches at least.
func boxDistSq(p shape.Vec2, b *box32) float64 {
	x0, y0, x1, y1 := b.x0, b.y0, b.x1, b.y1
	if x0 > math.MaxFloat32 {
		x0 = math.MaxFloat32
	}
	if y0 > math.MaxFloat32 {
		y0 = math.MaxFloat32
	}
	if x1 < -math.MaxFloat32 {
		x1 = -math.MaxFloat32
	}
	if y1 < -math.MaxFloat32 {
		y1 = -math.MaxFloat32
	}
	var dx, dy float64
	if d := float64(x0) - p.X; d > 0 {
		dx = d
	} else if d := p.X - float64(x1); d > 0 {
		dx = d
	}
	if d := float64(y0) - p.Y; d > 0 {
		dy = d
	} else if d := p.Y - float64(y1); d > 0 {
		dy = d
	}
	return float64(dx*dx) + float64(dy*dy)
}

// categoryIndex reports whether the category index may be read, building
// it when a query with mask, which leaves out some categories, is the
// first to need it. Queries run side by side: the first to claim the
// build does it while the others search around their point (the same
// answers), and publishes it with an atomic store that the others' loads
// see before they read it. Mutations, which have the world to themselves,
// keep it from then on.
func (w *World) categoryIndex(mask uint32) bool {
	switch atomic.LoadUint32(&w.catState) {
	case catBuilt:
		return true
	case catNone:
		if mask != math.MaxUint32 && atomic.CompareAndSwapUint32(&w.catState, catNone, catBuilding) {
			w.b.cats.build(&w.b)
			atomic.StoreUint32(&w.catState, catBuilt)
			return true
		}
	}
	return false
}

// syncCatState sets catState from the index a restore or a clone left.
func (w *World) syncCatState() {
	st := uint32(catNone)
	if w.b.cats.on {
		st = catBuilt
	}
	atomic.StoreUint32(&w.catState, st)
}

// Values of World.catState.
const (
	catNone = iota
	catBuilding
	catBuilt
)
