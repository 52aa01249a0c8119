package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file runs Collide and Cast on polygons that NewPolygon accepts but
// that sit near its limits: edges from 1e-6 down to 1e-11 of the
// polygon's size, and vertices pushed off a straight edge by as little.
// The exact oracle (exact_oracle_test.go) judges each answer; for casts,
// where bisecting the exact first touch is slow, the check is cheaper and
// as strict: the exact signed gap at the fraction given is zero to the
// tolerance (no overshoot into the other shape, no stop short of it), the
// normal supports the Minkowski difference there, and a miss is a motion
// whose exact closest approach is not an overlap.

// dgPolygon returns a convex polygon of size about 4 with short edges or
// nearly collinear vertices added to a random n-gon (at least one).
func dgPolygon(rng *rand.Rand) shape.Shape {
	for {
		n := 3 + rng.IntN(4)
		pts := make([]shape.Vec2, n)
		for i := range pts {
			a := 2 * math.Pi * (float64(i) + 0.3*rng.Float64()) / float64(n)
			pts[i] = shape.V(2*math.Cos(a), 2*math.Sin(a))
		}
		var out []shape.Vec2
		for i, p := range pts {
			out = append(out, p)
			q := pts[(i+1)%n]
			e := q.Sub(p)
			eps := math.Pow(10, -6-5*rng.Float64())
			switch rng.IntN(3) {
			case 0: // the edge's middle pushed out by eps of its length
				out = append(out, p.Add(q).Scale(0.5).Add(shape.V(e.Y, -e.X).Scale(eps)))
			case 1: // a short edge at p, eps of the edge long
				out = append(out, p.Add(e.Scale(eps)))
			}
		}
		if s, err := shape.NewPolygon(out); err == nil && len(s.Vertices()) > n {
			return s
		}
	}
}

// dgCheckCast checks Cast of a by delta against b (see the top of the
// file) and reports whether it hit.
func dgCheckCast(t *testing.T, a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform) bool {
	t.Helper()
	desc := exDescribe(a, ta, b, tb) + fmt.Sprintf(", delta %v", delta)
	h, ok := narrowphase.Cast(a, ta, delta, b, tb)
	if m, in := narrowphase.Collide(a, ta, b, tb); in {
		if !ok || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point {
			t.Errorf("Cast = %+v, %v; overlapping at the start, want Fraction 0 and Collide's negated normal: %s", h, ok, desc)
		}
		return ok
	}
	o := exCastOracle{d: exMinkowski(exPlace(a, ta), exPlace(b, tb)), delta: delta}
	tol := 1e-9 * (exLocalScale(a, ta, b, tb) + delta.Len())
	if !ok {
		// The closest approach along the whole motion.
		g2 := exSegDist2(o.d, exV{exR(0), exR(0)}, exVF(delta))
		rf, _ := o.d.r.Float64()
		if gap := exSqrt(g2) - rf; gap < -tol {
			t.Errorf("Cast missed, but the motion goes %.3g deep: %s", -gap, desc)
		}
		return false
	}
	if g := o.gapAt(h.Fraction); math.Abs(g) > tol {
		t.Errorf("Cast.Fraction = %.17g, where the exact gap is %.3g, want 0 (tol %.3g): %s", h.Fraction, g, tol, desc)
	}
	if s := exSupport(o.d, h.Normal) - delta.Scale(h.Fraction).Dot(h.Normal); math.Abs(s) > tol {
		t.Errorf("Cast.Normal = %v does not support the touch (off by %.3g): %s", h.Normal, s, desc)
	}
	return true
}

// TestExactOracleDegeneratePolygons collides and casts polygons with short
// edges and nearly collinear vertices against every convex kind and
// against each other, in both orders, with the partner placed near one of
// the polygon's vertices (where the short edges are), turned by random
// angles and quarter turns, at the origin and at 1e6.
func TestExactOracleDegeneratePolygons(t *testing.T) {
	seed := fcSeed(t, 4242)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	n := 300
	if oracleShort() {
		n = 12
	}
	contacts, hits := 0, 0
	for _, kb := range exConvexKinds {
		t.Run(kb.String(), func(t *testing.T) {
			for range n {
				a := dgPolygon(rng)
				b := exRandShape(rng, kb)
				if kb == shape.KindPolygon && rng.IntN(2) == 0 {
					b = dgPolygon(rng)
				}
				base := []float64{0, 0, 1e6}[rng.IntN(3)]
				ta := shape.Transform{Pos: shape.V(base, -base), Rot: exRandRot(rng)}
				v := a.Vertices()[rng.IntN(len(a.Vertices()))]
				tb := shape.Transform{Pos: ta.Apply(v.Scale(1 + (rng.Float64()-0.3)*0.5)), Rot: exRandRot(rng)}
				if exCheckCollide(t, a, ta, b, tb, 1e-9) {
					contacts++
				}
				exCheckCollide(t, b, tb, a, ta, 1e-9)
				// Casts from a few units away, toward the other and past.
				far := tb
				far.Pos = tb.Pos.Add(shape.V(rng.Float64()*6-3, rng.Float64()*6-3))
				delta := exRandDelta(rng, far, ta)
				if dgCheckCast(t, b, far, delta, a, ta) {
					hits++
				}
				if dgCheckCast(t, a, ta, delta.Neg(), b, far) {
					hits++
				}
				if t.Failed() {
					return
				}
			}
		})
	}
	t.Logf("%d cases: %d contacts, %d cast hits", 6*n, contacts, hits)
}
