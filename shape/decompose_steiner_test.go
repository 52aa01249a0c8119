package shape

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSteinerPartitionExact checks the partition with one new point inside
// against rational arithmetic, on outlines of 4 to 14 vertices a few
// rounding steps of their coordinates across (star-shaped ones and random
// points untangled by 2-opt moves, on a small grid, each step one to eight
// rounding steps of a coordinate near ±3.2e9 or 7e8, or a fixed power of
// two near the origin): every piece
// strictly convex; every vertex an outline vertex or the one new point,
// which lies strictly inside; no outline vertex strictly inside a piece and
// no piece edge crossing an outline edge; no two pieces' interiors
// overlapping (an edge line of one has the other wholly on its far side);
// and the pieces' areas summing to the outline's exactly. It also counts
// how often the point gives fewer pieces than diagonals alone.
func TestSteinerPartitionExact(t *testing.T) {
	r := rand.New(rand.NewPCG(internalSeed(t), 11))
	tried, found, fewer := 0, 0, 0
	for tried < 600 {
		grid := gridStarOutline(r)
		if tried%2 == 1 {
			grid = twoOptOutline(r)
		}
		if grid == nil {
			continue
		}
		tried++
		ox := []float64{-0x3p30, 0x3p30, 0}[r.IntN(3)]
		oy := []float64{7e8, -7e8, 0}[r.IntN(3)]
		ux := float64(1+r.IntN(8)) * ulpOf(math.Abs(ox))
		uy := float64(1+r.IntN(8)) * ulpOf(math.Abs(oy))
		if ox == 0 {
			ux = 0x1p-20
		}
		if oy == 0 {
			uy = 0x1p-22
		}
		outline := make([]Vec2, len(grid))
		for k, g := range grid {
			outline[k] = Vec2{ox + g.X*ux, oy + g.Y*uy}
		}
		d, ring, err := newDecomposer(outline)
		if err != nil {
			continue // cleaning merged or straightened vertices
		}
		dp, ok := d.diagonalPartition(ring, diagBudget)
		if !ok {
			t.Fatalf("outline %#v: no partition by diagonals", outline)
		}
		reflex := d.pieceBound(ring) - 1 - (len(ring)+13)/14
		rings, ok := d.steinerPartition(ring, math.MaxInt, reflex+1)
		if !ok {
			continue
		}
		found++
		if countPieces(rings) < len(dp) {
			fewer++
		}
		checkSteinerPieces(t, d, ring, rings)
	}
	t.Logf("%d outlines, %d with a partition through a new point, %d of them fewer pieces than by diagonals", tried, found, fewer)
	if found == 0 {
		t.Fatalf("no outline had a partition through a new point")
	}
}

// twoOptOutline returns a simple counter-clockwise outline of 6 to 14
// random points of a small grid, joined in random order and untangled by
// 2-opt moves, with no vertex touching a non-adjacent edge and no three
// consecutive vertices in line, or nil.
func twoOptOutline(r *rand.Rand) []Vec2 {
	g := 6 + r.IntN(7)
	var pts []Vec2
	for range 6 + r.IntN(9) {
		if p := (Vec2{float64(r.IntN(g + 1)), float64(r.IntN(g + 1))}); !slices.Contains(pts, p) {
			pts = append(pts, p)
		}
	}
	m := len(pts)
	cross := func(a, b, c, d Vec2) bool {
		return plainOrient(a, b, c)*plainOrient(a, b, d) < 0 && plainOrient(c, d, a)*plainOrient(c, d, b) < 0
	}
	for moves := 0; moves < 1000; moves++ {
		found := false
		for i := 0; i < m && !found; i++ {
			for j := i + 2; j < m && !found; j++ {
				if i == 0 && j == m-1 {
					continue
				}
				if cross(pts[i], pts[i+1], pts[j], pts[(j+1)%m]) {
					slices.Reverse(pts[i+1 : j+1])
					found = true
				}
			}
		}
		if !found {
			break
		}
	}
	for k := range m {
		if plainOrient(pts[(k+m-1)%m], pts[k], pts[(k+1)%m]) == 0 {
			return nil
		}
		for j := k + 2; j < m; j++ {
			if (k != 0 || j != m-1) && plainTouch(pts[k], pts[(k+1)%m], pts[j], pts[(j+1)%m]) {
				return nil
			}
		}
	}
	if plainArea2(pts) < 0 {
		slices.Reverse(pts)
	}
	return pts
}

// checkSteinerPieces checks rings, a partition of ring adding at most one
// new point, with rational arithmetic.
func checkSteinerPieces(t *testing.T, d *decomposer, ring []int32, rings [][]int32) {
	t.Helper()
	outline := make([]Vec2, len(ring))
	isVertex := map[int32]bool{}
	for k, i := range ring {
		outline[k] = d.pts[i]
		isVertex[i] = true
	}
	newPoint := int32(-1)
	pieces := make([][]Vec2, len(rings))
	for c, pr := range rings {
		if len(pr) < 3 {
			t.Fatalf("outline %#v: piece %d has %d vertices", outline, c, len(pr))
		}
		for _, i := range pr {
			if isVertex[i] {
				continue
			}
			if newPoint >= 0 && i != newPoint {
				t.Fatalf("outline %#v: two new points, %d and %d", outline, newPoint, i)
			}
			newPoint = i
			if ratSideOfRing(outline, d.pts[i]) <= 0 {
				t.Fatalf("outline %#v: new point %v is not strictly inside", outline, d.pts[i])
			}
		}
		pc := make([]Vec2, len(pr))
		for k, i := range pr {
			pc[k] = d.pts[i]
		}
		pieces[c] = pc
		for k := range pc {
			if ratOrient(pc[k], pc[(k+1)%len(pc)], pc[(k+2)%len(pc)]) <= 0 {
				t.Fatalf("outline %#v: piece %v is not strictly convex", outline, pc)
			}
		}
		for _, q := range outline {
			if ratStrictlyInConvex(pc, q) {
				t.Fatalf("outline %#v: vertex %v inside piece %v", outline, q, pc)
			}
		}
		for k := range pc {
			a, b := pc[k], pc[(k+1)%len(pc)]
			for e := range outline {
				c0, c1 := outline[e], outline[(e+1)%len(outline)]
				if ratOrient(a, b, c0)*ratOrient(a, b, c1) < 0 && ratOrient(c0, c1, a)*ratOrient(c0, c1, b) < 0 {
					t.Fatalf("outline %#v: piece edge %v–%v crosses the outline", outline, a, b)
				}
			}
		}
	}
	for i := range pieces {
		for j := i + 1; j < len(pieces); j++ {
			if !ratSeparated(pieces[i], pieces[j]) && !ratSeparated(pieces[j], pieces[i]) {
				t.Fatalf("outline %#v: pieces %v and %v overlap", outline, pieces[i], pieces[j])
			}
		}
	}
	sum := new(big.Rat)
	for _, pc := range pieces {
		sum.Add(sum, ratArea2(pc))
	}
	if want := ratArea2(outline); sum.Cmp(want) != 0 {
		t.Fatalf("outline %#v: pieces' area %s, outline's %s", outline, sum.FloatString(30), want.FloatString(30))
	}
}

func ratVec(p Vec2) (x, y *big.Rat) {
	return new(big.Rat).SetFloat64(p.X), new(big.Rat).SetFloat64(p.Y)
}

// ratOrient returns the sign of (b−a)×(c−a) in rationals.
func ratOrient(a, b, c Vec2) int {
	ax, ay := ratVec(a)
	bx, by := ratVec(b)
	cx, cy := ratVec(c)
	l := new(big.Rat).Mul(new(big.Rat).Sub(bx, ax), new(big.Rat).Sub(cy, ay))
	r := new(big.Rat).Mul(new(big.Rat).Sub(by, ay), new(big.Rat).Sub(cx, ax))
	return l.Cmp(r)
}

// ratArea2 returns twice the signed area of the polygon, in rationals.
func ratArea2(p []Vec2) *big.Rat {
	s := new(big.Rat)
	for k := range p {
		ax, ay := ratVec(p[k])
		bx, by := ratVec(p[(k+1)%len(p)])
		s.Add(s, new(big.Rat).Sub(new(big.Rat).Mul(ax, by), new(big.Rat).Mul(ay, bx)))
	}
	return s
}

// ratStrictlyInConvex reports whether q is in the interior of the
// counter-clockwise convex polygon.
func ratStrictlyInConvex(pc []Vec2, q Vec2) bool {
	for k := range pc {
		if ratOrient(pc[k], pc[(k+1)%len(pc)], q) <= 0 {
			return false
		}
	}
	return true
}

// ratSeparated reports whether an edge line of the convex polygon a has
// all of b on or beyond it.
func ratSeparated(a, b []Vec2) bool {
	for k := range a {
		all := true
		for _, q := range b {
			if ratOrient(a[k], a[(k+1)%len(a)], q) > 0 {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// ratSideOfRing returns 1 if q is strictly inside the simple polygon, 0 on
// its boundary, -1 outside: the parity of the edges crossing q's
// horizontal line to its right, each crossing point computed in rationals.
func ratSideOfRing(p []Vec2, q Vec2) int {
	qx, qy := ratVec(q)
	in := false
	for k := range p {
		a, b := p[k], p[(k+1)%len(p)]
		if a == q {
			return 0
		}
		if a.Y == q.Y && b.Y == q.Y {
			if min(a.X, b.X) <= q.X && q.X <= max(a.X, b.X) {
				return 0
			}
			continue
		}
		if (a.Y > q.Y) == (b.Y > q.Y) {
			continue
		}
		ax, ay := ratVec(a)
		bx, by := ratVec(b)
		// x = ax + (qy − ay)(bx − ax)/(by − ay)
		x := new(big.Rat).Mul(new(big.Rat).Sub(qy, ay), new(big.Rat).Sub(bx, ax))
		x.Quo(x, new(big.Rat).Sub(by, ay))
		x.Add(x, ax)
		switch x.Cmp(qx) {
		case 0:
			return 0
		case 1:
			in = !in
		}
	}
	if in {
		return 1
	}
	return -1
}
