package shape

import (
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// TestDiagonalPartitionIsFewest checks Decompose's fallback against an
// exhaustive search: on random simple outlines of up to 11 vertices on a
// small integer grid (where float arithmetic is exact, so the oracle's
// plain predicates are), every set of pairwise non-crossing diagonals is
// tried, and the fewest convex pieces any of them cuts the outline into
// must be the number diagonalPartition gives. Its pieces must be strictly
// convex, made of the outline's vertices, and fill the outline's area.
func TestDiagonalPartitionIsFewest(t *testing.T) {
	r := rand.New(rand.NewPCG(internalSeed(t), 7))
	tried := 0
	hist := map[int]int{}
	for tried < 1500 {
		ring := gridStarOutline(r)
		if ring == nil {
			continue
		}
		tried++
		d, cleaned, err := newDecomposer(ring)
		if err != nil {
			t.Fatalf("newDecomposer(%v): %v", ring, err)
		}
		if len(cleaned) != len(ring) {
			continue
		}
		pts := make([]Vec2, len(cleaned))
		for k, i := range cleaned {
			pts[k] = d.pts[i]
		}
		want := fewestConvexByDiagonals(pts)
		rings, ok := d.diagonalPartition(cleaned, diagBudget)
		if !ok {
			t.Fatalf("outline %v: no partition, want %d pieces", ring, want)
		}
		if len(rings) != want {
			t.Fatalf("outline %v: %d pieces, the exhaustive search finds %d", ring, len(rings), want)
		}
		hist[want]++
		area := 0.0
		for _, pr := range rings {
			pc := make([]Vec2, len(pr))
			for k, i := range pr {
				if int(i) >= len(ring) {
					t.Fatalf("outline %v: piece vertex %d is a new point", ring, i)
				}
				pc[k] = d.pts[i]
			}
			for k := range pc {
				if plainOrient(pc[k], pc[(k+1)%len(pc)], pc[(k+2)%len(pc)]) <= 0 {
					t.Fatalf("outline %v: piece %v is not strictly convex", ring, pc)
				}
			}
			area += plainArea2(pc)
		}
		if total := plainArea2(pts); area != total {
			t.Fatalf("outline %v: pieces' area %v, outline's %v", ring, area/2, total/2)
		}
	}
	t.Logf("outlines by fewest pieces: %v", hist)
}

// internalSeed returns the seed of the -shape.seed flag (which the
// package's external tests define) or, given none, COLLIDE_FIXED_SEEDS's
// or a random one, and logs it for a replay.
func internalSeed(t *testing.T) uint64 {
	var s uint64
	if f := flag.Lookup("shape.seed"); f != nil {
		s, _ = f.Value.(flag.Getter).Get().(uint64)
	}
	if s == 0 {
		s = rand.Uint64()
		if v, ok := os.LookupEnv("COLLIDE_FIXED_SEEDS"); ok {
			s = 1
			if n, err := strconv.ParseUint(v, 0, 64); err == nil && n != 0 {
				s = n
			}
		}
	}
	t.Logf("seed %d (set with -shape.seed)", s)
	return s
}

// gridStarOutline returns a simple outline of 4 to 11 vertices on a small
// grid, counter-clockwise, with no three consecutive vertices in line, or
// nil.
func gridStarOutline(r *rand.Rand) []Vec2 {
	g := 3 + r.IntN(6)
	n := 4 + r.IntN(8)
	pts := make([]Vec2, 0, n)
	for range n {
		p := Vec2{float64(r.IntN(g + 1)), float64(r.IntN(g + 1))}
		if !slices.Contains(pts, p) {
			pts = append(pts, p)
		}
	}
	c := Vec2{float64(g)/2 + 0.25, float64(g)/2 + 0.125}
	if r.IntN(2) == 0 { // off centre: more reflex vertices
		c = Vec2{float64(r.IntN(g+1)) + 0.25, float64(r.IntN(g+1)) + 0.125}
	}
	slices.SortFunc(pts, func(p, q Vec2) int {
		return -plainAngleCmp(p.Sub(c), q.Sub(c))
	})
	slices.Reverse(pts)
	// Drop straight vertices until none is left.
	for changed := true; changed && len(pts) >= 3; {
		changed = false
		for k := range pts {
			m := len(pts)
			if plainOrient(pts[(k+m-1)%m], pts[k], pts[(k+1)%m]) == 0 {
				pts = slices.Delete(pts, k, k+1)
				changed = true
				break
			}
		}
	}
	m := len(pts)
	if m < 4 || plainArea2(pts) <= 0 {
		return nil
	}
	for i := range m {
		for j := i + 2; j < m; j++ {
			if i == 0 && j == m-1 {
				continue
			}
			if plainTouch(pts[i], pts[(i+1)%m], pts[j], pts[(j+1)%m]) {
				return nil
			}
		}
	}
	return pts
}

// plainAngleCmp orders vectors by angle from the negative x axis round,
// counter-clockwise, with exact comparisons on integers.
func plainAngleCmp(p, q Vec2) int {
	half := func(v Vec2) int {
		if v.Y > 0 || (v.Y == 0 && v.X > 0) {
			return 0
		}
		return 1
	}
	if hp, hq := half(p), half(q); hp != hq {
		return hq - hp
	}
	switch c := p.Cross(q); {
	case c > 0:
		return 1
	case c < 0:
		return -1
	}
	return 0
}

func plainOrient(a, b, c Vec2) float64 { return b.Sub(a).Cross(c.Sub(a)) }

func plainArea2(p []Vec2) float64 {
	a := 0.0
	for k := range p {
		a += p[k].Cross(p[(k+1)%len(p)])
	}
	return a
}

func plainSign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// plainTouch reports whether segments ab and cd share a point.
func plainTouch(a, b, c, d Vec2) bool {
	d1, d2 := plainSign(plainOrient(c, d, a)), plainSign(plainOrient(c, d, b))
	d3, d4 := plainSign(plainOrient(a, b, c)), plainSign(plainOrient(a, b, d))
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	in := func(a, b, p Vec2) bool {
		return min(a.X, b.X) <= p.X && p.X <= max(a.X, b.X) && min(a.Y, b.Y) <= p.Y && p.Y <= max(a.Y, b.Y)
	}
	return d1 == 0 && in(c, d, a) || d2 == 0 && in(c, d, b) || d3 == 0 && in(a, b, c) || d4 == 0 && in(a, b, d)
}

// plainInside reports whether p lies strictly inside the polygon (crossing
// number, with p on no edge).
func plainInside(poly []Vec2, p Vec2) bool {
	in := false
	for k := range poly {
		a, b := poly[k], poly[(k+1)%len(poly)]
		if plainOrient(a, b, p) == 0 && min(a.X, b.X) <= p.X && p.X <= max(a.X, b.X) && min(a.Y, b.Y) <= p.Y && p.Y <= max(a.Y, b.Y) {
			return false
		}
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < a.X+(p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y) {
			in = !in
		}
	}
	return in
}

// fewestConvexByDiagonals tries every set of pairwise non-crossing
// diagonals of the counter-clockwise polygon p and returns the fewest
// strictly convex pieces one of them cuts it into. A diagonal joins two
// vertices, touches the outline nowhere else, and has its midpoint inside.
func fewestConvexByDiagonals(p []Vec2) int {
	n := len(p)
	var diags [][2]int
	for i := range n {
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue
			}
			ok := plainInside(p, p[i].Add(p[j]).Scale(0.5))
			for k := 0; ok && k < n; k++ {
				kn := (k + 1) % n
				if k == i || k == j || kn == i || kn == j {
					continue
				}
				ok = !plainTouch(p[i], p[j], p[k], p[kn])
			}
			// No other vertex on it (the edge test above catches those
			// too, but a vertex next to i or j lies on an edge it skips).
			for k := 0; ok && k < n; k++ {
				if k != i && k != j && plainOrient(p[i], p[j], p[k]) == 0 &&
					min(p[i].X, p[j].X) <= p[k].X && p[k].X <= max(p[i].X, p[j].X) &&
					min(p[i].Y, p[j].Y) <= p[k].Y && p[k].Y <= max(p[i].Y, p[j].Y) {
					ok = false
				}
			}
			if ok {
				diags = append(diags, [2]int{i, j})
			}
		}
	}
	crosses := func(a, b [2]int) bool {
		if a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1] {
			return false
		}
		return plainTouch(p[a[0]], p[a[1]], p[b[0]], p[b[1]])
	}
	convexPieces := func(set [][2]int) bool {
		faces := [][]int{make([]int, n)}
		for k := range n {
			faces[0][k] = k
		}
		for _, dg := range set {
			for f, face := range faces {
				x, y := slices.Index(face, dg[0]), slices.Index(face, dg[1])
				if x < 0 || y < 0 {
					continue
				}
				if x > y {
					x, y = y, x
				}
				a := slices.Clone(face[x : y+1])
				b := append(slices.Clone(face[y:]), face[:x+1]...)
				faces[f] = a
				faces = append(faces, b)
				break
			}
		}
		for _, face := range faces {
			m := len(face)
			for k := range m {
				if plainOrient(p[face[k]], p[face[(k+1)%m]], p[face[(k+2)%m]]) <= 0 {
					return false
				}
			}
		}
		return true
	}
	best := n // a fan of triangles never needs more
	var set [][2]int
	var try func(from int)
	try = func(from int) {
		if len(set)+1 < best && convexPieces(set) {
			best = len(set) + 1
		}
		if len(set)+2 >= best {
			return // one more diagonal cannot beat best
		}
		for k := from; k < len(diags); k++ {
			ok := true
			for _, s := range set {
				if crosses(s, diags[k]) {
					ok = false
					break
				}
			}
			if ok {
				set = append(set, diags[k])
				try(k + 1)
				set = set[:len(set)-1]
			}
		}
	}
	try(0)
	return best
}
