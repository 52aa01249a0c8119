//go:build box2d

package narrowphase_test

// The Box2D differential tests: Collide, RayCast and Cast against Box2D v3's
// b2Collide*, b2RayCast* and b2ShapeCast on random convex pairs, through the
// C harness testdata/b2diff/b2diff.c. They need gcc and a Box2D build (a
// directory with libbox2d.a and src/include, as
// /work/shared/peers/box2d/build.sh makes it; $COLLIDE_BOX2D, default
// /tmp/b2q), so they sit behind the box2d build tag:
//
//	go test -tags box2d -run '^TestB2Diff' -v ./narrowphase
//	go test -tags box2d -run '^TestB2Diff' -b2diff.n 20000 -seed 7 ./narrowphase
//
// Box2D computes in float32 and is built for simulation, not for exact
// answers: its contact points come from clipping (a point's separation is
// not always the penetration depth), its normals prefer shape A's face by a
// tenth of its linear slop, and its shape cast stops a linear slop short of
// touching (or a slop past it, for rounded shapes). So a disagreement is never
// taken on trust either way: each one is decided by the exact rational
// oracle of exact_oracle_test.go (Minkowski difference, penetration,
// supporting planes, bisection on the exact touch predicate). Our wrong
// answers fail the test; Box2D's are counted by class and logged with a few
// examples, and so are the pairs where the two contracts differ.

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

var (
	b2DiffN     = flag.Int("b2diff.n", 6000, "random cases per query for the TestB2Diff tests")
	b2DiffExact = flag.Bool("b2diff.exact", false, "TestB2DiffCollide: also check every one of our answers (not only disagreements) against the exact oracle")
)

// b2Slop is Box2D's B2_LINEAR_SLOP (constants.h, one length unit per metre):
// the distance its shape cast keeps from touching.
const b2Slop = 0.005

// b2Harness compiles testdata/b2diff/b2diff.c against the Box2D build in
// $COLLIDE_BOX2D (default /tmp/b2q) and returns the program's path.
func b2Harness(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("COLLIDE_BOX2D")
	if dir == "" {
		dir = "/tmp/b2q"
	}
	lib := filepath.Join(dir, "libbox2d.a")
	inc := filepath.Join(dir, "src", "include")
	for _, p := range []string{lib, filepath.Join(inc, "box2d", "collision.h")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("no Box2D build in %s (set COLLIDE_BOX2D): %v", dir, err)
		}
	}
	exe := filepath.Join(t.TempDir(), "b2diff")
	cmd := exec.Command("gcc", "-O2", "-DNDEBUG", "-std=gnu17", "-ffp-contract=off", "-I"+inc,
		filepath.Join("testdata", "b2diff", "b2diff.c"), lib, "-lm", "-o", exe)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the harness: %v\n%s", err, out)
	}
	return exe
}

// b2Ask runs the harness on lines and returns its answers, one field list
// per line.
func b2Ask(t *testing.T, exe string, lines []string) [][]string {
	t.Helper()
	cmd := exec.Command(exe)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v\n%s", err, stderr.String())
	}
	var res [][]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		res = append(res, strings.Fields(sc.Text()))
	}
	if len(res) != len(lines) {
		t.Fatalf("harness answered %d lines for %d", len(res), len(lines))
	}
	for i, f := range res {
		if len(f) > 0 && f[0] == "error" {
			t.Fatalf("harness cannot read line %d: %s", i+1, lines[i])
		}
	}
	return res
}

func b2F(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("harness answer %q: %v", s, err)
	}
	return v
}

func b2Num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// b2Shape describes a convex shape for the harness, in its body's frame. An
// AABB or OBB is a four-vertex polygon, as in Box2D.
func b2Shape(s shape.Shape) string {
	var sb strings.Builder
	verts := func(vs []shape.Vec2) {
		fmt.Fprintf(&sb, "poly %d", len(vs))
		for _, v := range vs {
			sb.WriteString(" " + b2Num(v.X) + " " + b2Num(v.Y))
		}
	}
	switch s.Kind() {
	case shape.KindCircle:
		c := s.Center()
		sb.WriteString("circle " + b2Num(c.X) + " " + b2Num(c.Y) + " " + b2Num(s.Radius()))
	case shape.KindAABB, shape.KindOBB:
		cs := s.Corners()
		verts(cs[:])
	case shape.KindPolygon:
		verts(s.Vertices())
	case shape.KindCapsule:
		p0, p1 := s.Segment()
		sb.WriteString("capsule " + b2Num(p0.X) + " " + b2Num(p0.Y) + " " + b2Num(p1.X) + " " + b2Num(p1.Y) + " " + b2Num(s.Radius()))
	case shape.KindSegment:
		p0, p1 := s.Segment()
		sb.WriteString("segment " + b2Num(p0.X) + " " + b2Num(p0.Y) + " " + b2Num(p1.X) + " " + b2Num(p1.Y))
	default:
		panic("b2Shape: " + s.Kind().String())
	}
	return sb.String()
}

// b2Pose describes the transform that places s: position, cosine, sine.
func b2Pose(s shape.Shape, t shape.Transform) string {
	t = s.EffectiveTransform(t)
	return b2Num(t.Pos.X) + " " + b2Num(t.Pos.Y) + " " + b2Num(t.Rot.Cos()) + " " + b2Num(t.Rot.Sin())
}

// b2Kinds are the convex kinds the tests draw from.
var b2Kinds = []shape.Kind{shape.KindCircle, shape.KindAABB, shape.KindOBB,
	shape.KindPolygon, shape.KindCapsule, shape.KindSegment}

// b2RandShape returns a random shape of kind k about unit size, with
// features no smaller than Box2D's hull welding tolerance and at most
// Box2D's eight polygon vertices. small shrinks it by ten (containment).
func b2RandShape(rng *rand.Rand, k shape.Kind, small bool) shape.Shape {
	sc := (0.5 + 1.5*rng.Float64()) * []float64{1, 1, 1, 1, 10, 100}[rng.IntN(6)]
	if small {
		sc = math.Max(0.02, sc*[]float64{0.1, 0.1, 0.01}[rng.IntN(3)])
	}
	u := func(lo, hi float64) float64 { return sc * (lo + (hi-lo)*rng.Float64()) }
	// thin draws one dimension of a sliver some of the time: a plank, a
	// needle of a polygon, a capsule with a hairline radius.
	thin := rng.IntN(5) == 0
	th := func(lo, hi float64) float64 {
		if thin {
			return u(0.005, 0.03)
		}
		return u(lo, hi)
	}
	for {
		var s shape.Shape
		var err error
		switch k {
		case shape.KindCircle:
			c := shape.Vec2{}
			if rng.IntN(3) == 0 {
				c = shape.V(u(-0.5, 0.5), u(-0.5, 0.5))
			}
			s, err = shape.NewOffsetCircle(c, u(0.1, 1))
		case shape.KindAABB:
			s, err = shape.NewAABB(u(0.1, 1), th(0.1, 1))
		case shape.KindOBB:
			s, err = shape.NewOBB(th(0.1, 1), u(0.1, 1))
		case shape.KindPolygon:
			n := 3 + rng.IntN(6)
			angles := make([]float64, n)
			for i := range angles {
				angles[i] = (float64(i) + 0.7*rng.Float64()) * 2 * math.Pi / float64(n)
			}
			off := shape.V(u(-0.3, 0.3), u(-0.3, 0.3))
			ax, ay := u(0.4, 1), th(0.4, 1)
			pts := make([]shape.Vec2, n)
			for i, a := range angles {
				j := 0.75 + 0.25*rng.Float64()
				pts[i] = off.Add(shape.V(ax*j*math.Cos(a), ay*j*math.Sin(a)))
			}
			s, err = shape.ConvexHull(pts)
			if err == nil && !b2Sturdy(s.Vertices(), 0.002*sc) {
				continue
			}
		case shape.KindCapsule:
			p0 := shape.V(u(-0.5, 0.5), u(-0.5, 0.5))
			a := rng.Float64() * 2 * math.Pi
			s, err = shape.NewCapsule(p0, p0.Add(shape.V(math.Cos(a), math.Sin(a)).Scale(u(0.1, 1.5))), th(0.05, 0.6))
		case shape.KindSegment:
			p0 := shape.V(u(-0.5, 0.5), u(-0.5, 0.5))
			a := rng.Float64() * 2 * math.Pi
			s, err = shape.NewSegment(p0, p0.Add(shape.V(math.Cos(a), math.Sin(a)).Scale(u(0.2, 2))))
		}
		if err == nil {
			return s
		}
	}
}

// b2Sturdy reports whether a polygon's edges are all longer than minEdge
// and it turns by at least a few degrees at every vertex, so that Box2D
// takes it as it is.
func b2Sturdy(vs []shape.Vec2, minEdge float64) bool {
	n := len(vs)
	for i := range vs {
		e0 := vs[i].Sub(vs[(i+n-1)%n])
		e1 := vs[(i+1)%n].Sub(vs[i])
		if e1.Len() < minEdge || e0.Cross(e1) < 0.05*e0.Len()*e1.Len() {
			return false
		}
	}
	return true
}

// b2Bases are the world offsets the cases are placed around: ours runs
// there, Box2D gets the pair made relative in double first.
var b2Bases = []float64{0, 0, 0, 1e3, 1e4, 1234.56789, -8765.4321, 3e5, -1e6}

func b2RandRot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(5) {
	case 0:
		return shape.Rot{}
	case 1:
		q := [][2]float64{{0, 1}, {-1, 0}, {0, -1}}[rng.IntN(3)]
		return shape.RotFromCosSin(q[0], q[1])
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

func b2RandDir(rng *rand.Rand) shape.Vec2 {
	a := rng.Float64() * 2 * math.Pi
	return shape.V(math.Cos(a), math.Sin(a))
}

// b2Case is one random pair with the mode that placed it.
type b2Case struct {
	a, b   shape.Shape
	ta, tb shape.Transform
	mode   string
}

func (c b2Case) String() string {
	return fmt.Sprintf("[%s] %s", c.mode, exDescribe(c.a, c.ta, c.b, c.tb))
}

// b2RandPair places two random shapes near each other, in one of the ugly
// modes some of the time: coincident positions, one inside the other,
// parallel faces, or moved to touching (by our own MTV) within a hair.
func b2RandPair(rng *rand.Rand) b2Case {
	var c b2Case
	modes := []string{"random", "random", "random", "coincident", "contain", "parallel", "touch"}
	c.mode = modes[rng.IntN(len(modes))]
	ka, kb := b2Kinds[rng.IntN(len(b2Kinds))], b2Kinds[rng.IntN(len(b2Kinds))]
	c.a = b2RandShape(rng, ka, false)
	c.b = b2RandShape(rng, kb, c.mode == "contain")
	base := b2Bases[rng.IntN(len(b2Bases))]
	c.ta = shape.Transform{Pos: shape.V(base+rng.Float64(), -base+rng.Float64()), Rot: b2RandRot(rng)}
	c.tb = shape.Transform{Rot: b2RandRot(rng)}
	reach := c.a.BoundingRadius() + c.b.BoundingRadius()
	switch c.mode {
	case "coincident":
		c.tb.Pos = c.ta.Pos
		if rng.IntN(2) == 0 {
			c.tb.Pos = c.tb.Pos.Add(b2RandDir(rng).Scale(1e-9))
		}
	case "contain":
		c.tb.Pos = c.ta.Apply(c.a.Center()).Add(b2RandDir(rng).Scale(0.3 * rng.Float64() * c.a.BoundingRadius()))
	case "parallel":
		q := [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[rng.IntN(4)]
		c.tb.Rot = c.ta.Rot.Mul(shape.RotFromCosSin(q[0], q[1]))
		axis := [2]shape.Vec2{shape.V(1, 0), shape.V(0, 1)}[rng.IntN(2)]
		off := axis.Scale((rng.Float64()*2 - 1) * reach).Add(axis.Perp().Scale((rng.Float64()*2 - 1) * 0.5))
		c.tb.Pos = c.ta.Pos.Add(c.ta.Rot.Apply(off))
	default:
		c.tb.Pos = c.ta.Pos.Add(b2RandDir(rng).Scale(1.1 * reach * rng.Float64()))
	}
	if c.mode == "touch" {
		if m, ok := narrowphase.Collide(c.a, c.ta, c.b, c.tb); ok {
			eps := []float64{-1e-4, -1e-6, 0, 1e-6, 1e-4}[rng.IntN(5)]
			c.tb.Pos = c.tb.Pos.Add(m.Normal.Scale(m.Depth + eps))
		}
	}
	return c
}

// b2Tally counts cases by class and keeps a few examples of each.
type b2Tally struct {
	n        map[string]int
	examples map[string][]string
}

func newB2Tally() *b2Tally {
	return &b2Tally{n: map[string]int{}, examples: map[string][]string{}}
}

func (ta *b2Tally) add(class, example string) {
	ta.n[class]++
	if example != "" && len(ta.examples[class]) < 3 {
		ta.examples[class] = append(ta.examples[class], example)
	}
}

func (ta *b2Tally) log(t *testing.T) {
	t.Helper()
	keys := make([]string, 0, len(ta.n))
	for k := range ta.n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-34s %6d", k, ta.n[k])
		for _, e := range ta.examples[k] {
			t.Logf("    e.g. %s", e)
		}
	}
}

// TestB2DiffCollide compares Collide with Box2D's manifold on random pairs:
// overlap or not (beyond the tolerance), the normal, and the depth against
// Box2D's deepest point. Disagreements are decided by the exact oracle: the
// exact penetration depth and, for a normal n, the overlap of the two
// shapes' projections on n (a normal is right when that equals the depth,
// so ties between axes pass).
func TestB2DiffCollide(t *testing.T) {
	exe := b2Harness(t)
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0xb2))
	n := *b2DiffN
	cases := make([]b2Case, n)
	lines := make([]string, n)
	for i := range cases {
		c := b2RandPair(rng)
		cases[i] = c
		lines[i] = "collide " + b2Shape(c.a) + " " + b2Pose(c.a, c.ta) + " " + b2Shape(c.b) + " " + b2Pose(c.b, c.tb)
	}
	ans := b2Ask(t, exe, lines)
	tally := newB2Tally()
	for i, c := range cases {
		checkB2Collide(t, tally, c, ans[i])
	}
	tally.log(t)
}

func checkB2Collide(t *testing.T, tally *b2Tally, c b2Case, f []string) {
	t.Helper()
	m, ok := narrowphase.Collide(c.a, c.ta, c.b, c.tb)
	if f[0] == "none" { // two segments: no Box2D routine, and we never collide them
		if ok {
			t.Errorf("Collide(segment, segment) = %+v, want no contact: %v", m, c)
		}
		tally.add("skip: segment-segment", "")
		return
	}
	count := int(b2F(t, f[0]))
	bn := shape.V(b2F(t, f[1]), b2F(t, f[2]))
	bsep := math.Inf(1)
	for k := range count {
		bsep = math.Min(bsep, b2F(t, f[3+k]))
	}
	scale := exLocalScale(c.a, c.ta, c.b, c.tb)
	tolB := 2e-5 * scale // Box2D's float32 rounding, relative pose rounded once
	tolO := 1e-9 * scale // ours: exact to rounding
	bOver := count > 0 && bsep < 0
	bDepth := -bsep

	agree := true
	switch {
	case ok && !bOver && m.Depth > tolB, !ok && bOver && bDepth > tolB:
		agree = false
	case ok && bOver && bDepth > 1e-6:
		if math.Abs(m.Depth-bDepth) > tolB || m.Normal.Sub(bn).Len() > 1e-4 {
			agree = false
		}
	}
	if agree && *b2DiffExact {
		// The same check as below, on a pair Box2D agrees with.
		d := exMinkowski(exPlace(c.a, c.ta), exPlace(c.b, c.tb))
		in, pen := exPen(d)
		if (ok != in && math.Abs(pen) > tolO) || (ok && (math.Abs(m.Depth-pen) > tolO || math.Abs(exSupport(d, m.Normal.Neg())-pen) > tolO)) {
			t.Errorf("Collide = %+v, %v; exact overlap %v depth %.17g: %v", m, ok, in, pen, c)
			tally.add("ours wrong (Box2D agrees within its tolerance)", c.String())
		}
	}
	if agree && ok && bOver && m.Depth > 1e-4*scale {
		checkB2Points(t, tally, c, m, f, scale)
		return
	}
	if agree {
		switch {
		case ok && bOver && bDepth > 1e-6:
			tally.add("agree: overlap", "")
		case !ok && !bOver:
			tally.add("agree: apart", "")
		default:
			tally.add("agree: within tolerance of touching", "")
		}
		return
	}

	// The exact oracle decides. D = b − a grown by the radii: the pair
	// overlaps when the origin is inside D, by the distance to D's boundary,
	// and the overlap along a normal n (from a to b) is h_D(−n).
	d := exMinkowski(exPlace(c.a, c.ta), exPlace(c.b, c.tb))
	in, pen := exPen(d)
	along := func(n shape.Vec2) float64 { return exSupport(d, n.Neg()) }
	desc := fmt.Sprintf("%v; ours %v depth %.9g normal %v; Box2D points %d sep %.9g normal %v; exact overlap %v depth %.9g",
		c, ok, m.Depth, m.Normal, count, bsep, bn, in, pen)

	// Ours.
	switch {
	case ok != in && math.Abs(pen) > tolO:
		t.Errorf("Collide overlap %v, exact %v: %s", ok, in, desc)
		tally.add("ours wrong: overlap", desc)
	case ok && math.Abs(m.Depth-pen) > tolO:
		t.Errorf("Collide.Depth = %.17g, exact %.17g: %s", m.Depth, pen, desc)
		tally.add("ours wrong: depth", desc)
	case ok && math.Abs(along(m.Normal)-pen) > tolO:
		t.Errorf("Collide.Normal = %v separates by %.17g, exact depth %.17g: %s", m.Normal, along(m.Normal), pen, desc)
		tally.add("ours wrong: normal", desc)
	}

	// Box2D.
	class := ""
	switch {
	case bOver != in && math.Abs(pen) > tolB:
		if in {
			class = "box2d: misses an overlap"
		} else {
			class = "box2d: overlap of apart shapes"
		}
	case bOver && bDepth < pen-tolB:
		class = "box2d: deepest point shallower than depth"
	case bOver && bDepth > pen+tolB:
		class = "box2d: deepest point deeper than depth"
	case bOver && bn.Len() < 0.5:
		class = "contract: Box2D's normal is zero (coincident centres)"
	case bOver && along(bn) > pen+tolB:
		class = "box2d: normal not an MTV axis"
	case ok && bOver:
		class = "tie: both normals MTV axes"
	default:
		class = "both within tolerance of exact"
	}
	tally.add(class+" ("+c.a.Kind().String()+"-"+c.b.Kind().String()+")", desc)
}

// checkB2Points compares the contact points of a pair whose normal and
// depth agree with Box2D's: Box2D's points with a negative separation (it
// also keeps speculative ones) against ours, matched by position, each
// within 1e-4 of the size with the same depth. Box2D puts its points midway
// between the surfaces, as we do. Where they differ our points are checked
// against the exact cores (exCheckManifoldPoints fails the test if they are
// not midway between the surfaces, or not at the ends of the overlap where
// faces are parallel); the rest are Box2D's.
func checkB2Points(t *testing.T, tally *b2Tally, c b2Case, m narrowphase.Manifold, f []string, scale float64) {
	t.Helper()
	type pt struct {
		p shape.Vec2
		d float64
	}
	var bp []pt
	for k := range int(b2F(t, f[0])) {
		if sep := b2F(t, f[3+k]); sep < 0 {
			bp = append(bp, pt{shape.V(b2F(t, f[5+2*k]), b2F(t, f[6+2*k])), -sep})
		}
	}
	tol := 1e-4 * scale
	same := len(bp) == m.Count
	for i := 0; same && i < m.Count; i++ {
		found := false
		for _, q := range bp {
			if q.p.Sub(m.Points[i].Point).Len() <= tol && math.Abs(q.d-m.Points[i].Depth) <= tol {
				found = true
			}
		}
		same = found
	}
	if same {
		tally.add("agree: overlap, same points", "")
		return
	}
	desc := fmt.Sprintf("%v; ours depth %.9g normal %v points %+v; Box2D (negative separations) %+v", c, m.Depth, m.Normal, m.Points[:m.Count], bp)
	failed := t.Failed()
	parallel := exCheckManifoldPoints(t, m, exPlace(c.a, c.ta), exPlace(c.b, c.tb), c.ta.Pos,
		1e-9*scale, 1e-9*(scale+math.Max(c.ta.Pos.Abs().X, c.ta.Pos.Abs().Y)), desc)
	kinds := " (" + c.a.Kind().String() + "-" + c.b.Kind().String() + ")"
	switch {
	case t.Failed() && !failed:
		tally.add("ours wrong: points", desc)
	case len(bp) != m.Count && parallel:
		tally.add("points: counts differ at parallel faces"+kinds, desc)
	case len(bp) != m.Count:
		tally.add("points: counts differ"+kinds, desc)
	default:
		// At a capsule's end Box2D takes the core's end point moved by the
		// radius along the normal, which is the surface there only when the
		// normal is square to the core: its point is not midway and its
		// depth not the overlap along the normal (ours is checked exact).
		tally.add("points: differ, ours exact"+kinds, desc)
	}
}

// b2Ray is one ray query.
type b2Ray struct {
	s       shape.Shape
	t       shape.Transform
	o, dir  shape.Vec2
	maxDist float64
	mode    string
}

func (r b2Ray) String() string {
	return fmt.Sprintf("[%s] %v at %v (cos %v, sin %v), origin %v dir %v maxDist %v",
		r.mode, r.s, r.t.Pos, r.t.Rot.Cos(), r.t.Rot.Sin(), r.o, r.dir, r.maxDist)
}

// b2RandRay returns a ray at a random shape: aimed near it from outside,
// from inside, along the shape's own axes (parallel to box faces and
// capsule sides), tangent to a circle or capsule, at a vertex, or along a
// segment's line.
func b2RandRay(rng *rand.Rand) b2Ray {
	var r b2Ray
	modes := []string{"aimed", "aimed", "aimed", "inside", "axis", "tangent", "vertex", "far", "surface"}
	r.mode = modes[rng.IntN(len(modes))]
	r.s = b2RandShape(rng, b2Kinds[rng.IntN(len(b2Kinds))], false)
	base := b2Bases[rng.IntN(len(b2Bases))]
	r.t = shape.Transform{Pos: shape.V(base+rng.Float64(), -base+rng.Float64()), Rot: b2RandRot(rng)}
	et := r.s.EffectiveTransform(r.t)
	bound := r.s.BoundingRadius()
	centre := et.Apply(r.s.Center())
	target := centre.Add(b2RandDir(rng).Scale(1.2 * bound * rng.Float64()))
	r.o = centre.Add(b2RandDir(rng).Scale(bound * (1.2 + 2*rng.Float64())))
	switch r.mode {
	case "inside":
		r.o = centre.Add(b2RandDir(rng).Scale(0.2 * bound * rng.Float64()))
	case "surface":
		// From a point of the boundary (to rounding): a vertex, the middle
		// of an edge or core, or a point of a circle.
		switch k := r.s.Kind(); k {
		case shape.KindCircle:
			r.o = centre.Add(b2RandDir(rng).Scale(r.s.Radius()))
		case shape.KindCapsule:
			p0, p1 := r.s.Segment()
			_, _, n := r.s.SegmentFrame()
			r.o = et.Apply(p0.Add(p1.Sub(p0).Scale(rng.Float64())).Add(n.Scale(r.s.Radius())))
		default:
			var vs []shape.Vec2
			if k == shape.KindAABB || k == shape.KindOBB {
				cs := r.s.Corners()
				vs = cs[:]
			} else {
				vs = r.s.Vertices()
			}
			i := rng.IntN(len(vs))
			w := []float64{0, 0.5, rng.Float64()}[rng.IntN(3)]
			r.o = et.Apply(vs[i].Add(vs[(i+1)%len(vs)].Sub(vs[i]).Scale(w)))
		}
	case "far":
		r.o = centre.Add(b2RandDir(rng).Scale(bound * (50 + 500*rng.Float64())))
	case "axis":
		axis := [4]shape.Vec2{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}}[rng.IntN(4)]
		if r.s.Kind() == shape.KindCapsule || r.s.Kind() == shape.KindSegment {
			p0, p1 := r.s.Segment()
			axis = p1.Sub(p0).Normalize()
		}
		d := et.Rot.Apply(axis)
		r.o = target.Sub(d.Scale(bound * (2 + rng.Float64())))
	case "tangent":
		if r.s.Kind() == shape.KindCircle || r.s.Kind() == shape.KindCapsule {
			p := centre
			if r.s.Kind() == shape.KindCapsule {
				p0, _ := r.s.Segment()
				p = et.Apply(p0)
			}
			d := b2RandDir(rng)
			target = p.Add(d.Perp().Scale(r.s.Radius()))
			r.o = target.Sub(d.Scale(bound * (1.5 + rng.Float64())))
		}
	case "vertex":
		if vs := r.s.Vertices(); vs != nil {
			target = et.Apply(vs[rng.IntN(len(vs))])
		} else if r.s.Kind() == shape.KindAABB || r.s.Kind() == shape.KindOBB {
			cs := r.s.Corners()
			target = et.Apply(cs[rng.IntN(4)])
		}
		if r.s.Kind() == shape.KindSegment && rng.IntN(2) == 0 {
			p0, p1 := r.s.Segment()
			w0, w1 := et.Apply(p0), et.Apply(p1)
			r.mode = "along segment"
			r.o = w0.Sub(w1.Sub(w0).Scale(0.5 + rng.Float64()))
			target = w1
		}
	}
	to := target.Sub(r.o)
	r.dir = to.Normalize()
	if r.mode == "inside" {
		r.dir = b2RandDir(rng)
	}
	r.maxDist = math.Max(0.1, to.Len()*(0.3+1.7*rng.Float64()))
	return r
}

// TestB2DiffRayCast compares RayCast with Box2D's b2RayCast* (the ray's
// translation is dir·maxDist, so Box2D's fraction times maxDist is our
// Distance): hit or miss away from grazes, the distance, and the normal
// where Box2D gives one (it gives none for an origin inside the shape,
// where ours is −dir by contract). Disagreements are decided by bisection
// on the exact touch predicate and, for a normal, by whether its line
// through the hit point supports the shape exactly.
func TestB2DiffRayCast(t *testing.T) {
	exe := b2Harness(t)
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0xb3))
	n := *b2DiffN
	rays := make([]b2Ray, n)
	lines := make([]string, n)
	for i := range rays {
		r := b2RandRay(rng)
		rays[i] = r
		lines[i] = fmt.Sprintf("ray %s %s %s %s %s %s %s", b2Shape(r.s), b2Pose(r.s, r.t),
			b2Num(r.o.X), b2Num(r.o.Y), b2Num(r.dir.X), b2Num(r.dir.Y), b2Num(r.maxDist))
	}
	ans := b2Ask(t, exe, lines)
	tally := newB2Tally()
	for i, r := range rays {
		checkB2Ray(t, tally, r, ans[i])
	}
	tally.log(t)
}

func checkB2Ray(t *testing.T, tally *b2Tally, r b2Ray, f []string) {
	t.Helper()
	h, ok := narrowphase.RayCast(r.s, r.t, r.o, r.dir, r.maxDist)
	bHit := f[0] == "1"
	bDist := b2F(t, f[1]) * r.maxDist
	bn := shape.V(b2F(t, f[2]), b2F(t, f[3]))
	scale := math.Max(1, r.s.BoundingRadius()+r.t.Pos.Sub(r.o).Len()+r.maxDist)
	tolB := 2e-5 * scale
	tolO := 1e-9 * scale

	agree := ok == bHit
	if agree && ok {
		if math.Abs(h.Distance-bDist) > tolB || (bn != (shape.Vec2{}) && h.Distance > 0 && h.Normal.Sub(bn).Len() > 1e-4) {
			agree = false
		}
	}
	if agree {
		switch {
		case ok && bn == (shape.Vec2{}):
			tally.add("agree: hit from inside", "")
		case ok:
			tally.add("agree: hit", "")
		default:
			tally.add("agree: miss", "")
		}
		return
	}

	core := exPlace(r.s, r.t)
	cores := []exCore{core}
	gap := exRayGap(cores, r.o, r.dir, r.maxDist)
	ed, _, eHit := exRay(cores, r.o, r.dir, r.maxDist)
	desc := fmt.Sprintf("%v; ours %v dist %.9g normal %v; Box2D %v dist %.9g normal %v; exact %v dist %.9g (closest gap %.3g)",
		r, ok, h.Distance, h.Normal, bHit, bDist, bn, eHit, ed, gap)
	// supports reports whether the line through the hit point at distance
	// d with normal n supports the shape: n is an outward normal there.
	supports := func(d float64, n shape.Vec2, tol float64) bool {
		p := r.o.Add(r.dir.Scale(d))
		return math.Abs(exSupport(core, n)-p.Dot(n)) <= tol
	}

	switch {
	case ok != eHit && math.Abs(gap) > tolO:
		t.Errorf("RayCast hit %v, exact %v: %s", ok, eHit, desc)
		tally.add("ours wrong: hit", desc)
	case ok && math.Abs(h.Distance-ed) > tolO && math.Abs(exSignedDist(core, r.o.Add(r.dir.Scale(h.Distance)))) > tolO:
		t.Errorf("RayCast.Distance = %.17g, exact %.17g: %s", h.Distance, ed, desc)
		tally.add("ours wrong: distance", desc)
	case ok && h.Distance > 0 && !supports(h.Distance, h.Normal, tolO):
		t.Errorf("RayCast.Normal = %v does not support the shape at the hit: %s", h.Normal, desc)
		tally.add("ours wrong: normal", desc)
	}

	class := ""
	switch {
	case math.Abs(gap) <= tolB:
		// The ray passes within rounding of touching: the hit, and where
		// along the ray it lands, are ill-conditioned.
		class = "graze: within tolerance of touching"
	case bHit != eHit && eHit && ed > r.maxDist-tolB:
		class = "graze: hit at the far end"
	case bHit != eHit && eHit && r.s.Kind() == shape.KindSegment && math.Abs(r.dir.Cross(b2SegDir(r))) < 1e-6:
		class = "contract: Box2D misses a ray along a segment's line"
	case bHit != eHit && eHit && ed <= tolB:
		// b2RayCastCircle and b2RayCastCapsule: an origin on the surface
		// (|s|² = r² to rounding) going in gets an entry fraction a hair
		// below 0 and is then not "inside" either.
		class = "box2d: misses a ray from the surface into the shape"
	case bHit != eHit:
		class = "box2d: wrong hit or miss"
	case bHit && math.Abs(bDist-ed) > tolB:
		class = "box2d: wrong distance"
	case bHit && bn != (shape.Vec2{}) && !supports(ed, bn, tolB):
		class = "box2d: wrong normal"
	case ok && bHit && !supports(ed, bn, tolB):
		class = "contract: no Box2D normal for a ray from inside"
	case ok && bHit:
		class = "tie: both normals support the shape (vertex)"
	default:
		class = "both within tolerance of exact"
	}
	tally.add(class+" ("+r.s.Kind().String()+")", desc)
}

// b2SegDir returns the world direction of a segment shape's ray case.
func b2SegDir(r b2Ray) shape.Vec2 {
	p0, p1 := r.s.Segment()
	return r.t.Rot.Apply(p1.Sub(p0)).Normalize()
}

// b2CastCase is one cast: a moves by delta, b stays.
type b2CastCase struct {
	b2Case
	delta shape.Vec2
}

// b2RandCast returns a random cast: a placed beside b and sent at it,
// past it, sliding along a parallel face, or starting at a hair from
// touching.
func b2RandCast(rng *rand.Rand) b2CastCase {
	var c b2CastCase
	modes := []string{"aimed", "aimed", "aimed", "random", "slide", "near", "long"}
	c.mode = modes[rng.IntN(len(modes))]
	ka, kb := b2Kinds[rng.IntN(len(b2Kinds))], b2Kinds[rng.IntN(len(b2Kinds))]
	if ka == shape.KindSegment && kb == shape.KindSegment {
		kb = shape.KindPolygon
	}
	c.a = b2RandShape(rng, ka, false)
	c.b = b2RandShape(rng, kb, false)
	base := b2Bases[rng.IntN(len(b2Bases))]
	c.tb = shape.Transform{Pos: shape.V(base+rng.Float64(), -base+rng.Float64()), Rot: b2RandRot(rng)}
	c.ta = shape.Transform{Rot: b2RandRot(rng)}
	reach := c.a.BoundingRadius() + c.b.BoundingRadius()
	dir := b2RandDir(rng)
	c.ta.Pos = c.tb.Pos.Add(dir.Scale(reach * (1.05 + 1.5*rng.Float64())))
	aim := c.tb.Pos.Add(b2RandDir(rng).Scale(reach * 0.5 * rng.Float64())).Sub(c.ta.Pos)
	switch c.mode {
	case "random":
		c.delta = b2RandDir(rng).Scale(reach * 3 * rng.Float64())
	case "long":
		c.ta.Pos = c.tb.Pos.Add(dir.Scale(reach * (20 + 200*rng.Float64())))
		aim = c.tb.Pos.Add(b2RandDir(rng).Scale(reach * 0.5 * rng.Float64())).Sub(c.ta.Pos)
		c.delta = aim.Scale(1 + rng.Float64())
	case "slide":
		q := [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[rng.IntN(4)]
		c.ta.Rot = c.tb.Rot.Mul(shape.RotFromCosSin(q[0], q[1]))
		axis := [2]shape.Vec2{shape.V(1, 0), shape.V(0, 1)}[rng.IntN(2)]
		side := c.tb.Rot.Apply(axis.Perp())
		c.ta.Pos = c.tb.Pos.Add(side.Scale(reach * (rng.Float64() - 0.5))).Sub(c.tb.Rot.Apply(axis).Scale(reach * 1.5))
		c.delta = c.tb.Rot.Apply(axis).Scale(reach * 3).Add(side.Scale(reach * 0.05 * (rng.Float64() - 0.5)))
	case "near":
		c.delta = aim.Scale(1 + rng.Float64())
		if h, ok := narrowphase.Cast(c.a, c.ta, c.delta, c.b, c.tb); ok {
			eps := []float64{-1e-4, -1e-7, 0, 1e-7, 1e-4, 0.01}[rng.IntN(6)]
			c.ta.Pos = c.ta.Pos.Add(c.delta.Scale(h.Fraction)).Add(h.Normal.Scale(eps))
			c.delta = b2RandDir(rng).Scale(reach * rng.Float64())
		}
	default:
		c.delta = aim.Scale(0.5 + 1.5*rng.Float64())
	}
	return c
}

// TestB2DiffCast compares Cast (translation only) with b2ShapeCast. Box2D's
// cast stops between a linear slop and 1.25 slops short of touching cores
// (a slop past touching for shapes with radius), counts a start within
// that band as a hit at 0 and gives up after 20 iterations, so fractions
// are compared within 1.5 slops over the approach speed, and hit or miss
// only where the exact gap stays clear of that band (graze and start). The
// exact oracle (bisection over the exact touch predicate) decides.
func TestB2DiffCast(t *testing.T) {
	exe := b2Harness(t)
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0xb4))
	n := *b2DiffN
	cases := make([]b2CastCase, n)
	lines := make([]string, n)
	for i := range cases {
		c := b2RandCast(rng)
		cases[i] = c
		// Box2D moves its second shape: ours a.
		lines[i] = "cast " + b2Shape(c.b) + " " + b2Pose(c.b, c.tb) + " " + b2Shape(c.a) + " " + b2Pose(c.a, c.ta) +
			" " + b2Num(c.delta.X) + " " + b2Num(c.delta.Y)
	}
	ans := b2Ask(t, exe, lines)
	tally := newB2Tally()
	for i, c := range cases {
		checkB2Cast(t, tally, c, ans[i])
	}
	tally.log(t)
}

func checkB2Cast(t *testing.T, tally *b2Tally, c b2CastCase, f []string) {
	t.Helper()
	h, ok := narrowphase.Cast(c.a, c.ta, c.delta, c.b, c.tb)
	bHit := f[0] == "1"
	bFrac := b2F(t, f[1])
	bn := shape.V(b2F(t, f[2]), b2F(t, f[3]))
	iters := int(b2F(t, f[4]))
	scale := exLocalScale(c.a, c.ta, c.b, c.tb) + c.delta.Len()
	tolO := 1e-9 * scale
	kinds := " (" + c.a.Kind().String() + "-" + c.b.Kind().String() + ")"
	ca, cb := exPlace(c.a, c.ta), exPlace(c.b, c.tb)
	d := exMinkowski(ca, cb) // b − a grown: a moved by x touches b when x is in it

	// Box2D's band around touching, in fraction: 1.5 slops over the speed
	// of approach along our contact normal.
	speed := 0.0
	if ok {
		speed = -h.Normal.Dot(c.delta)
	}
	band := (1.5*b2Slop + 2e-5*scale) / math.Max(speed, 1e-300)
	if bHit == ok && (!ok || math.Abs(h.Fraction-bFrac) <= band) {
		switch {
		case !ok:
			tally.add("agree: miss", "")
		case h.Fraction == 0 || bFrac == 0:
			tally.add("agree: hit at the start (within slop)", "")
		case speed < 0.05*c.delta.Len():
			// Box2D stops wherever the gap first drops under its slop,
			// which a slanted approach reaches long before touching.
			tally.add("graze: approach too slanted to compare fractions", "")
		case h.Normal.Sub(bn).Len() <= 1e-3:
			tally.add("agree: hit", "")
		default:
			// Box2D's normal is the closest points' direction a slop before
			// the touch: at a vertex or a round part it may turn by about a
			// slop over the radius there. It must still nearly support the
			// touch.
			x := c.delta.Scale(h.Fraction)
			if s := exSupport(d, bn) - x.Dot(bn); math.Abs(s) > 2*b2Slop {
				tally.add("box2d: normal does not support the touch"+kinds, fmt.Sprintf("%v, delta %v; ours frac %.9g normal %v; Box2D frac %.9g normal %v (off by %.3g)",
					c.b2Case, c.delta, h.Fraction, h.Normal, bFrac, bn, s))
			} else {
				tally.add("agree: hit, normals differ within slop (vertex or round)", "")
			}
		}
		return
	}

	// They disagree: the exact oracle (bisection over the exact touch
	// predicate) decides.
	o := exCast(ca, c.delta, cb)
	start := o.gapAt(0)
	desc := fmt.Sprintf("%v, delta %v; ours %v frac %.9g normal %v; Box2D %v frac %.9g normal %v (%d iterations); exact %v frac %.9g (closest gap %.3g, start gap %.3g)",
		c.b2Case, c.delta, ok, h.Fraction, h.Normal, bHit, bFrac, bn, iters, o.hit, o.frac, o.gap, start)
	switch {
	case ok != o.hit && math.Abs(o.gap) > tolO:
		t.Errorf("Cast hit %v, exact %v: %s", ok, o.hit, desc)
		tally.add("ours wrong: hit", desc)
		return
	case ok && math.Abs(h.Fraction-o.frac) > 1e-9 && math.Abs(o.gapAt(h.Fraction)) > tolO:
		t.Errorf("Cast.Fraction = %.17g, exact %.17g: %s", h.Fraction, o.frac, desc)
		tally.add("ours wrong: fraction", desc)
		return
	case ok && h.Fraction > 0 && math.Abs(exSupport(d, h.Normal)-c.delta.Scale(h.Fraction).Dot(h.Normal)) > tolO:
		t.Errorf("Cast.Normal = %v does not support the touch: %s", h.Normal, desc)
		tally.add("ours wrong: normal", desc)
		return
	}
	switch {
	case math.Abs(o.gap) < 2*b2Slop || math.Abs(start) < 2*b2Slop:
		tally.add("graze: within Box2D's slop of touching", "")
	case bHit != ok && !bHit && iters >= 20:
		tally.add("box2d: gives up after 20 iterations"+kinds, desc)
	case bHit != ok:
		tally.add("box2d: wrong hit or miss"+kinds, desc)
	case speed < 0.05*c.delta.Len():
		tally.add("graze: approach too slanted to compare fractions", "")
	default:
		tally.add("box2d: fraction beyond its slop"+kinds, desc)
	}
}
