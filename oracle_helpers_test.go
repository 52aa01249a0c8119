package collide_test

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/collide-go/collide"
)

// This file holds the few pieces that the world oracles (diff_test.go,
// differential_test.go, hunt9_query_test.go, oracle_configs_test.go,
// world_oracle_test.go) share: the documented filter rule, the calls that
// must refuse a stale id, the key of a contact, the symmetric difference of
// two answers and a generator of convex shapes.

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

// staleCallErrs makes every World call that takes a body id on id and
// returns their errors by the call's name: for a removed or never issued
// id each must be ErrUnknownBody.
func staleCallErrs(w *collide.World, id collide.BodyID) map[string]error {
	s, _ := collide.NewCircle(1)
	return map[string]error{
		"Remove":       w.Remove(id),
		"Move":         w.Move(id, collide.V(1, 0)),
		"SetTransform": w.SetTransform(id, collide.V(1, 2), 0.5),
		"SetFilter":    w.SetFilter(id, collide.Filter{}),
		"SetShape":     w.SetShape(id, s),
		"SetSensor":    w.SetSensor(id, true),
		"SetKind":      w.SetKind(id, collide.Static),
		"SetUserData":  w.SetUserData(id, "x"),
	}
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
