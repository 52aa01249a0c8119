package shape

import (
	"fmt"
	"math"
)

// Rot is a rotation stored as a cosine/sine pair. The cosine is kept minus
// one, as ebiten's GeoM keeps its diagonal, so that the zero Rot is the
// identity rotation and a zero Transform is a useful value.
type Rot struct {
	c1 float64 // cos(angle) - 1
	s  float64 // sin(angle)
}

// NewRot returns the counter-clockwise rotation by angle radians.
func NewRot(angle float64) Rot {
	s, c := SinCos(angle)
	return Rot{c1: c - 1, s: s}
}

// RotFromCosSin returns the rotation with the given cosine and sine. The pair
// should be of unit length; it is used as given.
func RotFromCosSin(c, s float64) Rot { return Rot{c1: c - 1, s: s} }

// Cos returns the cosine of the rotation's angle.
func (r Rot) Cos() float64 { return r.c1 + 1 }

// Sin returns the sine of the rotation's angle.
func (r Rot) Sin() float64 { return r.s }

// Angle returns the rotation's angle in radians, in (-π, π].
func (r Rot) Angle() float64 { return math.Atan2(r.s, r.c1+1) }

// Apply returns v rotated by r.
func (r Rot) Apply(v Vec2) Vec2 {
	c := r.c1 + 1
	return Vec2{float64(c*v.X) - float64(r.s*v.Y), float64(r.s*v.X) + float64(c*v.Y)}
}

// ApplyInv returns v rotated by the inverse of r.
func (r Rot) ApplyInv(v Vec2) Vec2 {
	c := r.c1 + 1
	return Vec2{float64(c*v.X) + float64(r.s*v.Y), float64(c*v.Y) - float64(r.s*v.X)}
}

// Mul returns the composition of r and q: the rotation by the sum of both
// angles.
func (r Rot) Mul(q Rot) Rot {
	rc, qc := r.c1+1, q.c1+1
	c := float64(rc*qc) - float64(r.s*q.s)
	s := float64(r.s*qc) + float64(rc*q.s)
	return Rot{c1: c - 1, s: s}
}

// MulInv returns the rotation by the angle of r minus the angle of q: the
// rotation of r expressed in q's frame.
func (r Rot) MulInv(q Rot) Rot {
	rc, qc := r.c1+1, q.c1+1
	c := float64(qc*rc) + float64(q.s*r.s)
	s := float64(qc*r.s) - float64(q.s*rc)
	return Rot{c1: c - 1, s: s}
}

// IsIdentity reports whether r is exactly the identity rotation.
func (r Rot) IsIdentity() bool { return r.c1 == 0 && r.s == 0 }

// Transform places a shape in the world: a position and a rotation. The zero
// Transform is the identity.
type Transform struct {
	Pos Vec2
	Rot Rot
}

// Identity is the identity transform, equal to the zero Transform.
var Identity = Transform{}

// NewTransform returns the transform that rotates by angle radians
// (counter-clockwise) and then translates by pos.
func NewTransform(pos Vec2, angle float64) Transform {
	return Transform{Pos: pos, Rot: NewRot(angle)}
}

// Apply returns the local point p in world coordinates.
func (t Transform) Apply(p Vec2) Vec2 { return t.Rot.Apply(p).Add(t.Pos) }

// ApplyInv returns the world point p in t's local coordinates.
func (t Transform) ApplyInv(p Vec2) Vec2 { return t.Rot.ApplyInv(p.Sub(t.Pos)) }

// MulInv returns the transform of u expressed in t's local frame, so that
// t.MulInv(u).Apply(p) == t.ApplyInv(u.Apply(p)).
func (t Transform) MulInv(u Transform) Transform {
	return Transform{Pos: t.Rot.ApplyInv(u.Pos.Sub(t.Pos)), Rot: u.Rot.MulInv(t.Rot)}
}

// Validate returns an error wrapping [ErrNotFinite] if any number in t is NaN
// or infinite.
func (t Transform) Validate() error {
	if !t.Pos.IsFinite() || !isFinite(t.Rot.c1) || !isFinite(t.Rot.s) {
		return fmt.Errorf("%w: transform at %v with cos %v, sin %v", ErrNotFinite, t.Pos, t.Rot.Cos(), t.Rot.s)
	}
	return nil
}

// Mul returns the composition of t and u: the transform that applies u,
// then t (t.Mul(u).Apply(p) == t.Apply(u.Apply(p)) up to rounding). A
// part's place in the world is its body's transform times its offset. An
// identity rotation in u keeps t's rotation bit for bit.
func (t Transform) Mul(u Transform) Transform {
	r := t.Rot
	if !u.Rot.IsIdentity() {
		r = t.Rot.Mul(u.Rot)
	}
	return Transform{Pos: t.Apply(u.Pos), Rot: r}
}

// CosMinusOne returns the cosine of the rotation's angle minus one, as the
// rotation keeps it (exact near the identity, where Cos rounds to 1). With
// Sin it is the rotation's exact representation, for encoders.
func (r Rot) CosMinusOne() float64 { return r.c1 }

// RotFromCosMinusOneSin returns the rotation CosMinusOne and Sin describe:
// the inverse of the pair, for decoders.
func RotFromCosMinusOneSin(c1, s float64) Rot { return Rot{c1: c1, s: s} }
