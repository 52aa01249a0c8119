package narrowphase_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// exTranslate returns the core c moved by the exact vector x.
func exTranslate(c exCore, x exV) exCore {
	out := exCore{pts: make([]exV, len(c.pts)), r: c.r}
	for i, p := range c.pts {
		out.pts[i] = p.add(x)
	}
	return out
}

// exCastStats collects the largest disagreement of a random cast run that
// the tolerances still accepted, for the log.
type exCastStats struct {
	cases, hits, overlaps int
	worstFrac             float64
	worstDesc             string
}

// exCheckCast compares Cast(a, ta, delta, b, tb) with the exact oracle.
// tolRel scales the tolerances; 0 asks for exact agreement on the hit bool.
func exCheckCast(t *testing.T, st *exCastStats, a shape.Shape, ta shape.Transform, delta shape.Vec2, b shape.Shape, tb shape.Transform, tolRel float64) {
	t.Helper()
	desc := exDescribe(a, ta, b, tb) + fmt.Sprintf(", delta %v", delta)
	h, ok := narrowphase.Cast(a, ta, delta, b, tb)
	if st != nil {
		st.cases++
	}
	if m, in := narrowphase.Collide(a, ta, b, tb); in {
		if st != nil {
			st.overlaps++
		}
		if !ok || h.Fraction != 0 || h.Normal != m.Normal.Neg() || h.Point != m.Points[0].Point {
			t.Errorf("Cast = %+v, %v; overlapping at the start, want Fraction 0, Normal %v, Point %v: %s",
				h, ok, m.Normal.Neg(), m.Points[0].Point, desc)
		}
		return
	}
	ca, cb := exPlace(a, ta), exPlace(b, tb)
	o := exCast(ca, delta, cb)
	scale := exLocalScale(a, ta, b, tb) + delta.Len()
	tol := tolRel * scale
	wtol := tolRel * (scale + exWorldScale(a, ta, b, tb))
	if ok != o.hit {
		if math.Abs(o.gap) > tol || tolRel == 0 {
			t.Errorf("Cast = %+v, %v; want hit %v (exact fraction %.17g, closest gap %.3g): %s", h, ok, o.hit, o.frac, o.gap, desc)
		}
		return
	}
	if !ok {
		return
	}
	if st != nil {
		st.hits++
	}
	if !(h.Fraction >= 0 && h.Fraction <= 1) {
		t.Errorf("Cast.Fraction = %v, want in [0, 1]: %s", h.Fraction, desc)
		return
	}
	if df := math.Abs(h.Fraction - o.frac); df > 1e-9 {
		// A fraction is ill-conditioned where the motion grazes: accept it
		// if the pair is within the tolerance of touching there.
		if g := o.gapAt(h.Fraction); math.Abs(g) > tol || tolRel == 0 {
			t.Errorf("Cast.Fraction = %.17g, want %.17g (gap there %.3g, tol %.3g): %s", h.Fraction, o.frac, g, tol, desc)
		} else if st != nil && df > st.worstFrac {
			st.worstFrac, st.worstDesc = df, desc
		}
	}
	if math.Abs(h.Normal.Len()-1) > 1e-12 {
		t.Errorf("Cast.Normal = %v has length %.17g: %s", h.Normal, h.Normal.Len(), desc)
	}
	x := delta.Scale(h.Fraction)
	// N must be an outward normal of D = b − a at x: the plane through x
	// normal to N supports D.
	// Two segments that cross at the start share points with no plane
	// between them: any normal will do there.
	crossing := h.Fraction == 0 && exZeroArea(a, b) && exStrictlyInside(o.d)
	if s := exSupport(o.d, h.Normal) - x.Dot(h.Normal); math.Abs(s) > tol && !crossing {
		t.Errorf("Cast.Normal = %v does not support the touch (off by %.3g): %s", h.Normal, s, desc)
	}
	if h.Fraction > 0 && h.Normal.Dot(delta) > tol {
		t.Errorf("Cast.Normal = %v points along the motion: %s", h.Normal, desc)
	}
	moved := exTranslate(ca, exVF(delta).scale(exR(h.Fraction)))
	if sd := exSignedDist(moved, h.Point); math.Abs(sd) > wtol {
		t.Errorf("Cast.Point = %v is %.3g from the moved a: %s", h.Point, sd, desc)
	}
	if sd := exSignedDist(cb, h.Point); math.Abs(sd) > wtol {
		t.Errorf("Cast.Point = %v is %.3g from b: %s", h.Point, sd, desc)
	}
}

// exRandDelta returns a random motion: mostly aimed at b, sometimes zero,
// axis-aligned, or huge.
func exRandDelta(rng *rand.Rand, ta, tb shape.Transform) shape.Vec2 {
	aim := tb.Pos.Sub(ta.Pos)
	switch rng.IntN(8) {
	case 0:
		return shape.Vec2{}
	case 1:
		return shape.V(exDyad(rng, -8, 8), 0)
	case 2:
		return shape.V(0, exDyad(rng, -8, 8))
	case 3: // huge: a hundred times the size
		return aim.Scale(100 + float64(rng.IntN(100))).Add(exDyadV(rng, -50, 50))
	case 4:
		return exDyadV(rng, -8, 8)
	}
	return aim.Scale(1 + rng.Float64()).Add(exDyadV(rng, -2, 2))
}

// TestExactOracleCastRandom compares Cast on random dyadic pairs of every
// convex kind pair (both orders: the kinds run over all ordered pairs) with
// the exact oracle: bisection over float64 fractions on the exact
// predicate dist(segment [0, tδ], b − a) ≤ rA + rB.
func TestExactOracleCastRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	n := exCases(4)
	for _, ka := range exConvexKinds {
		for _, kb := range exConvexKinds {
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				var st exCastStats
				for range n {
					a, b := exRandShape(rng, ka), exRandShape(rng, kb)
					ta, tb := exRandPair(rng, 8)
					exCheckCast(t, &st, a, ta, exRandDelta(rng, ta, tb), b, tb, 1e-9)
					if t.Failed() {
						return
					}
				}
				t.Logf("%d cases, %d start overlapping, %d hits; worst accepted fraction error %.3g %s",
					st.cases, st.overlaps, st.hits, st.worstFrac, st.worstDesc)
			})
		}
	}
}

// exStrictlyInside reports whether the origin lies strictly inside the
// core polygon of d.
func exStrictlyInside(d exCore) bool {
	_, strict := exInside(d, exV{new(big.Rat), new(big.Rat)})
	return strict
}
