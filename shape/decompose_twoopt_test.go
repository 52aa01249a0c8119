package shape_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// This file decomposes random simple polygons of a kind the other tests
// do not make: random points joined in random order and untangled by
// 2-opt moves (reverse the path between two crossing edges until no two
// cross), which gives irregular outlines with deep pockets, not star-
// shaped about any point. On integer grids the points are often collinear
// and the untangled outlines often touch themselves (a vertex on an edge,
// overlapping collinear edges), which 2-opt leaves alone: the exact
// predicates here, not Decompose's, decide whether Decompose must refuse
// the outline. Accepted outlines are checked by dcCheck and against the
// piece bound.

// toOrient returns the sign of (b−a)×(c−a), exactly: the float
// determinant beyond Shewchuk's error bound, else exactOrient.
func toOrient(a, b, c shape.Vec2) int {
	l := (b.X - a.X) * (c.Y - a.Y)
	r := (b.Y - a.Y) * (c.X - a.X)
	if det, bound := l-r, 4e-16*(math.Abs(l)+math.Abs(r)); det > bound {
		return 1
	} else if det < -bound {
		return -1
	}
	return exactOrient(a, b, c)
}

// toCross reports whether segments ab and cd cross at a point inside both.
func toCross(a, b, c, d shape.Vec2) bool {
	return toOrient(a, b, c)*toOrient(a, b, d) < 0 && toOrient(c, d, a)*toOrient(c, d, b) < 0
}

// toOn reports whether x lies on the closed segment pq.
func toOn(p, q, x shape.Vec2) bool {
	return toOrient(p, q, x) == 0 && min(p.X, q.X) <= x.X && x.X <= max(p.X, q.X) && min(p.Y, q.Y) <= x.Y && x.Y <= max(p.Y, q.Y)
}

// toTwoOpt returns pts reordered by 2-opt moves until no two edges cross.
func toTwoOpt(pts []shape.Vec2) []shape.Vec2 {
	p := slices.Clone(pts)
	n := len(p)
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			for j := i + 2; j < n; j++ {
				if (i == 0 && j == n-1) || !toCross(p[i], p[i+1], p[j], p[(j+1)%n]) {
					continue
				}
				slices.Reverse(p[i+1 : j+1])
				changed = true
			}
		}
	}
	return p
}

// TestDecomposeTwoOptPolygons decomposes 2-opt polygons of 4 to 63 points:
// random reals, points of a 12×12 grid, and random reals far from the
// origin (1e6). Where no vertex of the outline is straight (which
// Decompose would clean away first), Decompose must refuse it exactly when
// two non-adjacent edges touch or cross; every success must pass dcCheck
// and the piece bound.
func TestDecomposeTwoOptPolygons(t *testing.T) {
	r := rand.New(rand.NewPCG(dtSeed(t, 2026), 11))
	counts := map[string]int{}
	for it := range iters(6000, 600) {
		n := 4 + r.IntN(60)
		pts := make([]shape.Vec2, n)
		for i := range pts {
			switch it % 3 {
			case 0:
				pts[i] = shape.V(r.Float64()*10, r.Float64()*10)
			case 1:
				pts[i] = shape.V(float64(r.IntN(12)), float64(r.IntN(12)))
			default:
				pts[i] = shape.V(1e6+r.Float64()*10, 1e6+r.Float64()*10)
			}
		}
		poly := toTwoOpt(pts)
		straight, touch := false, false
		for i := range poly {
			if toOrient(poly[i], poly[(i+1)%n], poly[(i+2)%n]) == 0 {
				straight = true
			}
			for j := i + 2; j < n; j++ {
				if i == 0 && j == n-1 {
					continue
				}
				a, b, c, d := poly[i], poly[(i+1)%n], poly[j], poly[(j+1)%n]
				if toCross(a, b, c, d) || toOn(a, b, c) || toOn(a, b, d) || toOn(c, d, a) || toOn(c, d, b) {
					touch = true
				}
			}
		}
		pieces, err := shape.Decompose(poly)
		switch {
		case err != nil && !straight && !touch && !errors.Is(err, shape.ErrCollinear):
			t.Fatalf("Decompose(%v) error = %v; the outline is simple", poly, err)
		case err == nil && !straight && touch:
			t.Fatalf("Decompose(%v) accepted an outline that touches itself", poly)
		case err != nil:
			counts["refused"]++
			continue
		}
		counts["decomposed"]++
		dcCheck(t, r, poly, pieces, 30)
		if b := dcLooseBound(poly); len(pieces) > b {
			t.Fatalf("Decompose(%v) gave %d pieces, want at most %d", poly, len(pieces), b)
		}
	}
	t.Logf("%v", counts)
}
