package shape_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

func TestVec2Arithmetic(t *testing.T) {
	a, b := shape.V(3, -4), shape.V(-1, 2)
	tests := []struct {
		name      string
		got, want shape.Vec2
	}{
		{"V", shape.V(1, 2), shape.Vec2{X: 1, Y: 2}},
		{"Add", a.Add(b), shape.V(2, -2)},
		{"Sub", a.Sub(b), shape.V(4, -6)},
		{"Scale", a.Scale(-0.5), shape.V(-1.5, 2)},
		{"Neg", a.Neg(), shape.V(-3, 4)},
		{"Perp", shape.V(1, 0).Perp(), shape.V(0, 1)},
		{"Perp of Perp", a.Perp().Perp(), a.Neg()},
		{"Abs", a.Abs(), shape.V(3, 4)},
		{"Min", a.Min(b), shape.V(-1, -4)},
		{"Max", a.Max(b), shape.V(3, 2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
			}
		})
	}
}

func TestVec2Scalars(t *testing.T) {
	a, b := shape.V(3, -4), shape.V(-1, 2)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"Dot", a.Dot(b), -11},
		{"Dot orthogonal", a.Dot(a.Perp()), 0},
		{"Cross", a.Cross(b), 2},
		{"Cross antisymmetric", b.Cross(a), -2},
		{"Cross x by y", shape.V(1, 0).Cross(shape.V(0, 1)), 1},
		{"Cross with Perp is LenSq", a.Cross(a.Perp()), 25},
		{"LenSq", a.LenSq(), 25},
		{"Len", a.Len(), 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
			}
		})
	}
}

func TestVec2IsFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		v    shape.Vec2
		want bool
	}{
		{shape.V(0, 0), true},
		{shape.V(-math.MaxFloat64, math.SmallestNonzeroFloat64), true},
		{shape.V(nan, 0), false},
		{shape.V(0, nan), false},
		{shape.V(inf, 0), false},
		{shape.V(0, -inf), false},
	}
	for _, tc := range tests {
		t.Run("", func(t *testing.T) {
			if got := tc.v.IsFinite(); got != tc.want {
				t.Errorf("%v.IsFinite() = %v, want %v", tc.v, got, tc.want)
			}
			if got := shape.IsFinite(tc.v.X) && shape.IsFinite(tc.v.Y); got != tc.want {
				t.Errorf("IsFinite(%v) && IsFinite(%v) = %v, want %v", tc.v.X, tc.v.Y, got, tc.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	big := math.MaxFloat64
	tests := []struct {
		name string
		v    shape.Vec2
		want shape.Vec2
	}{
		{"unit x", shape.V(1, 0), shape.V(1, 0)},
		{"3-4-5", shape.V(3, -4), shape.V(0.6, -0.8)},
		{"negative y", shape.V(0, -7), shape.V(0, -1)},
		{"small", shape.V(3e-100, 4e-100), shape.V(0.6, 0.8)},
		{"zero falls back to +X", shape.V(0, 0), shape.V(1, 0)},
		{"negative zero falls back to +X", shape.V(math.Copysign(0, -1), math.Copysign(0, -1)), shape.V(1, 0)},
		{"subnormal falls back to +X", shape.V(-math.SmallestNonzeroFloat64, 0), shape.V(1, 0)},
		{"NaN falls back to +X", shape.V(nan, 1), shape.V(1, 0)},
		{"Inf falls back to +X", shape.V(-inf, 1), shape.V(1, 0)},
		{"huge x", shape.V(big, 0), shape.V(1, 0)},
		{"huge negative y", shape.V(0, -big), shape.V(0, -1)},
		{"huge diagonal", shape.V(big, big), shape.V(math.Sqrt2/2, math.Sqrt2/2)},
		{"huge 3-4-5", shape.V(-3e307, 4e307), shape.V(-0.6, 0.8)},
		{"huge square overflows", shape.V(1e200, -1e200), shape.V(math.Sqrt2/2, -math.Sqrt2/2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.v.Normalize()
			if !got.IsFinite() {
				t.Fatalf("%v.Normalize() = %v, want finite", tc.v, got)
			}
			if !vecNear(got, tc.want, 1e-15) {
				t.Errorf("%v.Normalize() = %v, want %v", tc.v, got, tc.want)
			}
			if l := got.Len(); !near(l, 1, 1e-15) {
				t.Errorf("%v.Normalize().Len() = %v, want 1", tc.v, l)
			}
		})
	}
}

func TestNormalizeRandomIsUnitAndParallel(t *testing.T) {
	r := newRand(t)
	for range iters(10000, 1000) {
		// Magnitudes across the whole usable range, 1e-140 to 1e300.
		mag := math.Pow(10, r.Float64()*440-140)
		v := shape.V((r.Float64()*2-1)*mag, (r.Float64()*2-1)*mag)
		n := v.Normalize()
		if !near(n.Len(), 1, 1e-15) {
			t.Fatalf("%v.Normalize() = %v with length %v, want 1", v, n, n.Len())
		}
		// Parallel and same direction: the cross of the directions vanishes.
		d := v.Scale(1 / math.Max(math.Abs(v.X), math.Abs(v.Y)))
		if cr := d.Cross(n); math.Abs(cr) > 1e-14 || d.Dot(n) <= 0 {
			t.Fatalf("%v.Normalize() = %v, not along v (cross %v)", v, n, cr)
		}
	}
}
