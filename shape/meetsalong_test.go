package shape_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// exactMeetsAlong decides in rational arithmetic whether box b moved by
// t·delta, t in [0, 1], meets box c: on each axis the times at which the two
// extents overlap form an interval, and the boxes meet when the intervals of
// both axes and [0, 1] share a time. It also returns how far apart (in
// time) the closest approach leaves them, 0 when they meet.
func exactMeetsAlong(b shape.AABB, delta shape.Vec2, c shape.AABB) (bool, float64) {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	lo, hi := r(0), r(1)
	for ax := range 2 {
		bmin, bmax, cmin, cmax, d := b.Min.X, b.Max.X, c.Min.X, c.Max.X, delta.X
		if ax == 1 {
			bmin, bmax, cmin, cmax, d = b.Min.Y, b.Max.Y, c.Min.Y, c.Max.Y, delta.Y
		}
		if d == 0 {
			if bmax < cmin || bmin > cmax {
				return false, math.Inf(1)
			}
			continue
		}
		// bmin + t·d ≤ cmax and bmax + t·d ≥ cmin.
		t0 := new(big.Rat).Quo(new(big.Rat).Sub(r(cmin), r(bmax)), r(d))
		t1 := new(big.Rat).Quo(new(big.Rat).Sub(r(cmax), r(bmin)), r(d))
		if t0.Cmp(t1) > 0 {
			t0, t1 = t1, t0
		}
		if t0.Cmp(lo) > 0 {
			lo = t0
		}
		if t1.Cmp(hi) < 0 {
			hi = t1
		}
	}
	if lo.Cmp(hi) <= 0 {
		return true, 0
	}
	gap, _ := new(big.Rat).Sub(lo, hi).Float64()
	return false, gap
}

// TestAABBMeetsAlongAgainstExact: random boxes and motions, at the origin
// and far from it, with touching cases built exactly; MeetsAlong never
// misses a meeting and turns away every pair that stays apart by more than
// its rounding margin.
func TestAABBMeetsAlongAgainstExact(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 23))
	mk := func(base float64) shape.AABB {
		c := shape.V(base+10*r.Float64()-5, base+10*r.Float64()-5)
		h := shape.V(2*r.Float64(), 2*r.Float64())
		if r.IntN(8) == 0 {
			h.X = 0 // a box of no width
		}
		return shape.AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	met, loose := 0, 0
	for i := range 40000 {
		base := []float64{0, 1e6, -1e9, 1e12}[i%4]
		b, c := mk(base), mk(base)
		delta := shape.V(20*r.Float64()-10, 20*r.Float64()-10)
		switch r.IntN(6) {
		case 0:
			delta.X = 0
		case 1:
			delta.Y = 0
		case 2:
			// Touching: c's left edge is where b's right edge ends up.
			c.Min.X = b.Max.X + delta.X
			c.Max.X = c.Min.X + 1
			c.Min.Y, c.Max.Y = b.Min.Y+delta.Y, b.Max.Y+delta.Y
		case 3:
			// Corner to corner at one time in the middle of the motion, on
			// both axes: the exact answer hangs on the last bit.
			tm := r.Float64()
			c.Min.X = b.Max.X + delta.X*tm
			c.Max.X = c.Min.X + 1
			if delta.Y > 0 {
				c.Min.Y = b.Max.Y + delta.Y*tm
				c.Max.Y = c.Min.Y + 1
			} else {
				c.Max.Y = b.Min.Y + delta.Y*tm
				c.Min.Y = c.Max.Y - 1
			}
		}
		want, gap := exactMeetsAlong(b, delta, c)
		got := b.MeetsAlong(delta, c)
		if want {
			met++
			if !got {
				t.Fatalf("case %d: %v moved by %v meets %v, MeetsAlong says no", i, b, delta, c)
			}
			continue
		}
		// Apart by more than twice the rounding margin: it must say so.
		e := math.Abs(b.Min.X) + math.Abs(b.Min.Y) + math.Abs(b.Max.X) + math.Abs(b.Max.Y) +
			math.Abs(c.Min.X) + math.Abs(c.Min.Y) + math.Abs(c.Max.X) + math.Abs(c.Max.Y) + math.Abs(delta.X) + math.Abs(delta.Y)
		if wide, _ := exactMeetsAlong(b, delta, c.Expand(2e-12*e)); !wide && got {
			t.Fatalf("case %d: %v moved by %v stays %v (in time) from %v, beyond the margin, and MeetsAlong says they meet", i, b, delta, gap, c)
		}
		if got {
			loose++
		}
	}
	t.Logf("%d of 40000 cases meet; %d apart within the margin say they meet", met, loose)
	if met < 1000 || met > 39000 {
		t.Fatalf("%d of 40000 cases meet: the cases do not test both answers", met)
	}
}
