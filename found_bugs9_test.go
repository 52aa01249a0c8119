package collide_test

import (
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
)

// TestRayStartInsideCompoundPartBug: a ray starting strictly inside a
// compound's part hit at distance 0 with Part 0 whatever part held its
// origin, while one starting on a part's boundary named that part: a
// hitscan fired from inside a body's second part (a head) was reported on
// its first (the torso). RayHit.Part is the part hit; for a ray that starts
// inside, the (lowest-indexed) part that holds the origin
// (TestHunt9RayAndCastOracle found it).
func TestRayStartInsideCompoundPartBug(t *testing.T) {
	torso, _ := collide.NewOBB(1, 1)
	head, _ := collide.NewCircle(0.5)
	s, err := collide.NewCompound([]collide.Part{
		{Shape: torso, Offset: collide.NewTransform(collide.V(0, 0), 0)},
		{Shape: head, Offset: collide.NewTransform(collide.V(0, 2), 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	id, _ := w.Add(collide.BodyDef{Shape: s, Position: collide.V(10, 0)})
	for _, c := range []struct {
		name   string
		origin collide.Vec2
		part   int
	}{
		{"inside the head", collide.V(10, 2.1), 1},
		{"on the head's top", collide.V(10, 2.5), 1},
		{"inside the torso", collide.V(10.5, 0), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, ok, err := w.RayCast(c.origin, collide.V(1, 0), 5, collide.Filter{})
			if err != nil || !ok || h.Body != id || h.Distance != 0 || h.Part != c.part {
				t.Errorf("RayCast from %v = %+v, %v, %v; want body %v part %d at distance 0", c.origin, h, ok, err, id, c.part)
			}
			n := 0
			_ = w.RayCastAll(c.origin, collide.V(1, 0), 5, collide.Filter{}, func(h collide.RayHit) bool {
				n++
				if h.Part != c.part {
					t.Errorf("RayCastAll from %v: %+v, want part %d", c.origin, h, c.part)
				}
				return true
			})
			if n != 1 {
				t.Errorf("RayCastAll from %v: %d hits, want 1", c.origin, n)
			}
		})
	}
}

// TestRayFromChainVertexNormalBug: a ray starting on a chain (here at a
// joint, where rounding puts the origin on one segment and a hair off the
// other) hit at distance 0 with the off segment's surface normal, though
// ContainsPoint holds there and RayCast's contract for an origin on the
// shape is Point = origin, Normal = -dir, as for every other kind
// (TestHunt9RayAndCastOracle found it). The chain was turned by
// 0.123645547901309 rad in the report; since ContainsPoint decides a
// segment exactly (segmentHolds), no float point near that turned joint
// is on either segment, so the chain is placed unturned here, where the
// joint is exactly on both.
func TestRayFromChainVertexNormalBug(t *testing.T) {
	ch, err := collide.NewChain([]collide.Vec2{{X: 0.25, Y: -1}, {X: -1, Y: 0.5}, {X: -0.75, Y: -0.75}}, false)
	if err != nil {
		t.Fatal(err)
	}
	xf := collide.NewTransform(collide.V(-0.25, 0.5), 0)
	ps, pt := ch.Part(1, xf)
	p0, _ := ps.Segment()
	origin := pt.Apply(p0) // the joint, as segment 1 places it
	dir := collide.V(0.5997851542971246, -0.8001610892094007)
	w := collide.NewWorld(collide.Config{Workers: 1})
	id, _ := w.Add(collide.BodyDef{Shape: ch, Position: xf.Pos, Angle: 0, Kind: collide.Static})
	in := false
	_ = w.QueryPoint(origin, collide.Filter{}, func(collide.BodyID) bool { in = true; return false })
	if !in {
		t.Fatalf("QueryPoint(%v) finds no chain: the case no longer starts on it", origin)
	}
	h, ok, err := w.RayCast(origin, dir, 5, collide.Filter{})
	if err != nil || !ok || h.Body != id || h.Distance != 0 || h.Point != origin || h.Normal != dir.Neg() {
		t.Errorf("RayCast from the joint %v = %+v, %v, %v; want distance 0 at the origin with normal %v", origin, h, ok, err, dir.Neg())
	}
	if ps, pt := ch.Part(h.Part, xf); !narrowphase.ContainsPoint(ps, pt, origin) {
		t.Errorf("RayCast from the joint names part %d, which does not hold the origin", h.Part)
	}
}

// TestRayAlongSegmentFromOnItBug: a ray starting on a segment's line,
// between its ends, and running along it (to the last bit in the
// segment's frame, though its origin rounds a hair off the segment, so
// that ContainsPoint says no) was taken to enter the segment at its far
// end: a shot fired along a sloped chain floor from a point on it hit the
// floor 0.28 ahead instead of where it started (TestHunt9RayAndCastOracle,
// seed 12474703773091830639, found it).
func TestRayAlongSegmentFromOnItBug(t *testing.T) {
	seg, _ := collide.NewSegment(collide.V(-1.5018365512563467, -0.8573566350731039), collide.V(-0.4188690241215012, -0.8573566350731039))
	chain, _ := collide.NewChain([]collide.Vec2{{X: -2, Y: 0}, {X: -1.5018365512563467, Y: -0.8573566350731039}, {X: -0.4188690241215012, Y: -0.8573566350731039}, {X: 1, Y: 0}}, false)
	pos, angle := collide.V(-3.2421039422462608, -4.022750400074908), -1.1929880826202304
	origin := collide.V(-4.296153277953222, -3.6910574964415206)
	dir := collide.V(0.4084140878110025, -1.0290786722009986)
	for _, s := range []collide.Shape{seg, chain} {
		w := collide.NewWorld(collide.Config{Workers: 1})
		id, _ := w.Add(collide.BodyDef{Shape: s, Position: pos, Angle: angle, Kind: collide.Static})
		h, ok, err := w.RayCast(origin, dir, 1.75, collide.Filter{})
		if err != nil || !ok || h.Body != id || h.Distance != 0 {
			t.Errorf("%v: RayCast from %v (%.3g from the segment, between its ends) along it = %+v, %v, %v; want a hit at distance 0",
				s, origin, narrowphase.Distance(s, collide.NewTransform(pos, angle), origin), h, ok, err)
		}
	}
}
