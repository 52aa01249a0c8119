package shape_test

import (
	"errors"
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestZeroRotIsIdentity pins the design decision that Rot stores cos−1, so
// that the zero Rot, and with it the zero Transform, is the identity.
func TestZeroRotIsIdentity(t *testing.T) {
	var r shape.Rot
	if r.Cos() != 1 || r.Sin() != 0 {
		t.Errorf("Rot{}.Cos(), Sin() = %v, %v, want 1, 0", r.Cos(), r.Sin())
	}
	if !r.IsIdentity() {
		t.Errorf("Rot{}.IsIdentity() = false, want true")
	}
	if a := r.Angle(); a != 0 {
		t.Errorf("Rot{}.Angle() = %v, want 0", a)
	}
	if r != shape.NewRot(0) {
		t.Errorf("Rot{} = %v, want NewRot(0) = %v", r, shape.NewRot(0))
	}
	if r != shape.RotFromCosSin(1, 0) {
		t.Errorf("Rot{} = %v, want RotFromCosSin(1, 0) = %v", r, shape.RotFromCosSin(1, 0))
	}
	if shape.NewRot(1e-3).IsIdentity() {
		t.Errorf("NewRot(1e-3).IsIdentity() = true, want false")
	}
}

func TestZeroTransformIsIdentity(t *testing.T) {
	var tr shape.Transform
	if tr != shape.Identity {
		t.Errorf("Transform{} = %v, want Identity = %v", tr, shape.Identity)
	}
	if got := shape.NewTransform(shape.Vec2{}, 0); got != tr {
		t.Errorf("NewTransform(0, 0) = %v, want Transform{}", got)
	}
	points := []shape.Vec2{{0, 0}, {1, 0}, {-3.5, 2e6}, {1e-300, -1e300}, {math.MaxFloat64, -math.MaxFloat64}}
	for _, p := range points {
		if got := tr.Apply(p); got != p {
			t.Errorf("Transform{}.Apply(%v) = %v, want %v exactly", p, got, p)
		}
		if got := tr.ApplyInv(p); got != p {
			t.Errorf("Transform{}.ApplyInv(%v) = %v, want %v exactly", p, got, p)
		}
		if got := tr.Rot.Apply(p); got != p {
			t.Errorf("Rot{}.Apply(%v) = %v, want %v exactly", p, got, p)
		}
	}
	u := shape.NewTransform(shape.V(3, 4), 0.5)
	if got := tr.MulInv(u); got != u {
		t.Errorf("Transform{}.MulInv(%v) = %v, want %v", u, got, u)
	}
	if err := tr.Validate(); err != nil {
		t.Errorf("Transform{}.Validate() = %v, want nil", err)
	}
}

func TestNewRot(t *testing.T) {
	tests := []struct {
		name  string
		angle float64
		in    shape.Vec2
		want  shape.Vec2
	}{
		{"π/2 turns x to y", math.Pi / 2, shape.V(1, 0), shape.V(0, 1)},
		{"π/2 turns y to -x", math.Pi / 2, shape.V(0, 1), shape.V(-1, 0)},
		{"π negates", math.Pi, shape.V(2, -3), shape.V(-2, 3)},
		{"-π/2 turns x to -y", -math.Pi / 2, shape.V(1, 0), shape.V(0, -1)},
		{"π/4", math.Pi / 4, shape.V(1, 0), shape.V(math.Sqrt2/2, math.Sqrt2/2)},
		{"2π is identity", 2 * math.Pi, shape.V(5, 7), shape.V(5, 7)},
		{"π/6", math.Pi / 6, shape.V(2, 0), shape.V(math.Sqrt(3), 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := shape.NewRot(tc.angle)
			if got := r.Apply(tc.in); !vecNear(got, tc.want, 1e-15) {
				t.Errorf("NewRot(%v).Apply(%v) = %v, want %v", tc.angle, tc.in, got, tc.want)
			}
			if got := r.ApplyInv(tc.want); !vecNear(got, tc.in, 1e-15) {
				t.Errorf("NewRot(%v).ApplyInv(%v) = %v, want %v", tc.angle, tc.want, got, tc.in)
			}
			if !near(r.Cos(), math.Cos(tc.angle), 1e-15) || !near(r.Sin(), math.Sin(tc.angle), 1e-15) {
				t.Errorf("NewRot(%v) Cos, Sin = %v, %v, want %v, %v", tc.angle, r.Cos(), r.Sin(), math.Cos(tc.angle), math.Sin(tc.angle))
			}
			want := math.Remainder(tc.angle, 2*math.Pi)
			if got := r.Angle(); !near(got, want, 1e-15) && !near(math.Abs(got), math.Pi, 1e-15) {
				t.Errorf("NewRot(%v).Angle() = %v, want %v", tc.angle, got, want)
			}
		})
	}
}

func TestRotFromCosSin(t *testing.T) {
	r := shape.RotFromCosSin(0.6, 0.8)
	if r.Cos() != 0.6 || r.Sin() != 0.8 {
		t.Errorf("RotFromCosSin(0.6, 0.8) Cos, Sin = %v, %v, want 0.6, 0.8", r.Cos(), r.Sin())
	}
	if got, want := r.Apply(shape.V(1, 0)), shape.V(0.6, 0.8); !vecNear(got, want, 1e-15) {
		t.Errorf("RotFromCosSin(0.6, 0.8).Apply(1, 0) = %v, want %v", got, want)
	}
}

func TestRotMulComposes(t *testing.T) {
	r := newRand(t)
	for range iters(2000, 200) {
		a, b := r.Float64()*20-10, r.Float64()*20-10
		ra, rb := shape.NewRot(a), shape.NewRot(b)
		sum, diff := shape.NewRot(a+b), shape.NewRot(a-b)
		if got := ra.Mul(rb); !near(got.Cos(), sum.Cos(), 1e-14) || !near(got.Sin(), sum.Sin(), 1e-14) {
			t.Fatalf("NewRot(%v).Mul(NewRot(%v)) = (%v, %v), want (%v, %v)", a, b, got.Cos(), got.Sin(), sum.Cos(), sum.Sin())
		}
		if got := ra.MulInv(rb); !near(got.Cos(), diff.Cos(), 1e-14) || !near(got.Sin(), diff.Sin(), 1e-14) {
			t.Fatalf("NewRot(%v).MulInv(NewRot(%v)) = (%v, %v), want (%v, %v)", a, b, got.Cos(), got.Sin(), diff.Cos(), diff.Sin())
		}
		if got := ra.MulInv(ra); !near(got.Cos(), 1, 1e-15) || !near(got.Sin(), 0, 1e-15) {
			t.Fatalf("NewRot(%v).MulInv(itself) = (%v, %v), want (1, 0)", a, got.Cos(), got.Sin())
		}
	}
}

func randTransform(r interface{ Float64() float64 }, span float64) shape.Transform {
	return shape.NewTransform(shape.V((r.Float64()*2-1)*span, (r.Float64()*2-1)*span), (r.Float64()*2-1)*2*math.Pi)
}

// TestTransformRoundTrip checks Apply/ApplyInv in both orders at several
// coordinate scales, with a tolerance relative to the scale.
func TestTransformRoundTrip(t *testing.T) {
	r := newRand(t)
	for _, span := range []float64{1, 1e3, 1e6} {
		t.Run("", func(t *testing.T) {
			tol := 1e-15 * 8 * span
			for range iters(2000, 200) {
				tr := randTransform(r, span)
				p := shape.V((r.Float64()*2-1)*span, (r.Float64()*2-1)*span)
				if got := tr.ApplyInv(tr.Apply(p)); !vecClose(got, p, tol) {
					t.Fatalf("%v.ApplyInv(Apply(%v)) = %v, want %v (span %g)", tr, p, got, p, span)
				}
				if got := tr.Apply(tr.ApplyInv(p)); !vecClose(got, p, tol) {
					t.Fatalf("%v.Apply(ApplyInv(%v)) = %v, want %v (span %g)", tr, p, got, p, span)
				}
				// Apply rotates then translates.
				want := tr.Rot.Apply(p).Add(tr.Pos)
				if got := tr.Apply(p); got != want {
					t.Fatalf("%v.Apply(%v) = %v, want Rot.Apply then +Pos = %v", tr, p, got, want)
				}
				// Rotation keeps length.
				if l, want := tr.Rot.Apply(p).Len(), p.Len(); !near(l, want, 1e-15*4) {
					t.Fatalf("|%v.Rot.Apply(%v)| = %v, want %v", tr, p, l, want)
				}
			}
		})
	}
}

// vecClose reports whether a and b differ by at most tol in each component.
func vecClose(a, b shape.Vec2, tol float64) bool {
	return math.Abs(a.X-b.X) <= tol && math.Abs(a.Y-b.Y) <= tol
}

// TestTransformMulInvIdentity checks the documented identity
// t.MulInv(u).Apply(p) == t.ApplyInv(u.Apply(p)).
func TestTransformMulInvIdentity(t *testing.T) {
	r := newRand(t)
	for _, span := range []float64{1, 1e3, 1e6} {
		t.Run("", func(t *testing.T) {
			tol := 1e-15 * 16 * span
			for range iters(2000, 200) {
				tr, u := randTransform(r, span), randTransform(r, span)
				p := shape.V((r.Float64()*2-1)*span, (r.Float64()*2-1)*span)
				got := tr.MulInv(u).Apply(p)
				want := tr.ApplyInv(u.Apply(p))
				if !vecClose(got, want, tol) {
					t.Fatalf("%v.MulInv(%v).Apply(%v) = %v, want ApplyInv(Apply) = %v (span %g)", tr, u, p, got, want, span)
				}
				// u in its own frame is the identity.
				if self := u.MulInv(u); !vecClose(self.Pos, shape.Vec2{}, 0) || !near(self.Rot.Cos(), 1, 1e-15) || !near(self.Rot.Sin(), 0, 1e-15) {
					t.Fatalf("%v.MulInv(itself) = %v, want identity", u, self)
				}
			}
		})
	}
}

func TestTransformMulInvKnown(t *testing.T) {
	tr := shape.NewTransform(shape.V(1, 1), math.Pi/2)
	u := shape.NewTransform(shape.V(1, 3), math.Pi)
	got := tr.MulInv(u)
	// u's origin is 2 units along t's +Y world axis, which is t's local +X
	// after a quarter turn; its rotation relative to t is a quarter turn.
	if !vecNear(got.Pos, shape.V(2, 0), 1e-15) {
		t.Errorf("%v.MulInv(%v).Pos = %v, want (2, 0)", tr, u, got.Pos)
	}
	if !near(got.Rot.Angle(), math.Pi/2, 1e-15) {
		t.Errorf("%v.MulInv(%v).Rot.Angle() = %v, want π/2", tr, u, got.Rot.Angle())
	}
}

func TestTransformValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		tr   shape.Transform
		ok   bool
	}{
		{"zero", shape.Transform{}, true},
		{"ordinary", shape.NewTransform(shape.V(1e6, -1e6), 3), true},
		{"pos x NaN", shape.NewTransform(shape.V(nan, 0), 0), false},
		{"pos y -Inf", shape.NewTransform(shape.V(0, -inf), 0), false},
		{"angle NaN", shape.NewTransform(shape.V(0, 0), nan), false},
		{"angle Inf", shape.NewTransform(shape.V(0, 0), inf), false},
		{"cos Inf", shape.Transform{Rot: shape.RotFromCosSin(inf, 0)}, false},
		{"sin NaN", shape.Transform{Rot: shape.RotFromCosSin(1, nan)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tr.Validate()
			if tc.ok {
				if err != nil {
					t.Errorf("%v.Validate() = %v, want nil", tc.tr, err)
				}
				return
			}
			checkErr(t, "Validate", err, shape.ErrNotFinite)
			if !errors.Is(err, shape.ErrNotFinite) {
				t.Errorf("%v.Validate() = %v, want ErrNotFinite", tc.tr, err)
			}
		})
	}
}
