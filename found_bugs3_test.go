package collide_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
)

// stepContacts steps w and returns its contacts.
func stepContacts(w *collide.World) []collide.Contact {
	w.Step()
	var cs []collide.Contact
	for c := range w.Contacts() {
		cs = append(cs, c)
	}
	return cs
}

// TestBulletPassesStillBulletBug: a bullet that did not move since the
// previous Step was never swept against a bullet that passed through it:
// the pair of two bullets was left to the lower slot, and a bullet that did
// not move is skipped. Ball A (radius 0.5, a bullet) stays at the origin;
// ball B (a bullet, higher slot) goes from (−10, 0) to (10, 0) through it:
// no contact.
func TestBulletPassesStillBulletBug(t *testing.T) {
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	w := collide.NewWorld(collide.Config{Workers: 1})
	a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Bullet: true}))
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(-10, 0), Bullet: true}))
	w.Step()
	_ = w.SetTransform(b, collide.V(10, 0), 0)
	cs := stepContacts(w)
	if len(cs) != 1 || cs[0].A != a || cs[0].B != b || !cs[0].Swept || cs[0].TOI != 0.45 {
		t.Fatalf("contacts %+v, want one swept contact of %v and %v at TOI 0.45", cs, a, b)
	}
}

// TestBulletsCrossingBug: two bullets whose paths cross at the same moment
// were not swept against each other: the lower slot's sweep searched its
// own swept box for bodies where they are now, and the other bullet ended
// far from it. A goes from (0, 0) to (1, 0), B from (0.5, −10) to
// (0.5, 10): at half the step both are at (0.5, 0). No contact.
func TestBulletsCrossingBug(t *testing.T) {
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	for _, workers := range []int{1, 4} {
		w := collide.NewWorld(collide.Config{Workers: workers})
		a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Bullet: true}))
		b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(0.5, -10), Bullet: true}))
		w.Step()
		_ = w.SetTransform(a, collide.V(1, 0), 0)
		_ = w.SetTransform(b, collide.V(0.5, 10), 0)
		cs := stepContacts(w)
		if len(cs) != 1 || cs[0].A != a || cs[0].B != b || !cs[0].Swept || !(cs[0].TOI > 0.44 && cs[0].TOI < 0.46) {
			t.Fatalf("workers %d: contacts %+v, want one swept contact of %v and %v near TOI 0.45", workers, cs, a, b)
		}
	}
}

// TestBulletSweptContactPartBug: a swept contact named no parts (0 and 0)
// even when a compound or a chain was touched: a ball bullet going from
// (−10, 2) to (10, 2) through the chain (−5, 0) (0, 0) (0, 5) (5, 5)
// first touches segment 1 (the vertical one), and the contact said
// PartA 0. Likewise a compound bullet whose second part leads.
func TestBulletSweptContactPartBug(t *testing.T) {
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	chain := must[collide.Shape](t)(collide.NewChain([]collide.Vec2{collide.V(-5, 0), collide.V(0, 0), collide.V(0, 5), collide.V(5, 5)}, false))
	w := collide.NewWorld(collide.Config{Workers: 1})
	c := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: chain, Kind: collide.Static}))
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(-10, 2), Bullet: true}))
	w.Step()
	_ = w.SetTransform(b, collide.V(10, 2), 0)
	cs := stepContacts(w)
	if len(cs) != 1 || cs[0].A != c || cs[0].PartA != 1 || cs[0].PartB != 0 || cs[0].TOI != 0.475 {
		t.Fatalf("contacts %+v, want one swept contact of chain %v part 1 and ball %v at TOI 0.475", cs, c, b)
	}

	// A compound bullet: part 0 trails at (−3, 0), part 1 leads at (3, 0).
	small := must[collide.Shape](t)(collide.NewCircle(0.5))
	comp := must[collide.Shape](t)(collide.NewCompound([]collide.Part{
		{Shape: small, Offset: collide.NewTransform(collide.V(-3, 0), 0)},
		{Shape: small, Offset: collide.NewTransform(collide.V(3, 0), 0)},
	}))
	wall := must[collide.Shape](t)(collide.NewOBB(0.5, 5))
	w = collide.NewWorld(collide.Config{Workers: 1})
	wl := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: wall, Position: collide.V(10, 0), Kind: collide.Static}))
	cb := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: comp, Bullet: true}))
	w.Step()
	_ = w.SetTransform(cb, collide.V(20, 0), 0)
	cs = stepContacts(w)
	// Part 1 (right edge at 3.5) reaches the wall's face at 9.5 after 6 of
	// the 20 units.
	if len(cs) != 1 || cs[0].A != wl || cs[0].PartB != 1 || cs[0].PartA != 0 || cs[0].TOI != 0.3 {
		t.Fatalf("contacts %+v, want one swept contact of wall %v and compound %v part 1 at TOI 0.3", cs, wl, cb)
	}
}

// TestBulletTouchingIsNotSweptContactBug: touching is not a contact, but a
// bullet swept along or away from a body it only touched got a swept
// contact with it: the sweep took the cast's first touch (touching counts
// for a cast) as a contact. A ball of radius 0.5 resting against a box's
// face at x = 1 and moving away, and one sliding along that face at
// exactly touching distance, each got a contact (TOI 0 and 1/3).
func TestBulletTouchingIsNotSweptContactBug(t *testing.T) {
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	box := must[collide.Shape](t)(collide.NewAABB(1, 1))
	cases := []struct {
		name     string
		from, to collide.Vec2
	}{
		{"away", collide.V(1.5, 0), collide.V(5, 0)},
		{"along the face", collide.V(1.5, 3), collide.V(1.5, -3)},
		{"along the face far", collide.V(1.5, 1e6), collide.V(1.5, -1e6)},
		{"to touching", collide.V(5, 0), collide.V(1.5, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := collide.NewWorld(collide.Config{Workers: 1})
			w.Add(collide.BodyDef{Shape: box, Kind: collide.Static})
			b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: c.from, Bullet: true}))
			w.Step()
			_ = w.SetTransform(b, c.to, 0)
			if cs := stepContacts(w); len(cs) != 0 {
				t.Fatalf("bullet from %v to %v beside the box [-1, 1]²: contacts %+v, want none (it never overlaps the box)", c.from, c.to, cs)
			}
		})
	}
}

// TestBulletTurningSegmentsNeverContactBug: segments (and chains) never
// overlap segments, so a Step never reports a contact of two, but a
// turning segment bullet swept across a segment or a chain got a swept
// contact: the turning sweep (TimeOfImpact) counts a touch. A segment
// (−1, 0)–(1, 0) bullet from (0, 2) at angle 0 to (0, −2) at angle 0.1,
// across the static segment (−1, 0)–(1, 0) at the origin.
func TestBulletTurningSegmentsNeverContactBug(t *testing.T) {
	seg := must[collide.Shape](t)(collide.NewSegment(collide.V(-1, 0), collide.V(1, 0)))
	chain := must[collide.Shape](t)(collide.NewChain([]collide.Vec2{collide.V(-2, 0), collide.V(0, 0), collide.V(2, 0.5)}, false))
	for _, still := range []collide.Shape{seg, chain} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		w.Add(collide.BodyDef{Shape: still, Kind: collide.Static})
		b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: seg, Position: collide.V(0, 2), Bullet: true}))
		w.Step()
		_ = w.SetTransform(b, collide.V(0, -2), 0.1)
		if cs := stepContacts(w); len(cs) != 0 {
			t.Errorf("a turning segment swept across a %v: contacts %+v, want none", still, cs)
		}
	}
}

// TestBulletTurningAwayFromTouchBug: a box bullet resting on a box
// (touching, no contact) that turns a little as it lifts off got a swept
// contact at TOI 0: the turning sweep (TimeOfImpact) gives 0 for shapes
// touching at the start.
func TestBulletTurningAwayFromTouchBug(t *testing.T) {
	box := must[collide.Shape](t)(collide.NewOBB(1, 1))
	w := collide.NewWorld(collide.Config{Workers: 1})
	w.Add(collide.BodyDef{Shape: box, Kind: collide.Static})
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: box, Position: collide.V(0, 2), Bullet: true}))
	w.Step()
	_ = w.SetTransform(b, collide.V(0, 6), 0.1)
	if cs := stepContacts(w); len(cs) != 0 {
		t.Errorf("a box lifting off a box it touched, turning by 0.1: contacts %+v, want none", cs)
	}
}

// TestMoveAndSlideEndTouchingNotBlockedBug: a move that ends exactly
// touching a wall moved by the whole delta, yet MoveAndSlide said Blocked
// and listed the wall as a hit at Fraction 1. A ball of radius 0.5 at the
// origin moved by (0.5, 0), or by (0.5, 3), beside a wall whose face is
// at x = 1.
func TestMoveAndSlideEndTouchingNotBlockedBug(t *testing.T) {
	wall := must[collide.Shape](t)(collide.NewAABB(0.5, 10))
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	for _, base := range []float64{0, 1e6} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		_, _ = w.Add(collide.BodyDef{Shape: wall, Position: collide.V(base+1.5, base), Kind: collide.Static})
		for _, d := range []collide.Vec2{collide.V(0.5, 0), collide.V(0.5, 3)} {
			start := collide.V(base, base)
			r, err := w.MoveAndSlide(ball, collide.NewTransform(start, 0), d, collide.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Position != start.Add(d) || r.Blocked || r.Count != 0 {
				t.Errorf("MoveAndSlide(ball at %v by %v), the end touching the wall's face at x = %v: %+v; want the whole delta, not blocked, no hit", start, d, base+1, r)
			}
		}
	}
}

// TestBulletTurningThroughThinWallBug: a square bullet turning in place
// swept a corner through a thin wall (0.0078 thick) and got no contact:
// the turning sweep's check that a touch goes on to overlap sampled nine
// times between the first and the last touch, and the corner's short
// passage through the wall fell between them (this branch's first fix of
// TestBulletTurningAwayFromTouchBug, caught by TestExactBulletSweeps). An
// OBB 1.625×1.625 at (3.5625, 6.5625) turning from 0 to −1.78, the wall
// an OBB 0.9375×0.0078125 at (5.8125, 4.75); at 0 and at 1e6.
func TestBulletTurningThroughThinWallBug(t *testing.T) {
	sq := must[collide.Shape](t)(collide.NewOBB(1.625, 1.625))
	wall := must[collide.Shape](t)(collide.NewOBB(0.9375, 0.0078125))
	for _, base := range []collide.Vec2{collide.V(0, 0), collide.V(1e6, -1e6)} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		wl := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: wall, Position: base.Add(collide.V(5.8125, 4.75)), Kind: collide.Static}))
		b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: sq, Position: base.Add(collide.V(3.5625, 6.5625)), Bullet: true}))
		w.Step()
		_ = w.SetTransform(b, base.Add(collide.V(3.5625, 6.5625)), -1.7814578690717089)
		cs := stepContacts(w)
		if len(cs) != 1 || cs[0].A != wl || !cs[0].Swept {
			t.Errorf("at %v: the square's corner sweeps through the wall; contacts %+v, want one swept contact", base, cs)
		}
	}
}

// TestBulletTurningGrazeIsNoContactBug: a compound bullet turning in place
// at 1e6 grazed an AABB's corner on the way and parted from it without
// overlapping, yet got a swept contact: TimeOfImpactEnter took a touch
// reached from a gap as the start of an overlap. TestExactBulletSweeps
// found it (seed 12645749825495403044, base 1e6, scene 3); this replays
// that scene.
func TestBulletTurningGrazeIsNoContactBug(t *testing.T) {
	const seed = 12645749825495403044
	base := 1e6
	r := rand.New(rand.NewPCG(seed, math.Float64bits(base)+3))
	ebScene(t, r, base, 64, "base 1e6 scene 3 of seed 12645749825495403044")
}
