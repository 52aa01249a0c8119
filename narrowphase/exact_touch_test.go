package narrowphase_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

var touchSeed = flag.Uint64("touchseed", 0, "seed for TestExactTouchingIsNoContact (0: a random one)")

// ttDyad returns a multiple of 1/16 in [lo, hi].
func ttDyad(r *rand.Rand, lo, hi float64) float64 {
	return math.Round((lo+r.Float64()*(hi-lo))*16) / 16
}

// ttHull returns a random convex polygon of dyadic vertices, or a box.
func ttHull(r *rand.Rand) shape.Shape {
	for {
		var s shape.Shape
		var err error
		switch r.IntN(4) {
		case 0:
			s, err = shape.NewAABB(ttDyad(r, 0.25, 2), ttDyad(r, 0.25, 2))
		case 1:
			s, err = shape.NewOBB(ttDyad(r, 0.25, 2), ttDyad(r, 0.25, 2))
		default:
			pts := make([]shape.Vec2, 3+r.IntN(5))
			for i := range pts {
				pts[i] = shape.V(ttDyad(r, -2, 2), ttDyad(r, -2, 2))
			}
			s, err = shape.ConvexHull(pts)
		}
		if err == nil {
			return s
		}
	}
}

// ttLocal returns the CCW outline of a hull shape in its own frame.
func ttLocal(s shape.Shape) []shape.Vec2 {
	if s.Kind() == shape.KindPolygon {
		return s.Vertices()
	}
	c := s.Corners()
	return c[:]
}

// TestExactTouchingIsNoContact builds pairs that touch exactly, every
// number a small dyadic (so exact in float64), all at angle 0, at 0, 1e6
// and 1e12: a vertex of B (a small wedge, a box, a segment) placed on a
// point of an edge of A (a box or a polygon with slanted edges) with B
// wholly on the outer side, or a segment lying along the edge. Touching is
// not a contact: Collide and Overlap, both orders, must say no; moved
// 1/64 into A, they must say yes.
func TestExactTouchingIsNoContact(t *testing.T) {
	seed := *touchSeed
	if seed == 0 {
		seed = randomSeed()
	}
	t.Logf("seed %d", seed)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay: go test -run TestExactTouchingIsNoContact -touchseed %d ./narrowphase", seed)
		}
	})
	r := rand.New(rand.NewPCG(seed, 77))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	fails := 0
	for i := range n {
		base := [3]float64{0, 1e6, 1e12}[i%3]
		a := ttHull(r)
		va := ttLocal(a)
		k := r.IntN(len(va))
		u, v := va[k], va[(k+1)%len(va)]
		e := v.Sub(u)
		out := shape.V(e.Y, -e.X) // outward, not unit: exact
		// A point of the edge: an end or a dyadic point between.
		f := float64(r.IntN(5)) / 4
		p := u.Add(e.Scale(f))
		var b shape.Shape
		var err error
		bpos := p
		switch r.IntN(3) {
		case 0: // a wedge with its tip at p, opening outward
			b, err = shape.ConvexHull([]shape.Vec2{{}, out.Add(e.Scale(0.25)), out.Sub(e.Scale(0.25))})
		case 1: // a segment from p outward, or along the edge's line
			if r.IntN(2) == 0 {
				b, err = shape.NewSegment(shape.Vec2{}, out.Add(e.Scale(ttDyad(r, -1, 1))))
			} else {
				b, err = shape.NewSegment(e.Scale(-0.5), e.Scale(0.5))
			}
		default: // a box whose corner is at p, if it stays outside
			hw, hh := ttDyad(r, 0.25, 1), ttDyad(r, 0.25, 1)
			b, err = shape.NewAABB(hw, hh)
			// The corner pointing against out is at p.
			bpos = p.Add(shape.V(math.Copysign(hw, out.X), math.Copysign(hh, out.Y)))
			if out.X == 0 || out.Y == 0 {
				continue // an axis-aligned edge: the box would lie along it; other tests have those
			}
		}
		if err != nil {
			continue
		}
		o := shape.V(base, -base)
		ta := shape.NewTransform(o, 0)
		tb := shape.NewTransform(o.Add(bpos), 0)
		if b.Kind() == shape.KindAABB {
			// Only a box wholly outside the edge's line touches: its
			// corners' sides of the line, exactly.
			inside := false
			for _, c := range b.Corners() {
				q := c.Add(bpos).Sub(u)
				if e.X*q.Y-e.Y*q.X > 0 {
					inside = true
				}
			}
			if inside {
				continue
			}
		}
		for _, ord := range [2]bool{false, true} {
			s1, t1, s2, t2 := a, ta, b, tb
			if ord {
				s1, t1, s2, t2 = b, tb, a, ta
			}
			m, ok := narrowphase.Collide(s1, t1, s2, t2)
			ov := narrowphase.Overlap(s1, t1, s2, t2)
			if ok || ov {
				fails++
				if fails <= 5 {
					t.Errorf("case %d: Collide(%v at %v, %v at %v) = %+v, %v; Overlap %v: they only touch (B's point at %v of A's edge %v–%v)",
						i, s1, t1.Pos, s2, t2.Pos, m, ok, ov, f, u, v)
				}
			}
		}
		// Moved into A by 1/64 of the edge's normal (not unit: exact), a
		// wedge or a box overlaps.
		if b.Kind() != shape.KindSegment {
			tin := shape.NewTransform(o.Add(bpos).Sub(out.Scale(1.0/64)), 0)
			if _, ok := narrowphase.Collide(a, ta, b, tin); !ok {
				t.Errorf("case %d: %v moved into %v by 1/64 of %v: no contact", i, b, a, out)
			}
		}
	}
	if fails > 0 {
		t.Fatalf("%d of %d touching pairs reported as contacts", fails, 2*n)
	}
}
