package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// poEps is the machine epsilon of float64.
const poEps = 0x1p-52

// poWallPolygon is the polygon twin of NewAABB(5, 0.1).
func poWallPolygon(t testing.TB) shape.Shape {
	t.Helper()
	return npPolygon(t, xy(-5, -0.1), xy(5, -0.1), xy(5, 0.1), xy(-5, 0.1))
}

// TestMTVLeavesOverlapPushOutClears is the push-out bug: a ball moved by the
// exact MTV out of a thin wall stayed a few ulps deep (5.7e-15 for the AABB
// wall as reported), so the pair was a contact again at the next step.
// PushOut must clear every one of these, in both orders, by the MTV plus a
// few ulps.
func TestMTVLeavesOverlapPushOutClears(t *testing.T) {
	ball := npCircle(t, 0.5)
	tests := []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}{
		{
			"ball-aabb wall as reported",
			ball, shape.NewTransform(shape.V(305.87970620406844, 204.8299071893968), 0),
			npAABB(t, 5, 0.1), shape.NewTransform(shape.V(306.0263755525278, 205.25976488989696), 0),
		},
		{
			"ball-obb wall turned",
			ball, shape.NewTransform(shape.V(302.0114604523369, 209.38268080317735), 0),
			npOBB(t, 5, 0.1), shape.NewTransform(shape.V(303.41642591469946, 208.10218815710735), -0.866),
		},
		{
			"ball-polygon wall turned",
			ball, shape.NewTransform(shape.V(309.60430217923755, 208.96939738334817), 0),
			poWallPolygon(t), shape.NewTransform(shape.V(309.3598963598027, 209.225165556979), 0.418),
		},
	}
	for _, tc := range tests {
		for _, swap := range []bool{false, true} {
			a, ta, b, tb := tc.a, tc.ta, tc.b, tc.tb
			name := tc.name + "/ball moved"
			if swap {
				a, ta, b, tb = b, tb, a, ta
				name = tc.name + "/wall moved"
			}
			t.Run(name, func(t *testing.T) {
				m, ok := narrowphase.Collide(a, ta, b, tb)
				if !ok {
					t.Fatalf("Collide(%s, %s) = no contact: the case proves nothing", a.Kind(), b.Kind())
				}
				if _, still := narrowphase.Collide(a, npMoved(ta, m.MTV().Neg()), b, tb); !still && !swap {
					// Not a failure: Collide may have become exact here.
					// The PushOut checks below still hold.
					t.Logf("the plain MTV now clears this case: it no longer reproduces the bug")
				}
				d, ok := narrowphase.PushOut(a, ta, b, tb)
				if !ok {
					t.Fatalf("PushOut(%s, %s) ok = false, want true (Collide depth %g)", a.Kind(), b.Kind(), m.Depth)
				}
				poCheckPushed(t, a, ta, b, tb, m, d)
			})
		}
	}
}

// TestPushOutApart checks that PushOut leaves apart and touching pairs
// alone: the zero vector and false, in both orders.
func TestPushOutApart(t *testing.T) {
	tests := []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}{
		{"ball far above wall", npCircle(t, 0.5), npAt(0, 3, 0), npAABB(t, 5, 0.1), npAt(0, 0, 0)},
		{"ball touching wall", npCircle(t, 0.5), npAt(1, 0.6, 0), npAABB(t, 5, 0.1), npAt(0, 0, 0)},
		{"boxes touching faces", npOBB(t, 1, 1), npAt(0, 0, 0), npOBB(t, 1, 1), npAt(2, 0.5, 0)},
		{"invalid shape", shape.Shape{}, npAt(0, 0, 0), npAABB(t, 5, 0.1), npAt(0, 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, swap := range []bool{false, true} {
				a, ta, b, tb := tc.a, tc.ta, tc.b, tc.tb
				if swap {
					a, ta, b, tb = b, tb, a, ta
				}
				if d, ok := narrowphase.PushOut(a, ta, b, tb); ok || d != (shape.Vec2{}) {
					t.Errorf("PushOut(%s, %s) = %v, %v; want (0, 0), false", a.Kind(), b.Kind(), d, ok)
				}
			}
		})
	}
}

// TestPushOutExtremeScales checks PushOut at the edges of the float64
// range, both orders: subnormal sizes, where rounding is absolute and the
// first margin (the smallest positive float64) can fall short so that the
// margin has to double; shapes of 1e150; and positions of 1e300 and near
// the largest float64, where a few ulps of the coordinates are about 1e285
// and no smaller move changes a position at all. The answer must be finite,
// point against the normal and leave no contact.
func TestPushOutExtremeScales(t *testing.T) {
	tests := []struct {
		name    string
		a       shape.Shape
		ta      shape.Transform
		b       shape.Shape
		tb      shape.Transform
		doubles bool // the first margin does not clear A moved out of B
	}{
		{"subnormal boxes", npOBB(t, 8e-310, 7e-310), npAt(2e-310, 5e-310, 1.1), npAABB(t, 1e-310, 4e-310), npAt(0, 0, 0), true},
		{"boxes of 1e150", npOBB(t, 1e150, 5e149), npAt(1e150, 0, 0.3), npAABB(t, 1e150, 1e150), npAt(2e150, 3e149, 0), false},
		{"circles of 1e150", npCircle(t, 1e150), npAt(1e150, 0, 0), npCircle(t, 1e150), npAt(2e150, 3e149, 0), false},
		{"boxes at 1e300", npOBB(t, 1, 2), npAt(1e300, 0, 0.3), npAABB(t, 1, 1), npAt(1e300, 1, 0), false},
		{"circles near the float64 range", npCircle(t, 1), npAt(1.7e308, 0, 0), npCircle(t, 1), npAt(1.7e308, 1, 0), false},
		{"polygon near the float64 range", npPolygon(t, xy(0, 0), xy(1, 0), xy(0, 1)), npAt(1.7e308, 1.7e308, 0.3), npCircle(t, 1), npAt(1.7e308, 1.7e308, 0), false},
	}
	for _, tc := range tests {
		for _, swap := range []bool{false, true} {
			a, ta, b, tb := tc.a, tc.ta, tc.b, tc.tb
			name := tc.name + "/a moved"
			if swap {
				a, ta, b, tb = b, tb, a, ta
				name = tc.name + "/b moved"
			}
			t.Run(name, func(t *testing.T) {
				m, ok := narrowphase.Collide(a, ta, b, tb)
				if !ok {
					t.Fatalf("Collide(%s, %s) = no contact: the case proves nothing", a.Kind(), b.Kind())
				}
				d, ok := narrowphase.PushOut(a, ta, b, tb)
				if !ok || !d.IsFinite() {
					t.Fatalf("PushOut(%s, %s) = %v, %v; want a finite translation and true", a.Kind(), b.Kind(), d, ok)
				}
				if m2, hit := narrowphase.Collide(a, npMoved(ta, d), b, tb); hit {
					t.Errorf("Collide(%s, %s) after PushOut by %v: still a contact of depth %g", a.Kind(), b.Kind(), d, m2.Depth)
				}
				if !(d.Dot(m.Normal) < 0) {
					t.Errorf("PushOut(%s, %s) = %v, not against the normal %v", a.Kind(), b.Kind(), d, m.Normal)
				}
				// The first try, as PushOut documents it; a subnormal
				// scale rounds 4·ε·s to zero, hence the floor.
				slop := math.Max(4*poEps*poScale(a, ta, b, tb, m.Depth), math.SmallestNonzeroFloat64)
				_, firstHit := narrowphase.Collide(a, npMoved(ta, m.Normal.Neg().Scale(m.Depth+slop)), b, tb)
				if tc.doubles && !swap && !firstHit {
					t.Logf("the first margin now clears: this case no longer exercises the doubling")
				}
			})
		}
	}
}

// poKind is a kind of random shape for the property test: the shape kinds,
// with circles split into centred and offset ones.
type poKind int

const (
	poCircle poKind = iota
	poOffsetCircle
	poAABB
	poOBB
	poPolygon
)

var poKinds = []poKind{poCircle, poOffsetCircle, poAABB, poOBB, poPolygon}

func (k poKind) String() string {
	return [...]string{"circle", "offset-circle", "aabb", "obb", "polygon"}[k]
}

// poShape returns a random shape of kind k whose size (half width, radius)
// is drawn from [lo, hi].
func poShape(t testing.TB, rng *rand.Rand, k poKind, lo, hi float64) shape.Shape {
	t.Helper()
	size := func() float64 { return lo + (hi-lo)*rng.Float64() }
	switch k {
	case poCircle:
		return npCircle(t, size())
	case poOffsetCircle:
		r := size()
		return npOffsetCircle(t, xy(r*(2*rng.Float64()-1), r*(2*rng.Float64()-1)), r)
	case poAABB:
		return npAABB(t, size(), size())
	case poOBB:
		return npOBB(t, size(), size())
	}
	for {
		n := 3 + rng.IntN(shape.MaxPolygonVertices-2)
		sx, sy := size(), size()
		pts := make([]shape.Vec2, n)
		for i := range pts {
			a := 2 * math.Pi * (float64(i) + 0.8*rng.Float64()) / float64(n)
			pts[i] = xy(sx*math.Cos(a), sy*math.Sin(a))
		}
		if s, err := shape.NewPolygon(pts); err == nil {
			return s
		}
	}
}

// poWall returns a long thin wall of kind k, like NewAABB(5, 0.1): a box, a
// thin hexagon with blunt ends for polygons, or for circles a disc so large
// that its rim is nearly straight.
func poWall(t testing.TB, rng *rand.Rand, k poKind) shape.Shape {
	t.Helper()
	hw, hh := 2+4*rng.Float64(), 0.02+0.18*rng.Float64()
	switch k {
	case poCircle:
		return npCircle(t, 5+45*rng.Float64())
	case poOffsetCircle:
		return npOffsetCircle(t, xy(2*rng.Float64()-1, 2*rng.Float64()-1), 5+45*rng.Float64())
	case poAABB:
		return npAABB(t, hw, hh)
	case poOBB:
		return npOBB(t, hw, hh)
	}
	return npPolygon(t, xy(-hw, -hh), xy(hw, -hh), xy(hw+hh/2, 0), xy(hw, hh), xy(-hw, hh), xy(-hw-hh/2, 0))
}

// poScenarios are the placements of the property test.
var poScenarios = []string{"random", "deep", "contained", "wall"}

// poPair returns a random pair of kinds ka and kb near the origin, placed
// as scenario says: "random" overlaps about half of the time, "deep" puts
// the centres close together, "contained" puts a small A inside (or nearly
// inside) a big B, and "wall" makes B a long thin wall with A against one
// of its sides.
func poPair(t testing.TB, rng *rand.Rand, ka, kb poKind, scenario string) (shape.Shape, shape.Transform, shape.Shape, shape.Transform) {
	t.Helper()
	dir := func() shape.Vec2 { s, c := math.Sincos(2 * math.Pi * rng.Float64()); return xy(c, s) }
	ta := shape.Transform{Pos: xy(4*rng.Float64()-2, 4*rng.Float64()-2), Rot: shape.NewRot(npRandomAngle(rng))}
	tb := shape.Transform{Rot: shape.NewRot(npRandomAngle(rng))}
	if rng.IntN(4) == 0 { // faces parallel, or a hair off
		tb.Rot = ta.Rot.Mul(shape.NewRot(float64(rng.IntN(4))*math.Pi/2 + []float64{0, 1e-13, 1e-9}[rng.IntN(3)]))
	}
	var a, b shape.Shape
	switch scenario {
	case "random":
		a, b = poShape(t, rng, ka, 0.1, 3), poShape(t, rng, kb, 0.1, 3)
		tb.Pos = ta.Pos.Add(dir().Scale(1.1 * (a.BoundingRadius() + b.BoundingRadius()) * rng.Float64()))
	case "deep":
		a, b = poShape(t, rng, ka, 0.5, 3), poShape(t, rng, kb, 0.5, 3)
		tb.Pos = ta.Pos.Add(dir().Scale(0.25 * math.Min(a.BoundingRadius(), b.BoundingRadius()) * rng.Float64()))
	case "contained":
		a, b = poShape(t, rng, ka, 0.02, 0.2), poShape(t, rng, kb, 2, 4)
		tb.Pos = ta.Pos.Add(dir().Scale(0.5 * rng.Float64()))
	default: // wall
		a, b = poShape(t, rng, ka, 0.1, 1.5), poWall(t, rng, kb)
		tb.Pos = ta.Pos
		// A's centre goes near the wall's surface, along a random
		// direction from the wall's centre: on a box or polygon wall that
		// is mostly one of the long faces.
		p := npPlace(b, tb)
		u := dir()
		base, edge := tb.Pos, 0.0
		if p.disc {
			base, edge = p.c, p.r
		} else {
			edge = p.maxAlong(u) - npDot(base, u)
		}
		ta.Pos = base.Add(u.Scale(edge + a.BoundingRadius()*(1.3*rng.Float64()-0.3)))
		if !p.disc {
			ta.Pos = ta.Pos.Add(u.Perp().Scale(0.3 * (2*rng.Float64() - 1)))
		}
	}
	return a, ta, b, tb
}

// TestPushOutClearsEveryKindPair pushes random overlapping pairs of every
// kind pair apart, both orders, at coordinates around 1, 300, 1e4 and 1e7:
// mild, deep and containing overlaps and thin walls. After the push Collide
// and Overlap must report no contact and an independent check (a dense
// sample of directions, refined, over geometry placed without the narrow
// phase) must find a separating axis; the push must be the MTV plus a tiny
// margin, along the negated normal. It logs how often the plain MTV leaves
// the pair in contact, the fact the package docs state, and the largest
// margin PushOut needed.
func TestPushOutClearsEveryKindPair(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	t.Logf("seed %d (set with -seed)", seed)
	rng := rand.New(rand.NewPCG(seed, 0x9005))
	rounds := 24
	if testing.Short() {
		rounds = 6
	}
	scales := []float64{1, 300, 1e4, 1e7}
	type tally struct{ pairs, stuck int }
	byScale := map[float64]*tally{}
	byScenario := map[string]*tally{}
	var total tally
	apart, retried := 0, 0
	maxMargin := 0.0 // (|delta| - depth) / (eps·s)
	for _, far := range scales {
		byScale[far] = &tally{}
		for _, scenario := range poScenarios {
			if byScenario[scenario] == nil {
				byScenario[scenario] = &tally{}
			}
			for _, ka := range poKinds {
				for _, kb := range poKinds {
					for range rounds {
						a, ta, b, tb := poPair(t, rng, ka, kb, scenario)
						off := xy(far*(1+rng.Float64()), far*(1+rng.Float64()))
						if rng.IntN(2) == 0 {
							off.X = -off.X
						}
						ta.Pos, tb.Pos = ta.Pos.Add(off), tb.Pos.Add(off)
						m, ok := narrowphase.Collide(a, ta, b, tb)
						if !ok {
							apart++
							if d, ok := narrowphase.PushOut(a, ta, b, tb); ok || d != (shape.Vec2{}) {
								t.Fatalf("PushOut(%s, %s) of a pair apart = %v, %v; want (0, 0), false\n\t%s",
									a.Kind(), b.Kind(), d, ok, npDescribe(a, ta, b, tb))
							}
							continue
						}
						for _, swap := range []bool{false, true} {
							a, ta, b, tb, m := a, ta, b, tb, m
							if swap {
								a, ta, b, tb, m = b, tb, a, ta, m.Flip()
							}
							if _, still := narrowphase.Collide(a, npMoved(ta, m.MTV().Neg()), b, tb); still {
								total.stuck++
								byScale[far].stuck++
								byScenario[scenario].stuck++
							}
							total.pairs++
							byScale[far].pairs++
							byScenario[scenario].pairs++
							d, ok := narrowphase.PushOut(a, ta, b, tb)
							if !ok {
								t.Fatalf("PushOut(%s, %s) ok = false for a contact of depth %g\n\t%s",
									a.Kind(), b.Kind(), m.Depth, npDescribe(a, ta, b, tb))
							}
							if !poCheckPushed(t, a, ta, b, tb, m, d) {
								t.Fatalf("%s %s-%s at %g, swapped %v\n\t%s", scenario, ka, kb, far, swap, npDescribe(a, ta, b, tb))
							}
							margin := (d.Len() - m.Depth) / (poEps * poScale(a, ta, b, tb, m.Depth))
							maxMargin = math.Max(maxMargin, margin)
							if margin > 6 { // the first try is 4 eps, give or take the rounding of |delta|
								retried++
							}
						}
					}
				}
			}
		}
	}
	if total.pairs < 2000 && !testing.Short() {
		t.Fatalf("only %d overlapping pairs: the test proves little", total.pairs)
	}
	pct := func(c *tally) string {
		return fmt.Sprintf("%d/%d (%.1f%%)", c.stuck, c.pairs, 100*float64(c.stuck)/float64(max(c.pairs, 1)))
	}
	t.Logf("moving by the plain MTV left a contact in %s of the pushes; PushOut cleared all (%d pairs apart left alone)", pct(&total), apart)
	for _, far := range scales {
		t.Logf("  coordinates ~%-6g MTV left a contact in %s", far, pct(byScale[far]))
	}
	for _, s := range poScenarios {
		t.Logf("  %-9s MTV left a contact in %s", s, pct(byScenario[s]))
	}
	t.Logf("largest margin beyond the depth: %.1f eps of the pair's scale; %d pushes needed more than the first margin", maxMargin, retried)
}

// poScale mirrors the scale PushOut documents: the largest position
// coordinate, plus the larger bounding radius, plus the depth.
func poScale(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, depth float64) float64 {
	return poCoords(ta, tb) + math.Max(a.BoundingRadius(), b.BoundingRadius()) + depth
}

// poCoords returns the largest coordinate magnitude of the two positions.
func poCoords(ta, tb shape.Transform) float64 {
	return math.Max(math.Max(math.Abs(ta.Pos.X), math.Abs(ta.Pos.Y)), math.Max(math.Abs(tb.Pos.X), math.Abs(tb.Pos.Y)))
}

// poCheckPushed checks one PushOut answer d for the contact m of A and B
// and reports whether all was well: A moved by d is clear of B for Collide,
// for Overlap and for the sampled separating-axis check; d is the MTV
// lengthened by at most 1e-9·(1+|coordinates|), along −Normal.
func poCheckPushed(t *testing.T, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, m narrowphase.Manifold, d shape.Vec2) bool {
	t.Helper()
	good := true
	moved := npMoved(ta, d)
	if m2, hit := narrowphase.Collide(a, moved, b, tb); hit {
		t.Errorf("Collide(%s, %s) after PushOut by %v: still a contact of depth %g", a.Kind(), b.Kind(), d, m2.Depth)
		good = false
	}
	if narrowphase.Overlap(a, moved, b, tb) {
		t.Errorf("Overlap(%s, %s) after PushOut by %v = true, want false", a.Kind(), b.Kind(), d)
		good = false
	}
	pa, pb := npPlace(a, moved), npPlace(b, tb)
	tol := 64 * poEps * npExtent(pa, pb)
	if o, axis := poSampledOverlap(pa, pb); o > tol {
		t.Errorf("sampled SAT after PushOut(%s, %s) by %v: overlap %g along %v > %g, want no overlap",
			a.Kind(), b.Kind(), d, o, axis, tol)
		good = false
	}
	l := d.Len()
	if slack := 1e-9 * (1 + poCoords(ta, tb)); !(l >= m.Depth*(1-4*poEps)) || l-m.Depth > slack {
		t.Errorf("|PushOut(%s, %s)| = %.17g for depth %.17g: want the depth plus at most %g", a.Kind(), b.Kind(), l, m.Depth, slack)
		good = false
	}
	if !(d.Dot(m.Normal) < 0) || math.Abs(d.Cross(m.Normal)) > 4*poEps*l {
		t.Errorf("PushOut(%s, %s) = %v, not along the negated normal %v", a.Kind(), b.Kind(), d, m.Normal)
		good = false
	}
	return good
}

// poSupport returns max over the placed shape p of x·u.
func poSupport(p npShape, u shape.Vec2) float64 {
	if p.disc {
		return p.c.X*u.X + p.c.Y*u.Y + p.r
	}
	m := math.Inf(-1)
	for _, v := range p.verts {
		m = math.Max(m, v.X*u.X+v.Y*u.Y)
	}
	return m
}

// poOverlapAt returns the overlap of the projections of p and q on the
// direction of angle theta: negative when that direction separates them.
func poOverlapAt(p, q npShape, theta float64) float64 {
	s, c := math.Sincos(theta)
	u, v := xy(c, s), xy(-c, -s)
	return math.Min(poSupport(p, u)+poSupport(q, v), poSupport(q, u)+poSupport(p, v))
}

// poSampledOverlap is a separating-axis check that knows nothing of the
// narrow phase's normals: it samples 720 directions, then narrows the best
// one down by golden-section search within a sample step either side (the
// overlap is unimodal that close to its minimum). It returns the smallest
// overlap found and its direction; a value ≤ 0, up to rounding, means the
// shapes are apart or touch.
func poSampledOverlap(p, q npShape) (float64, shape.Vec2) {
	const n = 720
	step := 2 * math.Pi / n
	best, bestTheta := math.Inf(1), 0.0
	for i := range n {
		th := float64(i) * step
		if o := poOverlapAt(p, q, th); o < best {
			best, bestTheta = o, th
		}
	}
	lo, hi := bestTheta-step, bestTheta+step
	g := (math.Sqrt(5) - 1) / 2
	x1, x2 := hi-g*(hi-lo), lo+g*(hi-lo)
	f1, f2 := poOverlapAt(p, q, x1), poOverlapAt(p, q, x2)
	for range 80 {
		if f1 < f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - g*(hi-lo)
			f1 = poOverlapAt(p, q, x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + g*(hi-lo)
			f2 = poOverlapAt(p, q, x2)
		}
	}
	for _, c := range []struct{ f, th float64 }{{f1, x1}, {f2, x2}} {
		if c.f < best {
			best, bestTheta = c.f, c.th
		}
	}
	s, c := math.Sincos(bestTheta)
	return best, xy(c, s)
}

// TestPoSampledOverlap checks the sampled separating-axis check itself on
// hand-made pairs, so that the property test rests on something verified.
func TestPoSampledOverlap(t *testing.T) {
	tests := []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
		want float64 // smallest projection overlap
	}{
		{"boxes overlapping by 0.5", npAABB(t, 1, 1), npAt(0, 0, 0), npAABB(t, 1, 1), npAt(1.5, 0.2, 0), 0.5},
		{"boxes apart by 0.5", npAABB(t, 1, 1), npAt(0, 0, 0), npAABB(t, 1, 1), npAt(2.5, 0.2, 0), -0.5},
		{"boxes touching", npAABB(t, 1, 1), npAt(0, 0, 0), npAABB(t, 1, 1), npAt(2, 0.2, 0), 0},
		{"ball in wall by 0.1", npCircle(t, 0.5), npAt(1, 0.5, 0), npAABB(t, 5, 0.1), npAt(0, 0, 0), 0.1},
		{"diamond touching box corner", npOBB(t, 1, 1), npAt(0, 0, math.Pi/4), npAABB(t, 1, 1), npAt(1+math.Sqrt2, 0, 0), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, axis := poSampledOverlap(npPlace(tc.a, tc.ta), npPlace(tc.b, tc.tb))
			if math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("poSampledOverlap = %.15g along %v, want %.15g", got, axis, tc.want)
			}
		})
	}
}

// TestPushOutAllocatesNothing checks the promise of PushOut's doc.
func TestPushOutAllocatesNothing(t *testing.T) {
	ball, wall := npCircle(t, 0.5), poWallPolygon(t)
	ta, tb := npAt(309.60430217923755, 208.96939738334817, 0), npAt(309.3598963598027, 209.225165556979, 0.418)
	if n := testing.AllocsPerRun(100, func() { narrowphase.PushOut(ball, ta, wall, tb) }); n != 0 {
		t.Errorf("PushOut allocates %v times per call, want 0", n)
	}
}

// BenchmarkPushOut measures PushOut on the reported ball-in-wall contact
// and on a turned polygon wall, both of which the plain MTV leaves in
// contact.
func BenchmarkPushOut(b *testing.B) {
	ball := npCircle(b, 0.5)
	cases := []struct {
		name   string
		wall   shape.Shape
		ta, tb shape.Transform
	}{
		{"circle-aabb", npAABB(b, 5, 0.1), npAt(305.87970620406844, 204.8299071893968, 0), npAt(306.0263755525278, 205.25976488989696, 0)},
		{"circle-poly", poWallPolygon(b), npAt(309.60430217923755, 208.96939738334817, 0), npAt(309.3598963598027, 209.225165556979, 0.418)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			if _, ok := narrowphase.PushOut(ball, c.ta, c.wall, c.tb); !ok {
				b.Fatalf("PushOut(circle, %s) ok = false, want an overlapping configuration", c.wall.Kind())
			}
			var d shape.Vec2
			for b.Loop() {
				d, _ = narrowphase.PushOut(ball, c.ta, c.wall, c.tb)
			}
			_ = d
		})
	}
}

// A ball sunk into a thin wall, pushed out: moved by the plain MTV it is
// still (by a few ulps) in contact, moved by PushOut it is clear.
func ExamplePushOut() {
	ball, _ := shape.NewCircle(0.5)
	wall, _ := shape.NewAABB(5, 0.1)
	wx := shape.NewTransform(shape.V(306.0263755525278, 205.25976488989696), 0)
	p := shape.V(305.87970620406844, 204.8299071893968)

	m, _ := narrowphase.Collide(ball, shape.NewTransform(p, 0), wall, wx)
	fmt.Printf("depth %.3f, normal (%.3f, %.3f)\n", m.Depth, m.Normal.X, m.Normal.Y)

	_, still := narrowphase.Collide(ball, shape.NewTransform(p.Sub(m.MTV()), 0), wall, wx)
	fmt.Println("contact after the plain MTV:", still)

	d, ok := narrowphase.PushOut(ball, shape.NewTransform(p, 0), wall, wx)
	_, still = narrowphase.Collide(ball, shape.NewTransform(p.Add(d), 0), wall, wx)
	fmt.Printf("PushOut %v: %.3f down\n", ok, -d.Y)
	fmt.Println("contact after PushOut:", still)
	// Output:
	// depth 0.170, normal (0.000, 1.000)
	// contact after the plain MTV: true
	// PushOut true: 0.170 down
	// contact after PushOut: false
}
