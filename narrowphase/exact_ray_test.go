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

// exRandAnyShape returns a random shape of any kind, compounds and chains
// included.
func exRandAnyShape(rng *rand.Rand) shape.Shape {
	switch rng.IntN(8) {
	case 6: // compound of two or three parts with offsets and rotations
		parts := make([]shape.Part, 2+rng.IntN(2))
		for i := range parts {
			k := exConvexKinds[rng.IntN(len(exConvexKinds))]
			if k == shape.KindAABB {
				k = shape.KindOBB
			}
			parts[i] = shape.Part{Shape: exRandShape(rng, k), Offset: shape.Transform{Pos: exDyadV(rng, -2, 2), Rot: exRandRot(rng)}}
		}
		s, err := shape.NewCompound(parts)
		if err != nil {
			panic(err)
		}
		return s
	case 7: // chain: a random walk, sometimes collinear, sometimes closed
		pts := []shape.Vec2{exDyadV(rng, -3, 3)}
		dir := exDyadV(rng, -2, 2)
		for range 2 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				dir = exDyadV(rng, -2, 2)
			}
			pts = append(pts, pts[len(pts)-1].Add(dir))
		}
		s, err := shape.NewChain(pts, rng.IntN(4) == 0)
		if err != nil {
			return exRandShape(rng, shape.KindSegment)
		}
		return s
	}
	return exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
}

// exRayGap returns the signed gap between the whole ray segment and the
// nearest part: how far it misses (negative: how deep it goes).
func exRayGap(cores []exCore, origin, dir shape.Vec2, maxDist float64) float64 {
	o := exVF(origin)
	e := o.add(exVF(dir).scale(exR(maxDist)))
	best := math.Inf(1)
	for _, c := range cores {
		rf, _ := c.r.Float64()
		best = math.Min(best, exSqrt(exSegDist2(c, o, e))-rf)
	}
	return best
}

// exCheckRay compares RayCast with the exact oracle.
func exCheckRay(t *testing.T, s shape.Shape, ts shape.Transform, origin, dir shape.Vec2, maxDist float64, tolRel float64) bool {
	t.Helper()
	desc := fmt.Sprintf("s=%v at %v (cos %v, sin %v), origin %v, dir %v, max %v", s, ts.Pos, ts.Rot.Cos(), ts.Rot.Sin(), origin, dir, maxDist)
	h, ok := narrowphase.RayCast(s, ts, origin, dir, maxDist)
	cores := exParts(s, ts)
	od := maxDist
	if math.IsInf(od, 1) {
		od = 1e4
	}
	want, part, hit := exRay(cores, origin, dir, od)
	scale := math.Max(1, s.BoundingRadius()+origin.Sub(ts.Pos).Len()+math.Min(od, 100))
	tol := tolRel * scale
	wtol := tol + tolRel*math.Max(math.Abs(ts.Pos.X), math.Abs(ts.Pos.Y))
	if ok != hit {
		if g := exRayGap(cores, origin, dir, od); math.Abs(g) > tol || tolRel == 0 {
			t.Errorf("RayCast = %+v, %v; want hit %v at %.17g (closest gap %.3g): %s", h, ok, hit, want, g, desc)
		}
		return hit
	}
	if !ok {
		return hit
	}
	if h.Distance != 0 || want != 0 {
		// Ill-conditioned where the ray grazes: accept a distance at which
		// the ray point is within the tolerance of the surface.
		if math.Abs(h.Distance-want) > tol {
			p := origin.Add(dir.Scale(h.Distance))
			if sd := exSignedDist(cores[part], p); math.Abs(sd) > tol || tolRel == 0 {
				t.Errorf("RayCast.Distance = %.17g, want %.17g (point %.3g from the surface): %s", h.Distance, want, sd, desc)
			}
		}
	}
	if h.Distance == 0 && want == 0 {
		if h.Point != origin || h.Normal != dir.Neg() {
			t.Errorf("RayCast = %+v from inside, want Point %v, Normal %v: %s", h, origin, dir.Neg(), desc)
		}
		return hit
	}
	if got := origin.Add(dir.Scale(h.Distance)); got.Sub(h.Point).Len() > wtol {
		t.Errorf("RayCast.Point = %v, but origin + Distance·dir = %v: %s", h.Point, got, desc)
	}
	if h.Part < 0 || h.Part >= len(cores) {
		t.Errorf("RayCast.Part = %d of %d parts: %s", h.Part, len(cores), desc)
		return hit
	}
	c := cores[h.Part]
	if sd := exSignedDist(c, h.Point); math.Abs(sd) > wtol {
		t.Errorf("RayCast.Point = %v is %.3g from part %d's surface: %s", h.Point, sd, h.Part, desc)
	}
	if math.Abs(h.Normal.Len()-1) > 1e-12 {
		t.Errorf("RayCast.Normal = %v has length %.17g: %s", h.Normal, h.Normal.Len(), desc)
	}
	// An outward normal of the part at the point: its plane supports it
	// (a segment has two sides; the ray must come from the normal's side).
	sup := exSupport(c, h.Normal) - exDotF(h.Point, h.Normal)
	if math.Abs(sup) > wtol {
		t.Errorf("RayCast.Normal = %v is not an outward normal of part %d at the point (off by %.3g): %s", h.Normal, h.Part, sup, desc)
	}
	if h.Normal.Dot(dir) > tol {
		t.Errorf("RayCast.Normal = %v faces along the ray: %s", h.Normal, desc)
	}
	return hit
}

// exDotF returns p·n exactly, rounded once.
func exDotF(p, n shape.Vec2) float64 {
	v, _ := exVF(p).dot(exVF(n)).Float64()
	return v
}

// exRandRay returns an origin and unit direction aimed near s's position.
func exRandRay(rng *rand.Rand, ts shape.Transform) (shape.Vec2, shape.Vec2, float64) {
	origin := ts.Pos.Add(exDyadV(rng, -8, 8))
	var dir shape.Vec2
	switch rng.IntN(4) {
	case 0: // an axis
		dir = [4]shape.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[rng.IntN(4)]
	case 1: // a random direction
		a := rng.Float64() * 2 * math.Pi
		dir = shape.V(math.Cos(a), math.Sin(a))
	default: // at the shape, give or take
		dir = ts.Pos.Add(exDyadV(rng, -2, 2)).Sub(origin).Normalize()
		if dir == (shape.Vec2{}) {
			dir = shape.V(1, 0)
		}
	}
	maxDist := [4]float64{math.Inf(1), 20, exDyad(rng, 0, 12), 0}[rng.IntN(4)]
	return origin, dir, maxDist
}

// TestExactOracleRayCastRandom compares RayCast on random shapes of every
// kind (compounds and chains part by part) with the exact oracle: the
// smallest float64 distance d at which dist(segment [o, o + d·dir], core)
// ≤ r, by bisection on the exact predicate.
func TestExactOracleRayCastRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	n := exCases(150)
	hits := 0
	for range n {
		s := exRandAnyShape(rng)
		ts, _ := exRandPair(rng, 0)
		origin, dir, maxDist := exRandRay(rng, ts)
		if exCheckRay(t, s, ts, origin, dir, maxDist, 1e-9) {
			hits++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d rays, %d hits", n, hits)
}

// TestExactOraclePointRandom compares ContainsPoint, DistanceSq and
// Distance on random shapes of every kind and random dyadic points (on
// vertices and edges too) with exact squared distances.
func TestExactOraclePointRandom(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	n := exCases(600)
	for range n {
		s := exRandAnyShape(rng)
		ts, _ := exRandPair(rng, 0)
		if rng.IntN(2) == 0 {
			ts.Rot = shape.Rot{} // dyadic world vertices: exact ties happen
		}
		p := ts.Pos.Add(exDyadV(rng, -5, 5))
		cores := exParts(s, ts)
		pp := exVF(p)
		var best *big.Rat // the smallest squared distance outside the radius
		contains := false
		for _, c := range cores {
			d2 := exDist2(c, pp)
			if d2.Cmp(exMul(c.r, c.r)) <= 0 {
				contains = true
			}
			g := exSqrtF(d2)
			g.Sub(g, new(big.Float).SetPrec(200).SetRat(c.r))
			if g.Sign() < 0 {
				g.SetInt64(0)
			}
			q, _ := new(big.Float).Mul(g, g).Rat(nil)
			if best == nil || q.Cmp(best) < 0 {
				best = q
			}
		}
		desc := fmt.Sprintf("s=%v at %v (cos %v, sin %v), p %v", s, ts.Pos, ts.Rot.Cos(), ts.Rot.Sin(), p)
		want, _ := best.Float64()
		tol := 1e-9 * math.Max(1, s.BoundingRadius()+p.Sub(ts.Pos).Len())
		got := narrowphase.DistanceSq(s, ts, p)
		if math.Abs(math.Sqrt(got)-math.Sqrt(want)) > tol {
			t.Errorf("DistanceSq = %.17g, want %.17g: %s", got, want, desc)
		}
		if d := narrowphase.Distance(s, ts, p); math.Abs(d-math.Sqrt(want)) > tol {
			t.Errorf("Distance = %.17g, want %.17g: %s", d, math.Sqrt(want), desc)
		}
		if (got == 0) != narrowphase.ContainsPoint(s, ts, p) {
			t.Errorf("DistanceSq = %.17g but ContainsPoint = %v: %s", got, !(got == 0), desc)
		}
		exactTie := ts.Rot == (shape.Rot{}) && s.Kind() != shape.KindCircle && s.Kind() != shape.KindCapsule && s.Kind() != shape.KindCompound
		if c := narrowphase.ContainsPoint(s, ts, p); c != contains && (exactTie || math.Sqrt(want) > tol) {
			t.Errorf("ContainsPoint = %v, want %v: %s", c, contains, desc)
		}
		if t.Failed() {
			return
		}
	}
}
