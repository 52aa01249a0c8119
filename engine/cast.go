package engine

import (
	"fmt"
	"math"
	"sync"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// ShapeHit is where a moving shape first touches a body.
type ShapeHit struct {
	Body     BodyID     // the body touched
	Part     int        // the part of the body touched; 0 for a simple shape
	Fraction float64    // in [0, 1]: the first time of touching, of the motion
	Point    shape.Vec2 // world point where they touch
	Normal   shape.Vec2 // unit normal from the body toward the moving shape
}

// checkCast validates a cast's input.
func checkCast(s shape.Shape, t shape.Transform, delta shape.Vec2) error {
	if !s.Valid() {
		return ErrInvalidShape
	}
	if err := t.Validate(); err != nil {
		return err
	}
	if !delta.IsFinite() {
		return fmt.Errorf("%w: cast delta %v", ErrNotFinite, delta)
	}
	if box := s.WorldAABB(t); !box.IsFinite() || !box.Min.Add(delta).IsFinite() || !box.Max.Add(delta).IsFinite() {
		return fmt.Errorf("%w: cast from %v by %v overflows", ErrNotFinite, t.Pos, delta)
	}
	return nil
}

// sweep calls fn for the bodies whose fat box the box of s placed by t
// meets while moving by delta, roughly in order of first touch; fn gets the
// current limit on the distance moved and returns the new one, as the broad
// phase's Sweep does.
func (w *World) sweep(s shape.Shape, t shape.Transform, delta shape.Vec2, fn func(slot int32, limit float64) float64) {
	box := s.WorldAABB(t)
	l := delta.Len()
	if !(l > 0) || math.IsInf(l, 0) {
		// No motion (or too tiny to normalise): the bodies the box meets.
		w.tree.Query(box, func(k int32) bool { return fn(k, 0) >= 0 })
		return
	}
	w.tree.Sweep(box.Center(), delta.Scale(1/l), l, box.HalfExtents(), fn)
}

// CastShape returns the first body, passing filter f, that shape s placed
// by t touches while it moves by delta (translation only), with the
// fraction of the motion at the touch; equal fractions go to the lower id.
// A body the shape overlaps at the start is a hit at fraction 0; sensors
// count unless the filter skips them. It sees bodies as mutated since the
// last Step.
func (w *World) CastShape(s shape.Shape, t shape.Transform, delta shape.Vec2, f Filter) (ShapeHit, bool, error) {
	if err := checkCast(s, t, delta); err != nil {
		return ShapeHit{}, false, err
	}
	best, found := w.firstCast(s, t, delta, newQuery(f), false, nil)
	return best, found, nil
}

// slideTol is the cosine between a motion and a touched surface below
// which MoveAndSlide treats the motion as along the surface, not into it:
// a motion clipped against a plane keeps a component of rounding size
// (1e-18 of its length) into the plane, which must not stop it. Moving
// into a surface at so small an angle costs an overlap of 1e-12 of the
// motion at most.
const slideTol = 1e-12

// firstCast is CastShape's search, on validated input: the first body
// passing q that the moving shape touches, ties to the lower id. With
// slide, parts of bodies the shape starts touching (or overlapping by
// rounding) do not count unless it moves into them (by more than
// slideTol), nor parts of compounds and chains it only grazes on the way
// (narrowphase.CastSliding): MoveAndSlide's rule. With ns (bodies passing
// q gathered near the motion, or nil), it reads the bodies from ns when
// the box the shape sweeps lies in ns.box: every body whose tight box
// meets the swept box is then in ns, and the others cannot be touched;
// the answer is the same whatever the order the bodies are tried in.
func (w *World) firstCast(s shape.Shape, t shape.Transform, delta shape.Vec2, q query, slide bool, ns *nearSet) (ShapeHit, bool) {
	b := &w.b
	var best ShapeHit
	found := false
	try := func(k int32) {
		var h narrowphase.CastHit
		var ok bool
		if slide {
			h, ok = narrowphase.CastSliding(s, t, delta, b.shapes[k], b.xf[k], slideTol)
		} else {
			h, ok = narrowphase.Cast(s, t, delta, b.shapes[k], b.xf[k])
		}
		if !ok {
			return
		}
		id := w.idOf(k)
		if !found || h.Fraction < best.Fraction || (h.Fraction == best.Fraction && id < best.Body) {
			best = ShapeHit{Body: id, Part: h.Part, Fraction: h.Fraction, Point: h.Point, Normal: h.Normal}
			found = true
		}
	}
	if ns != nil && ns.ok {
		box := s.WorldAABB(t)
		swept := box.Union(shape.AABB{Min: box.Min.Add(delta), Max: box.Max.Add(delta)})
		if swept = reachBox(swept, 0); ns.box.ContainsAABB(swept) { // reachBox: the rounding of box + delta
			for _, k := range ns.slot[:ns.n] {
				if b.tight[k].overlapsAABB(swept) {
					try(k)
				}
			}
			return best, found
		}
	}
	l := delta.Len()
	w.sweep(s, t, delta, func(k int32, limit float64) float64 {
		if !w.accept(k, q) {
			return limit
		}
		try(k)
		if !found {
			return limit
		}
		// Clip a little past the best, so that bodies touched at the same
		// fraction (by rounding, their boxes entered a hair later) are
		// still visited for the tie rule.
		return min(limit, float64(float64(best.Fraction*l)*(1+1e-9))+1e-300)
	})
	return best, found
}

var shapeHitPool = sync.Pool{New: func() any { s := make([]ShapeHit, 0, 16); return &s }}

// CastShapeAll calls fn for every body, passing filter f, that shape s
// placed by t touches while it moves by delta, in order of fraction (equal
// fractions by id), until fn returns false.
func (w *World) CastShapeAll(s shape.Shape, t shape.Transform, delta shape.Vec2, f Filter, fn func(ShapeHit) bool) error {
	if err := checkCast(s, t, delta); err != nil {
		return err
	}
	q := newQuery(f)
	b := &w.b
	bufp := shapeHitPool.Get().(*[]ShapeHit)
	hits := (*bufp)[:0]
	w.sweep(s, t, delta, func(k int32, limit float64) float64 {
		if w.accept(k, q) {
			if h, ok := narrowphase.Cast(s, t, delta, b.shapes[k], b.xf[k]); ok {
				hits = append(hits, ShapeHit{Body: w.idOf(k), Part: h.Part, Fraction: h.Fraction, Point: h.Point, Normal: h.Normal})
			}
		}
		return limit
	})
	yieldInOrder(hits, func(h ShapeHit) (float64, BodyID) { return h.Fraction, h.Body }, fn)
	*bufp = hits[:0]
	shapeHitPool.Put(bufp)
	return nil
}
