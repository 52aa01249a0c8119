package broadphase

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/collide-go/collide/shape"
)

var seedFlag = flag.Uint64("seed", 0, "seed of the random tests (0 picks one)")

// testSeed returns the seed of a random test and prints it if the test
// fails, so the failure can be replayed with -seed.
func testSeed(t *testing.T) uint64 {
	t.Helper()
	seed := *seedFlag
	if seed == 0 {
		seed = randomSeed()
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("seed %d: rerun with -seed %d", seed, seed)
		}
	})
	return seed
}

// scene is a random world driven through Insert, Update, Remove and Touch,
// mirrored into several indexes at once.
type scene struct {
	r     *rand.Rand
	w     float64
	tight []shape.AABB
	vel   []shape.Vec2
	alive []bool
	// static proxies went in with InsertStatic: never paired together.
	static []bool
	group  []uint8
	live   int
}

func newScene(seed uint64, w float64) *scene {
	return &scene{r: rand.New(rand.NewPCG(seed, 1)), w: w}
}

// filter rejects pairs inside group 3 and pairs whose ids sum to a multiple
// of 7. It reads only scene state that changes together with a Touch.
func (s *scene) filter(a, b int32) bool {
	return !(s.group[a] == 3 && s.group[b] == 3) && (a+b)%7 != 0
}

func (s *scene) randomBox() shape.AABB {
	r := s.r
	if s.live > 0 && r.IntN(20) == 0 {
		// An exact copy of another proxy's box: equal rects in the R-tree.
		return s.tight[s.randomLive()]
	}
	c := shape.Vec2{X: r.Float64() * s.w, Y: r.Float64() * s.w}
	h := shape.Vec2{X: r.Float64() * 6, Y: r.Float64() * 6}
	if r.IntN(20) == 0 {
		h = shape.Vec2{} // a point
	}
	return shape.AABBFromCenter(c, h)
}

func (s *scene) randomLive() int32 {
	for {
		if i := s.r.IntN(len(s.alive)); s.alive[i] {
			return int32(i)
		}
	}
}

// freeID returns a dead slot or a new one.
func (s *scene) freeID() int32 {
	for range 4 {
		if len(s.alive) > 0 {
			if i := s.r.IntN(len(s.alive)); !s.alive[i] {
				return int32(i)
			}
		}
	}
	s.tight = append(s.tight, shape.AABB{})
	s.vel = append(s.vel, shape.Vec2{})
	s.alive = append(s.alive, false)
	s.static = append(s.static, false)
	s.group = append(s.group, 0)
	return int32(len(s.alive) - 1)
}

func (s *scene) insert(ixs []index) {
	id := s.freeID()
	s.tight[id] = s.randomBox()
	s.vel[id] = shape.Vec2{X: s.r.NormFloat64() * 2, Y: s.r.NormFloat64() * 2}
	s.alive[id] = true
	s.group[id] = uint8(s.r.IntN(4))
	s.static[id] = s.r.IntN(5) == 0
	s.live++
	for _, ix := range ixs {
		if s.static[id] {
			ix.InsertStatic(id, s.tight[id])
		} else {
			ix.Insert(id, s.tight[id])
		}
	}
}

func (s *scene) remove(ixs []index, id int32) {
	s.alive[id] = false
	s.live--
	for _, ix := range ixs {
		ix.Remove(id)
	}
}

func (s *scene) move(ixs []index, id int32) {
	r := s.r
	old := s.tight[id]
	b := old.Translate(s.vel[id])
	switch r.IntN(50) {
	case 0: // teleport
		b = s.randomBox()
	case 1: // change size
		b = shape.AABBFromCenter(b.Center(), shape.Vec2{X: r.Float64() * 8, Y: r.Float64() * 8})
	case 2: // change course
		s.vel[id] = shape.Vec2{X: r.NormFloat64() * 3, Y: r.NormFloat64() * 3}
	}
	s.tight[id] = b
	for _, ix := range ixs {
		ix.Update(id, b, b.Center().Sub(old.Center()))
	}
}

// step applies one frame of random operations.
func (s *scene) step(ixs []index, maxLive int) {
	r := s.r
	for range r.IntN(6) {
		if s.live < maxLive {
			s.insert(ixs)
		}
	}
	for i := range s.alive {
		id := int32(i)
		if !s.alive[i] {
			continue
		}
		switch p := r.IntN(100); {
		case p < 3:
			s.remove(ixs, id)
		case p < 4: // remove and reuse the slot within one step
			s.remove(ixs, id)
			s.tight[id] = s.randomBox()
			s.alive[id] = true
			s.live++
			for _, ix := range ixs {
				ix.Insert(id, s.tight[id])
			}
		case p < 6:
			s.group[id] = uint8(r.IntN(4))
			for _, ix := range ixs {
				ix.Touch(id)
			}
		case p < 80:
			s.move(ixs, id)
			if r.IntN(10) == 0 {
				s.move(ixs, id) // twice in one step
			}
		}
	}
}

// checkPairSet checks that pairs is sorted by key, unique, with A < B, and
// holds every pair of live proxies whose tight boxes overlap and that
// filter accepts, unless both are static.
func checkPairSet(s *scene, pairs []Pair, filter func(a, b int32) bool) error {
	for i, p := range pairs {
		if p.A >= p.B {
			return fmt.Errorf("pair %v: want A < B", p)
		}
		if i > 0 && pairs[i-1].Key() >= p.Key() {
			return fmt.Errorf("pairs %v, %v: not sorted and unique", pairs[i-1], p)
		}
	}
	for a := range s.alive {
		for b := a + 1; b < len(s.alive); b++ {
			if !s.alive[a] || !s.alive[b] || (s.static[a] && s.static[b]) || !s.tight[a].Overlaps(s.tight[b]) || !filter(int32(a), int32(b)) {
				continue
			}
			if _, ok := slices.BinarySearchFunc(pairs, Pair{int32(a), int32(b)}, comparePairs); !ok {
				return fmt.Errorf("pair {%d %d} missing: tight boxes %v and %v overlap", a, b, s.tight[a], s.tight[b])
			}
		}
	}
	return nil
}

func TestTreeRandomScenes(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		parallel bool // queries spread over goroutines by SetParallel
	}{
		{"default", Config{}, false},
		{"no-margin-no-stretch", Config{Margin: -1, MotionFrames: -1}, false},
		{"wide", Config{Margin: 3, MotionFrames: 2}, false},
		{"parallel", Config{}, true},
	}
	steps := 300
	if testing.Short() {
		steps = 60
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			seed := testSeed(t)
			s := newScene(seed, 120)
			tr, bf := NewTree(tc.cfg), NewBruteForce(tc.cfg)
			if tc.parallel {
				tr.SetParallel(3, 1, goroutines(3))
			}
			tr.SetFilter(s.filter)
			bf.SetFilter(s.filter)
			ixs := []index{tr, bf}
			for step := range steps {
				s.step(ixs, 200)
				tr.UpdatePairs()
				bf.UpdatePairs()
				if err := tr.validate(s.tight); err != nil {
					t.Fatalf("step %d: Tree.validate() = %v", step, err)
				}
				for _, ix := range ixs {
					if err := checkPairSet(s, ix.Pairs(), s.filter); err != nil {
						t.Fatalf("step %d: %T.Pairs(): %v", step, ix, err)
					}
				}
				if got, want := tr.Pairs(), bf.Pairs(); !slices.Equal(got, want) {
					t.Fatalf("step %d: Tree.Pairs() has %d pairs, BruteForce.Pairs() %d; differ at %v",
						step, len(got), len(want), firstDiff(got, want))
				}
				got, want := tr.Stats(), bf.Stats()
				got.Queried, want.Queried = 0, 0
				got.Candidates, want.Candidates = 0, 0
				if got != want {
					t.Fatalf("step %d: Tree.Stats() = %+v, BruteForce.Stats() = %+v", step, got, want)
				}
				if tr.Len() != s.live {
					t.Fatalf("step %d: Len() = %d, want %d", step, tr.Len(), s.live)
				}
			}
		})
	}
}

// firstDiff returns the first pair in one of a, b but not the other.
func firstDiff(a, b []Pair) Pair {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			if a[i].Key() < b[i].Key() {
				return a[i]
			}
			return b[i]
		}
	}
	if len(a) > len(b) {
		return a[len(b)]
	}
	if len(b) > len(a) {
		return b[len(a)]
	}
	return Pair{-1, -1}
}

// box returns the box [x0, x1] × [y0, y1].
func box(x0, y0, x1, y1 float64) shape.AABB {
	return shape.AABB{Min: shape.Vec2{X: x0, Y: y0}, Max: shape.Vec2{X: x1, Y: y1}}
}

func TestTreeUpdateReinsertsOnlyOutsideFatBox(t *testing.T) {
	tests := []struct {
		name       string
		to         shape.AABB
		disp       shape.Vec2
		reinserted int
	}{
		{"inside-margin", box(0.1, 0, 1.1, 1), shape.Vec2{X: 0.1}, 0},
		{"unmoved", box(0, 0, 1, 1), shape.Vec2{}, 0},
		{"left-fat-box", box(0.5, 0, 1.5, 1), shape.Vec2{X: 0.5}, 1},
		{"grew", box(-1, -1, 2, 2), shape.Vec2{}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTree(Config{})
			tr.Insert(0, box(0, 0, 1, 1))
			tr.UpdatePairs()
			before := tr.FatAABB(0)
			tr.Update(0, tc.to, tc.disp)
			tr.UpdatePairs()
			if got := tr.Stats().Reinserted; got != tc.reinserted {
				t.Errorf("Update(0, %v, %v): Stats().Reinserted = %d, want %d", tc.to, tc.disp, got, tc.reinserted)
			}
			fat := tr.FatAABB(0)
			if tc.reinserted == 0 && fat != before {
				t.Errorf("FatAABB(0) = %v, want it unchanged at %v", fat, before)
			}
			if !fat.ContainsAABB(tc.to) {
				t.Errorf("FatAABB(0) = %v does not contain the tight box %v", fat, tc.to)
			}
			// The stretch reaches at least 0.75·MotionFrames along the motion.
			if reach := tc.to.Max.X + 0.75*DefaultMotionFrames*tc.disp.X; tc.reinserted == 1 && fat.Max.X < reach {
				t.Errorf("FatAABB(0).Max.X = %g, want >= %g (stretched along the motion)", fat.Max.X, reach)
			}
			if err := tr.validate(nil); err != nil {
				t.Errorf("validate() = %v", err)
			}
		})
	}
}

func TestFattenTeleportIsCapped(t *testing.T) {
	tight := box(0, 0, 2, 1)
	fat := fatten(tight, shape.Vec2{X: 1e6, Y: -1e6}, 0.5, 8)
	if w := fat.Max.X - fat.Min.X; w > 2+stretchCap*2+1 {
		t.Errorf("fatten(%v, teleport of 1e6).width = %g, want <= %g", tight, w, 2+stretchCap*2+1.0)
	}
	if !fat.ContainsAABB(tight) {
		t.Errorf("fatten(%v, teleport) = %v does not contain the tight box", tight, fat)
	}
	nan := fatten(tight, shape.Vec2{X: math.NaN()}, 0.5, 8)
	if !nan.IsFinite() || nan != tight.Expand(0.5) {
		t.Errorf("fatten(%v, NaN displacement) = %v, want %v", tight, nan, tight.Expand(0.5))
	}
}

func TestConfigResolve(t *testing.T) {
	tests := []struct {
		cfg            Config
		margin, frames float64
	}{
		{Config{}, DefaultMargin, DefaultMotionFrames},
		{Config{Margin: 2, MotionFrames: 3}, 2, 3},
		{Config{Margin: -1, MotionFrames: -1}, 0, 0},
		{Config{Margin: math.NaN(), MotionFrames: math.NaN()}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%+v", tc.cfg), func(t *testing.T) {
			m, f := tc.cfg.resolve()
			if m != tc.margin || f != tc.frames {
				t.Errorf("%+v.resolve() = %g, %g; want %g, %g", tc.cfg, m, f, tc.margin, tc.frames)
			}
		})
	}
}

// TestFilterCalls follows one pair through the rules of SetFilter: the
// filter sees a pair when it is new, not while it persists, and again after
// a Touch.
func TestFilterCalls(t *testing.T) {
	tr := NewTree(Config{})
	accept := true
	calls := 0
	tr.SetFilter(func(a, b int32) bool {
		calls++
		if a >= b {
			t.Errorf("filter(%d, %d): want a < b", a, b)
		}
		return accept
	})
	type stepFn func()
	steps := []struct {
		name  string
		do    stepFn
		calls int
		pairs []Pair
	}{
		{"insert-overlapping", func() {
			tr.Insert(3, box(0, 0, 1, 1))
			tr.Insert(1, box(0.5, 0.5, 2, 2))
		}, 1, []Pair{{1, 3}}},
		{"nothing-moved", func() {}, 0, []Pair{{1, 3}}},
		{"reinsert-still-overlapping", func() {
			tr.Update(3, box(0.2, 0, 1.2, 1), shape.Vec2{X: 0.2})
			tr.Update(3, box(3, 3, 4, 4), shape.Vec2{X: 0.2})
			tr.Update(3, box(0.2, 0, 1.2, 1), shape.Vec2{X: 0.2})
		}, 0, []Pair{{1, 3}}},
		{"touch-rejects", func() {
			accept = false
			tr.Touch(1)
		}, 1, []Pair{}},
		{"rejected-pair-not-asked-again", func() {}, 0, []Pair{}},
		{"touch-accepts", func() {
			accept = true
			tr.Touch(3)
		}, 1, []Pair{{1, 3}}},
		{"move-apart", func() {
			tr.Update(3, box(50, 50, 51, 51), shape.Vec2{X: 50, Y: 50})
		}, 0, []Pair{}},
		{"remove-and-reuse-slot-far-away", func() {
			tr.Update(3, box(0, 0, 1, 1), shape.Vec2{X: -50, Y: -50})
			tr.UpdatePairs()
			calls = 0
			tr.Remove(1)
			tr.Insert(1, box(90, 90, 91, 91))
		}, 0, []Pair{}},
		{"remove-and-reuse-slot-in-place", func() {
			tr.Update(1, box(0.5, 0.5, 2, 2), shape.Vec2{})
			tr.UpdatePairs()
			calls = 0
			tr.Remove(1)
			tr.Insert(1, box(0.5, 0.5, 2, 2))
		}, 1, []Pair{{1, 3}}},
	}
	for _, st := range steps {
		calls = 0
		st.do()
		tr.UpdatePairs()
		if calls != st.calls {
			t.Errorf("%s: filter called %d times, want %d", st.name, calls, st.calls)
		}
		if got := tr.Pairs(); !slices.Equal(got, st.pairs) {
			t.Errorf("%s: Pairs() = %v, want %v", st.name, got, st.pairs)
		}
		if err := tr.validate(nil); err != nil {
			t.Errorf("%s: validate() = %v", st.name, err)
		}
	}
}

// TestPairsIndependentOfInsertionOrder inserts the same proxies, many with
// equal boxes, in different orders: the pair set and the sequence of
// filter calls must not change.
func TestPairsIndependentOfInsertionOrder(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 2))
	const n = 300
	boxes := make([]shape.AABB, n)
	for i := range boxes {
		if i > 0 && r.IntN(3) == 0 {
			boxes[i] = boxes[r.IntN(i)]
			continue
		}
		c := shape.Vec2{X: r.Float64() * 100, Y: r.Float64() * 100}
		boxes[i] = shape.AABBFromCenter(c, shape.Vec2{X: 1 + r.Float64()*3, Y: 1 + r.Float64()*3})
	}
	run := func(order []int) ([]Pair, []Pair) {
		tr := NewTree(Config{})
		var calls []Pair
		tr.SetFilter(func(a, b int32) bool {
			calls = append(calls, Pair{a, b})
			return (a+b)%3 != 0
		})
		for _, i := range order {
			tr.Insert(int32(i), boxes[i])
		}
		tr.UpdatePairs()
		return slices.Clone(tr.Pairs()), calls
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	wantPairs, wantCalls := run(order)
	for k := range 5 {
		r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		gotPairs, gotCalls := run(order)
		if !slices.Equal(gotPairs, wantPairs) {
			t.Errorf("shuffle %d: Pairs() differ from insertion in id order at %v", k, firstDiff(gotPairs, wantPairs))
		}
		if !slices.Equal(gotCalls, wantCalls) {
			t.Errorf("shuffle %d: filter call sequence differs from insertion in id order", k)
		}
	}
}

func TestTreePanicsOnBadIDs(t *testing.T) {
	tests := []struct {
		name string
		do   func(tr *Tree)
	}{
		{"insert-live", func(tr *Tree) { tr.Insert(0, box(0, 0, 1, 1)) }},
		{"insert-negative", func(tr *Tree) { tr.Insert(-1, box(0, 0, 1, 1)) }},
		{"remove-unknown", func(tr *Tree) { tr.Remove(7) }},
		{"remove-twice", func(tr *Tree) { tr.Remove(0); tr.Remove(0) }},
		{"update-unknown", func(tr *Tree) { tr.Update(2, box(0, 0, 1, 1), shape.Vec2{}) }},
		{"touch-negative", func(tr *Tree) { tr.Touch(-3) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTree(Config{})
			tr.Insert(0, box(0, 0, 1, 1))
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			tc.do(tr)
		})
	}
}

func TestSortCandidates(t *testing.T) {
	seed := testSeed(t)
	r := rand.New(rand.NewPCG(seed, 8))
	for _, tc := range []struct{ proxies, cands int }{
		{10, 40}, {200, 300}, {255, 1000}, {256, 1000}, {1000, 255}, {1000, 5000}, {65535, 3000}, {70000, 3000},
	} {
		t.Run(fmt.Sprintf("proxies=%d/cands=%d", tc.proxies, tc.cands), func(t *testing.T) {
			tr := NewTree(Config{})
			tr.flags = make([]uint8, tc.proxies)
			for range tc.cands {
				tr.cand = append(tr.cand, pairKey(int32(r.IntN(tc.proxies)), int32(r.IntN(tc.proxies))))
			}
			want := slices.Clone(tr.cand)
			slices.Sort(want)
			tr.sortCandidates(pairKeys(make([]Pair, len(tr.cand))))
			if !slices.Equal(tr.cand, want) {
				t.Errorf("sortCandidates() of %d keys below %d: not sorted like slices.Sort", tc.cands, tc.proxies)
			}
		})
	}
}

// TestSwarmValidate runs the benchmark swarm, large enough for the radix
// sort of candidates, and validates the tree after every frame.
func TestSwarmValidate(t *testing.T) {
	frames := 100
	if testing.Short() {
		frames = 20
	}
	seed := testSeed(t)
	s := newSwarm(2000, seed)
	tr := NewTree(Config{})
	s.insert(tr)
	radix := 0
	for f := range frames {
		s.step(tr)
		tr.UpdatePairs()
		if err := tr.validate(s.boxes()); err != nil {
			t.Fatalf("frame %d: validate() = %v", f, err)
		}
		if tr.Stats().Candidates >= 256 {
			radix++
		}
	}
	if radix < frames/4 {
		t.Errorf("%d of %d frames had 256 candidates or more, want a quarter: the radix sort is not exercised", radix, frames)
	}
}

// goroutines returns a SetParallel hook that runs the ranges on n
// goroutines at once.
func goroutines(n int) func(int, func(worker, lo, hi int)) {
	return func(total int, fn func(worker, lo, hi int)) {
		var wg sync.WaitGroup
		chunk := (total + n - 1) / n
		for w := range n {
			lo, hi := min(w*chunk, total), min((w+1)*chunk, total)
			wg.Add(1)
			go func() { defer wg.Done(); fn(w, lo, hi) }()
		}
		wg.Wait()
	}
}

// TestSortCandidatesWide: with ids past 16 bits, sortCandidates (its
// packed radix sort, sortWide) orders random candidate keys, repeats and
// extreme ids included, exactly as slices.Sort does.
func TestSortCandidatesWide(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 31))
	for _, tc := range []struct {
		name  string
		ids   int
		cands int
	}{
		{"65537 ids", 1<<16 + 1, 300},
		{"100k ids", 100000, 35000},
		{"2^20 ids", 1 << 20, 5000},
		{"2^22 ids", 1<<22 - 1, 4000},
		{"2^22+1 ids", 1<<22 + 1, 4000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &Tree{flags: make([]uint8, tc.ids)}
			for range tc.cands {
				a, b := int32(r.IntN(tc.ids)), int32(r.IntN(tc.ids))
				switch r.IntN(8) {
				case 0:
					a = 0
				case 1:
					b = int32(tc.ids - 1)
				}
				if a == b {
					continue
				}
				tr.cand = append(tr.cand, pairKey(a, b))
				if r.IntN(10) == 0 {
					tr.cand = append(tr.cand, pairKey(a, b))
				}
			}
			want := slices.Sorted(slices.Values(tr.cand))
			for round := range 2 { // the second reuses the scratch buffers
				tr.cand = append(tr.cand[:0], want...)
				r.Shuffle(len(tr.cand), func(i, j int) { tr.cand[i], tr.cand[j] = tr.cand[j], tr.cand[i] })
				tr.sortCandidates(pairKeys(make([]Pair, len(tr.cand))))
				if !slices.Equal(tr.cand, want) {
					t.Fatalf("round %d: sortCandidates of %d keys over %d ids is not sorted", round, len(want), tc.ids)
				}
			}
		})
	}
}
