package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestExactOracleCoreAcrossFace checks manifolds where a capsule's or a
// segment's core lies along a face normal of the other shape, exactly or
// tilted by rounding-size angles (1e-16 to 1e-12), crossing the face or
// deep inside, shapes of size 1 and 1e3 at 0, 1e6 and 1e9: the placements where a clip of the core
// against the face meets two ends at one place along it, which far from
// the origin rounding may slant either way (TestCollideSegmentAcrossFaceFarBug).
// Depth and normal are checked against the exact Minkowski difference,
// each point against the exact envelopes along the normal, and parallel
// faces for their two points, as TestExactOracleContactPointEnvelopes
// does, in both orders.
func TestExactOracleCoreAcrossFace(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1212))
	n := exCases(400)
	for _, ka := range exConvexKinds {
		for _, kb := range []shape.Kind{shape.KindCapsule, shape.KindSegment} {
			if ka == shape.KindSegment && kb == shape.KindSegment {
				continue
			}
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				hits, multi := 0, 0
				for c := range n {
					a := h10Shape(rng, ka, []float64{1, 1e3}[rng.IntN(2)])
					b, ta, tb := acrossPlace(rng, a, kb)
					for swap := range 2 {
						s1, t1, s2, t2 := a, ta, b, tb
						if swap == 1 {
							s1, t1, s2, t2 = b, tb, a, ta
						}
						m, ok := h10CheckCollide(t, s1, t1, s2, t2, fmt.Sprintf("case %d swap %d", c, swap))
						if !ok {
							continue
						}
						hits++
						if m.Count == 2 {
							multi++
						}
						if t.Failed() {
							return
						}
					}
				}
				t.Logf("%d contacts of %d orderings, %d with two points", hits, 2*n, multi)
				// A floor on the contacts found, where the cases are many
				// enough for it (under -short, ten cases of a pair can miss
				// more often than not by chance).
				if n >= 100 && hits < n/2 {
					t.Errorf("only %d contacts of %d orderings: the placements miss", hits, 2*n)
				}
			})
		}
	}
}

// acrossPlace returns a capsule or segment b of kind kb and transforms that
// lay b's core along a face normal of a (one of a box's or polygon's
// normals, a capsule's or segment's side normal, any direction for a
// circle), tilted by nothing or a rounding-size angle, from outside a to
// a random place on a's surface, its inner end a little inside it (or its
// middle within its length of that place either way, or a short core
// wholly inside), around a base of 0, 1e6 or 1e9.
func acrossPlace(rng *rand.Rand, a shape.Shape, kb shape.Kind) (b shape.Shape, ta, tb shape.Transform) {
	base := []float64{0, 1e6, 1e9, -1e6}[rng.IntN(4)]
	ta = shape.Transform{Pos: shape.V(base+rng.Float64(), -base/3+rng.Float64()), Rot: h10Rot(rng)}
	// A face normal of a and a point on that face, in a's frame.
	var nl, on shape.Vec2
	switch a.Kind() {
	case shape.KindCircle:
		ang := rng.Float64() * 2 * math.Pi
		nl = shape.V(math.Cos(ang), math.Sin(ang))
		on = a.Center().Add(nl.Scale(a.Radius()))
	case shape.KindAABB, shape.KindOBB:
		h := a.HalfExtents()
		f := rng.Float64()*2 - 1
		switch rng.IntN(4) {
		case 0:
			nl, on = shape.V(1, 0), shape.V(h.X, f*h.Y)
		case 1:
			nl, on = shape.V(-1, 0), shape.V(-h.X, f*h.Y)
		case 2:
			nl, on = shape.V(0, 1), shape.V(f*h.X, h.Y)
		default:
			nl, on = shape.V(0, -1), shape.V(f*h.X, -h.Y)
		}
		if a.Kind() == shape.KindAABB {
			ta.Rot = shape.Rot{} // an AABB does not turn
		}
	case shape.KindPolygon:
		vs, ns := a.Vertices(), a.Normals()
		i := rng.IntN(len(vs))
		f := rng.Float64()
		nl, on = ns[i], vs[i].Add(vs[(i+1)%len(vs)].Sub(vs[i]).Scale(f))
	default: // capsule, segment
		p0, p1, sn := a.SegmentFrame()
		if rng.IntN(2) == 0 {
			sn = sn.Neg()
		}
		nl, on = sn, p0.Add(p1.Sub(p0).Scale(rng.Float64())).Add(sn.Scale(a.Radius()))
	}
	l := a.BoundingRadius() * (0.05 + rng.Float64())
	inside := rng.IntN(3) == 0 // all of the core past the face, as walls deep in a box
	if inside {
		l = a.BoundingRadius() * (0.01 + 0.1*rng.Float64())
	}
	tilt := []float64{0, 0, 0x1p-52, -0x1p-52, 1e-16, -3e-16, 1e-14, 1e-12}[rng.IntN(8)]
	end := shape.V(l, tilt*l) // the core along its local x axis, tilted
	var err error
	if kb == shape.KindSegment {
		b, err = shape.NewSegment(end.Neg(), end)
	} else {
		b, err = shape.NewCapsule(end.Neg(), end, l*[]float64{0.01, 0.1, 0.5}[rng.IntN(3)])
	}
	if err != nil {
		panic(err)
	}
	nw := ta.Rot.Apply(nl)
	// The inner end a little inside the face (up to a fifth of a's size,
	// so that pushing b back out along the normal is the shortest way),
	// or the core's middle anywhere within its length of the face.
	mid := ta.Apply(on).Add(nw.Scale(l - 0.2*a.BoundingRadius()*rng.Float64()))
	switch {
	case inside:
		mid = ta.Apply(on).Sub(nw.Scale(l + 0.2*a.BoundingRadius()*rng.Float64()))
	case rng.IntN(3) == 0:
		mid = ta.Apply(on).Add(nw.Scale(l * (2*rng.Float64() - 1)))
	}
	tb = shape.Transform{Pos: mid, Rot: shape.RotFromCosSin(nw.X, nw.Y)}
	return b, ta, tb
}
