package narrowphase_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestExactOracleCastSegmentHull compares Cast between a segment and a box
// or polygon, in both orders, with the exact oracle (exCheckCast: the
// first touch by bisection on the exact distance between the moved
// segment and the Minkowski difference, the normal's support, the point
// on both shapes). The segment–hull pairs have their own path (a clip
// against both shapes' edge lines in the hull's frame), so they get cases
// of their own beside the random ones of TestExactOracleCastRandom:
//   - random dyadic pairs and motions, at the origin and far from it;
//   - motions that graze: a segment end sliding along a face of an
//     unturned box or along its line past a corner, and a hull corner
//     sliding along the segment's line;
//   - a segment parallel to a face, meeting it face to face;
//   - starts a few ulps from the first touch, cast every way.
func TestExactOracleCastSegmentHull(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 3141))
	n := exCases(100)
	hulls := []shape.Kind{shape.KindAABB, shape.KindOBB, shape.KindPolygon}
	for _, kh := range hulls {
		for _, segFirst := range []bool{true, false} {
			name := "segment-" + kh.String()
			if !segFirst {
				name = kh.String() + "-segment"
			}
			t.Run(name, func(t *testing.T) {
				var st exCastStats
				check := func(seg shape.Shape, ts shape.Transform, d shape.Vec2, h shape.Shape, th shape.Transform) {
					t.Helper()
					if segFirst {
						exCheckCast(t, &st, seg, ts, d, h, th, 1e-9)
					} else {
						exCheckCast(t, &st, h, th, d.Neg(), seg, ts, 1e-9)
					}
				}
				for range n {
					seg, h := exRandShape(rng, shape.KindSegment), exRandShape(rng, kh)
					// Random pairs and motions.
					ts, th := exRandPair(rng, 8)
					check(seg, ts, exRandDelta(rng, ts, th), h, th)

					// Grazes against an unturned box: a segment end on the
					// line of the box's top face (y = hy) slides along it,
					// starting beside the box; or slides along x = hx.
					if kh != shape.KindPolygon {
						he := h.HalfExtents()
						base := exBases[rng.IntN(len(exBases))]
						thb := shape.Transform{Pos: shape.V(base, -base)}
						p0, p1 := exDyadV(rng, -3, 3), exDyadV(rng, -3, 3)
						if p0 == p1 {
							p1 = p0.Add(shape.V(1, 0.5))
						}
						g, err := shape.NewSegment(p0, p1)
						if err != nil {
							t.Fatal(err)
						}
						low := p0 // the end lower in y, then the other
						if p1.Y < p0.Y {
							low = p1
						}
						// Put low on y = hy, left of the box by 1 to 4.
						off := shape.V(-he.X-1-float64(rng.IntN(4))-low.X, he.Y-low.Y)
						tsb := shape.Transform{Pos: thb.Pos.Add(off)}
						check(g, tsb, shape.V(exDyad(rng, 0, 12), 0), h, thb)
						// The same end along the corner's line from below,
						// past the corner (x = hx - 0 exactly at the corner).
						left := p0
						if p1.X < p0.X {
							left = p1
						}
						off = shape.V(he.X-left.X, -he.Y-1-float64(rng.IntN(4))-left.Y)
						tsb = shape.Transform{Pos: thb.Pos.Add(off)}
						check(g, tsb, shape.V(0, exDyad(rng, 0, 12)), h, thb)
						// Face to face: a horizontal segment above the top
						// face, moving down onto it, overlapping it in x or
						// not.
						w := exDyad(rng, 1.0/16, 3)
						flat, err := shape.NewSegment(shape.V(-w, 0), shape.V(w, 0))
						if err != nil {
							t.Fatal(err)
						}
						tf := shape.Transform{Pos: thb.Pos.Add(shape.V(exDyad(rng, -4, 4), he.Y+exDyad(rng, 1.0/16, 2)))}
						check(flat, tf, shape.V(exDyad(rng, -2, 2), -exDyad(rng, 1.0/16, 5)), h, thb)
					}

					// A hull corner sliding along the segment's line: the
					// hull's lowest vertex (in its own frame, unturned) on
					// the x axis, the segment along it.
					v := h.Vertices()
					if kh != shape.KindPolygon {
						he := h.HalfExtents()
						v = []shape.Vec2{shape.V(-he.X, -he.Y)}
					}
					lowest := v[0]
					for _, q := range v {
						if q.Y < lowest.Y {
							lowest = q
						}
					}
					base := exBases[rng.IntN(len(exBases))]
					thc := shape.Transform{Pos: shape.V(base, -base).Sub(lowest)}
					w := exDyad(rng, 1.0/16, 3)
					line, err := shape.NewSegment(shape.V(0, 0), shape.V(w, 0))
					if err != nil {
						t.Fatal(err)
					}
					tl := shape.Transform{Pos: shape.V(base+exDyad(rng, 1, 5), -base)}
					check(line, tl, shape.V(-exDyad(rng, 0, 12), 0), h, thc)

					// Starts a few ulps from the first touch.
					ts, th = exRandPair(rng, 8)
					d0 := th.Pos.Sub(ts.Pos).Scale(2)
					var frac float64
					var hit bool
					if segFirst {
						frac, hit = exFirstTouch(seg, ts, d0, h, th)
					} else {
						frac, hit = exFirstTouch(h, th, d0.Neg(), seg, ts)
					}
					if hit && frac > 0 {
						ts.Pos = ts.Pos.Add(d0.Scale(frac))
						ts.Pos.X = ulpStep(ts.Pos.X, rng.IntN(7)-3)
						ts.Pos.Y = ulpStep(ts.Pos.Y, rng.IntN(7)-3)
						check(seg, ts, exDyadV(rng, -4, 4), h, th)
						check(seg, ts, d0.Scale(rng.Float64()), h, th)
					}
					if t.Failed() {
						return
					}
				}
				if st.hits < st.cases/10 {
					t.Fatalf("%d hits in %d cases: the cases test too little", st.hits, st.cases)
				}
				t.Logf("%d cases, %d start overlapping, %d hits; worst accepted fraction error %.3g %s",
					st.cases, st.overlaps, st.hits, st.worstFrac, st.worstDesc)
			})
		}
	}
}

// TestCastSegmentSlidesIntoCorner slides a segment along the line of a
// box's bottom face until its end meets the box's corner (the segment on
// y = 0, the box resting on it to the left, both orders, turned by
// quarter turns and far from the origin): the faces of both lie on one
// line, so the Minkowski difference's edge is both shapes' edges, and the
// point is where their spans meet, which rounding could leave an ulp
// apart. The point must be the corner (it was put at the middle of the
// box's face: 0.31 away for a 0.625-wide box), the fraction exact.
func TestCastSegmentSlidesIntoCorner(t *testing.T) {
	quarter := []shape.Rot{{}, shape.RotFromCosSin(0, 1), shape.RotFromCosSin(-1, 0), shape.RotFromCosSin(0, -1)}
	for _, base := range []float64{0, 1e3, 1e6, 1e12} {
		for _, hw := range []float64{0.3125, 1, 2.75} {
			for _, rot := range quarter {
				box, err := shape.NewOBB(hw, 0.75)
				if err != nil {
					t.Fatal(err)
				}
				seg, err := shape.NewSegment(shape.V(0, 0), shape.V(2.5, 0))
				if err != nil {
					t.Fatal(err)
				}
				o := shape.V(base, -base)
				// In the unturned frame: the box over [0, 2hw] × [0, 1.5],
				// the segment from x = 2hw + 1.6875, moving left by 6.125.
				tb := shape.Transform{Pos: o.Add(rot.Apply(shape.V(hw, 0.75))), Rot: rot}
				ts := shape.Transform{Pos: o.Add(rot.Apply(shape.V(2*hw+1.6875, 0))), Rot: rot}
				d := rot.Apply(shape.V(-6.125, 0))
				exCheckCast(t, nil, seg, ts, d, box, tb, 1e-12)
				exCheckCast(t, nil, box, tb, d.Neg(), seg, ts, 1e-12)
			}
		}
	}
}
