package shape_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// regular returns n points on the circle of centre c and radius r, CCW from
// angle a0.
func regular(n int, c shape.Vec2, r, a0 float64) []shape.Vec2 {
	pts := make([]shape.Vec2, n)
	for i := range pts {
		s, co := math.Sincos(a0 + 2*math.Pi*float64(i)/float64(n))
		pts[i] = c.Add(shape.V(r*co, r*s))
	}
	return pts
}

// signedArea2 returns twice the signed (shoelace) area of the outline.
func signedArea2(pts []shape.Vec2) float64 {
	// Relative to the first vertex: far from the origin the products of
	// raw coordinates cancel and a thin piece's area rounds to 0.
	var a float64
	o := pts[0]
	for i, p := range pts {
		p, q := p.Sub(o), pts[(i+1)%len(pts)].Sub(o)
		a += p.X*q.Y - q.X*p.Y
	}
	return a
}

// checkPolygon fails t unless s is a valid polygon: 3..MaxPolygonVertices
// finite vertices, counter-clockwise, convex with no collinear vertex, and
// outward unit normals perpendicular to their edges.
func checkPolygon(t testing.TB, s shape.Shape) {
	t.Helper()
	v, n := s.Vertices(), s.Normals()
	if s.Kind() != shape.KindPolygon || !s.Valid() {
		t.Fatalf("%v: Kind() = %v, Valid() = %v, want a valid polygon", s, s.Kind(), s.Valid())
	}
	if len(v) < 3 || len(v) > shape.MaxPolygonVertices || len(n) != len(v) {
		t.Fatalf("%v: %d vertices and %d normals, want 3..%d of each", s, len(v), len(n), shape.MaxPolygonVertices)
	}
	if a := signedArea2(v); !(a > 0) {
		t.Fatalf("%v: signed area %v, want > 0 (CCW)", s, a)
	}
	c := s.Center()
	if !c.IsFinite() {
		t.Fatalf("%v: Center() = %v, want finite", s, c)
	}
	size := shape.AABBFromPoints(v...).HalfExtents().Len()
	for i := range v {
		a, b, d := v[i], v[(i+1)%len(v)], v[(i+2)%len(v)]
		if !a.IsFinite() {
			t.Fatalf("%v: vertex %d = %v, want finite", s, i, a)
		}
		if cr := b.Sub(a).Cross(d.Sub(b)); !(cr > 0) {
			t.Fatalf("%v: turn at vertex %d has cross %v, want > 0 (strictly convex, CCW)", s, (i+1)%len(v), cr)
		}
		e, ni := b.Sub(a), n[i]
		if !ni.IsFinite() || math.Abs(ni.Len()-1) > 1e-12 {
			t.Fatalf("%v: Normals()[%d] = %v with length %v, want unit", s, i, ni, ni.Len())
		}
		if dot := ni.Dot(e); math.Abs(dot) > 1e-9*e.Len() {
			t.Fatalf("%v: Normals()[%d] = %v · edge %v = %v, want 0 (perpendicular)", s, i, ni, e, dot)
		}
		if ni.Cross(e) <= 0 {
			t.Fatalf("%v: Normals()[%d] = %v points inward of edge %v", s, i, ni, e)
		}
		// Outward: no vertex lies beyond the edge's supporting line.
		for j, w := range v {
			if h := ni.Dot(w.Sub(a)); h > 1e-9*size {
				t.Fatalf("%v: vertex %d lies %v beyond edge %d (normal %v)", s, j, h, i, ni)
			}
		}
		if h := ni.Dot(c.Sub(a)); !(h < 0) {
			t.Fatalf("%v: centroid %v lies %v beyond edge %d, want inside", s, c, h, i)
		}
	}
}

// isRotation reports whether got is want rotated cyclically.
func isRotation(got, want []shape.Vec2) bool {
	if len(got) != len(want) {
		return false
	}
	for k := range want {
		if slices.Equal(got, append(slices.Clone(want[k:]), want[:k]...)) {
			return true
		}
	}
	return len(want) == 0
}

func TestNewPolygonNotFinite(t *testing.T) {
	base := []shape.Vec2{{0, 0}, {2, 0}, {2, 2}, {0, 2}}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for i := range base {
			for _, coord := range []string{"x", "y"} {
				t.Run(fmt.Sprintf("vertex %d %s=%v", i, coord, bad), func(t *testing.T) {
					v := slices.Clone(base)
					if coord == "x" {
						v[i].X = bad
					} else {
						v[i].Y = bad
					}
					_, err := shape.NewPolygon(v)
					checkErr(t, fmt.Sprintf("NewPolygon(%v)", v), err, shape.ErrNotFinite)
					if want := fmt.Sprintf("vertex %d ", i); !strings.Contains(err.Error(), want) {
						t.Errorf("NewPolygon(%v) error = %q, want it to name %q", v, err, want)
					}
					_, err = shape.ConvexHull(v)
					checkErr(t, fmt.Sprintf("ConvexHull(%v)", v), err, shape.ErrNotFinite)
				})
			}
		}
	}
}

func TestNewPolygonErrors(t *testing.T) {
	star := make([]shape.Vec2, 5)
	for i := range star {
		s, c := math.Sincos(math.Pi/2 + float64(2*i)*2*math.Pi/5)
		star[i] = shape.V(3*c, 3*s)
	}
	tests := []struct {
		name  string
		verts []shape.Vec2
		want  error
	}{
		{"nil", nil, shape.ErrTooFewVertices},
		{"one", []shape.Vec2{{1, 1}}, shape.ErrTooFewVertices},
		{"two", []shape.Vec2{{0, 0}, {1, 1}}, shape.ErrTooFewVertices},
		{"three, middle duplicate", []shape.Vec2{{0, 0}, {1, 0}, {1, 0}}, shape.ErrTooFewVertices},
		{"three, first duplicate", []shape.Vec2{{0, 0}, {0, 0}, {1, 1}}, shape.ErrTooFewVertices},
		{"three, closing duplicate", []shape.Vec2{{0, 0}, {1, 0}, {0, 0}}, shape.ErrTooFewVertices},
		{"four, all the same", []shape.Vec2{{2, 3}, {2, 3}, {2, 3}, {2, 3}}, shape.ErrTooFewVertices},
		{"three collinear", []shape.Vec2{{0, 0}, {1, 1}, {2, 2}}, shape.ErrCollinear},
		{"three collinear, unordered", []shape.Vec2{{0, 0}, {2, 2}, {1, 1}}, shape.ErrCollinear},
		{"vertical line", []shape.Vec2{{5, 0}, {5, 1}, {5, -3}, {5, 7}}, shape.ErrCollinear},
		{"collinear with duplicates", []shape.Vec2{{0, 0}, {1, 0}, {1, 0}, {3, 0}, {0, 0}}, shape.ErrCollinear},
		{"bowtie", []shape.Vec2{{0, 0}, {2, 2}, {2, 0}, {0, 2}}, shape.ErrSelfIntersecting},
		{"pentagram", star, shape.ErrSelfIntersecting},
		{"folds back on an edge", []shape.Vec2{{0, 0}, {2, 0}, {1, 0}, {1, 1}}, shape.ErrSelfIntersecting},
		{"touches itself at a repeated vertex", []shape.Vec2{{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 1}}, shape.ErrSelfIntersecting},
		{"square traced twice", append(regular(4, shape.Vec2{}, 1, 0), regular(4, shape.Vec2{}, 1, 0)...), shape.ErrSelfIntersecting},
		{"17 on a circle", regular(17, shape.Vec2{}, 5, 0), shape.ErrTooManyVertices},
		{"40 on a circle", regular(40, shape.V(3, 3), 5, 0.1), shape.ErrTooManyVertices},
		{"L-shape", []shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, shape.ErrNonConvex},
		{"arrow", []shape.Vec2{{0, 0}, {4, 2}, {0, 4}, {1, 2}}, shape.ErrNonConvex},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shape.NewPolygon(tc.verts)
			checkErr(t, fmt.Sprintf("NewPolygon(%v)", tc.verts), err, tc.want)
			if s.Valid() {
				t.Errorf("NewPolygon(%v) returned a valid shape with error %v", tc.verts, err)
			}
			for _, other := range sentinels {
				if other != tc.want && errors.Is(err, other) {
					t.Errorf("NewPolygon(%v) error = %q also wraps %q", tc.verts, err, other)
				}
			}
		})
	}
}

// TestNewPolygonNonConvexNamesInputVertex checks that the reflex vertex is
// named by its index in the caller's slice, whatever the rotation, the
// winding and the duplicate or collinear vertices removed before it.
func TestNewPolygonNonConvexNamesInputVertex(t *testing.T) {
	tests := []struct {
		name   string
		verts  []shape.Vec2
		reflex int
	}{
		{"L-shape", []shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 3},
		{"L-shape rotated", []shape.Vec2{{2, 1}, {1, 1}, {1, 2}, {0, 2}, {0, 0}, {2, 0}}, 1},
		{"L-shape clockwise", []shape.Vec2{{0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}, {0, 0}}, 2},
		{"L-shape reflex first", []shape.Vec2{{1, 1}, {1, 2}, {0, 2}, {0, 0}, {2, 0}, {2, 1}}, 0},
		{"L-shape reflex last", []shape.Vec2{{1, 2}, {0, 2}, {0, 0}, {2, 0}, {2, 1}, {1, 1}}, 5},
		{"arrow", []shape.Vec2{{0, 0}, {4, 2}, {0, 4}, {1, 2}}, 3},
		{"arrow clockwise", []shape.Vec2{{1, 2}, {0, 4}, {4, 2}, {0, 0}}, 0},
		{"arrow after a duplicate", []shape.Vec2{{0, 0}, {0, 0}, {4, 2}, {0, 4}, {1, 2}}, 4},
		{"arrow after a collinear vertex", []shape.Vec2{{0, 0}, {2, 1}, {4, 2}, {0, 4}, {1, 2}}, 4},
		{"arrow clockwise after duplicates", []shape.Vec2{{0, 0}, {0, 0}, {1, 2}, {1, 2}, {0, 4}, {4, 2}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := shape.NewPolygon(tc.verts)
			checkErr(t, fmt.Sprintf("NewPolygon(%v)", tc.verts), err, shape.ErrNonConvex)
			if want := fmt.Sprintf("vertex %d", tc.reflex); !strings.HasSuffix(err.Error(), want) {
				t.Errorf("NewPolygon(%v) error = %q, want it to end in %q", tc.verts, err, want)
			}
		})
	}
}

func TestNewPolygonCleanup(t *testing.T) {
	square := []shape.Vec2{{0, 0}, {2, 0}, {2, 2}, {0, 2}}
	tests := []struct {
		name  string
		verts []shape.Vec2
		want  []shape.Vec2 // up to a cyclic rotation
	}{
		{"ccw kept as given", square, square},
		{"clockwise reversed", []shape.Vec2{{0, 2}, {2, 2}, {2, 0}, {0, 0}}, square},
		{"clockwise triangle reversed", []shape.Vec2{{0, 0}, {0, 3}, {3, 0}}, []shape.Vec2{{0, 0}, {3, 0}, {0, 3}}},
		{"duplicates removed", []shape.Vec2{{0, 0}, {0, 0}, {2, 0}, {2, 2}, {2, 2}, {2, 2}, {0, 2}, {0, 0}}, square},
		{"edge midpoints removed", []shape.Vec2{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}}, square},
		{"several collinear in a row", []shape.Vec2{{0, 0}, {0.5, 0}, {1, 0}, {1.5, 0}, {2, 0}, {2, 2}, {0, 2}}, square},
		{"collinear and duplicate, clockwise", []shape.Vec2{{0, 1}, {0, 2}, {2, 2}, {2, 2}, {2, 0}, {1, 0}, {0, 0}}, square},
		{"first vertex collinear", []shape.Vec2{{1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 0}}, square},
		{"16 kept", regular(16, shape.Vec2{}, 1, 0), regular(16, shape.Vec2{}, 1, 0)},
		{"17 with one collinear is 16", insertMidpoint(regular(16, shape.Vec2{}, 1, 0), 5), regular(16, shape.Vec2{}, 1, 0)},
		{"32 with duplicates is 16", doubled(regular(16, shape.V(7, -7), 2, 0.3)), regular(16, shape.V(7, -7), 2, 0.3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := must(t)(shape.NewPolygon(tc.verts))
			checkPolygon(t, s)
			if got := s.Vertices(); !isRotation(got, tc.want) {
				t.Errorf("NewPolygon(%v).Vertices() = %v, want a rotation of %v", tc.verts, got, tc.want)
			}
		})
	}
}

func insertMidpoint(v []shape.Vec2, i int) []shape.Vec2 {
	mid := v[i].Add(v[i+1]).Scale(0.5)
	return slices.Insert(slices.Clone(v), i+1, mid)
}

func doubled(v []shape.Vec2) []shape.Vec2 {
	out := make([]shape.Vec2, 0, 2*len(v))
	for _, p := range v {
		out = append(out, p, p)
	}
	return out
}

// TestNewPolygonDoesNotAliasInput checks that the shape keeps its own copy
// of the vertices.
func TestNewPolygonDoesNotAliasInput(t *testing.T) {
	in := []shape.Vec2{{0, 0}, {2, 0}, {2, 2}, {0, 2}}
	s := must(t)(shape.NewPolygon(in))
	in[0] = shape.V(-100, -100)
	if got := s.Vertices()[0]; got != shape.V(0, 0) {
		t.Errorf("after changing the input, Vertices()[0] = %v, want (0, 0)", got)
	}
}

func TestPolygonNormalsSquare(t *testing.T) {
	s := must(t)(shape.NewPolygon([]shape.Vec2{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}))
	want := []shape.Vec2{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	if got := s.Normals(); !slices.Equal(got, want) {
		t.Errorf("square Normals() = %v, want %v", got, want)
	}
}

func TestPolygonCentroid(t *testing.T) {
	tests := []struct {
		name  string
		verts []shape.Vec2
		want  shape.Vec2
	}{
		{"right triangle", []shape.Vec2{{0, 0}, {3, 0}, {0, 3}}, shape.V(1, 1)},
		{"triangle offset", []shape.Vec2{{10, 10}, {16, 10}, {10, 13}}, shape.V(12, 11)},
		{"offset square", []shape.Vec2{{10, 20}, {12, 20}, {12, 22}, {10, 22}}, shape.V(11, 21)},
		{"offset square clockwise", []shape.Vec2{{10, 22}, {12, 22}, {12, 20}, {10, 20}}, shape.V(11, 21)},
		{"trapezoid", []shape.Vec2{{0, 0}, {4, 0}, {3, 2}, {1, 2}}, shape.V(2, 8.0/9)},
		{"square far away", []shape.Vec2{{1e6, 1e6}, {1e6 + 1, 1e6}, {1e6 + 1, 1e6 + 1}, {1e6, 1e6 + 1}}, shape.V(1e6+0.5, 1e6+0.5)},
		{"hexagon", regular(6, shape.V(-3, 4), 2, 0.2), shape.V(-3, 4)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := must(t)(shape.NewPolygon(tc.verts))
			if got := s.Center(); !vecClose(got, tc.want, 1e-12*math.Max(1, tc.want.Len())) {
				t.Errorf("NewPolygon(%v).Center() = %v, want %v", tc.verts, got, tc.want)
			}
		})
	}
}

// shoelaceCentroid is the textbook polygon centroid computed exactly in
// big.Float, an oracle for Center that is free of cancellation.
func shoelaceCentroid(v []shape.Vec2) shape.Vec2 {
	const prec = 2000
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	mul := func(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(prec).Mul(a, b) }
	a, cx, cy := f(0), f(0), f(0)
	for i, p := range v {
		q := v[(i+1)%len(v)]
		w := new(big.Float).SetPrec(prec).Sub(mul(f(p.X), f(q.Y)), mul(f(q.X), f(p.Y)))
		a.Add(a, w)
		cx.Add(cx, mul(new(big.Float).SetPrec(prec).Add(f(p.X), f(q.X)), w))
		cy.Add(cy, mul(new(big.Float).SetPrec(prec).Add(f(p.Y), f(q.Y)), w))
	}
	a.Mul(a, f(3))
	x, _ := cx.Quo(cx, a).Float64()
	y, _ := cy.Quo(cy, a).Float64()
	return shape.V(x, y)
}

// swarmPoly returns a polygon outline the way the swarm scene makes one:
// k in 3..8 random sorted angles on a circle of radius 2..6.
func swarmPoly(r *rand.Rand) []shape.Vec2 {
	k := 3 + r.IntN(6)
	rad := 2 + 4*r.Float64()
	angles := make([]float64, k)
	for i := range angles {
		angles[i] = r.Float64() * 2 * math.Pi
	}
	slices.Sort(angles)
	pts := make([]shape.Vec2, k)
	for i, a := range angles {
		s, c := math.Sincos(a)
		pts[i] = shape.V(rad*c, rad*s)
	}
	return pts
}

// TestSwarmPolygonsKeepEveryVertex checks that points on a circle, which are
// all extreme, survive NewPolygon and ConvexHull without spurious merging,
// and that the centroid matches the shoelace formula.
func TestSwarmPolygonsKeepEveryVertex(t *testing.T) {
	r := newRand(t)
	for range iters(20000, 2000) {
		pts := swarmPoly(r)
		p, err := shape.NewPolygon(pts)
		if err != nil {
			t.Fatalf("NewPolygon(%v) error = %v, want nil", pts, err)
		}
		checkPolygon(t, p)
		if got := p.Vertices(); !isRotation(got, pts) {
			t.Fatalf("NewPolygon(%v).Vertices() = %v, want all %d vertices in order", pts, got, len(pts))
		}
		shuffled := slices.Clone(pts)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		h, err := shape.ConvexHull(shuffled)
		if err != nil {
			t.Fatalf("ConvexHull(%v) error = %v, want nil", shuffled, err)
		}
		checkPolygon(t, h)
		if got := h.Vertices(); !isRotation(got, pts) {
			t.Fatalf("ConvexHull(%v).Vertices() = %v, want all %d points in CCW order %v", shuffled, got, len(pts), pts)
		}
		if got, want := p.Center(), shoelaceCentroid(pts); !vecClose(got, want, 1e-12) {
			t.Fatalf("NewPolygon(%v).Center() = %v, want %v", pts, got, want)
		}
	}
}

// TestPolygonScaleRange checks that a triangle is accepted over the range of
// scales and offsets a game can meet, with its vertices intact.
func TestPolygonScaleRange(t *testing.T) {
	tri := []shape.Vec2{{0, 0}, {1, 0}, {0.5, math.Sqrt(3) / 2}}
	for _, scale := range []float64{1e-100, 1e-60, 1e-9, 1e-3, 1, 1e3, 1e9, 1e60, 1e100} {
		for _, off := range []float64{0, 1, 1e6} {
			t.Run(fmt.Sprintf("scale %g offset %g", scale, off), func(t *testing.T) {
				v := make([]shape.Vec2, len(tri))
				for i, p := range tri {
					v[i] = p.Scale(scale).Add(shape.V(off*scale, -off*scale))
				}
				s, err := shape.NewPolygon(v)
				if err != nil {
					t.Fatalf("NewPolygon(%v) error = %v, want nil", v, err)
				}
				checkPolygon(t, s)
				if got := s.Vertices(); !slices.Equal(got, v) {
					t.Errorf("NewPolygon(%v).Vertices() = %v, want the input", v, got)
				}
			})
		}
	}
}

// TestRandomConvexPolygons builds polygons from random angles and radii
// around random centres, in random winding and rotation, and checks the
// invariants and that no vertex is lost.
func TestRandomConvexPolygons(t *testing.T) {
	r := newRand(t)
	for range iters(5000, 500) {
		n := 3 + r.IntN(shape.MaxPolygonVertices-2)
		c := shape.V(r.NormFloat64()*1e3, r.NormFloat64()*1e3)
		rad := math.Pow(10, r.Float64()*4-2)
		pts := regular(n, c, rad, r.Float64()*2*math.Pi)
		if r.IntN(2) == 0 {
			slices.Reverse(pts)
		}
		s, err := shape.NewPolygon(pts)
		if err != nil {
			t.Fatalf("NewPolygon(%v) error = %v, want nil", pts, err)
		}
		checkPolygon(t, s)
		if got := len(s.Vertices()); got != n {
			t.Fatalf("NewPolygon(%d-gon %v) kept %d vertices, want %d", n, pts, got, n)
		}
		if got, want := s.Center(), c; !vecClose(got, want, 1e-9*math.Max(1, c.Len())) {
			t.Fatalf("NewPolygon(%d-gon around %v).Center() = %v, want %v", n, c, got, want)
		}
		// The radius is a distance computed one way or another (Len or
		// Hypot); it must agree to rounding, not to the bit.
		if got, want := s.BoundingRadius(), maxLen(pts); math.Abs(got-want) > 1e-15*want {
			t.Fatalf("NewPolygon(%v).BoundingRadius() = %v, want %v", pts, got, want)
		}
	}
}

func maxLen(pts []shape.Vec2) float64 {
	m := 0.0
	for _, p := range pts {
		m = math.Max(m, p.Len())
	}
	return m
}
