package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file's oracles judge RayCast and Cast against composite shapes
// (compounds, concave polygons, chains) and capsules and segments from
// starts that touch them: on a part's vertex or edge, a rounding hair either
// side of the boundary, inside one part, on the seam between two parts of a
// concave polygon, at a chain's vertex, near and far (1e6, 1e12) from the
// world origin. They share no code with the narrow phase: each part is
// placed by the oracle's own arithmetic relative to a nearby anchor (the
// ray's origin, or b's position), so that far from the world origin the
// differences stay exact; the signed distance to a part (a point, segment
// or convex polygon grown by its radius) is convex along a line, so a
// ternary search finds its least value along the ray or motion and a
// bisection the first point at a given level. A segment, which a ray
// crosses without going deeper, is crossed by Cramer's rule.

// h11Core is a convex part relative to an anchor: its core points (one, two
// or a counter-clockwise polygon) and radius.
type h11Core struct {
	pts []shape.Vec2
	r   float64
}

// h11Local returns the core points and radius of the convex shape s in its
// own frame.
func h11Local(s shape.Shape) ([]shape.Vec2, float64) {
	switch s.Kind() {
	case shape.KindCircle:
		return []shape.Vec2{s.Center()}, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		c := s.Corners()
		return c[:], 0
	case shape.KindPolygon:
		return s.Vertices(), 0
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		return []shape.Vec2{p0, p1}, s.Radius()
	}
	panic("h11Local: " + s.Kind().String())
}

// h11Rot applies the rotation (c, s) to v by the oracle's own arithmetic.
func h11Rot(c, s float64, v shape.Vec2) shape.Vec2 {
	return shape.Vec2{X: c*v.X - s*v.Y, Y: s*v.X + c*v.Y}
}

// h11Parts places every convex part of s by t relative to anchor: the
// world point t.Pos + R(off.Pos + R_off·v) minus anchor, with t.Pos −
// anchor taken first (exact for an anchor near t.Pos).
func h11Parts(s shape.Shape, t shape.Transform, anchor shape.Vec2) []h11Core {
	t = s.EffectiveTransform(t)
	base := shape.Vec2{X: t.Pos.X - anchor.X, Y: t.Pos.Y - anchor.Y}
	c, sn := t.Rot.Cos(), t.Rot.Sin()
	place := func(pts []shape.Vec2, r float64, off shape.Transform) h11Core {
		oc, os := off.Rot.Cos(), off.Rot.Sin()
		out := make([]shape.Vec2, len(pts))
		for i, v := range pts {
			l := h11Rot(oc, os, v)
			l = shape.Vec2{X: off.Pos.X + l.X, Y: off.Pos.Y + l.Y}
			w := h11Rot(c, sn, l)
			out[i] = shape.Vec2{X: base.X + w.X, Y: base.Y + w.Y}
		}
		return h11Core{pts: out, r: r}
	}
	switch s.Kind() {
	case shape.KindCompound:
		var out []h11Core
		for _, p := range s.Parts() {
			pts, r := h11Local(p.Shape)
			out = append(out, place(pts, r, p.Offset))
		}
		return out
	case shape.KindChain:
		out := make([]h11Core, s.PartCount())
		for i := range out {
			p0, p1, _ := s.ChainSegment(i)
			out[i] = place([]shape.Vec2{p0, p1}, 0, shape.Transform{})
		}
		return out
	}
	pts, r := h11Local(s)
	return []h11Core{place(pts, r, shape.Transform{})}
}

// h11SegDist returns the distance from q to the segment a–b.
func h11SegDist(q, a, b shape.Vec2) float64 {
	ex, ey := b.X-a.X, b.Y-a.Y
	wx, wy := q.X-a.X, q.Y-a.Y
	ee := ex*ex + ey*ey
	u := 0.0
	if ee > 0 {
		u = math.Max(0, math.Min(1, (wx*ex+wy*ey)/ee))
	}
	dx, dy := wx-u*ex, wy-u*ey
	return math.Sqrt(dx*dx + dy*dy)
}

// sd returns the signed distance from q to the part: its distance outside,
// minus its depth inside.
func (c h11Core) sd(q shape.Vec2) float64 {
	switch len(c.pts) {
	case 1:
		dx, dy := q.X-c.pts[0].X, q.Y-c.pts[0].Y
		return math.Sqrt(dx*dx+dy*dy) - c.r
	case 2:
		return h11SegDist(q, c.pts[0], c.pts[1]) - c.r
	}
	inside, best := true, math.Inf(1)
	for i, a := range c.pts {
		b := c.pts[(i+1)%len(c.pts)]
		if (b.X-a.X)*(q.Y-a.Y)-(b.Y-a.Y)*(q.X-a.X) < 0 {
			inside = false
		}
		best = math.Min(best, h11SegDist(q, a, b))
	}
	if inside {
		best = -best
	}
	return best - c.r
}

// support returns the largest n·p over the part.
func (c h11Core) support(n shape.Vec2) float64 {
	best := math.Inf(-1)
	for _, p := range c.pts {
		best = math.Max(best, n.X*p.X+n.Y*p.Y)
	}
	return best + c.r*math.Hypot(n.X, n.Y)
}

// h11Min returns where the convex f is least on [0, m] and its value there,
// by ternary search.
func h11Min(f func(float64) float64, m float64) (float64, float64) {
	lo, hi := 0.0, m
	for range 160 {
		a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
		fa, fb := f(a), f(b)
		switch {
		case fa < fb:
			hi = b
		case fa > fb:
			lo = a
		default:
			lo, hi = a, b
		}
	}
	x := lo + (hi-lo)/2
	best, at := f(x), x
	for _, y := range [2]float64{0, m} {
		if v := f(y); v < best {
			best, at = v, y
		}
	}
	return at, best
}

// h11First returns the first x in [0, at] with f(x) <= level, given
// f(at) <= level and f non-increasing on [0, at], by bisection.
func h11First(f func(float64) float64, at, level float64) float64 {
	if f(0) <= level {
		return 0
	}
	lo, hi := 0.0, at
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) <= level {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// h11Cross returns where the ray s·dir, s >= 0, crosses the segment part
// c (radius 0) transversally by at least tol on both sides, by Cramer's
// rule, or false.
func h11Cross(c h11Core, dir shape.Vec2, tol float64) (float64, bool) {
	a, b := c.pts[0], c.pts[1]
	sa, sb := dir.X*a.Y-dir.Y*a.X, dir.X*b.Y-dir.Y*b.X // sides of the ray's line
	if !((sa > tol && sb < -tol) || (sa < -tol && sb > tol)) {
		return 0, false
	}
	// s·dir = a + u·(b − a): s = cross(a, b − a) / cross(dir, b − a).
	ex, ey := b.X-a.X, b.Y-a.Y
	s := (a.X*ey - a.Y*ex) / (dir.X*ey - dir.Y*ex)
	return s, s >= tol // a crossing within tol of the origin may be behind it
}

// h11Shape returns a random composite shape, capsule or segment, and its
// name.
func h11Shape(rng *rand.Rand) (shape.Shape, string) {
	for {
		switch rng.IntN(9) {
		case 0, 1: // compound, sometimes of parts abutting along a seam
			n := 2 + rng.IntN(3)
			parts := make([]shape.Part, n)
			seam := rng.IntN(2) == 0
			hw, hh := exDyad(rng, 0.25, 1.5), exDyad(rng, 0.25, 1.5)
			for i := range parts {
				if seam && i < 2 {
					box, _ := shape.NewOBB(hw, hh)
					parts[i] = shape.Part{Shape: box, Offset: shape.Transform{Pos: shape.V(float64(2*i)*hw, 0)}}
					continue
				}
				k := exConvexKinds[rng.IntN(len(exConvexKinds))]
				if k == shape.KindAABB {
					k = shape.KindOBB
				}
				parts[i] = shape.Part{Shape: exRandShape(rng, k), Offset: shape.Transform{Pos: exDyadV(rng, -2, 2), Rot: exRandRot(rng)}}
			}
			if s, err := shape.NewCompound(parts); err == nil {
				return s, "compound"
			}
		case 2, 3: // concave polygon: a star of dyadic points, or an L or U
			var pts []shape.Vec2
			switch rng.IntN(3) {
			case 0:
				n := 5 + rng.IntN(6)
				for i := range n {
					a := 2 * math.Pi * (float64(i) + 0.8*rng.Float64()) / float64(n)
					r := exDyad(rng, 0.5, 3)
					pts = append(pts, shape.V(math.Round(64*r*math.Cos(a))/64, math.Round(64*r*math.Sin(a))/64))
				}
			case 1:
				w, h, tk := exDyad(rng, 1, 3), exDyad(rng, 1, 3), exDyad(rng, 0.25, 0.75)
				pts = []shape.Vec2{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: tk}, {X: tk, Y: tk}, {X: tk, Y: h}, {X: 0, Y: h}}
			default:
				w, h, tk := exDyad(rng, 1.5, 3), exDyad(rng, 1, 3), exDyad(rng, 0.25, 0.5)
				pts = []shape.Vec2{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: w - tk, Y: h}, {X: w - tk, Y: tk}, {X: tk, Y: tk}, {X: tk, Y: h}, {X: 0, Y: h}}
			}
			if s, err := shape.NewConcavePolygon(pts); err == nil {
				return s, "concave"
			}
		case 4, 5, 6: // chain: collinear runs, reversals, acute corners
			pts := []shape.Vec2{exDyadV(rng, -2, 2)}
			d := exDyadV(rng, -1.5, 1.5)
			for range 2 + rng.IntN(6) {
				switch rng.IntN(5) {
				case 0: // collinear run: the same step again
				case 1: // reversal: straight back, part of the way
					d = d.Scale(-0.5)
				case 2: // acute corner
					d = shape.V(-d.X+exDyad(rng, -0.25, 0.25), -d.Y+exDyad(rng, -0.25, 0.25))
				default:
					d = exDyadV(rng, -1.5, 1.5)
				}
				pts = append(pts, pts[len(pts)-1].Add(d))
			}
			if s, err := shape.NewChain(pts, rng.IntN(3) == 0); err == nil {
				return s, "chain"
			}
		case 7:
			return exRandShape(rng, shape.KindCapsule), "capsule"
		default:
			return exRandShape(rng, shape.KindSegment), "segment"
		}
	}
}

// h11Place returns a random placement near 0, 1e6 or 1e12 (either sign),
// unrotated, a quarter turn or turned at random.
func h11Place(rng *rand.Rand) shape.Transform {
	base := [5]float64{0, 0, 1e6, 1e12, -1e12}[rng.IntN(5)]
	pos := shape.V(base, -base).Add(exDyadV(rng, -4, 4))
	return shape.Transform{Pos: pos, Rot: exRandRot(rng)}
}

// h11Unit returns a random unit vector, half the time along an axis.
func h11Unit(rng *rand.Rand) shape.Vec2 {
	if rng.IntN(2) == 0 {
		return [4]shape.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[rng.IntN(4)]
	}
	a := rng.Float64() * 2 * math.Pi
	return shape.V(math.Cos(a), math.Sin(a))
}

// h11Touch returns a point relative to t.Pos that touches the parts
// (relative to t.Pos too) in one of the ugly ways, a direction that
// belongs with it (along an edge, at a vertex, into the part), and its
// name.
func h11Touch(rng *rand.Rand, s shape.Shape, t shape.Transform, parts []h11Core) (shape.Vec2, shape.Vec2, string) {
	c := parts[rng.IntN(len(parts))]
	k := rng.IntN(len(c.pts))
	v := c.pts[k]
	w := c.pts[(k+1)%len(c.pts)]
	edge := w.Sub(v).Normalize()
	if edge == (shape.Vec2{}) {
		edge = h11Unit(rng)
	}
	centre := shape.Vec2{}
	for _, p := range c.pts {
		centre = centre.Add(p)
	}
	centre = centre.Scale(1 / float64(len(c.pts)))
	dir := h11Unit(rng)
	switch rng.IntN(4) {
	case 0:
		dir = edge
	case 1:
		dir = edge.Neg()
	case 2:
		if d := centre.Sub(v).Normalize(); d != (shape.Vec2{}) {
			dir = d
		}
	}
	u := h11Unit(rng)
	switch rng.IntN(7) {
	case 0: // a vertex (on the boundary of a rounded part)
		return v.Add(u.Scale(c.r)), dir, "vertex"
	case 1: // on an edge, a dyadic way along it
		f := [4]float64{0.5, 0.25, 0.375, 0.0625}[rng.IntN(4)]
		return v.Add(w.Sub(v).Scale(f)).Add(shape.V(edge.Y, -edge.X).Scale(c.r)), dir, "edge"
	case 2: // inside the part
		return centre, dir, "inside"
	case 3, 4: // a rounding hair either side of the whole shape's boundary, along u from the part's centre
		wc := t.Pos.Add(centre)
		lo, hi := 0.0, 8.0
		for range 120 {
			mid := lo + (hi-lo)/2
			if narrowphase.ContainsPoint(s, t, wc.Add(u.Scale(mid))) {
				lo = mid
			} else {
				hi = mid
			}
		}
		x := lo
		if rng.IntN(2) == 0 {
			x = hi
		}
		return centre.Add(u.Scale(x)), dir, "hair"
	case 5: // near a vertex, 1e-12 to 1e-6 off
		off := [3]float64{1e-12, 1e-9, 1e-6}[rng.IntN(3)]
		return v.Add(u.Scale(c.r + off*(rng.Float64()*2-1))), dir, "near-vertex"
	default: // far away, aimed at the vertex or along the edge's line
		far := v.Add(u.Scale(exDyad(rng, 2, 20)))
		aim := v.Sub(far).Normalize()
		if rng.IntN(3) == 0 {
			far = v.Sub(edge.Scale(exDyad(rng, 1, 10)))
			aim = edge
		}
		if aim == (shape.Vec2{}) {
			aim = dir
		}
		return far, aim, "far"
	}
}

// h11CheckRay compares RayCast(s, t, origin, dir, maxDist) with the
// oracle and reports whether it hit.
func h11CheckRay(t *testing.T, s shape.Shape, ts shape.Transform, origin, dir shape.Vec2, maxDist float64, desc string) bool {
	t.Helper()
	h, ok := narrowphase.RayCast(s, ts, origin, dir, maxDist)
	parts := h11Parts(s, ts, origin)
	reach := 0.0
	for _, c := range parts {
		for _, p := range c.pts {
			reach = math.Max(reach, p.Len()+c.r)
		}
	}
	m := math.Min(maxDist, reach+1)
	scale := math.Max(1, reach)
	tol := 1e-9 * scale
	wtol := tol + 8e-16*math.Max(math.Abs(origin.X), math.Abs(origin.Y))
	desc = fmt.Sprintf("%s: RayCast(%v at %v (cos %v, sin %v), origin %v, dir %v, max %v) = %+v, %v",
		desc, s, ts.Pos, ts.Rot.Cos(), ts.Rot.Sin(), origin, dir, maxDist, h, ok)
	at := func(c h11Core) func(float64) float64 {
		return func(x float64) float64 { return c.sd(dir.Scale(x)) }
	}
	in := narrowphase.ContainsPoint(s, ts, origin)
	sd0, first := math.Inf(1), -1 // the least signed distance at the origin, and the first part holding it surely
	for i, c := range parts {
		d := c.sd(shape.Vec2{})
		sd0 = math.Min(sd0, d)
		if d < -tol && first < 0 {
			first = i
		}
	}
	if (sd0 < -tol && !in) || (sd0 > tol && in) {
		t.Errorf("ContainsPoint(origin) = %v, but the origin is %.3g from the surface: %s", in, sd0, desc)
		return ok
	}
	if in {
		if !ok || h.Distance != 0 || h.Point != origin || h.Normal != dir.Neg() {
			t.Errorf("want the inside answer (Distance 0, Point the origin, Normal -dir): %s", desc)
		} else if h.Part < 0 || h.Part >= len(parts) || parts[h.Part].sd(shape.Vec2{}) > tol || (first >= 0 && h.Part > first) {
			t.Errorf("Part %d does not hold the origin, or part %d before it does: %s", h.Part, first, desc)
		}
		return ok
	}
	// Must the ray hit, and by when? A part it goes deeper than tol into,
	// or a segment it crosses clearly.
	must := math.Inf(1)
	for _, c := range parts {
		f := at(c)
		if c.r == 0 && len(c.pts) == 2 {
			if x, cr := h11Cross(c, dir, tol); cr && x <= m-tol {
				must = math.Min(must, x)
			}
			continue
		}
		if x, v := h11Min(f, m); v < -tol {
			must = math.Min(must, h11First(f, x, -tol))
		}
	}
	if !ok {
		if !math.IsInf(must, 1) {
			t.Errorf("no hit, but the ray enters a part by %.17g: %s", must, desc)
		}
		return ok
	}
	if !(h.Distance >= 0 && h.Distance <= maxDist) || h.Distance > must+tol {
		t.Errorf("Distance %.17g is outside [0, maxDist] or past %.17g, where the ray is inside a part: %s", h.Distance, must, desc)
		return ok
	}
	if h.Part < 0 || h.Part >= len(parts) {
		t.Errorf("Part %d of %d: %s", h.Part, len(parts), desc)
		return ok
	}
	c := parts[h.Part]
	q := dir.Scale(h.Distance)
	if d := c.sd(q); math.Abs(d) > tol {
		t.Errorf("the ray point at Distance is %.3g from part %d's surface: %s", d, h.Part, desc)
	}
	if got := origin.Add(q); got.Sub(h.Point).Len() > wtol {
		t.Errorf("Point is %.3g from origin + Distance·dir: %s", got.Sub(h.Point).Len(), desc)
	}
	if math.Abs(h.Normal.Len()-1) > 1e-12 {
		t.Errorf("Normal is not a unit vector: %s", desc)
		return ok
	}
	// A ray along a segment's own line enters it with the normal -dir
	// (RayCast's rule for segments; the surface has no normal there).
	along := c.r == 0 && len(c.pts) == 2 && h.Normal == dir.Neg() &&
		math.Abs(dir.Cross(c.pts[1].Sub(c.pts[0]).Normalize())) <= 1e-9
	// A ray that grazes a rounded part meets its disc where the
	// discriminant is a rounding error, which turns the normal by about
	// its square root: a graze gets that much.
	ntol := tol
	if math.Abs(h.Normal.Dot(dir)) < 1e-6 {
		ntol = 1e-6 * scale
	}
	if g := c.support(h.Normal) - h.Normal.Dot(q); math.Abs(g) > ntol && !along {
		t.Errorf("Normal is not an outward normal of part %d at the point (its support is %.3g beyond): %s", h.Part, g, desc)
	}
	if h.Normal.Dot(dir) > 1e-9 {
		t.Errorf("Normal faces along the ray: %s", desc)
	}
	return ok
}

// TestHunt11RayCompositeStartsOracle compares RayCast against compounds,
// concave polygons, chains, capsules and segments, near and far from the
// world origin, with rays that start on a part's vertex or edge, a rounding
// hair either side of the boundary, inside a part, near a vertex, or far
// away aimed at a vertex or along an edge's line, against the oracle of
// this file.
func TestHunt11RayCompositeStartsOracle(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1111))
	n := 20000
	if oracleShort() {
		n = 2000
	}
	hits, kinds := 0, map[string]int{}
	for i := range n {
		s, name := h11Shape(rng)
		ts := h11Place(rng)
		rel, dir, how := h11Touch(rng, s, ts, h11Parts(s, ts, ts.Pos))
		origin := ts.Pos.Add(rel)
		maxDist := [5]float64{math.Inf(1), math.Inf(1), 0, exDyad(rng, 0, 8), 20}[rng.IntN(5)]
		kinds[name+"/"+how]++
		if h11CheckRay(t, s, ts, origin, dir, maxDist, fmt.Sprintf("case %d, %s from %s", i, name, how)) {
			hits++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d rays, %d hits: %v", n, hits, kinds)
}

// TestHunt11RayExactTouchOracle: a ray along an axis from a dyadic point
// a dyadic distance L short of a vertex of an unrotated shape with dyadic
// numbers (concave polygons, chains, segments, convex polygons and
// compounds of unturned parts, at 0, 1e6 and 1e12) reaches the vertex
// exactly at L: with maxDist L or +Inf it must hit, at L or before. Each
// such ray either grazes the shape there or enters it earlier; the
// rounded edge crossings of the clip used to put the entry a step past L
// or cross its two edges the wrong way round, and about a quarter missed.
func TestHunt11RayExactTouchOracle(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1114))
	n := 20000
	if oracleShort() {
		n = 2000
	}
	hits := 0
	for i := 0; i < n; {
		s, name := h11Shape(rng)
		switch name {
		case "capsule":
			continue // its vertices are not on it
		case "compound":
			turned := false
			for _, p := range s.Parts() {
				turned = turned || p.Offset.Rot != (shape.Rot{}) || p.Shape.Kind() == shape.KindCircle || p.Shape.Kind() == shape.KindCapsule
			}
			if turned {
				continue
			}
		}
		i++
		base := [4]float64{0, 1e6, 1e12, -1e12}[rng.IntN(4)]
		ts := shape.Transform{Pos: shape.V(base, -base).Add(exDyadV(rng, -4, 4))}
		parts := h11Parts(s, ts, ts.Pos)
		c := parts[rng.IntN(len(parts))]
		v := ts.Pos.Add(c.pts[rng.IntN(len(c.pts))]) // exact: dyadic and near ts.Pos
		dir := [4]shape.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[rng.IntN(4)]
		l := exDyad(rng, 0.5, 12)
		origin := v.Sub(dir.Scale(l))
		if origin.Add(dir.Scale(l)) != v || narrowphase.ContainsPoint(s, ts, origin) {
			continue
		}
		maxDist := [2]float64{l, math.Inf(1)}[rng.IntN(2)]
		h, ok := narrowphase.RayCast(s, ts, origin, dir, maxDist)
		// Past maxDist never; with maxDist +Inf, the entry may round a
		// few ulps past the vertex.
		if !ok || h.Distance > math.Min(maxDist, l*(1+8*0x1p-52)) {
			t.Fatalf("case %d: RayCast(%s %v at %v, origin %v, dir %v, max %v) = %+v, %v; want a hit by Distance %v, at the vertex %v",
				i, name, s, ts.Pos, origin, dir, maxDist, h, ok, l, v)
		}
		hits++
	}
	t.Logf("%d rays, all hit by the vertex", hits)
}
