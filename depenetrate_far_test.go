package collide_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestDepenetrateShallowOverlapFarOut: at 1e12, where a place rounds to
// 2⁻¹³ (1.2e-4), a shape that overlaps one convex body by a real depth
// of some 27 such ulps is pushed out by PushOut's answer: the exact MTV
// plus PushOut's margin of 4·2⁻⁵² of the pair's scale (8.9e-4 here, 7.3
// ulps of the place), and no farther; the end overlaps nothing, in exact
// arithmetic. The two discs are TestDepenetrateWedgesOracle's seed
// 3743024740965256302, base 1e12, case 50: the larger disc is 3.325e-3
// into the disc of the first body, nothing else is overlapped, and the
// push is 4.213e-3, where the shortest translation that ends exactly clear
// (the places reachable are on the 2⁻¹³ grid) is 3.352e-3. The oracle's
// rule for ways out within rounding failed it (see the oracle). The disc
// on a disc is the same at its simplest, at depths about that one.
func TestDepenetrateShallowOverlapFarOut(t *testing.T) {
	base := 1e12
	origin := collide.V(base, -base)
	discs := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.1875)), Offset: collide.NewTransform(collide.V(-0.1875, 0), 0)},
		{Shape: must[collide.Shape](t)(collide.NewCircle(0.125)), Offset: collide.NewTransform(collide.V(0.25, 0.0625), 0)},
	}))
	type body struct {
		s   collide.Shape
		off collide.Vec2
		a   float64
	}
	wedge := []body{
		{must[collide.Shape](t)(collide.NewOffsetCircle(collide.V(-1, -0.4375), 0.375)), collide.V(0.39067602520907735, 0.3120452584591478), 5.386355985168939},
		{must[collide.Shape](t)(collide.NewOBB(4, 0.0078125)), collide.V(1.3060627914044896, -0.12983156360728682), 1.4717150044459435},
		{must[collide.Shape](t)(collide.NewCompound([]collide.Part{
			{Shape: must[collide.Shape](t)(collide.NewCapsule(collide.V(0.6875, 0.5625), collide.V(-0.5, 0.8125), 0.375)), Offset: collide.NewTransform(collide.V(-0.1875, 0.25), 2.654943535220405)},
			{Shape: must[collide.Shape](t)(collide.NewOffsetCircle(collide.V(0.1875, 0.4375), 0.8125)), Offset: collide.Transform{Pos: collide.V(-0.625, 0.25), Rot: shape.RotFromCosSin(-1, 0)}},
			{Shape: must[collide.Shape](t)(collide.NewOffsetCircle(collide.V(-0.875, 0.9375), 0.9375)), Offset: collide.Transform{Pos: collide.V(-1.1875, -1.0625)}},
		})), collide.V(-1.0732614830150384, 0.5081988184523459), 4.270157985447796},
	}
	disc := must[collide.Shape](t)(collide.NewCircle(0.1875))
	lens := []body{{must[collide.Shape](t)(collide.NewCircle(0.375)), collide.Vec2{}, 0}}
	u := collide.V(math.Cos(1), math.Sin(1))
	cases := []struct {
		name   string
		ch     collide.Shape
		at     collide.Transform
		bodies []body
		depth  float64 // the exact depth, to 1e-6
	}{
		{"two discs in a disc", discs, collide.NewTransform(origin.Add(collide.V(-0.5, 0.125)), 4.188359891054926), wedge, 3.325e-3},
		{"disc in a disc 3.0e-3", disc, collide.NewTransform(origin.Add(u.Scale(0.5625-3e-3)), 0), lens, 3.010e-3},
		{"disc in a disc 3.3e-3", disc, collide.NewTransform(origin.Add(u.Scale(0.5625-3.3e-3)), 0), lens, 3.281e-3},
		{"disc in a disc 3.5e-3", disc, collide.NewTransform(origin.Add(u.Scale(0.5625-3.5e-3)), 0), lens, 3.553e-3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := collide.NewWorld(collide.Config{Workers: 1})
			defer w.Close()
			var bodies []*esBody
			add := h7Adder(t, w, origin, &bodies)
			for _, b := range c.bodies {
				add(b.s, b.off, b.a)
			}
			limit := 1e-9 * c.ch.BoundingRadius()
			start, in := h7Deepest(c.ch, c.at, bodies, 0, origin)
			if math.Abs(start-c.depth) > 1e-6 || in != bodies[0] {
				t.Fatalf("%v starts %g deep in %v, want %g in %v", c.ch, start, in, c.depth, bodies[0].id)
			}
			for _, b := range bodies[1:] {
				if dd, _ := h7Deepest(c.ch, c.at, []*esBody{b}, 0, origin); dd > 0 {
					t.Fatalf("%v starts %g deep in %v too, want it in %v only", c.ch, dd, b.id, bodies[0].id)
				}
			}
			d := must[collide.Vec2](t)(w.Depenetrate(c.ch, c.at, collide.Filter{}))
			b := bodies[0]
			if p, _ := narrowphase.PushOut(c.ch, c.at, b.s, b.xf); d != p {
				t.Errorf("Depenetrate(%v) = %v, want PushOut's %v: one body overlapped", c.ch, d, p)
			}
			// PushOut's margin: 4·2⁻⁵² of the larger coordinate, the larger
			// bounding radius and the depth; one ulp of the place more
			// for the rounding of the move.
			scale := max(math.Abs(c.at.Pos.X), math.Abs(c.at.Pos.Y), math.Abs(b.xf.Pos.X), math.Abs(b.xf.Pos.Y)) +
				max(c.ch.BoundingRadius(), b.s.BoundingRadius()) + start
			ulp := math.Nextafter(base, math.Inf(1)) - base
			if l := d.Len(); l < start || l > start+float64(4*0x1p-52*scale)+ulp {
				t.Errorf("Depenetrate(%v) = %v (length %g), want the depth %g plus PushOut's margin %g", c.ch, d, l, start, 4*0x1p-52*scale)
			}
			end := collide.Transform{Pos: c.at.Pos.Add(d), Rot: c.at.Rot}
			if dd, in := h7Deepest(c.ch, end, bodies, limit, origin); dd > limit {
				t.Errorf("Depenetrate(%v) = %v leaves it %g deep in %v", c.ch, d, dd, in.id)
			}
		})
	}
}
