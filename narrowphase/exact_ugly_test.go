package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// exPlaced is a shape and its transform.
type exPlaced struct {
	s shape.Shape
	t shape.Transform
}

func exAt(s shape.Shape, x, y float64) exPlaced {
	return exPlaced{s, shape.Transform{Pos: xy(x, y)}}
}

func exAtRot(s shape.Shape, x, y, c, sn float64) exPlaced {
	return exPlaced{s, shape.Transform{Pos: xy(x, y), Rot: shape.RotFromCosSin(c, sn)}}
}

// exUglyPairs are pairs built on purpose at the edge of the convention:
// exact touching (no contact), contacts one rounding step deep,
// containment, parallel cores and exact ties, with dyadic numbers so that
// the exact oracle's answer is the answer. Each runs at the origin and
// translated far away (1e6 and 1e12: dyadic offsets keep every number
// exact).
func exUglyPairs(t *testing.T) []struct {
	name string
	a, b exPlaced
} {
	cap4 := npCapsule(t, xy(-2, 0), xy(2, 0), 1)
	seg := npSegment(t, xy(-1, 0), xy(1, 0))
	box := npAABB(t, 1, 1)
	obb := npOBB(t, 1, 0.5)
	tri := npPolygon(t, xy(0, 0), xy(4, 0), xy(0, 4))
	circ := npCircle(t, 0.5)
	return []struct {
		name string
		a, b exPlaced
	}{
		{"capsule side touching box face", exAt(cap4, 0, 0), exAt(box, 0, 2)},
		{"capsule side into box face by 2^-40", exAt(cap4, 0, 0), exAt(box, 0, 2-0x1p-40)},
		{"capsule end touching box face", exAt(cap4, 0, 0), exAt(box, 4, 0)},
		{"capsule end into box face by 2^-44", exAt(cap4, 0, 0), exAt(box, 4-0x1p-44, 0)},
		{"capsule end touching box corner diagonally", exAt(cap4, 0, 0), exAt(npAABB(t, 0.5, 0.5), 2+0.5+0.75, 0.5+0.5)},
		{"capsules parallel overlapping", exAt(cap4, 0, 0), exAt(npCapsule(t, xy(-1, 0), xy(3, 0), 0.5), 0, 1.25)},
		{"capsules parallel touching", exAt(cap4, 0, 0), exAt(npCapsule(t, xy(-1, 0), xy(3, 0), 0.5), 0, 1.5)},
		{"capsules collinear end to end touching", exAt(cap4, 0, 0), exAt(cap4, 6, 0)},
		{"capsules collinear end to end overlapping", exAt(cap4, 0, 0), exAt(cap4, 5.5, 0)},
		{"capsules same core", exAt(cap4, 0, 0), exAt(npCapsule(t, xy(-2, 0), xy(2, 0), 0.25), 0, 0)},
		{"capsules crossing cores", exAt(cap4, 0, 0), exAt(npCapsule(t, xy(0, -2), xy(0, 2), 0.25), 1, 0)},
		{"circle inside capsule", exAt(cap4, 0, 0), exAt(circ, 1, 0.25)},
		{"circle at capsule centre", exAt(cap4, 0, 0), exAt(circ, 0, 0)},
		{"circle centre on capsule end", exAt(cap4, 0, 0), exAt(circ, 2, 0)},
		{"capsule inside box", exAt(npAABB(t, 5, 3), 0, 0), exAt(cap4, 0.5, 0.5)},
		{"capsule inside rotated box", exAtRot(npOBB(t, 5, 3), 0, 0, 0, 1), exAt(cap4, 0.5, 0.5)},
		{"segment inside polygon", exAt(tri, 0, 0), exAt(seg, 1.5, 1)},
		{"segment inside box, centred", exAt(npAABB(t, 2, 1), 0, 0), exAt(seg, 0, 0)},
		{"segment along box face", exAt(box, 0, 0), exAt(seg, 0, 1)},
		{"segment along box face, 2^-45 in", exAt(box, 0, 0), exAt(seg, 0, 1-0x1p-45)},
		{"segment end touching box face", exAt(box, 0, 0), exAt(npSegment(t, xy(0, 1), xy(0, 3)), 0, 0)},
		{"segment across box", exAt(box, 0, 0), exAt(npSegment(t, xy(-3, 0), xy(3, 0.5)), 0, 0)},
		{"segment through capsule core", exAt(cap4, 0, 0), exAt(npSegment(t, xy(0, -3), xy(0, 3)), 1, 0)},
		{"segment on capsule core", exAt(cap4, 0, 0), exAt(npSegment(t, xy(-1, 0), xy(1, 0)), 0, 0)},
		{"segment tangent to capsule", exAt(cap4, 0, 0), exAt(npSegment(t, xy(-3, 1), xy(3, 1)), 0, 0)},
		{"segment tangent to capsule end", exAt(cap4, 0, 0), exAt(npSegment(t, xy(3, -1), xy(3, 1)), 0, 0)},
		{"segment tangent to circle", exAt(circ, 0, 0), exAt(npSegment(t, xy(-1, 0.5), xy(1, 0.5)), 0, 0)},
		{"segment into circle by 2^-40", exAt(circ, 0, 0), exAt(npSegment(t, xy(-1, 0.5-0x1p-40), xy(1, 0.5-0x1p-40)), 0, 0)},
		{"segments crossing", exAt(seg, 0, 0), exAt(npSegment(t, xy(0, -1), xy(0, 1)), 0, 0)},
		{"segments collinear overlapping", exAt(seg, 0, 0), exAt(seg, 0.5, 0)},
		{"box corner on obb face", exAt(box, 0, 0), exAtRot(obb, 1+0.5, 1, 0, 1)},
		{"obb quarter turn face to face", exAt(box, 0, 0), exAtRot(obb, 1.5, 0, 0, 1)},
		{"polygon edge exactly on box edge", exAt(tri, 0, 0), exAt(box, -1, 1)},
		{"polygon vertex touching capsule", exAt(tri, 0, 0), exAt(cap4, 0, -1)},
		{"box inside capsule", exAt(cap4, 0, 0), exAt(npAABB(t, 0.25, 0.25), 0.5, 0)},
		{"capsule tilted across box corner", exAt(box, 0, 0), exAt(npCapsule(t, xy(0, 2), xy(2, 0), 0.25), 0, 0)},
	}
}

// TestExactOracleUglyCollide runs the hand-built pairs in both orders, at
// the origin and far away, and asks the exact contact bool (a touch is no
// contact) as well as the oracle's depth and normal.
func TestExactOracleUglyCollide(t *testing.T) {
	for _, c := range exUglyPairs(t) {
		for _, base := range []float64{0, 1e6, 1e12} {
			a, b := c.a, c.b
			off := xy(base, -base)
			a.t.Pos, b.t.Pos = a.t.Pos.Add(off), b.t.Pos.Add(off)
			for _, swap := range []bool{false, true} {
				x, y := a, b
				if swap {
					x, y = b, a
				}
				in := exCheckCollide(t, x.s, x.t, y.s, y.t, 1e-9)
				if got := narrowphase.Overlap(x.s, x.t, y.s, y.t); got != in {
					t.Errorf("%s (base %g, swapped %v): Overlap = %v, want %v exactly", c.name, base, swap, got, in)
				}
			}
		}
	}
}

// TestExactOracleUglyCast casts the first shape of each hand-built pair at
// the second from a few motions: straight in, grazing along a face,
// zero, huge, and starting from the pair's own placement (touching or
// overlapping at the start).
func TestExactOracleUglyCast(t *testing.T) {
	pairs, bases := exUglyPairs(t), []float64{0, 1e12}
	if testing.Short() {
		pairs, bases = pairs[:4], bases[:1]
	}
	for _, c := range pairs {
		for _, base := range bases {
			a, b := c.a, c.b
			off := xy(base, -base)
			a.t.Pos, b.t.Pos = a.t.Pos.Add(off), b.t.Pos.Add(off)
			for _, delta := range []shape.Vec2{{}, xy(1, 0), xy(0, -1), xy(-4, 0), xy(400, 300), xy(-0.25, 0.125)} {
				// From the pair's placement...
				exCheckCast(t, nil, a.s, a.t, delta, b.s, b.t, 1e-9)
				// ...and from backed off by 3·delta, so that the motion
				// arrives at it (a grazing slide when the placement touches
				// along a face).
				back := a.t
				back.Pos = back.Pos.Sub(delta.Scale(3))
				exCheckCast(t, nil, a.s, back, delta.Scale(4), b.s, b.t, 1e-9)
			}
		}
	}
}

// TestExactOracleGrazingSlides: a shape sliding along a face it touches
// from the start, and one arriving parallel to a face at exactly touching
// height, hit at the first touch (touching counts), not later.
func TestExactOracleGrazingSlides(t *testing.T) {
	box := npAABB(t, 1, 1)
	for _, c := range []struct {
		name  string
		a     exPlaced
		delta shape.Vec2
		want  float64
	}{
		{"capsule sliding along the top face from the left", exAt(npCapsule(t, xy(-1, 0), xy(1, 0), 0.5), -6, 1.5), xy(8, 0), 0.5},
		{"segment sliding along the top face", exAt(npSegment(t, xy(-1, 0), xy(1, 0)), -6, 1), xy(8, 0), 0.5},
		{"box sliding along the right face downward", exAt(npAABB(t, 0.5, 0.5), 1.5, 6), xy(0, -8), 0.5625},
		{"circle sliding along the top face", exAt(npCircle(t, 0.5), -4, 1.5), xy(8, 0), 0.375},
		{"polygon vertex sliding along the top face", exAt(npPolygon(t, xy(0, 0), xy(1, 1), xy(-1, 1)), -6, 1), xy(16, 0), 0.3125},
	} {
		for _, base := range []float64{0, 1e6, 1e12} {
			a := c.a
			a.t.Pos = a.t.Pos.Add(xy(base, base))
			tb := shape.Transform{Pos: xy(base, base)}
			h, ok := narrowphase.Cast(a.s, a.t, c.delta, box, tb)
			if !ok || math.Abs(h.Fraction-c.want) > 1e-12 {
				t.Errorf("%s (base %g): Cast = %+v, %v; want Fraction %g", c.name, base, h, ok, c.want)
			}
			exCheckCast(t, nil, a.s, a.t, c.delta, box, tb, 1e-9)
		}
	}
}
