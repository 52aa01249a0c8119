package narrowphase_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestWorldAABBHoldsEveryContact checks that the boxes the World filters
// pairs by never lose a contact Collide reports: pairs of every kind pair,
// at coordinates from 1 to 1e12, are brought to touching by bisection on
// the distance between them, so the last hits found are thinner than one
// rounding step of the coordinates; every hit must come with overlapping
// WorldAABBs. Likewise every point ContainsPoint accepts, bisected onto the
// boundary, must lie in the shape's box.
func TestWorldAABBHoldsEveryContact(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0xb0c5))
	rounds := 60
	if testing.Short() {
		rounds = 12
	}
	thinnest := math.Inf(1)
	for _, far := range []float64{0, 75, 1e4, 1e7, 1e12} {
		for _, ka := range npKinds {
			for _, kb := range npKinds {
				for range rounds {
					a, b := npRandomShape(t, rng, ka), npRandomShape(t, rng, kb)
					origin := shape.V(far*(1+rng.Float64()), far*(1+rng.Float64()))
					ta := shape.NewTransform(origin, npRandomAngle(rng))
					ang := npRandomAngle(rng)
					dir := shape.V(math.Cos(2*math.Pi*rng.Float64()), math.Sin(2*math.Pi*rng.Float64()))
					at := func(s float64) shape.Transform { return shape.NewTransform(origin.Add(dir.Scale(s)), ang) }
					lo, hi := 0.0, 4*(a.BoundingRadius()+b.BoundingRadius())+1
					if _, ok := narrowphase.Collide(a, ta, b, at(lo)); !ok {
						continue // offset circles placed apart at s = 0: nothing to bisect
					}
					for range 200 {
						mid := lo + (hi-lo)/2
						if mid <= lo || mid >= hi || at(mid) == at(lo) {
							break
						}
						tb := at(mid)
						m, ok := narrowphase.Collide(a, ta, b, tb)
						if ok {
							lo = mid
							thinnest = math.Min(thinnest, m.Depth)
							if ba, bb := a.WorldAABB(ta), b.WorldAABB(tb); !ba.Overlaps(bb) {
								t.Fatalf("Collide(%v at %v, %v at %v) hits with depth %g but the boxes %v and %v do not overlap",
									a, ta, b, tb, m.Depth, ba, bb)
							}
						} else {
							hi = mid
						}
					}
					// A point bisected onto b's boundary from its origin.
					tb := at(lo)
					cw := tb.Pos
					if !narrowphase.ContainsPoint(b, tb, cw) {
						continue // an offset circle away from its origin
					}
					plo, phi := 0.0, 2*b.BoundingRadius()+1
					for range 200 {
						mid := plo + (phi-plo)/2
						if mid <= plo || mid >= phi {
							break
						}
						p := cw.Add(dir.Scale(mid))
						if narrowphase.ContainsPoint(b, tb, p) {
							plo = mid
							if box := b.WorldAABB(tb); !box.Contains(p) {
								t.Fatalf("ContainsPoint(%v at %v, %v) but its box %v does not contain the point", b, tb, p, box)
							}
						} else {
							phi = mid
						}
					}
				}
			}
		}
	}
	t.Logf("thinnest contact checked: depth %g", thinnest)
}

// TestOffsetCircleBoxHoldsThinContact is the case that found the bug: an
// offset circle's box, the rounded world centre ± r, missed a contact of
// depth 3.7e-10 at coordinates near 1e7.
func TestOffsetCircleBoxHoldsThinContact(t *testing.T) {
	box := npAABB(t, 0.11598435877788783, 0.048371141955975167)
	ball := npOffsetCircle(t, shape.V(0.009204305011436431, 0.00880622403054792), 0.032257792529663175)
	tb := shape.NewTransform(shape.V(9999911.5892139357, 10000087.236405281), -1.5218363040352441)
	tc := shape.NewTransform(shape.V(9999911.4344155695, 10000087.236405281), -1.793463269820444)
	m, ok := narrowphase.Collide(box, tb, ball, tc)
	if !ok {
		t.Fatal("Collide misses the contact: the test would prove nothing")
	}
	if bb, bc := box.WorldAABB(tb), ball.WorldAABB(tc); !bb.Overlaps(bc) {
		t.Errorf("contact of depth %g, boxes %v and %v do not overlap", m.Depth, bb, bc)
	}
}
