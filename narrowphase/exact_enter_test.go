package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks CastEnter and CastSliding part pair by part pair
// against the exact oracle (exact_oracle_test.go), by a method of its own:
// the signed gap
// g(t) of a part pair after a moved by t·delta (the signed distance from
// t·delta to the pair's exact Minkowski difference) is convex in t, so its
// minimum over [0, 1] is found by golden-section search and, when it is
// below zero, the entry time by bisection before it. A motion enters a
// pair exactly when the minimum is negative; two segments never overlap.
// Pairs whose minimum is within the tolerance of zero (grazes, touches at
// an end) may count either way. CastSliding counts a pair by CastEnter's
// rule too, and also passes a touch at the start that the motion enters
// at a slope within its tolerance, a pair whose least gap is then within
// this file's; pairs that overlap at the start are left to the tests of
// that rule.

// ceGaps is one part pair's exact gap along the motion.
type ceGaps struct {
	o     exCastOracle
	tmin  float64 // where the gap is least
	gmin  float64 // the least gap
	entry float64 // the first t with gap ≤ 0, when gmin ≤ 0
}

// ceSolve minimises the pair's gap over [0, 1] and finds its entry.
func ceSolve(o exCastOracle) ceGaps {
	const phi = 0.6180339887498949
	lo, hi := 0.0, 1.0
	x1, x2 := hi-phi*(hi-lo), lo+phi*(hi-lo)
	g1, g2 := o.gapAt(x1), o.gapAt(x2)
	for range 60 {
		if g1 <= g2 {
			hi, x2, g2 = x2, x1, g1
			x1 = hi - phi*(hi-lo)
			g1 = o.gapAt(x1)
		} else {
			lo, x1, g1 = x1, x2, g2
			x2 = lo + phi*(hi-lo)
			g2 = o.gapAt(x2)
		}
	}
	c := ceGaps{o: o, tmin: x1, gmin: g1}
	for _, x := range []float64{0, 1} { // the minimum may sit at an end
		if g := o.gapAt(x); g < c.gmin {
			c.tmin, c.gmin = x, g
		}
	}
	if c.gmin <= 0 {
		if o.gapAt(0) <= 0 {
			c.entry = 0
		} else {
			a, b := 0.0, c.tmin
			for range 80 {
				m := a + (b-a)/2
				if o.gapAt(m) <= 0 {
					b = m
				} else {
					a = m
				}
			}
			c.entry = b
		}
	}
	return c
}

// ceCheck compares CastEnter(a, ta, delta, b, tb), or CastSliding with
// slide, with the oracle and reports whether it hit.
func ceCheck(t *testing.T, a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, slide bool) bool {
	t.Helper()
	desc := exDescribe(a, ta, b, tb) + fmt.Sprintf(", delta %v", delta)
	var h narrowphase.CastHit
	var partA int
	var ok bool
	name := "CastEnter"
	if slide {
		name = "CastSliding"
		h, ok = narrowphase.CastSliding(a, ta, delta, b, tb, 1e-12)
		partA = -1 // not reported: any of a's parts
	} else {
		h, partA, ok = narrowphase.CastEnter(a, ta, delta, b, tb)
	}
	pa, pb := exParts(a, ta), exParts(b, tb)
	tol := 1e-9 * (exLocalScale(a, ta, b, tb) + delta.Len())
	gaps := map[[2]int]ceGaps{}
	must := false
	for i, ca := range pa {
		for j, cb := range pb {
			if len(ca.pts) <= 2 && len(cb.pts) <= 2 && ca.r.Sign() == 0 && cb.r.Sign() == 0 {
				continue // two segments never overlap
			}
			c := ceSolve(exCastOracle{d: exMinkowski(ca, cb), delta: delta})
			gaps[[2]int{i, j}] = c
			if c.gmin < -tol {
				must = true
			}
		}
	}
	if !ok {
		if must {
			t.Errorf("%s missed; the motion enters a part pair: %s", name, desc)
		}
		return false
	}
	c, known := gaps[[2]int{partA, h.Part}]
	for i := range pa {
		if g, in := gaps[[2]int{i, h.Part}]; partA < 0 && in && (!known || math.Abs(g.o.gapAt(h.Fraction)) < math.Abs(c.o.gapAt(h.Fraction))) {
			c, known = g, true // the part of a that touches at the fraction
		}
	}
	switch {
	case !known || c.gmin > tol:
		t.Errorf("%s = %+v (part %d of a); that pair is never entered (least gap %.3g): %s", name, h, partA, c.gmin, desc)
	case !(h.Fraction >= 0 && h.Fraction <= 1):
		t.Errorf("%s.Fraction = %v: %s", name, h.Fraction, desc)
	case h.Fraction > 0 && math.Abs(c.o.gapAt(h.Fraction)) > tol:
		t.Errorf("%s.Fraction = %.17g, where the pair's exact gap is %.3g, want 0: %s", name, h.Fraction, c.o.gapAt(h.Fraction), desc)
	case h.Fraction == 0 && c.o.gapAt(0) > tol:
		t.Errorf("%s.Fraction = 0, but the pair starts %.3g apart: %s", name, c.o.gapAt(0), desc)
	}
	// No pair goes in deeper than the tolerance before the fraction given.
	for k, g := range gaps {
		if g.gmin > -tol || g.entry >= h.Fraction {
			continue
		}
		if x := math.Max(g.entry, math.Min(g.tmin, h.Fraction)); g.o.gapAt(x) < -tol {
			t.Errorf("%s.Fraction = %.17g, but part pair %v is %.3g deep at %.17g (entered at %.17g): %s", name, h.Fraction, k, -g.o.gapAt(x), x, g.entry, desc)
		}
	}
	return true
}

// TestExactOracleCastEnter checks CastEnter on random pairs of every kind,
// compounds and chains included, with motions that cross, graze along
// faces (axis-aligned, dyadic), start touching or end touching.
func TestExactOracleCastEnter(t *testing.T) {
	seed := fcSeed(t, 777)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 12))
	n := 400
	if oracleShort() {
		n = 20
	}
	hits := 0
	for c := range n {
		a, b := exRandAnyShape(rng), exRandAnyShape(rng)
		ta, tb := exRandPair(rng, 5)
		if rng.IntN(3) == 0 { // unrotated, for grazes along faces
			ta.Rot, tb.Rot = shape.Rot{}, shape.Rot{}
		}
		delta := exRandDelta(rng, ta, tb)
		if ceCheck(t, a, ta, delta, b, tb, false) {
			hits++
		}
		if t.Failed() {
			t.Logf("case %d", c)
			return
		}
	}
	t.Logf("%d casts, %d enter", n, hits)
}

// TestExactOracleCastSliding is TestExactOracleCastEnter for CastSliding,
// on pairs that do not overlap at the start, with motions that start
// touching (a placed against b by Cast) half of the time.
func TestExactOracleCastSliding(t *testing.T) {
	seed := fcSeed(t, 778)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 13))
	n := 400
	if testing.Short() {
		n = 20
	}
	hits, checked := 0, 0
	for c := range n {
		a, b := exRandAnyShape(rng), exRandAnyShape(rng)
		ta, tb := exRandPair(rng, 5)
		if rng.IntN(3) == 0 { // unrotated, for grazes along faces and corners
			ta.Rot, tb.Rot = shape.Rot{}, shape.Rot{}
		}
		if rng.IntN(2) == 0 {
			// Start touching: cast a toward b and stop at the touch (dyadic
			// aims on dyadic shapes often land exactly).
			if h, ok := narrowphase.Cast(a, ta, tb.Pos.Sub(ta.Pos), b, tb); ok {
				ta.Pos = ta.Pos.Add(tb.Pos.Sub(ta.Pos).Scale(h.Fraction))
			}
		}
		if narrowphase.Overlap(a, ta, b, tb) {
			continue
		}
		checked++
		delta := exRandDelta(rng, ta, tb)
		if ceCheck(t, a, ta, delta, b, tb, true) {
			hits++
		}
		if t.Failed() {
			t.Logf("case %d", c)
			return
		}
	}
	t.Logf("%d casts, %d hit", checked, hits)
}
