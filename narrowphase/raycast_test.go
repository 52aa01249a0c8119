package narrowphase_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// querySeed seeds the random ray, point and distance tests. Its own name keeps
// it from clashing with a -seed flag defined elsewhere in this test binary;
// when it is 0 a non-zero -seed is used, if one exists.
var querySeed = flag.Uint64("queryseed", 0, "seed for the RayCast/ContainsPoint/DistanceSq property tests (0: -seed or random)")

// rqRand returns the random source of a property test and logs its seed if
// the test fails, so that the run can be replayed with -queryseed.
func rqRand(t *testing.T) *rand.Rand {
	t.Helper()
	seed := *querySeed
	if seed == 0 {
		if f := flag.Lookup("seed"); f != nil {
			if v, err := strconv.ParseUint(f.Value.String(), 10, 64); err == nil {
				seed = v
			}
		}
	}
	if seed == 0 {
		seed = randomSeed() | 1
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay with -queryseed=%d", seed)
		}
	})
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// rqN returns n, or n/10 under -short.
func rqN(n int) int {
	if testing.Short() {
		return max(n/10, 1)
	}
	return n
}

// rqFixtures returns the hand-computed cases' shapes: a unit circle, a unit
// circle centred at local (1, 0), a 2×1 AABB, a 2×1 OBB and the right
// triangle (0,0), (4,0), (0,4).
func rqFixtures() (circle, offCircle, box, obb, tri shape.Shape) {
	return rqMust(shape.NewCircle(1)),
		rqMust(shape.NewOffsetCircle(shape.V(1, 0), 1)),
		rqMust(shape.NewAABB(2, 1)),
		rqMust(shape.NewOBB(2, 1)),
		rqMust(shape.NewPolygon([]shape.Vec2{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 0, Y: 4}}))
}

// rqMust returns s, panicking on err: it wraps constructors called with
// constant, valid arguments.
func rqMust(s shape.Shape, err error) shape.Shape {
	if err != nil {
		panic(err)
	}
	return s
}

// rqNear reports whether got is within tol of want, the tolerance growing
// with |want| beyond 1 (relative at large coordinates).
func rqNear(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// rqNearVec reports whether got is within tol of want in each coordinate:
// an absolute tolerance, which world points at 1e6 still meet at 1e-9.
func rqNearVec(got, want shape.Vec2, tol float64) bool {
	return math.Abs(got.X-want.X) <= tol && math.Abs(got.Y-want.Y) <= tol
}

// rqRotate rotates v by angle with its own trigonometry, independent of
// shape.Rot.
func rqRotate(v shape.Vec2, angle float64) shape.Vec2 {
	s, c := math.Sincos(angle)
	return shape.Vec2{X: c*v.X - s*v.Y, Y: s*v.X + c*v.Y}
}

// rqBody is a shape placed in the world, with the geometry the oracles use
// computed here from the definition (an AABB ignores the angle), not through
// the package under test.
type rqBody struct {
	s      shape.Shape
	tf     shape.Transform
	pos    shape.Vec2
	angle  float64
	centre shape.Vec2   // circles: world centre
	radius float64      // circles
	verts  []shape.Vec2 // boxes and polygons: world vertices, counter-clockwise
}

func rqPlace(s shape.Shape, pos shape.Vec2, angle float64) rqBody {
	b := rqBody{s: s, tf: shape.NewTransform(pos, angle), pos: pos, angle: angle}
	switch s.Kind() {
	case shape.KindCircle:
		b.centre = pos.Add(rqRotate(s.Center(), angle))
		b.radius = s.Radius()
	case shape.KindAABB, shape.KindOBB:
		h := s.HalfExtents()
		a := angle
		if s.Kind() == shape.KindAABB {
			a = 0
		}
		for _, c := range []shape.Vec2{{X: -h.X, Y: -h.Y}, {X: h.X, Y: -h.Y}, {X: h.X, Y: h.Y}, {X: -h.X, Y: h.Y}} {
			b.verts = append(b.verts, pos.Add(rqRotate(c, a)))
		}
	case shape.KindPolygon:
		for _, v := range s.Vertices() {
			b.verts = append(b.verts, pos.Add(rqRotate(v, angle)))
		}
	}
	return b
}

// inside reports whether p lies in the body, boundary included, by the
// side-of-edge test on world vertices (or the world centre for circles).
func (b rqBody) inside(p shape.Vec2) bool {
	if b.s.Kind() == shape.KindCircle {
		d := p.Sub(b.centre)
		return d.X*d.X+d.Y*d.Y <= b.radius*b.radius
	}
	n := len(b.verts)
	for i, v := range b.verts {
		e := b.verts[(i+1)%n].Sub(v)
		w := p.Sub(v)
		if e.X*w.Y-e.Y*w.X < 0 {
			return false
		}
	}
	return true
}

// edgeNormal returns the world outward unit normal of edge i.
func (b rqBody) edgeNormal(i int) shape.Vec2 {
	e := b.verts[(i+1)%len(b.verts)].Sub(b.verts[i])
	l := math.Hypot(e.X, e.Y)
	return shape.Vec2{X: e.Y / l, Y: -e.X / l}
}

// boundaryDist returns the distance from p to the body's boundary: for
// polygons a ternary search along every edge (the distance to a point is
// convex along a segment), for circles a dense sample of 3600 angles refined
// by ternary search around the best one.
func (b rqBody) boundaryDist(p shape.Vec2) float64 {
	ternary := func(f func(float64) float64, lo, hi float64) float64 {
		for range 200 {
			m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
			if f(m1) < f(m2) {
				hi = m2
			} else {
				lo = m1
			}
		}
		return f((lo + hi) / 2)
	}
	dist := func(q shape.Vec2) float64 { return math.Hypot(p.X-q.X, p.Y-q.Y) }
	if b.s.Kind() == shape.KindCircle {
		at := func(a float64) float64 {
			return dist(b.centre.Add(shape.Vec2{X: b.radius * math.Cos(a), Y: b.radius * math.Sin(a)}))
		}
		const k = 3600
		step := 2 * math.Pi / k
		best, bestA := math.Inf(1), 0.0
		for i := range k {
			if d := at(float64(i) * step); d < best {
				best, bestA = d, float64(i)*step
			}
		}
		return math.Min(best, ternary(at, bestA-step, bestA+step))
	}
	best := math.Inf(1)
	n := len(b.verts)
	for i, v := range b.verts {
		e := b.verts[(i+1)%n].Sub(v)
		best = math.Min(best, ternary(func(u float64) float64 { return dist(v.Add(e.Scale(u))) }, 0, 1))
	}
	return best
}

// randomPoint returns a random point of the body.
func (b rqBody) randomPoint(r *rand.Rand) shape.Vec2 {
	if b.s.Kind() == shape.KindCircle {
		a, l := 2*math.Pi*r.Float64(), b.radius*math.Sqrt(r.Float64())
		return b.centre.Add(shape.Vec2{X: l * math.Cos(a), Y: l * math.Sin(a)})
	}
	var p shape.Vec2
	var sum float64
	for _, v := range b.verts {
		w := r.Float64()
		p, sum = p.Add(v.Scale(w)), sum+w
	}
	return p.Scale(1 / sum)
}

// rqRandomShape returns a random valid shape of the kind.
func rqRandomShape(r *rand.Rand, k shape.Kind) shape.Shape {
	size := func() float64 { return 0.05 + 5*r.Float64() }
	for {
		var s shape.Shape
		var err error
		switch k {
		case shape.KindCircle:
			if r.IntN(2) == 0 {
				s, err = shape.NewCircle(size())
			} else {
				s, err = shape.NewOffsetCircle(shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2}, size())
			}
		case shape.KindAABB:
			s, err = shape.NewAABB(size(), size())
		case shape.KindOBB:
			s, err = shape.NewOBB(size(), size())
		case shape.KindPolygon:
			pts := make([]shape.Vec2, 3+r.IntN(14))
			scale := size()
			off := shape.Vec2{X: 2*r.Float64() - 1, Y: 2*r.Float64() - 1}
			for i := range pts {
				pts[i] = off.Add(shape.Vec2{X: scale * (2*r.Float64() - 1), Y: scale * (2*r.Float64() - 1)})
			}
			s, err = shape.ConvexHull(pts)
		}
		if err == nil {
			return s
		}
	}
}

// rqKinds lists the shape kinds; sub-tests are named after them.
var rqKinds = []shape.Kind{shape.KindCircle, shape.KindAABB, shape.KindOBB, shape.KindPolygon}

// rqRandomBody places a random shape of the kind near base.
func rqRandomBody(r *rand.Rand, k shape.Kind, base shape.Vec2) rqBody {
	pos := base.Add(shape.Vec2{X: 20*r.Float64() - 10, Y: 20*r.Float64() - 10})
	return rqPlace(rqRandomShape(r, k), pos, 2*math.Pi*r.Float64()-math.Pi)
}

func TestRayCast(t *testing.T) {
	circle, offCircle, box, obb, tri := rqFixtures()
	circleHalf := rqMust(shape.NewCircle(0.5))
	unitOBB := rqMust(shape.NewOBB(1, 1))
	square := rqMust(shape.NewPolygon([]shape.Vec2{{X: -1, Y: -1}, {X: 1, Y: -1}, {X: 1, Y: 1}, {X: -1, Y: 1}}))

	s2 := math.Sqrt2
	diag := shape.V(1, 1).Normalize()
	id := shape.Transform{}
	tf := shape.NewTransform
	type want struct {
		dist    float64
		point   shape.Vec2
		normals []shape.Vec2 // any one of them (a ray through a vertex)
	}
	tests := []struct {
		name        string
		s           shape.Shape
		t           shape.Transform
		origin, dir shape.Vec2
		maxDist     float64
		hit         bool
		want        want
	}{
		{"circle/head-on", circle, id, shape.V(-5, 0), shape.V(1, 0), 10, true,
			want{4, shape.V(-1, 0), []shape.Vec2{{X: -1}}}},
		{"circle/diagonal", circle, id, shape.V(-3, -3), diag, 10, true,
			want{3*s2 - 1, diag.Scale(-1), []shape.Vec2{diag.Neg()}}},
		{"circle/offset-rotated", offCircle, tf(shape.V(10, 0), math.Pi/2), shape.V(10, -5), shape.V(0, 1), 10, true,
			want{5, shape.V(10, 0), []shape.Vec2{{Y: -1}}}},
		{"circle/tangent-grazing", circle, id, shape.V(-5, 1), shape.V(1, 0), 10, true,
			want{5, shape.V(0, 1), []shape.Vec2{{Y: 1}}}},
		{"circle/just-misses", circle, id, shape.V(-5, 1+1e-9), shape.V(1, 0), 10, false, want{}},
		{"circle/pointing-away", circle, id, shape.V(-5, 0), shape.V(-1, 0), 10, false, want{}},
		{"circle/far-origin-stable-discriminant", circle, id, shape.V(-1e6, 0.3), shape.V(1, 0), 2e6, true,
			want{1e6 - math.Sqrt(0.91), shape.V(-math.Sqrt(0.91), 0.3), []shape.Vec2{{X: -math.Sqrt(0.91), Y: 0.3}}}},
		{"circle/just-outside-leaving-obliquely", circle, id, shape.V(0, -1.01), shape.V(0.96, -0.28), 10, false, want{}},
		{"circle/max-dist-too-short", circle, id, shape.V(-5, 0), shape.V(1, 0), 3.9, false, want{}},
		{"circle/max-dist-exact", circle, id, shape.V(-5, 0), shape.V(1, 0), 4, true,
			want{4, shape.V(-1, 0), []shape.Vec2{{X: -1}}}},
		{"circle/origin-inside", circle, id, shape.V(0.5, 0), shape.V(0, 1), 10, true,
			want{0, shape.V(0.5, 0), []shape.Vec2{{Y: -1}}}},
		{"circle/origin-on-boundary-away", circle, id, shape.V(1, 0), shape.V(1, 0), 10, true,
			want{0, shape.V(1, 0), []shape.Vec2{{X: -1}}}},
		{"circle/large-coordinates", circleHalf, tf(shape.V(1e6, -1e6), 0.3), shape.V(1e6-10, -1e6+0.3), shape.V(1, 0), 20, true,
			want{9.6, shape.V(1e6-0.4, -1e6+0.3), []shape.Vec2{{X: -0.8, Y: 0.6}}}},

		{"aabb/head-on", box, id, shape.V(-5, 0), shape.V(1, 0), 10, true,
			want{3, shape.V(-2, 0), []shape.Vec2{{X: -1}}}},
		{"aabb/rotated-transform-ignored", box, tf(shape.V(0, 0), math.Pi/4), shape.V(-5, 0), shape.V(1, 0), 10, true,
			want{3, shape.V(-2, 0), []shape.Vec2{{X: -1}}}},
		{"aabb/rotated-transform-from-top", box, tf(shape.V(1, 1), 0.7), shape.V(1.5, 6), shape.V(0, -1), 10, true,
			want{4, shape.V(1.5, 2), []shape.Vec2{{Y: 1}}}},
		{"aabb/corner", box, id, shape.V(-4, -3), diag, 10, true,
			want{2 * s2, shape.V(-2, -1), []shape.Vec2{{X: -1}, {Y: -1}}}},
		{"aabb/grazing-along-edge", box, id, shape.V(-5, 1), shape.V(1, 0), 10, true,
			want{3, shape.V(-2, 1), []shape.Vec2{{X: -1}}}},
		{"aabb/grazing-just-outside", box, id, shape.V(-5, 1+1e-9), shape.V(1, 0), 10, false, want{}},
		{"aabb/pointing-away", box, id, shape.V(5, 0), shape.V(1, 0), 10, false, want{}},
		{"aabb/behind-origin", box, id, shape.V(5, 0), shape.V(0, 1), 10, false, want{}},
		{"aabb/max-dist-too-short", box, id, shape.V(-5, 0), shape.V(1, 0), 2.999, false, want{}},
		{"aabb/origin-inside", box, id, shape.V(1, 0.5), shape.V(-1, 0), 10, true,
			want{0, shape.V(1, 0.5), []shape.Vec2{{X: 1}}}},
		{"aabb/large-coordinates", box, tf(shape.V(1e6, 1e6), 2), shape.V(1e6+0.5, 1e6+10), shape.V(0, -1), 20, true,
			want{9, shape.V(1e6+0.5, 1e6+1), []shape.Vec2{{Y: 1}}}},

		{"obb/rotated-90", obb, tf(shape.V(3, 4), math.Pi/2), shape.V(3, -10), shape.V(0, 1), 20, true,
			want{12, shape.V(3, 2), []shape.Vec2{{Y: -1}}}},
		{"obb/rotated-90-side", obb, tf(shape.V(3, 4), math.Pi/2), shape.V(-10, 5.5), shape.V(1, 0), 20, true,
			want{12, shape.V(2, 5.5), []shape.Vec2{{X: -1}}}},
		{"obb/rotated-45-edge", unitOBB, tf(shape.V(0, 0), math.Pi/4), shape.V(-5, 0.5), shape.V(1, 0), 20, true,
			want{5.5 - s2, shape.V(0.5-s2, 0.5), []shape.Vec2{shape.V(-1, 1).Normalize()}}},
		{"obb/rotated-45-vertex", unitOBB, tf(shape.V(0, 0), math.Pi/4), shape.V(-5, 0), shape.V(1, 0), 20, true,
			want{5 - s2, shape.V(-s2, 0), []shape.Vec2{shape.V(-1, 1).Normalize(), shape.V(-1, -1).Normalize()}}},
		{"obb/rotated-45-misses-beside-vertex", unitOBB, tf(shape.V(0, 0), math.Pi/4), shape.V(-5, s2+1e-9), shape.V(1, 0), 20, false, want{}},
		{"obb/origin-inside", obb, tf(shape.V(3, 4), 1), shape.V(3.1, 4.1), shape.V(0, 1), 20, true,
			want{0, shape.V(3.1, 4.1), []shape.Vec2{{Y: -1}}}},
		{"obb/large-coordinates", unitOBB, tf(shape.V(-1e6, 1e6), math.Pi/4), shape.V(-1e6-5, 1e6+0.5), shape.V(1, 0), 20, true,
			want{5.5 - s2, shape.V(-1e6+0.5-s2, 1e6+0.5), []shape.Vec2{shape.V(-1, 1).Normalize()}}},

		{"polygon/edge", tri, tf(shape.V(10, 0), 0), shape.V(20, 1), shape.V(-1, 0), 20, true,
			want{7, shape.V(13, 1), []shape.Vec2{diag}}},
		{"polygon/vertex", tri, tf(shape.V(10, 0), 0), shape.V(18, -2), shape.V(-4, 2).Normalize(), 20, true,
			want{math.Sqrt(20), shape.V(14, 0), []shape.Vec2{diag, {Y: -1}}}},
		{"polygon/grazing-along-edge", tri, tf(shape.V(10, 0), 0), shape.V(20, 0), shape.V(-1, 0), 20, true,
			want{6, shape.V(14, 0), []shape.Vec2{diag, {Y: -1}}}},
		{"polygon/grazing-just-outside", tri, tf(shape.V(10, 0), 0), shape.V(20, -1e-9), shape.V(-1, 0), 20, false, want{}},
		{"polygon/pointing-away", tri, tf(shape.V(10, 0), 0), shape.V(20, 1), shape.V(1, 0), 20, false, want{}},
		{"polygon/max-dist-too-short", tri, tf(shape.V(10, 0), 0), shape.V(20, 1), shape.V(-1, 0), 6.99, false, want{}},
		{"polygon/origin-inside", tri, tf(shape.V(10, 0), 0), shape.V(11, 1), shape.V(0, -1), 20, true,
			want{0, shape.V(11, 1), []shape.Vec2{{Y: 1}}}},
		{"polygon/origin-on-edge-away", tri, tf(shape.V(10, 0), 0), shape.V(11, 0), shape.V(0, -1), 20, true,
			want{0, shape.V(11, 0), []shape.Vec2{{Y: 1}}}},
		{"polygon/rotated-45", square, tf(shape.V(0, 0), math.Pi/4), shape.V(-5, 0.5), shape.V(1, 0), 20, true,
			want{5.5 - s2, shape.V(0.5-s2, 0.5), []shape.Vec2{shape.V(-1, 1).Normalize()}}},
		{"polygon/rotated-90", tri, tf(shape.V(0, 0), math.Pi/2), shape.V(-1, 10), shape.V(0, -1), 20, true,
			want{7, shape.V(-1, 3), []shape.Vec2{shape.V(-1, 1).Normalize()}}},
		{"polygon/large-coordinates", square, tf(shape.V(1e6, 1e6), math.Pi/4), shape.V(1e6-5, 1e6+0.5), shape.V(1, 0), 20, true,
			want{5.5 - s2, shape.V(1e6+0.5-s2, 1e6+0.5), []shape.Vec2{shape.V(-1, 1).Normalize()}}},

		{"zero-dir", circle, id, shape.V(-5, 0), shape.V(0, 0), 10, false, want{}},
		{"nan-dir", box, id, shape.V(-5, 0), shape.V(math.NaN(), 0), 10, false, want{}},
		{"inf-origin", tri, id, shape.V(math.Inf(-1), 1), shape.V(1, 0), math.Inf(1), false, want{}},
		{"negative-max-dist", box, id, shape.V(0, 0), shape.V(1, 0), -1, false, want{}},
		{"nan-max-dist", box, id, shape.V(-5, 0), shape.V(1, 0), math.NaN(), false, want{}},
		{"zero-max-dist-outside", square, id, shape.V(-5, 0), shape.V(1, 0), 0, false, want{}},
		{"zero-max-dist-inside", square, id, shape.V(0, 0), shape.V(1, 0), 0, true,
			want{0, shape.V(0, 0), []shape.Vec2{{X: -1}}}},
		{"infinite-max-dist", square, id, shape.V(-1e9, 0), shape.V(1, 0), math.Inf(1), true,
			want{1e9 - 1, shape.V(-1, 0), []shape.Vec2{{X: -1}}}},
		{"zero-shape", shape.Shape{}, id, shape.V(0, 0), shape.V(1, 0), 10, false, want{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hit := narrowphase.RayCast(tt.s, tt.t, tt.origin, tt.dir, tt.maxDist)
			if hit != tt.hit {
				t.Fatalf("RayCast(%v).hit = %v (%+v), want %v", tt.s, hit, got, tt.hit)
			}
			if !hit {
				if got != (narrowphase.RayHit{}) {
					t.Errorf("RayCast(%v) missed but returned %+v, want the zero RayHit", tt.s, got)
				}
				return
			}
			if !rqNear(got.Distance, tt.want.dist, 1e-9) {
				t.Errorf("RayCast(%v).Distance = %.12g, want %.12g", tt.s, got.Distance, tt.want.dist)
			}
			if !rqNearVec(got.Point, tt.want.point, 1e-9) {
				t.Errorf("RayCast(%v).Point = %v, want %v", tt.s, got.Point, tt.want.point)
			}
			ok := false
			for _, n := range tt.want.normals {
				ok = ok || rqNearVec(got.Normal, n, 1e-9)
			}
			if !ok {
				t.Errorf("RayCast(%v).Normal = %v, want one of %v", tt.s, got.Normal, tt.want.normals)
			}
			if tt.want.dist == 0 && got.Normal != tt.dir.Neg() {
				t.Errorf("RayCast(%v) from inside: Normal = %v, want exactly -dir = %v", tt.s, got.Normal, tt.dir.Neg())
			}
		})
	}
}

// TestRayCastAABBIgnoresRotation casts the same rays at an AABB placed with
// several angles: every answer must equal the one at angle 0.
func TestRayCastAABBIgnoresRotation(t *testing.T) {
	r := rqRand(t)
	box := rqMust(shape.NewAABB(1.5, 0.5))
	pos := shape.V(3, -2)
	for _, angle := range []float64{math.Pi / 2, math.Pi / 4, -2, math.Pi} {
		for range 200 {
			o := pos.Add(shape.V(10*r.Float64()-5, 10*r.Float64()-5))
			a := 2 * math.Pi * r.Float64()
			dir := shape.V(math.Cos(a), math.Sin(a))
			want, wantHit := narrowphase.RayCast(box, shape.NewTransform(pos, 0), o, dir, 8)
			got, hit := narrowphase.RayCast(box, shape.NewTransform(pos, angle), o, dir, 8)
			if hit != wantHit || got != want {
				t.Fatalf("RayCast(aabb at angle %.3f, %v, %v) = %+v, %v, want %+v, %v (as at angle 0)", angle, o, dir, got, hit, want, wantHit)
			}
		}
	}
}

// TestRayCastMatchesMarch compares RayCast on random rays with a brute-force
// oracle: march along the ray in small steps with an independent
// side-of-edge test, then bisect the first step that enters.
func TestRayCastMatchesMarch(t *testing.T) {
	for _, far := range []bool{false, true} {
		for _, k := range rqKinds {
			name := k.String()
			base := shape.Vec2{}
			if far {
				name += "/at-1e6"
				base = shape.V(1e6, -1e6)
			}
			t.Run(name, func(t *testing.T) {
				r := rqRand(t)
				entered := 0
				for i := range rqN(300) {
					b := rqRandomBody(r, k, base)
					if rqCheckRay(t, r, b, base, i) {
						entered++
					}
				}
				if entered == 0 {
					t.Fatalf("no random ray entered its shape from outside: the test checks nothing")
				}
			})
		}
	}
}

// rqCheckRay casts one random ray at b and checks it against the march
// oracle. It reports whether the ray entered the shape from outside.
func rqCheckRay(t *testing.T, r *rand.Rand, b rqBody, base shape.Vec2, i int) bool {
	t.Helper()
	origin := base.Add(shape.V(40*r.Float64()-20, 40*r.Float64()-20))
	var dir shape.Vec2
	if r.IntN(2) == 0 {
		target := b.randomPoint(r)
		d := target.Sub(origin)
		dir = d.Scale(1 / math.Hypot(d.X, d.Y))
	} else {
		a := 2 * math.Pi * r.Float64()
		dir = shape.V(math.Cos(a), math.Sin(a))
	}
	maxDist := 60 * r.Float64()
	if r.IntN(4) == 0 {
		maxDist = math.Inf(1)
	}
	got, hit := narrowphase.RayCast(b.s, b.tf, origin, dir, maxDist)
	where := func() string {
		return "ray " + strconv.Itoa(i) + ": " + b.s.String() + " at " + rqFmt(b.pos) + " angle " +
			strconv.FormatFloat(b.angle, 'g', 17, 64) + ", origin " + rqFmt(origin) + " dir " + rqFmt(dir) +
			" maxDist " + strconv.FormatFloat(maxDist, 'g', 17, 64)
	}

	// Oracle: march to min(maxDist, 100); every body is within 80 of the
	// origin.
	span := math.Min(maxDist, 100)
	const steps = 4000
	h := span / steps
	at := func(d float64) shape.Vec2 { return origin.Add(dir.Scale(d)) }
	oracleHit, oracleDist := false, 0.0
	if b.inside(origin) {
		oracleHit = true
	} else {
		for j := 1; j <= steps; j++ {
			d := float64(j) * h
			if j == steps {
				d = span
			}
			if b.inside(at(d)) {
				lo, hi := float64(j-1)*h, d
				for range 100 {
					mid := (lo + hi) / 2
					if b.inside(at(mid)) {
						hi = mid
					} else {
						lo = mid
					}
				}
				oracleHit, oracleDist = true, hi
				break
			}
		}
	}

	switch {
	case hit && !oracleHit:
		// Only a chord thinner than one step may slip between the samples:
		// the hit must be on the boundary and the ray outside again soon.
		if bd := b.boundaryDist(got.Point); bd > 1e-6 || b.inside(at(got.Distance+1.01*h)) {
			t.Fatalf("%s: RayCast hit at %.9g (%+v), oracle: no hit (boundary distance %.3g)", where(), got.Distance, got, bd)
		}
	case !hit && oracleHit:
		t.Fatalf("%s: RayCast missed, oracle hit at %.9g", where(), oracleDist)
	case hit:
		if math.Abs(got.Distance-oracleDist) > 1e-6 {
			t.Fatalf("%s: RayCast.Distance = %.12g, want %.12g (oracle)", where(), got.Distance, oracleDist)
		}
	}
	if !hit {
		return false
	}
	if !got.Point.IsFinite() || !got.Normal.IsFinite() || !(got.Distance >= 0 && got.Distance <= maxDist) {
		t.Fatalf("%s: RayCast = %+v: non-finite or out of [0, maxDist]", where(), got)
	}
	if l := math.Hypot(got.Normal.X, got.Normal.Y); math.Abs(l-1) > 1e-12 {
		t.Fatalf("%s: |RayCast.Normal| = %.15g, want 1", where(), l)
	}
	if !rqNearVec(got.Point, at(got.Distance), 1e-9) {
		t.Fatalf("%s: RayCast.Point = %v, want origin + Distance·dir = %v", where(), got.Point, at(got.Distance))
	}
	if got.Distance == 0 {
		if got.Normal != dir.Neg() {
			t.Fatalf("%s: RayCast from inside: Normal = %v, want -dir", where(), got.Normal)
		}
		return false
	}
	if bd := b.boundaryDist(got.Point); bd > 1e-6 {
		t.Fatalf("%s: RayCast.Point %v is %.3g from the boundary, want on it", where(), got.Point, bd)
	}
	if got.Normal.Dot(dir) > 1e-9 {
		t.Fatalf("%s: RayCast.Normal = %v points along the ray %v, want it to face the ray", where(), got.Normal, dir)
	}
	if b.s.Kind() == shape.KindCircle {
		want := got.Point.Sub(b.centre).Scale(1 / b.radius)
		if !rqNearVec(got.Normal, want, 1e-6) {
			t.Fatalf("%s: RayCast.Normal = %v, want %v (radial)", where(), got.Normal, want)
		}
		return true
	}
	// The normal must be the normal of an edge whose line holds the point.
	for j, v := range b.verts {
		n := b.edgeNormal(j)
		if rqNearVec(got.Normal, n, 1e-6) && math.Abs(got.Point.Sub(v).Dot(n)) <= 1e-6 {
			return true
		}
	}
	t.Fatalf("%s: RayCast.Normal = %v at %v is no normal of an edge through the point", where(), got.Normal, got.Point)
	return false
}

func rqFmt(v shape.Vec2) string {
	return "(" + strconv.FormatFloat(v.X, 'g', 17, 64) + ", " + strconv.FormatFloat(v.Y, 'g', 17, 64) + ")"
}

// TestRayCastStartInsideAgreesWithContainsPoint checks that a ray of length
// zero hits, with Normal = -dir, exactly when ContainsPoint holds at its
// origin, including origins on vertices and edges.
func TestRayCastStartInsideAgreesWithContainsPoint(t *testing.T) {
	for _, k := range rqKinds {
		t.Run(k.String(), func(t *testing.T) {
			r := rqRand(t)
			for range rqN(2000) {
				b := rqRandomBody(r, k, shape.Vec2{})
				var p shape.Vec2
				switch {
				case r.IntN(3) == 0 && len(b.verts) > 0:
					p = b.verts[r.IntN(len(b.verts))]
				case r.IntN(2) == 0:
					p = b.randomPoint(r)
				default:
					p = b.pos.Add(shape.V(16*r.Float64()-8, 16*r.Float64()-8))
				}
				a := 2 * math.Pi * r.Float64()
				dir := shape.V(math.Cos(a), math.Sin(a))
				got, hit := narrowphase.RayCast(b.s, b.tf, p, dir, 0)
				in := narrowphase.ContainsPoint(b.s, b.tf, p)
				if in != (hit && got.Distance == 0 && got.Normal == dir.Neg()) {
					t.Fatalf("RayCast(%v at %v angle %g, origin %v, dir %v, 0) = %+v, %v; ContainsPoint = %v",
						b.s, b.pos, b.angle, p, dir, got, hit, in)
				}
			}
		})
	}
}

// TestRayCastNoAllocation checks that RayCast allocates nothing.
func TestRayCastNoAllocation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range rqKinds {
		b := rqRandomBody(r, k, shape.Vec2{})
		allocs := testing.AllocsPerRun(100, func() {
			narrowphase.RayCast(b.s, b.tf, shape.V(-30, 0.1), shape.V(1, 0), 100)
			narrowphase.ContainsPoint(b.s, b.tf, shape.V(0.5, 0.1))
			narrowphase.DistanceSq(b.s, b.tf, shape.V(20, 7))
		})
		if allocs != 0 {
			t.Errorf("RayCast/ContainsPoint/DistanceSq(%s) allocate %v times per run, want 0", k, allocs)
		}
	}
}
