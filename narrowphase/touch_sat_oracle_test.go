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

// The oracle of TestTouchVerdictMatchesSAT decides overlap against touch
// without the Minkowski hull of exParts/exPen and without the engine's
// touchApart: every part's core is placed by its own exact rational
// arithmetic (satPlace), and a pair of cores with no radius overlaps when
// the separating axis test over the edges of both finds every projection
// overlapping with positive length (a segment's zero-length projection
// strictly inside the other's), a pair with radii when the exact squared
// distance of the cores is below the square of the radii's sum.

// satCore is a part's core placed exactly: its points (one, two, or a
// convex polygon's vertices in order) and its radius.
type satCore struct {
	pts []exV
	r   *big.Rat
}

// satPlace places part i of s (s itself for a convex kind) by the body
// transform t exactly: a vertex v of a compound's part with offset o lands
// at t.Pos + R(t)·(o.Pos + R(o)·v), each cosine and sine taken as the
// exact rational it holds; an AABB keeps only the translation.
func satPlace(s shape.Shape, t shape.Transform, i int) satCore {
	ps, off := s, shape.Identity
	if s.Kind() == shape.KindCompound {
		p := s.Parts()[i]
		ps, off = p.Shape, p.Offset
	} else if s.Kind() == shape.KindChain {
		ps, _ = s.Part(i, t)
	}
	rot := func(r shape.Rot, x, y *big.Rat) (*big.Rat, *big.Rat) {
		c, sn := exR(r.Cos()), exR(r.Sin())
		return exSub(exMul(c, x), exMul(sn, y)), exAdd(exMul(sn, x), exMul(c, y))
	}
	var local []shape.Vec2
	r := new(big.Rat)
	switch ps.Kind() {
	case shape.KindCircle:
		local, r = []shape.Vec2{ps.Center()}, exR(ps.Radius())
	case shape.KindAABB, shape.KindOBB:
		c := ps.Corners()
		local = c[:]
	case shape.KindPolygon:
		local = ps.Vertices()
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := ps.Segment()
		local, r = []shape.Vec2{p0, p1}, exR(ps.Radius())
	default:
		panic("satPlace: " + ps.Kind().String())
	}
	out := satCore{r: r}
	for _, v := range local {
		x, y := exR(v.X), exR(v.Y)
		if ps.Kind() == shape.KindAABB {
			// Corners stay axis-aligned; only the part's place turns.
			ox, oy := rot(t.Rot, exR(off.Pos.X), exR(off.Pos.Y))
			out.pts = append(out.pts, exV{exAdd(exAdd(exR(t.Pos.X), ox), x), exAdd(exAdd(exR(t.Pos.Y), oy), y)})
			continue
		}
		x, y = rot(off.Rot, x, y)
		x, y = exAdd(x, exR(off.Pos.X)), exAdd(y, exR(off.Pos.Y))
		x, y = rot(t.Rot, x, y)
		out.pts = append(out.pts, exV{exAdd(x, exR(t.Pos.X)), exAdd(y, exR(t.Pos.Y))})
	}
	return out
}

// edges calls fn with each edge of c: the segment, or the polygon's sides;
// a point is one edge from itself to itself.
func (c satCore) edges(fn func(a, b exV)) {
	switch len(c.pts) {
	case 1:
		fn(c.pts[0], c.pts[0])
	case 2:
		fn(c.pts[0], c.pts[1])
	default:
		for i := range c.pts {
			fn(c.pts[i], c.pts[(i+1)%len(c.pts)])
		}
	}
}

// satProject returns the least and greatest of p·n over c's points.
func satProject(c satCore, n exV) (lo, hi *big.Rat) {
	for _, p := range c.pts {
		d := p.dot(n)
		if lo == nil || d.Cmp(lo) < 0 {
			lo = d
		}
		if hi == nil || d.Cmp(hi) > 0 {
			hi = d
		}
	}
	return lo, hi
}

// satStraightOverlap reports whether straight cores a and b (no radius,
// not both segments) share interior points: on every edge normal of
// either the projections overlap with positive length, or one is a
// single value strictly inside the other.
func satStraightOverlap(a, b satCore) bool {
	apart := false
	axis := func(p, q exV) {
		if apart {
			return
		}
		e := q.sub(p)
		n := exV{new(big.Rat).Neg(e.y), e.x}
		alo, ahi := satProject(a, n)
		blo, bhi := satProject(b, n)
		switch {
		case alo.Cmp(ahi) == 0:
			apart = !(blo.Cmp(alo) < 0 && alo.Cmp(bhi) < 0)
		case blo.Cmp(bhi) == 0:
			apart = !(alo.Cmp(blo) < 0 && blo.Cmp(ahi) < 0)
		default:
			lo, hi := alo, ahi
			if blo.Cmp(lo) > 0 {
				lo = blo
			}
			if bhi.Cmp(hi) < 0 {
				hi = bhi
			}
			apart = lo.Cmp(hi) >= 0
		}
	}
	a.edges(axis)
	b.edges(axis)
	return !apart
}

// satOrient returns the sign of (b − a) × (p − a).
func satOrient(a, b, p exV) int { return b.sub(a).cross(p.sub(a)).Sign() }

// satSegsMeet reports whether closed segments p0–p1 and q0–q1 share a
// point.
func satSegsMeet(p0, p1, q0, q1 exV) bool {
	on := func(a, b, p exV) bool { // p on a–b, given collinear
		return p.sub(a).dot(p.sub(b)).Sign() <= 0
	}
	d1, d2 := satOrient(p0, p1, q0), satOrient(p0, p1, q1)
	d3, d4 := satOrient(q0, q1, p0), satOrient(q0, q1, p1)
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	return (d1 == 0 && on(p0, p1, q0)) || (d2 == 0 && on(p0, p1, q1)) ||
		(d3 == 0 && on(q0, q1, p0)) || (d4 == 0 && on(q0, q1, p1))
}

// satInside reports whether p lies in the closed convex polygon c.
func satInside(c satCore, p exV) bool {
	if len(c.pts) < 3 {
		return false
	}
	pos, neg := false, false
	c.edges(func(a, b exV) {
		switch satOrient(a, b, p) {
		case 1:
			pos = true
		case -1:
			neg = true
		}
	})
	return !(pos && neg)
}

// satDist2 returns the exact squared distance between cores a and b: 0
// where they meet, else the least distance from a vertex of one to an
// edge of the other.
func satDist2(a, b satCore) *big.Rat {
	meet := satInside(a, b.pts[0]) || satInside(b, a.pts[0])
	a.edges(func(p0, p1 exV) {
		b.edges(func(q0, q1 exV) {
			meet = meet || satSegsMeet(p0, p1, q0, q1)
		})
	})
	if meet {
		return new(big.Rat)
	}
	var best *big.Rat
	near := func(c satCore, pts []exV) {
		for _, p := range pts {
			c.edges(func(e0, e1 exV) {
				if d := exPointSegDist2(p, e0, e1); best == nil || d.Cmp(best) < 0 {
					best = d
				}
			})
		}
	}
	near(b, a.pts)
	near(a, b.pts)
	return best
}

// satOverlap reports whether cores a and b overlap (touching is not
// overlapping), and false for two straight segments (walls do not
// collide with walls).
func satOverlap(a, b satCore) (overlap, wallPair bool) {
	rr := exAdd(a.r, b.r)
	if rr.Sign() == 0 {
		if len(a.pts) <= 2 && len(b.pts) <= 2 {
			return false, true
		}
		return satStraightOverlap(a, b), false
	}
	return satDist2(a, b).Cmp(exMul(rr, rr)) < 0, false
}

// satRandRot returns the identity, a quarter or half turn as NewRot gives
// it (a cosine or sine of 1e-16 where the exact one is 0), one stored
// exactly, or a random turn.
func satRandRot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(5) {
	case 0:
		return shape.Rot{}
	case 1, 2:
		return shape.NewRot(float64(rng.IntN(4)) * math.Pi / 2)
	case 3:
		q := [4][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[rng.IntN(4)]
		return shape.RotFromCosSin(q[0], q[1])
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

// satRandShape returns a random convex shape, or a compound (parts of
// every convex kind, AABBs included, with turned offsets) or a chain.
func satRandShape(rng *rand.Rand) shape.Shape {
	if rng.IntN(5) == 0 {
		parts := make([]shape.Part, 1+rng.IntN(3))
		for i := range parts {
			parts[i] = shape.Part{Shape: exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))]),
				Offset: shape.Transform{Pos: exDyadV(rng, -2, 2), Rot: satRandRot(rng)}}
		}
		if s, err := shape.NewCompound(parts); err == nil {
			return s
		}
	}
	if rng.IntN(6) == 0 {
		return exRandAnyShape(rng) // chains among them
	}
	return exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
}

// TestTouchVerdictMatchesSAT places random pairs of every kind (convex,
// compounds with AABB and turned parts, chains), turned by quarter and
// half turns as NewRot rounds them or as stored exactly, at random, or
// not at all, at 0, 1e6, 1e9 and -1e9, so that B's support point along
// −u lands in floats on A's along u (u an axis, a diagonal or random),
// then moves B by 0 to 2 ulps per coordinate: pairs that touch, or
// overlap or miss by a few ulps. For every part pair it asks the oracle
// above (satOverlap, exact rationals) and requires of Collide, Overlap,
// PushOut and CollideParts, in both orders: no contact where no part pair
// overlaps exactly, the same verdict from all four, and CollideParts
// reporting only part pairs that overlap exactly. An exact overlap that
// the floats miss (a few ulps deep, within rounding) is counted, not
// failed, if no deeper than 1e-12 of the pair's scale (exPen's depth):
// the exact test only confirms float overlaps.
func TestTouchVerdictMatchesSAT(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x5a7))
	n := 6000
	if testing.Short() {
		n = 600
	}
	var contacts, apart, missed, parts, touchExact int
	maxMiss := 0.0
	for c := range n {
		a, b := satRandShape(rng), satRandShape(rng)
		if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
			b = exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
		}
		base := [4]float64{0, 1e6, 1e9, -1e9}[c%4]
		ta := shape.Transform{Pos: shape.V(base, -base/2).Add(exDyadV(rng, -2, 2)), Rot: satRandRot(rng)}
		tb := shape.Transform{Pos: ta.Pos, Rot: satRandRot(rng)}
		var u shape.Vec2
		switch rng.IntN(3) {
		case 0:
			u = [4]shape.Vec2{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}}[rng.IntN(4)]
		case 1:
			u = shape.V(float64(2*rng.IntN(2)-1), float64(2*rng.IntN(2)-1)).Normalize()
		default:
			u = shape.NewRot(rng.Float64() * 2 * math.Pi).Apply(shape.V(1, 0))
		}
		tb.Pos = tb.Pos.Add(ttwSupport(a, ta, u).Sub(ttwSupport(b, tb, u.Neg())))
		if rng.IntN(5) < 2 {
			for range rng.IntN(3) {
				tb.Pos.X = math.Nextafter(tb.Pos.X, math.Inf(2*rng.IntN(2)-1))
			}
			for range rng.IntN(3) {
				tb.Pos.Y = math.Nextafter(tb.Pos.Y, math.Inf(2*rng.IntN(2)-1))
			}
		}

		// The oracle, part pair by part pair.
		type pp struct{ i, j int }
		want := map[pp]bool{}
		any := false
		for i := range a.PartCount() {
			ca := satPlace(a, ta, i)
			for j := range b.PartCount() {
				cb := satPlace(b, tb, j)
				ov, _ := satOverlap(ca, cb)
				if ov {
					want[pp{i, j}] = true
					any = true
				}
				if !ov && ca.r.Sign() == 0 && cb.r.Sign() == 0 && satTouchExact(ca, cb) {
					touchExact++
				}
			}
		}
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := a, ta, b, tb
			if swap {
				x, tx, y, ty = b, tb, a, ta
			}
			desc := func() string {
				return fmt.Sprintf("case %d (seed %d): %s (exact overlap %v, part pairs %v)", c, seed, exDescribe(x, tx, y, ty), any, want)
			}
			m, ok := narrowphase.Collide(x, tx, y, ty)
			if ov := narrowphase.Overlap(x, tx, y, ty); ov != ok {
				t.Fatalf("Overlap = %v, Collide = %v: %s", ov, ok, desc())
			}
			if _, po := narrowphase.PushOut(x, tx, y, ty); po != ok {
				t.Fatalf("PushOut = %v, Collide = %v: %s", po, ok, desc())
			}
			got := false
			narrowphase.CollideParts(x, tx, y, ty, func(i, j int, pm narrowphase.Manifold) bool {
				got = true
				k := pp{i, j}
				if swap {
					k = pp{j, i}
				}
				if !want[k] {
					t.Fatalf("CollideParts reports parts %d, %d (depth %.3g), which exactly do not overlap: %s", i, j, pm.Depth, desc())
				}
				return true
			})
			if got != ok {
				t.Fatalf("CollideParts reports a contact %v, Collide %v: %s", got, ok, desc())
			}
			if ok && !any {
				t.Fatalf("Collide reports a contact (depth %.3g), but no part pair overlaps exactly: %s", m.Depth, desc())
			}
			if !ok && any {
				missed++
				// How deep, by the other oracle (exParts, exPen): only
				// within rounding of the pair's scale may the floats miss.
				pen := math.Inf(-1)
				for _, ca := range exParts(a, ta) {
					for _, cb := range exParts(b, tb) {
						if len(ca.pts) <= 2 && len(cb.pts) <= 2 && ca.r.Sign() == 0 && cb.r.Sign() == 0 {
							continue
						}
						_, p := exPen(exMinkowski(ca, cb))
						pen = max(pen, p)
					}
				}
				scale := exWorldScale(a, ta, b, tb)
				maxMiss = max(maxMiss, pen/scale)
				if pen > 1e-12*scale {
					t.Fatalf("Collide reports no contact for an exact overlap of %.3g (%.3g of the scale): %s", pen, pen/scale, desc())
				}
			}
		}
		if any {
			contacts++
			parts += len(want)
		} else {
			apart++
		}
	}
	t.Logf("%d pairs (%d both orders): %d overlapping exactly (%d part pairs), %d apart or touching (%d straight part pairs touching exactly); %d exact overlaps the floats miss (at most %.3g of the pair's scale deep)",
		n, 2*n, contacts, parts, apart, touchExact, missed, maxMiss)
	if touchExact == 0 {
		t.Errorf("no straight part pair touched exactly: the placement does not reach the touch")
	}
}

// satTouchExact reports whether straight cores a and b touch exactly:
// they do not overlap but their closed cores meet.
func satTouchExact(a, b satCore) bool {
	return satDist2(a, b).Sign() == 0
}
