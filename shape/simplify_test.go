package shape_test

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// exactOrient returns the sign of (b-a)×(p-a), computed exactly.
func exactOrient(a, b, p shape.Vec2) int {
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(0).SetFloat64(x) }
	sub := func(x, y float64) *big.Float { return new(big.Float).SetPrec(2000).Sub(f(x), f(y)) }
	l := new(big.Float).SetPrec(4000).Mul(sub(b.X, a.X), sub(p.Y, a.Y))
	r := new(big.Float).SetPrec(4000).Mul(sub(b.Y, a.Y), sub(p.X, a.X))
	return l.Cmp(r)
}

// polyArea returns the area of a counter-clockwise outline.
func polyArea(v []shape.Vec2) float64 {
	a := 0.0
	for i := range v {
		j := (i + 1) % len(v)
		a += v[i].X*v[j].Y - v[j].X*v[i].Y
	}
	return a / 2
}

// checkEncloses fails t unless every point is inside or on s (exactly) and
// s is convex and counter-clockwise with at most max vertices.
func checkEncloses(t *testing.T, name string, s shape.Shape, pts []shape.Vec2, max int) {
	t.Helper()
	v := s.Vertices()
	if len(v) > max || len(v) < 3 {
		t.Fatalf("%s: %d vertices, want 3..%d", name, len(v), max)
	}
	for i := range v {
		a, b, c := v[i], v[(i+1)%len(v)], v[(i+2)%len(v)]
		if exactOrient(a, b, c) <= 0 {
			t.Fatalf("%s: not strictly convex at vertex %d", name, (i+1)%len(v))
		}
		for _, p := range pts {
			if exactOrient(a, b, p) < 0 {
				t.Fatalf("%s: point %v lies outside edge %v→%v", name, p, a, b)
			}
		}
	}
}

// TestSimplifyHull checks SimplifyHull against an exact half-plane oracle:
// every input point inside or on the result, at most max vertices, strictly
// convex, area at least the hull's and, on a 1,000-point circle, its growth
// within twice the optimum's (the circumscribed regular k-gon's). The
// growth at 8 and 16 vertices goes to the log.
func TestSimplifyHull(t *testing.T) {
	circle := make([]shape.Vec2, 1000)
	for i := range circle {
		s, c := math.Sincos(2 * math.Pi * float64(i) / float64(len(circle)))
		circle[i] = shape.V(10*c+3, 10*s-7)
	}
	exact := polyArea(circle)
	for _, max := range []int{16, 8, 5, 4, 3} {
		s, err := shape.SimplifyHull(circle, max)
		if err != nil {
			t.Fatalf("SimplifyHull(1000-point circle, %d): %v", max, err)
		}
		checkEncloses(t, "circle", s, circle, max)
		a := polyArea(s.Vertices())
		if a < exact {
			t.Fatalf("max %d: area %v below the hull's %v", max, a, exact)
		}
		k := float64(max)
		best := k*math.Tan(math.Pi/k)/math.Pi - 1 // a regular k-gon around the circle
		if growth := a/exact - 1; growth > 2*best {
			t.Errorf("SimplifyHull(1000-point circle, %d) adds %.1f%% to the area, more than twice the regular %d-gon's %.1f%%", max, 100*growth, max, 100*best)
		}
		t.Logf("1000-point circle, at most %2d vertices: area +%.1f%% over the hull (a regular %d-gon around the circle: +%.1f%%)", max, 100*(a/exact-1), max, 100*best)
	}

	rng := newRand(t)
	for round := range 300 {
		n := 17 + rng.IntN(300)
		pts := make([]shape.Vec2, n)
		scale := math.Pow(10, float64(rng.IntN(13)-6))
		off := shape.V(1e6*scale*rng.Float64(), -1e6*scale*rng.Float64())
		for i := range pts {
			switch round % 3 {
			case 0:
				pts[i] = off.Add(shape.V(rng.NormFloat64(), rng.NormFloat64()).Scale(scale))
			case 1:
				pts[i] = off.Add(shape.V(rng.Float64(), 3*rng.Float64()).Scale(scale))
			default: // on a thin ellipse, every point on the hull
				s, c := math.Sincos(2 * math.Pi * rng.Float64())
				pts[i] = off.Add(shape.V(5*c, s).Scale(scale))
			}
		}
		max := 3 + rng.IntN(shape.MaxPolygonVertices-2)
		s, err := shape.SimplifyHull(pts, max)
		if errors.Is(err, shape.ErrTooManyVertices) && max <= 4 {
			continue // a hull whose edges cannot be cut that far: allowed, checked below
		}
		if err != nil {
			t.Fatalf("round %d: SimplifyHull(%d points, %d): %v", round, n, max, err)
		}
		checkEncloses(t, "cloud", s, pts, max)
	}
}

// TestSimplifyHullLargeInput runs the greedy removal on hulls of thousands
// of vertices, which a quadratic implementation would take seconds over.
func TestSimplifyHullLargeInput(t *testing.T) {
	for _, n := range []int{5000, 50000} {
		pts := make([]shape.Vec2, n)
		for i := range pts {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(n))
			pts[i] = shape.V(c, s)
		}
		s, err := shape.SimplifyHull(pts, 8)
		if err != nil {
			t.Fatalf("SimplifyHull(%d-point circle, 8): %v", n, err)
		}
		if n <= 5000 {
			checkEncloses(t, "circle", s, pts, 8)
		}
	}
}

// TestSimplifyHullDuplicates checks that repeated points change nothing.
func TestSimplifyHullDuplicates(t *testing.T) {
	var pts, twice []shape.Vec2
	for i := range 40 {
		s, c := math.Sincos(2 * math.Pi * float64(i) / 40)
		pts = append(pts, shape.V(c, s))
	}
	twice = append(append(twice, pts...), pts...)
	twice = append(twice, pts[0], pts[0], pts[7])
	want, err := shape.SimplifyHull(pts, 6)
	if err != nil {
		t.Fatal(err)
	}
	got, err := shape.SimplifyHull(twice, 6)
	if err != nil || !slices.Equal(got.Vertices(), want.Vertices()) {
		t.Errorf("SimplifyHull with duplicates = %v, %v; want %v", got.Vertices(), err, want.Vertices())
	}
	checkEncloses(t, "duplicates", got, twice, 6)
}

// TestSimplifyHullFitsIsConvexHull checks that a hull that already fits is
// returned exactly as ConvexHull returns it.
func TestSimplifyHullFitsIsConvexHull(t *testing.T) {
	pts := []shape.Vec2{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 4, Y: 3}, {X: 0, Y: 3}, {X: 2, Y: 1}, {X: 1, Y: 2}}
	want, _ := shape.ConvexHull(pts)
	got, err := shape.SimplifyHull(pts, 8)
	if err != nil || !slices.Equal(got.Vertices(), want.Vertices()) {
		t.Errorf("SimplifyHull of a hull that fits = %v, %v; want ConvexHull's %v", got.Vertices(), err, want.Vertices())
	}
	rng := newRand(t)
	for range 200 {
		var cloud []shape.Vec2
		for range 3 + rng.IntN(40) {
			cloud = append(cloud, shape.V(1e3*rng.NormFloat64(), rng.NormFloat64()))
		}
		want, err := shape.ConvexHull(cloud)
		if err != nil {
			continue // too many hull vertices, or degenerate
		}
		limit := min(len(want.Vertices())+rng.IntN(3), shape.MaxPolygonVertices)
		got, err := shape.SimplifyHull(cloud, limit)
		if err != nil || !slices.Equal(got.Vertices(), want.Vertices()) {
			t.Fatalf("SimplifyHull(%v, %d) = %v, %v; want ConvexHull's %v", cloud, limit, got.Vertices(), err, want.Vertices())
		}
	}
}

func TestSimplifyHullErrors(t *testing.T) {
	square := []shape.Vec2{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}
	many := make([]shape.Vec2, 40)
	for i := range many {
		s, c := math.Sincos(float64(i))
		many[i] = shape.V(c, s)
	}
	for _, tc := range []struct {
		name string
		pts  []shape.Vec2
		max  int
		want error
	}{
		{"max 2", square, 2, shape.ErrTooFewVertices},
		{"max 17", square, 17, shape.ErrTooManyVertices},
		{"square to a triangle", square, 3, shape.ErrTooManyVertices},
		{"NaN", []shape.Vec2{{X: math.NaN()}, {X: 1}, {Y: 1}}, 8, shape.ErrNotFinite},
		{"collinear", []shape.Vec2{{X: 0}, {X: 1}, {X: 2}}, 8, shape.ErrCollinear},
	} {
		if _, err := shape.SimplifyHull(tc.pts, tc.max); !errors.Is(err, tc.want) {
			t.Errorf("%s: SimplifyHull = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := shape.ConvexHull(many); !errors.Is(err, shape.ErrTooManyVertices) {
		t.Errorf("ConvexHull of 40 points on a circle = %v, want ErrTooManyVertices", err)
	} else if !contains(err.Error(), "SimplifyHull") {
		t.Errorf("ConvexHull's error %q does not point to SimplifyHull", err)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
