package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// npKinds lists the convex shape kinds in canonical order: every kind a pair
// routine takes.
var npKinds = func() []shape.Kind {
	var ks []shape.Kind
	for k := range shape.Kind(shape.KindCount) {
		if k.Convex() {
			ks = append(ks, k)
		}
	}
	return ks
}()

// npRandomShape returns a random valid shape of kind k, of size about 0.1 to 3.
func npRandomShape(t testing.TB, rng *rand.Rand, k shape.Kind) shape.Shape {
	t.Helper()
	size := func() float64 { return 0.1 + 2.9*rng.Float64() }
	switch k {
	case shape.KindCircle:
		if rng.IntN(3) == 0 {
			return npOffsetCircle(t, xy(2*rng.Float64()-1, 2*rng.Float64()-1), size())
		}
		return npCircle(t, size())
	case shape.KindAABB:
		return npAABB(t, size(), size())
	case shape.KindOBB:
		return npOBB(t, size(), size())
	case shape.KindCapsule, shape.KindSegment:
		off := xy(0, 0)
		if rng.IntN(3) == 0 {
			off = xy(2*rng.Float64()-1, 2*rng.Float64()-1)
		}
		l, a := size(), math.Pi*(2*rng.Float64()-1)
		if rng.IntN(4) == 0 {
			a = float64(rng.IntN(4)) * math.Pi / 2 // axis-aligned cores
		}
		d := xy(l*math.Cos(a), l*math.Sin(a))
		p0, p1 := off.Sub(d.Scale(0.5)), off.Add(d.Scale(0.5))
		var s shape.Shape
		var err error
		if k == shape.KindCapsule {
			s, err = shape.NewCapsule(p0, p1, 0.05+1.5*rng.Float64())
		} else {
			s, err = shape.NewSegment(p0, p1)
		}
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for {
		var pts []shape.Vec2
		off := xy(0, 0)
		if rng.IntN(3) == 0 {
			off = xy(2*rng.Float64()-1, 2*rng.Float64()-1)
		}
		switch rng.IntN(3) {
		case 0: // random point cloud, hulled
			n := 3 + rng.IntN(shape.MaxPolygonVertices-2)
			sx, sy := size(), size()
			for range n {
				pts = append(pts, xy(off.X+sx*(2*rng.Float64()-1), off.Y+sy*(2*rng.Float64()-1)))
			}
			s, err := shape.ConvexHull(pts)
			if err == nil {
				return s
			}
			continue
		case 1: // jittered regular polygon
			n := 3 + rng.IntN(shape.MaxPolygonVertices-2)
			r := size()
			for i := range n {
				a := 2 * math.Pi * (float64(i) + 0.8*rng.Float64()) / float64(n)
				pts = append(pts, xy(off.X+r*math.Cos(a), off.Y+r*math.Sin(a)))
			}
		default: // triangle or elongated quad
			w, h := size(), 0.05+0.5*rng.Float64()
			if rng.IntN(2) == 0 {
				pts = []shape.Vec2{xy(-w, -h), xy(w, 0), xy(-w, h)}
			} else {
				pts = []shape.Vec2{xy(-w, -h), xy(w, -h/2), xy(w, h/2), xy(-w, h)}
			}
			for i := range pts {
				pts[i] = pts[i].Add(off)
			}
		}
		s, err := shape.NewPolygon(pts)
		if err == nil {
			return s
		}
	}
}

// npRandomAngle returns a random angle, often a multiple of a quarter turn or
// just off one, where box routines like to take shortcuts.
func npRandomAngle(rng *rand.Rand) float64 {
	switch rng.IntN(8) {
	case 0:
		return float64(rng.IntN(4)) * math.Pi / 2
	case 1:
		return float64(rng.IntN(4))*math.Pi/2 + (2*rng.Float64()-1)*1e-9
	}
	return math.Pi * (2*rng.Float64() - 1)
}

// npRandomPair returns shapes of kinds ka and kb npShape so that they overlap
// about half of the time.
func npRandomPair(t testing.TB, rng *rand.Rand, ka, kb shape.Kind) (shape.Shape, shape.Transform, shape.Shape, shape.Transform) {
	t.Helper()
	a, b := npRandomShape(t, rng, ka), npRandomShape(t, rng, kb)
	ta := npAt(20*rng.Float64()-10, 20*rng.Float64()-10, npRandomAngle(rng))
	tb := shape.Transform{Rot: shape.NewRot(npRandomAngle(rng))}
	base := ta.Rot // A's rotation as it acts: none for an AABB
	if ka == shape.KindAABB {
		base = shape.Rot{}
	}
	switch rng.IntN(10) {
	case 0: // same rotation
		tb.Rot = base
	case 1: // a quarter turn off A's rotation
		tb.Rot = base.Mul(shape.NewRot(float64(1+rng.IntN(3)) * math.Pi / 2))
	case 2: // nearly parallel faces: a hair off a multiple of a quarter turn
		eps := []float64{1e-13, 1e-9, 1e-7, 1e-5}[rng.IntN(4)] * (2*rng.Float64() - 1)
		tb.Rot = base.Mul(shape.NewRot(float64(rng.IntN(4))*math.Pi/2 + eps))
	}
	tb.Pos = ta.Pos
	if rng.IntN(20) != 0 { // else same origin
		reach := (a.BoundingRadius() + b.BoundingRadius()) * 1.1 * rng.Float64()
		s, c := math.Sincos(2 * math.Pi * rng.Float64())
		tb.Pos = ta.Pos.Add(xy(c*reach, s*reach))
	}
	// Now and then put a circle's centre on the other shape's boundary, up
	// to rounding: on a vertex or on an edge.
	if rng.IntN(8) == 0 {
		switch {
		case ka == shape.KindCircle && kb != shape.KindCircle:
			ta = npCentreOnBoundary(rng, a, ta, npPlace(b, tb))
		case kb == shape.KindCircle && ka != shape.KindCircle:
			tb = npCentreOnBoundary(rng, b, tb, npPlace(a, ta))
		}
	}
	return a, ta, b, tb
}

// npCentreOnBoundary returns the transform, rotated as t, that puts the
// centre of circle c on a vertex or an edge of the polygon p.
func npCentreOnBoundary(rng *rand.Rand, c shape.Shape, t shape.Transform, p npShape) shape.Transform {
	i := rng.IntN(len(p.verts))
	q := p.verts[i]
	if rng.IntN(3) != 0 {
		u := rng.Float64()
		e := p.verts[(i+1)%len(p.verts)].Sub(q)
		q = q.Add(e.Scale(u))
	}
	t.Pos = q.Sub(t.Rot.Apply(c.Center()))
	return t
}

// npMoved returns t translated by d.
func npMoved(t shape.Transform, d shape.Vec2) shape.Transform {
	t.Pos = t.Pos.Add(d)
	return t
}

// npPairName names an ordered kind pair.
func npPairName(a, b shape.Kind) string { return fmt.Sprintf("%s-%s", a, b) }

// npCall names a Collide call in failure messages.
func npCall(a, b shape.Shape) string { return fmt.Sprintf("Collide(%s, %s)", a.Kind(), b.Kind()) }

// npRelTol is the relative tolerance of depth comparisons.
const npRelTol = 1e-9

// npCheckManifold verifies the contract of one Collide result that reported a
// hit: unit normal, finite values, point count and per-point depths, and
// that every point lies within Depth of both shapes.
func npCheckManifold(t *testing.T, call string, m narrowphase.Manifold, a, b npShape) bool {
	t.Helper()
	ok := true
	errorf := func(format string, args ...any) {
		t.Helper()
		ok = false
		t.Errorf(format, args...)
	}
	scale := npExtent(a, b)
	tol := npRelTol * math.Max(m.Depth, scale)
	if !m.Normal.IsFinite() || !shape.IsFinite(m.Depth) {
		errorf("%s = %+v, not finite", call, m)
		return false
	}
	if l := math.Hypot(m.Normal.X, m.Normal.Y); math.Abs(l-1) > 1e-12 {
		errorf("%s.Normal = %v, length %.17g, want 1", call, m.Normal, l)
	}
	if !(m.Depth > 0) {
		errorf("%s.Depth = %g on a hit, want > 0", call, m.Depth)
	}
	if m.Count < 1 || m.Count > 2 {
		errorf("%s.Count = %d, want 1 or 2", call, m.Count)
		return false
	}
	for i, p := range m.Points[:m.Count] {
		if !p.Point.IsFinite() || !shape.IsFinite(p.Depth) {
			errorf("%s.Points[%d] = %+v, not finite", call, i, p)
			continue
		}
		if !(p.Depth > 0) || p.Depth > m.Depth*(1+npRelTol)+1e-12*scale {
			errorf("%s.Points[%d].Depth = %.17g, want in (0, %.17g]", call, i, p.Depth, m.Depth)
		}
		if da := a.distTo(p.Point); da > m.Depth+tol {
			errorf("%s.Points[%d] = %v is %.17g from A, want ≤ Depth %.17g", call, i, p.Point, da, m.Depth)
		}
		if db := b.distTo(p.Point); db > m.Depth+tol {
			errorf("%s.Points[%d] = %v is %.17g from B, want ≤ Depth %.17g", call, i, p.Point, db, m.Depth)
		}
	}
	return ok
}

// npReport collects statistics of one property run.
type npReport struct {
	hits, ties, mtvChecked int
}

// npCheckPair checks every property of Collide and Overlap on one
// pair against the oracle. It returns false if the pair failed.
func npCheckPair(t *testing.T, sa shape.Shape, ta shape.Transform, sb shape.Shape, tb shape.Transform, sampleDirs int, rep *npReport) bool {
	t.Helper()
	ok := true
	errorf := func(format string, args ...any) {
		t.Helper()
		if ok {
			format += "\n\tpair:\n\t%s"
			args = append(args, npDescribe(sa, ta, sb, tb))
		}
		ok = false
		t.Errorf(format, args...)
	}
	a, b := npPlace(sa, ta), npPlace(sb, tb)
	scale := npExtent(a, b)
	want := exactOracle(a, b)
	if sa.Kind() == shape.KindSegment && sb.Kind() == shape.KindSegment {
		// Walls never collide with walls, however they cross.
		want = oracleResult{Depth: math.Inf(-1)}
	}
	tol := npRelTol * math.Max(math.Abs(want.Depth), scale)
	nearZero := math.Abs(want.Depth) <= tol
	ab, ba := npCall(sa, sb), npCall(sb, sa)

	m, hit := narrowphase.Collide(sa, ta, sb, tb)
	mr, hitr := narrowphase.Collide(sb, tb, sa, ta)
	if ov := narrowphase.Overlap(sa, ta, sb, tb); ov != hit {
		errorf("Overlap(%s, %s) = %v, but %s hit = %v (oracle depth %.3g)", sa.Kind(), sb.Kind(), ov, ab, hit, want.Depth)
	}
	if ov := narrowphase.Overlap(sb, tb, sa, ta); ov != hitr {
		errorf("Overlap(%s, %s) = %v, but %s hit = %v (oracle depth %.3g)", sb.Kind(), sa.Kind(), ov, ba, hitr, want.Depth)
	}
	if !nearZero {
		if hit != want.Hit() {
			errorf("%s hit = %v, want %v (oracle depth %.17g)", ab, hit, want.Hit(), want.Depth)
		}
		if hitr != want.Hit() {
			errorf("%s hit = %v, want %v (oracle depth %.17g)", ba, hitr, want.Hit(), want.Depth)
		}
	}
	if !hit || !hitr {
		return ok
	}
	rep.hits++
	if !npCheckManifold(t, ab, m, a, b) || !npCheckManifold(t, ba, mr, b, a) {
		t.Logf("pair:\n\t%s", npDescribe(sa, ta, sb, tb))
		return false
	}

	// The depth is the oracle's, and the normal reaches it.
	if math.Abs(m.Depth-want.Depth) > tol {
		errorf("%s.Depth = %.17g, want %.17g (oracle normal %v)", ab, m.Depth, want.Depth, want.Normal)
	}
	if got := npPush(a, b, m.Normal); math.Abs(got-m.Depth) > tol {
		errorf("%s: overlap along Normal %v is %.17g, want Depth %.17g", ab, m.Normal, got, m.Depth)
	}
	// Symmetry: same depth, negated normal. Where two directions tie for the
	// minimum, either is a valid answer, so a different normal must still
	// reach the depth.
	if math.Abs(mr.Depth-m.Depth) > tol {
		errorf("%s.Depth = %.17g, but %s.Depth = %.17g", ba, mr.Depth, ab, m.Depth)
	}
	if d := math.Hypot(mr.Normal.X+m.Normal.X, mr.Normal.Y+m.Normal.Y); d > 1e-9 {
		if got := npPush(a, b, mr.Normal.Neg()); math.Abs(got-m.Depth) > tol {
			errorf("%s.Normal = %v, want %v negated (%s.Normal = %v)", ba, mr.Normal, m.Normal, ab, m.Normal)
		} else {
			rep.ties++
		}
	}
	// Depth never exceeds the overlap along any sampled direction.
	for i := range sampleDirs {
		s, c := math.Sincos(2 * math.Pi * float64(i) / float64(sampleDirs))
		if o := npOverlapAlong(a, b, xy(c, s)); m.Depth > o+tol {
			errorf("%s.Depth = %.17g exceeds the overlap %.17g along %v", ab, m.Depth, o, xy(c, s))
			break
		}
	}
	// MTV: a little more than Depth separates, a little less does not. Skip
	// depths so small that 0.1% of them drowns in rounding.
	if m.Depth > 1e-6*scale {
		rep.mtvChecked++
		for _, c := range []struct {
			name   string
			a      shape.Shape
			ta     shape.Transform
			b      shape.Shape
			tb     shape.Transform
			normal shape.Vec2
			depth  float64
		}{
			{ab, sa, ta, sb, tb, m.Normal, m.Depth},
			{ba, sb, tb, sa, ta, mr.Normal, mr.Depth},
		} {
			far := npMoved(c.tb, c.normal.Scale(c.depth*1.001))
			if _, hit := narrowphase.Collide(c.a, c.ta, c.b, far); hit {
				errorf("%s after moving B by Normal*Depth*1.001 still hits", c.name)
			}
			if narrowphase.Overlap(c.a, c.ta, c.b, far) {
				errorf("Overlap after moving B by %s's Normal*Depth*1.001 is still true", c.name)
			}
			near := npMoved(c.tb, c.normal.Scale(c.depth*0.99))
			if _, hit := narrowphase.Collide(c.a, c.ta, c.b, near); !hit {
				errorf("%s after moving B by Normal*Depth*0.99 no longer hits", c.name)
			}
			if !narrowphase.Overlap(c.a, c.ta, c.b, near) {
				errorf("Overlap after moving B by %s's Normal*Depth*0.99 is false", c.name)
			}
		}
	}
	return ok
}

// TestCollideProperties runs random pairs of every ordered kind pair against
// the oracle and the contract.
func TestCollideProperties(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	n := 4000
	if testing.Short() {
		n = 250
	}
	for i, ka := range npKinds {
		for j, kb := range npKinds {
			t.Run(npPairName(ka, kb), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(seed, uint64(4*i+j)))
				var rep npReport
				failures := 0
				for c := range n {
					sa, ta, sb, tb := npRandomPair(t, rng, ka, kb)
					if !npCheckPair(t, sa, ta, sb, tb, 360, &rep) {
						t.Logf("(case %d)", c)
						if failures++; failures >= 3 {
							t.Fatalf("stopping after %d failing cases", failures)
						}
					}
				}
				if rep.hits < n/5 && !(ka == shape.KindSegment && kb == shape.KindSegment) {
					t.Errorf("only %d of %d random pairs overlap: the generator is broken", rep.hits, n)
				}
				t.Logf("%d pairs, %d hits, %d MTV-checked, %d tied normals", n, rep.hits, rep.mtvChecked, rep.ties)
			})
		}
	}
}

// TestCollideTouchingProperties moves random overlapping pairs apart along
// the oracle's MTV, to exactly touching and to just short of it, where
// rounding and tie-breaking errors show most: at contact the result must be
// no hit or a hit within rounding of zero, just short of it a hit of the
// remaining depth.
func TestCollideTouchingProperties(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	n := 1500
	if testing.Short() {
		n = 100
	}
	for i, ka := range npKinds {
		for j, kb := range npKinds {
			t.Run(npPairName(ka, kb), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(seed, 0x70c4+uint64(4*i+j)))
				failures := 0
				for c := range n {
					sa, ta, sb, tb := npRandomPair(t, rng, ka, kb)
					want := exactOracle(npPlace(sa, ta), npPlace(sb, tb))
					if !want.Hit() || want.Depth < 1e-3 {
						continue
					}
					for _, f := range []float64{1, 0.99} {
						var rep npReport
						tb2 := npMoved(tb, want.Normal.Scale(want.Depth*f))
						if !npCheckPair(t, sa, ta, sb, tb2, 36, &rep) {
							t.Logf("(case %d, B moved by %g × the oracle MTV)", c, f)
							if failures++; failures >= 3 {
								t.Fatalf("stopping after %d failing cases", failures)
							}
						}
					}
				}
			})
		}
	}
}
