package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks compounds and concave polygons part by part against
// the exact oracle, with each part placed by its own offset and then by
// the body's transform, both applied exactly in rationals (not through
// Transform.Mul): every part pair that CollideParts reports overlaps
// exactly and every one that overlaps is reported, with the exact depth
// and a normal along which that depth separates the pair; Collide of the
// whole pair is the deepest part pair's contact.

// exApply applies the float transform t (its cos and sin as held) to the
// exact point p, exactly.
func exApply(t shape.Transform, p exV) exV {
	c, s := exR(t.Rot.Cos()), exR(t.Rot.Sin())
	return exV{
		exAdd(exR(t.Pos.X), exSub(exMul(c, p.x), exMul(s, p.y))),
		exAdd(exR(t.Pos.Y), exAdd(exMul(s, p.x), exMul(c, p.y))),
	}
}

// exPlacePart places part k of a compound s by body transform t, applying
// the part's offset and then t, exactly.
func exPlacePart(s shape.Shape, k int, t shape.Transform) exCore {
	p := s.Parts()[k]
	local := exPlace(p.Shape, shape.Identity)
	out := exCore{pts: make([]exV, len(local.pts)), r: local.r}
	for i, q := range local.pts {
		out.pts[i] = exApply(t, exApply(p.Offset, q))
	}
	out.pts = exHull(out.pts)
	return out
}

// exRandCompound returns a compound of 1 to 5 parts of random kinds with
// random offsets, or a concave polygon.
func exRandCompound(rng *rand.Rand) shape.Shape {
	if rng.IntN(3) == 0 {
		// A concave outline: a random star.
		n := 5 + rng.IntN(12)
		pts := make([]shape.Vec2, n)
		for i := range pts {
			a := 2 * math.Pi * (float64(i) + 0.5*rng.Float64()) / float64(n)
			r := exDyad(rng, 0.5, 3)
			pts[i] = shape.V(math.Round(r*math.Cos(a)*16)/16, math.Round(r*math.Sin(a)*16)/16)
		}
		if s, err := shape.NewConcavePolygon(pts); err == nil {
			return s
		}
	}
	parts := make([]shape.Part, 1+rng.IntN(5))
	for i := range parts {
		k := exConvexKinds[rng.IntN(len(exConvexKinds))]
		if k == shape.KindAABB {
			k = shape.KindOBB
		}
		parts[i] = shape.Part{Shape: exRandShape(rng, k), Offset: shape.Transform{Pos: exDyadV(rng, -3, 3), Rot: exRandRot(rng)}}
	}
	s, err := shape.NewCompound(parts)
	if err != nil {
		panic(err)
	}
	return s
}

// TestExactOracleCompoundParts compares CollideParts and Collide of
// compounds and concave polygons, against every kind including chains and
// other compounds, with the exact oracle part by part.
func TestExactOracleCompoundParts(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 31))
	n := exCases(70)
	pairs, hits := 0, 0
	for c := range n {
		a := exRandCompound(rng)
		var b shape.Shape
		switch rng.IntN(3) {
		case 0:
			b = exRandCompound(rng)
		default:
			b = exRandAnyShape(rng)
		}
		ta, tb := exRandPair(rng, 5)
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := a, ta, b, tb
			if swap {
				x, tx, y, ty = b, tb, a, ta
			}
			desc := fmt.Sprintf("case %d: %s", c, exDescribe(x, tx, y, ty))
			got := map[[2]int]narrowphase.Manifold{}
			narrowphase.CollideParts(x, tx, y, ty, func(pa, pb int, m narrowphase.Manifold) bool {
				if _, dup := got[[2]int{pa, pb}]; dup {
					t.Fatalf("part pair (%d, %d) reported twice: %s", pa, pb, desc)
				}
				got[[2]int{pa, pb}] = m
				return true
			})
			px, py := exParts(x, tx), exParts(y, ty)
			// The parts are placed near the pair, so the tolerance
			// follows the local scale, not the world coordinates.
			tol := 1e-9 * exLocalScale(x, tx, y, ty)
			deepest, any := 0.0, false
			for i, cx := range px {
				for j, cy := range py {
					walls := len(cx.pts) <= 2 && len(cy.pts) <= 2 && cx.r.Sign() == 0 && cy.r.Sign() == 0
					d := exMinkowski(cx, cy)
					in, pen := exPen(d)
					if walls {
						in = false
					}
					m, ok := got[[2]int{i, j}]
					if ok != in {
						if math.Abs(pen) > tol {
							t.Fatalf("part pair (%d, %d): reported %v, exact overlap %v (depth %.17g): %s", i, j, ok, in, pen, desc)
						}
						continue
					}
					if !ok {
						continue
					}
					pairs++
					chain := x.Kind() == shape.KindChain || y.Kind() == shape.KindChain
					if chain {
						// A chain segment's ghost is replaced by a deeper
						// normal of its cone: checked in exact_chain_test.go.
						if m.Depth < pen-tol {
							t.Fatalf("part pair (%d, %d): depth %.17g below the exact %.17g: %s", i, j, m.Depth, pen, desc)
						}
					} else {
						if math.Abs(m.Depth-pen) > tol {
							t.Fatalf("part pair (%d, %d): depth %.17g, exact %.17g (diff %.3g): %s", i, j, m.Depth, pen, m.Depth-pen, desc)
						}
						if h := exSupport(d, m.Normal.Neg()); math.Abs(h-pen) > tol {
							t.Fatalf("part pair (%d, %d): normal %v needs %.17g to separate, the depth is %.17g: %s", i, j, m.Normal, h, pen, desc)
						}
					}
					if m.Depth > deepest || !any {
						deepest, any = m.Depth, true
					}
				}
			}
			if any {
				hits++
			}
			m, ok := narrowphase.Collide(x, tx, y, ty)
			if ok != any && len(got) > 0 {
				t.Fatalf("Collide = %v, CollideParts reported %d pairs: %s", ok, len(got), desc)
			}
			if ok && any && m.Depth != deepest {
				t.Fatalf("Collide.Depth = %.17g, the deepest part pair %.17g: %s", m.Depth, deepest, desc)
			}
			if ov := narrowphase.Overlap(x, tx, y, ty); ov != (len(got) > 0) {
				t.Fatalf("Overlap = %v, CollideParts reported %d pairs: %s", ov, len(got), desc)
			}
		}
	}
	t.Logf("%d cases, %d part pairs in contact, %d in contact", n, pairs, hits)
}
