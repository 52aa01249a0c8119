package collide_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
)

// starOutline returns a simple star-shaped outline: n vertices at random
// radii around the origin, counter-clockwise (clockwise when cw).
func starOutline(rng *rand.Rand, n int, cw bool) []collide.Vec2 {
	pts := make([]collide.Vec2, n)
	for i := range pts {
		a := 2 * math.Pi * (float64(i) + 0.3*rng.Float64()) / float64(n)
		r := 1 + 4*rng.Float64()
		if i%2 == 1 && rng.IntN(2) == 0 {
			r *= 0.3 // a spike between two deep notches
		}
		if cw {
			a = -a
		}
		pts[i] = collide.V(r*math.Cos(a), r*math.Sin(a))
	}
	return pts
}

// outlineDist returns the distance from p to the region bounded by the
// simple outline (0 inside), by a crossing-number point-in-polygon test and
// a scan of the edges: no decomposition involved.
func outlineDist(outline []collide.Vec2, p collide.Vec2) float64 {
	inside := false
	best := math.Inf(1)
	for i, a := range outline {
		b := outline[(i+1)%len(outline)]
		if (a.Y > p.Y) != (b.Y > p.Y) {
			x := a.X + (p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if p.X < x {
				inside = !inside
			}
		}
		e, w := b.Sub(a), p.Sub(a)
		u := math.Max(0, math.Min(1, w.Dot(e)/e.Dot(e)))
		best = math.Min(best, math.Hypot(w.X-u*e.X, w.Y-u*e.Y))
	}
	if inside {
		return 0
	}
	return best
}

// TestConcaveBodyMatchesOutline puts concave bodies (NewConcavePolygon of
// random star outlines, either winding, turned and moved) in a World among
// random circles: after Step, a circle has a contact with a concave body
// exactly when it overlaps the outline, decided independently of the
// decomposition; every contact names valid, distinct part pairs.
func TestConcaveBodyMatchesOutline(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	rounds := 40
	if testing.Short() {
		rounds = 8
	}
	checked, hits := 0, 0
	for round := range rounds {
		outline := starOutline(rng, 6+rng.IntN(40), round%2 == 1)
		s, err := collide.NewConcavePolygon(outline)
		if err != nil {
			t.Fatalf("NewConcavePolygon(%v): %v", outline, err)
		}
		w := collide.NewWorld(collide.Config{})
		pos, angle := collide.V(100*rng.Float64(), -50*rng.Float64()), 2*math.Pi*rng.Float64()
		body, err := w.Add(collide.BodyDef{Shape: s, Position: pos, Angle: angle, Kind: collide.Static})
		if err != nil {
			t.Fatal(err)
		}
		xf := collide.NewTransform(pos, angle)
		type circ struct {
			id collide.BodyID
			c  collide.Vec2
			r  float64
		}
		var cs []circ
		for range 60 {
			r := 0.05 + 0.6*rng.Float64()
			c := xf.Apply(collide.V(12*rng.Float64()-6, 12*rng.Float64()-6))
			sh, _ := collide.NewCircle(r)
			id, err := w.Add(collide.BodyDef{Shape: sh, Position: c})
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, circ{id, c, r})
		}
		w.Step()
		touched := map[collide.BodyID]bool{}
		seen := map[[2]int]bool{}
		for c := range w.Contacts() {
			if c.A != body && c.B != body {
				continue
			}
			c = c.From(body)
			if c.PartA < 0 || c.PartA >= len(s.Parts()) || c.PartB != 0 {
				t.Fatalf("contact %+v names parts %d, %d; the body has %d parts", c, c.PartA, c.PartB, len(s.Parts()))
			}
			key := [2]int{int(c.B), c.PartA}
			if seen[key] {
				t.Fatalf("two contacts of body %v with part %d", c.B, c.PartA)
			}
			seen[key] = true
			touched[c.B] = true
		}
		for _, c := range cs {
			d := outlineDist(outline, xf.ApplyInv(c.c))
			if math.Abs(d-c.r) < 1e-9 {
				continue // touching within rounding: either answer
			}
			checked++
			want := d < c.r
			if want {
				hits++
			}
			if touched[c.id] != want {
				t.Errorf("round %d: circle r=%.4g at %v, %.6g from the outline: contact = %v, want %v", round, c.r, c.c, d, touched[c.id], want)
			}
		}
	}
	if hits < checked/10 || hits == checked {
		t.Fatalf("%d of %d circles overlap: the scene is broken", hits, checked)
	}
	t.Logf("%d circles checked, %d overlap", checked, hits)
}

// TestCompoundContactsPerPart moves a circle across a two-part compound:
// the contact with each part begins and ends on its own.
func TestCompoundContactsPerPart(t *testing.T) {
	left, _ := collide.NewOBB(1, 1)
	right, _ := collide.NewCapsule(collide.V(0, -1), collide.V(0, 1), 0.5)
	s, err := collide.NewCompound([]collide.Part{
		{Shape: left, Offset: collide.NewTransform(collide.V(-2, 0), 0)},
		{Shape: right, Offset: collide.NewTransform(collide.V(2, 0), 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := collide.NewWorld(collide.Config{})
	body, _ := w.Add(collide.BodyDef{Shape: s, Kind: collide.Static})
	ball, _ := collide.NewCircle(0.25)
	mover, _ := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(-5, 0)})
	type ev struct {
		step  int
		began bool
		part  int
	}
	var got []ev
	for step := range 40 {
		w.Step()
		for c := range w.Began() {
			got = append(got, ev{step, true, c.From(body).PartA})
		}
		for c := range w.Ended() {
			got = append(got, ev{step, false, c.From(body).PartA})
		}
		if err := w.Move(mover, collide.V(0.25, 0)); err != nil {
			t.Fatal(err)
		}
	}
	// The ball (radius 0.25, centre at -5 + 0.25·step) overlaps part 0
	// (x in [-3, -1]) for centres in (-3.25, -0.75), part 1 (x in [1.5,
	// 2.5]) for centres in (1.25, 2.75); at -0.75 and 2.75 they touch.
	want := []ev{{8, true, 0}, {17, false, 0}, {26, true, 1}, {31, false, 1}} // ended when they only touch
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %v, want %v", got, want)
		}
	}
	if _, err := w.Body(body); err != nil {
		t.Fatal(err)
	}
}

// TestRayHitNamesPart casts a ray across a compound: the hit names the
// part entered first.
func TestRayHitNamesPart(t *testing.T) {
	a, _ := collide.NewCircle(1)
	b, _ := collide.NewSegment(collide.V(0, -1), collide.V(0, 1))
	s, _ := collide.NewCompound([]collide.Part{
		{Shape: a, Offset: collide.NewTransform(collide.V(5, 0), 0)},
		{Shape: b, Offset: collide.NewTransform(collide.V(2, 0), 0)},
	})
	w := collide.NewWorld(collide.Config{})
	id, _ := w.Add(collide.BodyDef{Shape: s, Kind: collide.Static})
	h, ok, err := w.RayCast(collide.V(0, 0), collide.V(1, 0), 100, collide.Filter{})
	if err != nil || !ok {
		t.Fatalf("RayCast: %v %v", ok, err)
	}
	if h.Body != id || h.Part != 1 || h.Distance != 2 {
		t.Fatalf("RayCast = %+v, want body %v part 1 at distance 2", h, id)
	}
	h, ok, _ = w.RayCast(collide.V(10, 0), collide.V(-1, 0), 100, collide.Filter{})
	if !ok || h.Part != 0 || h.Distance != 4 {
		t.Fatalf("RayCast from the right = %+v, want part 0 at distance 4", h)
	}
}

// TestMoveAndSlideAlongChainNoSnag walks a capsule and a box along a floor
// made of a chain of collinear segments of uneven length, pressing down a
// little every move: they slide the whole way, never stopped by a joint,
// and stay on the floor.
func TestMoveAndSlideAlongChainNoSnag(t *testing.T) {
	var pts []collide.Vec2
	for x := -50.0; x <= 50; x += 0.3 + 0.4*math.Abs(math.Sin(x)) {
		pts = append(pts, collide.V(x, 1))
	}
	floor, err := collide.NewChain(pts, false)
	if err != nil {
		t.Fatal(err)
	}
	w := collide.NewWorld(collide.Config{})
	if _, err := w.Add(collide.BodyDef{Shape: floor, Kind: collide.Static}); err != nil {
		t.Fatal(err)
	}
	capsule, _ := collide.NewCapsule(collide.V(0, -0.5), collide.V(0, 0.5), 0.4)
	box, _ := collide.NewOBB(0.4, 0.6)
	for _, c := range []struct {
		s    collide.Shape
		half float64 // from the origin down to the shape's bottom
	}{{capsule, 0.9}, {box, 0.6}} {
		s := c.s
		pos := collide.V(-40, 1+c.half)
		for step := range 600 {
			r, err := w.MoveAndSlide(s, collide.NewTransform(pos, 0), collide.V(0.13, -0.01), collide.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Position.X < pos.X+0.13-1e-9 {
				t.Fatalf("%v step %d at x=%.4f: moved only %.6g of 0.13 (hits %+v)", s, step, pos.X, r.Position.X-pos.X, r.Hits[:r.Count])
			}
			if math.Abs(r.Position.Y-(1+c.half)) > 1e-6 {
				t.Fatalf("%v step %d: y = %.9f, want %g (on the floor)", s, step, r.Position.Y, 1+c.half)
			}
			pos = r.Position
		}
	}
}
