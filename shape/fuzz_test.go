package shape_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// checkFailure fails t unless err wraps exactly one of the shape sentinels
// and carries the package prefix.
func checkFailure(t *testing.T, call string, err error) {
	t.Helper()
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%s error = %q wraps %d sentinels, want exactly 1", call, err, n)
	}
	if !strings.HasPrefix(err.Error(), "shape: ") {
		t.Fatalf("%s error = %q, want prefix %q", call, err, "shape: ")
	}
}

// sameBits reports whether a and b are bit-for-bit identical, NaNs included.
func sameBits(a, b shape.Vec2) bool {
	return math.Float64bits(a.X) == math.Float64bits(b.X) && math.Float64bits(a.Y) == math.Float64bits(b.Y)
}

// FuzzNewPolygon feeds up to 8 vertices to NewPolygon and ConvexHull. Neither
// may panic; a success must be a valid convex CCW polygon made of input
// points, and a failure must wrap one of the sentinels.
func FuzzNewPolygon(f *testing.F) {
	f.Fuzz(func(t *testing.T, n uint8,
		x0, y0, x1, y1, x2, y2, x3, y3, x4, y4, x5, y5, x6, y6, x7, y7 float64) {
		all := []shape.Vec2{{x0, y0}, {x1, y1}, {x2, y2}, {x3, y3}, {x4, y4}, {x5, y5}, {x6, y6}, {x7, y7}}
		verts := all[:int(n)%(len(all)+1)]
		in := slices.Clone(verts)
		finite := true
		for _, v := range verts {
			finite = finite && v.IsFinite()
		}

		s, err := shape.NewPolygon(verts)
		if !slices.EqualFunc(verts, in, sameBits) {
			t.Fatalf("NewPolygon changed its input from %v to %v", in, verts)
		}
		if err != nil {
			checkFailure(t, "NewPolygon", err)
			if !finite && len(verts) >= 3 && !errors.Is(err, shape.ErrNotFinite) {
				t.Fatalf("NewPolygon(%v) error = %q, want ErrNotFinite", verts, err)
			}
			if s.Valid() {
				t.Fatalf("NewPolygon(%v) returned a valid shape with error %v", verts, err)
			}
		} else {
			if !finite {
				t.Fatalf("NewPolygon(%v) accepted a non-finite vertex", verts)
			}
			checkPolygon(t, s)
			for i, v := range s.Vertices() {
				if !slices.Contains(verts, v) {
					t.Fatalf("NewPolygon(%v) vertex %d = %v is not an input vertex", verts, i, v)
				}
			}
		}

		h, err := shape.ConvexHull(verts)
		if err != nil {
			checkFailure(t, "ConvexHull", err)
			if !finite && !errors.Is(err, shape.ErrNotFinite) {
				t.Fatalf("ConvexHull(%v) error = %q, want ErrNotFinite", verts, err)
			}
			return
		}
		checkPolygon(t, h)
		for i, v := range h.Vertices() {
			if !slices.Contains(verts, v) {
				t.Fatalf("ConvexHull(%v) vertex %d = %v is not an input point", verts, i, v)
			}
		}
	})
}

// FuzzNewBox checks that NewAABB and NewOBB classify every pair of half
// extents exactly: non-finite, non-positive or valid.
func FuzzNewBox(f *testing.F) {
	f.Fuzz(func(t *testing.T, hw, hh float64) {
		for _, c := range []struct {
			name string
			fn   func(hw, hh float64) (shape.Shape, error)
			kind shape.Kind
		}{{"NewAABB", shape.NewAABB, shape.KindAABB}, {"NewOBB", shape.NewOBB, shape.KindOBB}} {
			s, err := c.fn(hw, hh)
			var want error
			switch {
			case !shape.IsFinite(hw) || !shape.IsFinite(hh):
				want = shape.ErrNotFinite
			case hw <= 0 || hh <= 0:
				want = shape.ErrNonPositiveSize
			case hw > shape.MaxMagnitude || hh > shape.MaxMagnitude:
				want = shape.ErrTooLarge
			}
			if want != nil {
				checkErr(t, c.name, err, want)
				checkFailure(t, c.name, err)
				if s.Valid() {
					t.Fatalf("%s(%v, %v) returned a valid shape with error %v", c.name, hw, hh, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s(%v, %v) error = %v, want nil", c.name, hw, hh, err)
			}
			if !s.Valid() || s.Kind() != c.kind {
				t.Fatalf("%s(%v, %v) = %v with Valid() = %v, want a valid %v", c.name, hw, hh, s, s.Valid(), c.kind)
			}
			if got := s.HalfExtents(); got != shape.V(hw, hh) {
				t.Fatalf("%s(%v, %v).HalfExtents() = %v, want (%v, %v)", c.name, hw, hh, got, hw, hh)
			}
			want0 := shape.AABB{Min: shape.V(-hw, -hh), Max: shape.V(hw, hh)}
			if got := s.WorldAABB(shape.Transform{}); !got.ContainsAABB(want0) || !(got.Max.X-want0.Max.X <= 1e-13*(hw+hh)) || !(got.Max.Y-want0.Max.Y <= 1e-13*(hw+hh)) {
				t.Fatalf("%s(%v, %v).WorldAABB(identity) = %v, want %v", c.name, hw, hh, got, want0)
			}
			if br := s.BoundingRadius(); !(br >= math.Max(hw, hh)) {
				t.Fatalf("%s(%v, %v).BoundingRadius() = %v, want >= %v", c.name, hw, hh, br, math.Max(hw, hh))
			}
		}
	})
}

// FuzzNewCircle checks that NewOffsetCircle and NewCircle classify every
// centre and radius exactly: non-finite, non-positive or valid.
func FuzzNewCircle(f *testing.F) {
	f.Fuzz(func(t *testing.T, cx, cy, r float64) {
		c := shape.V(cx, cy)
		s, err := shape.NewOffsetCircle(c, r)
		var want error
		switch {
		case !c.IsFinite() || !shape.IsFinite(r):
			want = shape.ErrNotFinite
		case r <= 0:
			want = shape.ErrNonPositiveSize
		case r > shape.MaxMagnitude || math.Abs(cx) > shape.MaxMagnitude || math.Abs(cy) > shape.MaxMagnitude:
			want = shape.ErrTooLarge
		}
		if want != nil {
			checkErr(t, "NewOffsetCircle", err, want)
			checkFailure(t, "NewOffsetCircle", err)
			if s.Valid() {
				t.Fatalf("NewOffsetCircle(%v, %v) returned a valid shape with error %v", c, r, err)
			}
		} else {
			if err != nil {
				t.Fatalf("NewOffsetCircle(%v, %v) error = %v, want nil", c, r, err)
			}
			if !s.Valid() || s.Kind() != shape.KindCircle || s.Radius() != r || s.Center() != c {
				t.Fatalf("NewOffsetCircle(%v, %v) = %v (valid %v), want a valid circle of radius %v at %v", c, r, s, s.Valid(), r, c)
			}
			if b := s.WorldAABB(shape.Transform{}); b.IsFinite() && !b.Contains(c) {
				t.Fatalf("NewOffsetCircle(%v, %v).WorldAABB(identity) = %v, want it to contain the centre", c, r, b)
			}
			if br := s.BoundingRadius(); !(br >= r) {
				t.Fatalf("NewOffsetCircle(%v, %v).BoundingRadius() = %v, want >= %v", c, r, br, r)
			}
		}

		s, err = shape.NewCircle(r)
		switch {
		case !shape.IsFinite(r):
			checkErr(t, "NewCircle", err, shape.ErrNotFinite)
		case r <= 0:
			checkErr(t, "NewCircle", err, shape.ErrNonPositiveSize)
		case r > shape.MaxMagnitude:
			checkErr(t, "NewCircle", err, shape.ErrTooLarge)
		case err != nil:
			t.Fatalf("NewCircle(%v) error = %v, want nil", r, err)
		case s.Center() != (shape.Vec2{}) || s.BoundingRadius() != r:
			t.Fatalf("NewCircle(%v) = %v with Center %v, BoundingRadius %v, want origin and %v", r, s, s.Center(), s.BoundingRadius(), r)
		}
	})
}
