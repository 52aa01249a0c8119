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
	Point    shape.Vec2 // world point where the ray enters the shape
	Normal   shape.Vec2 // outward unit surface normal there
	Distance float64    // distance from the ray origin
}

// accept reports whether the live body in slot s passes query filter f
// (already defaulted).
func (w *World) accept(s int32, f Filter) bool { return accepts(f, w.b.filter[s]) }

// QueryAABB calls fn for each body whose shape overlaps box (touching does
// not count) and passes filter f, until fn returns false.
func (w *World) QueryAABB(box shape.AABB, f Filter, fn func(BodyID) bool) error {
	if !box.IsFinite() {
		return fmt.Errorf("%w: box %v", ErrNotFinite, box)
	}
	if box.IsEmpty() || w.tree.Len() == 0 {
		return nil
	}
	// Clip the box to the world's extent (plus a margin, so that touching
	// stays touching): a "query everything" box of any finite size then
	// works, and its half extents stay within what a shape may hold.
	bounds := w.tree.Bounds().Expand(1)
	box = shape.AABB{Min: box.Min.Max(bounds.Min), Max: box.Max.Min(bounds.Max)}
	if box.IsEmpty() {
		return nil
	}
	h := box.HalfExtents()
	if h.X <= 0 || h.Y <= 0 {
		return nil // a box of zero area overlaps nothing: touching is not a hit
	}
	q, err := shape.NewAABB(h.X, h.Y)
	if err != nil {
		return err
	}
	t := shape.Transform{Pos: box.Center()}
	f = f.orDefault()
	b := &w.b
	w.tree.Query(box, func(s int32) bool {
		if !w.accept(s, f) || !b.hot[s].tight.Overlaps(box) || !narrowphase.Overlap(q, t, b.shapes[s], b.xf[s]) {
			return true
		}
		return fn(w.idOf(s))
	})
	return nil
}

// QueryPoint calls fn for each body whose shape contains p (its boundary
// included) and passes filter f, until fn returns false.
func (w *World) QueryPoint(p shape.Vec2, f Filter, fn func(BodyID) bool) error {
	if !p.IsFinite() {
		return fmt.Errorf("%w: point %v", ErrNotFinite, p)
	}
	f = f.orDefault()
	b := &w.b
	w.tree.Query(shape.AABB{Min: p, Max: p}, func(s int32) bool {
		if !w.accept(s, f) || !b.hot[s].tight.Contains(p) || !narrowphase.ContainsPoint(b.shapes[s], b.xf[s], p) {
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
		return fmt.Errorf("%w: %v", ErrNotFinite, err)
	}
	f = f.orDefault()
	box := s.WorldAABB(t)
	b := &w.b
	w.tree.Query(box, func(k int32) bool {
		if !w.accept(k, f) || !b.hot[k].tight.Overlaps(box) {
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
		return dir, fmt.Errorf("%w: ray from %v along %v to %v", ErrNotFinite, origin, dir, maxDist)
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
	m := math.Max(math.Abs(dir.X), math.Abs(dir.Y))
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
	f = f.orDefault()
	b := &w.b
	var best RayHit
	found := false
	w.tree.RayCast(origin, dir, maxDist, func(s int32, limit float64) float64 {
		if !w.accept(s, f) {
			return limit
		}
		h, ok := narrowphase.RayCast(b.shapes[s], b.xf[s], origin, dir, limit)
		if !ok {
			return limit
		}
		id := w.idOf(s)
		if !found || h.Distance < best.Distance || (h.Distance == best.Distance && id < best.Body) {
			best = RayHit{Body: id, Point: h.Point, Normal: h.Normal, Distance: h.Distance}
			found = true
		}
		// Keep visiting bodies entered at the same distance, so that ties
		// go to the lower id; a clip of 0 would stop the cast.
		return math.Max(best.Distance, math.SmallestNonzeroFloat64)
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
	f = f.orDefault()
	b := &w.b
	bufp := hitPool.Get().(*[]RayHit)
	hits := (*bufp)[:0]
	w.tree.RayCast(origin, dir, maxDist, func(s int32, limit float64) float64 {
		if w.accept(s, f) {
			if h, ok := narrowphase.RayCast(b.shapes[s], b.xf[s], origin, dir, maxDist); ok {
				hits = append(hits, RayHit{Body: w.idOf(s), Point: h.Point, Normal: h.Normal, Distance: h.Distance})
			}
		}
		return limit
	})
	slices.SortFunc(hits, func(x, y RayHit) int {
		if c := cmp.Compare(x.Distance, y.Distance); c != 0 {
			return c
		}
		return cmp.Compare(x.Body, y.Body)
	})
	for _, h := range hits {
		if !fn(h) {
			break
		}
	}
	*bufp = hits[:0]
	hitPool.Put(bufp)
	return nil
}

// nearHit is a Nearest candidate: a slot and its squared shape distance.
type nearHit struct {
	d2 float64
	id BodyID
}

var nearPool = sync.Pool{New: func() any { s := make([]nearHit, 0, 16); return &s }}

// Nearest calls fn for the k bodies passing filter f nearest to p, by the
// distance from p to each shape (0 inside), nearest first (ties by id),
// until fn returns false.
//
// It searches a square around p whose size is guessed from the body
// density, computing shape distances for the bodies whose boxes it meets,
// and doubles the square until the k-th best distance lies inside it: a
// body outside the square is farther than its half side. A heap-ordered
// walk of the tree (rtree's Nearby) pushes every entry of every leaf it
// opens and measured several times slower.
func (w *World) Nearest(p shape.Vec2, k int, f Filter, fn func(id BodyID, dist float64) bool) error {
	if !p.IsFinite() {
		return fmt.Errorf("%w: point %v", ErrNotFinite, p)
	}
	if k < 0 {
		return fmt.Errorf("%w: k = %d", ErrInvalidArgument, k)
	}
	n := w.tree.Len()
	if k == 0 || n == 0 {
		return nil
	}
	f = f.orDefault()
	b := &w.b
	bounds := w.tree.Bounds()
	size := bounds.Max.Sub(bounds.Min)
	// Half side of a square expected to hold about 2k bodies.
	r := math.Sqrt(float64(2*k) * math.Max(size.X*size.Y, 1e-300) / (4 * float64(n)))
	r = math.Max(r, 1e-9*math.Max(math.Abs(p.X), math.Abs(p.Y)))
	if !(r > 0) || math.IsInf(r, 0) {
		r = 1
	}
	bufp := nearPool.Get().(*[]nearHit)
	best := (*bufp)[:0]
	for {
		best = best[:0]
		box := shape.AABB{Min: shape.V(p.X-r, p.Y-r), Max: shape.V(p.X+r, p.Y+r)}
		w.tree.Query(box, func(s int32) bool {
			if !w.accept(s, f) {
				return true
			}
			t := &b.hot[s].tight
			if len(best) == k && boxDistSq(p, t) > best[k-1].d2 {
				return true
			}
			h := nearHit{d2: narrowphase.DistanceSq(b.shapes[s], b.xf[s], p), id: w.idOf(s)}
			if len(best) == k {
				if !nearLess(h, best[k-1]) {
					return true
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
			return true
		})
		if (len(best) == k && best[k-1].d2 <= r*r) || box.ContainsAABB(bounds) {
			break
		}
		r *= 2
	}
	for _, h := range best {
		if !fn(h.id, math.Sqrt(h.d2)) {
			break
		}
	}
	*bufp = best[:0]
	nearPool.Put(bufp)
	return nil
}

// boxDistSq returns the squared distance from p to box b, zero inside.
func boxDistSq(p shape.Vec2, b *shape.AABB) float64 {
	var dx, dy float64
	if d := b.Min.X - p.X; d > 0 {
		dx = d
	} else if d := p.X - b.Max.X; d > 0 {
		dx = d
	}
	if d := b.Min.Y - p.Y; d > 0 {
		dy = d
	} else if d := p.Y - b.Max.Y; d > 0 {
		dy = d
	}
	return float64(dx*dx) + float64(dy*dy)
}

func nearLess(a, b nearHit) bool { return a.d2 < b.d2 || (a.d2 == b.d2 && a.id < b.id) }
