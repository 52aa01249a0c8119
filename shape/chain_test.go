package shape_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

func TestNewChainRefuses(t *testing.T) {
	v := shape.V
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		pts    []shape.Vec2
		closed bool
		want   error
	}{
		{"no points", nil, false, shape.ErrTooFewVertices},
		{"one point", []shape.Vec2{v(1, 2)}, false, shape.ErrTooFewVertices},
		{"duplicates only", []shape.Vec2{v(1, 2), v(1, 2), v(1, 2)}, false, shape.ErrTooFewVertices},
		{"closed with two points", []shape.Vec2{v(0, 0), v(1, 0), v(0, 0)}, true, shape.ErrTooFewVertices},
		{"NaN", []shape.Vec2{v(0, 0), v(nan, 1)}, false, shape.ErrNotFinite},
		{"infinite", []shape.Vec2{v(0, 0), v(math.Inf(1), 1)}, false, shape.ErrNotFinite},
		{"too large", []shape.Vec2{v(0, 0), v(1e200, 1)}, false, shape.ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := shape.NewChain(tc.pts, tc.closed)
			checkErr(t, "NewChain", err, tc.want)
		})
	}
}

func TestNewChainCleansAndLinks(t *testing.T) {
	v := shape.V
	s, err := shape.NewChain([]shape.Vec2{v(0, 0), v(0, 0), v(1, 0), v(2, 0), v(2, 1), v(0, 0)}, true)
	if err != nil {
		t.Fatal(err)
	}
	pts, closed := s.ChainPoints()
	if !closed || len(pts) != 4 || s.PartCount() != 4 {
		t.Fatalf("points %v closed %v parts %d, want 4 points (duplicate and closing point dropped), closed, 4 segments", pts, closed, s.PartCount())
	}
	for i, want := range [][2]int{{3, 1}, {0, 2}, {1, 3}, {2, 0}} {
		if p, n := s.ChainLinks(i); p != want[0] || n != want[1] {
			t.Errorf("closed ChainLinks(%d) = %d, %d, want %v", i, p, n, want)
		}
	}
	open, _ := shape.NewChain([]shape.Vec2{v(0, 0), v(1, 0), v(2, 0)}, false)
	if p, n := open.ChainLinks(0); p != -1 || n != 1 {
		t.Errorf("open ChainLinks(0) = %d, %d, want -1, 1", p, n)
	}
	if p, n := open.ChainLinks(1); p != 0 || n != -1 {
		t.Errorf("open ChainLinks(1) = %d, %d, want 0, -1", p, n)
	}
	seg, _ := open.Part(1, shape.Identity)
	if p0, p1 := seg.Segment(); seg.Kind() != shape.KindSegment || p0 != v(1, 0) || p1 != v(2, 0) {
		t.Errorf("Part(1) = %v, want the segment (1,0)–(2,0)", seg)
	}
}

// TestChainSegmentAndTurns checks ChainSegment against the segment
// shapes Part builds, and ChainTurns against the turn of the raw edges:
// the sine of the angle between them, by hypot, and
// 0 at an open end.
func TestChainSegmentAndTurns(t *testing.T) {
	v := shape.V
	for _, tc := range []struct {
		name   string
		pts    []shape.Vec2
		closed bool
	}{
		{"open zigzag", []shape.Vec2{v(0, 0), v(2, 1), v(3, -1), v(5, -1), v(5, 4)}, false},
		{"closed square, clockwise", []shape.Vec2{v(0, 0), v(0, 1), v(1, 1), v(1, 0)}, true},
		{"closed triangle far away", []shape.Vec2{v(1e6, 1e6), v(1e6+3, 1e6), v(1e6+1, 1e6+2)}, true},
		{"nearly straight", []shape.Vec2{v(0, 0), v(1, 1e-12), v(2, 0), v(3, -1e-3)}, false},
		{"tiny and long", []shape.Vec2{v(0, 0), v(1e-9, 1e-9), v(1e3, 0), v(-5, 7)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shape.NewChain(tc.pts, tc.closed)
			if err != nil {
				t.Fatal(err)
			}
			pts, _ := s.ChainPoints()
			edge := func(i int) shape.Vec2 { return pts[(i+1)%len(pts)].Sub(pts[i]) }
			// turn is the sine of the angle from edge i to edge j.
			turn := func(i, j int) float64 {
				a, b := edge(i), edge(j)
				return (a.X*b.Y - a.Y*b.X) / (math.Hypot(a.X, a.Y) * math.Hypot(b.X, b.Y))
			}
			for i := range s.PartCount() {
				seg, _ := s.Part(i, shape.Identity)
				q0, q1 := seg.Segment()
				p0, p1, n := s.ChainSegment(i)
				if p0 != q0 || p1 != q1 || n != seg.Normals()[0] {
					t.Errorf("ChainSegment(%d) = %v, %v, %v, want Part's %v, %v, %v", i, p0, p1, n, q0, q1, seg.Normals()[0])
				}
				at0, at1 := s.ChainTurns(i)
				prev, next := s.ChainLinks(i)
				for _, c := range []struct {
					end      string
					got      float64
					nb, a, b int
				}{{"p0", at0, prev, prev, i}, {"p1", at1, next, i, next}} {
					want := 0.0
					if c.nb >= 0 {
						want = turn(c.a, c.b)
					}
					if math.Abs(c.got-want) > 1e-12 {
						t.Errorf("ChainTurns(%d) at %s = %g, want %g", i, c.end, c.got, want)
					}
				}
			}
		})
	}
}

// TestChainPartsNearMatchesScan checks PartsNear on chains of 2 to 3,000
// points (trees of one box to a dozen levels, with odd counts at every
// level) against a scan of every segment: it calls fn with exactly the
// segments whose boxes meet the box, boundary included, in increasing
// order, and stops when fn returns false.
func TestChainPartsNearMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, n := range []int{2, 3, 5, 8, 9, 17, 33, 100, 257, 1000, 3000} {
		for _, closed := range []bool{false, true} {
			if closed && n < 3 {
				continue
			}
			pts := make([]shape.Vec2, n)
			p := shape.V(0, 0)
			for i := range pts {
				pts[i] = p
				p = p.Add(shape.V(math.Round(8*rng.Float64()-3), math.Round(8*rng.Float64()-4)))
			}
			s, err := shape.NewChain(pts, closed)
			if err != nil {
				t.Fatal(err)
			}
			full := s.WorldAABB(shape.Identity)
			for q := range 200 {
				c := shape.V(full.Min.X+(full.Max.X-full.Min.X)*rng.Float64(), full.Min.Y+(full.Max.Y-full.Min.Y)*rng.Float64())
				h := shape.V(math.Round(20*rng.Float64())/2, math.Round(20*rng.Float64())/2)
				if q%10 == 0 {
					h = shape.V(0, 0)
				}
				box := shape.AABB{Min: c.Sub(h), Max: c.Add(h)}
				var want []int
				for i := range s.PartCount() {
					seg, _ := s.Part(i, shape.Identity)
					if shape.AABBFromPoints(seg.Segment()).Overlaps(box) {
						want = append(want, i)
					}
				}
				var got []int
				s.PartsNear(box, func(i int) bool { got = append(got, i); return true })
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("chain of %d points (closed %v): PartsNear(%v) = %v, want %v", n, closed, box, got, want)
				}
				if len(want) > 1 {
					got = got[:0]
					s.PartsNear(box, func(i int) bool { got = append(got, i); return len(got) < 2 })
					if fmt.Sprint(got) != fmt.Sprint(want[:2]) {
						t.Fatalf("chain of %d points: PartsNear(%v) stopped after two = %v, want %v", n, box, got, want[:2])
					}
				}
			}
		}
	}
}

// FuzzNewChain feeds up to 12 points to NewChain: it never panics, an
// error wraps one sentinel, and a chain holds its points (consecutive
// duplicates dropped) in a box tree that finds every segment.
func FuzzNewChain(f *testing.F) {
	f.Add(uint8(3), false, 0.0, 0.0, 1.0, 0.0, 2.0, 1.0, 3.0, 3.0, 0.5)
	f.Add(uint8(4), true, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0)
	f.Add(uint8(12), false, 1e150, -1e150, 0.0, 0.0, 1e-300, 1e-300, 5.0, 5.0, 1e-9)
	f.Fuzz(func(t *testing.T, n uint8, closed bool, x0, y0, x1, y1, x2, y2, x3, y3, step float64) {
		n %= 13
		base := []shape.Vec2{shape.V(x0, y0), shape.V(x1, y1), shape.V(x2, y2), shape.V(x3, y3)}
		pts := make([]shape.Vec2, n)
		for i := range pts {
			pts[i] = base[i%4].Add(shape.V(float64(i/4)*step, 0))
		}
		s, err := shape.NewChain(pts, closed)
		if err != nil {
			checkFailure(t, "NewChain", err)
			return
		}
		if s.Kind() != shape.KindChain || !s.Valid() {
			t.Fatalf("NewChain = %v", s)
		}
		got, _ := s.ChainPoints()
		for i := 1; i < len(got); i++ {
			if got[i] == got[i-1] {
				t.Fatalf("consecutive duplicates kept: %v", got)
			}
		}
		box := s.WorldAABB(shape.Identity)
		for i := range s.PartCount() {
			seg, _ := s.Part(i, shape.Identity)
			p0, p1 := seg.Segment()
			if !box.Contains(p0) || !box.Contains(p1) {
				t.Fatalf("segment %d (%v–%v) outside the chain's box %v", i, p0, p1, box)
			}
			found := false
			s.PartsNear(shape.AABBFromPoints(p0, p1), func(j int) bool {
				found = found || j == i
				return !found
			})
			if !found {
				t.Fatalf("PartsNear misses segment %d", i)
			}
		}
	})
}

func TestNewCompoundRefuses(t *testing.T) {
	circle, _ := shape.NewCircle(1)
	aabb, _ := shape.NewAABB(1, 1)
	comp, _ := shape.NewCompound([]shape.Part{{Shape: circle}})
	chain, _ := shape.NewChain([]shape.Vec2{shape.V(0, 0), shape.V(1, 0)}, false)
	for _, tc := range []struct {
		name  string
		parts []shape.Part
		want  error
	}{
		{"no parts", nil, shape.ErrInvalidPart},
		{"zero shape", []shape.Part{{}}, shape.ErrInvalidPart},
		{"aabb part", []shape.Part{{Shape: aabb}}, shape.ErrInvalidPart},
		{"nested compound", []shape.Part{{Shape: comp}}, shape.ErrInvalidPart},
		{"chain part", []shape.Part{{Shape: chain}}, shape.ErrInvalidPart},
		{"NaN offset", []shape.Part{{Shape: circle, Offset: shape.Transform{Pos: shape.V(math.NaN(), 0)}}}, shape.ErrNotFinite},
		{"offset too far", []shape.Part{{Shape: circle, Offset: shape.Transform{Pos: shape.V(1e200, 0)}}}, shape.ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := shape.NewCompound(tc.parts)
			checkErr(t, "NewCompound", err, tc.want)
		})
	}
}

func TestNewCapsuleAndSegmentRefuse(t *testing.T) {
	v := shape.V
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"capsule of zero length", second(shape.NewCapsule(v(1, 1), v(1, 1), 1)), shape.ErrNonPositiveSize},
		{"capsule of zero radius", second(shape.NewCapsule(v(0, 0), v(1, 1), 0)), shape.ErrNonPositiveSize},
		{"capsule NaN", second(shape.NewCapsule(v(0, math.NaN()), v(1, 1), 1)), shape.ErrNotFinite},
		{"capsule too large", second(shape.NewCapsule(v(0, 0), v(1, 1), 1e200)), shape.ErrTooLarge},
		{"segment of zero length", second(shape.NewSegment(v(2, 3), v(2, 3))), shape.ErrNonPositiveSize},
		{"segment infinite", second(shape.NewSegment(v(0, 0), v(math.Inf(-1), 1))), shape.ErrNotFinite},
	} {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.name, tc.err, tc.want) })
	}
	// A segment whose length squared underflows still has a unit normal.
	s, err := shape.NewSegment(v(0, 0), v(1e-200, 3e-200))
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Normals()[0]; math.Abs(n.Len()-1) > 1e-15 {
		t.Fatalf("tiny segment normal %v, want unit", n)
	}
	if _, err := shape.NewCapsule(v(0, 0), v(1, 0), 1); errors.Is(err, shape.ErrNonPositiveSize) || err != nil {
		t.Fatalf("NewCapsule of a valid capsule: %v", err)
	}
}

func second(_ shape.Shape, err error) error { return err }
