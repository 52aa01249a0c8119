package narrowphase_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks the symmetry of the composite kinds bit for bit, with
// no oracle but the contract itself: Collide(b, a) is exactly Collide(a, b)
// flipped, Overlap agrees with Collide both ways, and a Cast that starts
// in overlap answers with Collide's first point and negated normal and
// names the deepest pair's part. The shapes sit on a half-unit grid and
// turn by quarter turns, so that part pairs tying for the deepest (the
// case a first-found rule gets wrong one way round) are common.

// fcSeed returns the seed given with -seed, or def: these tests run a
// fixed seed unless told otherwise.
func fcSeed(t *testing.T, def uint64) uint64 {
	t.Helper()
	if f := flag.Lookup(npSeedFlag); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if v, ok := g.Get().(uint64); ok && v != 0 {
				return v
			}
		}
	}
	return def
}

// fcQuarter returns a quarter-turn rotation (the identity included).
func fcQuarter(rng *rand.Rand) shape.Rot {
	q := [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[rng.IntN(4)]
	return shape.RotFromCosSin(q[0], q[1])
}

// fcConvex returns a convex shape of unit size with grid-friendly numbers.
func fcConvex(rng *rand.Rand) shape.Shape {
	var s shape.Shape
	var err error
	switch rng.IntN(6) {
	case 0:
		s, err = shape.NewOBB(0.5, 0.5)
	case 1:
		s, err = shape.NewOBB(1, 0.5)
	case 2:
		s, err = shape.NewCircle(0.5)
	case 3:
		s, err = shape.NewCapsule(shape.V(-0.5, 0), shape.V(0.5, 0), 0.5)
	case 4:
		s, err = shape.NewPolygon([]shape.Vec2{shape.V(-1, -0.5), shape.V(1, -0.5), shape.V(0, 0.5)})
	default:
		s, err = shape.NewSegment(shape.V(-1, 0), shape.V(1, 0))
	}
	if err != nil {
		panic(err)
	}
	return s
}

// fcShape returns a random shape of any kind on the grid: a convex shape,
// an AABB, a compound of 1 to 5 convex parts, a concave rectilinear
// polygon (a histogram of random column heights) or a chain (an open
// random walk, or a closed histogram outline).
func fcShape(rng *rand.Rand) shape.Shape {
	switch rng.IntN(6) {
	case 0:
		parts := make([]shape.Part, 1+rng.IntN(5))
		for i := range parts {
			off := shape.Transform{Pos: shape.V(float64(rng.IntN(9)-4)/2, float64(rng.IntN(5)-2)/2), Rot: fcQuarter(rng)}
			parts[i] = shape.Part{Shape: fcConvex(rng), Offset: off}
		}
		s, err := shape.NewCompound(parts)
		if err != nil {
			panic(err)
		}
		return s
	case 1, 2:
		s, err := shape.NewConcavePolygon(fcHistogram(rng))
		if err != nil {
			panic(err)
		}
		return s
	case 3:
		closed := rng.IntN(3) == 0
		var pts []shape.Vec2
		if closed {
			pts = fcHistogram(rng)
		} else {
			pts = []shape.Vec2{shape.V(-3, 0)}
			for range 2 + rng.IntN(5) {
				p := pts[len(pts)-1]
				pts = append(pts, shape.V(p.X+1, float64(rng.IntN(3))/2))
			}
		}
		s, err := shape.NewChain(pts, closed)
		if err != nil {
			panic(err)
		}
		return s
	case 4:
		s, _ := shape.NewAABB(0.5, 1)
		return s
	}
	return fcConvex(rng)
}

// fcHistogram returns a simple rectilinear outline, counter-clockwise: a
// bar from x = −2 to 2 with columns of random heights 1 to 3 on it.
func fcHistogram(rng *rand.Rand) []shape.Vec2 {
	pts := []shape.Vec2{shape.V(-2, 0), shape.V(2, 0)}
	prev := -1.0
	for x := 2; x > -2; x-- {
		h := float64(1 + rng.IntN(3))
		if h != prev {
			pts = append(pts, shape.V(float64(x), h))
		}
		pts = append(pts, shape.V(float64(x-1), h))
		prev = h
	}
	return pts
}

// TestCompositeCollideFlipGrid checks the symmetry contract on random
// pairs, at least one of them a compound, concave polygon or chain, on the
// half-unit grid. Pairs of one kind placed alike and equal part for part
// are twins, with no order to tell them apart, and are skipped.
func TestCompositeCollideFlipGrid(t *testing.T) {
	seed := fcSeed(t, 20261127)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	n := 40000
	if testing.Short() {
		n = 4000
	}
	hits := 0
	for c := range n {
		a, b := fcShape(rng), fcShape(rng)
		if a.Kind().Convex() && b.Kind().Convex() {
			continue
		}
		ta := shape.Transform{Pos: shape.V(float64(rng.IntN(7)-3)/2, float64(rng.IntN(7)-3)/2), Rot: fcQuarter(rng)}
		tb := shape.Transform{Pos: shape.V(float64(rng.IntN(7)-3)/2, float64(rng.IntN(7)-3)/2), Rot: fcQuarter(rng)}
		if rng.IntN(4) == 0 {
			tb.Rot = shape.NewRot(rng.Float64() * 6.3)
		}
		if rng.IntN(4) == 0 { // far from the origin
			d := shape.V(1e6, -3e6)
			ta.Pos, tb.Pos = ta.Pos.Add(d), tb.Pos.Add(d)
		}
		if ta == tb && a.Kind() == b.Kind() {
			continue // twins, or as good as: nothing orders them
		}
		m, ok := narrowphase.Collide(a, ta, b, tb)
		mb, okb := narrowphase.Collide(b, tb, a, ta)
		desc := func() string { return exDescribe(a, ta, b, tb) }
		if ok != okb {
			t.Fatalf("case %d: Collide = %v, reversed %v: %s", c, ok, okb, desc())
		}
		if ov, ovb := narrowphase.Overlap(a, ta, b, tb), narrowphase.Overlap(b, tb, a, ta); ov != ok || ovb != ok {
			t.Fatalf("case %d: Overlap = %v, reversed %v, Collide %v: %s", c, ov, ovb, ok, desc())
		}
		if !ok {
			continue
		}
		hits++
		if mb.Flip() != m {
			t.Fatalf("case %d: Collide(b, a) flipped = %+v, want Collide(a, b) = %+v: %s", c, mb.Flip(), m, desc())
		}
		// A cast starting in the overlap: fraction 0, Collide's first
		// point, the normal negated, the part of b the deepest pair holds.
		delta := shape.V(float64(rng.IntN(5)-2), float64(rng.IntN(5)-2))
		for _, order := range []struct {
			x, y   shape.Shape
			tx, ty shape.Transform
			m      narrowphase.Manifold
		}{{a, b, ta, tb, m}, {b, a, tb, ta, mb}} {
			h, hok := narrowphase.Cast(order.x, order.tx, delta, order.y, order.ty)
			if !hok || h.Fraction != 0 || h.Normal != order.m.Normal.Neg() || h.Point != order.m.Points[0].Point {
				t.Fatalf("case %d: Cast from overlap = %+v, %v; want fraction 0 at %v, normal %v: %s",
					c, h, hok, order.m.Points[0].Point, order.m.Normal.Neg(), exDescribe(order.x, order.tx, order.y, order.ty))
			}
		}
	}
	t.Logf("%d cases, %d in contact", n, hits)
}
