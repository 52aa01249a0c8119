package shape_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/shape"
)

// The oracles in this file share no code with Decompose: areas are shoelace
// sums, overlaps are Sutherland–Hodgman clips, containment is even–odd ray
// crossing, and the exact self-intersection test runs on integer outlines.

// dcStar returns a star of the given spikes, tips at radius 10 and notches at
// radius 4, counter-clockwise.
func dcStar(spikes int) []shape.Vec2 {
	pts := make([]shape.Vec2, 0, 2*spikes)
	for k := range 2 * spikes {
		r := 10.0
		if k%2 == 1 {
			r = 4
		}
		s, c := math.Sincos(math.Pi * float64(k) / float64(spikes))
		pts = append(pts, shape.V(r*c, r*s))
	}
	return pts
}

// dcComb returns a comb of the given teeth standing on a bar, counter-
// clockwise: 4·teeth vertices, 2·(teeth−1) of them reflex.
func dcComb(teeth int) []shape.Vec2 {
	pts := []shape.Vec2{{0, 0}, {float64(2*teeth - 1), 0}}
	for k := teeth - 1; k >= 0; k-- {
		x := float64(2 * k)
		pts = append(pts, shape.V(x+1, 4), shape.V(x, 4))
		if k > 0 {
			pts = append(pts, shape.V(x, 1), shape.V(x-1, 1))
		}
	}
	return pts
}

// dcSpiral returns a band half a unit wide wound round the origin with a
// pitch of one unit, n vertices (n even), about one turn per 200 vertices,
// counter-clockwise: the inner wall's n/2 − 2 inner vertices are reflex.
func dcSpiral(n int) []shape.Vec2 {
	h := n / 2
	turns := max(1.0, float64(n)/200)
	pts := make([]shape.Vec2, n)
	for k := range h {
		th := 2 * math.Pi * turns * float64(k) / float64(h-1)
		r := 2 + th/(2*math.Pi)
		s, c := math.Sincos(th)
		pts[k] = shape.V((r+0.25)*c, (r+0.25)*s)
		pts[n-1-k] = shape.V((r-0.25)*c, (r-0.25)*s)
	}
	return pts
}

// dcCircle returns n vertices on a circle of radius 5, counter-clockwise.
func dcCircle(n int) []shape.Vec2 {
	pts := make([]shape.Vec2, n)
	for k := range pts {
		s, c := math.Sincos(2 * math.Pi * float64(k) / float64(n))
		pts[k] = shape.V(5*c, 5*s)
	}
	return pts
}

var (
	dcL = []shape.Vec2{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	dcU = []shape.Vec2{{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}}
)

// dcReversed returns pts in the other winding.
func dcReversed(pts []shape.Vec2) []shape.Vec2 {
	out := slices.Clone(pts)
	slices.Reverse(out)
	return out
}

// dcOffset returns pts moved by (dx, dy).
func dcOffset(pts []shape.Vec2, dx, dy float64) []shape.Vec2 {
	out := make([]shape.Vec2, len(pts))
	for i, p := range pts {
		out[i] = shape.V(p.X+dx, p.Y+dy)
	}
	return out
}

// dcSubdivided returns pts with k−1 evenly spaced points added inside every
// edge: collinear runs that Decompose must drop.
func dcSubdivided(pts []shape.Vec2, k int) []shape.Vec2 {
	var out []shape.Vec2
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		for j := range k {
			f := float64(j) / float64(k)
			out = append(out, shape.V(a.X+f*(b.X-a.X), a.Y+f*(b.Y-a.Y)))
		}
	}
	return out
}

// dcNearDuplicated returns pts with each vertex followed by a copy moved by
// 1e-14 of the outline's size, which Decompose must merge.
func dcNearDuplicated(pts []shape.Vec2) []shape.Vec2 {
	size := dcSize(pts)
	var out []shape.Vec2
	for _, p := range pts {
		out = append(out, p, shape.V(p.X+1e-14*size, p.Y-1e-14*size))
	}
	return out
}

// dcSize returns the diagonal of the points' bounding box.
func dcSize(pts []shape.Vec2) float64 {
	b := shape.AABBFromPoints(pts...)
	return math.Hypot(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
}

// dcArea returns the signed shoelace area of pts, measured from origin o so
// that far coordinates keep their precision.
func dcArea(pts []shape.Vec2, o shape.Vec2) float64 {
	var a float64
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		px, py, qx, qy := p.X-o.X, p.Y-o.Y, q.X-o.X, q.Y-o.Y
		a += px*qy - qx*py
	}
	return a / 2
}

// dcCross returns (b−a)×(c−a), with its exact sign: in float64 when the
// result is clear of the rounding of its terms, else in exact rationals
// (rounded to float64), so that a turn that cancels in float64, such as
// a corner turning by 1e-16 between edges of lengths 1 and 1e-9, is not
// taken for a straight one.
func dcCross(a, b, c shape.Vec2) float64 {
	x1, y1, x2, y2 := b.X-a.X, b.Y-a.Y, c.X-a.X, c.Y-a.Y
	l, r := float64(x1*y2), float64(y1*x2)
	v := l - r
	// Each difference rounds by at most an ulp of its size, each product
	// and the subtraction by half an ulp: 1e-15 of the terms bounds it all.
	bound := 1e-15 * (math.Abs(l) + math.Abs(r) + (math.Abs(a.X)+math.Abs(b.X)+math.Abs(c.X))*(math.Abs(a.Y)+math.Abs(b.Y)+math.Abs(c.Y)))
	if math.Abs(v) > bound {
		return v
	}
	rat := func(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }
	sub := func(p, q float64) *big.Rat { return new(big.Rat).Sub(rat(p), rat(q)) }
	e := new(big.Rat).Sub(new(big.Rat).Mul(sub(b.X, a.X), sub(c.Y, a.Y)), new(big.Rat).Mul(sub(b.Y, a.Y), sub(c.X, a.X)))
	f, _ := e.Float64()
	if f == 0 && e.Sign() != 0 {
		f = math.Copysign(math.SmallestNonzeroFloat64, float64(e.Sign()))
	}
	return f
}

// dcReflex counts the reflex vertices of an outline without collinear or
// duplicate vertices.
func dcReflex(pts []shape.Vec2) int {
	sign := 1.0
	if dcArea(pts, pts[0]) < 0 {
		sign = -1
	}
	r := 0
	for i := range pts {
		a, b, c := pts[(i+len(pts)-1)%len(pts)], pts[i], pts[(i+1)%len(pts)]
		if sign*dcCross(a, b, c) < 0 {
			r++
		}
	}
	return r
}

// dcLooseBound returns an upper bound on r + 1 + ⌈n/14⌉ for an outline
// whose points Decompose may or may not merge or straighten: n counts the
// points that are not exact repeats; r counts the vertices that do not turn
// clearly left once points within 1e-10 of the size are merged, plus every
// point so merged.
func dcLooseBound(in []shape.Vec2) int {
	var pts []shape.Vec2
	for _, p := range in {
		if len(pts) == 0 || p != pts[len(pts)-1] {
			pts = append(pts, p)
		}
	}
	for len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	n := len(pts)
	tol := 1e-10 * dcSize(pts)
	var ring []shape.Vec2
	for _, p := range pts {
		if len(ring) == 0 || math.Hypot(p.X-ring[len(ring)-1].X, p.Y-ring[len(ring)-1].Y) > tol {
			ring = append(ring, p)
		}
	}
	for len(ring) > 1 && math.Hypot(ring[0].X-ring[len(ring)-1].X, ring[0].Y-ring[len(ring)-1].Y) <= tol {
		ring = ring[:len(ring)-1]
	}
	r := n - len(ring)
	sign := 1.0
	if len(ring) > 0 && dcArea(ring, ring[0]) < 0 {
		sign = -1
	}
	for i := range ring {
		m := len(ring)
		if sign*dcCross(ring[(i+m-1)%m], ring[i], ring[(i+1)%m]) <= 0 {
			r++
		}
	}
	return dcBound(n, r)
}

// dcBound returns the piece bound r + 1 + ⌈n/14⌉.
func dcBound(n, r int) int { return r + 1 + (n+13)/14 }

// dcClip returns subject clipped to the convex counter-clockwise polygon
// clip (Sutherland–Hodgman), in coordinates relative to o.
func dcClip(subject, clip []shape.Vec2, o shape.Vec2) []shape.Vec2 {
	rel := func(p shape.Vec2) shape.Vec2 { return shape.V(p.X-o.X, p.Y-o.Y) }
	out := make([]shape.Vec2, len(subject))
	for i, p := range subject {
		out[i] = rel(p)
	}
	for i := range clip {
		a, b := rel(clip[i]), rel(clip[(i+1)%len(clip)])
		in := out
		out = nil
		for j, p := range in {
			q := in[(j+1)%len(in)]
			sp, sq := dcCross(a, b, p), dcCross(a, b, q)
			if sp >= 0 {
				out = append(out, p)
			}
			if (sp >= 0) != (sq >= 0) {
				f := sp / (sp - sq)
				out = append(out, shape.V(p.X+f*(q.X-p.X), p.Y+f*(q.Y-p.Y)))
			}
		}
		if len(out) < 3 {
			return nil
		}
	}
	return out
}

// dcEvenOdd reports whether p is inside pts by counting crossings of a ray
// towards +x.
func dcEvenOdd(pts []shape.Vec2, p shape.Vec2) bool {
	in := false
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		if (a.Y > p.Y) != (b.Y > p.Y) {
			x := a.X + (p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if p.X < x {
				in = !in
			}
		}
	}
	return in
}

// dcSegDist returns the distance from p to the segment ab.
func dcSegDist(p, a, b shape.Vec2) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
	}
	return math.Hypot(p.X-a.X-t*dx, p.Y-a.Y-t*dy)
}

// dcNearBoundary reports whether p lies within eps of an edge of pts.
func dcNearBoundary(pts []shape.Vec2, p shape.Vec2, eps float64) bool {
	for i, a := range pts {
		if dcSegDist(p, a, pts[(i+1)%len(pts)]) < eps {
			return true
		}
	}
	return false
}

// dcCheck fails t unless pieces is a valid decomposition of outline: every
// piece accepted unchanged by NewPolygon, counter-clockwise, strictly convex
// and of at most MaxPolygonVertices vertices; areas summing to the outline's;
// no two pieces overlapping; and sample points inside the outline exactly
// when inside one piece. samples random points are drawn from r.
func dcCheck(t testing.TB, r *rand.Rand, outline []shape.Vec2, pieces [][]shape.Vec2, samples int) {
	t.Helper()
	o := outline[0]
	area := math.Abs(dcArea(outline, o))
	size := dcSize(outline)
	var sum float64
	boxes := make([]shape.AABB, len(pieces))
	for i, p := range pieces {
		if len(p) < 3 || len(p) > shape.MaxPolygonVertices {
			t.Fatalf("piece %d has %d vertices, want 3..%d: %v", i, len(p), shape.MaxPolygonVertices, p)
		}
		s, err := shape.NewPolygon(p)
		if err != nil {
			t.Fatalf("NewPolygon(piece %d = %v) error = %v, want nil", i, p, err)
		}
		checkPolygon(t, s)
		if !slices.Equal(s.Vertices(), p) {
			t.Fatalf("NewPolygon(piece %d).Vertices() = %v, want the piece unchanged %v", i, s.Vertices(), p)
		}
		a := dcArea(p, p[0]) // about its own vertex: a sliver's area cancels about a far o
		if !(a > 0) {
			t.Fatalf("piece %d has signed area %v, want > 0 (CCW): %v", i, a, p)
		}
		for k := range p {
			if c := dcCross(p[k], p[(k+1)%len(p)], p[(k+2)%len(p)]); !(c > 0) {
				t.Fatalf("piece %d turns by %v at vertex %d, want > 0 (strictly convex): %v", i, c, (k+1)%len(p), p)
			}
		}
		sum += a
		boxes[i] = shape.AABBFromPoints(p...)
	}
	if math.Abs(sum-area) > 1e-9*area {
		t.Fatalf("pieces' areas sum to %.17g, want the outline's %.17g (rel. error %.3g)", sum, area, math.Abs(sum-area)/area)
	}
	for i := range pieces {
		for j := i + 1; j < len(pieces); j++ {
			if !boxes[i].Overlaps(boxes[j]) {
				continue
			}
			if c := dcClip(pieces[j], pieces[i], o); c != nil {
				if a := math.Abs(dcArea(c, shape.Vec2{})); a > 1e-9*area {
					t.Fatalf("pieces %d and %d overlap by area %v (outline area %v): %v and %v", i, j, a, area, pieces[i], pieces[j])
				}
			}
		}
	}
	box := shape.AABBFromPoints(outline...)
	eps := 1e-7 * size
	pts := make([]shape.Vec2, 0, samples+2*len(outline))
	for range samples {
		pts = append(pts, shape.V(box.Min.X+r.Float64()*(box.Max.X-box.Min.X), box.Min.Y+r.Float64()*(box.Max.Y-box.Min.Y)))
	}
	for _, v := range outline { // just off each vertex, where cuts meet
		for range 2 {
			s, c := math.Sincos(r.Float64() * 2 * math.Pi)
			d := size * 1e-4 * (1 + r.Float64())
			pts = append(pts, shape.V(v.X+d*c, v.Y+d*s))
		}
	}
	tested := 0
sample:
	for _, p := range pts {
		if dcNearBoundary(outline, p, eps) {
			continue // on an edge or vertex: left aside
		}
		in := 0
		for i, pc := range pieces {
			if !boxes[i].Expand(eps).Contains(p) {
				continue
			}
			if dcNearBoundary(pc, p, eps) {
				continue sample
			}
			if dcInsideConvex(pc, p) {
				in++
			}
		}
		tested++
		if want := dcEvenOdd(outline, p); in > 1 || (in == 1) != want {
			t.Fatalf("point %v is inside %d pieces, want %d (inside the outline: %v)", p, in, map[bool]int{true: 1, false: 0}[want], want)
		}
	}
	if samples > 0 && tested < samples/4 {
		t.Fatalf("only %d of %d sample points were away from the edges", tested, len(pts))
	}
}

// dcInsideConvex reports whether p is strictly inside the convex CCW piece.
func dcInsideConvex(piece []shape.Vec2, p shape.Vec2) bool {
	for k, a := range piece {
		if dcCross(a, piece[(k+1)%len(piece)], p) <= 0 {
			return false
		}
	}
	return true
}

func TestDecomposeShapes(t *testing.T) {
	tests := []struct {
		name    string
		outline []shape.Vec2
		n, r    int // vertices and reflex vertices after cleaning
		pieces  int // exact count when > 0
	}{
		{"triangle", []shape.Vec2{{0, 0}, {1, 0}, {0, 1}}, 3, 0, 1},
		{"square", []shape.Vec2{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, 4, 0, 1},
		{"16-gon", dcCircle(16), 16, 0, 1},
		{"17-gon", dcCircle(17), 17, 0, 2},
		{"100-gon", dcCircle(100), 100, 0, 7},
		{"L", dcL, 6, 1, 2},
		{"U", dcU, 8, 2, 3},
		{"arrow", []shape.Vec2{{0, 0}, {4, 2}, {0, 4}, {1, 2}}, 4, 1, 2},
		{"star 5", dcStar(5), 10, 5, 0},
		{"star 10", dcStar(10), 20, 10, 0},
		{"star 25", dcStar(25), 50, 25, 0},
		{"star 50", dcStar(50), 100, 50, 0},
		{"comb 3", dcComb(3), 12, 4, 0},
		{"comb 10", dcComb(10), 40, 18, 0},
		{"comb 50", dcComb(50), 200, 98, 0},
		{"spiral 100", dcSpiral(100), 100, 48, 0},
		{"spiral 400", dcSpiral(400), 400, 198, 0},
		{"spiral 1000", dcSpiral(1000), 1000, 498, 0},
		{"L with collinear runs", dcSubdivided(dcL, 5), 6, 1, 2},
		{"square with midpoints", dcSubdivided([]shape.Vec2{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, 2), 4, 0, 1},
		{"comb with collinear runs", dcSubdivided(dcComb(6), 3), 24, 10, 0},
		{"star with collinear runs", dcSubdivided(dcStar(7), 4), 14, 7, 0},
		{"L with near-duplicates", dcNearDuplicated(dcL), 6, 1, 2},
		{"star with near-duplicates", dcNearDuplicated(dcStar(12)), 24, 12, 0},
		{"spiral with near-duplicates", dcNearDuplicated(dcSpiral(200)), 200, 98, 0},
		{"U with exact duplicates", doubled(dcU), 8, 2, 3},
	}
	for _, tc := range tests {
		variants := []struct {
			name    string
			outline []shape.Vec2
		}{
			{"ccw", tc.outline},
			{"cw", dcReversed(tc.outline)},
			{"ccw far", dcOffset(tc.outline, 1e6, -1e6)},
			{"cw far", dcOffset(dcReversed(tc.outline), -1e6, 1e6)},
			{"rotated start", append(slices.Clone(tc.outline[len(tc.outline)/3:]), tc.outline[:len(tc.outline)/3]...)},
			{"tiny", dcScaled(tc.outline, 0x1p-480)},
			{"huge", dcScaled(tc.outline, 0x1p+450)},
		}
		for _, v := range variants {
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				r := newRand(t)
				pieces, err := shape.Decompose(v.outline)
				if err != nil {
					t.Fatalf("Decompose(%s) error = %v, want nil", tc.name, err)
				}
				samples := 2000
				if len(v.outline) > 300 {
					samples = 500
				}
				if testing.Short() {
					samples /= 8 // the quick gate; the full run samples all
				}
				dcCheck(t, r, v.outline, pieces, samples)
				b := dcBound(tc.n, tc.r)
				if strings.Contains(v.name, "far") {
					// Far away, points put on an edge are off it by a
					// rounding step of 1e-10, more than the collinear
					// tolerance: they stay, and may be reflex. Count the
					// raw outline instead, an upper bound.
					b = max(b, dcLooseBound(v.outline))
				}
				if len(pieces) > b {
					t.Errorf("Decompose(%s) gave %d pieces, want at most r+1+⌈n/14⌉ = %d", tc.name, len(pieces), b)
				}
				if tc.pieces > 0 && len(pieces) != tc.pieces {
					t.Errorf("Decompose(%s) gave %d pieces, want %d", tc.name, len(pieces), tc.pieces)
				}
			})
		}
	}
}

// dcScaled returns pts scaled by s.
func dcScaled(pts []shape.Vec2, s float64) []shape.Vec2 {
	out := make([]shape.Vec2, len(pts))
	for i, p := range pts {
		out[i] = shape.V(p.X*s, p.Y*s)
	}
	return out
}

// TestDecomposePieceCounts logs the piece counts of stars, combs and spirals
// against the bound r + 1 + ⌈n/14⌉ and holds them to it.
func TestDecomposePieceCounts(t *testing.T) {
	tests := []struct {
		name    string
		outline []shape.Vec2
		max     int // extra limit from the issue, 0 if none
	}{
		{"star 5", dcStar(5), 0},
		{"star 10", dcStar(10), 0},
		{"star 25", dcStar(25), 0},
		{"star 50", dcStar(50), 59},
		{"comb 3", dcComb(3), 0},
		{"comb 10", dcComb(10), 0},
		{"comb 50", dcComb(50), 0},
		{"comb 250", dcComb(250), 0},
		{"spiral 100", dcSpiral(100), 0},
		{"spiral 400", dcSpiral(400), 0},
		{"spiral 1000", dcSpiral(1000), 0},
		{"spiral 4000", dcSpiral(4000), 0},
		{"100-gon", dcCircle(100), 0},
	}
	t.Logf("%-12s %5s %5s %7s %6s", "shape", "n", "r", "pieces", "bound")
	for _, tc := range tests {
		pieces, err := shape.Decompose(tc.outline)
		if err != nil {
			t.Fatalf("Decompose(%s) error = %v", tc.name, err)
		}
		n, r := len(tc.outline), dcReflex(tc.outline)
		b := dcBound(n, r)
		t.Logf("%-12s %5d %5d %7d %6d", tc.name, n, r, len(pieces), b)
		if len(pieces) > b {
			t.Errorf("Decompose(%s) gave %d pieces, want at most %d", tc.name, len(pieces), b)
		}
		if tc.max > 0 && len(pieces) > tc.max {
			t.Errorf("Decompose(%s) gave %d pieces, want at most %d", tc.name, len(pieces), tc.max)
		}
	}
}

func TestDecomposeErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name    string
		outline []shape.Vec2
		want    error
		names   []string // substrings the message must contain
	}{
		{"nil", nil, shape.ErrTooFewVertices, nil},
		{"two points", []shape.Vec2{{0, 0}, {1, 1}}, shape.ErrTooFewVertices, []string{"got 2"}},
		{"three with a duplicate", []shape.Vec2{{0, 0}, {1, 0}, {1, 0}}, shape.ErrTooFewVertices, nil},
		{"all the same", []shape.Vec2{{2, 3}, {2, 3}, {2, 3}, {2, 3}}, shape.ErrTooFewVertices, nil},
		{"NaN", []shape.Vec2{{0, 0}, {1, 0}, {nan, 1}, {0, 1}}, shape.ErrNotFinite, []string{"vertex 2 "}},
		{"Inf", []shape.Vec2{{0, 0}, {1, 0}, {1, 1}, {0, inf}}, shape.ErrNotFinite, []string{"vertex 3 "}},
		{"too large", []shape.Vec2{{0, 0}, {1e200, 0}, {0, 1}}, shape.ErrTooLarge, []string{"vertex 1 "}},
		{"collinear", []shape.Vec2{{0, 0}, {1, 1}, {3, 3}, {2, 2}}, shape.ErrCollinear, nil},
		{"bowtie", []shape.Vec2{{0, 0}, {2, 2}, {2, 0}, {0, 2}}, shape.ErrSelfIntersecting,
			[]string{"edge from vertex 0 to 1", "edge from vertex 2 to 3"}},
		{"bowtie after duplicates", []shape.Vec2{{0, 0}, {0, 0}, {2, 2}, {2, 0}, {2, 0}, {0, 2}}, shape.ErrSelfIntersecting,
			[]string{"edge from vertex 0 to 2", "edge from vertex 3 to 5"}},
		{"vertex on a non-adjacent edge", []shape.Vec2{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 3}, {2, 0}, {0, 1}}, shape.ErrSelfIntersecting,
			[]string{"edge from vertex 0 to 1", "edge from vertex 4 to 5"}},
		{"vertex on a vertex", []shape.Vec2{{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 1}}, shape.ErrSelfIntersecting,
			[]string{"edge from vertex 1 to 2", "edge from vertex 4 to 5"}},
		{"ring touching its own corner", []shape.Vec2{{0, 0}, {6, 0}, {6, 6}, {0, 6}, {0, 2}, {4, 2}, {4, 4}, {2, 4}, {2, 2}, {0, 2}}, shape.ErrSelfIntersecting, nil},
		{"folds back", []shape.Vec2{{0, 0}, {2, 0}, {1, 0}, {1, 1}}, shape.ErrSelfIntersecting,
			[]string{"edge from vertex 1 to 2", "edge from vertex 0 to 1"}},
		{"pentagram", dcPentagram(), shape.ErrSelfIntersecting, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.outline)
			pieces, err := shape.Decompose(tc.outline)
			checkErr(t, fmt.Sprintf("Decompose(%v)", tc.outline), err, tc.want)
			for _, other := range sentinels {
				if other != tc.want && errors.Is(err, other) {
					t.Errorf("Decompose(%v) error = %q also wraps %q", tc.outline, err, other)
				}
			}
			if pieces != nil {
				t.Errorf("Decompose(%v) = %v with an error, want nil pieces", tc.outline, pieces)
			}
			for _, s := range tc.names {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Decompose(%v) error = %q, want it to name %q", tc.outline, err, s)
				}
			}
			if !slices.EqualFunc(tc.outline, in, sameBits) {
				t.Errorf("Decompose changed its input from %v to %v", in, tc.outline)
			}
		})
	}
}

// TestDecomposeTouchingEdgeHole covers the pinched holes named in the issue:
// a C-shape whose arm comes back to touch its own edge, at one vertex or
// along a stretch of edge. The outline is one closed curve, but its interior
// is not simply connected, so it must be refused, naming the touching edges.
func TestDecomposeTouchingEdgeHole(t *testing.T) {
	tests := []struct {
		name    string
		outline []shape.Vec2
		names   []string
	}{
		{"vertex touches edge", []shape.Vec2{{0, 0}, {3, 0}, {3, 3}, {0, 3}, {0, 2}, {2, 2}, {2, 1}, {1, 1}, {1, 2}, {0, 1}},
			[]string{"edge from vertex 4 to 5", "edge from vertex 7 to 8"}},
		{"edge runs along edge", []shape.Vec2{{0, 0}, {3, 0}, {3, 3}, {0, 3}, {0, 2}, {2, 2}, {2, 1}, {1, 1}, {1, 2}, {0.5, 2}, {0, 1}},
			[]string{"edge from vertex 4 to 5", "edge from vertex 7 to 8"}},
	}
	for _, tc := range tests {
		for _, w := range []string{"ccw", "cw"} {
			t.Run(tc.name+"/"+w, func(t *testing.T) {
				outline := tc.outline
				if w == "cw" {
					outline = dcReversed(outline)
				}
				_, err := shape.Decompose(outline)
				checkErr(t, fmt.Sprintf("Decompose(%v)", outline), err, shape.ErrSelfIntersecting)
				if w == "cw" {
					return // the edges are named from the other end
				}
				for _, s := range tc.names {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("Decompose(%v) error = %q, want it to name %q", outline, err, s)
					}
				}
			})
		}
	}
}

// dcPentagram returns the five points of a regular star in drawing order.
func dcPentagram() []shape.Vec2 {
	pts := make([]shape.Vec2, 5)
	for i := range pts {
		s, c := math.Sincos(math.Pi/2 + float64(2*i)*2*math.Pi/5)
		pts[i] = shape.V(3*c, 3*s)
	}
	return pts
}

// TestDecomposeLShapeCut checks the L-shape of the example by hand: the cut
// runs from the reflex corner to the far corner.
func TestDecomposeLShapeCut(t *testing.T) {
	pieces, err := shape.Decompose(dcL)
	if err != nil {
		t.Fatalf("Decompose(L) error = %v", err)
	}
	want := [][]shape.Vec2{
		{{1, 1}, {1, 2}, {0, 2}, {0, 0}},
		{{0, 0}, {2, 0}, {2, 1}, {1, 1}},
	}
	if len(pieces) != 2 {
		t.Fatalf("Decompose(L) = %v, want 2 pieces", pieces)
	}
	for _, w := range want {
		if !slices.ContainsFunc(pieces, func(p []shape.Vec2) bool { return isRotation(p, w) }) {
			t.Errorf("Decompose(L) = %v, want a rotation of %v among the pieces", pieces, w)
		}
	}
}

// TestDecomposeDoesNotAliasInput checks that pieces are fresh memory and that
// appending to one piece cannot overwrite another.
func TestDecomposeDoesNotAliasInput(t *testing.T) {
	in := dcStar(8)
	pieces, err := shape.Decompose(in)
	if err != nil {
		t.Fatalf("Decompose(star 8) error = %v", err)
	}
	before := make([][]shape.Vec2, len(pieces))
	for i, p := range pieces {
		before[i] = slices.Clone(p)
	}
	for i := range pieces {
		pieces[i] = append(pieces[i], shape.V(99, 99))
	}
	for i := range pieces {
		if !slices.Equal(pieces[i][:len(before[i])], before[i]) {
			t.Fatalf("appending to the pieces changed piece %d from %v to %v", i, before[i], pieces[i])
		}
	}
	if !slices.Equal(in, dcStar(8)) {
		t.Fatalf("Decompose changed its input")
	}
}

// dcGridPolygon returns a random star-shaped outline snapped to the integer
// grid, so that it has collinear runs, duplicates, touching and crossing
// edges at random, all decidable exactly.
func dcGridPolygon(r *rand.Rand) []shape.Vec2 {
	n := 3 + r.IntN(40)
	ang := make([]float64, n)
	for i := range ang {
		ang[i] = r.Float64() * 2 * math.Pi
	}
	slices.Sort(ang)
	pts := make([]shape.Vec2, n)
	rmax := float64(3 + r.IntN(20))
	for i, a := range ang {
		rad := 1 + r.Float64()*rmax
		s, c := math.Sincos(a)
		pts[i] = shape.V(math.Round(rad*c), math.Round(rad*s))
	}
	if r.IntN(2) == 0 {
		slices.Reverse(pts)
	}
	return pts
}

// dcExactVerdict classifies an integer outline exactly: the error Decompose
// must return, or nil if the outline is a simple polygon. It drops exact
// consecutive duplicates, then looks for all-collinear input, adjacent edges
// that overlap and non-adjacent edges that share a point.
func dcExactVerdict(in []shape.Vec2) error {
	var pts []shape.Vec2
	for _, p := range in {
		if len(pts) == 0 || p != pts[len(pts)-1] {
			pts = append(pts, p)
		}
	}
	for len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	if len(pts) < 3 {
		return shape.ErrTooFewVertices
	}
	collinear := true
	for _, p := range pts[2:] {
		collinear = collinear && dcCross(pts[0], pts[1], p) == 0
	}
	if collinear {
		return shape.ErrCollinear
	}
	n := len(pts)
	on := func(a, b, p shape.Vec2) bool { // p on the closed segment ab
		return dcCross(a, b, p) == 0 && math.Min(a.X, b.X) <= p.X && p.X <= math.Max(a.X, b.X) &&
			math.Min(a.Y, b.Y) <= p.Y && p.Y <= math.Max(a.Y, b.Y)
	}
	opposite := func(x, y float64) bool { return x < 0 && y > 0 || x > 0 && y < 0 } // no product: it could underflow
	for i := range n {
		a, b := pts[i], pts[(i+1)%n]
		c := pts[(i+2)%n]
		if dcCross(a, b, c) == 0 && (b.X-a.X)*(c.X-b.X)+(b.Y-a.Y)*(c.Y-b.Y) < 0 {
			return shape.ErrSelfIntersecting // folds back
		}
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue
			}
			c, d := pts[j], pts[(j+1)%n]
			d1, d2, d3, d4 := dcCross(c, d, a), dcCross(c, d, b), dcCross(a, b, c), dcCross(a, b, d)
			if opposite(d1, d2) && opposite(d3, d4) || on(c, d, a) || on(c, d, b) || on(a, b, c) || on(a, b, d) {
				return shape.ErrSelfIntersecting
			}
		}
	}
	return nil
}

// TestDecomposeRandomGridPolygons compares Decompose's verdict with the exact
// one on random integer outlines, near the origin and far from it, and
// checks every decomposition it makes.
func TestDecomposeRandomGridPolygons(t *testing.T) {
	r := newRand(t)
	counts := map[string]int{}
	for it := range iters(3000, 300) {
		pts := dcGridPolygon(r)
		if it%2 == 1 {
			pts = dcOffset(pts, 1e6, 1e6)
		}
		want := dcExactVerdict(pts)
		pieces, err := shape.Decompose(pts)
		switch {
		case want == nil && err != nil:
			t.Fatalf("Decompose(%v) error = %v, want success (simple outline)", pts, err)
		case want != nil:
			checkErr(t, fmt.Sprintf("Decompose(%v)", pts), err, want)
			counts[want.Error()]++
			continue
		}
		counts["ok"]++
		dcCheck(t, r, pts, pieces, 200)
	}
	t.Logf("verdicts: %v", counts)
}

// TestDecomposeRandomStarShaped decomposes random star-shaped outlines with
// real coordinates and checks each against the oracles and the bound.
func TestDecomposeRandomStarShaped(t *testing.T) {
	r := newRand(t)
	for range iters(500, 50) {
		n := 3 + r.IntN(120)
		pts := make([]shape.Vec2, n)
		for i := range pts {
			a := 2 * math.Pi * (float64(i) + 0.8*r.Float64()) / float64(n)
			rad := 1 + 9*r.Float64()
			s, c := math.Sincos(a)
			pts[i] = shape.V(rad*c, rad*s)
		}
		pieces, err := shape.Decompose(pts)
		if err != nil {
			t.Fatalf("Decompose(%v) error = %v", pts, err)
		}
		dcCheck(t, r, pts, pieces, 300)
		if b := dcBound(n, dcReflex(pts)); len(pieces) > b {
			t.Fatalf("Decompose(%v) gave %d pieces, want at most %d", pts, len(pieces), b)
		}
	}
}

// TestDecomposeMemoryLinear checks that memory grows about linearly with the
// outline: four times the vertices may cost at most eight times the bytes.
func TestDecomposeMemoryLinear(t *testing.T) {
	bytes := func(outline []shape.Vec2) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := shape.Decompose(outline); err != nil {
			t.Fatalf("Decompose error = %v", err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, tc := range []struct {
		name       string
		small, big []shape.Vec2
	}{
		{"spiral", dcSpiral(1000), dcSpiral(4000)},
		{"comb", dcComb(250), dcComb(1000)},
	} {
		s, b := bytes(tc.small), bytes(tc.big)
		t.Logf("%s: %d bytes for %d vertices, %d for %d", tc.name, s, len(tc.small), b, len(tc.big))
		if b > 8*s {
			t.Errorf("%s: %d bytes for %d vertices, %d for %d: want at most 8 times", tc.name, s, len(tc.small), b, len(tc.big))
		}
	}
}

// BenchmarkDecompose measures the targets: a 1,000-vertex spiral in
// at most 5 ms and a 100-vertex star in at most 100 µs.
func BenchmarkDecompose(b *testing.B) {
	for _, bc := range []struct {
		name    string
		outline []shape.Vec2
	}{
		{"spiral/n=1000", dcSpiral(1000)},
		{"star/n=100", dcStar(50)},
		{"comb/n=200", dcComb(50)},
		{"circle/n=100", dcCircle(100)},
		{"L/n=6", dcL},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var pieces [][]shape.Vec2
			for b.Loop() {
				var err error
				if pieces, err = shape.Decompose(bc.outline); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(pieces)), "pieces/op")
		})
	}
}

// dcDecodeFuzz turns fuzz bytes into an outline: the first byte picks a
// placement (0: as is; 1: moved by 1e6; 2: scaled by 1e-3, which rounds;
// 3: scaled by 2⁻⁴⁰⁰), the following pairs are int8 coordinates, at most 64
// points. exact reports whether the coordinates are the integers scaled and
// moved without rounding.
func dcDecodeFuzz(data []byte) (pts []shape.Vec2, exact bool) {
	if len(data) == 0 {
		return nil, true
	}
	mode := data[0] % 4
	data = data[1:]
	for k := 0; k+1 < len(data) && len(pts) < 64; k += 2 {
		x, y := float64(int8(data[k])), float64(int8(data[k+1]))
		switch mode {
		case 1:
			x, y = x+1e6, y+1e6
		case 2:
			x, y = x*1e-3, y*1e-3
		case 3:
			x, y = x*0x1p-400, y*0x1p-400
		}
		pts = append(pts, shape.V(x, y))
	}
	return pts, mode != 2
}

// dcExactClean drops exact duplicates and exactly straight vertices from a
// simple outline with exact coordinates.
func dcExactClean(in []shape.Vec2) []shape.Vec2 {
	var pts []shape.Vec2
	for _, p := range in {
		if len(pts) == 0 || p != pts[len(pts)-1] {
			pts = append(pts, p)
		}
	}
	for len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	for changed := true; changed && len(pts) > 3; {
		changed = false
		for i := 0; i < len(pts) && len(pts) > 3; i++ {
			n := len(pts)
			if dcCross(pts[(i+n-1)%n], pts[i], pts[(i+1)%n]) == 0 {
				pts = slices.Delete(pts, i, i+1)
				changed = true
				i--
			}
		}
	}
	return pts
}

// FuzzDecompose decodes up to 64 points and decomposes them. Decompose must
// not panic or change its input; an error must wrap one sentinel; pieces
// must pass dcCheck and the bound. On exact coordinates the verdict must
// match the exact one: success exactly for simple outlines.
func FuzzDecompose(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		pts, exact := dcDecodeFuzz(data)
		in := slices.Clone(pts)
		pieces, err := shape.Decompose(pts)
		if !slices.EqualFunc(pts, in, sameBits) {
			t.Fatalf("Decompose changed its input from %v to %v", in, pts)
		}
		var want error
		if exact {
			want = dcExactVerdict(pts)
		}
		if err != nil {
			checkFailure(t, "Decompose", err)
			if exact && want == nil {
				t.Fatalf("Decompose(%v) error = %v, want success (simple outline)", pts, err)
			}
			if want != nil && !errors.Is(err, want) {
				t.Fatalf("Decompose(%v) error = %v, want %v", pts, err, want)
			}
			return
		}
		if want != nil {
			t.Fatalf("Decompose(%v) succeeded with %d pieces, want %v", pts, len(pieces), want)
		}
		r := rand.New(rand.NewPCG(uint64(len(data)), 1))
		dcCheck(t, r, pts, pieces, 100)
		b := dcLooseBound(pts)
		if exact {
			c := dcExactClean(pts)
			b = dcBound(len(c), dcReflex(c))
		}
		if len(pieces) > b {
			t.Fatalf("Decompose(%v) gave %d pieces, want at most %d", pts, len(pieces), b)
		}
	})
}
