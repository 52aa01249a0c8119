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

// This file checks the point queries ContainsPoint, DistanceSq and
// Distance of every kind against exact rational geometry: each convex
// part's core placed in the world exactly from the float cos and sin the
// transform holds (exParts: a compound's parts by their offset and then
// by the body's transform, a chain's segments by the body's), the point
// taken exactly as the float given. A point is in a part when its squared
// distance to the core is at most r² (0 for a polygon core that holds it,
// exDist2), in the shape when it is in some part; the distance is the
// least over the parts of max(0, √d² − r), the square root taken at 200
// bits. Segments and chains (r = 0) hold exactly their own points.
//
// The query points hunt the boundary: exactly on a core's vertex or on
// an edge at a dyadic fraction (grown by r along an axis or a 3-4-5
// direction for rounded parts), a compound's internal seams (a part's
// edges inside the union), one or two ulps either side of those, deep
// inside, far away and at random near the shape.

// h12Kinds are the shape kinds the oracle draws, concave polygons apart
// from other compounds.
var h12Kinds = []string{"circle", "aabb", "obb", "polygon", "capsule", "segment", "compound", "concave", "chain"}

// h12Shape returns a random dyadic shape of the named kind.
func h12Shape(rng *rand.Rand, kind string) shape.Shape {
	switch kind {
	case "circle":
		return exRandShape(rng, shape.KindCircle)
	case "aabb":
		return exRandShape(rng, shape.KindAABB)
	case "obb":
		return exRandShape(rng, shape.KindOBB)
	case "polygon":
		return exRandShape(rng, shape.KindPolygon)
	case "capsule":
		return exRandShape(rng, shape.KindCapsule)
	case "segment":
		return exRandShape(rng, shape.KindSegment)
	case "compound":
		for {
			if s := exRandCompound(rng); s.Kind() == shape.KindCompound {
				return s
			}
		}
	case "concave":
		for {
			n := 5 + rng.IntN(8)
			pts := make([]shape.Vec2, n)
			for i := range pts {
				a := 2 * math.Pi * (float64(i) + 0.5*rng.Float64()) / float64(n)
				r := exDyad(rng, 0.5, 3)
				if i%2 == 1 && rng.IntN(2) == 0 {
					r /= 3
				}
				pts[i] = shape.V(math.Round(r*math.Cos(a)*16)/16, math.Round(r*math.Sin(a)*16)/16)
			}
			if s, err := shape.NewConcavePolygon(pts); err == nil {
				return s
			}
		}
	case "chain":
		for {
			pts := []shape.Vec2{exDyadV(rng, -3, 3)}
			dir := exDyadV(rng, -2, 2)
			for range 2 + rng.IntN(5) {
				if rng.IntN(2) == 0 {
					dir = exDyadV(rng, -2, 2)
				}
				pts = append(pts, pts[len(pts)-1].Add(dir))
			}
			if s, err := shape.NewChain(pts, rng.IntN(3) == 0); err == nil {
				return s
			}
		}
	}
	panic("h12Shape: " + kind)
}

// h12Answer is the exact oracle's answer for one point.
type h12Answer struct {
	in   bool    // the closed shape holds the point
	deep bool    // it holds the whole square of half-side tol around the point
	dist float64 // the distance, correctly rounded from 200 bits
}

// h12Dist returns whether the point p is in the rounded core c and its
// distance to it, at 200 bits.
func h12Dist(c exCore, p exV) (bool, *big.Float) {
	d2 := exDist2(c, p)
	in := d2.Cmp(exMul(c.r, c.r)) <= 0
	d := exSqrtF(d2)
	d.Sub(d, new(big.Float).SetPrec(200).SetRat(c.r))
	if d.Sign() < 0 {
		d.SetInt64(0)
	}
	return in, d
}

// h12Oracle answers for the world point p against the exact parts.
func h12Oracle(parts []exCore, p shape.Vec2, tol float64) h12Answer {
	ep := exVF(p)
	var a h12Answer
	var best *big.Float
	for _, c := range parts {
		in, d := h12Dist(c, ep)
		a.in = a.in || in
		if best == nil || d.Cmp(best) < 0 {
			best = d
		}
		if !a.deep && in {
			// A convex part holds the square when it holds its corners.
			deep := true
			for _, dv := range [4]shape.Vec2{{X: tol, Y: tol}, {X: -tol, Y: tol}, {X: tol, Y: -tol}, {X: -tol, Y: -tol}} {
				if in, _ := h12Dist(c, ep.add(exVF(dv))); !in {
					deep = false
					break
				}
			}
			a.deep = deep
		}
	}
	a.dist, _ = best.Float64()
	return a
}

// h12Quarter reports whether r turns by a multiple of a quarter turn
// exactly, so that its inverse is exact.
func h12Quarter(r shape.Rot) bool {
	c, s := r.Cos(), r.Sin()
	return (c == 0 && math.Abs(s) == 1) || (s == 0 && math.Abs(c) == 1)
}

// h12ExactLocal reports whether the engine sees p in the shape's own
// frame (and in each compound part's) exactly: the rotations are quarter
// turns and the float inverse transforms round nothing. Then the shape's
// boundary is where the oracle puts it, and ContainsPoint must answer
// exactly, a point on the boundary or an ulp either side included.
func h12ExactLocal(s shape.Shape, t shape.Transform, p shape.Vec2) bool {
	exact := func(t shape.Transform, p shape.Vec2) (shape.Vec2, bool) {
		if !h12Quarter(t.Rot) {
			return shape.Vec2{}, false
		}
		q := t.ApplyInv(p)
		d := exVF(p).sub(exVF(t.Pos))
		c, sn := exR(t.Rot.Cos()), exR(t.Rot.Sin())
		x := exAdd(exMul(c, d.x), exMul(sn, d.y))
		y := exSub(exMul(c, d.y), exMul(sn, d.x))
		return q, x.Cmp(exR(q.X)) == 0 && y.Cmp(exR(q.Y)) == 0
	}
	t = s.EffectiveTransform(t)
	q, ok := exact(t, p)
	if !ok || tiny(q.X) || tiny(q.Y) {
		return false
	}
	for _, part := range s.Parts() {
		if _, ok := exact(part.Offset, q); !ok {
			return false
		}
	}
	return true
}

// tiny reports whether x is nonzero and below 1e-290, where twoProd's
// products underflow: a circle's exact test (circleExcess) cannot see
// the square of such an offset (a known limit, left open).
func tiny(x float64) bool { return x != 0 && math.Abs(x) < 1e-290 }

// h12Points returns the query points for the exact parts: on and about
// their boundaries, deep inside, far away and near.
func h12Points(rng *rand.Rand, parts []exCore, t shape.Transform) []shape.Vec2 {
	var out []shape.Vec2
	f := func(v exV) shape.Vec2 {
		x, _ := v.x.Float64()
		y, _ := v.y.Float64()
		return shape.V(x, y)
	}
	dirs := []shape.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {X: 0.6, Y: 0.8}, {X: -0.8, Y: 0.6}, {X: -0.6, Y: -0.8}, {X: 0.8, Y: -0.6}}
	grow := func(c exCore, v exV) exV {
		if c.r.Sign() == 0 {
			return v
		}
		d := dirs[rng.IntN(len(dirs))]
		// 0.6 and 0.8 as the exact fifths, not their float roundings.
		dx, dy := new(big.Rat).SetFrac64(int64(math.Round(d.X*5)), 5), new(big.Rat).SetFrac64(int64(math.Round(d.Y*5)), 5)
		return v.add(exV{exMul(dx, c.r), exMul(dy, c.r)})
	}
	hair := func(p shape.Vec2) shape.Vec2 {
		up := math.Inf(1)
		if rng.IntN(2) == 0 {
			up = math.Inf(-1)
		}
		for range 1 + rng.IntN(2) {
			if rng.IntN(2) == 0 {
				p.X = math.Nextafter(p.X, up)
			} else {
				p.Y = math.Nextafter(p.Y, up)
			}
		}
		return p
	}
	for range 4 {
		c := parts[rng.IntN(len(parts))]
		i := rng.IntN(len(c.pts))
		a := c.pts[i]
		b := c.pts[(i+1)%len(c.pts)]
		// On a vertex, on an edge at k/8 of its length, and a hair off each.
		v := f(grow(c, a))
		k := new(big.Rat).SetFrac64(int64(rng.IntN(9)), 8)
		e := f(grow(c, a.add(b.sub(a).scale(k))))
		out = append(out, v, e, hair(v), hair(e))
	}
	// Deep inside a part (or on a segment's middle), far away, and near.
	c := parts[rng.IntN(len(parts))]
	sum := exV{new(big.Rat), new(big.Rat)}
	for _, p := range c.pts {
		sum = sum.add(p)
	}
	out = append(out, f(sum.scale(new(big.Rat).SetFrac64(1, int64(len(c.pts))))))
	out = append(out, t.Pos.Add(shape.V(exDyad(rng, -1, 1)*1e3, exDyad(rng, -1, 1)*1e3)))
	for range 3 {
		out = append(out, t.Pos.Add(exDyadV(rng, -5, 5)))
	}
	return out
}

// h12Mag returns the largest coordinate magnitude among the point, the
// transform's position and the shape's placed parts.
func h12Mag(parts []exCore, t shape.Transform, p shape.Vec2) float64 {
	m := max(math.Abs(p.X), math.Abs(p.Y), math.Abs(t.Pos.X), math.Abs(t.Pos.Y))
	for _, c := range parts {
		r, _ := c.r.Float64()
		for _, v := range c.pts {
			x, _ := v.x.Float64()
			y, _ := v.y.Float64()
			m = max(m, math.Abs(x)+r, math.Abs(y)+r)
		}
	}
	return m
}

// h12Bases are the world offsets the shapes are placed around.
var h12Bases = []float64{0, 0, 1e6, 1e12, -1e12}

// h12Check checks the three point queries of s placed by t at p against
// the oracle, and returns a failure message or "".
//
// Tolerance: Distance within 8 ulps of the largest coordinate magnitude M
// (h12Mag). The engine subtracts the position and rotates into the
// shape's frame (each a rounding of the order of ulp(M)), and for a
// rotated shape its cos/sin pair is not exactly of unit length, so its
// inverse rotation is off by a few ulps of the local coordinates; a
// normalised edge normal or a square root adds about one more. Eight
// ulps of M bound all of these with room. ContainsPoint is exact where
// the engine's local point is exact (h12ExactLocal); elsewhere it must
// be false beyond tol outside and true for a point whose whole square of
// half-side tol is in one part. DistanceSq is 0 exactly when
// ContainsPoint is true, always.
func h12Check(s shape.Shape, t shape.Transform, p shape.Vec2) string {
	parts := exParts(s, t)
	tol := 8 * ulpOf(h12Mag(parts, t, p))
	want := h12Oracle(parts, p, tol)
	in := narrowphase.ContainsPoint(s, t, p)
	d2 := narrowphase.DistanceSq(s, t, p)
	d := narrowphase.Distance(s, t, p)
	switch {
	case in != (d2 == 0):
		return fmt.Sprintf("ContainsPoint = %v but DistanceSq = %g", in, d2)
	case h12ExactLocal(s, t, p) && in != want.in:
		return fmt.Sprintf("ContainsPoint = %v, want %v (exact local point, %v)", in, want.in, s)
	case in && want.dist > tol:
		return fmt.Sprintf("ContainsPoint = true, want false (%g outside)", want.dist)
	case !in && want.deep:
		return fmt.Sprintf("ContainsPoint = false, want true (deeper than %g)", tol)
	case math.Abs(d-want.dist) > tol:
		return fmt.Sprintf("Distance = %.17g, want %.17g (off %g, tol %g)", d, want.dist, d-want.dist, tol)
	}
	return ""
}

// ulpOf returns the spacing of float64s at x (at least the smallest
// normal's).
func ulpOf(x float64) float64 {
	x = max(math.Abs(x), 0x1p-1022)
	return math.Nextafter(x, math.Inf(1)) - x
}

// TestHunt12PointQueryExactOracle checks ContainsPoint, DistanceSq and
// Distance of every kind, at 0, ±1e12 and 1e6, rotated by quarter turns
// and at random, against the exact oracle above (h12Check).
func TestHunt12PointQueryExactOracle(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x12))
	n := 500
	switch {
	case testing.Short():
		n = 50 // the quick gate
	case raceEnabled:
		n = 120
	}
	fails := map[string]int{}
	for range n {
		kind := h12Kinds[rng.IntN(len(h12Kinds))]
		s := h12Shape(rng, kind)
		base := h12Bases[rng.IntN(len(h12Bases))]
		tr := shape.Transform{Pos: shape.V(base, -base).Add(exDyadV(rng, -2, 2)), Rot: exRandRot(rng)}
		for _, p := range h12Points(rng, exParts(s, tr), tr) {
			msg := h12Check(s, tr, p)
			if msg == "" {
				continue
			}
			fails[kind]++
			if fails[kind] <= 3 {
				t.Errorf("%s at %v rot (%v, %v), point %v: %s", kind, tr.Pos, tr.Rot.Cos(), tr.Rot.Sin(), p, msg)
			}
		}
	}
	if len(fails) > 0 {
		t.Errorf("failures by kind: %v", fails)
	}
}
