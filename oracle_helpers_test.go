package collide_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/shape"
)

// This file holds the few pieces that the world oracles (diff_test.go,
// differential_test.go, hunt7_bullet_test.go, hunt9_query_test.go,
// oracle_configs_test.go, world_oracle_test.go) share: the documented
// filter rule, the calls that must refuse a stale id, the key of a
// contact, the comparison and symmetric difference of two answers,
// generators of convex shapes and of stars, and a shape placed to touch
// another exactly.

// partKey names one contact: the bodies, lower id first, and their parts.
type partKey struct {
	a, b   collide.BodyID
	pa, pb int
}

// keyOf returns c's key with the lower id first (the parts swapped with
// the bodies).
func keyOf(c collide.Contact) partKey {
	if c.B < c.A {
		return partKey{c.B, c.A, c.PartB, c.PartA}
	}
	return partKey{c.A, c.B, c.PartA, c.PartB}
}

// bits returns the category and mask f stands for: a zero filter is
// category 1 with every mask bit.
func bits(f collide.Filter) (uint32, uint32) {
	if f.Category == 0 && f.Mask == 0 {
		return 1, math.MaxUint32
	}
	return f.Category, f.Mask
}

// queryPasses is the query filter rule, written from the docs: the body's
// category bc in the query's mask, and the query's category (when not 0)
// in the body's mask bm (the query filter read through bits, the body's
// as its model holds it); Exclude and SkipSensors as named.
func queryPasses(q collide.Filter, id collide.BodyID, bc, bm uint32, sensor bool) bool {
	qc, qm := bits(q)
	if bc&qm == 0 || (qc != 0 && qc&bm == 0) {
		return false
	}
	return id != q.Exclude && !(q.SkipSensors && sensor)
}

// checkStaleCalls makes every World call that takes a body id on id (a
// removed or never issued one) and calls fail for one, if any, that does
// not return ErrUnknownBody.
func checkStaleCalls(w *collide.World, id collide.BodyID, fail func(format string, args ...any)) {
	s, _ := collide.NewCircle(1)
	for name, err := range map[string]error{
		"Remove":       w.Remove(id),
		"Move":         w.Move(id, collide.V(1, 0)),
		"SetTransform": w.SetTransform(id, collide.V(1, 2), 0.5),
		"SetFilter":    w.SetFilter(id, collide.Filter{}),
		"SetShape":     w.SetShape(id, s),
		"SetSensor":    w.SetSensor(id, true),
		"SetKind":      w.SetKind(id, collide.Static),
		"SetUserData":  w.SetUserData(id, "x"),
	} {
		if !errors.Is(err, collide.ErrUnknownBody) {
			fail("%s(stale id %#x) = %v, want ErrUnknownBody", name, uint64(id), err)
		}
	}
}

// sameIDSet sorts got and want (in place) and reports whether they hold
// the same ids.
func sameIDSet(got, want []collide.BodyID) bool {
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want)
}

// idsDiff returns the ids in one of got and want (both sorted) but not in
// the other: those of got first, then those of want.
func idsDiff(got, want []collide.BodyID) []collide.BodyID {
	var diff []collide.BodyID
	for _, id := range got {
		if _, ok := slices.BinarySearch(want, id); !ok {
			diff = append(diff, id)
		}
	}
	for _, id := range want {
		if _, ok := slices.BinarySearch(got, id); !ok {
			diff = append(diff, id)
		}
	}
	return diff
}

// randConvex returns a random convex shape of every kind (an offset circle
// too) whose coordinates come from grid(lo, hi) and sizes from size, both
// drawing on r.
func randConvex(r *rand.Rand, grid func(lo, hi float64) float64, size func() float64) collide.Shape {
	for {
		var sh collide.Shape
		var err error
		switch r.IntN(7) {
		case 0:
			sh, err = collide.NewCircle(size())
		case 1:
			sh, err = collide.NewOffsetCircle(collide.V(grid(-1, 1), grid(-1, 1)), size())
		case 2:
			sh, err = collide.NewAABB(size(), size())
		case 3:
			sh, err = collide.NewOBB(size(), size())
		case 4:
			pts := make([]collide.Vec2, 3+r.IntN(6))
			for i := range pts {
				pts[i] = collide.V(grid(-1.5, 1.5), grid(-1.5, 1.5))
			}
			sh, err = collide.ConvexHull(pts)
		case 5:
			sh, err = collide.NewCapsule(collide.V(grid(-1, 0), grid(-1, 1)), collide.V(grid(0, 1), grid(-1, 1)), size()/2)
		default:
			sh, err = collide.NewSegment(collide.V(grid(-1.5, 0), grid(-1, 1)), collide.V(grid(0, 1.5), grid(-1, 1)))
		}
		if err == nil {
			return sh
		}
	}
}

// randStar returns the outline of a concave star of 8, 10 or 12 points,
// counter-clockwise about the origin, its outer radius twice a size(),
// its inner one 0.375 of that.
func randStar(r *rand.Rand, size func() float64) []collide.Vec2 {
	pts := make([]collide.Vec2, 8+2*r.IntN(3))
	rad := 2 * size()
	for i := range pts {
		rr := rad
		if i%2 == 1 {
			rr *= 0.375
		}
		sn, cs := math.Sincos(2 * math.Pi * float64(i) / float64(len(pts)))
		pts[i] = collide.V(rr*cs, rr*sn)
	}
	return pts
}

// touchReach returns the centre of a circle or an AABB s placed by xf (an
// AABB ignores the angle: its centre is xf.Pos) and its extent from that
// centre along the axis (sx, sy) (one of them 0, the other ±1); ok is false
// for any other kind.
func touchReach(s collide.Shape, xf collide.Transform, sx, sy float64) (center collide.Vec2, reach float64, ok bool) {
	switch s.Kind() {
	case shape.KindCircle:
		return xf.Apply(s.Center()), s.Radius(), true
	case shape.KindAABB:
		h := s.HalfExtents()
		return xf.Pos, math.Abs(sx)*h.X + math.Abs(sy)*h.Y, true
	}
	return collide.Vec2{}, 0, false
}

// touchingShape returns an AABB or a circle (half extents or radius from
// size) and the position at which it touches, along the axis (sx, sy), a
// body whose extent from center along it is reach (touchReach).
func touchingShape(r *rand.Rand, size func() float64, center collide.Vec2, reach, sx, sy float64) (collide.Shape, collide.Vec2) {
	var s collide.Shape
	var own float64
	if r.IntN(2) == 0 {
		hw, hh := size(), size()
		s, _ = collide.NewAABB(hw, hh)
		own = math.Abs(sx)*hw + math.Abs(sy)*hh
	} else {
		rr := size()
		s, _ = collide.NewCircle(rr)
		own = rr
	}
	return s, center.Add(collide.V(sx*(reach+own), sy*(reach+own)))
}
