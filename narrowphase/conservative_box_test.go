package narrowphase_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// The tests of this file check the promise of shape.Shape.WorldAABB: the
// boxes the World filters pairs by never lose a contact Collide reports, a
// point ContainsPoint accepts or a ray RayCast hits. Pairs are brought to
// touching by bisection, so the last hits found are thinner than one
// rounding step of the coordinates, and then checked against the boxes.
// The independent oracle is exact rational arithmetic (math/big.Rat) on the
// shapes' corners and circle centres, as their transforms place them.

// cbEps is the float64 machine epsilon, the unit of WorldAABB's margin.
const cbEps = 0x1p-52

// cbScenario places pairs at coordinates near far, with shapes whose anchor
// (circle centre, polygon centroid) lies local away from their body's origin.
type cbScenario struct {
	name       string
	far, local float64
}

var cbScenarios = []cbScenario{
	{"origin", 0, 0},
	{"near 75", 75, 0},
	{"near 1e4", 1e4, 0},
	{"near 1e7", 1e7, 0},
	{"near 1e12", 1e12, 0},
	// A shape 1e6 from its body's origin, placed back near the world origin:
	// the body's position is 1e6 while the box's coordinates are small.
	{"anchor 1e6 near origin", 0, 1e6},
	{"anchor 1e3 near 1e7", 1e7, 1e3},
	{"anchor 1e6 near 1e12", 1e12, 1e6},
}

// cbShape returns a random shape of kind k whose anchor lies local from its
// body's origin (boxes are always centred on it), and its extent: a bound
// on the distance of its points from the anchor.
func cbShape(t *testing.T, rng *rand.Rand, k shape.Kind, local float64) (shape.Shape, float64) {
	t.Helper()
	off := xy(0, 0)
	if local > 0 {
		a := 2 * math.Pi * rng.Float64()
		off = xy(local*math.Cos(a), local*math.Sin(a))
	}
	s := npRandomShape(t, rng, k)
	switch k {
	case shape.KindCircle:
		return npOffsetCircle(t, off.Add(s.Center()), s.Radius()), s.Radius()
	case shape.KindAABB, shape.KindOBB:
		h := s.HalfExtents()
		return s, h.X + h.Y
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		ext := 0.0
		for _, v := range []shape.Vec2{p0, p1} {
			d := v.Sub(s.Center())
			ext = math.Max(ext, math.Abs(d.X)+math.Abs(d.Y)+s.Radius())
		}
		if k == shape.KindCapsule {
			return npCapsule(t, p0.Add(off), p1.Add(off), s.Radius()), ext
		}
		return npSegment(t, p0.Add(off), p1.Add(off)), ext
	}
	verts := make([]shape.Vec2, len(s.Vertices()))
	ext := 0.0
	for i, v := range s.Vertices() {
		verts[i] = v.Add(off)
		d := v.Sub(s.Center())
		ext = math.Max(ext, math.Abs(d.X)+math.Abs(d.Y))
	}
	p, err := shape.NewPolygon(verts)
	if err != nil {
		t.Fatalf("NewPolygon(%v moved by %v): %v", s.Vertices(), off, err)
	}
	return p, ext
}

// cbPlace returns the transform with rotation r that puts s's anchor at the
// world point w (as nearly as rounding allows).
func cbPlace(s shape.Shape, w shape.Vec2, r shape.Rot) shape.Transform {
	t := shape.Transform{Rot: r}
	t = s.EffectiveTransform(t)
	t.Pos = w.Sub(t.Rot.Apply(s.Center()))
	return t
}

// cbScale returns |t.Pos.X| + |t.Pos.Y| + e, the quantity WorldAABB's
// margin is proportional to (see shape's boxSlack), with e the bound on the
// shape's local points it uses.
func cbScale(s shape.Shape, t shape.Transform) float64 {
	var e float64
	switch s.Kind() {
	case shape.KindCircle:
		e = math.Abs(s.Center().X) + math.Abs(s.Center().Y) + s.Radius()
	case shape.KindAABB, shape.KindOBB:
		e = s.HalfExtents().X + s.HalfExtents().Y
	default:
		e = s.BoundingRadius()
	}
	return math.Abs(t.Pos.X) + math.Abs(t.Pos.Y) + e
}

// cbSharpness returns sin(θ/2) for the sharpest interior angle θ of a
// polygon, or 1 for other kinds: WorldAABB's promise for rays reaches
// origins that much nearer (see its doc).
func cbSharpness(s shape.Shape) float64 {
	v := s.Vertices()
	sharp := 1.0
	for i := range v {
		p, q := v[(i+len(v)-1)%len(v)].Sub(v[i]), v[(i+1)%len(v)].Sub(v[i])
		cos := (p.X*q.X + p.Y*q.Y) / (math.Hypot(p.X, p.Y) * math.Hypot(q.X, q.Y))
		sharp = math.Min(sharp, math.Sqrt(math.Max(0, (1-cos)/2)))
	}
	return sharp
}

// cbRat returns x as an exact rational.
func cbRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// cbExactBox returns, exactly, the smallest box around s as t places it:
// the corners rotated by t's stored cosine and sine and translated, or a
// circle's centre placed so, ± r. It is [min x, min y, max x, max y].
func cbExactBox(s shape.Shape, t shape.Transform) [4]*big.Rat {
	t = s.EffectiveTransform(t)
	c, sn := cbRat(t.Rot.Cos()), cbRat(t.Rot.Sin())
	px, py := cbRat(t.Pos.X), cbRat(t.Pos.Y)
	place := func(v shape.Vec2) (*big.Rat, *big.Rat) {
		x, y := cbRat(v.X), cbRat(v.Y)
		wx := new(big.Rat).Sub(new(big.Rat).Mul(c, x), new(big.Rat).Mul(sn, y))
		wy := new(big.Rat).Add(new(big.Rat).Mul(sn, x), new(big.Rat).Mul(c, y))
		return wx.Add(wx, px), wy.Add(wy, py)
	}
	var pts []shape.Vec2
	switch s.Kind() {
	case shape.KindCircle:
		x, y := place(s.Center())
		r := cbRat(s.Radius())
		return [4]*big.Rat{new(big.Rat).Sub(x, r), new(big.Rat).Sub(y, r), new(big.Rat).Add(x, r), new(big.Rat).Add(y, r)}
	case shape.KindAABB, shape.KindOBB:
		c := s.Corners()
		pts = c[:]
	default:
		pts = s.Vertices()
	}
	var b [4]*big.Rat
	for i, v := range pts {
		x, y := place(v)
		if i == 0 {
			b = [4]*big.Rat{x, y, new(big.Rat).Set(x), new(big.Rat).Set(y)}
			continue
		}
		if x.Cmp(b[0]) < 0 {
			b[0] = x
		}
		if y.Cmp(b[1]) < 0 {
			b[1] = y
		}
		if x.Cmp(b[2]) > 0 {
			b[2] = new(big.Rat).Set(x)
		}
		if y.Cmp(b[3]) > 0 {
			b[3] = new(big.Rat).Set(y)
		}
	}
	if r := s.Radius(); s.Kind() == shape.KindCapsule {
		// The core's box grown by the radius.
		rr := cbRat(r)
		b[0], b[1] = new(big.Rat).Sub(b[0], rr), new(big.Rat).Sub(b[1], rr)
		b[2], b[3] = new(big.Rat).Add(b[2], rr), new(big.Rat).Add(b[3], rr)
	}
	return b
}

// cbExactGap returns by how much the exact boxes of two placed shapes are
// apart along the axis where they are farthest apart (0 if they overlap).
func cbExactGap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) float64 {
	ba, bb := cbExactBox(a, ta), cbExactBox(b, tb)
	gap := 0.0
	for axis := range 2 {
		for _, d := range []*big.Rat{
			new(big.Rat).Sub(bb[axis], ba[axis+2]), // b beyond a
			new(big.Rat).Sub(ba[axis], bb[axis+2]), // a beyond b
		} {
			f, _ := d.Float64()
			gap = math.Max(gap, f)
		}
	}
	return gap
}

// cbRayMeetsBox reports, exactly, whether the ray origin + s·dir, s >= 0,
// meets the closed box b (the slab method in rationals).
func cbRayMeetsBox(origin, dir shape.Vec2, b shape.AABB) bool {
	lo := new(big.Rat) // entry parameter, from 0
	var hi *big.Rat    // exit parameter; nil is +∞
	for _, ax := range [][4]float64{{origin.X, dir.X, b.Min.X, b.Max.X}, {origin.Y, dir.Y, b.Min.Y, b.Max.Y}} {
		o, d, mn, mx := ax[0], ax[1], ax[2], ax[3]
		if d == 0 {
			if o < mn || o > mx {
				return false
			}
			continue
		}
		t1 := new(big.Rat).Quo(new(big.Rat).Sub(cbRat(mn), cbRat(o)), cbRat(d))
		t2 := new(big.Rat).Quo(new(big.Rat).Sub(cbRat(mx), cbRat(o)), cbRat(d))
		if t1.Cmp(t2) > 0 {
			t1, t2 = t2, t1
		}
		if t1.Cmp(lo) > 0 {
			lo = t1
		}
		if hi == nil || t2.Cmp(hi) < 0 {
			hi = t2
		}
	}
	return hi == nil || lo.Cmp(hi) <= 0
}

// cbBisect finds, from lo where hit(lo) is true and hi where it is false,
// the last parameter where hit is true before the floats run out, calling
// hit on every midpoint. It returns that parameter.
func cbBisect(lo, hi float64, hit func(float64) bool) float64 {
	for range 1100 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if hit(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// TestWorldAABBHoldsEveryContact checks, for thousands of random pairs of
// every kind pair at coordinates up to 1e12 (including shapes far from their
// body's origin), that every contact Collide reports comes with overlapping
// WorldAABBs, every point ContainsPoint accepts lies in the shape's box and
// every ray RayCast hits meets the box. Each pair is bisected along a random
// direction (often an axis, where boxes are tight) until Collide flips from
// hit to miss; the point and the ray are bisected onto the boundary the same
// way. At the thinnest contact the exact boxes are compared to measure how
// far apart the narrow phase still finds contacts, in units of
// eps·(E_A + E_B) (E as in WorldAABB's margin); the margin's budget for it
// is 16 - 3 = 13.
func TestWorldAABBHoldsEveryContact(t *testing.T) {
	seed := npSeed(t)
	t.Logf("seed %d (set with -seed)", seed)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0xb0c5))
	rounds := 30
	if testing.Short() {
		rounds = 6
	}
	var pairs, rays int
	thinnest, worstGap := math.Inf(1), 0.0
	for _, sc := range cbScenarios {
		for _, ka := range npKinds {
			for _, kb := range npKinds {
				for range rounds {
					a, extA := cbShape(t, rng, ka, sc.local)
					b, extB := cbShape(t, rng, kb, sc.local)
					w := xy(sc.far*(1+rng.Float64()), sc.far*(1+rng.Float64()))
					ta := cbPlace(a, w, shape.NewRot(npRandomAngle(rng)))
					rb := shape.NewRot(npRandomAngle(rng))
					dir := xy(1, 0)
					switch rng.IntN(3) {
					case 0: // an axis: where the boxes are tightest
						dir = [4]shape.Vec2{xy(1, 0), xy(0, 1), xy(-1, 0), xy(0, -1)}[rng.IntN(4)]
					default:
						ang := 2 * math.Pi * rng.Float64()
						dir = xy(math.Cos(ang), math.Sin(ang))
					}
					at := func(s float64) shape.Transform { return cbPlace(b, w.Add(dir.Scale(s)), rb) }
					if !narrowphase.Overlap(a, ta, b, at(0)) {
						continue // anchors placed together yet apart: nothing to bisect
					}
					pairs++
					last := cbBisect(0, 2*(extA+extB)+1, func(s float64) bool {
						tb := at(s)
						m, ok := narrowphase.Collide(a, ta, b, tb)
						if !ok {
							return false
						}
						thinnest = math.Min(thinnest, m.Depth)
						if ba, bb := a.WorldAABB(ta), b.WorldAABB(tb); !ba.Overlaps(bb) {
							t.Fatalf("%s: Collide(%s) hits with depth %g but the boxes %v and %v do not overlap",
								sc.name, npDescribe(a, ta, b, tb), m.Depth, ba, bb)
						}
						return true
					})
					tb := at(last)
					if g := cbExactGap(a, ta, b, tb) / (cbEps * (cbScale(a, ta) + cbScale(b, tb))); g > worstGap {
						worstGap = g
					}

					// A point bisected onto b's boundary from its anchor (a
					// segment has no inside, and its rounded midpoint is
					// seldom on it).
					anchor := tb.Apply(b.Center())
					if b.Kind() == shape.KindSegment {
						continue
					}
					if !narrowphase.ContainsPoint(b, tb, anchor) {
						t.Fatalf("%s: ContainsPoint(%v at %v, its own anchor %v) = false", sc.name, b, tb, anchor)
					}
					cbBisect(0, 2*extB+1, func(s float64) bool {
						p := anchor.Add(dir.Scale(s))
						if !narrowphase.ContainsPoint(b, tb, p) {
							return false
						}
						if box := b.WorldAABB(tb); !box.Contains(p) {
							t.Fatalf("%s: ContainsPoint(%v at %v, %v) but its box %v does not contain the point", sc.name, b, tb, p, box)
						}
						return true
					})

					// A ray along dir that grazes b: its origin, up to WorldAABB's
					// limit |pos.X| + |pos.Y| + e from b's position, slides sideways
					// until RayCast misses.
					back := 2*extB + 1 + rng.Float64()*(math.Abs(tb.Pos.X)+math.Abs(tb.Pos.Y))/2
					side := dir.Perp()
					if rng.IntN(2) == 0 {
						side = side.Neg()
					}
					origin := func(h float64) shape.Vec2 { return anchor.Sub(dir.Scale(back)).Add(side.Scale(h)) }
					if o := origin(0); o.Sub(tb.Pos).Len() > cbSharpness(b)*cbScale(b, tb) {
						continue // beyond what WorldAABB promises for rays
					}
					h := cbBisect(0, 2*extB+1, func(h float64) bool {
						_, ok := narrowphase.RayCast(b, tb, origin(h), dir, math.Inf(1))
						return ok
					})
					if _, ok := narrowphase.RayCast(b, tb, origin(h), dir, math.Inf(1)); !ok {
						continue // the ray from the anchor's line missed: a corner case of no interest here
					}
					rays++
					if box := b.WorldAABB(tb); !cbRayMeetsBox(origin(h), dir, box) {
						t.Fatalf("%s: RayCast(%v at %v, origin %v, dir %v) hits but the ray misses its box %v",
							sc.name, b, tb, origin(h), dir, box)
					}
				}
			}
		}
	}
	if pairs < len(cbScenarios)*len(npKinds)*len(npKinds)*rounds*9/10 || rays < pairs/3 {
		t.Fatalf("only %d pairs and %d rays bisected: the test proves little", pairs, rays)
	}
	t.Logf("%d pairs and %d grazing rays checked; thinnest contact: depth %g", pairs, rays, thinnest)
	t.Logf("widest gap between the exact boxes of a pair Collide hits: %.2f eps·(E_A + E_B) (budget 13)", worstGap)
	if worstGap > 13 {
		t.Errorf("Collide hits pairs whose exact boxes are %.2f eps·(E_A + E_B) apart, beyond WorldAABB's budget of 13", worstGap)
	}
}

// TestWorldAABBMissedThinContact holds the contacts that WorldAABB's boxes
// once missed: an offset circle's box, the rounded world centre ± r,
// missed a contact of depth 3.7e-10 near 1e7; and the first fix, a margin
// of 16 ulps of the box's own coordinates, missed a polygon 1.9e6 from its
// body's origin placed back near the world origin, whose rotation rounds at
// the scale of 1.9e6, not of the box.
func TestWorldAABBMissedThinContact(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a      shape.Shape
		ta     shape.Transform
		b      shape.Shape
		tb     shape.Transform
		depth  float64 // about what Collide reports
		within float64 // relative tolerance on depth
	}{
		{
			name:  "offset circle near 1e7",
			a:     npAABB(t, 0.11598435877788783, 0.048371141955975167),
			ta:    shape.NewTransform(xy(9999911.5892139357, 10000087.236405281), -1.5218363040352441),
			b:     npOffsetCircle(t, xy(0.009204305011436431, 0.00880622403054792), 0.032257792529663175),
			tb:    shape.NewTransform(xy(9999911.4344155695, 10000087.236405281), -1.793463269820444),
			depth: 3.7e-10, within: 0.5,
		},
		{
			name:  "polygon 1.9e6 from its body origin",
			a:     npPolygon(t, xy(1864138, 0), xy(1864139, 0), xy(1864138, 1)),
			ta:    shape.NewTransform(xy(1.8550851500000001e+06, -183492.7), 3.043),
			b:     npCircle(t, 0.5),
			tb:    shape.Transform{Pos: xy(0.5005257323209662, 0.00079224823275581)},
			depth: 8.5e-11, within: 0.5,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range []bool{false, true} {
				a, ta, b, tb := tc.a, tc.ta, tc.b, tc.tb
				if order {
					a, ta, b, tb = b, tb, a, ta
				}
				m, ok := narrowphase.Collide(a, ta, b, tb)
				if !ok || math.Abs(m.Depth-tc.depth) > tc.within*tc.depth {
					t.Fatalf("Collide(%s) = %g, %v; want a hit of depth about %g, or the test proves nothing",
						npDescribe(a, ta, b, tb), m.Depth, ok, tc.depth)
				}
				if ba, bb := a.WorldAABB(ta), b.WorldAABB(tb); !ba.Overlaps(bb) {
					t.Errorf("Collide(%s) hits with depth %g, but the boxes %v and %v do not overlap",
						npDescribe(a, ta, b, tb), m.Depth, ba, bb)
				}
			}
		})
	}
}
