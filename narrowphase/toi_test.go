package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// toiDepth is the oracle's overlap depth of the pair at time t (negative:
// apart), from support functions of independently placed geometry.
func toiDepth(a shape.Shape, sa narrowphase.Sweep, b shape.Shape, sb narrowphase.Sweep, t float64) float64 {
	return exactOracle(npPlace(a, sa.At(t)), npPlace(b, sb.At(t))).Depth
}

// toiDistance is the oracle's Euclidean distance between the pair at time
// t: the largest separation along many directions (0 when they overlap).
func toiDistance(a shape.Shape, sa narrowphase.Sweep, b shape.Shape, sb narrowphase.Sweep, t float64) float64 {
	pa, pb := npPlace(a, sa.At(t)), npPlace(b, sb.At(t))
	return math.Max(0, -exactOracle(pa, pb).Depth)
}

// TestTimeOfImpactAgainstSampling compares TimeOfImpact with dense sampling
// and bisection on random rotating pairs of every ordered kind pair, up to
// 3 radians of turn per sweep: no sample before the answer overlaps beyond
// 1e-9 of the pair's size, the oracle's first overlap is not earlier, and
// at the answer the shapes are within 1e-6 of their size of touching.
func TestTimeOfImpactAgainstSampling(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x701))
	rounds, samples := 25, 400
	if testing.Short() {
		rounds = 5
	}
	hits, misses := 0, 0
	for _, ka := range npKinds {
		for _, kb := range npKinds {
			for range rounds {
				a, b := npRandomShape(t, rng, ka), npRandomShape(t, rng, kb)
				size := a.BoundingRadius() + b.BoundingRadius()
				s, c := math.Sincos(2 * math.Pi * rng.Float64())
				dir := xy(c, s)
				start := size * (1.05 + 2*rng.Float64())
				side := size * (2*rng.Float64() - 1)
				p0 := dir.Scale(-start).Add(xy(-s, c).Scale(side))
				length := start * (0.5 + 2*rng.Float64())
				turn := 3 * (2*rng.Float64() - 1)
				sa := narrowphase.Sweep{P0: p0, P1: p0.Add(dir.Scale(length)), A0: npRandomAngle(rng), A1: 0}
				sa.A1 = sa.A0 + turn
				sb := narrowphase.Sweep{P0: xy(0, 0), P1: xy(size*(rng.Float64()-0.5), size*(rng.Float64()-0.5)), A0: npRandomAngle(rng)}
				sb.A1 = sb.A0 + 3*(2*rng.Float64()-1)
				if toiDepth(a, sa, b, sb, 0) > 0 {
					continue // the oracle's comparison starts apart
				}
				name := fmt.Sprintf("TimeOfImpact(%v %+v, %v %+v)", a, sa, b, sb)
				toi, hit := narrowphase.TimeOfImpact(a, sa, b, sb)
				first, overlaps := -1.0, false
				for i := 1; i <= samples; i++ {
					ti := float64(i) / float64(samples)
					if toiDepth(a, sa, b, sb, ti) > 1e-9*size {
						lo, hi := float64(i-1)/float64(samples), ti
						for range 60 {
							mid := lo + (hi-lo)/2
							if toiDepth(a, sa, b, sb, mid) > 0 {
								hi = mid
							} else {
								lo = mid
							}
						}
						first, overlaps = hi, true
						break
					}
				}
				if !hit {
					misses++
					if overlaps {
						t.Fatalf("%s: no hit, but the shapes overlap at %v", name, first)
					}
					continue
				}
				hits++
				if !(toi >= 0 && toi <= 1) {
					t.Fatalf("%s = %v: out of [0, 1]", name, toi)
				}
				if overlaps && toi > first+1e-9 {
					t.Fatalf("%s = %v: the shapes already overlap at %v", name, toi, first)
				}
				for i := range samples {
					if ti := toi * float64(i) / float64(samples); toiDepth(a, sa, b, sb, ti) > 1e-9*size {
						t.Fatalf("%s = %v: the shapes overlap earlier, at %v", name, toi, ti)
					}
				}
				if d := toiDistance(a, sa, b, sb, toi); d > 1e-6*size {
					t.Fatalf("%s = %v: the shapes are %g apart there, more than 1e-6 of their size %g", name, toi, d, size)
				}
			}
		}
	}
	if hits < 2*rounds || misses < rounds/2 {
		t.Fatalf("%d hits, %d misses: the sweeps prove little", hits, misses)
	}
	t.Logf("%d hits, %d misses", hits, misses)
}

func TestTimeOfImpactNamedCases(t *testing.T) {
	ball, wall := npCircle(t, 0.5), npOBB(t, 0.05, 3)
	stick := npOBB(t, 2, 0.05)
	for _, tc := range []struct {
		name   string
		a      shape.Shape
		sa     narrowphase.Sweep
		b      shape.Shape
		sb     narrowphase.Sweep
		hit    bool
		t, tol float64
	}{
		{"ball through a thin wall", ball, narrowphase.Sweep{P0: xy(-10, 0), P1: xy(10, 0)}, wall, narrowphase.Sweep{}, true, 9.45 / 20, 1e-7},
		{"ball past the wall", ball, narrowphase.Sweep{P0: xy(-10, 4), P1: xy(10, 4)}, wall, narrowphase.Sweep{}, false, 0, 0},
		// A stick spinning half a turn about its centre sweeps the disc
		// of radius 2: a ball at distance 1.5 (gap 1) is struck when the
		// stick's end reaches it, a quarter turn in (the stick's half
		// thickness 0.05 and the ball's radius make it a little earlier).
		{"spinning stick", stick, narrowphase.Sweep{A0: 0, A1: math.Pi}, ball, narrowphase.Sweep{P0: xy(0, 1.5), P1: xy(0, 1.5)}, true, 0.5 - 0.1, 0.1},
		{"touching at the start", ball, narrowphase.Sweep{P0: xy(-0.55, 0), P1: xy(-5, 0)}, wall, narrowphase.Sweep{}, true, 0, 0},
		{"no motion, apart", ball, narrowphase.Sweep{P0: xy(-2, 0), P1: xy(-2, 0)}, wall, narrowphase.Sweep{P0: xy(0, 0), P1: xy(0, 0)}, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, hit := narrowphase.TimeOfImpact(tc.a, tc.sa, tc.b, tc.sb)
			if hit != tc.hit || (hit && math.Abs(got-tc.t) > tc.tol) {
				t.Errorf("TimeOfImpact = %v, %v; want %v, %v (±%g)", got, hit, tc.t, tc.hit, tc.tol)
			}
		})
	}
}

func BenchmarkTimeOfImpact(b *testing.B) {
	var oct [8]shape.Vec2
	for i := range oct {
		s, c := math.Sincos(2 * math.Pi * float64(i) / 8)
		oct[i] = xy(1.1*c, 0.9*s)
	}
	p := npPolygon(b, oct[:]...)
	sa := narrowphase.Sweep{P0: xy(-6, 0.3), P1: xy(4, -0.2), A0: 0.1, A1: 1.4}
	sb := narrowphase.Sweep{P0: xy(0, 0), P1: xy(0.5, 0.1), A0: 0.3, A1: -0.9}
	if _, hit := narrowphase.TimeOfImpact(p, sa, p, sb); !hit {
		b.Fatal("no hit")
	}
	b.ReportAllocs()
	for b.Loop() {
		narrowphase.TimeOfImpact(p, sa, p, sb)
	}
}

// TestTimeOfImpactHugeTurnIsFinite: sweeps that turn by 1e150 radians or
// more (crafted snapshot bytes restore such bullets) overflow the squared
// turns in the advancement's bound of the gap; TimeOfImpact must still
// give a time in [0, 1] or no hit, never NaN, and TimeOfImpactEnter must
// return.
func TestTimeOfImpactHugeTurnIsFinite(t *testing.T) {
	stick, ball := npOBB(t, 2, 0.05), npCircle(t, 0.5)
	tri := npPolygon(t, xy(-1, -1), xy(1, -1), xy(0, 1.5))
	for _, turn := range []float64{1e150, 1e300, math.MaxFloat64} {
		for _, tc := range []struct {
			name string
			a, b shape.Shape
		}{{"stick-ball", stick, ball}, {"triangle-triangle", tri, tri}} {
			sa := narrowphase.Sweep{P0: xy(-4, 0.3), P1: xy(1, -0.2), A0: -turn / 2, A1: turn / 2}
			for _, sb := range []narrowphase.Sweep{
				{P0: xy(0, 0), P1: xy(0, 0), A0: 5.81, A1: 5.81},
				{P0: xy(0, 0), P1: xy(0.5, 0.1), A0: turn / 2, A1: -turn / 2},
			} {
				name := fmt.Sprintf("%s, turn %g, %+v", tc.name, turn, sb)
				if got, hit := narrowphase.TimeOfImpact(tc.a, sa, tc.b, sb); hit && !(got >= 0 && got <= 1) {
					t.Errorf("TimeOfImpact(%s) = %v, %v; want a time in [0, 1]", name, got, hit)
				}
				if got, _, _, hit := narrowphase.TimeOfImpactEnter(tc.a, sa, tc.b, sb); hit && !(got >= 0 && got <= 1) {
					t.Errorf("TimeOfImpactEnter(%s) = %v, %v; want a time in [0, 1]", name, got, hit)
				}
			}
		}
	}
}
