package shape_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

func box(x0, y0, x1, y1 float64) shape.AABB {
	return shape.AABB{Min: shape.V(x0, y0), Max: shape.V(x1, y1)}
}

func TestAABBOverlapsInclusive(t *testing.T) {
	a := box(0, 0, 2, 2)
	tests := []struct {
		name string
		b    shape.AABB
		want bool
	}{
		{"same", a, true},
		{"inside", box(0.5, 0.5, 1, 1), true},
		{"contains", box(-1, -1, 3, 3), true},
		{"partial", box(1, 1, 3, 3), true},
		{"touch right edge", box(2, 0, 3, 2), true},
		{"touch left edge", box(-1, 0, 0, 2), true},
		{"touch top edge", box(0, 2, 2, 4), true},
		{"touch bottom edge", box(0, -3, 2, 0), true},
		{"touch corner", box(2, 2, 3, 3), true},
		{"degenerate point on corner", box(0, 0, 0, 0), true},
		{"gap right", box(2.0000001, 0, 3, 2), false},
		{"gap left", box(-3, 0, -1e-12, 2), false},
		{"gap above", box(0, 2.5, 2, 3), false},
		{"gap below", box(0, -3, 2, -0.5), false},
		{"x overlaps y apart", box(1, 3, 3, 4), false},
		{"y overlaps x apart", box(3, 1, 4, 3), false},
		{"empty", shape.EmptyAABB(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.Overlaps(tc.b); got != tc.want {
				t.Errorf("%v.Overlaps(%v) = %v, want %v", a, tc.b, got, tc.want)
			}
			if got := tc.b.Overlaps(a); got != tc.want {
				t.Errorf("%v.Overlaps(%v) = %v, want %v (swapped)", tc.b, a, got, tc.want)
			}
		})
	}
}

func TestAABBContains(t *testing.T) {
	a := box(-1, -2, 3, 4)
	tests := []struct {
		name string
		p    shape.Vec2
		want bool
	}{
		{"centre", shape.V(1, 1), true},
		{"min corner", shape.V(-1, -2), true},
		{"max corner", shape.V(3, 4), true},
		{"on left edge", shape.V(-1, 0), true},
		{"on top edge", shape.V(0, 4), true},
		{"left of", shape.V(-1.0000001, 0), false},
		{"right of", shape.V(3.5, 0), false},
		{"below", shape.V(0, -2.5), false},
		{"above", shape.V(0, 4.0000001), false},
		{"NaN", shape.V(math.NaN(), 0), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.Contains(tc.p); got != tc.want {
				t.Errorf("%v.Contains(%v) = %v, want %v", a, tc.p, got, tc.want)
			}
		})
	}
	if shape.EmptyAABB().Contains(shape.V(0, 0)) {
		t.Errorf("EmptyAABB().Contains(0, 0) = true, want false")
	}
}

func TestAABBContainsAABB(t *testing.T) {
	a := box(0, 0, 4, 4)
	tests := []struct {
		name string
		b    shape.AABB
		want bool
	}{
		{"itself", a, true},
		{"inside", box(1, 1, 2, 2), true},
		{"flush with edge", box(0, 1, 4, 2), true},
		{"sticks out right", box(1, 1, 5, 2), false},
		{"sticks out below", box(1, -1, 2, 2), false},
		{"disjoint", box(5, 5, 6, 6), false},
		{"bigger", box(-1, -1, 5, 5), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.ContainsAABB(tc.b); got != tc.want {
				t.Errorf("%v.ContainsAABB(%v) = %v, want %v", a, tc.b, got, tc.want)
			}
		})
	}
}

func TestAABBUnion(t *testing.T) {
	tests := []struct {
		name       string
		a, b, want shape.AABB
	}{
		{"disjoint", box(0, 0, 1, 1), box(2, -1, 3, 0.5), box(0, -1, 3, 1)},
		{"nested", box(0, 0, 4, 4), box(1, 1, 2, 2), box(0, 0, 4, 4)},
		{"same", box(1, 2, 3, 4), box(1, 2, 3, 4), box(1, 2, 3, 4)},
		{"empty left", shape.EmptyAABB(), box(-1, -2, 3, 4), box(-1, -2, 3, 4)},
		{"empty right", box(-1, -2, 3, 4), shape.EmptyAABB(), box(-1, -2, 3, 4)},
		{"point", box(5, 5, 5, 5), box(0, 0, 1, 1), box(0, 0, 5, 5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.Union(tc.b); got != tc.want {
				t.Errorf("%v.Union(%v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			if got := tc.b.Union(tc.a); got != tc.want {
				t.Errorf("%v.Union(%v) = %v, want %v (swapped)", tc.b, tc.a, got, tc.want)
			}
			u := tc.a.Union(tc.b)
			for _, c := range []shape.AABB{tc.a, tc.b} {
				if !c.IsEmpty() && !u.ContainsAABB(c) {
					t.Errorf("%v.Union(%v) = %v does not contain %v", tc.a, tc.b, u, c)
				}
			}
		})
	}
}

func TestEmptyAABB(t *testing.T) {
	e := shape.EmptyAABB()
	if !e.IsEmpty() {
		t.Errorf("EmptyAABB().IsEmpty() = false, want true")
	}
	if e.IsFinite() {
		t.Errorf("EmptyAABB().IsFinite() = true, want false")
	}
	if got := e.Union(e); !got.IsEmpty() {
		t.Errorf("EmptyAABB().Union(EmptyAABB()) = %v, want empty", got)
	}
	if got := shape.AABBFromPoints(); got != e {
		t.Errorf("AABBFromPoints() = %v, want EmptyAABB() = %v", got, e)
	}
	if got := e.Expand(1); !got.IsEmpty() {
		t.Errorf("EmptyAABB().Expand(1) = %v, want still empty", got)
	}
	if e.Overlaps(e) {
		t.Errorf("EmptyAABB().Overlaps(itself) = true, want false")
	}
}

func TestAABBIsEmpty(t *testing.T) {
	tests := []struct {
		name string
		b    shape.AABB
		want bool
	}{
		{"unit", box(0, 0, 1, 1), false},
		{"point", box(2, 2, 2, 2), false},
		{"zero value is the origin point", shape.AABB{}, false},
		{"inverted x", box(1, 0, 0, 1), true},
		{"inverted y", box(0, 1, 1, 0), true},
		{"NaN", box(math.NaN(), 0, 1, 1), true},
		{"empty", shape.EmptyAABB(), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.IsEmpty(); got != tc.want {
				t.Errorf("%v.IsEmpty() = %v, want %v", tc.b, got, tc.want)
			}
		})
	}
}

func TestAABBExpand(t *testing.T) {
	tests := []struct {
		name string
		b    shape.AABB
		m    float64
		want shape.AABB
	}{
		{"grow", box(0, 0, 2, 1), 0.5, box(-0.5, -0.5, 2.5, 1.5)},
		{"zero", box(0, 0, 2, 1), 0, box(0, 0, 2, 1)},
		{"shrink", box(0, 0, 2, 2), -0.5, box(0.5, 0.5, 1.5, 1.5)},
		{"shrink past empty", box(0, 0, 2, 2), -2, box(2, 2, 0, 0)},
		{"point grows", box(3, 3, 3, 3), 1, box(2, 2, 4, 4)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.Expand(tc.m); got != tc.want {
				t.Errorf("%v.Expand(%v) = %v, want %v", tc.b, tc.m, got, tc.want)
			}
		})
	}
	if !box(0, 0, 2, 2).Expand(-2).IsEmpty() {
		t.Errorf("box(0,0,2,2).Expand(-2).IsEmpty() = false, want true")
	}
}

func TestAABBMeasures(t *testing.T) {
	b := box(-1, 2, 3, 8)
	if got, want := b.Center(), shape.V(1, 5); got != want {
		t.Errorf("%v.Center() = %v, want %v", b, got, want)
	}
	if got, want := b.HalfExtents(), shape.V(2, 3); got != want {
		t.Errorf("%v.HalfExtents() = %v, want %v", b, got, want)
	}
	if got, want := b.Perimeter(), 20.0; got != want {
		t.Errorf("%v.Perimeter() = %v, want %v", b, got, want)
	}
	if got, want := b.Translate(shape.V(1, -2)), box(0, 0, 4, 6); got != want {
		t.Errorf("%v.Translate(1, -2) = %v, want %v", b, got, want)
	}
	if got := shape.AABBFromCenter(b.Center(), b.HalfExtents()); got != b {
		t.Errorf("AABBFromCenter(Center, HalfExtents) of %v = %v, want %v", b, got, b)
	}
	if !b.IsFinite() {
		t.Errorf("%v.IsFinite() = false, want true", b)
	}
	if box(0, 0, math.Inf(1), 1).IsFinite() {
		t.Errorf("box with +Inf max IsFinite() = true, want false")
	}
}

func TestAABBFromPoints(t *testing.T) {
	pts := []shape.Vec2{{3, -1}, {-2, 4}, {0, 0}, {1, 7}}
	if got, want := shape.AABBFromPoints(pts...), box(-2, -1, 3, 7); got != want {
		t.Errorf("AABBFromPoints(%v) = %v, want %v", pts, got, want)
	}
	if got, want := shape.AABBFromPoints(shape.V(1, 2)), box(1, 2, 1, 2); got != want {
		t.Errorf("AABBFromPoints((1, 2)) = %v, want %v", got, want)
	}
}

// TestAABBOverlapsMatchesBruteForce checks Overlaps against an integer-grid
// intersection test on random boxes with shared coordinates, so touching
// cases come up often.
func TestAABBOverlapsMatchesBruteForce(t *testing.T) {
	r := newRand(t)
	rb := func() shape.AABB {
		x0, x1 := float64(r.IntN(6)), float64(r.IntN(6))
		y0, y1 := float64(r.IntN(6)), float64(r.IntN(6))
		return box(math.Min(x0, x1), math.Min(y0, y1), math.Max(x0, x1), math.Max(y0, y1))
	}
	for range iters(5000, 500) {
		a, b := rb(), rb()
		want := false
		for x := 0.0; x <= 5 && !want; x += 0.5 {
			for y := 0.0; y <= 5; y += 0.5 {
				if a.Contains(shape.V(x, y)) && b.Contains(shape.V(x, y)) {
					want = true
					break
				}
			}
		}
		if got := a.Overlaps(b); got != want {
			t.Fatalf("%v.Overlaps(%v) = %v, want %v", a, b, got, want)
		}
	}
}
