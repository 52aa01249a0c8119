package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCapsuleEndCapVersusSide: a box corner against a capsule's round end
// is pushed out along the corner's direction from the end's centre, not
// along the capsule's side normal, and a box beside the side along the
// side normal.
func TestCapsuleEndCapVersusSide(t *testing.T) {
	capsule := npCapsule(t, xy(-2, 0), xy(2, 0), 1)
	sq2 := math.Sqrt2
	npRunCases(t, []npCase{
		{name: "corner into the end cap", a: capsule, b: npAABB(t, 1, 1), tb: npAt(2.6+1, 0.6+1, 0),
			hit: true, depth: 1 - 0.6*sq2, normal: xy(1/sq2, 1/sq2)},
		{name: "corner beside the end cap, inside its box", a: capsule, b: npAABB(t, 1, 1), tb: npAt(2.8+1, 0.8+1, 0)},
		{name: "face on the side", a: capsule, b: npAABB(t, 1, 1), tb: npAt(0, 0.75+1, 0),
			hit: true, depth: 0.25, normal: xy(0, 1)},
		{name: "face on the end", a: capsule, b: npAABB(t, 1, 1), tb: npAt(2.75+1, 0, 0),
			hit: true, depth: 0.25, normal: xy(1, 0)},
	})
}

// TestParallelCapsulesTwoPoints: capsules lying side by side give two
// contact points, one at each end of their common span, each at the
// manifold's depth.
func TestParallelCapsulesTwoPoints(t *testing.T) {
	a := npCapsule(t, xy(-2, 0), xy(2, 0), 0.5)
	b := npCapsule(t, xy(-1, 0), xy(3, 0), 0.5)
	for _, angle := range []float64{0, 0.3, math.Pi / 2, 2.5} {
		ta := npAt(10, -4, angle)
		tb := ta
		tb.Pos = ta.Apply(xy(0, 0.75)).Sub(ta.Rot.Apply(xy(0, 0)))
		m, ok := narrowphase.Collide(a, ta, b, tb)
		if !ok || m.Count != 2 || math.Abs(m.Depth-0.25) > 1e-12 {
			t.Fatalf("angle %g: Collide = %+v, %v; want two points at depth 0.25", angle, m, ok)
		}
		// In a's frame the points sit at x = -1 and x = 2, y = 0.375.
		for i, want := range []shape.Vec2{xy(-1, 0.375), xy(2, 0.375)} {
			got := ta.ApplyInv(m.Points[i].Point)
			if got.Sub(want).Len() > 1e-12 || math.Abs(m.Points[i].Depth-0.25) > 1e-12 {
				t.Errorf("angle %g: point %d at %v (depth %g) in a's frame, want %v (0.25)", angle, i, got, m.Points[i].Depth, want)
			}
		}
	}
}

// TestCircleInsideCapsule: a circle wholly inside a capsule is pushed out
// through the nearer side.
func TestCircleInsideCapsule(t *testing.T) {
	capsule := npCapsule(t, xy(-3, 0), xy(3, 0), 2)
	npRunCases(t, []npCase{
		{name: "off centre", a: capsule, b: npCircle(t, 0.5), tb: npAt(1, 0.5, 0),
			hit: true, depth: 2, normal: xy(0, 1)},
		{name: "in the end cap", a: capsule, b: npCircle(t, 0.5), tb: npAt(3.6, 0.8, 0),
			hit: true, depth: 2.5 - 1, normal: xy(0.6, 0.8)},
	})
}

// TestSegmentInsidePolygon: a segment wholly inside a polygon is pushed out
// by the shortest translation that clears the whole segment.
func TestSegmentInsidePolygon(t *testing.T) {
	box := npSquare(t, 2)
	npRunCases(t, []npCase{
		{name: "horizontal, near the top", a: box, b: npSegment(t, xy(-1, 1.5), xy(1, 1.5)),
			hit: true, depth: 0.5, normal: xy(0, 1)},
		{name: "slanted: the lower end decides", a: box, b: npSegment(t, xy(-1, 0.5), xy(1, 1.5)),
			hit: true, depth: 1.5, normal: xy(0, 1)},
		{name: "segment along the top face, inside", a: box, b: npSegment(t, xy(-1, 2), xy(1, 2))},
	})
}

// TestSegmentThroughPolygonVertex: a segment crossing a polygon's corner
// (or touching it) collides exactly when it cuts off some area.
func TestSegmentThroughPolygonVertex(t *testing.T) {
	box := npSquare(t, 1)
	sq2 := math.Sqrt2
	npRunCases(t, []npCase{
		{name: "cuts the corner", a: box, b: npSegment(t, xy(0, 1.5), xy(1.5, 0)),
			hit: true, depth: 0.5 / sq2, normal: xy(1/sq2, 1/sq2)},
		{name: "through the corner point only", a: box, b: npSegment(t, xy(0, 2), xy(2, 0))},
		{name: "ends on the corner", a: box, b: npSegment(t, xy(1, 1), xy(3, 2))},
	})
}

// TestSegmentSegmentNeverCollides: walls do not collide with walls, crossing,
// overlapping or touching.
func TestSegmentSegmentNeverCollides(t *testing.T) {
	cases := []struct{ a, b shape.Shape }{
		{npSegment(t, xy(-1, 0), xy(1, 0)), npSegment(t, xy(0, -1), xy(0, 1))},
		{npSegment(t, xy(-1, 0), xy(1, 0)), npSegment(t, xy(-0.5, 0), xy(2, 0))},
		{npSegment(t, xy(-1, 0), xy(1, 0)), npSegment(t, xy(-1, 0), xy(1, 0))},
	}
	for i, c := range cases {
		if m, ok := narrowphase.Collide(c.a, shape.Identity, c.b, shape.Identity); ok {
			t.Errorf("case %d: Collide(segment, segment) = %+v, want no contact", i, m)
		}
		if narrowphase.Overlap(c.a, shape.Identity, c.b, shape.Identity) {
			t.Errorf("case %d: Overlap(segment, segment) = true", i)
		}
	}
}

// TestEveryKindPairRegistered: every ordered pair of convex kinds collides
// when the shapes overlap (two segments excepted), so no pair is missing
// from the dispatch table.
func TestEveryKindPairRegistered(t *testing.T) {
	shapes := map[shape.Kind]shape.Shape{
		shape.KindCircle:  npCircle(t, 1),
		shape.KindAABB:    npAABB(t, 1, 1),
		shape.KindOBB:     npOBB(t, 1, 1),
		shape.KindPolygon: npSquare(t, 1),
		shape.KindCapsule: npCapsule(t, xy(-1, 0), xy(1, 0), 0.5),
		shape.KindSegment: npSegment(t, xy(-1, 0.2), xy(1, -0.1)),
	}
	if len(shapes) != len(npKinds) {
		t.Fatalf("the test knows %d convex kinds, the package %d", len(shapes), len(npKinds))
	}
	for _, ka := range npKinds {
		for _, kb := range npKinds {
			_, ok := narrowphase.Collide(shapes[ka], shape.Identity, shapes[kb], npAt(0.1, 0.05, 0.2))
			want := !(ka == shape.KindSegment && kb == shape.KindSegment)
			if ok != want {
				t.Errorf("Collide(%s, %s) on overlapping shapes = %v, want %v", ka, kb, ok, want)
			}
		}
	}
}

// TestRayMissesCapsuleWithInfiniteLength: a ray that misses a capsule or
// segment is no hit for an unlimited length too (it once came back as a
// hit at distance +Inf).
func TestRayMissesCapsuleWithInfiniteLength(t *testing.T) {
	for _, s := range []shape.Shape{npCapsule(t, xy(-1, 0), xy(1, 0), 0.5), npSegment(t, xy(-1, 0), xy(1, 0))} {
		for _, dir := range []shape.Vec2{xy(1, 0), xy(0, 1), xy(0.6, 0.8)} {
			if h, ok := narrowphase.RayCast(s, shape.Identity, xy(5, 5), dir, math.Inf(1)); ok {
				t.Errorf("RayCast(%v) from (5,5) along %v = %+v, want no hit", s, dir, h)
			}
		}
		if h, ok := narrowphase.RayCast(s, shape.Identity, xy(0, 5), xy(0, -1), math.Inf(1)); !ok || h.Distance != 5-s.Radius() {
			t.Errorf("RayCast(%v) down from (0,5) = %+v, %v; want a hit at %g", s, h, ok, 5-s.Radius())
		}
	}
}

// TestCastBeyondMaxMagnitudeIsNoHit: a cast or sweep longer than
// shape.MaxMagnitude (a bullet restored from crafted bytes jumped 9e159 in
// one step) gives no hit instead of a NaN fraction.
func TestCastBeyondMaxMagnitudeIsNoHit(t *testing.T) {
	a, b := npCircle(t, 1), npOBB(t, 1, 1)
	far := xy(9e159, 1e-76)
	if h, ok := narrowphase.Cast(a, shape.Identity, far, b, npAt(5, 0, 0)); ok {
		t.Errorf("Cast by %v = %+v, want no hit", far, h)
	}
	sa := narrowphase.Sweep{P1: far}
	sb := narrowphase.Sweep{P0: xy(5, 0), P1: xy(5, 0), A0: 0.3, A1: 0.3}
	if tt, ok := narrowphase.TimeOfImpact(a, sa, b, sb); ok {
		t.Errorf("TimeOfImpact over %v = %v, want no hit", far, tt)
	}
	// Just within the limit, the hit is finite.
	if h, ok := narrowphase.Cast(a, shape.Identity, xy(shape.MaxMagnitude, 0), b, npAt(5, 0, 0)); !ok || !shape.IsFinite(h.Fraction) || !h.Point.IsFinite() {
		t.Errorf("Cast by MaxMagnitude = %+v, %v; want a finite hit", h, ok)
	}
}

// TestTimeOfImpactFarSweepIsFinite: a sweep from 4e116 away (within
// MaxMagnitude) once made the bounding-disc quadratic overflow into a NaN
// time (found by FuzzUnmarshal, through a restored bullet).
func TestTimeOfImpactFarSweepIsFinite(t *testing.T) {
	box := npAABB(t, 2.9780545295058823e+09, 1.398043286095289e-76)
	c := npOffsetCircle(t, xy(1.398043286095289e-76, 1.398043286095289e-76), 1.398043286095289e-76)
	sa := narrowphase.Sweep{P0: xy(4.130296612654703e+116, 1.398043286095289e-76), P1: xy(10.48245257377948, 0.7658479027876449), A0: 1.398043286095289e-76, A1: 3.3668449497583772}
	sb := narrowphase.Sweep{P0: xy(6.990216430476444e-77, 1.398043286095289e-76), P1: xy(6.990216430476444e-77, 1.398043286095289e-76)}
	if tt, ok := narrowphase.TimeOfImpact(box, sa, c, sb); ok && !(tt >= 0 && tt <= 1) {
		t.Fatalf("TimeOfImpact = %v, %v; want a time in [0, 1]", tt, ok)
	}
}

// TestBoxTouchingSegmentAlongFacePointOnSegment is the touching-contact bug
// found by TestCollideTouchingProperties (seed 10496568762999122983): a
// segment lying along a box's face, touching it within rounding, got its
// contact point at the box's corner, 1.59 from the segment, because no
// clipped point came out deeper than 0 and the fallback took an unclipped
// end of the box's face. The point must lie on the segment.
func TestBoxTouchingSegmentAlongFacePointOnSegment(t *testing.T) {
	box := npAABB(t, 2.709651281566782, 2.734734723010973)
	seg := npSegment(t, xy(0.6912756280688838, 0.5520931715352018), xy(0.6912756280688835, -0.8619935686175646))
	ta := shape.Transform{Pos: xy(-3.1581215201482475, 1.7281246875743044), Rot: shape.RotFromCosSin(1, 0)}
	tb := shape.Transform{Pos: xy(-5.176497173646146, 2.0142207537582566), Rot: shape.RotFromCosSin(-1, 1.2246467991473515e-16)}
	p0, p1 := seg.Segment()
	a, b := tb.Apply(p0), tb.Apply(p1)
	for _, swap := range []bool{false, true} {
		var m narrowphase.Manifold
		var ok bool
		if swap {
			m, ok = narrowphase.Collide(seg, tb, box, ta)
		} else {
			m, ok = narrowphase.Collide(box, ta, seg, tb)
		}
		if !ok {
			continue // touching within rounding either way: no contact is right too
		}
		for k := range m.Count {
			p := m.Points[k].Point
			if d := segDist(p, a, b); d > 1e-9 {
				t.Errorf("swap %v: Collide point %v is %g from the segment %v–%v, want on it", swap, p, d, a, b)
			}
		}
	}
}

// segDist returns the distance from p to the segment a–b.
func segDist(p, a, b shape.Vec2) float64 {
	e := b.Sub(a)
	u := 0.0
	if l := e.LenSq(); l > 0 {
		u = min(1, max(0, p.Sub(a).Dot(e)/l))
	}
	return p.Sub(a.Add(e.Scale(u))).Len()
}
