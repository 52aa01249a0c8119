package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// castOracle is an independent reference for Cast: the overlap depth of the
// moved pair by support functions over candidate axes (exactOracle), sampled
// densely over the motion and bisected on its sign.
type castOracle struct {
	a, b   shape.Shape
	ta, tb shape.Transform
	delta  shape.Vec2
}

func (o castOracle) depth(t float64) float64 {
	ta := o.ta
	ta.Pos = ta.Pos.Add(o.delta.Scale(t))
	return exactOracle(npPlace(o.a, ta), npPlace(o.b, o.tb)).Depth
}

// firstOverlap returns the first time the oracle sees an overlap deeper
// than tol, to bisection precision, or false if no sample does.
func (o castOracle) firstOverlap(samples int, tol float64) (float64, bool) {
	prev := 0.0
	if o.depth(0) > tol {
		return 0, true
	}
	for i := 1; i <= samples; i++ {
		t := float64(i) / float64(samples)
		if o.depth(t) > tol {
			lo, hi := prev, t
			for range 80 {
				mid := lo + (hi-lo)/2
				if o.depth(mid) > 0 {
					hi = mid
				} else {
					lo = mid
				}
			}
			return hi, true
		}
		prev = t
	}
	return 0, false
}

// TestCastAgainstSampling compares Cast with the sampling oracle on random
// pairs of every ordered kind pair: motions aimed near b with offsets that
// make some hit, some graze and some miss, long motions (up to 100 times
// the shapes' size), and coordinates up to 1e7. At the reported fraction the
// shapes must touch (oracle depth within a rounding tolerance of 0), no
// earlier sample may overlap, the oracle's first overlap must not come
// before it, the normal must separate the shapes there, and the point must
// lie on both surfaces.
func TestCastAgainstSampling(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0xca57))
	rounds, samples := 40, 300
	switch {
	case testing.Short():
		rounds = 3 // the quick gate
	case raceEnabled:
		rounds = 8
	}
	hits, misses, starts := 0, 0, 0
	for _, far := range []float64{0, 1e4, 1e7} {
		for _, ka := range npKinds {
			for _, kb := range npKinds {
				for range rounds {
					a, b := npRandomShape(t, rng, ka), npRandomShape(t, rng, kb)
					reach := a.BoundingRadius() + b.BoundingRadius()
					tb := shape.NewTransform(xy(far*(1+rng.Float64()), far*(1+rng.Float64())), npRandomAngle(rng))
					s, c := math.Sincos(2 * math.Pi * rng.Float64())
					dir := xy(c, s)
					start := reach * (1 + 3*rng.Float64())
					if rng.IntN(10) == 0 {
						start = reach * rng.Float64() // may start in overlap
					}
					side := reach * (2*rng.Float64() - 1) * 1.2
					ta := shape.NewTransform(tb.Pos.Sub(dir.Scale(start)).Add(xy(-s, c).Scale(side)), npRandomAngle(rng))
					length := start + reach*(1+float64(rng.IntN(3))*30*rng.Float64())
					delta := dir.Scale(length)
					o := castOracle{a, b, ta, tb, delta}
					scale := 1 + far + reach
					tol := 1e-9 * scale
					h, hit := narrowphase.Cast(a, ta, delta, b, tb)
					first, overlaps := o.firstOverlap(samples, tol)
					name := fmt.Sprintf("Cast(%v at %v, delta %v, %v at %v)", a, ta, delta, b, tb)
					if !hit {
						misses++
						if overlaps {
							t.Fatalf("%s: no hit, but the oracle overlaps at %v", name, first)
						}
						continue
					}
					hits++
					if h.Fraction == 0 {
						starts++
					}
					if !(h.Fraction >= 0 && h.Fraction <= 1) || !h.Point.IsFinite() || math.Abs(h.Normal.Len()-1) > 1e-12 {
						t.Fatalf("%s = %+v: fraction out of range or bad normal", name, h)
					}
					if d := o.depth(h.Fraction); math.Abs(d) > tol && !(h.Fraction == 0 && d > 0) {
						t.Fatalf("%s = %+v: the shapes are %g from touching there", name, h, d)
					}
					if overlaps && first < h.Fraction-tol/length {
						t.Fatalf("%s = %+v: the oracle overlaps earlier, at %v", name, h, first)
					}
					for i := range samples {
						if h.Fraction == 0 {
							break
						}
						if st := h.Fraction * float64(i) / float64(samples); o.depth(st) > tol {
							t.Fatalf("%s = %+v: the shapes already overlap at %v", name, h, st)
						}
					}
					if h.Fraction == 0 {
						continue // overlapping at the start: Collide's normal, checked elsewhere
					}
					moved := ta
					moved.Pos = ta.Pos.Add(delta.Scale(h.Fraction))
					pa, pb := npPlace(a, moved), npPlace(b, tb)
					if gap := pa.minAlong(h.Normal) - pb.maxAlong(h.Normal); gap < -tol {
						t.Fatalf("%s = %+v: the normal does not separate them (gap %g)", name, h, gap)
					}
					if da, db := pa.distTo(h.Point), pb.distTo(h.Point); da > tol || db > tol {
						t.Fatalf("%s = %+v: the point is %g from a and %g from b", name, h, da, db)
					}
				}
			}
		}
	}
	if hits < 12*rounds || misses < 2*rounds {
		t.Fatalf("%d hits and %d misses: the motions prove little", hits, misses)
	}
	t.Logf("%d hits (%d at the start), %d misses", hits, starts, misses)
}

// TestCastStartsInOverlap: Fraction 0 and the negated Collide normal.
func TestCastStartsInOverlap(t *testing.T) {
	a, b := npCircle(t, 1), npOBB(t, 2, 1)
	ta, tb := npAt(0.5, 0.5, 0), npAt(0, 0, 0.3)
	m, ok := narrowphase.Collide(a, ta, b, tb)
	if !ok {
		t.Fatal("no overlap: the test would prove nothing")
	}
	h, hit := narrowphase.Cast(a, ta, xy(10, 0), b, tb)
	if !hit || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point {
		t.Errorf("Cast from overlap = %+v, %v; want fraction 0, normal %v, point %v", h, hit, m.Normal.Neg(), m.Points[0].Point)
	}
}

// TestCastNamedCases pins exact answers worked by hand.
func TestCastNamedCases(t *testing.T) {
	ball, box, wall := npCircle(t, 0.5), npAABB(t, 1, 1), npAABB(t, 0.1, 5)
	tri := npPolygon(t, xy(0, 0), xy(1, 0), xy(0, 1))
	for _, tc := range []struct {
		name   string
		a      shape.Shape
		ta     shape.Transform
		delta  shape.Vec2
		b      shape.Shape
		tb     shape.Transform
		hit    bool
		frac   float64
		normal shape.Vec2
		point  shape.Vec2
	}{
		{"ball into a thin wall", ball, npAt(-10, 0, 0), xy(20, 0), wall, npAt(0, 0, 0), true, 9.4 / 20, xy(-1, 0), xy(-0.1, 0)},
		{"ball grazing the wall's end", ball, npAt(-10, 5.5, 0), xy(20, 0), wall, npAt(0, 0, 0), true, 9.9 / 20, xy(0, 1), xy(-0.1, 5)},
		{"ball passing the wall's end", ball, npAt(-10, 5.6, 0), xy(20, 0), wall, npAt(0, 0, 0), false, 0, xy(0, 0), xy(0, 0)},
		{"box face on box face", box, npAt(-5, 0.5, 0), xy(10, 0), box, npAt(0, 0, 0), true, 0.3, xy(-1, 0), xy(-1, 0.25)},
		{"ball onto a box corner", ball, npAt(-3, -3, 0), xy(4, 4), box, npAt(0, 0, 0), true, (2 - 0.5/math.Sqrt2) / 4, xy(-math.Sqrt2/2, -math.Sqrt2/2), xy(-1, -1)},
		{"triangle vertex onto box face", tri, npAt(-5, -0.25, 0), xy(10, 0), box, npAt(3, 0, 0), true, 0.6, xy(-1, 0), xy(2, -0.25)},
		{"touching, moving away", ball, npAt(-1.5, 0, 0), xy(-1, 0), box, npAt(0, 0, 0), true, 0, xy(-1, 0), xy(-1, 0)},
		{"touching, zero delta", ball, npAt(-1.5, 0, 0), xy(0, 0), box, npAt(0, 0, 0), true, 0, xy(-1, 0), xy(-1, 0)},
		{"apart, zero delta", ball, npAt(-2, 0, 0), xy(0, 0), box, npAt(0, 0, 0), false, 0, xy(0, 0), xy(0, 0)},
		{"short of the wall", ball, npAt(-10, 0, 0), xy(9, 0), wall, npAt(0, 0, 0), false, 0, xy(0, 0), xy(0, 0)},
		{"far from the origin", ball, npAt(1e7-10, 1e7, 0), xy(20, 0), wall, npAt(1e7, 1e7, 0), true, 9.4 / 20, xy(-1, 0), xy(1e7-0.1, 1e7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, hit := narrowphase.Cast(tc.a, tc.ta, tc.delta, tc.b, tc.tb)
			if hit != tc.hit {
				t.Fatalf("Cast hit = %v (%+v), want %v", hit, h, tc.hit)
			}
			if !hit {
				return
			}
			if math.Abs(h.Fraction-tc.frac) > 1e-12 || !vecNear(h.Normal, tc.normal, 1e-12) || !vecNear(h.Point, tc.point, 1e-9*(1+math.Abs(tc.point.X))) {
				t.Errorf("Cast = %+v, want fraction %v, normal %v, point %v", h, tc.frac, tc.normal, tc.point)
			}
		})
	}
}

func vecNear(a, b shape.Vec2, tol float64) bool {
	return math.Abs(a.X-b.X) <= tol && math.Abs(a.Y-b.Y) <= tol
}

// FuzzCast checks that no input panics or yields NaN, that a fraction lies
// in [0, 1], and that a normal has unit length.
func FuzzCast(f *testing.F) {
	f.Add(uint8(0), uint8(2), 1.0, 0.5, -5.0, 0.2, 10.0, 0.1, 0.0, 0.0, 0.3)
	f.Add(uint8(3), uint8(3), 2.0, 2.0, 1e7, 1e7, -3.0, 1e-9, 1e7, 1e7, 1.0)
	f.Fuzz(func(t *testing.T, ka, kb uint8, sa, sb, x, y, dx, dy, bx, by, ang float64) {
		mk := func(k uint8, s float64) (shape.Shape, bool) {
			var sh shape.Shape
			var err error
			switch k % 6 {
			case 0:
				sh, err = shape.NewCircle(s)
			case 1:
				sh, err = shape.NewAABB(s, s/2+0.1)
			case 2:
				sh, err = shape.NewOBB(s, s/3+0.1)
			case 3:
				sh, err = shape.NewPolygon([]shape.Vec2{{X: -s, Y: 0}, {X: s, Y: -s}, {X: s, Y: s}})
			case 4:
				sh, err = shape.NewCapsule(shape.Vec2{X: -s}, shape.Vec2{X: s, Y: s / 2}, s/3+0.1)
			default:
				sh, err = shape.NewSegment(shape.Vec2{X: -s, Y: s}, shape.Vec2{X: s})
			}
			return sh, err == nil
		}
		a, okA := mk(ka, sa)
		b, okB := mk(kb, sb)
		if !okA || !okB {
			return
		}
		ta, tb := shape.NewTransform(xy(x, y), ang), shape.NewTransform(xy(bx, by), -ang)
		if ta.Validate() != nil || tb.Validate() != nil {
			return
		}
		h, hit := narrowphase.Cast(a, ta, xy(dx, dy), b, tb)
		if !hit {
			return
		}
		if !(h.Fraction >= 0 && h.Fraction <= 1) || !h.Point.IsFinite() || !h.Normal.IsFinite() || math.Abs(h.Normal.Len()-1) > 1e-9 {
			t.Fatalf("Cast = %+v", h)
		}
	})
}

// BenchmarkCast casts each convex kind against each, aimed to hit, beside
// BenchmarkCollide's pairs, the same shapes (the target: at most 2.5
// times Collide).
func BenchmarkCast(b *testing.B) {
	var oct [8]shape.Vec2
	for i := range oct {
		s, c := math.Sincos(2 * math.Pi * float64(i) / 8)
		oct[i] = xy(1.1*c, 0.9*s)
	}
	shapes := []struct {
		name string
		s    shape.Shape
	}{
		{"circle", npCircle(b, 1)}, {"aabb", npAABB(b, 1, 0.8)}, {"obb", npOBB(b, 1, 0.6)}, {"poly", npPolygon(b, oct[:]...)},
		{"capsule", npCapsule(b, xy(-0.8, 0), xy(0.8, 0), 0.5)}, {"segment", npSegment(b, xy(-1.5, 0), xy(1.5, 0))},
	}
	for _, sa := range shapes {
		for _, sb := range shapes {
			if sa.name == "segment" && sb.name == "segment" {
				continue // segments never touch segments
			}
			b.Run(sa.name+"-"+sb.name, func(b *testing.B) {
				ta, tb := npAt(-10, 0.3, 0.4), npAt(0, 0, 0.7)
				delta := xy(20, -0.2)
				if _, hit := narrowphase.Cast(sa.s, ta, delta, sb.s, tb); !hit {
					b.Fatal("no hit")
				}
				b.ReportAllocs()
				for b.Loop() {
					narrowphase.Cast(sa.s, ta, delta, sb.s, tb)
				}
			})
		}
	}
}

// TestCastCircleAlongRoundedHullAxis casts a circle along the line of a
// segment and of a capsule, from either end and far from the origin: both
// faces are parallel to the motion, so the hit is at an end disc, at the
// fraction the distances give (castCircleHull, which casts circles against
// capsules and segments, leaves a start on the hull's line to the general
// path).
func TestCastCircleAlongRoundedHullAxis(t *testing.T) {
	ball := npCircle(t, 0.25)
	for _, base := range []float64{0, 1e6} {
		for _, rh := range []float64{0, 0.5} {
			var h shape.Shape
			if rh == 0 {
				h = npSegment(t, xy(-1, 0), xy(1, 0))
			} else {
				h = npCapsule(t, xy(-1, 0), xy(1, 0), rh)
			}
			for _, dir := range []float64{1, -1} {
				tb := npAt(base, base, 0)
				ta := npAt(base-dir*5, base, 0)
				delta := xy(dir*8, 0)
				// The centre starts 5 from h's centre; the touch is when it
				// is 1 + rh + 0.25 from it: after 5 − 1.25 − rh of 8.
				want := (3.75 - rh) / 8
				for _, swap := range []bool{false, true} {
					var hit narrowphase.CastHit
					var ok bool
					if swap {
						hit, ok = narrowphase.Cast(h, tb, delta.Neg(), ball, ta)
					} else {
						hit, ok = narrowphase.Cast(ball, ta, delta, h, tb)
					}
					if !ok || math.Abs(hit.Fraction-want) > 1e-12 {
						t.Fatalf("base %g rh %g dir %g swap %v: hit %+v, %v; want fraction %g", base, rh, dir, swap, hit, ok, want)
					}
					wantN := xy(-dir, 0)
					if swap {
						wantN = wantN.Neg()
					}
					if hit.Normal.Sub(wantN).Len() > 1e-12 {
						t.Fatalf("base %g rh %g dir %g swap %v: normal %v, want %v", base, rh, dir, swap, hit.Normal, wantN)
					}
				}
			}
		}
	}
}
