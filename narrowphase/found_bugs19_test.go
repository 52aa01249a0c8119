package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestRayFromFarOffBug: a ray from 1e12 along −X at height 11.375 and a
// compound near (4, 8.6), turned by −0.93 rad, whose top is 11.37462.
// RayCast turned the ray's origin into the shape's frame first, and
// 1e12 turned by that angle rounds to ~1e-4, more than the 3.8e-4 the
// ray passes over the shape: it reported a hit the world's own boxes
// ruled out (TestOracleConfigs/no-margin -ocseed 17890751265789839941).
//
// The check: a ray along an axis from 2^20, 2^30 or 2^40 beyond a shape
// lies on the very line of the same ray from just beyond the shape, so
// both hit or both miss, and their distances differ by exactly the
// dyadic head start, to the rounding of the far distance. Heights are
// drawn near the shape's extremes (within 1e-3 to 1e-7 of its box's
// edge) and across it, on every kind, and kept only where the near ray's
// answer does not change within a quarter of that margin either side.
func TestRayFromFarOffBug(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 19))
	dirs := []shape.Vec2{{X: -1}, {X: 1}, {Y: -1}, {Y: 1}}
	n, checked := exCases(400), 0
	for range n {
		s := exRandAnyShape(rng)
		ts := shape.Transform{Pos: exDyadV(rng, -10, 10), Rot: exRandRot(rng)}
		box := s.WorldAABB(ts)
		d := dirs[rng.IntN(len(dirs))]
		p := shape.Vec2{X: -d.Y, Y: d.X} // across the ray
		// The shape's extent across the ray, and where the near ray
		// starts along it (an integer clear of the box, behind it).
		lo, hi := math.Min(p.Dot(box.Min), p.Dot(box.Max)), math.Max(p.Dot(box.Min), p.Dot(box.Max))
		back := math.Ceil(math.Max(-d.Dot(box.Min), -d.Dot(box.Max))) + 1
		for range 6 {
			u := []float64{1e-3, 1e-5, 1e-7}[rng.IntN(3)]
			var h float64
			switch rng.IntN(5) {
			case 0:
				h = hi - u
			case 1:
				h = hi + u
			case 2:
				h = lo + u
			case 3:
				h = lo - u
			default:
				h = lo + (hi-lo)*rng.Float64()
			}
			near := p.Scale(h).Sub(d.Scale(back))
			nh, nok := narrowphase.RayCast(s, ts, near, d, math.Inf(1))
			stable := true
			for _, e := range []float64{-u / 4, u / 4} {
				if _, ok := narrowphase.RayCast(s, ts, near.Add(p.Scale(e)), d, math.Inf(1)); ok != nok {
					stable = false
				}
			}
			if !stable {
				continue
			}
			for _, f := range []float64{0x1p20, 0x1p30, 0x1p40} {
				far := p.Scale(h).Sub(d.Scale(back + f))
				fh, fok := narrowphase.RayCast(s, ts, far, d, math.Inf(1))
				checked++
				if fok != nok {
					t.Fatalf("RayCast(%v at %v, from %v along %v) hit %v; from %v on the same line it hit %v (%+v)", s, ts, far, d, fok, near, nok, nh)
				}
				if !fok {
					continue
				}
				tol := 4*f*0x1p-52 + 1e-6
				if math.Abs(fh.Distance-(nh.Distance+f)) > tol || math.Abs(fh.Point.Sub(nh.Point).Dot(p)) > 1e-6 {
					t.Fatalf("RayCast(%v at %v, from %v along %v) = %+v; from %v on the same line %+v, %v nearer", s, ts, far, d, fh, near, nh, f)
				}
			}
		}
	}
	t.Logf("%d shapes, %d far rays checked", n, checked)
}

// TestCastSegmentGrazesVertexBug: a segment whose end slides past a
// polygon's top vertex at exactly its height (every coordinate dyadic),
// and a segment whose middle meets a chain's vertex, cast along +X from
// 2^k beyond. Cast is a hit at the touch for every k: the first is a
// graze, the second a crossing. The clip against the Minkowski
// difference, whose unit normals round, found the ray's entry an ulp past
// its exit at the vertex (lost from k = 6), and the check that two
// segments meet at the hit allowed for the rounding of their coordinates
// but not of the long motion that carried them there (lost from k = 12).
func TestCastSegmentGrazesVertexBug(t *testing.T) {
	seg, _ := shape.NewSegment(xy(-1.5, 2.0625), xy(0.5, 0.875))
	poly, _ := shape.NewPolygon([]shape.Vec2{xy(-1.9375, -0.9375), xy(2.5, -2.875), xy(2.8125, 2.3125), xy(0, 2)})
	tp := shape.Transform{Pos: xy(-5.3125, -6.5)}
	seg2, _ := shape.NewSegment(xy(1, 1.9375), xy(-1.875, -1.6875))
	rot2 := shape.RotFromCosSin(-0.987145035976817, 0.15982702508126884)
	wall, _ := shape.NewSegment(xy(-2.625, 2.1875), xy(-3.125, 3.9375))
	tw := shape.Transform{Pos: xy(-8.8125, 2.25)}
	for k := 0; k <= 40; k += 2 {
		f := math.Ldexp(1, k)
		// The graze: the segment's end (−0.5, −0.875) turned by π lands
		// on the polygon's top vertex (−2.5, −4.1875) after 36 + f.
		ta := shape.Transform{Pos: xy(-40-f, -2.125), Rot: shape.RotFromCosSin(-1, 0)}
		h, ok := narrowphase.Cast(seg, ta, xy(80+f, 0), poly, tp)
		if want := (36 + f) / (80 + f); !ok || math.Abs(h.Fraction-want) > 4e-16 || h.Point != xy(-2.5, -4.1875) {
			t.Errorf("k=%d: graze Cast = %+v, %v; want fraction %.17g at (−2.5, −4.1875)", k, h, ok, want)
		}
		// The crossing: the wall's end (−11.9375, 6.1875) meets the
		// moving segment's middle after 28.8769045002… + f.
		tb := shape.Transform{Pos: xy(-40-f, 7.5), Rot: rot2}
		h, ok = narrowphase.Cast(seg2, tb, xy(80+f, 0), wall, tw)
		if d := h.Fraction*(80+f) - f; !ok || math.Abs(d-28.876904500236) > 1e-6+f*0x1p-50 {
			t.Errorf("k=%d: crossing Cast = %+v, %v; want a hit after 28.876904500236 of the last 80", k, h, ok)
		}
	}
}

// TestCastFromFarOff: shapes of every kind cast along an axis from 2^10,
// 2^20 and 2^30 beyond a shape of every kind, dyadic positions, against
// the same cast from just beyond it on the same line: both hit or both
// miss, at the same distance along the last stretch to the rounding of
// the long one, with the same point when they name the same part (parts
// that tie, touched at once, may come out in either order). (The check that found
// TestCastSegmentGrazesVertexBug.)
func TestCastFromFarOff(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 191))
	dirs := []shape.Vec2{{X: -1}, {X: 1}, {Y: -1}, {Y: 1}}
	n, hits := exCases(2000), 0
	for range n {
		b, a := exRandAnyShape(rng), exRandAnyShape(rng)
		if a.Kind() == shape.KindChain {
			continue // a chain never moves: it is level geometry
		}
		tb := shape.Transform{Pos: exDyadV(rng, -10, 10), Rot: exRandRot(rng)}
		ra := exRandRot(rng)
		d := dirs[rng.IntN(len(dirs))]
		p := shape.Vec2{X: -d.Y, Y: d.X}
		h := exDyad(rng, -8, 8)
		const back = 40.0
		near := shape.Transform{Pos: p.Scale(h).Sub(d.Scale(back)), Rot: ra}
		nh, nok := narrowphase.Cast(a, near, d.Scale(2*back), b, tb)
		if nok {
			hits++
		}
		for _, f := range farCastDists {
			far := shape.Transform{Pos: p.Scale(h).Sub(d.Scale(back + f)), Rot: ra}
			fh, fok := narrowphase.Cast(a, far, d.Scale(2*back+f), b, tb)
			what := fmt.Sprintf("Cast(%v at %v by %v, %v at %v)", a, far, d.Scale(2*back+f), b, tb)
			if fok != nok {
				t.Fatalf("%s = %+v, %v; from %v beyond, %+v, %v", what, fh, fok, 2*back, nh, nok)
			}
			if !fok {
				continue
			}
			// The motion's line rounds by an ulp of the long motion; a
			// touch at a shallow angle moves along it by that over the
			// angle's sine (the normal's component along the motion).
			tol := 8*f*0x1p-52/max(math.Abs(nh.Normal.Dot(d)), 1e-3) + 1e-9
			if dn, df := nh.Fraction*2*back, fh.Fraction*(2*back+f)-f; math.Abs(df-dn) > tol || (fh.Part == nh.Part && fh.Point.Sub(nh.Point).Len() > tol) {
				t.Fatalf("%s = %+v (%.17g along the last %v); from %v beyond, %+v (%.17g)", what, fh, df, 2*back, 2*back, nh, dn)
			}
		}
	}
	t.Logf("%d pairs, %d hits", n, hits)
}

// farCastDists are TestCastFromFarOff's head starts. From 2^30 on, a
// touch at a shallow angle (4° off a graze) moves by the rounding of the
// motion's line, 1e-7 there, divided by the angle's sine: more than the
// rounding of the distance the check allows.
var farCastDists = []float64{0x1p10, 0x1p20}

// TestRayCastExtremeInputs: origins and shapes out to shape.MaxMagnitude,
// and directions of every length (RayCast documents a unit dir,
// but must not fail on another): every call returns, and for a unit dir
// a hit lies within [0, maxDist] at a finite point. (The first far-origin head start
// called RayCast again from its new origin, and a long dir carried that
// origin farther each time until the stack overflowed: TestHunt13World.)
func TestRayCastExtremeInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(npSeed(t), 192))
	big := []float64{0, 1, 1e6, 1e12, 1e100, shape.MaxMagnitude}
	for range exCases(3000) {
		s := exRandAnyShape(rng)
		sign := func() float64 { return float64(1 - 2*rng.IntN(2)) }
		ts := shape.Transform{Pos: xy(sign()*big[rng.IntN(len(big))], sign()*big[rng.IntN(len(big))]), Rot: exRandRot(rng)}
		origin := xy(sign()*big[rng.IntN(len(big))], sign()*big[rng.IntN(len(big))])
		dir := ts.Pos.Sub(origin)
		if rng.IntN(2) == 0 || !dir.IsFinite() || dir.LenSq() == 0 || math.IsInf(dir.LenSq(), 0) {
			dir = xy(sign()*big[1+rng.IntN(len(big)-1)], sign()*rng.Float64())
		}
		if rng.IntN(2) == 0 && dir.IsFinite() && !math.IsInf(dir.Len(), 0) {
			dir = dir.Normalize()
		}
		maxDist := []float64{math.Inf(1), 1, math.MaxFloat64}[rng.IntN(3)]
		h, ok := narrowphase.RayCast(s, ts, origin, dir, maxDist)
		unit := math.Abs(dir.LenSq()-1) <= 1e-12 // what the answer is defined for
		if unit && ok && (!(h.Distance >= 0 && h.Distance <= maxDist) || !h.Point.IsFinite()) {
			t.Fatalf("RayCast(%v at %v, from %v along %v, %v) = %+v", s, ts, origin, dir, maxDist, h)
		}
	}
}

// TestCastDiscGrazeFarBug: two discs, and a capsule's end over a disc,
// that graze at exactly the sum of their radii (every coordinate
// dyadic), cast along +X from 2^k beyond. The perpendicular offset of the
// motion's line, taken from the closest approach mo + s·d, rounded to an
// ulp of the motion and lost the graze from k = 30 on (found by
// TestCastFromFarOff at 2^30); the exact sign of r²·|d|² − (d × mo)²
// decides it now.
func TestCastDiscGrazeFarBug(t *testing.T) {
	big, _ := shape.NewCircle(2.75)
	small, _ := shape.NewCircle(1.25)
	capsule, _ := shape.NewCapsule(xy(-1.6875, -1.4375), xy(1.375, -2.5), 0.8125)
	tb := shape.Transform{Pos: xy(-0.25, 1.125)}
	for k := 0; k <= 40; k += 2 {
		f := math.Ldexp(1, k)
		// small's centre passes 4 above big's: they touch at x = −0.25.
		ta := shape.Transform{Pos: xy(-40-f, 5.125)}
		h, ok := narrowphase.Cast(small, ta, xy(80+f, 0), big, tb)
		if want := (39.75 + f) / (80 + f); !ok || math.Abs(h.Fraction-want) > 2e-16 {
			t.Errorf("k=%d: discs Cast = %+v, %v; want a graze at fraction %.17g", k, h, ok, want)
		}
		// The capsule's lower end disc (centre (1.375, −2.5) + pos,
		// radius 0.8125) passes 3.5625 above big's centre.
		tc := shape.Transform{Pos: xy(-40-f, 7.1875)}
		h, ok = narrowphase.Cast(capsule, tc, xy(80+f, 0), big, tb)
		if want := (38.375 + f) / (80 + f); !ok || math.Abs(h.Fraction-want) > 2e-16 {
			t.Errorf("k=%d: capsule Cast = %+v, %v; want a graze at fraction %.17g", k, h, ok, want)
		}
	}
}

// TestTimeOfImpactLongSweepBug: two discs, radii 1.5 and 2.5, one swept
// 2^k + 80 along X past the other, 2.4 aside: they touch when their centres
// are 3.2 apart along X (3.2² + 2.4² = 4²), after 36.8 + 2^k. The
// bounding discs' first meeting, where the advancement starts (and, for
// centred discs, ends), came from b² − a·c, which cancels to the rounding
// of b² for a long sweep: at 2^20 the time came 5e-5 late, an overlap the
// contract (none beyond 1e-9 of the size before t) forbids.
func TestTimeOfImpactLongSweepBug(t *testing.T) {
	a, _ := shape.NewCircle(1.5)
	b, _ := shape.NewCircle(2.5)
	sb := narrowphase.Sweep{P0: xy(0, 2.4), P1: xy(0, 2.4)}
	for k := 0; k <= 30; k += 2 {
		f := math.Ldexp(1, k)
		sa := narrowphase.Sweep{P0: xy(-40-f, 0), P1: xy(40, 0)}
		for _, swap := range []bool{false, true} {
			var tt float64
			var ok bool
			if swap {
				tt, ok = narrowphase.TimeOfImpact(b, sb, a, sa)
			} else {
				tt, ok = narrowphase.TimeOfImpact(a, sa, b, sb)
			}
			want := 36.8 + f
			if d := tt * (80 + f); !ok || d < want-4e-6 || d > want+4e-9+8*f*0x1p-52 {
				t.Errorf("k=%d swap=%v: TimeOfImpact = %.17g, %v: %.17g travelled, want the touch at %.17g (within 4e-6 before, 4e-9 after)", k, swap, tt, ok, d, want)
			}
		}
	}
}

// TestTimeOfImpactFromFarOff: TimeOfImpact (translation, a fixed turn)
// and CastEnter of shapes of every kind swept along an axis from 2^10 and
// 2^20 beyond a shape of every kind, against the same sweep from just
// beyond it on the same line: both hit or both miss, at the same distance
// along the last stretch, within TimeOfImpact's 1e-6 of the size (1e-9
// for CastEnter's exact touch) and the rounding of the long sweep. (The
// check that found TestTimeOfImpactLongSweepBug.)
func TestTimeOfImpactFromFarOff(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 193))
	dirs := []shape.Vec2{{X: -1}, {X: 1}, {Y: -1}, {Y: 1}}
	n, hits := exCases(1500), 0
	for range n {
		b, a := exRandAnyShape(rng), exRandAnyShape(rng)
		if a.Kind() == shape.KindChain {
			continue // a chain never moves: it is level geometry
		}
		angB, ang := rng.Float64()*6, rng.Float64()*6
		pb := exDyadV(rng, -10, 10)
		sb := narrowphase.Sweep{P0: pb, P1: pb, A0: angB, A1: angB}
		tb := shape.NewTransform(pb, angB)
		d := dirs[rng.IntN(len(dirs))]
		p := shape.Vec2{X: -d.Y, Y: d.X}
		h := exDyad(rng, -8, 8)
		const back = 40.0
		size := a.BoundingRadius() + b.BoundingRadius()
		near := p.Scale(h).Sub(d.Scale(back))
		nt, nok := narrowphase.TimeOfImpact(a, narrowphase.Sweep{P0: near, P1: near.Add(d.Scale(2 * back)), A0: ang, A1: ang}, b, sb)
		nh, _, ncok := narrowphase.CastEnter(a, shape.NewTransform(near, ang), d.Scale(2*back), b, tb)
		if nok {
			hits++
		}
		for _, f := range []float64{0x1p10, 0x1p20} {
			far := p.Scale(h).Sub(d.Scale(back + f))
			what := fmt.Sprintf("%v turned %v from %v by %v, %v at %v turned %v", a, ang, far, d.Scale(2*back+f), b, pb, angB)
			ft, fok := narrowphase.TimeOfImpact(a, narrowphase.Sweep{P0: far, P1: far.Add(d.Scale(2*back + f)), A0: ang, A1: ang}, b, sb)
			if dn, df := nt*2*back, ft*(2*back+f)-f; fok != nok || (fok && math.Abs(df-dn) > 2e-6*size+8*f*0x1p-52) {
				t.Fatalf("TimeOfImpact(%s) = %.17g, %v (%.17g along the last %v); from %v beyond, %.17g, %v (%.17g)", what, ft, fok, df, 2*back, 2*back, nt, nok, dn)
			}
			fh, _, fcok := narrowphase.CastEnter(a, shape.NewTransform(far, ang), d.Scale(2*back+f), b, tb)
			if dn, df := nh.Fraction*2*back, fh.Fraction*(2*back+f)-f; fcok != ncok || (fcok && math.Abs(df-dn) > 1e-9*size+8*f*0x1p-52) {
				t.Fatalf("CastEnter(%s) = %+v, %v (%.17g along the last %v); from %v beyond, %+v, %v (%.17g)", what, fh, fcok, df, 2*back, 2*back, nh, ncok, dn)
			}
		}
	}
	t.Logf("%d pairs, %d hits", n, hits)
}

// TestExactOracleRayFarRandom: rays in random directions from 1e6, 1e9
// and 1e12 away at shapes of every kind near the origin, against the
// exact oracle (exRay: the first distance at which the exact segment
// meets a part, by bisection on exact arithmetic). The ray is exactly the
// one its float origin and dir define, so whether it hits is decided to
// the shape's own scale, not the distance's: a hit or miss must agree
// wherever the exact gap is beyond 1e-9 of the shape's size, and the
// distance to within a few ulps of itself, or, where the ray grazes,
// with the exact point at that distance on the surface to 1e-9 of the
// size.
func TestExactOracleRayFarRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 194))
	n, hits := exCases(300), 0
	for range n {
		s := exRandAnyShape(rng)
		ts := shape.Transform{Pos: exDyadV(rng, -4, 4), Rot: exRandRot(rng)}
		size := s.BoundingRadius() + math.Abs(ts.Pos.X) + math.Abs(ts.Pos.Y)
		far := []float64{1e6, 1e9, 1e12}[rng.IntN(3)]
		a := rng.Float64() * 2 * math.Pi
		dir := shape.V(math.Cos(a), math.Sin(a))
		if math.Abs(dir.LenSq()-1) > 1e-15 {
			continue
		}
		// Aimed at a random point of the shape's box, give or take.
		box := s.WorldAABB(ts)
		aim := shape.V(box.Min.X+(box.Max.X-box.Min.X)*(1.4*rng.Float64()-0.2), box.Min.Y+(box.Max.Y-box.Min.Y)*(1.4*rng.Float64()-0.2))
		origin := aim.Sub(dir.Scale(far))
		maxDist := []float64{math.Inf(1), 2 * far}[rng.IntN(2)]
		od := math.Min(maxDist, 2*far)
		h, ok := narrowphase.RayCast(s, ts, origin, dir, maxDist)
		cores := exParts(s, ts)
		want, part, hit := exRay(cores, origin, dir, od)
		desc := fmt.Sprintf("%v at %v (cos %v, sin %v), origin %v, dir %v, max %v", s, ts.Pos, ts.Rot.Cos(), ts.Rot.Sin(), origin, dir, maxDist)
		tol := 1e-9 * size
		if ok != hit {
			if g := exRayGap(cores, origin, dir, od); math.Abs(g) > tol {
				t.Fatalf("RayCast = %+v, %v; want hit %v at %.17g (exact gap %.3g): %s", h, ok, hit, want, g, desc)
			}
			continue
		}
		if !ok {
			continue
		}
		hits++
		if math.Abs(h.Distance-want) > 8*far*0x1p-52 {
			// Where the ray grazes the distance is ill-conditioned: the
			// exact point at h.Distance must lie on the surface.
			p := exVF(origin).add(exVF(dir).scale(exR(h.Distance)))
			if sd := exSignedDistAt(cores[part], p); math.Abs(sd) > tol {
				t.Fatalf("RayCast.Distance = %.17g, want %.17g (the exact point there is %.3g from the surface): %s", h.Distance, want, sd, desc)
			}
		}
		if sd := exSignedDist(cores[h.Part], h.Point); math.Abs(sd) > tol {
			t.Fatalf("RayCast.Point = %v is %.3g from part %d's surface: %s", h.Point, sd, h.Part, desc)
		}
	}
	t.Logf("%d rays, %d hits", n, hits)
}

// TestExactOracleCastFarRandom: shapes of every kind cast in random
// directions from 1e6, 1e9 and 1e12 away at shapes of every kind near
// the origin, against the exact oracle (exCast on every part pair: the
// first fraction at which the exact Minkowski difference meets the
// motion, by bisection on exact arithmetic). Hit or miss must agree
// wherever the exact gap over the motion is beyond 1e-9 of the pair's
// size; the touch's distance must agree to a few ulps of the motion, or,
// where the motion grazes, leave the pair touching, exactly, to 1e-9 of
// the size. Segments touch segments here, as Cast counts touching.
func TestExactOracleCastFarRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 195))
	n, hits := exCases(200), 0
	for range n {
		a, b := exRandAnyShape(rng), exRandAnyShape(rng)
		if a.Kind() == shape.KindChain {
			continue // a chain never moves: it is level geometry
		}
		tb := shape.Transform{Pos: exDyadV(rng, -4, 4), Rot: exRandRot(rng)}
		size := a.BoundingRadius() + b.BoundingRadius() + math.Abs(tb.Pos.X) + math.Abs(tb.Pos.Y)
		far := []float64{1e6, 1e9, 1e12}[rng.IntN(3)]
		ang := rng.Float64() * 2 * math.Pi
		dir := shape.V(math.Cos(ang), math.Sin(ang))
		box := b.WorldAABB(tb)
		aim := shape.V(box.Min.X+(box.Max.X-box.Min.X)*(1.4*rng.Float64()-0.2), box.Min.Y+(box.Max.Y-box.Min.Y)*(1.4*rng.Float64()-0.2))
		ta := shape.Transform{Pos: aim.Sub(dir.Scale(far)), Rot: exRandRot(rng)}
		delta := dir.Scale(far + 20)
		h, ok := narrowphase.Cast(a, ta, delta, b, tb)
		desc := fmt.Sprintf("Cast(%v at %v (cos %v, sin %v) by %v, %v at %v (cos %v, sin %v))", a, ta.Pos, ta.Rot.Cos(), ta.Rot.Sin(), delta, b, tb.Pos, tb.Rot.Cos(), tb.Rot.Sin())
		tol := 1e-9 * size
		want, hit, gap := 2.0, false, math.Inf(1)
		var first exCastOracle
		pb := exParts(b, tb)
		for _, x := range exParts(a, ta) {
			for _, y := range pb {
				o := exCast(x, delta, y)
				gap = math.Min(gap, o.gap)
				if o.hit && o.frac < want {
					want, hit, first = o.frac, true, o
				}
			}
		}
		if ok != hit {
			if math.Abs(gap) > tol {
				t.Fatalf("%s = %+v, %v; want hit %v at %.17g (exact gap %.3g)", desc, h, ok, hit, want, gap)
			}
			continue
		}
		if !ok {
			continue
		}
		hits++
		l := delta.Len()
		if math.Abs(h.Fraction-want)*l > 8*l*0x1p-52 {
			// A graze: the pair moved by exactly h.Fraction·delta must
			// touch (the first part pair to, at least within tol).
			if sd := exSignedDistAt(first.d, exVF(delta).scale(exR(h.Fraction))); math.Abs(sd) > tol {
				t.Fatalf("%s = %+v, want fraction %.17g (the pair there is %.3g from touching)", desc, h, want, sd)
			}
		}
	}
	t.Logf("%d casts, %d hits", n, hits)
}

// TestCastCollinearCoresApartBug: a capsule whose core lies on the line of
// a segment (both at 45°), 8.5 beyond its end, moving off the line: they
// never touch, but Cast reported a touch at the start. The Minkowski
// difference of two parallel cores rounds to a parallelogram of no width
// whose every edge line passes through the origin, so its half-plane
// test took the origin as within reach, and the start as touching
// (TestOracleConfigs/default -ocseed 1626224436767199214, a World cast).
func TestCastCollinearCoresApartBug(t *testing.T) {
	capsule, _ := shape.NewCapsule(xy(-0.875, -0.625), xy(0.25, 0.5), 0.4375)
	seg, _ := shape.NewSegment(xy(-1.125, 0), xy(1.125, 0))
	tb := shape.NewTransform(xy(6.125, 1.25), -2.356194490192345)
	ta := shape.NewTransform(xy(14.125, 9), 0)
	for _, delta := range []shape.Vec2{xy(1.625, 3.5), xy(-3.5, 1.625), xy(0, 0)} {
		if h, ok := narrowphase.Cast(capsule, ta, delta, seg, tb); ok {
			t.Errorf("Cast(capsule 8.5 beyond the segment's end by %v) = %+v, want no hit", delta, h)
		}
		if h, ok := narrowphase.Cast(seg, tb, delta.Neg(), capsule, ta); ok {
			t.Errorf("Cast(segment by %v, capsule 8.5 beyond its end) = %+v, want no hit", delta.Neg(), h)
		}
	}
	// Moving along the line, they meet when the gap closes: 8.5 less the
	// radius, along the core's direction.
	h, ok := narrowphase.Cast(capsule, ta, xy(-10, -10), seg, tb)
	if !ok || h.Fraction < 0.5 || h.Fraction > 0.7 {
		t.Errorf("Cast along the line = %+v, %v; want a touch after 8.95-0.44 of 14.1", h, ok)
	}
}
