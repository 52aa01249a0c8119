package narrowphase_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file is an exact oracle for Collide, Overlap and Cast that shares no
// method with exact_oracle_test.go's Minkowski hulls: it works on the two
// cores themselves, in math/big rationals.
//
//   - The cores' distance is the least exact distance between their
//     features (segment against segment, a point as a segment of zero
//     length), 0 when one core holds a vertex of the other or two edges
//     cross (h13CoreDist2).
//   - Cores apart by d overlap when d < r (the radii's sum) and the depth
//     is r − d. Cores that meet: the depth is r plus the least overlap of
//     the cores along the perpendiculars of their edges, both ways (the
//     separating axis theorem: every direction's overlap bounds the depth
//     from above, and the Minkowski difference's face normals, among these,
//     reach it).
//   - A normal N is a minimum direction when B moved by the exact overlap
//     along the float N, max over A of N·p − min over B of N·q + r|N|,
//     equals the depth (h13Along).
//   - A contact point p of depth d lies midway between the surfaces: p +
//     N·d/2 is on A's boundary and p − N·d/2 on B's, measured by the exact
//     signed distance of a point to a rounded core (h13Signed). Where the
//     cores' support features along N are parallel edges that overlap
//     along them by a stretch, there are two points, at its ends, each
//     with the full depth (h13CheckParallel).
//   - A compound's contact is its deepest part pair's (two segments never
//     collide, as parts either).
//   - A cast of a by δ hits when the hull of a's core and its copy moved by
//     δ (gift wrapping, exact) comes within the radii of b's core; at the
//     Fraction the moved pair's exact gap is 0 to rounding, it overlaps
//     by 0 along the Normal, and the Point lies on both surfaces. The gap
//     test needs no bisection: a fraction too late leaves an overlap, one
//     too early a gap.
//
// Tolerances are rounding sized: 256 ulps of the pair's local scale (the
// distance between the positions plus the shapes' reach, with no floor of
// 1, so that a shape of 1e-6 next to one of 1e6 is measured in ulps of
// 1e6, not in millionths of it: the engine takes cores within 64 ulps of
// the sum of their coordinates, coreTouchTol, as touching), plus the
// engine's documented reference face margin (refFaceTol, 1e-10 of the
// depth). Casts allow 64 ulps of the scale with the motion's length.
//
// The pairs are drawn in families: random shapes of every convex kind at
// 0 to 1e12, turned by quarter turns, hairs or at random; faces and cores
// along the axes turned by quarter turns (and a hair) from each other, for
// the two-point rule; a shape 1e8 to 1e14 times smaller beside a vertex,
// an end or an edge of a large one (TestTinyCapsuleNearHugeCornerBug);
// compounds against compounds and convex shapes; casts toward b from afar
// by up to a hundred times the distance, nearly parallel to one of b's
// edges from beside it, short and zero. -exactscale multiplies the counts.

// h13Core is a convex core in the world, exact: one point, two (a segment)
// or a convex polygon (counter-clockwise), grown by r.
type h13Core struct {
	p []exV
	r *big.Rat
}

// h13Apply applies the float rotation (c, s) and translation pos to the
// local point v, exactly.
func h13Apply(c, s float64, pos shape.Vec2, v exV) exV {
	cr, sr := exR(c), exR(s)
	return exV{
		exAdd(exR(pos.X), exSub(exMul(cr, v.x), exMul(sr, v.y))),
		exAdd(exR(pos.Y), exAdd(exMul(sr, v.x), exMul(cr, v.y))),
	}
}

// h13Local returns a convex shape's core in its own frame and its radius.
func h13Local(s shape.Shape) ([]shape.Vec2, float64) {
	switch s.Kind() {
	case shape.KindCircle:
		return []shape.Vec2{s.Center()}, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		c := s.Corners()
		return c[:], 0
	case shape.KindPolygon:
		return s.Vertices(), 0
	case shape.KindCapsule:
		p0, p1 := s.Segment()
		return []shape.Vec2{p0, p1}, s.Radius()
	case shape.KindSegment:
		p0, p1 := s.Segment()
		return []shape.Vec2{p0, p1}, 0
	}
	panic("h13Local: " + s.Kind().String())
}

// h13Cores places every convex part of s by t exactly: s itself, a
// compound's parts (offset, then t, both exactly), or a chain's segments.
func h13Cores(s shape.Shape, t shape.Transform) []h13Core {
	place := func(ps shape.Shape, ts []shape.Transform) h13Core {
		loc, r := h13Local(ps)
		c := h13Core{p: make([]exV, len(loc)), r: exR(r)}
		for i, v := range loc {
			q := exVF(v)
			for _, x := range ts {
				q = h13Apply(x.Rot.Cos(), x.Rot.Sin(), x.Pos, q)
			}
			c.p[i] = q
		}
		return c
	}
	switch s.Kind() {
	case shape.KindCompound:
		var out []h13Core
		for _, part := range s.Parts() {
			out = append(out, place(part.Shape, []shape.Transform{part.Offset, t}))
		}
		return out
	case shape.KindChain:
		out := make([]h13Core, s.PartCount())
		for i := range out {
			seg, _ := s.Part(i, t)
			out[i] = place(seg, []shape.Transform{t})
		}
		return out
	}
	return []h13Core{place(s, []shape.Transform{s.EffectiveTransform(t)})}
}

// h13Orient returns the sign of (b − a) × (c − a).
func h13Orient(a, b, c exV) int { return b.sub(a).cross(c.sub(a)).Sign() }

// h13Holds reports whether the polygon core c holds q (closed) and whether
// strictly.
func h13Holds(c h13Core, q exV) (closed, strict bool) {
	if len(c.p) < 3 {
		return false, false
	}
	strict = true
	for i := range c.p {
		switch h13Orient(c.p[i], c.p[(i+1)%len(c.p)], q) {
		case -1:
			return false, false
		case 0:
			strict = false
		}
	}
	return true, strict
}

// h13PtSeg2 returns the squared distance from q to the segment a–b.
func h13PtSeg2(q, a, b exV) *big.Rat {
	e, w := b.sub(a), q.sub(a)
	ee := e.dot(e)
	u := w.dot(e)
	if ee.Sign() == 0 || u.Sign() <= 0 {
		return w.dot(w)
	}
	if u.Cmp(ee) >= 0 {
		f := q.sub(b)
		return f.dot(f)
	}
	c := e.cross(w)
	return new(big.Rat).Quo(exMul(c, c), ee)
}

// h13Cross reports whether the closed segments a0–a1 and b0–b1 share a
// point.
func h13Cross(a0, a1, b0, b1 exV) bool {
	o1, o2 := h13Orient(a0, a1, b0), h13Orient(a0, a1, b1)
	o3, o4 := h13Orient(b0, b1, a0), h13Orient(b0, b1, a1)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	z := new(big.Rat)
	return (o1 == 0 && h13PtSeg2(b0, a0, a1).Cmp(z) == 0) || (o2 == 0 && h13PtSeg2(b1, a0, a1).Cmp(z) == 0) ||
		(o3 == 0 && h13PtSeg2(a0, b0, b1).Cmp(z) == 0) || (o4 == 0 && h13PtSeg2(a1, b0, b1).Cmp(z) == 0)
}

// h13Edges returns the core's edges: a polygon's, a segment once, a point
// as an edge of zero length.
func h13Edges(c h13Core) [][2]exV {
	switch n := len(c.p); n {
	case 1:
		return [][2]exV{{c.p[0], c.p[0]}}
	case 2:
		return [][2]exV{{c.p[0], c.p[1]}}
	default:
		out := make([][2]exV, n)
		for i := range out {
			out[i] = [2]exV{c.p[i], c.p[(i+1)%n]}
		}
		return out
	}
}

// h13CoreDist2 returns the squared distance between the cores a and b.
func h13CoreDist2(a, b h13Core) *big.Rat {
	for _, q := range b.p {
		if in, _ := h13Holds(a, q); in {
			return new(big.Rat)
		}
	}
	for _, q := range a.p {
		if in, _ := h13Holds(b, q); in {
			return new(big.Rat)
		}
	}
	var best *big.Rat
	for _, ea := range h13Edges(a) {
		for _, eb := range h13Edges(b) {
			if h13Cross(ea[0], ea[1], eb[0], eb[1]) {
				return new(big.Rat)
			}
			for _, d := range []*big.Rat{h13PtSeg2(ea[0], eb[0], eb[1]), h13PtSeg2(ea[1], eb[0], eb[1]),
				h13PtSeg2(eb[0], ea[0], ea[1]), h13PtSeg2(eb[1], ea[0], ea[1])} {
				if best == nil || d.Cmp(best) < 0 {
					best = d
				}
			}
		}
	}
	return best
}

// h13F returns a rational as a 256-bit float.
func h13F(x *big.Rat) *big.Float { return new(big.Float).SetPrec(256).SetRat(x) }

// h13Sqrt returns √x at 256 bits.
func h13Sqrt(x *big.Rat) *big.Float { f := h13F(x); return f.Sqrt(f) }

// h13Ext returns the least and greatest of u·p over the core's points.
func h13Ext(c h13Core, u exV) (lo, hi *big.Rat) {
	for _, p := range c.p {
		d := p.dot(u)
		if lo == nil || d.Cmp(lo) < 0 {
			lo = d
		}
		if hi == nil || d.Cmp(hi) > 0 {
			hi = d
		}
	}
	return lo, hi
}

// h13Along returns how far b must move along u (any length, not zero) to
// clear a: the overlap of the grown cores along u/|u|.
func h13Along(a, b h13Core, u exV) *big.Float {
	_, hiA := h13Ext(a, u)
	loB, _ := h13Ext(b, u)
	f := new(big.Float).SetPrec(256).Quo(h13F(exSub(hiA, loB)), h13Sqrt(u.dot(u)))
	return f.Add(f, h13F(exAdd(a.r, b.r)))
}

// h13Depth returns the signed penetration of the grown cores a and b: the
// depth when positive, minus the gap when negative, 0 touching.
func h13Depth(a, b h13Core) *big.Float {
	r := exAdd(a.r, b.r)
	if d2 := h13CoreDist2(a, b); d2.Sign() > 0 {
		return new(big.Float).SetPrec(256).Sub(h13F(r), h13Sqrt(d2))
	}
	var best *big.Float
	for _, c := range []h13Core{a, b} {
		for _, e := range h13Edges(c) {
			d := e[1].sub(e[0])
			if d.dot(d).Sign() == 0 {
				continue
			}
			u := exV{d.y, new(big.Rat).Neg(d.x)}
			for _, v := range []exV{u, {new(big.Rat).Neg(u.x), new(big.Rat).Neg(u.y)}} {
				if o := h13Along(a, b, v); best == nil || o.Cmp(best) < 0 {
					best = o
				}
			}
		}
	}
	if best == nil { // two points, coincident
		return h13F(r)
	}
	return best
}

// h13Signed returns the signed distance of the float point q from the
// boundary of the grown core c: positive outside, negative inside.
func h13Signed(c h13Core, q shape.Vec2) float64 {
	x := exVF(q)
	if _, strict := h13Holds(c, x); strict {
		var best *big.Rat // the least squared distance to an edge line
		for _, e := range h13Edges(c) {
			d := e[1].sub(e[0])
			cr := d.cross(x.sub(e[0]))
			if v := new(big.Rat).Quo(exMul(cr, cr), d.dot(d)); best == nil || v.Cmp(best) < 0 {
				best = v
			}
		}
		f := h13Sqrt(best)
		f.Add(f, h13F(c.r)).Neg(f)
		v, _ := f.Float64()
		return v
	}
	var best *big.Rat
	for _, e := range h13Edges(c) {
		if d := h13PtSeg2(x, e[0], e[1]); best == nil || d.Cmp(best) < 0 {
			best = d
		}
	}
	f := h13Sqrt(best)
	v, _ := f.Sub(f, h13F(c.r)).Float64()
	return v
}

// h13Scale returns the pair's local scale: the distance between the
// positions plus each shape's reach from its position.
func h13Scale(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) float64 {
	return tb.Pos.Sub(ta.Pos).Len() + a.BoundingRadius() + b.BoundingRadius()
}

// h13Far returns the largest world coordinate of the pair's positions.
func h13Far(ta, tb shape.Transform) float64 {
	return max(math.Abs(ta.Pos.X), math.Abs(ta.Pos.Y), math.Abs(tb.Pos.X), math.Abs(tb.Pos.Y))
}

const h13Eps = 0x1p-52

// h13Check compares Collide, Overlap and the mirrored Collide of a convex
// pair, or of a compound with anything but a chain, with the oracle. It
// returns a description of the first wrong answer, or "".
func h13Check(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) string {
	m, ok := narrowphase.Collide(a, ta, b, tb)
	if ov := narrowphase.Overlap(a, ta, b, tb); ov != ok {
		return fmt.Sprintf("Overlap = %v, Collide = %v", ov, ok)
	}
	mb, okb := narrowphase.Collide(b, tb, a, ta)
	if okb != ok || (ok && (mb.Normal != m.Normal.Neg() || mb.Depth != m.Depth || mb.Count != m.Count || mb.Points != m.Points)) {
		return fmt.Sprintf("Collide(b, a) = %+v, %v is not the flip of Collide(a, b) = %+v, %v", mb, okb, m, ok)
	}
	if a.Kind() == shape.KindSegment && b.Kind() == shape.KindSegment {
		if ok {
			return "two segments collide"
		}
		return ""
	}
	scale := h13Scale(a, ta, b, tb)
	tol := 256 * h13Eps * scale
	wtol := tol + float64(64*h13Eps*h13Far(ta, tb))
	// The deepest pair of parts (one pair for convex shapes).
	ca, cb := h13Cores(a, ta), h13Cores(b, tb)
	var deep *big.Float
	type pp struct{ a, b h13Core }
	var deepest []pp
	depths := make([][]*big.Float, len(ca))
	for i := range ca {
		depths[i] = make([]*big.Float, len(cb))
		for j := range cb {
			if len(ca[i].p) == 2 && ca[i].r.Sign() == 0 && len(cb[j].p) == 2 && cb[j].r.Sign() == 0 {
				continue // segments never collide, parts and chains too
			}
			d := h13Depth(ca[i], cb[j])
			depths[i][j] = d
			if deep == nil || d.Cmp(deep) > 0 {
				deep = d
			}
		}
	}
	if deep == nil {
		if ok {
			return "collides, but no part pair can"
		}
		return ""
	}
	want, _ := deep.Float64()
	if !ok {
		if want > tol {
			return fmt.Sprintf("Collide = false, want a contact of depth %.17g", want)
		}
		return ""
	}
	if want < -tol {
		return fmt.Sprintf("Collide = %+v, want no contact (apart by %.17g)", m, -want)
	}
	dtol := tol + float64(2e-10*math.Abs(want))
	if math.Abs(m.Depth-want) > dtol {
		return fmt.Sprintf("Collide.Depth = %.17g, want %.17g (diff %.3g, tol %.3g); manifold %+v", m.Depth, want, m.Depth-want, dtol, m)
	}
	if math.Abs(m.Normal.Len()-1) > 1e-14 {
		return fmt.Sprintf("Collide.Normal = %v has length %.17g", m.Normal, m.Normal.Len())
	}
	for i := range ca {
		for j := range cb {
			if d := depths[i][j]; d != nil {
				if f, _ := d.Float64(); f >= want-float64(2*dtol) {
					deepest = append(deepest, pp{ca[i], cb[j]})
				}
			}
		}
	}
	if m.Count < 1 || m.Count > 2 {
		return fmt.Sprintf("Collide.Count = %d", m.Count)
	}
	// The normal and points must be those of one of the deepest pairs.
	var msg string
	for _, p := range deepest {
		msg = h13CheckManifold(m, p.a, p.b, want, dtol, wtol)
		if msg == "" {
			return ""
		}
	}
	return msg
}

// h13CheckManifold checks the normal and points of m against the pair of
// grown cores a, b of depth want.
func h13CheckManifold(m narrowphase.Manifold, a, b h13Core, want, dtol, wtol float64) string {
	n := m.Normal
	along, _ := h13Along(a, b, exVF(n)).Float64()
	if math.Abs(along-want) > dtol {
		return fmt.Sprintf("Collide.Normal = %v needs %.17g to separate, the depth is %.17g; manifold %+v", n, along, want, m)
	}
	if msg := h13CheckParallel(m, a, b, dtol, wtol); msg != "" {
		return msg
	}
	for i := range m.Count {
		p := m.Points[i]
		if !(p.Depth > 0) || p.Depth > m.Depth+dtol {
			return fmt.Sprintf("Collide.Points[%d].Depth = %.17g, want in (0, %.17g]; manifold %+v", i, p.Depth, m.Depth, m)
		}
		sa := h13Signed(a, p.Point.Add(n.Scale(p.Depth/2)))
		sb := h13Signed(b, p.Point.Sub(n.Scale(p.Depth/2)))
		if math.Abs(sa) > wtol+dtol || math.Abs(sb) > wtol+dtol {
			return fmt.Sprintf("Collide.Points[%d] = %+v: point ± normal·depth/2 lies %.3g from a's surface, %.3g from b's (tol %.3g); manifold %+v",
				i, p, sa, sb, wtol+dtol, m)
		}
	}
	return ""
}

// h13Kinds are the kinds the oracle draws.
var h13Kinds = []shape.Kind{shape.KindCircle, shape.KindAABB, shape.KindOBB, shape.KindPolygon,
	shape.KindCapsule, shape.KindSegment}

// h13Rot returns a random rotation: none, a quarter turn, a turn by a small
// angle, or any.
func h13Rot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(6) {
	case 0:
		return shape.Rot{}
	case 1:
		q := [][2]float64{{0, 1}, {-1, 0}, {0, -1}}[rng.IntN(3)]
		return shape.RotFromCosSin(q[0], q[1])
	case 2:
		return shape.NewRot((rng.Float64() - 0.5) * 1e-6)
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

// h13Shape returns a random convex shape of kind k about size s.
func h13Shape(rng *rand.Rand, k shape.Kind, s float64) shape.Shape {
	for {
		v := func() shape.Vec2 { return shape.V(h13Uni(rng, -s, s), h13Uni(rng, -s, s)) }
		pos := func() float64 { return s * (0.05 + rng.Float64()) }
		var sh shape.Shape
		var err error
		switch k {
		case shape.KindCircle:
			c := shape.Vec2{}
			if rng.IntN(3) == 0 {
				c = v().Scale(0.5)
			}
			sh, err = shape.NewOffsetCircle(c, pos())
		case shape.KindAABB:
			sh, err = shape.NewAABB(pos(), pos())
		case shape.KindOBB:
			sh, err = shape.NewOBB(pos(), pos())
		case shape.KindPolygon:
			pts := make([]shape.Vec2, 3+rng.IntN(6))
			for i := range pts {
				pts[i] = v()
			}
			sh, err = shape.ConvexHull(pts)
		case shape.KindCapsule:
			sh, err = shape.NewCapsule(v(), v(), pos()*0.5)
		case shape.KindSegment:
			sh, err = shape.NewSegment(v(), v())
		}
		if err == nil {
			return sh
		}
	}
}

// h13Compound returns a compound of one to four random parts about size s.
func h13Compound(rng *rand.Rand, s float64) shape.Shape {
	parts := make([]shape.Part, 1+rng.IntN(4))
	for i := range parts {
		k := h13Kinds[rng.IntN(len(h13Kinds))]
		if k == shape.KindAABB {
			k = shape.KindOBB // an AABB part is refused
		}
		parts[i] = shape.Part{Shape: h13Shape(rng, k, s/2), Offset: shape.Transform{
			Pos: shape.V(h13Uni(rng, -s, s), h13Uni(rng, -s, s)), Rot: h13Rot(rng)}}
	}
	c, err := shape.NewCompound(parts)
	if err != nil {
		panic(err)
	}
	return c
}

// h13Near returns a world point near the surface of the placed shape b,
// off outside it (inside when negative): beside a vertex or an end, along
// a direction of its outer cone, or beside a point of an edge, along a
// random direction.
func h13Near(rng *rand.Rand, b shape.Shape, tb shape.Transform, off float64) shape.Vec2 {
	loc, r := h13Local(b)
	i := rng.IntN(len(loc))
	p := loc[i]
	var dir shape.Vec2
	switch {
	case len(loc) == 1:
		ang := rng.Float64() * 2 * math.Pi
		dir = shape.V(math.Cos(ang), math.Sin(ang))
	case rng.IntN(2) == 0:
		// Within the vertex's outer cone: between the normals of its
		// edges (the end's half plane for a core of two points).
		q, o := loc[(i+1)%len(loc)], loc[(i+len(loc)-1)%len(loc)]
		n1 := shape.V(q.Sub(p).Y, -q.Sub(p).X).Normalize()
		n0 := shape.V(p.Sub(o).Y, -p.Sub(o).X).Normalize()
		if len(loc) == 2 {
			n0, n1 = p.Sub(q).Normalize().Perp(), p.Sub(q).Normalize().Perp().Neg()
		}
		w := rng.Float64()
		dir = n0.Scale(w).Add(n1.Scale(1 - w)).Normalize()
		if len(loc) == 2 {
			dir = dir.Add(p.Sub(q).Normalize().Scale(1e-3 + rng.Float64())).Normalize()
		}
	default:
		q := loc[(i+1)%len(loc)]
		p = p.Add(q.Sub(p).Scale(rng.Float64()))
		ang := rng.Float64() * 2 * math.Pi
		dir = shape.V(math.Cos(ang), math.Sin(ang))
	}
	p = p.Add(dir.Scale(r + off))
	return b.EffectiveTransform(tb).Apply(p)
}

// h13Case is one drawn pair.
type h13Case struct {
	family string
	a, b   shape.Shape
	ta, tb shape.Transform
}

// h13Bases are the world offsets the pairs are placed around.
var h13Bases = []float64{0, 1e3, 1e6, 1e9, 1e12}

// h13Draw draws a pair of the given family.
func h13Draw(rng *rand.Rand, family string) h13Case {
	base := h13Bases[rng.IntN(len(h13Bases))]
	bv := shape.V(base, -base*0.75)
	ka, kb := h13Kinds[rng.IntN(len(h13Kinds))], h13Kinds[rng.IntN(len(h13Kinds))]
	c := h13Case{family: family}
	switch family {
	case "random":
		c.a, c.b = h13Shape(rng, ka, 1), h13Shape(rng, kb, 1)
		c.ta = shape.Transform{Pos: bv.Add(shape.V(rng.Float64(), rng.Float64())), Rot: h13Rot(rng)}
		c.tb = shape.Transform{Pos: c.ta.Pos.Add(shape.V(h13Uni(rng, -2, 2), h13Uni(rng, -2, 2))), Rot: h13Rot(rng)}
	case "tiny-huge":
		// A shape 1e8 to 1e14 times smaller near the surface of one of 1
		// to 1e6, within a few of its sizes.
		huge := math.Pow(10, rng.Float64()*6)
		tiny := huge * math.Pow(10, h13Uni(rng, -14, -8))
		c.a = h13Shape(rng, ka, huge)
		c.ta = shape.Transform{Pos: bv, Rot: h13Rot(rng)}
		c.b = h13Shape(rng, kb, tiny)
		c.tb = shape.Transform{Pos: h13Near(rng, c.a, c.ta, tiny*h13Uni(rng, -0.5, 1.5)), Rot: h13Rot(rng)}
	case "facing":
		// Faces or cores parallel or nearly so: a turned by a quarter
		// turn or a hair from b, cores along the axes.
		c.a, c.b = h13AxisShape(rng, ka), h13AxisShape(rng, kb)
		c.ta = shape.Transform{Pos: bv.Add(shape.V(rng.Float64(), rng.Float64())), Rot: h13Rot(rng)}
		q := [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[rng.IntN(4)]
		r := c.ta.Rot.Mul(shape.RotFromCosSin(q[0], q[1]))
		if rng.IntN(3) == 0 {
			r = r.Mul(shape.NewRot((rng.Float64() - 0.5) * math.Pow(10, h13Uni(rng, -15, -3))))
		}
		c.tb = shape.Transform{Pos: c.ta.Pos.Add(shape.V(h13Uni(rng, -2, 2), h13Uni(rng, -2, 2))), Rot: r}
	case "tiny-corner":
		// A capsule or segment 1e10 to 1e13 times smaller whose core
		// runs on from a vertex or end of a large shape's core, along
		// the extension of one of its edges, its near end apart from it
		// by less than its radius along the corner's outer bisector: the
		// cores are apart by a gap far below the large shape's size but
		// far above its rounding.
		ka = []shape.Kind{shape.KindAABB, shape.KindOBB, shape.KindPolygon, shape.KindCapsule, shape.KindSegment}[rng.IntN(5)]
		huge := math.Pow(10, h13Uni(rng, 0, 6))
		tiny := huge * math.Pow(10, h13Uni(rng, -13, -10))
		c.a = h13Shape(rng, ka, huge)
		c.ta = shape.Transform{Pos: bv, Rot: h13Rot(rng)}
		loc, ra := h13Local(c.a)
		i := rng.IntN(len(loc))
		p, q, o := loc[i], loc[(i+1)%len(loc)], loc[(i+len(loc)-1)%len(loc)]
		if len(loc) == 2 {
			o = q
		}
		run := p.Sub(q).Normalize() // on from p, away from q
		n1 := shape.V(q.Sub(p).Y, -q.Sub(p).X).Normalize()
		n0 := shape.V(p.Sub(o).Y, -p.Sub(o).X).Normalize()
		dir := n0.Add(n1).Normalize()
		if len(loc) == 2 {
			dir = run
		}
		rb := tiny
		k := shape.KindCapsule
		if rng.IntN(4) == 0 {
			k, rb = shape.KindSegment, 0
		}
		var err error
		if k == shape.KindSegment {
			c.b, err = shape.NewSegment(shape.Vec2{}, run.Scale(tiny))
		} else {
			c.b, err = shape.NewCapsule(shape.Vec2{}, run.Scale(tiny), rb)
		}
		if err != nil {
			panic(err)
		}
		gap := h13Uni(rng, 0.05, 0.95) * max(rb, ra)
		if rb == 0 && ra == 0 {
			gap = -gap // a segment into a polygon's corner
		}
		et := c.a.EffectiveTransform(c.ta)
		c.tb = shape.Transform{Pos: et.Apply(p.Add(dir.Scale(gap))), Rot: et.Rot}
	case "compound":
		c.a = h13Compound(rng, 1)
		if rng.IntN(2) == 0 {
			c.b = h13Compound(rng, 1)
		} else {
			c.b = h13Shape(rng, kb, 1)
		}
		c.ta = shape.Transform{Pos: bv.Add(shape.V(rng.Float64(), rng.Float64())), Rot: h13Rot(rng)}
		c.tb = shape.Transform{Pos: c.ta.Pos.Add(shape.V(h13Uni(rng, -2, 2), h13Uni(rng, -2, 2))), Rot: h13Rot(rng)}
	}
	if rng.IntN(2) == 0 {
		c.a, c.b, c.ta, c.tb = c.b, c.a, c.tb, c.ta
	}
	return c
}

// TestHunt13CollideExactOracle compares Collide, Overlap and the mirrored
// Collide with the core oracle above on random pairs of every convex kind
// and compounds, at 0 to 1e12, turned, and tiny shapes next to huge ones.
func TestHunt13CollideExactOracle(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x13))
	for _, family := range []struct {
		name string
		n    int
	}{{"random", 200}, {"facing", 200}, {"tiny-huge", 200}, {"tiny-corner", 150}, {"compound", 40}} {
		n := family.n
		if oracleShort() {
			n = max(1, n/10)
		}
		t.Run(family.name, func(t *testing.T) {
			fails := map[string]int{}
			for range n * max(1, *exScaleFlag) {
				c := h13Draw(rng, family.name)
				msg := h13Check(c.a, c.ta, c.b, c.tb)
				if msg == "" {
					continue
				}
				key := c.a.Kind().String() + "-" + c.b.Kind().String()
				fails[key]++
				if fails[key] <= 2 {
					t.Errorf("%s: %s: %s", key, h13Describe(c.a, c.ta, c.b, c.tb), msg)
				}
			}
			if len(fails) > 0 {
				t.Errorf("failures: %v", fails)
			}
		})
	}
}

// h13Describe describes a pair, with a compound's parts.
func h13Describe(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) string {
	parts := func(s shape.Shape) string {
		if s.Kind() != shape.KindCompound {
			return ""
		}
		out := " parts"
		for _, p := range s.Parts() {
			out += fmt.Sprintf(" [%v at %v (cos %v, sin %v)]", p.Shape, p.Offset.Pos, p.Offset.Rot.Cos(), p.Offset.Rot.Sin())
		}
		return out
	}
	return exDescribe(a, ta, b, tb) + parts(a) + parts(b)
}

// h13Shift returns the core c moved by t·d, exactly.
func h13Shift(c h13Core, t float64, d shape.Vec2) h13Core {
	x := exVF(d).scale(exR(t))
	out := h13Core{p: make([]exV, len(c.p)), r: c.r}
	for i, p := range c.p {
		out.p[i] = p.add(x)
	}
	return out
}

// h13SweptHull returns the core c swept along d: the hull of c and c + d
// (gift wrapping, exact), grown by c's radius.
func h13SweptHull(c h13Core, d shape.Vec2) h13Core {
	pts := append(append([]exV(nil), c.p...), h13Shift(c, 1, d).p...)
	// The lowest point (by y, then x) starts the wrap.
	s := 0
	for i, p := range pts {
		if c := p.y.Cmp(pts[s].y); c < 0 || (c == 0 && p.x.Cmp(pts[s].x) < 0) {
			s = i
		}
	}
	var hull []exV
	cur := s
	for range len(pts) + 1 {
		hull = append(hull, pts[cur])
		nx := -1
		for j, q := range pts {
			if exCmpXY(q, pts[cur]) == 0 {
				continue
			}
			if nx < 0 {
				nx = j
				continue
			}
			o := h13Orient(pts[cur], pts[nx], q)
			if o < 0 || (o == 0 && q.sub(pts[cur]).dot(q.sub(pts[cur])).Cmp(pts[nx].sub(pts[cur]).dot(pts[nx].sub(pts[cur]))) > 0) {
				nx = j
			}
		}
		if nx < 0 || exCmpXY(pts[nx], pts[s]) == 0 {
			break
		}
		cur = nx
	}
	if len(hull) == 3 && h13Orient(hull[0], hull[1], hull[2]) == 0 {
		hull = hull[:2]
	}
	return h13Core{p: hull, r: c.r}
}

// h13Gap returns the signed gap between the grown cores: their distance,
// or minus their depth.
func h13Gap(a, b h13Core) float64 {
	v, _ := h13Depth(a, b).Float64()
	return -v
}

// h13CheckCast compares Cast of convex a (moved by delta) against convex
// b with the core oracle: a hit exactly when the swept core comes within
// the radii of b's, the pair touching at the Fraction (to rounding), the
// Normal a direction along which they touch there (from b toward a), the
// Point on both surfaces; from an overlap at the start, Collide's answer.
func h13CheckCast(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) string {
	h, ok := narrowphase.Cast(a, ta, delta, b, tb)
	ca, cb := h13Cores(a, ta)[0], h13Cores(b, tb)[0]
	segs := len(ca.p) == 2 && ca.r.Sign() == 0 && len(cb.p) == 2 && cb.r.Sign() == 0
	scale := h13Scale(a, ta, b, tb) + delta.Len()
	tol := 64 * h13Eps * scale
	wtol := tol + float64(64*h13Eps*h13Far(ta, tb))
	sweep := h13SweptHull(ca, delta)
	minGap := h13Gap(sweep, cb)
	if segs {
		minGap, _ = h13Sqrt(h13CoreDist2(sweep, cb)).Float64()
	}
	if !ok {
		if minGap < -tol || (minGap <= 0 && !segs && delta == (shape.Vec2{})) {
			return fmt.Sprintf("Cast = no hit, want a hit (the swept shape overlaps b by %.3g)", -minGap)
		}
		return ""
	}
	if minGap > tol {
		return fmt.Sprintf("Cast = %+v, want no hit (the sweep passes %.3g apart)", h, minGap)
	}
	if !(h.Fraction >= 0 && h.Fraction <= 1) || math.Abs(h.Normal.Len()-1) > 1e-14 {
		return fmt.Sprintf("Cast = %+v: fraction out of [0, 1] or normal not unit", h)
	}
	if m, in := narrowphase.Collide(a, ta, b, tb); in {
		if h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point {
			return fmt.Sprintf("Cast = %+v from an overlap, want fraction 0, normal %v and point %v (Collide)", h, m.Normal.Neg(), m.Points[0].Point)
		}
		return ""
	}
	at := h13Shift(ca, h.Fraction, delta)
	if segs && h13CoreDist2(at, cb).Sign() == 0 {
		return "" // segments sharing a point: touching, whatever their crossing
	}
	if g := h13Gap(at, cb); math.Abs(g) > tol {
		// A gap that stays within tol over a stretch (a graze) may be
		// met anywhere along it; a gap beyond tol is a wrong fraction.
		return fmt.Sprintf("Cast.Fraction = %.17g leaves a gap of %.3g (tol %.3g): %+v", h.Fraction, g, tol, h)
	}
	if along, _ := h13Along(at, cb, exVF(h.Normal.Neg())).Float64(); math.Abs(along) > tol {
		return fmt.Sprintf("Cast.Normal = %v: the pair overlaps by %.3g along it at the touch (tol %.3g): %+v", h.Normal, along, tol, h)
	}
	if sa, sb := h13Signed(at, h.Point), h13Signed(cb, h.Point); math.Abs(sa) > wtol || math.Abs(sb) > wtol {
		return fmt.Sprintf("Cast.Point = %v lies %.3g from the moved a's surface and %.3g from b's (tol %.3g): %+v", h.Point, sa, sb, wtol, h)
	}
	return ""
}

// h13DrawCast draws a cast: a at a few units from b moved toward it by
// up to a hundred times its size, or along one of b's edges, nearly
// parallel to it, from beside it.
func h13DrawCast(rng *rand.Rand) (a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) {
	base := h13Bases[rng.IntN(len(h13Bases))]
	bv := shape.V(base, -base*0.75)
	ka, kb := h13Kinds[rng.IntN(len(h13Kinds))], h13Kinds[rng.IntN(len(h13Kinds))]
	a, b = h13Shape(rng, ka, 1), h13Shape(rng, kb, 1)
	tb = shape.Transform{Pos: bv, Rot: h13Rot(rng)}
	ta.Rot = h13Rot(rng)
	switch rng.IntN(3) {
	case 0: // toward b from afar, the motion reaching up to a hundred times past it
		ang := rng.Float64() * 2 * math.Pi
		dir := shape.V(math.Cos(ang), math.Sin(ang))
		ta.Pos = tb.Pos.Add(dir.Scale(h13Uni(rng, 3, 53)))
		aim := tb.Pos.Add(shape.V(h13Uni(rng, -2, 2), h13Uni(rng, -2, 2)))
		delta = aim.Sub(ta.Pos).Scale(h13Uni(rng, 1, 101))
	case 1: // along an edge of b, nearly parallel, from beside its line
		loc, _ := h13Local(b)
		i := rng.IntN(len(loc))
		p, q := loc[i], loc[(i+1)%len(loc)]
		if p == q {
			q = p.Add(shape.V(1, 0))
		}
		et := b.EffectiveTransform(tb)
		wp, wq := et.Apply(p), et.Apply(q)
		e := wq.Sub(wp).Normalize()
		side := e.Perp().Scale(h13Uni(rng, -1, 2))
		ta.Pos = wp.Sub(e.Scale(h13Uni(rng, 3, 8))).Add(side)
		tilt := h13Uni(rng, -1, 1) * math.Pow(10, h13Uni(rng, -8, -2))
		d := shape.V(e.X-float64(tilt*e.Y), e.Y+float64(tilt*e.X))
		delta = d.Scale(h13Uni(rng, 10, 110))
	default: // short or zero motions near b
		ta.Pos = h13Near(rng, b, tb, rng.Float64()*2)
		if rng.IntN(4) > 0 {
			delta = shape.V(h13Uni(rng, -1, 1), h13Uni(rng, -1, 1)).Scale(rng.Float64() * 2)
		}
	}
	return a, ta, delta, b, tb
}

// TestHunt13CastExactOracle compares Cast with the core oracle on random
// casts of every convex kind pair: long motions toward b, motions nearly
// parallel to one of b's edges, short and zero motions, at 0 to 1e12.
func TestHunt13CastExactOracle(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x113))
	n := 200
	if oracleShort() {
		n = 20
	}
	fails := map[string]int{}
	for range n * max(1, *exScaleFlag) {
		a, ta, delta, b, tb := h13DrawCast(rng)
		msg := h13CheckCast(a, ta, delta, b, tb)
		if msg == "" {
			continue
		}
		key := a.Kind().String() + "-" + b.Kind().String()
		fails[key]++
		if fails[key] <= 2 {
			t.Errorf("%s: %s, delta %v: %s", key, h13Describe(a, ta, b, tb), delta, msg)
		}
	}
	if len(fails) > 0 {
		t.Errorf("failures: %v", fails)
	}
}

// h13Feature returns the support feature of core c along the float unit
// u: the least and greatest coordinate along t of its points within eps
// of the support, their number, and the support.
func h13Feature(c h13Core, u, t shape.Vec2, eps float64) (lo, hi float64, n int, h float64) {
	_, top := h13Ext(c, exVF(u))
	h, _ = top.Float64()
	lo, hi = math.Inf(1), math.Inf(-1)
	tg := exVF(t)
	for _, p := range c.p {
		d, _ := p.dot(exVF(u)).Float64()
		if d >= h-eps {
			s, _ := p.dot(tg).Float64()
			lo, hi = min(lo, s), max(hi, s)
			n++
		}
	}
	return lo, hi, n, h
}

// h13CheckParallel checks that a manifold whose cores meet with parallel
// faces, edges of both perpendicular to the normal that overlap along it
// by a stretch, has two points at the ends of that stretch with the full
// depth (the package's clipping rule), and "" when it does or the faces
// are not parallel.
func h13CheckParallel(m narrowphase.Manifold, a, b h13Core, dtol, wtol float64) string {
	n := m.Normal
	scale := max(dtol, wtol) / (64 * h13Eps)
	eps := 1e-9 * scale
	loA, hiA, nA, _ := h13Feature(a, n, n.Perp(), eps)
	loB, hiB, nB, _ := h13Feature(b, n.Neg(), n.Perp(), eps)
	lo, hi := max(loA, loB), min(hiA, hiB)
	if nA < 2 || nB < 2 || hi-lo < 1e-6*scale || m.Depth < 1e-6*scale {
		return ""
	}
	if m.Count != 2 {
		return fmt.Sprintf("Collide.Count = %d, want 2: parallel faces overlap along the tangent by %.3g; manifold %+v", m.Count, hi-lo, m)
	}
	s0, s1 := m.Points[0].Point.Dot(n.Perp()), m.Points[1].Point.Dot(n.Perp())
	if s0 > s1 {
		s0, s1 = s1, s0
	}
	if math.Abs(s0-lo) > 1e-6*scale || math.Abs(s1-hi) > 1e-6*scale {
		return fmt.Sprintf("Collide.Points span %.17g to %.17g along the faces, want %.17g to %.17g; manifold %+v", s0, s1, lo, hi, m)
	}
	for i := range 2 {
		if math.Abs(m.Points[i].Depth-m.Depth) > 1e-6*scale {
			return fmt.Sprintf("Collide.Points[%d].Depth = %.17g, want the full depth %.17g (parallel faces); manifold %+v", i, m.Points[i].Depth, m.Depth, m)
		}
	}
	return ""
}

// h13AxisShape returns a shape of kind k about size 1 whose faces or core
// run along the axes: a box, a rectangle or an axis-aligned trapezoid, a
// capsule or segment along X or Y (any other kind as h13Shape).
func h13AxisShape(rng *rand.Rand, k shape.Kind) shape.Shape {
	x0, x1 := h13Uni(rng, -1.2, -0.2), h13Uni(rng, 0.2, 1.2)
	y := 0.1 + rng.Float64()
	var s shape.Shape
	var err error
	switch k {
	case shape.KindPolygon:
		top := rng.Float64() * 0.4 * (x1 - x0)
		s, err = shape.NewPolygon([]shape.Vec2{{X: x0, Y: -y}, {X: x1, Y: -y}, {X: x1 - top, Y: y}, {X: x0 + top, Y: y}})
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := shape.V(x0, y-0.5), shape.V(x1, y-0.5)
		if rng.IntN(2) == 0 {
			p0, p1 = p0.Perp(), p1.Perp()
		}
		if k == shape.KindSegment {
			s, err = shape.NewSegment(p0, p1)
		} else {
			s, err = shape.NewCapsule(p0, p1, h13Uni(rng, 0.05, 0.55))
		}
	default:
		return h13Shape(rng, k, 1)
	}
	if err != nil {
		panic(err)
	}
	return s
}

// h13Uni returns a uniform random number in [lo, hi), its product
// rounded apart from the sum (no fused multiply–add on any CPU).
func h13Uni(rng *rand.Rand, lo, hi float64) float64 {
	return lo + float64(rng.Float64()*(hi-lo))
}
