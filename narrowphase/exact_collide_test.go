package narrowphase_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// exDyad returns a random multiple of 1/16 in [lo, hi].
func exDyad(rng *rand.Rand, lo, hi float64) float64 {
	return math.Round((lo+rng.Float64()*(hi-lo))*16) / 16
}

func exDyadV(rng *rand.Rand, lo, hi float64) shape.Vec2 {
	return shape.V(exDyad(rng, lo, hi), exDyad(rng, lo, hi))
}

// exConvexKinds are the kinds exRandShape draws from.
var exConvexKinds = []shape.Kind{shape.KindCircle, shape.KindAABB, shape.KindOBB,
	shape.KindPolygon, shape.KindCapsule, shape.KindSegment}

// exRandShape returns a random valid shape of kind k with dyadic numbers.
func exRandShape(rng *rand.Rand, k shape.Kind) shape.Shape {
	for {
		var s shape.Shape
		var err error
		switch k {
		case shape.KindCircle:
			c := shape.Vec2{}
			if rng.IntN(3) == 0 {
				c = exDyadV(rng, -1, 1)
			}
			s, err = shape.NewOffsetCircle(c, exDyad(rng, 1.0/16, 3))
		case shape.KindAABB:
			s, err = shape.NewAABB(exDyad(rng, 1.0/16, 3), exDyad(rng, 1.0/16, 3))
		case shape.KindOBB:
			s, err = shape.NewOBB(exDyad(rng, 1.0/16, 3), exDyad(rng, 1.0/16, 3))
		case shape.KindPolygon:
			pts := make([]shape.Vec2, 3+rng.IntN(6))
			for i := range pts {
				pts[i] = exDyadV(rng, -3, 3)
			}
			s, err = shape.ConvexHull(pts)
		case shape.KindCapsule:
			s, err = shape.NewCapsule(exDyadV(rng, -3, 3), exDyadV(rng, -3, 3), exDyad(rng, 1.0/16, 2))
		case shape.KindSegment:
			s, err = shape.NewSegment(exDyadV(rng, -3, 3), exDyadV(rng, -3, 3))
		default:
			panic("exRandShape: " + k.String())
		}
		if err == nil {
			return s
		}
	}
}

// exRandRot returns the identity, a quarter turn or a random rotation.
func exRandRot(rng *rand.Rand) shape.Rot {
	switch rng.IntN(6) {
	case 0, 1:
		return shape.Rot{}
	case 2:
		q := [][2]float64{{0, 1}, {-1, 0}, {0, -1}}[rng.IntN(3)]
		return shape.RotFromCosSin(q[0], q[1])
	}
	return shape.NewRot(rng.Float64() * 2 * math.Pi)
}

// exBases are the world offsets the random pairs are placed around.
var exBases = []float64{0, 0, 0, 0, 1e3, 1e6, 1e7, 1e12}

// exRandPair returns transforms for two shapes near each other around a
// random base.
func exRandPair(rng *rand.Rand, spread float64) (shape.Transform, shape.Transform) {
	base := exBases[rng.IntN(len(exBases))]
	bv := shape.V(base, -base)
	ta := shape.Transform{Pos: bv.Add(exDyadV(rng, -2, 2)), Rot: exRandRot(rng)}
	tb := shape.Transform{Pos: ta.Pos.Add(exDyadV(rng, -spread, spread)), Rot: exRandRot(rng)}
	return ta, tb
}

// exLocalScale is the size the depth and normal tolerances scale with: the
// shapes' bounding radii and the distance between their positions, at
// least 1. The narrow phase works in a local frame, so its error follows
// this and not the distance from the world origin.
func exLocalScale(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) float64 {
	return math.Max(1, a.BoundingRadius()+b.BoundingRadius()+tb.Pos.Sub(ta.Pos).Len())
}

// exWorldScale is exLocalScale plus the largest position coordinate: the
// tolerance for world points.
func exWorldScale(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) float64 {
	m := math.Max(math.Max(math.Abs(ta.Pos.X), math.Abs(ta.Pos.Y)), math.Max(math.Abs(tb.Pos.X), math.Abs(tb.Pos.Y)))
	return exLocalScale(a, ta, b, tb) + m
}

func exDescribe(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) string {
	return fmt.Sprintf("a=%v at %v (cos %v, sin %v), b=%v at %v (cos %v, sin %v)",
		a, ta.Pos, ta.Rot.Cos(), ta.Rot.Sin(), b, tb.Pos, tb.Rot.Cos(), tb.Rot.Sin())
}

// exZeroArea reports whether a pair never collides by the convention:
// two segments (walls do not collide with walls).
func exZeroArea(a, b shape.Shape) bool {
	return a.Kind() == shape.KindSegment && b.Kind() == shape.KindSegment
}

// exCheckCollide compares Collide, Overlap and the mirrored Collide of a
// convex pair with the exact oracle. tolRel scales the tolerances (0 for
// exact expectations on the contact bool: then a near-tie is not skipped).
// It returns whether the oracle says they overlap.
func exCheckCollide(t *testing.T, a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, tolRel float64) bool {
	t.Helper()
	desc := exDescribe(a, ta, b, tb)
	m, ok := narrowphase.Collide(a, ta, b, tb)
	if ov := narrowphase.Overlap(a, ta, b, tb); ov != ok {
		t.Errorf("Overlap = %v, Collide = %v: %s", ov, ok, desc)
	}
	mb, okb := narrowphase.Collide(b, tb, a, ta)
	if okb != ok {
		t.Errorf("Collide(b, a) = %v, Collide(a, b) = %v: %s", okb, ok, desc)
	} else if ok && (mb.Normal != m.Normal.Neg() || mb.Depth != m.Depth || mb.Count != m.Count || mb.Points != m.Points) {
		t.Errorf("Collide(b, a) = %+v is not the exact flip of %+v: %s", mb, m, desc)
	}
	ca, cb := exPlace(a, ta), exPlace(b, tb)
	d := exMinkowski(ca, cb)
	in, pen := exPen(d)
	if exZeroArea(a, b) {
		in = false
	}
	tol := tolRel * exLocalScale(a, ta, b, tb)
	wtol := tolRel * exWorldScale(a, ta, b, tb)
	if ok != in {
		if math.Abs(pen) > tol || tolRel == 0 {
			t.Errorf("Collide = %v, want %v (exact depth %.17g): %s", ok, in, pen, desc)
		}
		return in
	}
	if !ok {
		return in
	}
	if math.Abs(m.Depth-pen) > tol {
		t.Errorf("Collide.Depth = %.17g, want %.17g (diff %.3g, tol %.3g): %s", m.Depth, pen, m.Depth-pen, tol, desc)
	}
	if math.Abs(m.Normal.Len()-1) > 1e-12 {
		t.Errorf("Collide.Normal = %v has length %.17g: %s", m.Normal, m.Normal.Len(), desc)
	}
	// h_D(−N) is the separation B needs along N; the normal is a minimum
	// translation direction iff it equals the depth.
	if h := exSupport(d, m.Normal.Neg()); math.Abs(h-pen) > tol {
		t.Errorf("Collide.Normal = %v needs %.17g to separate, the depth is %.17g: %s", m.Normal, h, pen, desc)
	}
	if m.Count < 1 || m.Count > 2 {
		t.Errorf("Collide.Count = %d: %s", m.Count, desc)
	}
	for i := range min(max(m.Count, 0), 2) {
		p := m.Points[i]
		if !(p.Depth > 0) || p.Depth > m.Depth+tol {
			t.Errorf("Collide.Points[%d].Depth = %.17g, want in (0, %.17g]: %s", i, p.Depth, m.Depth, desc)
		}
		// Midway between the surfaces: within half its depth of both
		// shapes (inside both for shapes with area).
		for _, side := range []struct {
			name string
			c    exCore
		}{{"a", ca}, {"b", cb}} {
			sd := exSignedDist(side.c, p.Point)
			if sd > p.Depth/2+wtol {
				t.Errorf("Collide.Points[%d] = %v lies %.17g outside %s (point depth %.17g): %s", i, p.Point, sd, side.name, p.Depth, desc)
			}
		}
	}
	return in
}

// exScaleFlag multiplies the number of random cases of the exact oracle
// tests, for longer hunts: go test ./narrowphase -run ExactOracle -exactscale 50.
var exScaleFlag = flag.Int("exactscale", 1, "multiplier for the number of random cases of the exact oracle tests")

// exCases returns n scaled by -exactscale, cut to a fortieth under -short
// (the quick gate) and to an eighth under the race detector, which makes
// these single-goroutine oracles several times slower (.ci/run runs them
// at full size without it).
func exCases(n int) int {
	switch {
	case testing.Short():
		n = max(1, n/40)
	case raceEnabled:
		n = max(1, n/8)
	}
	return n * max(1, *exScaleFlag)
}

// TestExactOracleCollideRandom compares Collide on random dyadic pairs of
// every convex kind pair, in both orders, with the exact oracle.
func TestExactOracleCollideRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	n := exCases(60)
	for i, ka := range exConvexKinds {
		for _, kb := range exConvexKinds[i:] {
			t.Run(ka.String()+"-"+kb.String(), func(t *testing.T) {
				hits := 0
				for range n {
					a, b := exRandShape(rng, ka), exRandShape(rng, kb)
					ta, tb := exRandPair(rng, 5)
					if exCheckCollide(t, a, ta, b, tb, 1e-9) {
						hits++
					}
					if t.Failed() {
						return
					}
				}
				t.Logf("%d of %d overlap", hits, n)
			})
		}
	}
}
