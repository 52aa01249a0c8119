package narrowphase_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestRayFromFarOffBug: a ray from 1e12 along −X at height 11.375 and a
// compound near (4, 8.6), turned by −0.93 rad, whose top is 11.37462.
// RayCast turned the ray's origin into the shape's frame first, and
// 1e12 turned by that angle rounds to ~1e-4, more than the 3.8e-4 the
// ray passes over the shape: it reported a hit the world's own boxes
// ruled out (TestOracleConfigs/no-margin -ocseed 17890751265789839941).
//
// The check: a ray along an axis from 2^20, 2^30 or 2^40 beyond a shape
// lies on the very line of the same ray from just beyond the shape, so
// both hit or both miss, and their distances differ by exactly the
// dyadic head start, to the rounding of the far distance. Heights are
// drawn near the shape's extremes (within 1e-3 to 1e-7 of its box's
// edge) and across it, on every kind, and kept only where the near ray's
// answer does not change within a quarter of that margin either side.
func TestRayFromFarOffBug(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 19))
	dirs := []shape.Vec2{{X: -1}, {X: 1}, {Y: -1}, {Y: 1}}
	n, checked := exCases(400), 0
	for range n {
		s := exRandAnyShape(rng)
		ts := shape.Transform{Pos: exDyadV(rng, -10, 10), Rot: exRandRot(rng)}
		box := s.WorldAABB(ts)
		d := dirs[rng.IntN(len(dirs))]
		p := shape.Vec2{X: -d.Y, Y: d.X} // across the ray
		// The shape's extent across the ray, and where the near ray
		// starts along it (an integer clear of the box, behind it).
		lo, hi := math.Min(p.Dot(box.Min), p.Dot(box.Max)), math.Max(p.Dot(box.Min), p.Dot(box.Max))
		back := math.Ceil(math.Max(-d.Dot(box.Min), -d.Dot(box.Max))) + 1
		for range 6 {
			u := []float64{1e-3, 1e-5, 1e-7}[rng.IntN(3)]
			var h float64
			switch rng.IntN(5) {
			case 0:
				h = hi - u
			case 1:
				h = hi + u
			case 2:
				h = lo + u
			case 3:
				h = lo - u
			default:
				h = lo + (hi-lo)*rng.Float64()
			}
			near := p.Scale(h).Sub(d.Scale(back))
			nh, nok := narrowphase.RayCast(s, ts, near, d, math.Inf(1))
			stable := true
			for _, e := range []float64{-u / 4, u / 4} {
				if _, ok := narrowphase.RayCast(s, ts, near.Add(p.Scale(e)), d, math.Inf(1)); ok != nok {
					stable = false
				}
			}
			if !stable {
				continue
			}
			for _, f := range []float64{0x1p20, 0x1p30, 0x1p40} {
				far := p.Scale(h).Sub(d.Scale(back + f))
				fh, fok := narrowphase.RayCast(s, ts, far, d, math.Inf(1))
				checked++
				if fok != nok {
					t.Fatalf("RayCast(%v at %v, from %v along %v) hit %v; from %v on the same line it hit %v (%+v)", s, ts, far, d, fok, near, nok, nh)
				}
				if !fok {
					continue
				}
				tol := 4*f*0x1p-52 + 1e-6
				if math.Abs(fh.Distance-(nh.Distance+f)) > tol || math.Abs(fh.Point.Sub(nh.Point).Dot(p)) > 1e-6 {
					t.Fatalf("RayCast(%v at %v, from %v along %v) = %+v; from %v on the same line %+v, %v nearer", s, ts, far, d, fh, near, nh, f)
				}
			}
		}
	}
	t.Logf("%d shapes, %d far rays checked", n, checked)
}
