package shape_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

func TestConvexHullErrors(t *testing.T) {
	tests := []struct {
		name string
		pts  []shape.Vec2
		want error
	}{
		{"nil", nil, shape.ErrTooFewVertices},
		{"two", []shape.Vec2{{0, 0}, {1, 0}}, shape.ErrTooFewVertices},
		{"NaN among two", []shape.Vec2{{math.NaN(), 0}, {1, 0}}, shape.ErrNotFinite},
		{"Inf in the middle", []shape.Vec2{{0, 0}, {1, math.Inf(-1)}, {1, 1}}, shape.ErrNotFinite},
		{"three the same", []shape.Vec2{{1, 1}, {1, 1}, {1, 1}}, shape.ErrTooFewVertices},
		{"two distinct", []shape.Vec2{{1, 1}, {2, 1}, {1, 1}, {2, 1}}, shape.ErrTooFewVertices},
		{"collinear", []shape.Vec2{{0, 0}, {3, 3}, {1, 1}, {2, 2}, {-1, -1}}, shape.ErrCollinear},
		{"collinear vertical", []shape.Vec2{{2, 0}, {2, 5}, {2, -1}}, shape.ErrCollinear},
		{"17 on a circle", regular(17, shape.Vec2{}, 4, 0), shape.ErrTooManyVertices},
		{"17 on a circle with centre", append(regular(17, shape.Vec2{}, 4, 0), shape.Vec2{}), shape.ErrTooManyVertices},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shape.ConvexHull(tc.pts)
			checkErr(t, fmt.Sprintf("ConvexHull(%v)", tc.pts), err, tc.want)
			if s.Valid() {
				t.Errorf("ConvexHull(%v) returned a valid shape with error %v", tc.pts, err)
			}
		})
	}
}

func TestConvexHullKnown(t *testing.T) {
	square := []shape.Vec2{{0, 0}, {2, 0}, {2, 2}, {0, 2}}
	tests := []struct {
		name string
		pts  []shape.Vec2
		want []shape.Vec2 // CCW, up to a cyclic rotation
	}{
		{"square", square, square},
		{"square clockwise", []shape.Vec2{{0, 2}, {2, 2}, {2, 0}, {0, 0}}, square},
		{"square with interior, edge and duplicate points",
			[]shape.Vec2{{1, 1}, {0, 0}, {1, 0}, {2, 2}, {0.5, 1.5}, {2, 0}, {0, 2}, {2, 1}, {0, 0}, {1, 2}, {0, 1}}, square},
		{"bowtie becomes its hull", []shape.Vec2{{0, 0}, {2, 2}, {2, 0}, {0, 2}}, square},
		{"L-shape becomes its hull", []shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}},
			[]shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 2}, {0, 2}}},
		{"triangle with negative zero", []shape.Vec2{{0, 0}, {math.Copysign(0, -1), 0}, {1, 0}, {0, 1}},
			[]shape.Vec2{{0, 0}, {1, 0}, {0, 1}}},
		{"16 on a circle", regular(16, shape.V(5, 5), 3, 0.1), regular(16, shape.V(5, 5), 3, 0.1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := must(t)(shape.ConvexHull(tc.pts))
			checkPolygon(t, s)
			if got := s.Vertices(); !isRotation(got, tc.want) {
				t.Errorf("ConvexHull(%v).Vertices() = %v, want a rotation of %v", tc.pts, got, tc.want)
			}
		})
	}
}

// TestConvexHullDoesNotModifyInput checks that the caller's slice is left
// alone (the hull sorts a copy).
func TestConvexHullDoesNotModifyInput(t *testing.T) {
	in := []shape.Vec2{{2, 2}, {0, 0}, {1, 1}, {2, 0}, {0, 2}}
	orig := slices.Clone(in)
	must(t)(shape.ConvexHull(in))
	if !slices.Equal(in, orig) {
		t.Errorf("ConvexHull changed its input to %v, want %v", in, orig)
	}
}

// cloud returns n random points of one of several distributions, including
// integer grids full of duplicates and collinear triples.
func cloud(r *rand.Rand, kind, n int) []shape.Vec2 {
	pts := make([]shape.Vec2, n)
	for i := range pts {
		switch kind {
		case 0: // uniform square
			pts[i] = shape.V(r.Float64()*20-10, r.Float64()*20-10)
		case 1: // gaussian, far from the origin
			pts[i] = shape.V(1e5+r.NormFloat64(), -1e5+r.NormFloat64()*3)
		case 2: // small integer grid
			pts[i] = shape.V(float64(r.IntN(4)), float64(r.IntN(4)))
		case 3: // thin rectangle
			pts[i] = shape.V(r.Float64()*100, r.Float64()*0.01)
		default: // tiny
			pts[i] = shape.V(r.Float64()*1e-6, r.Float64()*1e-6)
		}
	}
	return pts
}

// allCollinear reports, exactly for the small-integer grid, whether the
// points span no area.
func allCollinear(pts []shape.Vec2) bool {
	for i := range pts {
		for j := range pts {
			for k := range pts {
				if pts[j].Sub(pts[i]).Cross(pts[k].Sub(pts[i])) != 0 {
					return false
				}
			}
		}
	}
	return true
}

// TestConvexHullRandomClouds checks against brute force that the hull of a
// random cloud is a valid CCW convex polygon whose vertices are input points
// and that contains every input point. At most 16 points keep the hull
// within MaxPolygonVertices.
func TestConvexHullRandomClouds(t *testing.T) {
	r := newRand(t)
	for kind := range 5 {
		t.Run(fmt.Sprintf("distribution %d", kind), func(t *testing.T) {
			for range iters(3000, 300) {
				pts := cloud(r, kind, 3+r.IntN(shape.MaxPolygonVertices-2))
				s, err := shape.ConvexHull(pts)
				if kind == 2 && allCollinear(pts) {
					if !errors.Is(err, shape.ErrCollinear) && !errors.Is(err, shape.ErrTooFewVertices) {
						t.Fatalf("ConvexHull(%v) error = %v, want ErrCollinear or ErrTooFewVertices", pts, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("ConvexHull(%v) error = %v, want nil", pts, err)
				}
				checkHull(t, pts, s)
			}
		})
	}
}

// checkHull fails t unless s is the convex hull of pts.
func checkHull(t *testing.T, pts []shape.Vec2, s shape.Shape) {
	t.Helper()
	checkPolygon(t, s)
	v, n := s.Vertices(), s.Normals()
	for i, p := range v {
		if !slices.Contains(pts, p) {
			t.Fatalf("ConvexHull(%v) vertex %d = %v is not an input point", pts, i, p)
		}
	}
	size := shape.AABBFromPoints(pts...).HalfExtents().Len()
	for j, p := range pts {
		for i := range v {
			if h := n[i].Dot(p.Sub(v[i])); h > 1e-12*size {
				t.Fatalf("ConvexHull(%v): input point %d = %v lies %v outside edge %d", pts, j, p, h, i)
			}
		}
	}
}

// TestConvexHullDropsManyInteriorPoints checks large clouds whose hull is
// known: a regular polygon around thousands of interior points.
func TestConvexHullDropsManyInteriorPoints(t *testing.T) {
	r := newRand(t)
	for _, k := range []int{3, 4, 8, 16} {
		t.Run(fmt.Sprintf("%d-gon", k), func(t *testing.T) {
			c := shape.V(r.NormFloat64()*100, r.NormFloat64()*100)
			outer := regular(k, c, 10, r.Float64())
			// The inscribed circle of a regular k-gon has radius R·cos(π/k).
			inner := 10 * math.Cos(math.Pi/float64(k)) * 0.999
			pts := slices.Clone(outer)
			for range iters(5000, 500) {
				s, co := math.Sincos(r.Float64() * 2 * math.Pi)
				d := inner * math.Sqrt(r.Float64())
				pts = append(pts, c.Add(shape.V(d*co, d*s)))
			}
			r.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
			h, err := shape.ConvexHull(pts)
			if err != nil {
				t.Fatalf("ConvexHull(%d points around a %d-gon) error = %v, want nil", len(pts), k, err)
			}
			checkHull(t, pts, h)
			if got := h.Vertices(); !isRotation(got, outer) {
				t.Errorf("ConvexHull(%d points).Vertices() = %v, want a rotation of %v", len(pts), got, outer)
			}
		})
	}
}
