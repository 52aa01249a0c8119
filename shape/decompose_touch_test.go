package shape_test

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// This file checks Decompose's refusal of outlines that touch themselves
// against exact rational predicates, on outlines built to sit at the edge
// of rounding: a notch cut down from the top whose tip p comes to the
// bottom edge a–b, where a, b and p lie on a line y = m·x + c whose float
// points are exactly on it (m and c dyadic or small integers, each point
// kept only if exactly on the line in rationals), and p is then moved by
// zero, one or a few ulps either way. The orientation of p against a–b, in
// rationals, decides: on the edge or beyond it (the notch crosses it) the
// outline touches or crosses itself and must be refused with
// ErrSelfIntersecting; short of it the outline is simple, and must
// decompose (checked by dcCheck) or get ErrCollinear (no cut fits at this
// precision), never ErrSelfIntersecting.

// dtRat returns x as an exact rational.
func dtRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// dtOnLine reports whether y = m·x + c holds exactly for the floats given.
func dtOnLine(m, c float64, p shape.Vec2) bool {
	want := new(big.Rat).Add(new(big.Rat).Mul(dtRat(m), dtRat(p.X)), dtRat(c))
	return want.Cmp(dtRat(p.Y)) == 0
}

// dtSeed returns the seed given with -shape.seed, or def.
func dtSeed(t *testing.T, def uint64) uint64 {
	t.Helper()
	seed := def
	if *seedFlag != 0 {
		seed = *seedFlag
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay with: go test ./shape -run '^%s$' -shape.seed=%d", t.Name(), seed)
		}
	})
	return seed
}

// TestDecomposeTouchExact builds notched outlines whose tip sits on, just
// inside or just beyond an edge, at scales from 2⁻²⁰ to 2²⁰, and checks
// Decompose's answer against the exact orientation (see the top of the
// file).
func TestDecomposeTouchExact(t *testing.T) {
	r := rand.New(rand.NewPCG(dtSeed(t, 5150), 77))
	slopes := []float64{3, 5, 7, 0.75, 0.375, -3, -0.625, 11}
	counts := map[string]int{}
	for it := 0; it < iters(3000, 600); {
		m := slopes[r.IntN(len(slopes))]
		c := math.Round(r.Float64()*64) / 16
		line := func(x float64) shape.Vec2 { return shape.V(x, m*x+c) }
		x0 := r.Float64()
		x1 := x0 + 1 + 4*r.Float64()
		xp := x0 + (x1-x0)*(0.3+0.4*r.Float64())
		a, b, p := line(x0), line(x1), line(xp)
		if !dtOnLine(m, c, a) || !dtOnLine(m, c, b) || !dtOnLine(m, c, p) {
			continue
		}
		it++
		// Move p by k ulps in y: left of a→b (inside) for k > 0 when a→b
		// runs to +x.
		k := r.IntN(7) - 3
		for range max(k, -k) {
			p.Y = math.Nextafter(p.Y, math.Copysign(math.Inf(1), float64(k)))
		}
		// The outline, counter-clockwise: the bottom edge a→b, up and back
		// over the top, the notch down to p and back up, and down to a.
		// p is at least 0.3 from a and b, and the notch 0.2 wide at its top.
		d := shape.V(b.X-a.X, b.Y-a.Y).Normalize()
		up := shape.V(-d.Y, d.X) // left of a→b
		at := func(o shape.Vec2, s, u float64) shape.Vec2 {
			return shape.V(o.X+s*d.X+u*up.X, o.Y+s*d.Y+u*up.Y)
		}
		out := []shape.Vec2{a, b, at(b, 0, 3), at(p, 0.1, 2), p, at(p, -0.1, 2), at(a, 0, 3)}
		scale := math.Ldexp(1, r.IntN(41)-20)
		for i := range out {
			out[i] = shape.V(out[i].X*scale, out[i].Y*scale) // exact: a power of two
		}
		o := exactOrient(out[0], out[1], out[4])
		if d.X < 0 {
			o = -o // a→b runs to −x: left is the other way
		}
		pieces, err := shape.Decompose(out)
		switch {
		case o <= 0:
			counts["touching or crossing"]++
			if !errors.Is(err, shape.ErrSelfIntersecting) {
				t.Fatalf("Decompose(%v) error = %v, want ErrSelfIntersecting (tip %d ulps off the edge, exact orientation %d)", out, err, k, o)
			}
		case err == nil:
			counts["simple, decomposed"]++
			dcCheck(t, r, out, pieces, 200)
		case errors.Is(err, shape.ErrCollinear):
			counts["simple, no cut at this precision"]++
		default:
			t.Fatalf("Decompose(%v) error = %v, want nil or ErrCollinear (tip %d ulps inside the edge)", out, err, k)
		}
	}
	t.Logf("%v", counts)
}
