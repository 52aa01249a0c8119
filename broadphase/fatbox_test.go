package broadphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestFatBoxesStoredExactly: the tree keeps its fat boxes in float32, with
// the ones beyond float32's range aside; FatAABB still returns, bit for
// bit, the float64 fat box the brute-force index (which keeps float64s)
// makes of the same moves, for boxes near 1e-300, 1e7, 1e300, at the
// edge of float32's range and moving in and out of it.
func TestFatBoxesStoredExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 3232))
	bases := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e7 + 0.3, -3e12, 1e300, -1e300,
		math.MaxFloat32, -math.MaxFloat32, math.MaxFloat32 * (1 - 1e-8), math.MaxFloat32 * (1 + 1e-9), 1e308}
	cfg := Config{Margin: 0.25, MotionFrames: 4}
	tr, bf := NewTree(cfg), NewBruteForce(cfg)
	pick := func() shape.AABB {
		x, y := bases[r.IntN(len(bases))], bases[r.IntN(len(bases))]
		h := math.Max(math.Abs(x), math.Abs(y)) * 1e-9 * r.Float64()
		if h == 0 || r.IntN(3) == 0 {
			h = r.Float64()
		}
		b := shape.AABBFromCenter(shape.V(x, y), shape.V(h, h))
		if !b.IsFinite() {
			return shape.AABBFromCenter(shape.V(0, 0), shape.V(h, h))
		}
		return b
	}
	const n = 40
	tight := make([]shape.AABB, n)
	for id := range int32(n) {
		tight[id] = pick()
		tr.Insert(id, tight[id])
		bf.Insert(id, tight[id])
	}
	wide := 0
	for round := range 60 {
		for id := range int32(n) {
			var next shape.AABB
			switch r.IntN(3) {
			case 0:
				next = pick() // a jump, in or out of float32's range
			case 1:
				d := tight[id].Max.X - tight[id].Min.X
				next = tight[id].Translate(shape.V(d*r.Float64(), -d*r.Float64()))
			default:
				continue
			}
			if !next.IsFinite() {
				continue
			}
			disp := next.Center().Sub(tight[id].Center())
			if !disp.IsFinite() {
				disp = shape.Vec2{}
			}
			tight[id] = next
			tr.Update(id, next, disp)
			bf.Update(id, next, disp)
		}
		tr.UpdatePairs()
		for id := range int32(n) {
			got, want := tr.FatAABB(id), bf.FatAABB(id)
			if !sameBoxBits(got, want) {
				t.Fatalf("round %d: FatAABB(%d) = %v, want %v", round, id, got, want)
			}
			if r, w := tr.fat.r[id], rectOf(arr(want.Min), arr(want.Max)); r != w {
				t.Fatalf("round %d: proxy %d has tree rectangle %v, want %v (of %v)", round, id, r, w, want)
			}
		}
		wide += len(tr.fat.wide)
		if err := tr.validate(tight); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	if wide == 0 {
		t.Fatal("no fat box beyond float32's range: the test proves nothing")
	}
}

// sameBoxBits reports whether two boxes are equal bit for bit.
func sameBoxBits(a, b shape.AABB) bool {
	for i, x := range []float64{a.Min.X, a.Min.Y, a.Max.X, a.Max.Y} {
		if math.Float64bits(x) != math.Float64bits([]float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}[i]) {
			return false
		}
	}
	return true
}
