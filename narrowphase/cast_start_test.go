package narrowphase_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCastStartAgreesWithCollide places random pairs of every kind,
// compounds and chains included, at the exact first touch of a motion
// (the rational oracle's), then moves the mover 0 to 3 ulps on either
// side along each axis, far from the origin too, so that many start
// overlapping by less than a rounding step or apart by as little. A cast
// along any motion, zero included, must agree with Collide at its start:
// where Collide finds a contact, a hit at fraction 0 with Collide's normal
// (negated) and point; where Cast says a hit at 0, Collide may find a
// contact or none (touching is a hit), but a hit after 0 or none means
// Collide found none.
func TestCastStartAgreesWithCollide(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1707))
	n := exCases(1000)
	checked, overlapping := 0, 0
	for range n {
		a, b := h8RandFloatShape(rng), h8RandFloatShape(rng)
		base := exBases[rng.IntN(len(exBases))]
		ta := shape.Transform{Pos: shape.V(-base, base).Add(shape.V(rng.Float64()*4-2, rng.Float64()*4-2)), Rot: shape.NewRot(rng.Float64() * 7)}
		tb := shape.Transform{Pos: ta.Pos.Add(shape.V(rng.Float64()*8-4, rng.Float64()*8-4)), Rot: shape.NewRot(rng.Float64() * 7)}
		d0 := tb.Pos.Sub(ta.Pos).Scale(2)
		frac, hit := exFirstTouch(a, ta, d0, b, tb)
		if !hit || frac == 0 {
			continue
		}
		ta.Pos = ta.Pos.Add(d0.Scale(frac))
		// Nudged by whole ulps of each coordinate.
		ux, uy := rng.IntN(7)-3, rng.IntN(7)-3
		ta.Pos.X = ulpStep(ta.Pos.X, ux)
		ta.Pos.Y = ulpStep(ta.Pos.Y, uy)
		m, in := narrowphase.Collide(a, ta, b, tb)
		if in {
			overlapping++
		}
		r := shape.V(rng.Float64()*4-2, rng.Float64()*4-2)
		for _, delta := range []shape.Vec2{d0.Scale(rng.Float64()), d0.Scale(-rng.Float64()), r, {}} {
			h, ok := narrowphase.Cast(a, ta, delta, b, tb)
			checked++
			if in && (!ok || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point) {
				t.Fatalf("Cast = %+v, %v; Collide finds a contact at the start (depth %g, normal %v, point %v): want a hit at 0 with its normal negated and its point: %s, delta %v",
					h, ok, m.Depth, m.Normal, m.Points[0].Point, exDescribe(a, ta, b, tb), delta)
			}
		}
	}
	t.Logf("%d casts from %d starts near a touch, %d of them overlapping", checked, n, overlapping)
}
