package narrowphase_test

import (
	"math/big"
	"sort"

	"github.com/collide-go/collide/shape"
)

// This file holds an exact oracle for the narrow phase, built on math/big
// rationals and sharing no formula with the package.
//
// Every convex kind is a core (a point, a segment or a convex polygon)
// grown by a radius. The core is placed in the world exactly: each world
// coordinate is pos + c·x − s·y computed in rationals from the float64
// cosine and sine the transform holds, so the oracle's shape is the shape
// the transform describes, not a rounded copy of it.
//
// For a pair (A, B) the oracle builds the Minkowski difference D = B − A of
// the cores by brute force (the exact convex hull of every difference of
// vertices), grown by rA + rB. Then:
//
//   - A and B overlap iff the origin lies in D's interior: the squared
//     distance from the origin to the core hull is below (rA + rB)², or the
//     origin is strictly inside a core hull with area;
//   - the penetration depth is the distance from the origin to D's boundary
//     (r minus the core distance, or r plus the distance to the nearest
//     edge line when the origin is inside the core hull);
//   - any unit n is a valid contact normal iff h_D(−n) equals the depth,
//     where h_D is D's support function, evaluated exactly at the float n;
//   - a translates by x to touch b iff x ∈ D, so a cast along δ first
//     touches at the smallest t with dist(segment [0, tδ], core) ≤ r, which
//     is monotone in t and found by bisection over float64 values of t with
//     an exact predicate;
//   - a ray first meets a shape at the smallest d with
//     dist(segment [o, o + d·dir], core) ≤ r, found the same way.
//
// Squared distances and the predicates are exact; only square roots (for
// depths and distances) go through big.Float at 200 bits, far below any
// tolerance used.

// exR returns x as an exact rational.
func exR(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func exAdd(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
func exSub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
func exMul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

// exV is an exact point.
type exV struct{ x, y *big.Rat }

func exVF(v shape.Vec2) exV         { return exV{exR(v.X), exR(v.Y)} }
func (p exV) sub(q exV) exV         { return exV{exSub(p.x, q.x), exSub(p.y, q.y)} }
func (p exV) add(q exV) exV         { return exV{exAdd(p.x, q.x), exAdd(p.y, q.y)} }
func (p exV) scale(s *big.Rat) exV  { return exV{exMul(p.x, s), exMul(p.y, s)} }
func (p exV) dot(q exV) *big.Rat    { return exAdd(exMul(p.x, q.x), exMul(p.y, q.y)) }
func (p exV) cross(q exV) *big.Rat  { return exSub(exMul(p.x, q.y), exMul(p.y, q.x)) }
func (p exV) cmp(q exV) int         { return exCmpXY(p, q) }
func exCross3(o, a, b exV) *big.Rat { return a.sub(o).cross(b.sub(o)) }

func exCmpXY(p, q exV) int {
	if c := p.x.Cmp(q.x); c != 0 {
		return c
	}
	return p.y.Cmp(q.y)
}

// exCore is a convex core in the world, grown by r: one point, a segment
// (two points) or a convex polygon (three or more, counter-clockwise, no
// three collinear).
type exCore struct {
	pts []exV
	r   *big.Rat
}

func (c exCore) area() bool { return len(c.pts) >= 3 }

// exPlace places a convex shape s by t exactly.
func exPlace(s shape.Shape, t shape.Transform) exCore {
	t = s.EffectiveTransform(t)
	c, sn := exR(t.Rot.Cos()), exR(t.Rot.Sin())
	px, py := exR(t.Pos.X), exR(t.Pos.Y)
	apply := func(v shape.Vec2) exV {
		x, y := exR(v.X), exR(v.Y)
		return exV{exAdd(px, exSub(exMul(c, x), exMul(sn, y))), exAdd(py, exAdd(exMul(sn, x), exMul(c, y)))}
	}
	var local []shape.Vec2
	r := new(big.Rat)
	switch s.Kind() {
	case shape.KindCircle:
		local = []shape.Vec2{s.Center()}
		r = exR(s.Radius())
	case shape.KindAABB, shape.KindOBB:
		cs := s.Corners()
		local = cs[:]
	case shape.KindPolygon:
		local = s.Vertices()
	case shape.KindCapsule:
		p0, p1 := s.Segment()
		local = []shape.Vec2{p0, p1}
		r = exR(s.Radius())
	case shape.KindSegment:
		p0, p1 := s.Segment()
		local = []shape.Vec2{p0, p1}
	default:
		panic("exPlace: not a convex kind: " + s.Kind().String())
	}
	pts := make([]exV, len(local))
	for i, v := range local {
		pts[i] = apply(v)
	}
	return exCore{pts: exHull(pts), r: r}
}

// exParts places every convex part of s by t exactly: s itself for a
// convex kind, a compound's parts (each by its offset and then by t, both
// exactly: exPlacePart), or a chain's segments.
func exParts(s shape.Shape, t shape.Transform) []exCore {
	if s.Kind().Convex() {
		return []exCore{exPlace(s, t)}
	}
	out := make([]exCore, s.PartCount())
	if s.Kind() == shape.KindCompound {
		for i := range out {
			out[i] = exPlacePart(s, i, t)
		}
		return out
	}
	for i := range out {
		ps, pt := s.Part(i, t)
		out[i] = exPlace(ps, pt)
	}
	return out
}

// exHull returns the convex hull of pts, counter-clockwise with no
// collinear points: one point, two, or a polygon (Andrew's monotone chain,
// exact).
func exHull(pts []exV) []exV {
	p := append([]exV(nil), pts...)
	sort.Slice(p, func(i, j int) bool { return p[i].cmp(p[j]) < 0 })
	u := p[:0]
	for i, q := range p {
		if i == 0 || q.cmp(u[len(u)-1]) != 0 {
			u = append(u, q)
		}
	}
	p = u
	if len(p) <= 2 {
		return append([]exV(nil), p...)
	}
	var h []exV
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for i := range p {
			q := p[i]
			if pass == 1 {
				q = p[len(p)-1-i]
			}
			for len(h) >= start+2 && exCross3(h[len(h)-2], h[len(h)-1], q).Sign() <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
	}
	if len(h) < 3 { // all collinear: the two extreme points
		return []exV{p[0], p[len(p)-1]}
	}
	return h
}

// exMinkowski returns the Minkowski difference b − a of two cores, grown by
// the sum of the radii.
func exMinkowski(a, b exCore) exCore {
	var d []exV
	for _, q := range b.pts {
		for _, p := range a.pts {
			d = append(d, q.sub(p))
		}
	}
	return exCore{pts: exHull(d), r: exAdd(a.r, b.r)}
}

// exPointSegDist2 returns the squared distance from p to the segment a–b.
func exPointSegDist2(p, a, b exV) *big.Rat {
	d := b.sub(a)
	w := p.sub(a)
	wd := w.dot(d)
	if wd.Sign() <= 0 {
		return w.dot(w)
	}
	dd := d.dot(d)
	if wd.Cmp(dd) >= 0 {
		e := p.sub(b)
		return e.dot(e)
	}
	c := w.cross(d)
	return new(big.Rat).Quo(exMul(c, c), dd)
}

// exSide returns the sign of p against the directed line a→b (+1 left).
func exSide(a, b, p exV) int { return exCross3(a, b, p).Sign() }

// exInside reports whether p lies in the polygon core (closed: on the
// boundary counts) and whether strictly inside.
func exInside(c exCore, p exV) (closed, strict bool) {
	if !c.area() {
		return false, false
	}
	closed, strict = true, true
	n := len(c.pts)
	for i := range n {
		s := exSide(c.pts[i], c.pts[(i+1)%n], p)
		if s < 0 {
			return false, false
		}
		if s == 0 {
			strict = false
		}
	}
	return closed, strict
}

// exEdges calls fn with each edge of the core: a polygon's edges, a
// segment once, a point as a zero-length edge.
func exEdges(c exCore, fn func(a, b exV)) {
	switch n := len(c.pts); n {
	case 1:
		fn(c.pts[0], c.pts[0])
	case 2:
		fn(c.pts[0], c.pts[1])
	default:
		for i := range n {
			fn(c.pts[i], c.pts[(i+1)%n])
		}
	}
}

// exDist2 returns the squared distance from p to the core (0 inside a
// polygon core).
func exDist2(c exCore, p exV) *big.Rat {
	if in, _ := exInside(c, p); in {
		return new(big.Rat)
	}
	var best *big.Rat
	exEdges(c, func(a, b exV) {
		if d := exPointSegDist2(p, a, b); best == nil || d.Cmp(best) < 0 {
			best = d
		}
	})
	return best
}

// exSegsCross reports whether the closed segments p0–p1 and q0–q1 share a
// point.
func exSegsCross(p0, p1, q0, q1 exV) bool {
	d1, d2 := exSide(q0, q1, p0), exSide(q0, q1, p1)
	d3, d4 := exSide(p0, p1, q0), exSide(p0, p1, q1)
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	on := func(a, b, p exV) bool { // p on segment a–b, given collinear
		return exPointSegDist2(p, a, b).Sign() == 0
	}
	return (d1 == 0 && on(q0, q1, p0)) || (d2 == 0 && on(q0, q1, p1)) ||
		(d3 == 0 && on(p0, p1, q0)) || (d4 == 0 && on(p0, p1, q1))
}

// exSegDist2 returns the squared distance from the segment p0–p1 to the
// core.
func exSegDist2(c exCore, p0, p1 exV) *big.Rat {
	if in, _ := exInside(c, p0); in {
		return new(big.Rat)
	}
	var best *big.Rat
	try := func(d *big.Rat) {
		if best == nil || d.Cmp(best) < 0 {
			best = d
		}
	}
	exEdges(c, func(a, b exV) {
		if exSegsCross(p0, p1, a, b) {
			try(new(big.Rat))
			return
		}
		try(exPointSegDist2(p0, a, b))
		try(exPointSegDist2(p1, a, b))
		try(exPointSegDist2(a, p0, p1))
		try(exPointSegDist2(b, p0, p1))
	})
	return best
}

// exSqrt returns √x in float64, through a 200-bit square root.
func exSqrt(x *big.Rat) float64 {
	f := new(big.Float).SetPrec(200).SetRat(x)
	v, _ := f.Sqrt(f).Float64()
	return v
}

// exSqrtF returns √x at 200 bits.
func exSqrtF(x *big.Rat) *big.Float {
	f := new(big.Float).SetPrec(200).SetRat(x)
	return f.Sqrt(f)
}

// exPen returns whether the origin lies in the interior of the grown core d
// and its signed penetration: the distance from the origin to d's boundary,
// positive inside, negative outside (minus the gap).
func exPen(d exCore) (bool, float64) {
	o := exV{new(big.Rat), new(big.Rat)}
	r := new(big.Float).SetPrec(200).SetRat(d.r)
	if closed, strict := exInside(d, o); closed {
		if !strict {
			v, _ := r.Float64()
			return d.r.Sign() > 0, v
		}
		var best *big.Rat // smallest squared distance to an edge line
		exEdges(d, func(a, b exV) {
			e := b.sub(a)
			c := e.cross(o.sub(a))
			q := new(big.Rat).Quo(exMul(c, c), e.dot(e))
			if best == nil || q.Cmp(best) < 0 {
				best = q
			}
		})
		v, _ := new(big.Float).SetPrec(200).Add(r, exSqrtF(best)).Float64()
		return true, v
	}
	d2 := exDist2(d, o)
	in := d2.Cmp(exMul(d.r, d.r)) < 0
	v, _ := new(big.Float).SetPrec(200).Sub(r, exSqrtF(d2)).Float64()
	return in, v
}

// exSupport returns h(u) = max over the grown core of p·u, for a float u,
// in float64 (the core term exactly, then rounded).
func exSupport(c exCore, u shape.Vec2) float64 {
	uu := exVF(u)
	var best *big.Rat
	for _, p := range c.pts {
		if d := p.dot(uu); best == nil || d.Cmp(best) > 0 {
			best = d
		}
	}
	h, _ := best.Float64()
	rf, _ := c.r.Float64()
	return h + rf*u.Len()
}

// exSignedDist returns the signed distance from the world point p to the
// grown core c: the distance outside, minus the depth inside.
func exSignedDist(c exCore, p shape.Vec2) float64 {
	return exSignedDistAt(c, exVF(p))
}

// exSignedDistAt is exSignedDist at an exact point (one no float holds,
// such as a far origin plus a distance along a ray).
func exSignedDistAt(c exCore, p exV) float64 {
	shifted := exCore{pts: make([]exV, len(c.pts)), r: c.r}
	for i, q := range c.pts {
		shifted.pts[i] = q.sub(p)
	}
	_, pen := exPen(shifted)
	return -pen
}

// exFirst returns the smallest float64 t in [0, 1] with hit(t), given
// hit(1) and a monotone hit, by bisection; exactly 0 when hit(0).
func exFirst(hit func(t float64) bool) float64 {
	if hit(0) {
		return 0
	}
	lo, hi := 0.0, 1.0
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if hit(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// exCastOracle is the exact answer to a cast of a by delta against b.
type exCastOracle struct {
	d     exCore // Minkowski difference b − a, grown
	delta shape.Vec2
	hit   bool
	frac  float64
	gap   float64 // the smallest signed gap along the whole motion
}

// exFirstTouch returns the exact fraction of delta at which shape a,
// placed by ta and moved by delta, first touches shape b placed by tb:
// the least exCast over their part pairs (walls never touch walls), and
// whether any pair touches.
func exFirstTouch(a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) (float64, bool) {
	frac, hit := 2.0, false
	pb := exParts(b, tb)
	for _, x := range exParts(a, ta) {
		for _, y := range pb {
			if len(x.pts) <= 2 && len(y.pts) <= 2 && x.r.Sign() == 0 && y.r.Sign() == 0 {
				continue // walls never collide with walls
			}
			if o := exCast(x, delta, y); o.hit && o.frac < frac {
				frac, hit = o.frac, true
			}
		}
	}
	return frac, hit
}

// exCast solves the cast of core a by delta against core b.
func exCast(a exCore, delta shape.Vec2, b exCore) exCastOracle {
	d := exMinkowski(a, b)
	o := exV{new(big.Rat), new(big.Rat)}
	dv := exVF(delta)
	r2 := exMul(d.r, d.r)
	touches := func(t float64) bool {
		return exSegDist2(d, o, dv.scale(exR(t))).Cmp(r2) <= 0
	}
	res := exCastOracle{d: d, delta: delta}
	g2 := exSegDist2(d, o, dv)
	rf, _ := d.r.Float64()
	res.gap = exSqrt(g2) - rf
	if g2.Cmp(r2) > 0 {
		return res
	}
	res.hit = true
	res.frac = exFirst(touches)
	return res
}

// gapAt returns the signed gap between the pair after a moved by t·delta:
// positive apart, negative overlapping (minus the penetration depth).
func (o exCastOracle) gapAt(t float64) float64 {
	p := o.delta.Scale(t)
	return exSignedDist(o.d, p)
}

// exRay returns the smallest d in [0, maxDist] at which the ray meets one of
// the cores, and that core's index, or false.
func exRay(cores []exCore, origin, dir shape.Vec2, maxDist float64) (float64, int, bool) {
	o := exVF(origin)
	dv := exVF(dir)
	best, bi, found := 0.0, -1, false
	for i, c := range cores {
		r2 := exMul(c.r, c.r)
		meets := func(d float64) bool {
			return exSegDist2(c, o, o.add(dv.scale(exR(d)))).Cmp(r2) <= 0
		}
		if !meets(maxDist) {
			continue
		}
		d := exFirst(func(t float64) bool { return meets(t * maxDist) })
		d *= maxDist
		if !found || d < best {
			best, bi, found = d, i, true
		}
	}
	return best, bi, found
}
