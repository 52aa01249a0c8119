package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// Queries are read-only: they write no field of World, so any number of
// goroutines may run them at once while nothing mutates. Scratch space that
// a query needs comes from a sync.Pool, not from the World.

// RayHit is where a ray enters a body.
type RayHit struct {
	Body     BodyID     // the body hit
	Part     int        // the part of a compound or chain body hit (for a ray starting inside, the first holding its origin); 0 for a simple shape
	Point    shape.Vec2 // world point where the ray enters the shape
	Normal   shape.Vec2 // outward unit surface normal there
	Distance float64    // distance from the ray origin
}

// query is a query's filter, resolved once per query.
type query struct {
	cat, mask uint32 // cat 0: any category
	exclude   BodyID
	sensors   bool // whether sensors pass
}

func newQuery(f Filter) query {
	q := query{cat: f.Category, mask: f.Mask, exclude: f.Exclude, sensors: !f.SkipSensors}
	if f.Category == 0 && f.Mask == 0 {
		q.cat, q.mask = DefaultFilter.Category, DefaultFilter.Mask
	}
	return q
}

// accept reports whether the live body in slot s passes query q.
func (w *World) accept(s int32, q query) bool {
	f := w.b.filter[s]
	if f.cat&q.mask == 0 || (q.cat != 0 && q.cat&f.mask == 0) {
		return false
	}
	if !q.sensors && w.b.hot[s].flags&flagSensor != 0 {
		return false
	}
	return q.exclude == 0 || q.exclude != w.idOf(s)
}

// inSlotOrder calls visit, in increasing slot order, with every body that
// passes q and whose fat box meets box, until visit returns false. The
// broad phase lists bodies in an order its history decides (where each
// was inserted, how its nodes split), which differs between a world and
// its restored snapshot or its clone; slot order is the state's own, so
// QueryAABB, QueryPoint and QueryShape call back in the same order in
// every copy of a world, as rollback and lockstep need.
func (w *World) inSlotOrder(box shape.AABB, q query, visit func(s int32) bool) {
	var small [32]int32
	n := 0
	var big []int32 // from slotPool, past len(small)
	var pooled *[]int32
	w.tree.Query(box, func(s int32) bool {
		if !w.accept(s, q) {
			return true
		}
		if big == nil {
			if n < len(small) {
				small[n] = s
				n++
				return true
			}
			pooled = slotPool.Get().(*[]int32)
			big = append((*pooled)[:0], small[:]...)
		}
		big = append(big, s)
		return true
	})
	if big == nil {
		c := small[:n]
		for i := 1; i < len(c); i++ { // insertion sort: a few, mostly in order
			x, j := c[i], i
			for ; j > 0 && c[j-1] > x; j-- {
				c[j] = c[j-1]
			}
			c[j] = x
		}
		for _, s := range c {
			if !visit(s) {
				return
			}
		}
		return
	}
	slices.Sort(big)
	for _, s := range big {
		if !visit(s) {
			break
		}
	}
	*pooled = big[:0]
	slotPool.Put(pooled)
}

// slotPool holds inSlotOrder's lists longer than its own array.
var slotPool = sync.Pool{New: func() any { s := make([]int32, 0, 256); return &s }}

// maxQueryHalf bounds the half extents of the box shape QueryAABB builds:
// shapes hold sizes up to 1e150 (shape.ErrTooLarge).
const maxQueryHalf = 1e150

// QueryAABB calls fn for each body whose shape overlaps box (touching does
// not count) and passes filter f, until fn returns false. A box of any
// finite size works. Bodies come in slot order (see inSlotOrder), the same
// in every copy of the world, as in QueryPoint and QueryShape.
func (w *World) QueryAABB(box shape.AABB, f Filter, fn func(BodyID) bool) error {
	if !box.IsFinite() {
		return fmt.Errorf("%w: query box %v", ErrNotFinite, box)
	}
	if box.IsEmpty() || w.tree.Len() == 0 {
		return nil
	}
	// The box is used as given: clipping it to the world would move its
	// edges, and the rounding of its centre and half extents with them, so
	// that a body touching an edge could turn into an overlap. A box too big
	// for a shape takes the per-body path below.
	h := box.HalfExtents()
	if h.X <= 0 || h.Y <= 0 {
		return nil // a box of zero area overlaps nothing: touching is not a hit
	}
	q := newQuery(f)
	b := &w.b
	// The box as a shape is its centre and half extents: used directly
	// only when they give back its edges exactly. Otherwise (far from the
	// origin both round by up to an ulp of the coordinates, which turned
	// a body touching an edge into an overlap) each body is tested in its
	// own frame, below, where the edges are small numbers.
	c := box.Center()
	if h.X <= maxQueryHalf && h.Y <= maxQueryHalf && c.Sub(h) == box.Min && c.Add(h) == box.Max {
		qs, err := shape.NewAABB(h.X, h.Y)
		if err != nil {
			return err
		}
		t := shape.Transform{Pos: c}
		hs := h.X + h.Y
		w.inSlotOrder(box, q, func(s int32) bool {
			tb := &b.tight[s]
			if !tb.overlapsAABB(box) {
				return true
			}
			// Overlap works in the box's frame, where a body near an edge
			// has coordinates of the size of the half extents, rounded by
			// an ulp of them: a box far larger than the body's coordinates
			// (a half-plane as a box 1e12 wide, its edge at 0) would miss a
			// body 1e-6 into it. Such a body is tested in its own frame.
			m := math.Abs(float64(tb.x0)) + math.Abs(float64(tb.y0)) + math.Abs(float64(tb.x1)) + math.Abs(float64(tb.y1))
			if hs <= 16*(1+m) {
				if !narrowphase.Overlap(qs, t, b.shapes[s], b.xf[s]) {
					return true
				}
			} else if !boxOverlapsBody(box, b.shapes[s], b.xf[s]) {
				return true
			}
			return fn(w.idOf(s))
		})
		return nil
	}
	// A box too big for a shape (bodies far apart, near ±1e300), or one
	// its centre and half extents do not give back exactly: test each
	// body in its own frame against the box clipped to just beyond the
	// shape's bounding radius. Clipping there moves no edge that can meet
	// the shape, so the answer is the same, and the clipped box is small.
	w.inSlotOrder(box, q, func(s int32) bool {
		if !b.tight[s].overlapsAABB(box) {
			return true
		}
		if boxOverlapsBody(box, b.shapes[s], b.xf[s]) {
			return fn(w.idOf(s))
		}
		return true
	})
	return nil
}

// boxOverlapsBody reports whether box overlaps shape sh placed by xf,
// computed in the shape's frame so that a box of any finite size works.
//
// The box as a shape is its centre and half extents. Where those do not
// give back its edges in that frame, the box they make may reach an ulp
// past an edge, and a body touching that edge would overlap it; so then
// the box is shrunk by a few ulps on every side, inside the box as given,
// and a body counts only if it overlaps that: a body that reaches into the
// box by no more than rounding touches it, to rounding, and touching is
// no hit.
func boxOverlapsBody(box shape.AABB, sh shape.Shape, xf shape.Transform) bool {
	r := float64(sh.BoundingRadius()*1.001) + 1
	rel := shape.AABB{
		Min: box.Min.Sub(xf.Pos).Max(shape.V(-r, -r)),
		Max: box.Max.Sub(xf.Pos).Min(shape.V(r, r)),
	}
	h := rel.HalfExtents()
	if !(h.X > 0 && h.Y > 0) {
		return false // empty or of zero area: touching at most
	}
	c := rel.Center()
	if c.Sub(h) != rel.Min || c.Add(h) != rel.Max {
		// Inside the box as given: c is within half an ulp of its centre,
		// h of its half extents, and the shape's edges c ± h round by
		// half an ulp more.
		m := float64(4 * 0x1p-52 * (max(math.Abs(c.X), math.Abs(c.Y)) + max(h.X, h.Y)))
		if h = h.Sub(shape.V(m, m)); !(h.X > 0 && h.Y > 0) {
			return false // thinner than rounding: touching at most
		}
	}
	qs, err := shape.NewAABB(h.X, h.Y)
	if err != nil {
		// Only a shape near the 1e150 size limit gets here: its bounding
		// box answers.
		return true
	}
	return narrowphase.Overlap(qs, shape.Transform{Pos: c}, sh, shape.Transform{Rot: xf.Rot})
}

// QueryPoint calls fn for each body whose shape contains p (its boundary
// included) and passes filter f, until fn returns false.
func (w *World) QueryPoint(p shape.Vec2, f Filter, fn func(BodyID) bool) error {
	if !p.IsFinite() {
		return fmt.Errorf("%w: query point %v", ErrNotFinite, p)
	}
	q := newQuery(f)
	b := &w.b
	w.inSlotOrder(shape.AABB{Min: p, Max: p}, q, func(s int32) bool {
		if !b.tight[s].contains(p) || !narrowphase.ContainsPoint(b.shapes[s], b.xf[s], p) {
			return true
		}
		return fn(w.idOf(s))
	})
	return nil
}

// QueryShape calls fn for each body that the shape s placed by t overlaps
// and that passes filter f, with the manifold from the query shape (A) to
// the body (B), until fn returns false. Use it for a rotated skill hitbox or
// an explosion circle.
func (w *World) QueryShape(s shape.Shape, t shape.Transform, f Filter, fn func(BodyID, narrowphase.Manifold) bool) error {
	if !s.Valid() {
		return ErrInvalidShape
	}
	if err := t.Validate(); err != nil {
		return err // wraps ErrNotFinite (the shape package's, the same error)
	}
	q := newQuery(f)
	box := s.WorldAABB(t)
	if !box.IsFinite() {
		return fmt.Errorf("%w: query shape box %v overflows", ErrNotFinite, box)
	}
	b := &w.b
	w.inSlotOrder(box, q, func(k int32) bool {
		if !b.tight[k].overlapsAABB(box) {
			return true
		}
		m, ok := narrowphase.Collide(s, t, b.shapes[k], b.xf[k])
		if !ok {
			return true
		}
		return fn(w.idOf(k), m)
	})
	return nil
}

func checkRay(origin, dir shape.Vec2, maxDist float64) (shape.Vec2, error) {
	if !origin.IsFinite() || !dir.IsFinite() || math.IsNaN(maxDist) {
		return dir, fmt.Errorf("%w: ray from %v along %v for %v", ErrNotFinite, origin, dir, maxDist)
	}
	if maxDist < 0 {
		return dir, fmt.Errorf("%w: negative ray distance %v", ErrInvalidArgument, maxDist)
	}
	if dir == (shape.Vec2{}) {
		return dir, fmt.Errorf("%w: zero ray direction", ErrInvalidArgument)
	}
	if math.Abs(dir.LenSq()-1) <= 1e-15 {
		return dir, nil // already unit: keep the caller's bits
	}
	// Scale by the larger component first, so that a direction too short
	// (or too long) to square still normalises to itself.
	m := max(math.Abs(dir.X), math.Abs(dir.Y))
	return shape.Vec2{X: dir.X / m, Y: dir.Y / m}.Normalize(), nil
}

// RayCast returns the first body, passing filter f, that the ray from origin
// along dir (any non-zero length) meets within maxDist (which may be
// +Inf). A ray that starts inside a body hits it at distance 0 with the
// normal opposite to the ray. Ties go to the lower id.
func (w *World) RayCast(origin, dir shape.Vec2, maxDist float64, f Filter) (RayHit, bool, error) {
	dir, err := checkRay(origin, dir, maxDist)
	if err != nil {
		return RayHit{}, false, err
	}
	q := newQuery(f)
	b := &w.b
	var best RayHit
	found := false
	w.tree.RayCast(origin, dir, maxDist, func(s int32, limit float64) float64 {
		if !w.accept(s, q) {
			return limit
		}
		// The narrow phase gets the caller's maxDist, not the clipped
		// limit: a ray clipped exactly where it meets a surface can round
		// to a hit an ulp nearer than the same ray's unclipped one, and
		// the answer must be RayCastAll's first (the lone body's).
		h, ok := narrowphase.RayCast(b.shapes[s], b.xf[s], origin, dir, maxDist)
		if !ok || h.Distance > limit {
			return limit
		}
		id := w.idOf(s)
		if !found || h.Distance < best.Distance || (h.Distance == best.Distance && id < best.Body) {
			best = RayHit{Body: id, Part: h.Part, Point: h.Point, Normal: h.Normal, Distance: h.Distance}
			found = true
		}
		// Clip to the best distance, not below: bodies entered at the same
		// distance are still visited, so that ties go to the lower id.
		return best.Distance
	})
	return best, found, nil
}

var hitPool = sync.Pool{New: func() any { s := make([]RayHit, 0, 64); return &s }}

// RayCastAll calls fn for every body, passing filter f, that the ray meets
// within maxDist, in order of distance (ties by id), until fn returns
// false.
func (w *World) RayCastAll(origin, dir shape.Vec2, maxDist float64, f Filter, fn func(RayHit) bool) error {
	dir, err := checkRay(origin, dir, maxDist)
	if err != nil {
		return err
	}
	q := newQuery(f)
	b := &w.b
	bufp := hitPool.Get().(*[]RayHit)
	hits := (*bufp)[:0]
	w.tree.RayCast(origin, dir, maxDist, func(s int32, limit float64) float64 {
		if w.accept(s, q) {
			if h, ok := narrowphase.RayCast(b.shapes[s], b.xf[s], origin, dir, maxDist); ok {
				hits = append(hits, RayHit{Body: w.idOf(s), Part: h.Part, Point: h.Point, Normal: h.Normal, Distance: h.Distance})
			}
		}
		return limit
	})
	yieldInOrder(hits, func(h RayHit) (float64, BodyID) { return h.Distance, h.Body }, fn)
	*bufp = hits[:0]
	hitPool.Put(bufp)
	return nil
}

// yieldInOrder passes hits to fn, until it returns false, in order of
// their place along the query (key's distance or fraction), equal places
// by lower body id; it sorts hits.
func yieldInOrder[H any](hits []H, key func(H) (float64, BodyID), fn func(H) bool) {
	slices.SortFunc(hits, func(x, y H) int {
		dx, bx := key(x)
		dy, by := key(y)
		if c := cmp.Compare(dx, dy); c != 0 {
			return c
		}
		return cmp.Compare(bx, by)
	})
	for _, h := range hits {
		if !fn(h) {
			break
		}
	}
}
