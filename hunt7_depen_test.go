package collide_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
)

var wedgeSeed = flag.Uint64("wedgeseed", 0, "seed for TestDepenetrateWedgesOracle (0: a random one)")

// TestDepenetrateWedgesOracle wedges characters (circles, boxes,
// capsules, triangles, an L and two discs as compounds, at any angle)
// among three to five bodies (thin walls, boxes, polygons, capsules,
// chains through the spot, compounds) laid across one spot, at 0, 1e6 and
// 1e12, and checks Depenetrate against a search of its own: the push must
// leave the character overlapping no body by more than 1e-9 of its size
// (esDeepest: exact predicates near the limit), be zero when nothing is
// overlapped, and be short against the shortest free translation that
// dense sampling finds (720 directions, each marched out to the push's
// length, and from 1e-12 of the size out in tenfold steps): below 1e-3 of
// the size where sampling frees it within rounding (1e-6 of the size and
// a few ulps of the place), and at most ten times as long elsewhere: a
// push through a wall where a short way out exists is caught.
// (Depenetrate's rounds are greedy: pushes beyond 1.5 times the shortest
// are counted, not failed; see the test.)
func TestDepenetrateWedgesOracle(t *testing.T) {
	seed := oracleSeed(t, *wedgeSeed, "wedgeseed")
	cases := 120
	switch {
	case testing.Short():
		cases = 12 // the quick gate
	case raceEnabled:
		cases = 25
	}
	pushed, long := 0, 0
	for _, base := range []float64{0, 1e6, 1e12} {
		for c := range cases {
			r := rand.New(rand.NewPCG(seed, math.Float64bits(base)+uint64(c)))
			if h7Wedge(t, r, base, fmt.Sprintf("seed %d base %g case %d", seed, base, c), &long) {
				pushed++
			}
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d pushes checked, %d more than 1.5 times the shortest sampled", pushed, long)
	if pushed < cases/2 {
		t.Fatalf("only %d pushes: the test proves little", pushed)
	}
}

func h7Wedge(t *testing.T, r *rand.Rand, base float64, name string, long *int) bool {
	t.Helper()
	origin := collide.V(base, -base)
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	var bodies []*esBody
	add := h7Adder(t, w, origin, &bodies)
	angle := func() float64 {
		if r.IntN(3) == 0 {
			return float64(r.IntN(8)) * math.Pi / 4
		}
		return r.Float64() * 2 * math.Pi
	}
	n := 3 + r.IntN(3)
	for range n {
		a := angle()
		// A body whose surface passes within about a unit of the spot.
		off := collide.V(-math.Sin(a), math.Cos(a)).Scale(woDyad(r, -1.5, 1.5))
		var s collide.Shape
		switch r.IntN(6) {
		case 0:
			s = must[collide.Shape](t)(collide.NewOBB(woDyad(r, 1, 5), 0.0078125))
		case 1:
			hh := woDyad(r, 0.25, 2)
			s = must[collide.Shape](t)(collide.NewOBB(woDyad(r, 1, 4), hh))
			off = off.Add(collide.V(-math.Sin(a), math.Cos(a)).Scale(-hh))
		case 2:
			s = must[collide.Shape](t)(collide.NewCapsule(collide.V(-woDyad(r, 0.5, 3), 0), collide.V(woDyad(r, 0.5, 3), 0), woDyad(r, 0.125, 1)))
		case 3:
			s = must[collide.Shape](t)(collide.NewChain([]collide.Vec2{{X: -woDyad(r, 1, 4), Y: woDyad(r, -1, 1)}, {X: 0, Y: 0}, {X: woDyad(r, 1, 4), Y: woDyad(r, -1, 1)}}, false))
		default:
			s = woShape(r)
		}
		add(s, off, a)
	}
	var ch collide.Shape
	sz := func() float64 { return woDyad(r, 0.125, 0.75) }
	switch r.IntN(6) {
	case 4: // an L
		ch = must[collide.Shape](t)(collide.NewConcavePolygon([]collide.Vec2{{X: -0.25, Y: -0.25}, {X: 0.375, Y: -0.25}, {X: 0.375, Y: -0.0625}, {X: -0.0625, Y: -0.0625}, {X: -0.0625, Y: 0.375}, {X: -0.25, Y: 0.375}}))
	case 5: // two discs
		ch = must[collide.Shape](t)(collide.NewCompound([]collide.Part{
			{Shape: must[collide.Shape](t)(collide.NewCircle(0.1875)), Offset: collide.NewTransform(collide.V(-0.1875, 0), 0)},
			{Shape: must[collide.Shape](t)(collide.NewCircle(0.125)), Offset: collide.NewTransform(collide.V(0.25, 0.0625), 0)},
		}))
	case 0:
		ch = must[collide.Shape](t)(collide.NewCircle(sz()))
	case 1:
		ch = must[collide.Shape](t)(collide.NewOBB(sz(), sz()))
	case 2:
		ch = must[collide.Shape](t)(collide.NewCapsule(collide.V(0, -sz()), collide.V(0, sz()), sz()/2))
	default:
		ch = must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.375, Y: -0.25}, {X: 0.375, Y: -0.25}, {X: 0.125, Y: 0.5}}))
	}
	xf := collide.NewTransform(origin.Add(collide.V(woDyad(r, -0.5, 0.5), woDyad(r, -0.5, 0.5))), angle())
	size := ch.BoundingRadius()
	limit := 1e-9 * size
	d, err := w.Depenetrate(ch, xf, collide.Filter{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	desc := func() string {
		s := fmt.Sprintf("%s: Depenetrate(%v at %v angle %v) = %v (length %g)", name, ch, xf.Pos, xf.Rot.Angle(), d, d.Len())
		for _, b := range bodies {
			s += fmt.Sprintf("\n  body %v: %v at %v angle %v", b.id, b.s, b.xf.Pos, b.xf.Rot.Angle())
		}
		return s
	}
	start, _ := h7Deepest(ch, xf, bodies, 0, origin)
	if start == 0 {
		if d != (collide.Vec2{}) {
			t.Fatalf("%s: overlaps nothing, yet pushed", desc())
		}
		return false
	}
	end := collide.Transform{Pos: xf.Pos.Add(d), Rot: xf.Rot}
	if dd, b := h7Deepest(ch, end, bodies, limit, origin); dd > limit {
		t.Fatalf("%s: still %g deep in %v", desc(), dd, b.id)
	}
	// The shortest free translation that sampling finds, up to |d|.
	free := func(x collide.Vec2) bool {
		p := collide.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}
		for _, b := range bodies {
			if narrowphase.Overlap(ch, p, b.s, b.xf) {
				return false
			}
		}
		return true
	}
	l := d.Len()
	best := math.Inf(1)
	const dirs, steps = 720, 96
	for k := range dirs {
		sn, cs := math.Sincos(2 * math.Pi * float64(k) / dirs)
		u := collide.V(cs, sn)
		// Out to the push's length in even steps, and near the start in
		// steps growing tenfold from 1e-12 of the size (a wedge left by
		// rounding opens by so little).
		for s := 1e-12 * size; s < l/steps && s < best; s *= 10 {
			if free(u.Scale(s)) {
				best = s
				break
			}
		}
		for i := 1; i <= steps; i++ {
			s := l * float64(i) / steps
			if s >= best {
				break
			}
			if free(u.Scale(s)) {
				best = s
				break
			}
		}
	}
	// Depenetrate's rounds are greedy (a move out of one body into another
	// is followed from there), so the push may be longer than the
	// shortest; three times as long, or a push of more than 1e-6 of the
	// size where sampling frees the shape within 1e-6, is a wrong answer.
	ulps := 8 * 0x1p-52 * (math.Abs(xf.Pos.X) + math.Abs(xf.Pos.Y)) // a place rounds by an ulp
	// A way out within rounding (a wedge the slide left) must be taken;
	// otherwise the rounds are greedy (a valid escape out of the bodies
	// overlapped in the first round wins over a shorter one found by
	// moving on from a push into another body), so only a push ten times
	// the shortest fails, and those beyond 1.5 times are counted.
	// Taken, the push may exceed that way out by 1e-3 of the size and by
	// rounding (tiny: at 1e12 an ulp of the place is 1.2e-4, and tiny
	// reaches 3.6e-3), not be within them in all: a way out within
	// rounding can be a real overlap of as many ulps (at 1e12 a disc 3.3e-3
	// deep in a disc, TestDepenetrateShallowOverlapFarOut), whose push is
	// the MTV plus PushOut's margin of 4·2⁻⁵² of the coordinates (8.9e-4,
	// 7 ulps of the place).
	if tiny := 1e-6*(1+size) + ulps; (best <= tiny && l > best+1e-3*size+tiny) || l > 10*best+tiny {
		t.Fatalf("%s: sampling finds a way out %g long", desc(), best)
	}
	if l > 1.5*best+1e-6*(1+size)+ulps {
		*long++
	}
	return true
}
