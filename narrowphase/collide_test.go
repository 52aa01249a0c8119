package narrowphase

import (
	"math"
	"testing"

	"github.com/collide-go/collide/shape"
)

// must returns s, or panics on a constructor error: test shapes are
// hand-written and valid.
func must(s shape.Shape, err error) shape.Shape {
	if err != nil {
		panic(err)
	}
	return s
}

func mkCircle(r float64) shape.Shape         { return must(shape.NewCircle(r)) }
func mkAABB(hw, hh float64) shape.Shape      { return must(shape.NewAABB(hw, hh)) }
func mkOBB(hw, hh float64) shape.Shape       { return must(shape.NewOBB(hw, hh)) }
func mkPolygon(vs ...shape.Vec2) shape.Shape { return must(shape.NewPolygon(vs)) }
func pt(x, y float64) shape.Vec2             { return shape.Vec2{X: x, Y: y} }
func place(x, y, angle float64) shape.Transform {
	return shape.NewTransform(pt(x, y), angle)
}

// near reports whether got is within tol of want, relative above 1.
func approx(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func approxVec(got, want shape.Vec2, tol float64) bool {
	return approx(got.X, want.X, tol) && approx(got.Y, want.Y, tol)
}

type collideCase struct {
	name   string
	a      shape.Shape
	ta     shape.Transform
	b      shape.Shape
	tb     shape.Transform
	hit    bool
	depth  float64
	normal shape.Vec2
	points []shape.Vec2 // in any order; nil to skip
}

func collideCases() []collideCase {
	r2 := math.Sqrt2
	d45 := 1 + r2 - 2.2 // unit square vs unit square turned 45° at x = 2.2
	return []collideCase{
		// circle–circle
		{name: "circle-circle/overlap", a: mkCircle(1), b: mkCircle(1), tb: place(1.5, 0, 0),
			hit: true, depth: 0.5, normal: pt(1, 0), points: []shape.Vec2{pt(0.75, 0)}},
		{name: "circle-circle/touching", a: mkCircle(1), b: mkCircle(1), tb: place(2, 0, 0)},
		{name: "circle-circle/coincident", a: mkCircle(1), ta: place(3, 4, 0), b: mkCircle(2), tb: place(3, 4, 1),
			hit: true, depth: 3, normal: pt(1, 0)},
		{name: "circle-circle/offset-rotated", a: must(shape.NewOffsetCircle(pt(1, 0), 1)), ta: place(0, 0, math.Pi/2),
			b: mkCircle(1), tb: place(0, 2.5, 0), hit: true, depth: 0.5, normal: pt(0, 1), points: []shape.Vec2{pt(0, 1.75)}},
		// circle–AABB
		{name: "circle-aabb/face", a: mkCircle(1), ta: place(0, 1.5, 0), b: mkAABB(2, 1),
			hit: true, depth: 0.5, normal: pt(0, -1), points: []shape.Vec2{pt(0, 0.75)}},
		{name: "circle-aabb/corner-diagonal-no-hit", a: mkCircle(1), ta: place(2.75, 1.75, 0), b: mkAABB(2, 1)},
		{name: "circle-aabb/corner", a: mkCircle(1), ta: place(2.6, 1.6, 0), b: mkAABB(2, 1),
			hit: true, depth: 1 - 0.6*r2, normal: pt(-1/r2, -1/r2)},
		{name: "circle-aabb/centre-inside", a: mkCircle(0.5), ta: place(1.5, 0, 0), b: mkAABB(2, 1),
			hit: true, depth: 1, normal: pt(-1, 0), points: []shape.Vec2{pt(1.5, 0)}},
		{name: "circle-aabb/rotation-ignored", a: mkCircle(1), ta: place(0, 1.5, 0), b: mkAABB(2, 1), tb: place(0, 0, math.Pi/4),
			hit: true, depth: 0.5, normal: pt(0, -1), points: []shape.Vec2{pt(0, 0.75)}},
		{name: "circle-aabb/touching", a: mkCircle(1), ta: place(0, 2, 0), b: mkAABB(2, 1)},
		// circle–OBB
		{name: "circle-obb/rotated-90", a: mkCircle(1), ta: place(1.5, 0, 0), b: mkOBB(2, 1), tb: place(0, 0, math.Pi/2),
			hit: true, depth: 0.5, normal: pt(-1, 0), points: []shape.Vec2{pt(0.75, 0)}},
		{name: "circle-obb/rotated-45-corner", a: mkCircle(1), ta: place(r2+0.5, 0, 0), b: mkOBB(1, 1), tb: place(0, 0, math.Pi/4),
			hit: true, depth: 0.5, normal: pt(-1, 0), points: []shape.Vec2{pt(r2-0.25, 0)}},
		{name: "circle-obb/corner-diagonal-no-hit", a: mkCircle(1), ta: place(r2+1.01, 0, 0), b: mkOBB(1, 1), tb: place(0, 0, math.Pi/4)},
		// circle–polygon
		{name: "circle-polygon/corner-diagonal-no-hit", a: mkCircle(1), ta: place(-0.75, -0.75, 0),
			b: mkPolygon(pt(0, 0), pt(2, 0), pt(2, 2), pt(0, 2))},
		{name: "circle-polygon/corner", a: mkCircle(1), ta: place(-0.5, -0.5, 0), b: mkPolygon(pt(0, 0), pt(2, 0), pt(2, 2), pt(0, 2)),
			hit: true, depth: 1 - 0.5*r2, normal: pt(1/r2, 1/r2)},
		{name: "circle-polygon/centre-inside", a: mkCircle(0.5), ta: place(1, 0.5, 0), b: mkPolygon(pt(0, 0), pt(4, 0), pt(0, 4)),
			hit: true, depth: 1, normal: pt(0, 1), points: []shape.Vec2{pt(1, 0.5)}},
		{name: "circle-polygon/hypotenuse", a: mkCircle(1), ta: place(2+0.5/r2, 2+0.5/r2, 0), b: mkPolygon(pt(0, 0), pt(4, 0), pt(0, 4)),
			hit: true, depth: 0.5, normal: pt(-1/r2, -1/r2), points: []shape.Vec2{pt(2-0.25/r2, 2-0.25/r2)}},
		// AABB–AABB
		{name: "aabb-aabb/overlap", a: mkAABB(1, 1), b: mkAABB(1, 1), tb: place(1.5, 0.5, 0),
			hit: true, depth: 0.5, normal: pt(1, 0), points: []shape.Vec2{pt(0.75, -0.5), pt(0.75, 1)}},
		{name: "aabb-aabb/touching", a: mkAABB(1, 1), b: mkAABB(1, 1), tb: place(2, 0.3, 0)},
		{name: "aabb-aabb/contained", a: mkAABB(5, 5), b: mkAABB(1, 1), tb: place(3, 0.5, 0),
			hit: true, depth: 3, normal: pt(1, 0), points: []shape.Vec2{pt(3.5, -0.5), pt(3.5, 1.5)}},
		{name: "aabb-aabb/rotation-ignored", a: mkAABB(1, 1), ta: place(0, 0, 0.7), b: mkAABB(1, 1), tb: place(1.5, 0.5, math.Pi/2),
			hit: true, depth: 0.5, normal: pt(1, 0), points: []shape.Vec2{pt(0.75, -0.5), pt(0.75, 1)}},
		// AABB–OBB
		{name: "aabb-obb/corner-into-face", a: mkAABB(1, 1), b: mkOBB(1, 1), tb: place(2.2, 0, math.Pi/4),
			hit: true, depth: d45, normal: pt(1, 0), points: []shape.Vec2{pt(1-d45/2, 0)}},
		{name: "aabb-obb/quarter-turn", a: mkAABB(1, 1), ta: place(0, 0, 1), b: mkOBB(2, 0.5), tb: place(1.2, 0, math.Pi/2),
			hit: true, depth: 0.3, normal: pt(1, 0), points: []shape.Vec2{pt(0.85, -1), pt(0.85, 1)}},
		{name: "aabb-obb/touching", a: mkAABB(1, 1), b: mkOBB(1, 1), tb: place(1+r2, 0, math.Pi/4)},
		// AABB–polygon
		{name: "aabb-polygon/tip-into-face", a: mkAABB(1, 1), b: mkPolygon(pt(0, 0), pt(2, -1), pt(2, 1)), tb: place(0.7, 0, 0),
			hit: true, depth: 0.3, normal: pt(1, 0), points: []shape.Vec2{pt(0.85, 0)}},
		{name: "aabb-polygon/touching", a: mkAABB(1, 1), b: mkPolygon(pt(0, 0), pt(2, -1), pt(2, 1)), tb: place(1, 0, 0)},
		// OBB–OBB
		{name: "obb-obb/aligned-quarter-turns", a: mkOBB(2, 1), ta: place(0, 0, math.Pi/2), b: mkOBB(2, 1), tb: place(0, 3.5, 3*math.Pi/2),
			hit: true, depth: 0.5, normal: pt(0, 1), points: []shape.Vec2{pt(-1, 1.75), pt(1, 1.75)}},
		{name: "obb-obb/corner-into-face", a: mkOBB(1, 1), b: mkOBB(1, 1), tb: place(2.2, 0, math.Pi/4),
			hit: true, depth: d45, normal: pt(1, 0), points: []shape.Vec2{pt(1-d45/2, 0)}},
		{name: "obb-obb/contained-rotated", a: mkOBB(3, 3), ta: place(0, 0, math.Pi/6), b: mkOBB(0.5, 0.5),
			tb:  shape.Transform{Pos: shape.NewRot(math.Pi / 6).Apply(pt(2, 0)), Rot: shape.NewRot(math.Pi / 6)},
			hit: true, depth: 1.5, normal: pt(math.Cos(math.Pi/6), math.Sin(math.Pi/6))},
		{name: "obb-obb/touching", a: mkOBB(1, 1), ta: place(0, 0, 0.3), b: mkOBB(1, 1),
			tb: shape.Transform{Pos: shape.NewRot(0.3).Apply(pt(2, 0.5)), Rot: shape.NewRot(0.3)}},
		// OBB–polygon
		{name: "obb-polygon/corner-into-face", a: mkOBB(1, 1), ta: place(0, 0, math.Pi/4), b: mkPolygon(pt(-1, -1), pt(1, -1), pt(1, 1), pt(-1, 1)), tb: place(2.2, 0, 0),
			hit: true, depth: d45, normal: pt(1, 0), points: []shape.Vec2{pt(r2-d45/2, 0)}},
		// polygon–polygon
		{name: "polygon-polygon/corner-into-hypotenuse", a: mkPolygon(pt(0, 0), pt(4, 0), pt(0, 4)), b: mkPolygon(pt(-1, -1), pt(1, -1), pt(1, 1), pt(-1, 1)), tb: place(3.5, 1.5, 0),
			hit: true, depth: 1 / r2, normal: pt(1/r2, 1/r2), points: []shape.Vec2{pt(2.75, 0.75)}},
		{name: "polygon-polygon/contained", a: mkPolygon(pt(-5, -5), pt(5, -5), pt(5, 5), pt(-5, 5)), b: mkPolygon(pt(0, 0), pt(1, 0), pt(0, 1)), tb: place(-4.5, 1, 0),
			hit: true, depth: 1.5, normal: pt(-1, 0), points: []shape.Vec2{pt(-4.25, 1), pt(-4.75, 2)}},
		{name: "polygon-polygon/shared-edge", a: mkPolygon(pt(0, 0), pt(1, 0), pt(1, 1), pt(0, 1)), b: mkPolygon(pt(0, 0), pt(1, 0), pt(1, 1), pt(0, 1)), tb: place(1, 0.25, 0)},
	}
}

func TestCollideHandCases(t *testing.T) {
	const tol = 1e-12
	for _, c := range collideCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, flip := range []bool{false, true} {
				a, ta, b, tb, normal := c.a, c.ta, c.b, c.tb, c.normal
				if flip {
					a, ta, b, tb, normal = b, tb, a, ta, normal.Neg()
				}
				call := "Collide(" + a.Kind().String() + ", " + b.Kind().String() + ")"
				m, hit := Collide(a, ta, b, tb)
				if ov := Overlap(a, ta, b, tb); ov != hit {
					t.Errorf("Overlap(%s, %s) = %v, but %s hit = %v", a.Kind(), b.Kind(), ov, call, hit)
				}
				if hit != c.hit {
					t.Fatalf("%s hit = %v, want %v (manifold %+v)", call, hit, c.hit, m)
				}
				if !hit {
					continue
				}
				if !approx(m.Depth, c.depth, tol) {
					t.Errorf("%s.Depth = %.15g, want %.15g", call, m.Depth, c.depth)
				}
				// Coincident circle centres have no direction: the
				// fallback is the X axis (+X in the canonical order, so -X
				// in the other; TestCollideSameKindAntisymmetric checks the
				// pairing).
				if c.name == "circle-circle/coincident" && math.Abs(m.Normal.X) == 1 && m.Normal.Y == 0 {
					normal = m.Normal
				}
				if !approxVec(m.Normal, normal, tol) {
					t.Errorf("%s.Normal = %v, want %v", call, m.Normal, normal)
				}
				if m.Count < 1 || m.Count > 2 {
					t.Fatalf("%s.Count = %d, want 1 or 2", call, m.Count)
				}
				for i, p := range m.Points[:m.Count] {
					if !(p.Depth > 0) || p.Depth > m.Depth*(1+tol) {
						t.Errorf("%s.Points[%d].Depth = %g, want in (0, %g]", call, i, p.Depth, m.Depth)
					}
				}
				if c.points == nil || (flip && a.Kind() == b.Kind()) {
					continue
				}
				if m.Count != len(c.points) {
					t.Fatalf("%s.Count = %d, want %d (points %v)", call, m.Count, len(c.points), m.Points)
				}
				for _, want := range c.points {
					found := false
					for _, p := range m.Points[:m.Count] {
						found = found || approxVec(p.Point, want, tol)
					}
					if !found {
						t.Errorf("%s.Points = %v, want a point at %v", call, m.Points[:m.Count], want)
					}
				}
			}
		})
	}
}

// TestCollideLargeCoordinates moves every hand case by (1e6, -1e6): depths
// keep their precision because routines work relative to one shape.
func TestCollideLargeCoordinates(t *testing.T) {
	off := pt(1e6, -1e6)
	for _, c := range collideCases() {
		if !c.hit {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			ta, tb := c.ta, c.tb
			ta.Pos, tb.Pos = ta.Pos.Add(off), tb.Pos.Add(off)
			m, hit := Collide(c.a, ta, c.b, tb)
			if !hit {
				t.Fatalf("Collide(%s, %s) at 1e6 hit = false, want true", c.a.Kind(), c.b.Kind())
			}
			if math.Abs(m.Depth-c.depth) > 1e-9*c.depth {
				t.Errorf("Collide(%s, %s).Depth at 1e6 = %.15g, want %.15g", c.a.Kind(), c.b.Kind(), m.Depth, c.depth)
			}
		})
	}
}

func TestCollideInvalidShape(t *testing.T) {
	for _, s := range []shape.Shape{mkCircle(1), mkAABB(1, 1), mkOBB(1, 1), mkPolygon(pt(0, 0), pt(1, 0), pt(0, 1))} {
		var zero shape.Shape
		if _, hit := Collide(zero, shape.Identity, s, shape.Identity); hit {
			t.Errorf("Collide(zero, %s) hit = true, want false", s.Kind())
		}
		if _, hit := Collide(s, shape.Identity, zero, shape.Identity); hit {
			t.Errorf("Collide(%s, zero) hit = true, want false", s.Kind())
		}
		if Overlap(zero, shape.Identity, s, shape.Identity) || Overlap(s, shape.Identity, zero, shape.Identity) {
			t.Errorf("Overlap(zero, %s) = true, want false", s.Kind())
		}
	}
}

func TestCollideNaNTransformNoHit(t *testing.T) {
	nan := shape.Transform{Pos: pt(math.NaN(), 0)}
	for _, c := range collideCases() {
		if _, hit := Collide(c.a, nan, c.b, c.tb); hit {
			t.Errorf("%s: Collide with a NaN position hit = true, want false", c.name)
		}
		if Overlap(c.a, c.ta, c.b, nan) {
			t.Errorf("%s: Overlap with a NaN position = true, want false", c.name)
		}
	}
}

func TestCollideAllocatesNothing(t *testing.T) {
	for _, c := range collideCases() {
		allocs := testing.AllocsPerRun(100, func() {
			Collide(c.a, c.ta, c.b, c.tb)
			Collide(c.b, c.tb, c.a, c.ta)
			Overlap(c.a, c.ta, c.b, c.tb)
			Overlap(c.b, c.tb, c.a, c.ta)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", c.name, allocs)
		}
	}
}

// TestCirclePolygonCentreOnBoundaryNormal is the regression test for the
// noisy normal of a circle whose centre lies, to rounding, on a polygon edge
// or vertex: c - q is then rounding noise, and normalising it gave a
// direction along which B did not separate. Moving B by the normal times a
// little more than the depth must separate the pair.
func TestCirclePolygonCentreOnBoundaryNormal(t *testing.T) {
	cases := []struct {
		name   string
		a      shape.Shape
		ta     shape.Transform
		b      shape.Shape
		tb     shape.Transform
		depth  float64
		normal shape.Vec2 // nil vector: any normal of the vertex cone
	}{
		{"on-edge", must(shape.NewOffsetCircle(pt(0.5, 0), 0.2)), shape.Transform{Rot: shape.RotFromCosSin(0.7071067811865476, 0.7071067811865475)},
			mkPolygon(pt(0, 0), pt(64, 0), pt(0, 50)), shape.Transform{Pos: pt(0.9192388155425117, 0.9192388155425117), Rot: shape.RotFromCosSin(-0.7071067811865475, 0.7071067811865476)},
			0.2, pt(-0.7071067811865475, 0.7071067811865476)},
		{"on-vertex", mkCircle(1.743930084395344), shape.Transform{Pos: pt(1.132652480099558, -0.15266642987024448), Rot: shape.RotFromCosSin(1.1102230246251565e-16, 1)},
			mkPolygon(pt(-1.881823897502105, -0.20320201945025396), pt(1.881823897502105, -0.10160100972512698), pt(1.881823897502105, 0.10160100972512698), pt(-1.881823897502105, 0.20320201945025396)),
			shape.Transform{Pos: pt(1.031051470374431, -2.0344903273723496), Rot: shape.RotFromCosSin(1.1102230246251565e-16, 1)},
			1.743930084395344, shape.Vec2{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, hit := Collide(c.a, c.ta, c.b, c.tb)
			if !hit {
				t.Fatalf("Collide(circle, polygon) hit = false, want true")
			}
			if !approx(m.Depth, c.depth, 1e-12) {
				t.Errorf("Collide(circle, polygon).Depth = %.17g, want %.17g", m.Depth, c.depth)
			}
			if c.normal != (shape.Vec2{}) && !approxVec(m.Normal, c.normal, 1e-12) {
				t.Errorf("Collide(circle, polygon).Normal = %v, want %v", m.Normal, c.normal)
			}
			far := c.tb
			far.Pos = far.Pos.Add(m.Normal.Scale(m.Depth * 1.001))
			if Overlap(c.a, c.ta, c.b, far) {
				t.Errorf("Collide(circle, polygon): moving B by Normal*Depth*1.001 (Normal %v) does not separate", m.Normal)
			}
		})
	}
}

// TestCollideSameKindAntisymmetric checks that for two shapes of one kind
// Collide(b, a) is exactly Collide(a, b) with the normal negated, including
// the tie cases where the normal is a fallback (coincident centres).
func TestCollideSameKindAntisymmetric(t *testing.T) {
	tri := must(shape.NewPolygon([]shape.Vec2{pt(-1, -1), pt(1, -1), pt(0, 1)}))
	cases := []struct {
		name   string
		a, b   shape.Shape
		ta, tb shape.Transform
	}{
		{"circle coincident", mkCircle(1), mkCircle(2), place(3, 4, 0), place(3, 4, 1)},
		{"circle coincident same size", mkCircle(1), mkCircle(1), place(3, 4, 0), place(3, 4, 0.5)},
		{"aabb coincident", mkAABB(1, 2), mkAABB(2, 1), place(0, 0, 0), place(0, 0, 0)},
		{"obb coincident", must(shape.NewOBB(1, 2)), must(shape.NewOBB(1, 2)), place(5, 5, 0.3), place(5, 5, 1.1)},
		{"polygon coincident", tri, tri, place(1, 1, 0), place(1, 1, math.Pi)},
		{"polygon offset", tri, tri, place(1, 1, 0), place(1.5, 1.2, 0.4)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m1, ok1 := Collide(c.a, c.ta, c.b, c.tb)
			m2, ok2 := Collide(c.b, c.tb, c.a, c.ta)
			if !ok1 || !ok2 {
				t.Fatalf("Collide hit = %v / %v, want both true", ok1, ok2)
			}
			if m2.Normal != m1.Normal.Neg() || m2.Depth != m1.Depth || m2.Points != m1.Points || m2.Count != m1.Count {
				t.Errorf("Collide(b,a) = %+v, want exactly Collide(a,b) = %+v with the normal negated", m2, m1)
			}
		})
	}
}

// TestNearlyAlignedBoxesAreNotAligned is the regression test for the
// box–box shortcut that treated relative rotations within 1e-12 of a
// multiple of 90° as exact, dropping hb·1e-12 from the projection radii: a
// wrong depth on unit boxes and a missed contact on long thin ones.
func TestNearlyAlignedBoxesAreNotAligned(t *testing.T) {
	cases := []struct {
		name   string
		ha, hb shape.Vec2
		pb     shape.Vec2
		angle  float64
		depth  float64 // hand-computed: the overlap on A's Y axis
	}{
		// Overlap on A's Y axis: ha.Y + hb.X|sin| + hb.Y|cos| - |p.Y|.
		{"unit boxes", pt(1, 1), pt(1, 1), pt(0, 1.9999), 1e-12, 1 + 1e-12 + math.Cos(1e-12) - 1.9999},
		{"long boxes", pt(1e5, 1), pt(1e5, 1), pt(0, 2+1e-9), 9e-13, 1 + 1e5*math.Sin(9e-13) + math.Cos(9e-13) - (2 + 1e-9)},
		{"elongated boxes", pt(1000, 1), pt(1000, 1), pt(0, 2-1e-5), 1e-12, 1 + 1000*math.Sin(1e-12) + math.Cos(1e-12) - (2 - 1e-5)},
		{"near 90 degrees", pt(1, 1), pt(1, 1), pt(0, 1.9999), math.Pi/2 + 1e-12, 1 + 1*math.Abs(math.Cos(math.Pi/2+1e-12)) + math.Abs(math.Sin(math.Pi/2+1e-12)) - 1.9999},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := must(shape.NewOBB(c.ha.X, c.ha.Y)), must(shape.NewOBB(c.hb.X, c.hb.Y))
			m, ok := Collide(a, shape.Identity, b, shape.NewTransform(c.pb, c.angle))
			if !ok {
				t.Fatalf("Collide(obb, obb at %v, angle %g) = no hit, want depth %g", c.pb, c.angle, c.depth)
			}
			// Absolute: the inputs near 2 carry rounding of about 4e-16,
			// and the old shortcut was off by 1e-12 and more.
			if math.Abs(m.Depth-c.depth) > 1e-13 {
				t.Errorf("Collide(obb, obb).Depth = %.17g, want %.17g", m.Depth, c.depth)
			}
		})
	}
}
