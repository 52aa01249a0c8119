package broadphase

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// smallTiles makes every index of more than 8 boxes tiled, with tiles of
// about 4 boxes, for the rest of the test, so that small scenes cross the
// tiling thresholds both ways and have many tiles and big boxes; trees
// leave the flat form past 4 ids.
func smallTiles(t *testing.T) {
	oldMin, oldFill, oldFlat := tileMin, tileFill, flatMax
	tileMin, tileFill, flatMax = 8, 4, 4
	t.Cleanup(func() { tileMin, tileFill, flatMax = oldMin, oldFill, oldFlat })
}

func TestTiledRandomScenes(t *testing.T) {
	smallTiles(t)
	TestTreeRandomScenes(t)
}

func TestTiledQueryMatchesBruteForce(t *testing.T) {
	smallTiles(t)
	queryTests(t)
}

// queryTests runs the query and ray tests, under whatever setting the
// caller made.
func queryTests(t *testing.T) {
	TestQueryMatchesBruteForce(t)
	TestRayCastVisitsEveryFatBox(t)
	TestRayCastFirstHit(t)
	TestRayCastFrontToBack(t)
	TestRayCastStops(t)
	TestSweepMatchesGrownBoxes(t)
	TestRayCastZeroClipStillVisitsStartBoxes(t)
}

// TestTiledIsTiled: the small-tile setting does tile the scenes above, with
// boxes in the big tree too, and a shrinking index untiles again.
func TestTiledIsTiled(t *testing.T) {
	smallTiles(t)
	s, tr, _ := queryScene(1, 150)
	if tr.tr.side == 0 || len(tr.tr.tiles) < 4 || tr.tr.big.Len() == 0 {
		t.Fatalf("side %v, %d tiles, %d big boxes", tr.tr.side, len(tr.tr.tiles), tr.tr.big.Len())
	}
	for s.live > 2 {
		id := s.randomLive()
		s.remove([]index{tr}, id)
	}
	if tr.tr.side != 0 || tr.st.side != 0 {
		t.Fatalf("%d boxes left, still tiled: sides %v, %v", tr.Len(), tr.tr.side, tr.st.side)
	}
	tr.UpdatePairs()
	if err := tr.validate(nil); err != nil {
		t.Fatal(err)
	}
}

// TestTiledFarCoordinates: boxes near ±1e300, at 1e15 and spanning the
// float range, next to small ones near the origin, are all found by
// queries of every size, tiled or not (the cell coordinates clamp).
func TestTiledFarCoordinates(t *testing.T) {
	smallTiles(t)
	r := rand.New(rand.NewPCG(5, 6))
	tr := NewTree(Config{Margin: -1, MotionFrames: -1})
	var boxes []shape.AABB
	add := func(b shape.AABB) {
		tr.Insert(int32(len(boxes)), b)
		boxes = append(boxes, b)
	}
	// Small boxes first, so that the tiles are small; then far ones, fewer
	// than would make the index tile itself again.
	for range 40 {
		add(shape.AABBFromCenter(shape.V(r.Float64()*50, r.Float64()*50), shape.V(r.Float64()*3, r.Float64()*3)))
	}
	for _, c := range []float64{-1e300, -1e200, -1e15, -3e9, 7e9, 1e15, 1e200, 1e300} {
		for range 3 {
			x, y := c*(1+r.Float64()*1e-3), c*(1-r.Float64()*1e-3)
			h := math.Max(1, math.Abs(c)*1e-12) * r.Float64()
			add(shape.AABBFromCenter(shape.V(x, y), shape.V(h, h)))
		}
	}
	add(box(-1e300, -1e300, 1e300, 1e300))
	add(box(-1e300, 5, 1e300, 6))
	tr.UpdatePairs()
	if tr.tr.side == 0 || tr.tr.side > 100 {
		t.Fatalf("tile side %v", tr.tr.side)
	}
	if err := tr.validate(boxes); err != nil {
		t.Fatal(err)
	}
	queries := []shape.AABB{box(-1e308, -1e308, 1e308, 1e308), box(0, 0, 0, 0)}
	for _, b := range boxes {
		queries = append(queries, b, shape.AABB{Min: b.Max, Max: b.Max}, shape.AABB{Min: b.Min, Max: b.Min})
	}
	for range 200 {
		c := boxes[r.IntN(len(boxes))].Center()
		h := math.Abs(c.X)*r.Float64()*1e-3 + r.Float64()*10
		queries = append(queries, shape.AABBFromCenter(c, shape.V(h, h)))
	}
	for _, q := range queries {
		var got, want []int32
		tr.Query(q, func(id int32) bool { got = append(got, id); return true })
		for id, b := range boxes {
			if b.Overlaps(q) {
				want = append(want, int32(id))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("Query(%v) = %v, want %v", q, got, want)
		}
	}
}

// TestTilesMadeForEveryGridCell: when an index is tiled, every cell of its
// dense grid gets a tile, so a box that moves into a cell no box was in
// (a hole in a room's crowd) finds its tile there, and the move allocates
// nothing.
func TestTilesMadeForEveryGridCell(t *testing.T) {
	smallTiles(t)
	tr := NewTree(Config{Margin: -1, MotionFrames: -1})
	// A ring of boxes around an empty middle, 40 units across.
	r := rand.New(rand.NewPCG(3, 4))
	var boxes []shape.AABB
	for len(boxes) < 400 {
		c := shape.V(r.Float64()*40, r.Float64()*40)
		if math.Abs(c.X-20) < 10 && math.Abs(c.Y-20) < 10 {
			continue
		}
		boxes = append(boxes, shape.AABBFromCenter(c, shape.V(0.2, 0.2)))
		tr.Insert(int32(len(boxes)-1), boxes[len(boxes)-1])
	}
	tr.UpdatePairs()
	if tr.tr.side == 0 || tr.tr.grid == nil {
		t.Fatal("the index is not tiled with a grid: the test would prove nothing")
	}
	if err := tr.validate(boxes); err != nil {
		t.Fatal(err)
	}
	tiles := len(tr.tr.tiles)
	// Move boxes one at a time into the middle and back.
	moves := 0
	allocs := testing.AllocsPerRun(50, func() {
		i := moves % len(boxes)
		moves++
		old := boxes[i]
		boxes[i] = shape.AABBFromCenter(shape.V(15+10*r.Float64(), 15+10*r.Float64()), shape.V(0.2, 0.2))
		tr.Update(int32(i), boxes[i], boxes[i].Center().Sub(old.Center()))
	})
	if allocs != 0 || len(tr.tr.tiles) != tiles {
		t.Fatalf("moves into the empty middle: %v allocations a move, %d tiles (%d before)", allocs, len(tr.tr.tiles), tiles)
	}
	tr.UpdatePairs()
	if err := tr.validate(boxes); err != nil {
		t.Fatal(err)
	}
}

// noFlat makes every tree leave the flat form at its first insertion, for
// the rest of the test, so that small scenes exercise the R-trees.
func noFlat(t *testing.T) {
	old := flatMax
	flatMax = 0
	t.Cleanup(func() { flatMax = old })
}

// flatUpTo makes trees leave the flat form past n ids, for the rest of the
// test.
func flatUpTo(t *testing.T, n int) {
	old := flatMax
	flatMax = n
	t.Cleanup(func() { flatMax = old })
}

// The random scenes hold up to 120 ids: flat by default. These run them on
// R-trees from the start, and on trees that leave the flat form as the
// scene's ids grow past 60.
func TestRTreeRandomScenes(t *testing.T) {
	noFlat(t)
	TestTreeRandomScenes(t)
}

func TestUnflattenedRandomScenes(t *testing.T) {
	flatUpTo(t, 60)
	TestTreeRandomScenes(t)
}

func TestRTreeQueryMatchesBruteForce(t *testing.T) {
	noFlat(t)
	queryTests(t)
}

// TestFlatForm: a tree stays flat, holding no R-tree node, up to flatMax
// ids, leaves the form past them for good, and a flat tree's clone
// searches its own proxies.
func TestFlatForm(t *testing.T) {
	tr := NewTree(Config{})
	for i := range int32(flatMax) {
		b := box(float64(i), 0, float64(i)+0.5, 1)
		if i%7 == 0 {
			tr.InsertStatic(i, b)
		} else {
			tr.Insert(i, b)
		}
	}
	tr.UpdatePairs()
	if tr.tr.src != tr || tr.st.src != tr || tr.tr.trees != nil || tr.st.trees != nil {
		t.Fatalf("%d ids: moving index flat %v, static %v; R-trees %v, %v", flatMax, tr.tr.src != nil, tr.st.src != nil, tr.tr.trees != nil, tr.st.trees != nil)
	}
	if err := tr.validate(nil); err != nil {
		t.Fatal(err)
	}
	c := tr.Clone()
	if c.tr.src != c || c.st.src != c {
		t.Fatal("clone's indexes search the original's proxies")
	}
	c.Remove(3)
	c.UpdatePairs()
	count := func(tr *Tree, b shape.AABB) int {
		n := 0
		tr.Query(b, func(int32) bool { n++; return true })
		return n
	}
	q := box(2.9, 0, 3.1, 1) // meets proxy 3, and 2 and 4 by their margins
	if got, want := count(c, q), count(tr, q)-1; got != want {
		t.Fatalf("clone without proxy 3: Query finds %d, want %d", got, want)
	}
	if err := tr.validate(nil); err != nil {
		t.Fatalf("original after the clone's removal: %v", err)
	}
	if err := c.validate(nil); err != nil {
		t.Fatalf("clone: %v", err)
	}
	// One id more: both indexes get their R-trees.
	tr.Insert(int32(flatMax), box(-5, -5, -4, -4))
	tr.UpdatePairs()
	if tr.tr.src != nil || tr.st.src != nil || tr.tr.big.Len() != tr.tr.Len() || tr.st.big.Len() != tr.st.Len() {
		t.Fatalf("%d ids: moving index flat %v, static %v; R-tree sizes %d/%d, %d/%d", flatMax+1, tr.tr.src != nil, tr.st.src != nil, tr.tr.big.Len(), tr.tr.Len(), tr.st.big.Len(), tr.st.Len())
	}
	if err := tr.validate(nil); err != nil {
		t.Fatal(err)
	}
	// And keep them when ids are freed.
	for i := range int32(flatMax - 10) {
		tr.Remove(i)
	}
	tr.UpdatePairs()
	if tr.tr.src != nil {
		t.Fatal("flat again after removals")
	}
	if err := tr.validate(nil); err != nil {
		t.Fatal(err)
	}
}

// TestFlatUglyBoxes drives a flat tree and the brute-force index through
// the boxes a sorted list of left edges can get wrong: many boxes sharing a
// left edge (ordered by id among themselves), points, boxes spanning
// ±1e300 (wider than any search box), boxes beyond float32's range (their
// rectangles clamped), and teleports between them; the pair sets, queries
// and the tree's own invariants (validate: order, maxW) must agree at every
// step.
func TestFlatUglyBoxes(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 9))
	v := func(x, y float64) shape.Vec2 { return shape.Vec2{X: x, Y: y} }
	ugly := func() shape.AABB {
		switch r.IntN(8) {
		case 0, 1: // a shared left edge
			x, y := float64(r.IntN(3)), r.Float64()*10
			return shape.AABB{Min: v(x, y), Max: v(x+float64(r.IntN(3)), y+r.Float64())}
		case 2: // far, some beyond float32's range
			c := []float64{1e15, -3e9, 1e300, -1e300, 3.4e38, -3.5e38}[r.IntN(6)]
			return shape.AABBFromCenter(v(c, c/2), v(r.Float64(), r.Float64()))
		case 3: // spanning everything along x
			y := r.Float64() * 10
			return box(-1e300, y, 1e300, y+1)
		case 4: // a point
			p := v(r.Float64()*10, r.Float64()*10)
			return shape.AABB{Min: p, Max: p}
		}
		return shape.AABBFromCenter(v(r.Float64()*10, r.Float64()*10), v(r.Float64()*2, r.Float64()*2))
	}
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	for round := range rounds {
		cfg := Config{}
		if round%2 == 1 {
			cfg = Config{Margin: -1, MotionFrames: -1}
		}
		tr, bf := NewTree(cfg), NewBruteForce(cfg)
		ixs := []index{tr, bf}
		var tight []shape.AABB
		var alive []bool
		live := func() (int32, bool) {
			for range 8 {
				if len(alive) > 0 {
					if i := r.IntN(len(alive)); alive[i] {
						return int32(i), true
					}
				}
			}
			return 0, false
		}
		for op := range 400 {
			switch k := r.IntN(10); {
			case k < 3 && len(alive) < 120:
				id := int32(len(alive))
				tight, alive = append(tight, ugly()), append(alive, true)
				static := r.IntN(5) == 0
				for _, ix := range ixs {
					if static {
						ix.InsertStatic(id, tight[id])
					} else {
						ix.Insert(id, tight[id])
					}
				}
			case k < 4:
				if id, ok := live(); ok {
					alive[id] = false
					for _, ix := range ixs {
						ix.Remove(id)
					}
				}
			case k < 9:
				if id, ok := live(); ok {
					old := tight[id]
					if r.IntN(4) == 0 {
						tight[id] = ugly() // a teleport
					} else {
						d := v(r.NormFloat64(), r.NormFloat64())
						tight[id] = shape.AABB{Min: old.Min.Add(d), Max: old.Max.Add(d)}
					}
					d := tight[id].Min.Sub(old.Min)
					if !d.IsFinite() {
						d = shape.Vec2{}
					}
					for _, ix := range ixs {
						ix.Update(id, tight[id], d)
					}
				}
			default:
				if id, ok := live(); ok {
					for _, ix := range ixs {
						ix.Touch(id)
					}
				}
			}
			// Queries see every change at once, UpdatePairs or not. The
			// tree finds every proxy whose fat box meets the query box,
			// and may find one more whose fat box meets only the box
			// rounded outward to float32 (a fat box is float32 already):
			// never one beyond that rounding.
			sameQuery := func() {
				q := ugly()
				var got, want []int32
				tr.Query(q, func(id int32) bool { got = append(got, id); return true })
				bf.Query(q, func(id int32) bool { want = append(want, id); return true })
				slices.Sort(got)
				slices.Sort(want)
				qr := rectOf(arr(q.Min), arr(q.Max))
				i := 0
				for _, id := range got {
					if i < len(want) && want[i] == id {
						i++
						continue
					}
					if f := tr.fat.r[id]; f.clamped() || f.x0 > qr.x1 || f.x1 < qr.x0 || f.y0 > qr.y1 || f.y1 < qr.y0 {
						t.Fatalf("round %d, op %d: Query(%v) found %d, fat box %v", round, op, q, id, tr.FatAABB(id))
					}
				}
				if i != len(want) {
					t.Fatalf("round %d, op %d: Query(%v) = %v, missing some of %v", round, op, q, got, want)
				}
			}
			sameQuery()
			if op%8 != 7 {
				continue
			}
			for _, ix := range ixs {
				ix.UpdatePairs()
			}
			if err := tr.validate(tight); err != nil {
				t.Fatalf("round %d, op %d: validate: %v", round, op, err)
			}
			if got, want := tr.Pairs(), bf.Pairs(); !slices.Equal(got, want) {
				t.Fatalf("round %d, op %d: %d pairs, brute force %d; differ at %v", round, op, len(got), len(want), firstDiff(got, want))
			}
			for range 4 {
				sameQuery()
			}
		}
		if tr.tr.src == nil && flatMax > 0 {
			t.Fatalf("round %d: the tree left the flat form with %d ids", round, len(alive))
		}
	}
}

// TestRTreeUglyBoxes runs the same boxes through R-trees.
func TestRTreeUglyBoxes(t *testing.T) {
	noFlat(t)
	TestFlatUglyBoxes(t)
}
