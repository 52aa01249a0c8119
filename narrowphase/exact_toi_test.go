package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks TimeOfImpact against dense sampling of the sweep plus
// bisection, with a float64 gap predicate of its own (segment–segment
// distances between the placed cores, computed relative to B's position)
// that hands every sample within a wide margin of a threshold to the exact
// oracle of exact_oracle_test.go. The poses are the ones the contract
// speaks of: Sweep.At(t), placed part by part for composites.
//
// The contract, with size the sum of the bounding radii:
//   - no overlap deeper than 1e-9·size anywhere in [0, t);
//   - at t, a gap of at most 1e-6·size;
//   - no hit only when the pair never touches in [0, 1]: a sampled
//     overlap deeper than 1e-9·size with hit false is a miss.

// tfCore is a convex core relative to a reference point, in float64.
type tfCore struct {
	pts []shape.Vec2
	r   float64
}

// tfPlace places the convex shape s by t, relative to the point o.
func tfPlace(s shape.Shape, t shape.Transform, o shape.Vec2) tfCore {
	t = s.EffectiveTransform(t)
	c, sn := t.Rot.Cos(), t.Rot.Sin()
	p := t.Pos.Sub(o)
	apply := func(v shape.Vec2) shape.Vec2 {
		return shape.V(p.X+(c*v.X-sn*v.Y), p.Y+(sn*v.X+c*v.Y))
	}
	var local []shape.Vec2
	r := 0.0
	switch s.Kind() {
	case shape.KindCircle:
		local, r = []shape.Vec2{s.Center()}, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		cs := s.Corners()
		local = cs[:]
	case shape.KindPolygon:
		local = s.Vertices()
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		local, r = []shape.Vec2{p0, p1}, s.Radius()
	}
	out := tfCore{pts: make([]shape.Vec2, len(local)), r: r}
	for i, v := range local {
		out.pts[i] = apply(v)
	}
	return out
}

func tfSegDist(p0, p1, q0, q1 shape.Vec2) float64 {
	pd := func(p, a, b shape.Vec2) float64 {
		d := b.Sub(a)
		dd := d.Dot(d)
		u := 0.0
		if dd > 0 {
			u = math.Max(0, math.Min(1, p.Sub(a).Dot(d)/dd))
		}
		return p.Sub(a.Add(d.Scale(u))).Len()
	}
	orient := func(a, b, c shape.Vec2) float64 { return b.Sub(a).Cross(c.Sub(a)) }
	d1, d2 := orient(q0, q1, p0), orient(q0, q1, p1)
	d3, d4 := orient(p0, p1, q0), orient(p0, p1, q1)
	if d1*d2 < 0 && d3*d4 < 0 {
		return 0
	}
	return math.Min(math.Min(pd(p0, q0, q1), pd(p1, q0, q1)), math.Min(pd(q0, p0, p1), pd(q1, p0, p1)))
}

func tfInside(c tfCore, p shape.Vec2) bool {
	n := len(c.pts)
	if n < 3 {
		return false
	}
	for i := range n {
		if c.pts[(i+1)%n].Sub(c.pts[i]).Cross(p.Sub(c.pts[i])) < 0 {
			return false
		}
	}
	return true
}

func tfEdges(c tfCore) [][2]shape.Vec2 {
	n := len(c.pts)
	switch n {
	case 1:
		return [][2]shape.Vec2{{c.pts[0], c.pts[0]}}
	case 2:
		return [][2]shape.Vec2{{c.pts[0], c.pts[1]}}
	}
	out := make([][2]shape.Vec2, n)
	for i := range n {
		out[i] = [2]shape.Vec2{c.pts[i], c.pts[(i+1)%n]}
	}
	return out
}

// tfGap returns the float gap between two cores (distance minus radii),
// and whether the cores themselves meet (then the gap is only an upper
// bound, -(ra+rb)).
func tfGap(a, b tfCore) (float64, bool) {
	if tfInside(a, b.pts[0]) || tfInside(b, a.pts[0]) {
		return -(a.r + b.r), true
	}
	best := math.Inf(1)
	for _, ea := range tfEdges(a) {
		for _, eb := range tfEdges(b) {
			best = math.Min(best, tfSegDist(ea[0], ea[1], eb[0], eb[1]))
		}
	}
	if best == 0 {
		return -(a.r + b.r), true
	}
	return best - (a.r + b.r), false
}

// toiCase is one sweep pair with its oracle.
type toiCase struct {
	a, b   shape.Shape
	sa, sb narrowphase.Sweep
	size   float64
	grid   float64 // two ulps of the largest position coordinate
	exact  int     // samples handed to the exact oracle
}

func newTOICase(a shape.Shape, sa narrowphase.Sweep, b shape.Shape, sb narrowphase.Sweep) *toiCase {
	m := 0.0
	for _, p := range []shape.Vec2{sa.P0, sa.P1, sb.P0, sb.P1} {
		m = math.Max(m, math.Max(math.Abs(p.X), math.Abs(p.Y)))
	}
	// Sweep.At rounds each position to the float64 grid, so the poses
	// along a sweep far from the origin are a staircase that strays up to
	// an ulp from the straight path, in each of the two bodies: the
	// contract's 1e-9·size cannot hold below that step (at 1e12 the step
	// is 1.2e-4), and the oracle allows two ulps of the largest coordinate.
	grid := 2 * (math.Nextafter(m, math.Inf(1)) - m)
	return &toiCase{a: a, b: b, sa: sa, sb: sb, size: a.BoundingRadius() + b.BoundingRadius(), grid: grid}
}

func (c *toiCase) String() string {
	return fmt.Sprintf("a=%v sweep %+v, b=%v sweep %+v", c.a, c.sa, c.b, c.sb)
}

// gapBelow reports whether the signed gap at time t is below thr (a
// multiple of size), exactly: float first, the exact oracle when the
// float gap is within a wide margin of thr.
func (c *toiCase) gapBelow(t, thr float64) bool {
	ta, tb := c.sa.At(t), c.sb.At(t)
	o := tb.Pos
	margin := 1e-11 * (c.size + ta.Pos.Sub(tb.Pos).Len() + 1)
	pa, pb := tfParts(c.a, ta, o), tfParts(c.b, tb, o)
	near := false
	for _, x := range pa {
		for _, y := range pb {
			g, meet := tfGap(x, y)
			if tfWalls(x, y) {
				g, meet = math.Max(g, 0), false
			}
			if !meet && g < thr-margin {
				return true
			}
			if meet || g < thr+margin {
				near = true
			}
		}
	}
	if !near {
		return false
	}
	return c.exactGap(t) < thr
}

// exactGap returns the signed gap at t by the exact oracle (the smallest
// over part pairs).
func (c *toiCase) exactGap(t float64) float64 {
	c.exact++
	ta, tb := c.sa.At(t), c.sb.At(t)
	best := math.Inf(1)
	for _, x := range exParts(c.a, ta) {
		for _, y := range exParts(c.b, tb) {
			_, pen := exPen(exMinkowski(x, y))
			if len(x.pts) <= 2 && len(y.pts) <= 2 && x.r.Sign() == 0 && y.r.Sign() == 0 {
				pen = math.Min(pen, 0) // walls never overlap walls
			}
			best = math.Min(best, -pen)
		}
	}
	return best
}

// tfWalls reports whether both cores are bare segments (or points): two
// walls, which never overlap by the convention (they may only touch).
func tfWalls(a, b tfCore) bool {
	return len(a.pts) <= 2 && len(b.pts) <= 2 && a.r == 0 && b.r == 0
}

func tfParts(s shape.Shape, t shape.Transform, o shape.Vec2) []tfCore {
	if s.Kind().Convex() {
		return []tfCore{tfPlace(s, t, o)}
	}
	out := make([]tfCore, s.PartCount())
	for i := range out {
		ps, pt := s.Part(i, t)
		out[i] = tfPlace(ps, pt, o)
	}
	return out
}

// firstBelow returns the first sampled-then-bisected time in [0, 1] at which
// the gap is below thr, or false. The samples are dense (n uniform plus
// a geometric run toward each end), so a dip narrower than a sample step
// can escape it; the test's shapes and speeds keep dips wider.
func (c *toiCase) firstBelow(thr float64, n int) (float64, bool) {
	if c.gapBelow(0, thr) {
		return 0, true
	}
	prev := 0.0
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		if c.gapBelow(t, thr) {
			lo, hi := prev, t
			for range 60 {
				mid := lo + (hi-lo)/2
				if mid <= lo || mid >= hi {
					break
				}
				if c.gapBelow(mid, thr) {
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

// check runs TimeOfImpact on the case and compares it with the oracle.
func (c *toiCase) check(t *testing.T, n int) (hit bool) {
	t.Helper()
	toi, hit := narrowphase.TimeOfImpact(c.a, c.sa, c.b, c.sb)
	if math.IsNaN(toi) || toi < 0 || toi > 1 {
		t.Errorf("TimeOfImpact = %v, %v: out of [0, 1]: %v", toi, hit, c)
		return hit
	}
	deep := -1e-9*c.size - c.grid
	// The first time they overlap deeper than the contract allows.
	tPen, pen := c.firstBelow(deep, n)
	if !hit {
		if pen {
			t.Errorf("TimeOfImpact = no hit, but the pair overlaps by more than 1e-9·size at t = %v (gap %g, size %g): %v",
				tPen, c.exactGap(tPen), c.size, c)
		}
		return hit
	}
	if g := c.exactGap(toi); g > 1e-6*c.size+c.grid {
		t.Errorf("TimeOfImpact = %v: gap there %g > 1e-6·size (size %g): %v", toi, g, c.size, c)
	}
	if pen && toi > tPen {
		t.Errorf("TimeOfImpact = %v, but the pair overlaps by more than 1e-9·size from t = %v (gap %g): %v",
			toi, tPen, c.exactGap(tPen), c)
	}
	// Dense samples just before toi: no overlap there.
	for k := 1; k <= 40; k++ {
		s := toi * (1 - math.Ldexp(1, -k))
		if s >= toi {
			break
		}
		if c.gapBelow(s, deep) {
			t.Errorf("TimeOfImpact = %v, but at t = %v (before it) the gap is %g < -1e-9·size: %v",
				toi, s, c.exactGap(s), c)
			break
		}
	}
	return hit
}

// exRandSweep returns a sweep starting near p0, moving up to reach and
// turning up to turn radians.
func exRandSweep(rng *rand.Rand, p0 shape.Vec2, reach, turn float64) narrowphase.Sweep {
	a0 := 0.0
	if rng.IntN(4) != 0 {
		a0 = (rng.Float64()*2 - 1) * math.Pi
	}
	a1 := a0
	if rng.IntN(5) != 0 {
		a1 = a0 + (rng.Float64()*2-1)*turn
	}
	return narrowphase.Sweep{P0: p0, P1: p0.Add(exDyadV(rng, -reach, reach)), A0: a0, A1: a1}
}

// exRandThin returns a thin box, polygon or capsule sometimes, else
// exRandShape's shape.
func exRandThinOr(rng *rand.Rand, k shape.Kind) shape.Shape {
	if rng.IntN(5) != 0 {
		return exRandShape(rng, k)
	}
	var s shape.Shape
	var err error
	switch k {
	case shape.KindAABB:
		s, err = shape.NewAABB(exDyad(rng, 0.5, 3), 1.0/1024)
	case shape.KindOBB:
		s, err = shape.NewOBB(1.0/1024, exDyad(rng, 0.5, 3))
	case shape.KindCapsule:
		s, err = shape.NewCapsule(shape.V(-2, 0), shape.V(2, 0.25), 1.0/1024)
	case shape.KindCircle:
		s, err = shape.NewCircle(1.0 / 1024)
	case shape.KindPolygon:
		s, err = shape.NewPolygon([]shape.Vec2{{X: -2, Y: 0}, {X: 2, Y: 0}, {X: 0, Y: 1.0 / 512}})
	default:
		return exRandShape(rng, k)
	}
	if err != nil {
		panic(err)
	}
	return s
}

// TestExactOracleTOIRandom compares TimeOfImpact on random rotating and
// translating sweeps of every convex kind pair, in both orders, around
// the origin and far from it, with dense sampling and bisection.
func TestExactOracleTOIRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	n := exCases(12)
	samples := 200
	if testing.Short() {
		samples = 100
	}
	total, hits, exact := 0, 0, 0
	for i, ka := range exConvexKinds {
		for _, kb := range exConvexKinds[i:] {
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				for range n {
					a, b := exRandThinOr(rng, ka), exRandThinOr(rng, kb)
					base := exBases[rng.IntN(len(exBases))]
					bv := shape.V(base, -base)
					sa := exRandSweep(rng, bv.Add(exDyadV(rng, -8, 8)), 12, 3)
					sb := exRandSweep(rng, bv.Add(exDyadV(rng, -8, 8)), 12, 3)
					for _, c := range []*toiCase{newTOICase(a, sa, b, sb), newTOICase(b, sb, a, sa)} {
						if c.check(t, samples) {
							hits++
						}
						total++
						exact += c.exact
					}
					if t.Failed() {
						return
					}
				}
			})
		}
	}
	t.Logf("%d sweeps, %d hits, %d exact gap evaluations", total, hits, exact)
}

// TestExactOracleTOIComposite compares TimeOfImpact of compounds and
// chains (part by part, each carried by its body's sweep) against random
// shapes of any kind with the sampling oracle.
func TestExactOracleTOIComposite(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 8))
	n := exCases(40)
	samples := 150
	if testing.Short() {
		samples = 80
	}
	total, hits := 0, 0
	for range n {
		a, b := exRandAnyShape(rng), exRandAnyShape(rng)
		if a.Kind().Convex() && b.Kind().Convex() {
			continue
		}
		base := exBases[rng.IntN(len(exBases))]
		bv := shape.V(base, base)
		sa := exRandSweep(rng, bv.Add(exDyadV(rng, -4, 4)), 8, 3)
		sb := exRandSweep(rng, bv.Add(exDyadV(rng, -4, 4)), 8, 3)
		if rng.IntN(2) == 0 { // a still chain or compound: the path filter's case
			sa.P1, sa.A1 = sa.P0, sa.A0
		}
		for _, c := range []*toiCase{newTOICase(a, sa, b, sb), newTOICase(b, sb, a, sa)} {
			if c.check(t, samples) {
				hits++
			}
			total++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d sweeps, %d hits", total, hits)
}

// TestExactOracleTOIUgly runs hand-built sweeps: touching and overlapping
// at the start, exact grazes, spins in place, thin shapes and far
// coordinates, each with the expected hit and, where known exactly, time.
func TestExactOracleTOIUgly(t *testing.T) {
	circle := func(r float64) shape.Shape { s, _ := shape.NewCircle(r); return s }
	obb := func(hw, hh float64) shape.Shape { s, _ := shape.NewOBB(hw, hh); return s }
	aabb := func(hw, hh float64) shape.Shape { s, _ := shape.NewAABB(hw, hh); return s }
	seg := func(x0, y0, x1, y1 float64) shape.Shape {
		s, _ := shape.NewSegment(shape.V(x0, y0), shape.V(x1, y1))
		return s
	}
	caps := func(x0, y0, x1, y1, r float64) shape.Shape {
		s, _ := shape.NewCapsule(shape.V(x0, y0), shape.V(x1, y1), r)
		return s
	}
	still := func(x, y, a float64) narrowphase.Sweep {
		return narrowphase.Sweep{P0: shape.V(x, y), P1: shape.V(x, y), A0: a, A1: a}
	}
	move := func(x0, y0, x1, y1, a0, a1 float64) narrowphase.Sweep {
		return narrowphase.Sweep{P0: shape.V(x0, y0), P1: shape.V(x1, y1), A0: a0, A1: a1}
	}
	type tc struct {
		name   string
		a      shape.Shape
		sa     narrowphase.Sweep
		b      shape.Shape
		sb     narrowphase.Sweep
		hit    int     // 1 hit, 0 no hit, -1 either (a graze within tolerance)
		want   float64 // the exact time when >= 0
		wantOK bool
	}
	var cases []tc
	for _, base := range []float64{0, 1e6, 1e7, 1e12} {
		p := func(name string) string { return fmt.Sprintf("%s@%g", name, base) }
		b := base
		cases = append(cases,
			tc{name: p("boxes touching at start, parting"), a: aabb(1, 1), sa: move(b, b, b-1, b, 0, 0), b: aabb(1, 1), sb: still(b+2, b, 0), hit: 1, want: 0, wantOK: true},
			tc{name: p("boxes touching at start, closing"), a: aabb(1, 1), sa: move(b, b, b+1, b, 0, 0), b: aabb(1, 1), sb: still(b+2, b, 0), hit: 1, want: 0, wantOK: true},
			tc{name: p("obb overlapping at start, spinning"), a: obb(1, 0.25), sa: move(b, b, b, b, 0, 3), b: circle(0.5), sb: still(b+1, b, 0), hit: 1, want: 0, wantOK: true},
			tc{name: p("circles head on"), a: circle(1), sa: move(b, b, b+8, b, 0, 0), b: circle(1), sb: still(b+6, b, 0), hit: 1, want: 0.5, wantOK: true},
			tc{name: p("circle grazing a box edge"), a: circle(1), sa: move(b-5, b+2, b+5, b+2, 0, 0), b: aabb(1, 1), sb: still(b, b, 0), hit: -1},
			tc{name: p("circle missing a box by 1e-3"), a: circle(1), sa: move(b-5, b+2.001, b+5, b+2.001, 0, 0), b: aabb(1, 1), sb: still(b, b, 0), hit: 0},
			tc{name: p("stick spinning onto a circle"), a: obb(5, 1.0/1024), sa: move(b, b, b, b, 0, 3), b: circle(0.25), sb: still(b, b+4, 0), hit: 1},
			tc{name: p("stick spinning short of a circle"), a: obb(5, 1.0/1024), sa: move(b, b, b, b, 0, 3), b: circle(0.25), sb: still(b, b+5.5, 0), hit: 0},
			tc{name: p("spinning segment against a spinning capsule"), a: seg(-3, 0, 3, 0), sa: move(b, b, b+1, b, 0, 3), b: caps(-1, 0, 1, 0, 0.125), sb: move(b+2, b+3, b+2, b+1, 1, -2), hit: 1},
			tc{name: p("thin boxes crossing fast"), a: obb(1.0/1024, 2), sa: move(b-10, b, b+10, b, 0, 0), b: obb(1.0/1024, 2), sb: still(b, b, 0), hit: 1},
			tc{name: p("spinning box passing a box"), a: obb(2, 0.5), sa: move(b-6, b, b+6, b, 0, 3), b: aabb(0.5, 0.5), sb: still(b, b+2.75, 0), hit: -1},
		)
	}
	samples := 200
	if testing.Short() {
		samples = 40
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, swap := range []bool{false, true} {
				tcase := newTOICase(c.a, c.sa, c.b, c.sb)
				if swap {
					tcase = newTOICase(c.b, c.sb, c.a, c.sa)
				}
				got, ok := narrowphase.TimeOfImpact(tcase.a, tcase.sa, tcase.b, tcase.sb)
				if c.hit >= 0 && ok != (c.hit == 1) {
					t.Errorf("TimeOfImpact(swap %v) = %v, %v, want hit %v: %v", swap, got, ok, c.hit == 1, tcase)
				}
				if c.wantOK && ok {
					// Within the contract's 1e-6·size of touching: the time
					// within that over the closing speed.
					if math.Abs(got-c.want) > 1e-5 {
						t.Errorf("TimeOfImpact(swap %v) = %v, want %v: %v", swap, got, c.want, tcase)
					}
				}
				tcase.check(t, samples)
			}
		})
	}
}
