package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// RayHit is where a ray first enters a shape: the world Point, the outward
// unit surface Normal there and the Distance travelled along the ray from its
// origin (the ray's parameter, since its direction has unit length).
type RayHit struct {
	Point    shape.Vec2 // world point where the ray enters the shape
	Normal   shape.Vec2 // outward unit surface normal there
	Distance float64    // distance from the ray origin along the unit direction
	Part     int        // the part of a compound that was hit; 0 otherwise
}

// RayCast reports where the ray origin + d·dir, 0 <= d <= maxDist, first
// enters the shape s placed by t, with the outward unit normal of the surface
// there.
//
// dir must be a unit vector: callers normalise it, and Distance is measured
// in units of dir. A dir of zero length, a non-finite origin or dir, and a
// negative or NaN maxDist give no hit; maxDist may be +Inf. Shapes are
// closed: a ray that only grazes the boundary hits it, and a ray whose origin
// is inside the shape or on its boundary hits at Distance 0, Point = origin,
// with Normal = -dir (there is no surface to report); Part then names the
// first part of a compound that holds the origin. A zero (invalid) Shape
// is never hit. Like the other shape kinds an AABB is placed by
// [shape.Shape.EffectiveTransform]: it ignores t's rotation.
//
// Each kind is solved in its own local frame, so precision holds far from the
// world origin; nothing allocates.
func RayCast(s shape.Shape, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	if !s.Valid() || !(maxDist >= 0) || !origin.IsFinite() || !dir.IsFinite() || dir.LenSq() == 0 {
		return RayHit{}, false
	}
	// Ahead of the shape by more than rayFar times its reach, the ray is
	// first carried up to it (rayFromNear): turned into the shape's frame
	// from there, its origin rounds to the shape's scale, not the ray's
	// length. Only a unit dir (as documented) is carried: the head start
	// is measured in its units.
	if proj, r := float64((t.Pos.X-origin.X)*dir.X)+float64((t.Pos.Y-origin.Y)*dir.Y), s.Reach(); proj > rayFar*r {
		if skip, ok := rayHeadStart(r, t.Pos, origin, dir, proj); ok {
			return rayFromNear(s, t, origin, dir, maxDist, skip)
		}
	}
	switch s.Kind() {
	case shape.KindCircle:
		return rayCircleIn(s, t, origin, dir, maxDist)
	case shape.KindAABB, shape.KindOBB:
		return rayBox(s.HalfExtents(), s.EffectiveTransform(t), origin, dir, maxDist)
	case shape.KindPolygon:
		return rayPolygon(s.Vertices(), s.Normals(), t, origin, dir, maxDist)
	case shape.KindCapsule, shape.KindSegment:
		return rayCapsule(s, t, origin, dir, maxDist)
	case shape.KindCompound, shape.KindChain:
		return rayComposite(s, t, origin, dir, maxDist)
	}
	return RayHit{}, false
}

// rayFar is how many times its reach ([shape.Shape.Reach], at least its
// bounding radius) a shape must lie ahead of a ray's origin for RayCast to
// carry the ray up to it first. The test is relative, so that a ray scaled
// by a power of two with its shape takes the same path.
const rayFar = 32

// rayHeadStart returns how far along the unit ray RayCast may carry it,
// given the shape's reach r and proj, the rounded distance along it to
// the shape's position c, and whether it may. The start stays outside the disc of twice the reach
// about c: proj rounds by a few ulps of the coordinates, which the margin
// covers. A dir that is not unit, or coordinates so large that the margin
// eats the head start, keep the ray as it is.
func rayHeadStart(r float64, c, origin, dir shape.Vec2, proj float64) (float64, bool) {
	if dd := dir.LenSq(); !(dd > 1-0x1p-30 && dd < 1+0x1p-30) {
		return 0, false
	}
	margin := float64(0x1p-48 * (math.Abs(origin.X) + math.Abs(origin.Y) + math.Abs(c.X) + math.Abs(c.Y)))
	skip := proj - float64(2*r) - margin
	return skip, skip > (rayFar/2)*r && skip >= 0x1p-48*proj
}

// rayFromNear casts the ray from skip along it, in coordinates centred on
// the shape's position c: the start o' − c = (origin − c) + skip·dir is
// summed exactly (twoSum, twoProd) and rounded once, so it lies on the
// ray to an ulp of the shape's scale, where o' placed in world
// coordinates would round to an ulp of the world's and origin turned into
// the shape's frame to an ulp of the ray's length. The hit's Distance is
// skip plus the near cast's, and it counts when that sum is within
// maxDist; the near cast looks a little past maxDist − skip, which
// rounds, so that a ray ending where a previous one's hit lies still hits.
func rayFromNear(s shape.Shape, t shape.Transform, origin, dir shape.Vec2, maxDist, skip float64) (RayHit, bool) {
	rest := maxDist - skip
	if rest < 0 {
		return RayHit{}, false
	}
	c := t.Pos
	o := shape.Vec2{X: sumOnRay(origin.X, c.X, skip, dir.X), Y: sumOnRay(origin.Y, c.Y, skip, dir.Y)}
	h, ok := rayKind(s, shape.Transform{Rot: t.Rot}, o, dir, rest+float64(0x1p-50*maxDist))
	if !ok {
		return RayHit{}, false
	}
	if h.Distance += skip; h.Distance > maxDist {
		return RayHit{}, false
	}
	h.Point = h.Point.Add(c)
	return h, true
}

// rayKind is RayCast's dispatch on the shape's kind, for rayFromNear (not
// RayCast itself, which would carry the ray again). RayCast writes the
// same switch out rather than call this: the extra call, with its
// by-value shape and transform, cost BenchmarkQuery/RayCast 1.5% (3,845
// → 3,904 instructions a query).
func rayKind(s shape.Shape, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	switch s.Kind() {
	case shape.KindCircle:
		return rayCircleIn(s, t, origin, dir, maxDist)
	case shape.KindAABB, shape.KindOBB:
		return rayBox(s.HalfExtents(), s.EffectiveTransform(t), origin, dir, maxDist)
	case shape.KindPolygon:
		return rayPolygon(s.Vertices(), s.Normals(), t, origin, dir, maxDist)
	case shape.KindCapsule, shape.KindSegment:
		return rayCapsule(s, t, origin, dir, maxDist)
	case shape.KindCompound, shape.KindChain:
		return rayComposite(s, t, origin, dir, maxDist)
	}
	return RayHit{}, false
}

// sumOnRay returns o − c + skip·d, exactly summed and rounded once.
func sumOnRay(o, c, skip, d float64) float64 {
	a, ea := twoSum(o, -c)
	p, ep := twoProd(skip, d)
	x, ex := twoSum(a, p)
	return x + (ex + (ea + ep))
}

// insideHit is the answer for a ray that starts inside a shape.
func insideHit(origin, dir shape.Vec2) (RayHit, bool) {
	return RayHit{Point: origin, Normal: dir.Neg(), Distance: 0}, true
}

// rayCircleIn intersects the ray with the circle s placed by t, in the
// circle's frame: its centre placed in the world first would round to the
// ulp of t.Pos, far more than the rest of the answer far from the origin.
func rayCircleIn(s shape.Shape, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	o := t.ApplyInv(origin)
	c, r := s.Center(), s.Radius()
	if circleHolds(c, r, o) {
		return insideHit(origin, dir) // the very test ContainsPoint makes
	}
	h, ok := rayCircle(c, r, o, t.Rot.ApplyInv(dir), maxDist)
	if !ok {
		return RayHit{}, false
	}
	h.Point, h.Normal = t.Apply(h.Point), t.Rot.Apply(h.Normal)
	return h, true
}

// circleHolds reports whether the local point q lies in the circle of local
// centre c and radius r (closed), exactly (circleExcess).
func circleHolds(c shape.Vec2, r float64, q shape.Vec2) bool {
	return circleExcess(c, r, q) <= 0
}

// circleErr bounds the error of |q−c|² − r² computed in floats, relative
// to |q−c|² + r²: the difference rounds (ε = 2⁻⁵³), each square adds 2ε
// and the sum ε, and r² rounds by ε; 6ε and change, taken as 8ε.
const circleErr = 8 * 0x1p-53

// circleExcess returns |q−c|² − r² with its exact sign: the float value
// when it is clear of circleErr, otherwise the exact one to within an ulp,
// the differences split by twoSum and the squares by twoProd, summed as an
// expansion (sumTop). In floats a point an ulp outside a circle, whose
// |q−c|² exceeds r² by less than their rounding, is in it. NaN for a NaN
// q.
func circleExcess(c shape.Vec2, r float64, q shape.Vec2) float64 {
	l2 := q.Sub(c).LenSq()
	rr := float64(r * r) // explicit: no fused multiply-add on arm64
	x := l2 - rr
	if math.IsInf(l2, 1) || (l2+rr > 1e-290 && math.Abs(x) > float64(circleErr*(l2+rr))) {
		return x
	}
	var terms [14]float64
	n := 0
	for _, d := range [2][2]float64{{q.X, c.X}, {q.Y, c.Y}} {
		h, l := twoSum(d[0], -d[1])
		p, e := twoProd(h, h)
		terms[n], terms[n+1] = p, e
		p, e = twoProd(h, l)
		terms[n+2], terms[n+3] = 2*p, 2*e
		p, e = twoProd(l, l)
		terms[n+4], terms[n+5] = p, e
		n += 6
	}
	p, e := twoProd(r, r)
	terms[12], terms[13] = -p, -e
	return sumTop(terms[:])
}

// rayCircle intersects the ray with the circle of world centre c and radius
// r. With m = origin - c and b = m·dir, the ray meets the circle at
// d = -b ± sqrt(r² - |m - b·dir|²). The discriminant is computed from the
// perpendicular offset m - b·dir rather than as b² - (m·m - r²), which
// cancels catastrophically when the origin is far from the circle (Haines
// et al., Ray Tracing Gems, ch. 7, "Precision Improvements for Ray/Sphere
// Intersection"). Working relative to the centre keeps the digits that
// matter at large coordinates.
func rayCircle(c shape.Vec2, r float64, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	if circleHolds(c, r, origin) {
		return insideHit(origin, dir)
	}
	m := origin.Sub(c)
	rr := float64(r * r) // explicit: no fused multiply-add on arm64
	b := m.Dot(dir)
	if b >= 0 {
		return RayHit{}, false // outside and heading away
	}
	l := m.Sub(dir.Scale(b))
	disc := rr - l.LenSq()
	if disc < 0 {
		return RayHit{}, false
	}
	// -b > 0 and the root is subtracted from it: the near intersection,
	// without the cancellation of the far one.
	d := max(-b-math.Sqrt(disc), 0)
	if d > maxDist {
		return RayHit{}, false
	}
	rel := m.Add(dir.Scale(d))
	return RayHit{Point: c.Add(rel), Normal: rel.Normalize(), Distance: d}, true
}

// rayBox intersects the ray with a box of half extents h placed by t, by
// slabs (Ericson, Real-Time Collision Detection, §5.3.3): in the box's frame
// the ray is inside slab i for d between (±h_i - o_i)/dir_i; the entry is the
// latest slab entry, the exit the earliest slab exit. A ray parallel to a
// slab is inside it for every d or for none.
func rayBox(h shape.Vec2, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	o := t.ApplyInv(origin)
	dl := t.Rot.ApplyInv(dir)
	enter, exit := math.Inf(-1), math.Inf(1)
	var n shape.Vec2 // local normal of the entry face

	if dl.X == 0 {
		if o.X < -h.X || o.X > h.X {
			return RayHit{}, false
		}
	} else {
		inv := 1 / dl.X
		t1, t2, nx := (-h.X-o.X)*inv, (h.X-o.X)*inv, -1.0
		if t1 > t2 {
			t1, t2, nx = t2, t1, 1
		}
		enter, exit, n = t1, t2, shape.Vec2{X: nx}
	}
	if dl.Y == 0 {
		if o.Y < -h.Y || o.Y > h.Y {
			return RayHit{}, false
		}
	} else {
		inv := 1 / dl.Y
		t1, t2, ny := (-h.Y-o.Y)*inv, (h.Y-o.Y)*inv, -1.0
		if t1 > t2 {
			t1, t2, ny = t2, t1, 1
		}
		if t1 > enter {
			enter, n = t1, shape.Vec2{Y: ny}
		}
		exit = min(exit, t2)
	}
	// The signs of the slab parameters are exact, so enter <= 0 <= exit
	// says exactly what ContainsPoint says: the origin is in the box.
	if enter > exit || exit < 0 {
		return RayHit{}, false
	}
	if enter <= 0 {
		return insideHit(origin, dir)
	}
	if enter > maxDist {
		return RayHit{}, false
	}
	return RayHit{Point: origin.Add(dir.Scale(enter)), Normal: t.Rot.Apply(n), Distance: enter}, true
}

// rayPolygon intersects the ray with a convex polygon placed by t by
// clipping the parameter interval [0, maxDist] against each edge's inner
// half-plane n·(p - v) <= 0 (Ericson, Real-Time Collision Detection, §5.3.8;
// Box2D b2RayCastPolygon). An edge the ray crosses inwards raises the lower
// bound, one it crosses outwards lowers the upper bound; the interval empties
// when the ray misses. The edge that raised the lower bound last is the one
// entered. Whether the origin is inside is polygonHolds' exact answer,
// the very test ContainsPoint makes, asked first: the half-plane tests use
// the rounded unit normals, which can put an origin on an edge a rounding
// outside it, or one a rounding outside within every half-plane. In the
// latter case the clip raises no lower bound, and the ray enters at once
// by an edge the origin is outside of and the ray heads into, or misses.
func rayPolygon(verts, normals []shape.Vec2, t shape.Transform, origin, dir shape.Vec2, maxDist float64) (RayHit, bool) {
	o := t.ApplyInv(origin)
	dl := t.Rot.ApplyInv(dir)
	if polygonHolds(verts, o) {
		return insideHit(origin, dir)
	}
	lower, upper := 0.0, maxDist
	index := -1
	for i, v := range verts {
		n := normals[i]
		num := n.Dot(v.Sub(o)) // >= 0 when o is on the inner side
		den := n.Dot(dl)
		switch {
		case den == 0:
			if num < 0 {
				return RayHit{}, false // parallel and outside this edge
			}
		case den < 0:
			if num < lower*den {
				lower, index = num/den, i
			}
		default:
			if num < upper*den {
				upper = num / den
			}
		}
		if upper < lower {
			break
		}
	}
	if upper < lower {
		// Written out here, not called: a call would make the hot path
		// keep its values on the stack.
		if index < 0 {
			return RayHit{}, false
		}
		d := maxDist
		if upper == maxDist {
			// The entry, rounded on its edge, may fall a step past a
			// maxDist that ends exactly on the polygon: the end point,
			// tested against the edges by the differences of their own
			// vertices (exact for short dyadic numbers, where a rounded
			// unit normal is not), decides.
			q := o.Add(dl.Scale(maxDist))
			for i, v := range verts {
				if verts[(i+1)%len(verts)].Sub(v).Cross(q.Sub(v)) < 0 {
					return RayHit{}, false
				}
			}
		} else {
			// Emptied by an edge the ray leaves by: a line that misses
			// the polygon, or one that passes within rounding of the
			// vertex w where that edge meets the entering one, whose
			// crossings, each rounded on its own edge, can come out an
			// ulp the wrong way round for a ray that touches the
			// polygon only at w. Of the entering edge's ends, w is the
			// one nearer the ray's line; the ray meets the polygon at w
			// when w lies on the line, or the line parts it from a
			// neighbour (exact for a w on the line, a graze, which
			// hits, and otherwise the clip's answer to rounding). The
			// entering edge's normal is an outward normal at w.
			n, w := len(verts), index
			sw, s1 := dl.Cross(verts[index].Sub(o)), dl.Cross(verts[(index+1)%n].Sub(o))
			if math.Abs(s1) < math.Abs(sw) {
				w, sw = (index+1)%n, s1
			}
			sp, sn := dl.Cross(verts[(w+n-1)%n].Sub(o)), dl.Cross(verts[(w+1)%n].Sub(o))
			found := sw == 0 || (sw > 0 && (sp < 0 || sn < 0)) || (sw < 0 && (sp > 0 || sn > 0))
			d = max(verts[w].Sub(o).Dot(dl), 0)
			if !found || !(d <= maxDist) {
				return RayHit{}, false
			}
		}
		return RayHit{Point: origin.Add(dir.Scale(d)), Normal: t.Rot.Apply(normals[index]), Distance: d}, true
	}
	if index < 0 {
		n := len(verts)
		for i, v := range verts {
			if normals[i].Dot(dl) < 0 && orient(v, verts[(i+1)%n], o) < 0 {
				return RayHit{Point: origin, Normal: t.Rot.Apply(normals[i]), Distance: 0}, true
			}
		}
		return RayHit{}, false
	}
	return RayHit{
		Point:    origin.Add(dir.Scale(lower)),
		Normal:   t.Rot.Apply(normals[index]),
		Distance: lower,
	}, true
}
