package narrowphase_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// This file holds an oracle for the narrow phase that shares no code with it.
// It places each shape in the world by its own arithmetic (a disc, or the
// counter-clockwise world vertices of a convex polygon) and works with
// support functions only.
//
// For convex A and B, let h(d) = max_{a∈A} a·d − min_{b∈B} b·d: the distance
// B must travel along the unit direction d before the two are separated by a
// line normal to d. The shapes overlap iff h(d) > 0 for every d, and the
// penetration depth (the length of the minimum translation vector applied to
// B) is min_d h(d), reached at the MTV direction. h is the support function
// of the Minkowski difference A − B, whose boundary directions are the face
// normals of A, the negated face normals of B, and, where a disc is involved,
// the directions between the disc centre and the other shape's vertices (the
// rounded corners) or between the two centres. Every direction gives an upper
// bound, so the minimum over that finite set (taken in both signs) is exact.
// A dense sample of directions serves as an independent sanity bound.

// npSeedFlag is the flag that fixes the seed of the random property and
// oracle tests. It is registered here unless another test file of the test
// binary has already registered the same name, so that the two can coexist.
const npSeedFlag = "seed"

func init() {
	if flag.Lookup(npSeedFlag) == nil {
		flag.Uint64(npSeedFlag, 0, "seed for the random narrow-phase tests (0: pick one at random)")
	}
}

// npSeed returns the seed given with -seed, or a random one.
func npSeed(t *testing.T) uint64 {
	t.Helper()
	if f := flag.Lookup(npSeedFlag); f != nil {
		s := f.Value.String()
		if v, err := strconv.ParseUint(s, 0, 64); err == nil && v != 0 {
			return v
		}
		if v, err := strconv.ParseInt(s, 0, 64); err == nil && v != 0 {
			return uint64(v)
		}
	}
	return randomSeed()
}

// npLogSeed prints how to replay t with the same seed if it fails.
func npLogSeed(t *testing.T, seed uint64) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("seed %d: replay with go test ./narrowphase -run '^%s$' -seed %d",
				seed, strings.SplitN(t.Name(), "/", 2)[0], seed)
		}
	})
}

// npShape is a shape npShape in the world: a disc, or a convex polygon with
// counter-clockwise world vertices and their outward unit edge normals.
type npShape struct {
	kind    shape.Kind
	disc    bool
	c       shape.Vec2 // disc centre
	r       float64    // disc radius
	verts   []shape.Vec2
	normals []shape.Vec2
	// rad grows a capsule's or segment's two-vertex core (0 for a segment
	// and for polygons).
	rad float64
}

// npPlace computes the world geometry of s under t without the narrow phase.
// An AABB ignores the rotation of its transform.
func npPlace(s shape.Shape, t shape.Transform) npShape {
	cs, sn := t.Rot.Cos(), t.Rot.Sin()
	if s.Kind() == shape.KindAABB {
		cs, sn = 1, 0
	}
	world := func(p shape.Vec2) shape.Vec2 {
		return shape.Vec2{
			X: t.Pos.X + (cs*p.X - sn*p.Y),
			Y: t.Pos.Y + (sn*p.X + cs*p.Y),
		}
	}
	p := npShape{kind: s.Kind()}
	var local []shape.Vec2
	switch s.Kind() {
	case shape.KindCircle:
		p.disc = true
		p.c = world(s.Center())
		p.r = s.Radius()
		return p
	case shape.KindAABB, shape.KindOBB:
		h := s.HalfExtents()
		local = []shape.Vec2{{X: -h.X, Y: -h.Y}, {X: h.X, Y: -h.Y}, {X: h.X, Y: h.Y}, {X: -h.X, Y: h.Y}}
	case shape.KindPolygon:
		local = s.Vertices()
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		local = []shape.Vec2{p0, p1}
		p.rad = s.Radius()
	}
	p.verts = make([]shape.Vec2, len(local))
	for i, v := range local {
		p.verts[i] = world(v)
	}
	p.normals = make([]shape.Vec2, len(local))
	for i := range p.verts {
		a, b := p.verts[i], p.verts[(i+1)%len(p.verts)]
		e := shape.Vec2{X: b.X - a.X, Y: b.Y - a.Y}
		l := math.Hypot(e.X, e.Y)
		p.normals[i] = shape.Vec2{X: e.Y / l, Y: -e.X / l}
	}
	return p
}

func npDot(a, b shape.Vec2) float64 { return a.X*b.X + a.Y*b.Y }

// maxAlong returns max over the shape of p·d, for a unit d.
func (p npShape) maxAlong(d shape.Vec2) float64 {
	if p.disc {
		return npDot(p.c, d) + p.r
	}
	m := math.Inf(-1)
	for _, v := range p.verts {
		m = math.Max(m, npDot(v, d))
	}
	return m + p.rad
}

// minAlong returns min over the shape of p·d, for a unit d.
func (p npShape) minAlong(d shape.Vec2) float64 {
	if p.disc {
		return npDot(p.c, d) - p.r
	}
	m := math.Inf(1)
	for _, v := range p.verts {
		m = math.Min(m, npDot(v, d))
	}
	return m - p.rad
}

// npPush returns h(d): how far B must move along the unit d to leave A behind
// a line normal to d. It is negative when d already separates them.
func npPush(a, b npShape, d shape.Vec2) float64 { return a.maxAlong(d) - b.minAlong(d) }

// npOverlapAlong returns the overlap of the projections of A and B on d.
func npOverlapAlong(a, b npShape, d shape.Vec2) float64 {
	return math.Min(npPush(a, b, d), npPush(a, b, shape.Vec2{X: -d.X, Y: -d.Y}))
}

// npExtent returns the largest coordinate magnitude and size of the pair: the
// scale against which rounding errors are measured.
func npExtent(ps ...npShape) float64 {
	s := 1.0
	for _, p := range ps {
		if p.disc {
			s = math.Max(s, math.Max(math.Abs(p.c.X), math.Abs(p.c.Y))+p.r)
		}
		for _, v := range p.verts {
			s = math.Max(s, math.Max(math.Abs(v.X), math.Abs(v.Y))+p.rad)
		}
	}
	return s
}

// oracleResult is the oracle's answer for a pair: Depth = min_d h(d) (≤ 0
// when the shapes are apart or touch) and a direction reaching it.
type oracleResult struct {
	Depth  float64
	Normal shape.Vec2
}

// Hit reports whether the oracle sees a strict overlap.
func (o oracleResult) Hit() bool { return o.Depth > 0 }

// candidateAxes returns the directions among which min_d h(d) is reached.
func candidateAxes(a, b npShape) []shape.Vec2 {
	axes := []shape.Vec2{{X: 1}, {Y: 1}}
	axes = append(axes, a.normals...)
	axes = append(axes, b.normals...)
	addDir := func(from, to shape.Vec2) {
		d := shape.Vec2{X: to.X - from.X, Y: to.Y - from.Y}
		if l := math.Hypot(d.X, d.Y); l > 0 {
			axes = append(axes, shape.Vec2{X: d.X / l, Y: d.Y / l})
		}
	}
	// Rounded shapes (discs, capsules) may meet vertex to vertex of their
	// cores grown by the radii: the direction between the two core points.
	if a.disc || b.disc || a.rad > 0 || b.rad > 0 {
		for _, p := range a.core() {
			for _, q := range b.core() {
				addDir(p, q)
			}
		}
	}
	n := len(axes)
	for i := range n {
		axes = append(axes, shape.Vec2{X: -axes[i].X, Y: -axes[i].Y})
	}
	return axes
}

// exactOracle returns the penetration depth of B into A and its direction.
func exactOracle(a, b npShape) oracleResult {
	best := oracleResult{Depth: math.Inf(1)}
	for _, d := range candidateAxes(a, b) {
		if h := npPush(a, b, d); h < best.Depth {
			best = oracleResult{Depth: h, Normal: d}
		}
	}
	return best
}

// sampledOracle returns min h(d) over n evenly spaced directions: an upper
// bound of the exact depth that converges to it as n grows.
func sampledOracle(a, b npShape, n int) oracleResult {
	best := oracleResult{Depth: math.Inf(1)}
	for i := range n {
		s, c := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		d := shape.Vec2{X: c, Y: s}
		if h := npPush(a, b, d); h < best.Depth {
			best = oracleResult{Depth: h, Normal: d}
		}
	}
	return best
}

// npDiameter returns the largest distance from the pair's common centre to any
// of their points, which bounds how fast h(d) changes with the angle of d.
func npDiameter(a, b npShape) float64 {
	m := 0.0
	for _, p := range []npShape{a, b} {
		if p.disc {
			m = math.Max(m, math.Hypot(p.c.X, p.c.Y)+p.r)
		}
		for _, v := range p.verts {
			m = math.Max(m, math.Hypot(v.X, v.Y)+p.rad)
		}
	}
	return 2 * m
}

// core returns the points whose convex hull is the shape's core: a disc's
// centre, or the vertices.
func (p npShape) core() []shape.Vec2 {
	if p.disc {
		return []shape.Vec2{p.c}
	}
	return p.verts
}

// distTo returns the Euclidean distance from q to the shape, 0 inside.
func (p npShape) distTo(q shape.Vec2) float64 {
	if p.disc {
		return math.Max(0, math.Hypot(q.X-p.c.X, q.Y-p.c.Y)-p.r)
	}
	inside := len(p.verts) > 2 // a segment core has no inside
	best := math.Inf(1)
	for i, a := range p.verts {
		b := p.verts[(i+1)%len(p.verts)]
		e := shape.Vec2{X: b.X - a.X, Y: b.Y - a.Y}
		w := shape.Vec2{X: q.X - a.X, Y: q.Y - a.Y}
		if e.X*w.Y-e.Y*w.X < 0 {
			inside = false
		}
		u := math.Max(0, math.Min(1, npDot(w, e)/npDot(e, e)))
		best = math.Min(best, math.Hypot(w.X-u*e.X, w.Y-u*e.Y))
	}
	if inside {
		return 0
	}
	return math.Max(0, best-p.rad)
}

// Helpers for building test shapes.

func npCircle(t testing.TB, r float64) shape.Shape {
	t.Helper()
	s, err := shape.NewCircle(r)
	if err != nil {
		t.Fatalf("NewCircle(%v): %v", r, err)
	}
	return s
}

func npOffsetCircle(t testing.TB, c shape.Vec2, r float64) shape.Shape {
	t.Helper()
	s, err := shape.NewOffsetCircle(c, r)
	if err != nil {
		t.Fatalf("NewOffsetCircle(%v, %v): %v", c, r, err)
	}
	return s
}

func npAABB(t testing.TB, hw, hh float64) shape.Shape {
	t.Helper()
	s, err := shape.NewAABB(hw, hh)
	if err != nil {
		t.Fatalf("NewAABB(%v, %v): %v", hw, hh, err)
	}
	return s
}

func npOBB(t testing.TB, hw, hh float64) shape.Shape {
	t.Helper()
	s, err := shape.NewOBB(hw, hh)
	if err != nil {
		t.Fatalf("NewOBB(%v, %v): %v", hw, hh, err)
	}
	return s
}

func npCapsule(t testing.TB, p0, p1 shape.Vec2, r float64) shape.Shape {
	t.Helper()
	s, err := shape.NewCapsule(p0, p1, r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func npSegment(t testing.TB, p0, p1 shape.Vec2) shape.Shape {
	t.Helper()
	s, err := shape.NewSegment(p0, p1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func npPolygon(t testing.TB, verts ...shape.Vec2) shape.Shape {
	t.Helper()
	s, err := shape.NewPolygon(verts)
	if err != nil {
		t.Fatalf("NewPolygon(%v): %v", verts, err)
	}
	return s
}

func xy(x, y float64) shape.Vec2 { return shape.Vec2{X: x, Y: y} }

// npAt returns a transform at (x, y) rotated by angle radians.
func npAt(x, y, angle float64) shape.Transform { return shape.NewTransform(xy(x, y), angle) }

// Exact quarter turns, with cos and sin stored exactly.
var (
	npRot90  = shape.RotFromCosSin(0, 1)
	npRot180 = shape.RotFromCosSin(-1, 0)
	npRot270 = shape.RotFromCosSin(0, -1)
)

// npGoLit renders a shape and transform as Go source, exactly, so that a
// failing random case can be pasted into a test.
func npGoLit(s shape.Shape, t shape.Transform) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	vec := func(p shape.Vec2) string { return "xy(" + f(p.X) + ", " + f(p.Y) + ")" }
	var b strings.Builder
	switch s.Kind() {
	case shape.KindCircle:
		fmt.Fprintf(&b, "npOffsetCircle(t, %s, %s)", vec(s.Center()), f(s.Radius()))
	case shape.KindAABB:
		fmt.Fprintf(&b, "npAABB(t, %s, %s)", f(s.HalfExtents().X), f(s.HalfExtents().Y))
	case shape.KindOBB:
		fmt.Fprintf(&b, "npOBB(t, %s, %s)", f(s.HalfExtents().X), f(s.HalfExtents().Y))
	case shape.KindPolygon:
		b.WriteString("npPolygon(t")
		for _, p := range s.Vertices() {
			b.WriteString(", " + vec(p))
		}
		b.WriteString(")")
	case shape.KindCapsule:
		p0, p1 := s.Segment()
		fmt.Fprintf(&b, "npCapsule(t, %s, %s, %s)", vec(p0), vec(p1), f(s.Radius()))
	case shape.KindSegment:
		p0, p1 := s.Segment()
		fmt.Fprintf(&b, "npSegment(t, %s, %s)", vec(p0), vec(p1))
	}
	fmt.Fprintf(&b, ", shape.Transform{Pos: %s, Rot: shape.RotFromCosSin(%s, %s)}",
		vec(t.Pos), f(t.Rot.Cos()), f(t.Rot.Sin()))
	return b.String()
}

// npDescribe renders a pair for failure messages.
func npDescribe(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) string {
	return "A: " + npGoLit(a, ta) + "\n\tB: " + npGoLit(b, tb)
}

// TestOracleHandCases checks the oracle itself against hand-computed depths,
// so that the property tests rest on something verified.
func TestOracleHandCases(t *testing.T) {
	sq2 := math.Sqrt2
	tests := []struct {
		name   string
		a      shape.Shape
		ta     shape.Transform
		b      shape.Shape
		tb     shape.Transform
		depth  float64 // min_d h(d); ≤ 0 when apart
		normal shape.Vec2
	}{
		{"circles overlap", npCircle(t, 1), npAt(0, 0, 0), npCircle(t, 0.5), npAt(1.2, 0, 0), 0.3, xy(1, 0)},
		{"circles 3-4-5 apart", npCircle(t, 2), npAt(0, 0, 0), npCircle(t, 2), npAt(3, 4, 0), -1, xy(0.6, 0.8)},
		{"boxes x overlap", npAABB(t, 1, 1), npAt(0, 0, 0), npAABB(t, 1, 1), npAt(1.5, 0.2, 0), 0.5, xy(1, 0)},
		{"aabb ignores rotation", npAABB(t, 2, 0.5), npAt(0, 0, math.Pi/2), npAABB(t, 0.5, 0.5), npAt(2.2, 0, 0), 0.3, xy(1, 0)},
		{"obb follows rotation", npOBB(t, 2, 0.5), npAt(0, 0, math.Pi/2), npAABB(t, 0.5, 0.5), npAt(0, 2.2, 0), 0.3, xy(0, 1)},
		{"circle at box corner apart", npAABB(t, 1, 1), npAt(0, 0, 0), npCircle(t, 1), npAt(1.8, 1.8, 0), 1 - 0.8*sq2, xy(1/sq2, 1/sq2)},
		{"circle at box corner overlap", npAABB(t, 1, 1), npAt(0, 0, 0), npCircle(t, 1), npAt(1.6, 1.6, 0), 1 - 0.6*sq2, xy(1/sq2, 1/sq2)},
		{"circle inside box", npAABB(t, 5, 3), npAt(0, 0, 0), npCircle(t, 0.5), npAt(3.5, 2.2, 0), 1.3, xy(0, 1)},
		{"box inside circle", npCircle(t, 5), npAt(0, 0, 0), npAABB(t, 0.5, 0.5), npAt(2, 1, 0), 5 - math.Sqrt(2.5), xy(3/math.Sqrt(10), 1/math.Sqrt(10))},
		{"triangle vertex into box face", npAABB(t, 1, 1), npAt(0, 0, 0), npPolygon(t, xy(0.75, 0), xy(2, -1), xy(2, 1)), npAt(0, 0, 0), 0.25, xy(1, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := npPlace(tc.a, tc.ta), npPlace(tc.b, tc.tb)
			got := exactOracle(a, b)
			if math.Abs(got.Depth-tc.depth) > 1e-12 {
				t.Errorf("exactOracle depth = %.15g, want %.15g", got.Depth, tc.depth)
			}
			if tc.depth > 0 && math.Hypot(got.Normal.X-tc.normal.X, got.Normal.Y-tc.normal.Y) > 1e-12 {
				t.Errorf("exactOracle normal = %v, want %v", got.Normal, tc.normal)
			}
			s := sampledOracle(a, b, 3600)
			if s.Depth < got.Depth-1e-12 {
				t.Errorf("sampled depth %.15g below exact %.15g", s.Depth, got.Depth)
			}
		})
	}
}

// TestOracleExactVsSampled checks on random pairs that the exact oracle's
// candidate axes really contain the minimum: a dense sample of directions
// never finds a smaller h(d), and comes within its angular resolution.
func TestOracleExactVsSampled(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x0bac1e))
	n := 2000
	if testing.Short() {
		n = 200
	}
	const dirs = 3600
	for i := range n {
		ka, kb := npKinds[rng.IntN(len(npKinds))], npKinds[rng.IntN(len(npKinds))]
		sa, ta, sb, tb := npRandomPair(t, rng, ka, kb)
		a, b := npPlace(sa, ta), npPlace(sb, tb)
		ex := exactOracle(a, b)
		sm := sampledOracle(a, b, dirs)
		// h is Lipschitz in the angle with constant ≤ diameter, and the
		// minimiser is at most half a sample step away from a sample. Apart,
		// the exact oracle only promises the sign: its axes find a
		// separating line, not the distance.
		slack := npDiameter(a, b) * math.Pi / dirs
		tol := 1e-12 * npExtent(a, b)
		bad := sm.Depth > ex.Depth+slack
		if ex.Depth > 0 {
			bad = bad || sm.Depth < ex.Depth-tol
		} else {
			bad = bad || sm.Depth > slack
		}
		if bad {
			t.Fatalf("case %d: exact oracle %.15g, sampled %.15g (slack %.3g)\n\t%s",
				i, ex.Depth, sm.Depth, slack, npDescribe(sa, ta, sb, tb))
		}
	}
}
