package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file holds the reproductions of the wrong answers the exact oracle
// (exact_oracle_test.go) found, one test named after each bug.

// TestCastOffsetCircleFarBug: a circle whose centre is offset from its
// body's origin, on a rotated body far from the world origin, cast against
// a box or polygon. The circle-against-hull path placed the centre in the
// world first (pos + R·c rounds to the ulp of pos, 1.2e-4 at 1e12) and only
// then carried it into the hull's frame, so the fraction and the touch
// point were off by up to half an ulp of the position, though both bodies
// sit within a few units of each other.
func TestCastOffsetCircleFarBug(t *testing.T) {
	circle := npOffsetCircle(t, xy(1, 0), 1)
	box := npAABB(t, 1, 1)
	// cos 0.6, sin 0.8: the centre sits at pos + (0.6, 0.8); the box's
	// left face is at pos.X + 4, so the circle's right edge (centre.X + 1)
	// reaches it after 2.4 of the motion's 10: fraction 0.24.
	rot := shape.RotFromCosSin(0.6, 0.8)
	for _, base := range []float64{0, 1e6, 1e7, 1e12} {
		for _, swap := range []bool{false, true} {
			ta := shape.Transform{Pos: xy(base, -base), Rot: rot}
			tb := shape.Transform{Pos: xy(base+5, -base+0.8)}
			delta := xy(10, 0)
			var h narrowphase.CastHit
			var ok bool
			if swap { // the box moves against the circle instead
				h, ok = narrowphase.Cast(box, tb, delta.Neg(), circle, ta)
			} else {
				h, ok = narrowphase.Cast(circle, ta, delta, box, tb)
			}
			if !ok || math.Abs(h.Fraction-0.24) > 1e-12 {
				t.Errorf("base %g, box moving %v: Cast.Fraction = %.17g, %v; want 0.24", base, swap, h.Fraction, ok)
			}
		}
	}
}

// TestCastCrossingSegmentsPointBug: two segments that cross at the start
// touch there (Cast counts touching: Fraction 0), and Cast.Point must be a
// point they share. Segments never collide, so Cast takes its "inside the
// Minkowski difference by rounding alone" branch, which reports a vertex of
// the nearest face of the difference: an end of one segment, a full unit
// from the other. Found by the exact oracle on random segment pairs.
func TestCastCrossingSegmentsPointBug(t *testing.T) {
	a := npSegment(t, xy(-1, 0), xy(3, 0))
	b := npSegment(t, xy(0, -1), xy(0, 1))
	far := shape.Transform{Pos: xy(1e6, -1e6)}
	for _, tc := range []struct {
		name   string
		ta, tb shape.Transform
		delta  shape.Vec2
	}{
		{"moving away", shape.Transform{}, shape.Transform{}, xy(1, 0.5)},
		{"no motion", shape.Transform{}, shape.Transform{}, xy(0, 0)},
		{"along a", shape.Transform{}, shape.Transform{}, xy(-1, 0)},
		{"far from the origin", far, far, xy(0, 1)},
	} {
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := a, tc.ta, b, tc.tb
			if swap {
				x, tx, y, ty = b, tc.tb, a, tc.ta
			}
			h, ok := narrowphase.Cast(x, tx, tc.delta, y, ty)
			want := tc.ta.Apply(xy(0, 0))
			if !ok || h.Fraction != 0 || h.Point.Sub(want).Len() > 1e-9 {
				t.Errorf("%s, swapped %v: Cast = %+v, %v; want Fraction 0 at the crossing %v", tc.name, swap, h, ok, want)
			}
		}
	}
}

// TestOffsetCircleFarRayAndDistanceBug: RayCast, DistanceSq, Distance and
// ContainsPoint placed an offset circle's centre in world coordinates
// (pos + R·c, rounded to the ulp of pos: 1.2e-4 at 1e12) and measured from
// there, so a ray or a point a few units away was answered with an error
// of half an ulp of the position. RayCast's doc promises each kind is
// solved in its own local frame. The same circle and query at the origin
// give the exact answers.
func TestOffsetCircleFarRayAndDistanceBug(t *testing.T) {
	circle := npOffsetCircle(t, xy(1, 0), 1)
	rot := shape.RotFromCosSin(0.6, 0.8) // centre at pos + (0.6, 0.8), not dyadic
	at := func(base float64) shape.Transform { return shape.Transform{Pos: xy(base, -base), Rot: rot} }
	// The answers at the origin, where nothing rounds to speak of.
	t0 := at(0)
	ray0, _ := narrowphase.RayCast(circle, t0, xy(-3, 1), xy(1, 0), 10)
	dist0 := narrowphase.Distance(circle, t0, xy(3.5, 1))
	if math.Abs(ray0.Distance-(3+0.6-math.Sqrt(1-0.2*0.2))) > 1e-12 || math.Abs(dist0-(math.Hypot(2.9, 0.2)-1)) > 1e-12 {
		t.Fatalf("at the origin: RayCast.Distance = %.17g, Distance = %.17g", ray0.Distance, dist0)
	}
	for _, base := range []float64{1e6, 1e7, 1e12} {
		ts := at(base)
		// Dyadic offsets from the position: exact world points.
		if h, ok := narrowphase.RayCast(circle, ts, ts.Pos.Add(xy(-3, 1)), xy(1, 0), 10); !ok || math.Abs(h.Distance-ray0.Distance) > 1e-9 {
			t.Errorf("base %g: RayCast = %+v, %v; want Distance %.17g", base, h, ok, ray0.Distance)
		}
		p := ts.Pos.Add(xy(3.5, 1))
		if d := narrowphase.Distance(circle, ts, p); math.Abs(d-dist0) > 1e-9 {
			t.Errorf("base %g: Distance = %.17g, want %.17g", base, d, dist0)
		}
		if d := narrowphase.DistanceSq(circle, ts, p); math.Abs(d-dist0*dist0) > 1e-9 {
			t.Errorf("base %g: DistanceSq = %.17g, want %.17g", base, d, dist0*dist0)
		}
		// pos + (1.59375, 0.8125) lies 6.2e-3 inside the edge and pos +
		// (1.6015625, 0.8125) 1.6e-3 outside: clear of any rounding.
		for _, q := range []struct {
			off shape.Vec2
			in  bool
		}{{xy(1.59375, 0.8125), true}, {xy(1.6015625, 0.8125), false}} {
			want := q.in
			if got := narrowphase.ContainsPoint(circle, ts, ts.Pos.Add(q.off)); got != want {
				t.Errorf("base %g: ContainsPoint(pos + %v) = %v, want %v", base, q.off, got, want)
			}
		}
	}
}

// TestCastAlongCapsuleAxisBug: when the Minkowski difference of the two
// cores is a segment (a capsule or segment against a circle, or two
// parallel capsules or segments) and the motion runs along that segment's
// line, Cast reports a hit at Fraction 0 with a sideways normal and a point
// far from the moving shape, or no hit at all, though the shapes start
// apart and meet part way. Found by the exact oracle's hand-built pairs.
func TestCastAlongCapsuleAxisBug(t *testing.T) {
	capsule := npCapsule(t, xy(-2, 0), xy(2, 0), 1)
	for _, c := range []struct {
		name          string
		a             shape.Shape
		ta            shape.Vec2
		delta         shape.Vec2
		b             shape.Shape
		tb            shape.Vec2
		frac          float64
		normal, point shape.Vec2
	}{
		// Core −5..−1, r 1, against a circle of 0.5 at x = 2: 1.5 apart.
		{"capsule along its axis into a circle", capsule, xy(-3, 0), xy(4, 0), npCircle(t, 0.5), xy(2, 0), 0.375, xy(-1, 0), xy(1.5, 0)},
		// Cores −5..−1 and 4..8, radii 1 and 1: 3 apart.
		{"capsule along its axis into a collinear capsule", capsule, xy(-3, 0), xy(4, 0), capsule, xy(6, 0), 0.75, xy(-1, 0), xy(3, 0)},
		// Core 10..14, r 1, against the segment −1..1: 8 apart.
		{"capsule along its axis into a collinear segment", capsule, xy(12, 0), xy(-16, 0), npSegment(t, xy(-1, 0), xy(1, 0)), xy(0, 0), 0.5, xy(1, 0), xy(1, 0)},
		// Segments −4..−2 and −0.5..1.5: 1.5 apart.
		{"segment along itself into a collinear segment", npSegment(t, xy(-1, 0), xy(1, 0)), xy(-3, 0), xy(4, 0), npSegment(t, xy(-1, 0), xy(1, 0)), xy(0.5, 0), 0.375, xy(-1, 0), xy(-0.5, 0)},
		// Parallel cores 0.25 apart sideways, the ends 7 apart: the end caps
		// meet when the ends are √(2.25 − 0.0625) = 1.479 apart.
		{"capsule along its axis past a parallel capsule", capsule, xy(10, 0.25), xy(-16, 0), npCapsule(t, xy(-1, 0), xy(1, 0), 0.5), xy(0, 0), (7 - math.Sqrt(1.5*1.5-0.25*0.25)) / 16, shape.V(math.Sqrt(1.5*1.5-0.25*0.25), 0.25).Scale(1 / 1.5), shape.V(1+math.Sqrt(1.5*1.5-0.25*0.25)/3, 0.25/3)},
	} {
		h, ok := narrowphase.Cast(c.a, shape.Transform{Pos: c.ta}, c.delta, c.b, shape.Transform{Pos: c.tb})
		if !ok || math.Abs(h.Fraction-c.frac) > 1e-12 || h.Normal.Sub(c.normal).Len() > 1e-9 || h.Point.Sub(c.point).Len() > 1e-9 {
			t.Errorf("%s: Cast = %+v, %v; want Fraction %.17g, Normal %v, Point %v", c.name, h, ok, c.frac, c.normal, c.point)
		}
	}
}
