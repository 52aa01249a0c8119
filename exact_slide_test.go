package collide_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
)

var slideSeed = flag.Uint64("slideseed", 0, "seed for TestExactMoveAndSlide (0: a random one)")

// esBody is a body of a slide test's level.
type esBody struct {
	id     collide.BodyID
	s      collide.Shape
	xf     collide.Transform
	filter collide.Filter
	sensor bool
}

// esDeepest returns the deepest overlap of character ch placed by xf with
// the bodies passing filter f (exact where the float signed distance is
// within 1e-9 of the limit), and the body.
func esDeepest(ch collide.Shape, xf collide.Transform, bodies []*esBody, f collide.Filter, limit float64) (float64, *esBody) {
	box := ch.WorldAABB(xf)
	g := 1e-12 * (1 + math.Abs(box.Min.X) + math.Abs(box.Min.Y))
	box = box.Expand(g)
	worst, who := 0.0, (*esBody)(nil)
	for _, b := range bodies {
		if !woPasses(f, b.id, &woBodyRec{filter: b.filter, sensor: b.sensor}) || !box.Overlaps(b.s.WorldAABB(b.xf).Expand(g)) {
			continue
		}
		for j := range b.s.PartCount() {
			// The float signed distance (errors near 1e-14) decides
			// unless it is within 1e-11 of the limit.
			sd := ebFloatSD(ch, xf, 0, b.s, b.xf, j, xf.Pos)
			if sd >= -limit+1e-11 {
				continue
			}
			if sd <= -limit-1e-11 {
				if -sd > worst {
					worst, who = -sd, b
				}
				continue
			}
			ok, pen := woPen(ebPart(ch, xf, 0), ebPart(b.s, b.xf, j))
			if ok && pen > worst {
				worst, who = pen, b
			}
		}
	}
	return worst, who
}

// TestExactMoveAndSlide moves characters (circle, boxes, capsule, polygon)
// through random levels of every kind of body (thin walls 1/128 thick,
// overlapping walls, corridors, compounds, chains, sensors and filters) at
// 0, 1e6 and 1e12, from free and from wedged starts, and checks with exact
// predicates: the end overlaps no body the filter passes by more than
// 1e-9 of the character's size; a move without hits is the whole delta
// (after the push-out) and its path overlaps nothing; the first leg up to
// the first hit overlaps nothing; against one flat wall (a box, an OBB, a
// chain or a polygon face at any angle) the end is the analytic slide.
func TestExactMoveAndSlide(t *testing.T) {
	seed := oracleSeed(t, *slideSeed, "slideseed")
	t.Logf("seed %d", seed)
	levels, moves := 20, 25
	if testing.Short() {
		levels, moves = 8, 25
	}
	n, hits := 0, 0
	for _, base := range []float64{0, 1e6, 1e12} {
		for lv := range levels {
			r := rand.New(rand.NewPCG(seed, math.Float64bits(base)+uint64(lv)))
			a, h := esLevel(t, r, base, moves, fmt.Sprintf("base %g level %d", base, lv))
			n, hits = n+a, hits+h
			if t.Failed() {
				return
			}
		}
	}
	flat := 0
	for _, base := range []float64{0, 1e6, 1e12} {
		r := rand.New(rand.NewPCG(seed, math.Float64bits(base)^0xf1a7))
		for range 10 * levels {
			esFlatWall(t, r, base, esCharacter(t, r))
			flat++
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d moves through levels (%d hits), %d flat-wall slides", n, hits, flat)
}

func esCharacter(t *testing.T, r *rand.Rand) collide.Shape {
	sz := func() float64 { return woDyad(r, 0.25, 1) }
	switch r.IntN(5) {
	case 0:
		return must[collide.Shape](t)(collide.NewCircle(sz()))
	case 1:
		return must[collide.Shape](t)(collide.NewAABB(sz(), sz()))
	case 2:
		return must[collide.Shape](t)(collide.NewOBB(sz(), sz()))
	case 3:
		return must[collide.Shape](t)(collide.NewCapsule(collide.V(0, -sz()), collide.V(0, sz()), sz()/2))
	}
	return must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -0.5, Y: -0.375}, {X: 0.5, Y: -0.375}, {X: 0.125, Y: 0.625}}))
}

func esLevel(t *testing.T, r *rand.Rand, base float64, moves int, name string) (int, int) {
	origin := collide.V(base, -base)
	w := collide.NewWorld(collide.Config{Workers: 1})
	var bodies []*esBody
	add := func(s collide.Shape, p collide.Vec2, a float64) {
		b := &esBody{s: s, xf: collide.NewTransform(origin.Add(p), a), filter: woFilters[r.IntN(len(woFilters))], sensor: r.IntN(8) == 0}
		if r.IntN(3) != 0 {
			b.filter = collide.Filter{}
		}
		b.id = must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: s, Position: b.xf.Pos, Angle: a, Filter: b.filter, Sensor: b.sensor, Kind: collide.Static}))
		bodies = append(bodies, b)
	}
	angle := func() float64 {
		if r.IntN(2) == 0 {
			return float64(r.IntN(4)) * math.Pi / 2
		}
		return r.Float64() * 2 * math.Pi
	}
	// A corridor, thin walls (some crossing), and bodies of every kind.
	y0 := woDyad(r, -4, 4)
	add(must[collide.Shape](t)(collide.NewAABB(8, 0.25)), collide.V(0, y0-2), 0)
	add(must[collide.Shape](t)(collide.NewAABB(8, 0.25)), collide.V(0, y0+2), 0)
	for range 6 {
		add(must[collide.Shape](t)(collide.NewOBB(woDyad(r, 0.5, 4), 0.0078125)), collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8)), angle())
	}
	for range 8 {
		add(woShape(r), collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8)), angle())
	}
	nhits, nmoves := 0, 0
	for mv := range moves {
		ch := esCharacter(t, r)
		size := ch.BoundingRadius()
		limit := 1e-9 * size
		start := collide.NewTransform(origin.Add(collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8))), angle())
		if r.IntN(3) == 0 {
			start.Pos = origin.Add(collide.V(woDyad(r, -8, 8), y0)) // in the corridor
		}
		delta := collide.V(woDyad(r, -12, 12), woDyad(r, -12, 12))
		switch r.IntN(6) {
		case 0:
			delta = collide.Vec2{}
		case 1:
			delta.Y = 0
		}
		f := woQueryFilters[r.IntN(len(woQueryFilters))]
		if r.IntN(2) == 0 {
			f = collide.Filter{}
		}
		res, err := w.MoveAndSlide(ch, start, delta, f)
		if err != nil {
			t.Fatal(err)
		}
		nmoves++
		nhits += res.Count
		desc := func() string {
			return fmt.Sprintf("%s move %d: MoveAndSlide(%v at %v angle %v, by %v, filter %+v) = %+v", name, mv, ch, start.Pos, start.Rot, delta, f, res)
		}
		end := collide.Transform{Pos: res.Position, Rot: start.Rot}
		if d, b := esDeepest(ch, end, bodies, f, limit); d > limit {
			t.Fatalf("%s: ends %g deep in %v %v at %v", desc(), d, b.id, b.s, b.xf.Pos)
		}
		if d, _ := esDeepest(ch, start, bodies, f, 0); d == 0 && res.Pushed != (collide.Vec2{}) {
			t.Fatalf("%s: the start overlaps nothing, yet it was pushed by %v", desc(), res.Pushed)
		}
		from := start.Pos.Add(res.Pushed)
		if d, b := esDeepest(ch, collide.Transform{Pos: from, Rot: start.Rot}, bodies, f, limit); d > limit {
			t.Fatalf("%s: after the push-out %v still %g deep in %v %v", desc(), res.Pushed, d, b.id, b.s)
		}
		leg := delta
		if res.Count > 0 {
			leg = delta.Scale(res.Hits[0].Fraction)
		} else if !res.Blocked {
			want := from.Add(delta)
			// The final clean-up may push by rounding only.
			if e := res.Position.Sub(want).Len(); e > 1e-9*(size+delta.Len())+4*0x1p-52*(math.Abs(want.X)+math.Abs(want.Y)) {
				t.Fatalf("%s: no hit, but the end is %v from the push-out plus delta %v", desc(), e, want)
			}
		}
		// A sample of the leg is placed to an ulp of its coordinates.
		legLimit := limit + 2*0x1p-52*(math.Abs(from.X)+math.Abs(from.Y))
		for k := 1; k <= 48; k++ {
			p := from.Add(leg.Scale(float64(k) / 48))
			if d, b := esDeepest(ch, collide.Transform{Pos: p, Rot: start.Rot}, bodies, f, legLimit); d > legLimit {
				t.Fatalf("%s: the first leg (to %v) passes %g deep through %v %v at %v", desc(), from.Add(leg), d, b.id, b.s, p)
			}
		}
	}
	return nmoves, nhits
}

// esFlatWall slides character ch (convex, or a compound: every part
// counts) into one long flat wall at any angle and compares the end with
// the analytic slide: the exact time of touching (bisection on the exact
// overlap predicate of every part pair), then along the wall by the
// tangential part of the rest of the motion.
func esFlatWall(t *testing.T, r *rand.Rand, base float64, ch collide.Shape) {
	t.Helper()
	origin := collide.V(base, -base)
	a := r.Float64() * 2 * math.Pi
	if r.IntN(2) == 0 {
		a = float64(r.IntN(4)) * math.Pi / 2
	}
	n := collide.V(-math.Sin(a), math.Cos(a)) // the wall's face normal
	var wall collide.Shape
	switch r.IntN(3) {
	case 0:
		wall = must[collide.Shape](t)(collide.NewOBB(1000, 0.5))
	case 1:
		wall = must[collide.Shape](t)(collide.NewChain([]collide.Vec2{{X: -1000, Y: 0.5}, {X: 1000, Y: 0.5}}, false))
	default:
		wall = must[collide.Shape](t)(collide.ConvexHull([]collide.Vec2{{X: -1000, Y: 0.5}, {X: 1000, Y: 0.5}, {X: 0, Y: -3}}))
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	wxf := collide.NewTransform(origin, a)
	wid := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: wall, Position: origin, Angle: a, Kind: collide.Static}))
	size := ch.BoundingRadius()
	// Start off the face, moving into it.
	tang := collide.V(n.Y, -n.X)
	start := collide.Transform{Pos: origin.Add(n.Scale(0.5 + size + woDyad(r, 0.0625, 3))).Add(tang.Scale(woDyad(r, -20, 20))), Rot: collide.NewTransform(collide.Vec2{}, r.Float64()*6).Rot}
	delta := n.Scale(-woDyad(r, 0.5, 8)).Add(tang.Scale(woDyad(r, -8, 8)))
	res, err := w.MoveAndSlide(ch, start, delta, collide.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	over := func(s float64) bool {
		xf := collide.Transform{Pos: start.Pos.Add(delta.Scale(s)), Rot: start.Rot}
		for i := range ch.PartCount() {
			for j := range wall.PartCount() {
				sd := ebFloatSD(ch, xf, i, wall, wxf, j, xf.Pos)
				if sd < -1e-11 {
					return true
				}
				if sd <= 1e-11 && woOverlaps(ebPart(ch, xf, i), ebPart(wall, wxf, j)) {
					return true
				}
			}
		}
		return false
	}
	if over(0) {
		return
	}
	first := -1.0
	for k := 1; k <= 256; k++ {
		if over(float64(k) / 256) {
			first = float64(k) / 256
			break
		}
	}
	slack := (1e-9*(size+delta.Len()) + 8*0x1p-52*(math.Abs(start.Pos.X)+math.Abs(start.Pos.Y))) / delta.Len()
	desc := func() string {
		return fmt.Sprintf("MoveAndSlide(%v %v from %v angle %v by %v) into a flat %v at angle %v (normal %v) = %+v",
			ch, ch.Parts(), start.Pos, start.Rot.Angle(), delta, wall, a, n, res)
	}
	if first < 0 {
		if res.Count == 1 && res.Hits[0].Fraction >= 1-slack && res.Position.Sub(start.Pos.Add(delta)).Len() <= slack*delta.Len() {
			return // a touch at the end, within rounding
		}
		if res.Position != start.Pos.Add(delta) || res.Count != 0 {
			t.Fatalf("%s: it never enters the wall", desc())
		}
		return
	}
	lo, hi := first-1.0/256, first
	for range 80 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if over(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if lo >= 1-slack && res.Count == 0 && res.Position.Sub(start.Pos.Add(delta)).Len() <= slack*delta.Len() {
		return // a touch at the end, within rounding
	}
	rest := delta.Scale(1 - lo)
	want := start.Pos.Add(delta.Scale(lo)).Add(rest.Sub(n.Scale(rest.Dot(n))))
	tol := 1e-9*(size+delta.Len()) + 8*0x1p-52*(math.Abs(want.X)+math.Abs(want.Y))
	if e := res.Position.Sub(want).Len(); e > tol || res.Count < 1 || res.Hits[0].Body != wid || math.Abs(res.Hits[0].Fraction-lo) > 1e-9+tol/delta.Len() ||
		res.Hits[0].Normal.Sub(n).Len() > 1e-9 {
		t.Fatalf("%s; want the touch at %v and the end at %v (%g off)", desc(), lo, want, e)
	}
}
