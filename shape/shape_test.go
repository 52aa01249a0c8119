package shape_test

import (
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// seedFlag fixes the seed of the property tests: go test ./shape -shape.seed=N.
var seedFlag = flag.Uint64("shape.seed", 0, "seed for the shape property tests (0 picks one)")

// newRand returns a PCG generator and logs its seed if the test fails, so
// that any failure can be replayed with -shape.seed.
func newRand(t *testing.T) *rand.Rand {
	t.Helper()
	seed := *seedFlag
	if seed == 0 {
		seed = randomSeed()
	}
	t.Logf("seed %d (set with -shape.seed)", seed)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay with: go test ./shape -run '^%s$' -shape.seed=%d", t.Name(), seed)
		}
	})
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// iters returns full in normal runs and short under -short.
func iters(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// near reports whether a and b agree within tol, absolute below 1 and
// relative above, the one float comparison used by these tests.
func near(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func vecNear(a, b shape.Vec2, tol float64) bool { return near(a.X, b.X, tol) && near(a.Y, b.Y, tol) }

func aabbNear(a, b shape.AABB, tol float64) bool {
	return vecNear(a.Min, b.Min, tol) && vecNear(a.Max, b.Max, tol)
}

// sentinels is every error a shape constructor may wrap.
var sentinels = []error{
	shape.ErrNotFinite, shape.ErrNonPositiveSize, shape.ErrTooFewVertices,
	shape.ErrTooManyVertices, shape.ErrCollinear, shape.ErrSelfIntersecting,
	shape.ErrNonConvex, shape.ErrTooLarge, shape.ErrInvalidPart,
}

// checkErr fails t unless err wraps want and carries the package prefix.
func checkErr(t *testing.T, call string, err, want error) {
	t.Helper()
	switch {
	case err == nil:
		t.Fatalf("%s error = nil, want %v", call, want)
	case !errors.Is(err, want):
		t.Fatalf("%s error = %q, want it to wrap %q", call, err, want)
	case !strings.HasPrefix(err.Error(), "shape: "):
		t.Fatalf("%s error = %q, want prefix %q", call, err, "shape: ")
	}
}

// must returns a function that unwraps a constructor's result and fails t
// on error: must(t)(shape.NewCircle(1)).
func must(t *testing.T) func(shape.Shape, error) shape.Shape {
	return func(s shape.Shape, err error) shape.Shape {
		t.Helper()
		if err != nil {
			t.Fatalf("constructor error = %v, want nil", err)
		}
		return s
	}
}

func TestKindString(t *testing.T) {
	tests := []struct {
		k    shape.Kind
		want string
	}{
		{shape.KindCircle, "circle"},
		{shape.KindAABB, "aabb"},
		{shape.KindOBB, "obb"},
		{shape.KindPolygon, "polygon"},
		{shape.KindCapsule, "capsule"},
		{shape.KindSegment, "segment"},
		{shape.KindCompound, "compound"},
		{shape.KindChain, "chain"},
		{shape.Kind(shape.KindCount), "Kind(8)"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.k.String(); got != tc.want {
				t.Errorf("Kind(%d).String() = %q, want %q", uint8(tc.k), got, tc.want)
			}
		})
	}
	if shape.KindCount != 8 || int(shape.KindChain) != shape.KindCount-1 {
		t.Errorf("KindCount = %d with KindChain = %d, want 8 and 7", shape.KindCount, shape.KindChain)
	}
	for k := range shape.Kind(shape.KindCount) {
		if want := k < shape.KindCompound; k.Convex() != want {
			t.Errorf("%v.Convex() = %v, want %v", k, k.Convex(), want)
		}
	}
}

func TestZeroShapeIsInvalid(t *testing.T) {
	var s shape.Shape
	if s.Valid() {
		t.Errorf("Shape{}.Valid() = true, want false")
	}
	c := must(t)(shape.NewCircle(1))
	if !c.Valid() {
		t.Errorf("NewCircle(1).Valid() = false, want true")
	}
}

func TestNewCircleErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		c    shape.Vec2
		r    float64
		want error
	}{
		{"r NaN", shape.V(0, 0), nan, shape.ErrNotFinite},
		{"r +Inf", shape.V(0, 0), inf, shape.ErrNotFinite},
		{"r -Inf", shape.V(0, 0), -inf, shape.ErrNotFinite},
		{"cx NaN", shape.V(nan, 0), 1, shape.ErrNotFinite},
		{"cx +Inf", shape.V(inf, 0), 1, shape.ErrNotFinite},
		{"cx -Inf", shape.V(-inf, 0), 1, shape.ErrNotFinite},
		{"cy NaN", shape.V(0, nan), 1, shape.ErrNotFinite},
		{"cy +Inf", shape.V(0, inf), 1, shape.ErrNotFinite},
		{"cy -Inf", shape.V(0, -inf), 1, shape.ErrNotFinite},
		{"NaN beats zero radius", shape.V(nan, 0), 0, shape.ErrNotFinite},
		{"r zero", shape.V(0, 0), 0, shape.ErrNonPositiveSize},
		{"r negative zero", shape.V(0, 0), math.Copysign(0, -1), shape.ErrNonPositiveSize},
		{"r negative", shape.V(3, 4), -1, shape.ErrNonPositiveSize},
		{"r -MaxFloat64", shape.V(0, 0), -math.MaxFloat64, shape.ErrNonPositiveSize},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shape.NewOffsetCircle(tc.c, tc.r)
			checkErr(t, "NewOffsetCircle", err, tc.want)
			if s.Valid() {
				t.Errorf("NewOffsetCircle(%v, %v) returned a valid shape with error %v", tc.c, tc.r, err)
			}
			if tc.c == (shape.Vec2{}) {
				_, err := shape.NewCircle(tc.r)
				checkErr(t, "NewCircle", err, tc.want)
			}
		})
	}
}

func TestNewBoxErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name   string
		hw, hh float64
		want   error
	}{
		{"hw NaN", nan, 1, shape.ErrNotFinite},
		{"hw +Inf", inf, 1, shape.ErrNotFinite},
		{"hw -Inf", -inf, 1, shape.ErrNotFinite},
		{"hh NaN", 1, nan, shape.ErrNotFinite},
		{"hh +Inf", 1, inf, shape.ErrNotFinite},
		{"hh -Inf", 1, -inf, shape.ErrNotFinite},
		{"NaN beats negative", -1, nan, shape.ErrNotFinite},
		{"hw zero", 0, 1, shape.ErrNonPositiveSize},
		{"hh zero", 1, 0, shape.ErrNonPositiveSize},
		{"hw negative", -2, 1, shape.ErrNonPositiveSize},
		{"hh negative", 2, -1, shape.ErrNonPositiveSize},
		{"both zero", 0, 0, shape.ErrNonPositiveSize},
		{"hh negative zero", 1, math.Copysign(0, -1), shape.ErrNonPositiveSize},
	}
	ctors := []struct {
		name string
		fn   func(hw, hh float64) (shape.Shape, error)
	}{{"NewAABB", shape.NewAABB}, {"NewOBB", shape.NewOBB}}
	for _, c := range ctors {
		for _, tc := range tests {
			t.Run(c.name+"/"+tc.name, func(t *testing.T) {
				s, err := c.fn(tc.hw, tc.hh)
				checkErr(t, c.name, err, tc.want)
				if s.Valid() {
					t.Errorf("%s(%v, %v) returned a valid shape with error %v", c.name, tc.hw, tc.hh, err)
				}
			})
		}
	}
}

func TestShapeAccessors(t *testing.T) {
	circle := must(t)(shape.NewOffsetCircle(shape.V(1, -2), 3))
	aabb := must(t)(shape.NewAABB(2, 1))
	obb := must(t)(shape.NewOBB(0.5, 4))
	tri := must(t)(shape.NewPolygon([]shape.Vec2{{0, 0}, {3, 0}, {0, 3}}))
	tests := []struct {
		name     string
		s        shape.Shape
		kind     shape.Kind
		radius   float64
		center   shape.Vec2
		half     shape.Vec2
		nverts   int
		boundRad float64
	}{
		{"circle", circle, shape.KindCircle, 3, shape.V(1, -2), shape.Vec2{}, 0, math.Sqrt(5) + 3},
		{"aabb", aabb, shape.KindAABB, 0, shape.Vec2{}, shape.V(2, 1), 0, math.Sqrt(5)},
		{"obb", obb, shape.KindOBB, 0, shape.Vec2{}, shape.V(0.5, 4), 0, math.Sqrt(16.25)},
		{"polygon", tri, shape.KindPolygon, 0, shape.V(1, 1), shape.Vec2{}, 3, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			if !s.Valid() {
				t.Errorf("%v.Valid() = false, want true", s)
			}
			if got := s.Kind(); got != tc.kind {
				t.Errorf("%v.Kind() = %v, want %v", s, got, tc.kind)
			}
			if got := s.Radius(); got != tc.radius {
				t.Errorf("%v.Radius() = %v, want %v", s, got, tc.radius)
			}
			if got := s.Center(); !vecNear(got, tc.center, 1e-12) {
				t.Errorf("%v.Center() = %v, want %v", s, got, tc.center)
			}
			if got := s.HalfExtents(); got != tc.half {
				t.Errorf("%v.HalfExtents() = %v, want %v", s, got, tc.half)
			}
			if got := len(s.Vertices()); got != tc.nverts {
				t.Errorf("len(%v.Vertices()) = %d, want %d", s, got, tc.nverts)
			}
			if got := len(s.Normals()); got != tc.nverts {
				t.Errorf("len(%v.Normals()) = %d, want %d", s, got, tc.nverts)
			}
			if got := s.BoundingRadius(); !near(got, tc.boundRad, 1e-12) {
				t.Errorf("%v.BoundingRadius() = %v, want %v", s, got, tc.boundRad)
			}
			if s.String() == "" {
				t.Errorf("%#v.String() is empty", s)
			}
		})
	}
}

func TestCornersCCWFromMinusMinus(t *testing.T) {
	for _, ctor := range []func(hw, hh float64) (shape.Shape, error){shape.NewAABB, shape.NewOBB} {
		s := must(t)(ctor(2, 1))
		t.Run(s.Kind().String(), func(t *testing.T) {
			got := s.Corners()
			want := [4]shape.Vec2{{-2, -1}, {2, -1}, {2, 1}, {-2, 1}}
			if got != want {
				t.Fatalf("%v.Corners() = %v, want %v", s, got, want)
			}
			for i := range got {
				a, b, c := got[i], got[(i+1)%4], got[(i+2)%4]
				if cr := b.Sub(a).Cross(c.Sub(b)); cr <= 0 {
					t.Errorf("%v.Corners() turn at %d has cross %v, want > 0 (CCW)", s, (i+1)%4, cr)
				}
			}
		})
	}
}

func TestEffectiveTransform(t *testing.T) {
	tr := shape.NewTransform(shape.V(3, -4), 0.7)
	tests := []struct {
		name string
		s    shape.Shape
		want shape.Transform
	}{
		{"circle", must(t)(shape.NewCircle(1)), tr},
		{"aabb drops rotation", must(t)(shape.NewAABB(1, 2)), shape.Transform{Pos: shape.V(3, -4)}},
		{"obb", must(t)(shape.NewOBB(1, 2)), tr},
		{"polygon", must(t)(shape.NewPolygon([]shape.Vec2{{0, 0}, {1, 0}, {0, 1}})), tr},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.EffectiveTransform(tr); got != tc.want {
				t.Errorf("%v.EffectiveTransform(%v) = %v, want %v", tc.s, tr, got, tc.want)
			}
		})
	}
}

// TestAABBShapeIgnoresRotation pins the design rule that an AABB shape never
// rotates: its body's angle changes nothing about its world box.
func TestAABBShapeIgnoresRotation(t *testing.T) {
	s := must(t)(shape.NewAABB(2, 1))
	pos := shape.V(10, -5)
	want := shape.AABB{Min: shape.V(8, -6), Max: shape.V(12, -4)}
	for _, angle := range []float64{0, math.Pi / 4, math.Pi / 2, 1, -2.5, math.Pi, 100} {
		t.Run("", func(t *testing.T) {
			if got := s.WorldAABB(shape.NewTransform(pos, angle)); !got.ContainsAABB(want) || !aabbNear(got, want, 1e-13) {
				t.Errorf("%v.WorldAABB(pos %v, angle %v) = %v, want %v", s, pos, angle, got, want)
			}
			if got := s.EffectiveTransform(shape.NewTransform(pos, angle)).Rot; !got.IsIdentity() {
				t.Errorf("%v.EffectiveTransform(angle %v).Rot = %v, want identity", s, angle, got)
			}
		})
	}
	at0 := s.WorldAABB(shape.NewTransform(pos, 0))
	at45 := s.WorldAABB(shape.NewTransform(pos, math.Pi/4))
	if at0 != at45 {
		t.Errorf("%v.WorldAABB at π/4 = %v, want the same as at 0: %v", s, at45, at0)
	}
}

// bruteBounds returns the box around the given local points placed by t.
func bruteBounds(t shape.Transform, local []shape.Vec2) shape.AABB {
	b := shape.EmptyAABB()
	for _, p := range local {
		w := t.Apply(p)
		b = b.Union(shape.AABB{Min: w, Max: w})
	}
	return b
}

// circleSamples returns n points on the circle of centre c and radius r,
// including the four axis extremes.
func circleSamples(c shape.Vec2, r float64, n int) []shape.Vec2 {
	pts := make([]shape.Vec2, 0, n)
	for i := range n {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		pts = append(pts, c.Add(shape.V(co*r, s*r)))
	}
	return pts
}

func TestWorldAABB(t *testing.T) {
	circle := must(t)(shape.NewOffsetCircle(shape.V(3, 0), 1))
	obb := must(t)(shape.NewOBB(2, 1))
	h45 := 3 / math.Sqrt2
	tests := []struct {
		name string
		s    shape.Shape
		tr   shape.Transform
		want shape.AABB
	}{
		{"circle identity", circle, shape.Transform{}, shape.AABB{Min: shape.V(2, -1), Max: shape.V(4, 1)}},
		{"circle offset rotated 90", circle, shape.NewTransform(shape.V(10, 10), math.Pi/2),
			shape.AABB{Min: shape.V(9, 12), Max: shape.V(11, 14)}},
		{"circle offset rotated 180", circle, shape.NewTransform(shape.V(0, 0), math.Pi),
			shape.AABB{Min: shape.V(-4, -1), Max: shape.V(-2, 1)}},
		{"obb at 0", obb, shape.NewTransform(shape.V(1, 1), 0), shape.AABB{Min: shape.V(-1, 0), Max: shape.V(3, 2)}},
		{"obb at 45", obb, shape.NewTransform(shape.V(1, 1), math.Pi/4),
			shape.AABB{Min: shape.V(1-h45, 1-h45), Max: shape.V(1+h45, 1+h45)}},
		{"obb at 90", obb, shape.NewTransform(shape.Vec2{}, math.Pi/2), shape.AABB{Min: shape.V(-1, -2), Max: shape.V(1, 2)}},
		{"obb at -135", obb, shape.NewTransform(shape.Vec2{}, -3*math.Pi/4),
			shape.AABB{Min: shape.V(-h45, -h45), Max: shape.V(h45, h45)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.WorldAABB(tc.tr); !aabbNear(got, tc.want, 1e-12) {
				t.Errorf("%v.WorldAABB(%v) = %v, want %v", tc.s, tc.tr, got, tc.want)
			}
		})
	}
}

// TestWorldAABBBruteForce compares WorldAABB with the bounds of transformed
// corners, vertices and dense circle samples for random transforms.
func TestWorldAABBBruteForce(t *testing.T) {
	r := newRand(t)
	pent := must(t)(shape.NewPolygon(circleSamples(shape.V(1, 0.5), 2, 5)))
	shapes := []shape.Shape{
		must(t)(shape.NewOffsetCircle(shape.V(2, -1), 0.5)),
		must(t)(shape.NewCircle(3)),
		must(t)(shape.NewAABB(3, 0.5)),
		must(t)(shape.NewOBB(3, 0.5)),
		pent,
	}
	for range iters(500, 50) {
		pos := shape.V(r.Float64()*200-100, r.Float64()*200-100)
		angle := r.Float64()*4*math.Pi - 2*math.Pi
		tr := shape.NewTransform(pos, angle)
		for _, s := range shapes {
			var want shape.AABB
			switch s.Kind() {
			case shape.KindCircle:
				// The exact box: the rotated centre plus the radius.
				co, sn := math.Cos(angle), math.Sin(angle)
				c := s.Center()
				wc := shape.V(pos.X+co*c.X-sn*c.Y, pos.Y+sn*c.X+co*c.Y)
				want = shape.AABBFromCenter(wc, shape.V(s.Radius(), s.Radius()))
				// Samples on the rim must all lie inside.
				for _, p := range circleSamples(c, s.Radius(), 64) {
					if w := tr.Apply(p); !s.WorldAABB(tr).Expand(1e-9).Contains(w) {
						t.Fatalf("%v.WorldAABB(%v) = %v misses rim point %v", s, tr, s.WorldAABB(tr), w)
					}
				}
			case shape.KindAABB:
				c := s.Corners()
				want = bruteBounds(shape.Transform{Pos: pos}, c[:])
			case shape.KindOBB:
				c := s.Corners()
				want = bruteBounds(tr, c[:])
			case shape.KindPolygon:
				want = bruteBounds(tr, s.Vertices())
			}
			if got := s.WorldAABB(tr); !aabbNear(got, want, 1e-12) {
				t.Fatalf("%v.WorldAABB(%v) = %v, want %v", s, tr, got, want)
			}
		}
	}
}

// TestBoundingRadiusContainsShape checks that every sample of each shape lies
// within BoundingRadius of the origin and that the bound is reached.
func TestBoundingRadiusContainsShape(t *testing.T) {
	tests := []struct {
		name  string
		s     shape.Shape
		local []shape.Vec2
	}{
		{"circle offset", must(t)(shape.NewOffsetCircle(shape.V(3, 4), 1)), circleSamples(shape.V(3, 4), 1, 3600)},
		{"aabb", must(t)(shape.NewAABB(1, 2)), nil},
		{"obb", must(t)(shape.NewOBB(3, 0.25)), nil},
		{"polygon", must(t)(shape.NewPolygon([]shape.Vec2{{1, 1}, {5, 1}, {5, 2}})), []shape.Vec2{{1, 1}, {5, 1}, {5, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pts := tc.local
			if pts == nil {
				c := tc.s.Corners()
				pts = c[:]
			}
			br := tc.s.BoundingRadius()
			far := 0.0
			for _, p := range pts {
				far = math.Max(far, p.Len())
			}
			if far > br*(1+1e-12) || far < br*(1-1e-5) {
				t.Errorf("%v.BoundingRadius() = %v, want %v (farthest sample)", tc.s, br, far)
			}
		})
	}
}

func TestShapeString(t *testing.T) {
	tests := []struct {
		s    shape.Shape
		want string
	}{
		{must(t)(shape.NewCircle(1.5)), "circle(r=1.5)"},
		{must(t)(shape.NewOffsetCircle(shape.V(1, -2), 3)), "circle(r=3 at 1,-2)"},
		{must(t)(shape.NewAABB(2, 1)), "aabb(2×1)"},
		{must(t)(shape.NewOBB(0.5, 4)), "obb(0.5×4)"},
		{must(t)(shape.NewPolygon([]shape.Vec2{{0, 0}, {3, 0}, {0, 3}})), "polygon[{0 0} {3 0} {0 3}]"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.s.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}
