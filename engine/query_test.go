package engine

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// liveSlots lists the slots of live bodies.
func liveSlots(w *World) []int32 {
	var out []int32
	for s := range int32(len(w.b.hot)) {
		if w.b.hot[s].flags&flagAlive != 0 {
			out = append(out, s)
		}
	}
	return out
}

func idsOf(fn func(func(BodyID) bool) error) ([]BodyID, error) {
	var out []BodyID
	err := fn(func(id BodyID) bool { out = append(out, id); return true })
	slices.Sort(out)
	return out, err
}

func TestQueriesMatchBruteForce(t *testing.T) {
	seed := testSeed(t, 21)
	sc := newScene(t, seed, 500, Config{Workers: 1})
	for step := range 30 {
		sc.churn(t, step%5 == 0)
		sc.w.Step()
	}
	w, r := sc.w, rand.New(rand.NewPCG(seed, 99))
	b := &w.b
	filters := []Filter{{}, {Category: 2, Mask: 2}, {Category: 1, Mask: 1}}
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	for i := range rounds {
		f := filters[i%len(filters)]
		fd := f.bits()
		p := shape.V(r.Float64()*sc.sz, r.Float64()*sc.sz)

		// QueryPoint.
		got, err := idsOf(func(fn func(BodyID) bool) error { return w.QueryPoint(p, f, fn) })
		if err != nil {
			t.Fatal(err)
		}
		var want []BodyID
		for _, s := range liveSlots(w) {
			if accepts(fd, b.filter[s]) && narrowphase.ContainsPoint(b.shapes[s], b.xf[s], p) {
				want = append(want, w.idOf(s))
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: QueryPoint(%v) = %v, want %v", i, p, got, want)
		}

		// QueryShape with a rotated box, and QueryAABB.
		hit := randomShape(t, r, shape.Kind(r.IntN(int(shape.KindSegment)+1)))
		xf := shape.NewTransform(p, r.Float64()*7)
		got, err = idsOf(func(fn func(BodyID) bool) error {
			return w.QueryShape(hit, xf, f, func(id BodyID, m narrowphase.Manifold) bool {
				s := id.slot()
				wm, ok := narrowphase.Collide(hit, xf, b.shapes[s], b.xf[s])
				if !ok || wm != m {
					t.Errorf("QueryShape manifold for %x = %+v, want %+v", id, m, wm)
				}
				return fn(id)
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		want = want[:0]
		for _, s := range liveSlots(w) {
			if accepts(fd, b.filter[s]) && narrowphase.Overlap(hit, xf, b.shapes[s], b.xf[s]) {
				want = append(want, w.idOf(s))
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: QueryShape(%v at %v) = %v, want %v", i, hit, p, got, want)
		}
		box := shape.AABB{Min: p, Max: p.Add(shape.V(float64(r.Float64()*8), float64(r.Float64()*8)))}
		got, err = idsOf(func(fn func(BodyID) bool) error { return w.QueryAABB(box, f, fn) })
		if err != nil {
			t.Fatal(err)
		}
		bs, _ := shape.NewAABB(box.HalfExtents().X, box.HalfExtents().Y)
		want = want[:0]
		for _, s := range liveSlots(w) {
			if accepts(fd, b.filter[s]) && narrowphase.Overlap(bs, shape.Transform{Pos: box.Center()}, b.shapes[s], b.xf[s]) {
				want = append(want, w.idOf(s))
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: QueryAABB(%v) = %v, want %v", i, box, got, want)
		}

		// RayCast and RayCastAll.
		a := uni(r, 0, 2*math.Pi)
		sn, cs := shape.SinCos(a)
		dir := shape.V(cs, sn)
		maxDist := uni(r, 5, 65)
		var all []RayHit
		for _, s := range liveSlots(w) {
			if !accepts(fd, b.filter[s]) {
				continue
			}
			if h, ok := narrowphase.RayCast(b.shapes[s], b.xf[s], p, dir, maxDist); ok {
				all = append(all, RayHit{Body: w.idOf(s), Point: h.Point, Normal: h.Normal, Distance: h.Distance})
			}
		}
		slices.SortFunc(all, func(x, y RayHit) int {
			if c := cmp.Compare(x.Distance, y.Distance); c != 0 {
				return c
			}
			return cmp.Compare(x.Body, y.Body)
		})
		first, ok, err := w.RayCast(p, dir, maxDist, f)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (len(all) > 0) || (ok && first != all[0]) {
			t.Fatalf("round %d: RayCast from %v along %v = %+v %v, want %v", i, p, dir, first, ok, all)
		}
		// Any non-zero direction length is accepted and normalised.
		scaled, ok, err := w.RayCast(p, dir.Scale(3), maxDist, f)
		if err != nil || ok != (len(all) > 0) || (ok && (scaled.Body != first.Body || math.Abs(scaled.Distance-first.Distance) > 1e-9)) {
			t.Fatalf("round %d: RayCast with dir*3 = %+v %v %v, want %+v", i, scaled, ok, err, first)
		}
		var gotAll []RayHit
		if err := w.RayCastAll(p, dir, maxDist, f, func(h RayHit) bool { gotAll = append(gotAll, h); return true }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(gotAll, all) {
			t.Fatalf("round %d: RayCastAll = %v, want %v", i, gotAll, all)
		}

		// Nearest.
		k := 1 + r.IntN(8)
		type nd struct {
			id BodyID
			d  float64
		}
		var near []nd
		for _, s := range liveSlots(w) {
			if accepts(fd, b.filter[s]) {
				near = append(near, nd{w.idOf(s), math.Sqrt(narrowphase.DistanceSq(b.shapes[s], b.xf[s], p))})
			}
		}
		slices.SortFunc(near, func(x, y nd) int {
			if c := cmp.Compare(x.d, y.d); c != 0 {
				return c
			}
			return cmp.Compare(x.id, y.id)
		})
		var gotNear []nd
		if err := w.Nearest(p, k, f, func(id BodyID, d float64) bool { gotNear = append(gotNear, nd{id, d}); return true }); err != nil {
			t.Fatal(err)
		}
		if len(gotNear) != min(k, len(near)) {
			t.Fatalf("round %d: Nearest(k=%d) gave %d results", i, k, len(gotNear))
		}
		for j, g := range gotNear {
			// Rank for rank, ties broken by id.
			if g != near[j] {
				t.Fatalf("round %d: Nearest #%d = %x at %v, want distance %v", i, j, g.id, g.d, near[j].d)
			}
		}
	}
}

func TestQueriesAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	sc := newScene(t, 8, 1000, Config{Workers: 1})
	sc.w.Step()
	w := sc.w
	box, _ := shape.NewOBB(3, 1.5)
	p := shape.V(sc.sz/2, sc.sz/2)
	xf := shape.NewTransform(p, 0.7)
	n := 0
	cases := map[string]func(){
		"QueryShape": func() {
			_ = w.QueryShape(box, xf, Filter{}, func(BodyID, narrowphase.Manifold) bool { n++; return true })
		},
		"QueryAABB": func() {
			_ = w.QueryAABB(shape.AABB{Min: p, Max: p.Add(shape.V(5, 5))}, Filter{}, func(BodyID) bool { n++; return true })
		},
		"QueryPoint": func() { _ = w.QueryPoint(p, Filter{}, func(BodyID) bool { n++; return true }) },
		"RayCast":    func() { _, _, _ = w.RayCast(p, shape.V(1, 0.3), 100, Filter{}) },
		"RayCastAll": func() { _ = w.RayCastAll(p, shape.V(1, 0.3), 100, Filter{}, func(RayHit) bool { n++; return true }) },
		"Nearest":    func() { _ = w.Nearest(p, 8, Filter{}, func(BodyID, float64) bool { n++; return true }) },
	}
	for name, f := range cases {
		f() // warm pools
		if a := testing.AllocsPerRun(200, f); a != 0 {
			t.Errorf("%s allocates %.1f times per call, want 0", name, a)
		}
	}
	if n == 0 {
		t.Error("no query found anything; the test proves nothing")
	}
}

// TestConcurrentQueries runs queries from several goroutines at once while
// nothing mutates; with -race it proves queries write no shared state.
func TestConcurrentQueries(t *testing.T) {
	sc := newScene(t, 9, 500, Config{Workers: 2})
	sc.w.Step()
	w := sc.w
	box, _ := shape.NewOBB(3, 1.5)
	var wg sync.WaitGroup
	counts := make([]int, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for range 200 {
				p := shape.V(r.Float64()*sc.sz, r.Float64()*sc.sz)
				_ = w.QueryShape(box, shape.NewTransform(p, r.Float64()), Filter{}, func(BodyID, narrowphase.Manifold) bool { counts[g]++; return true })
				_ = w.QueryPoint(p, Filter{}, func(BodyID) bool { counts[g]++; return true })
				if _, ok, _ := w.RayCast(p, shape.V(1, 1), 50, Filter{}); ok {
					counts[g]++
				}
				_ = w.RayCastAll(p, shape.V(-1, 1), 50, Filter{}, func(RayHit) bool { counts[g]++; return true })
				_ = w.Nearest(p, 4, Filter{}, func(BodyID, float64) bool { counts[g]++; return true })
				for range w.Contacts() {
					counts[g]++
				}
			}
		}()
	}
	wg.Wait()
	for g, c := range counts {
		if c == 0 {
			t.Errorf("goroutine %d found nothing", g)
		}
	}
}

// Regression tests for defects a review found at the numeric edges.

func TestRayCastTinyAndHugeDirections(t *testing.T) {
	w := NewWorld(Config{Workers: 1})
	ball, _ := shape.NewCircle(1)
	up, _ := w.Add(BodyDef{Shape: ball, Position: shape.V(0, 10)})
	_, _ = w.Add(BodyDef{Shape: ball, Position: shape.V(10, 0)})
	w.Step()
	for _, dir := range []shape.Vec2{shape.V(0, 1e-151), shape.V(0, 5e-324), shape.V(0, 1e300), shape.V(0, math.MaxFloat64)} {
		h, ok, err := w.RayCast(shape.V(0, 0), dir, math.Inf(1), Filter{})
		if err != nil || !ok || h.Body != up || h.Distance != 9 {
			t.Errorf("RayCast along %v = %+v, %v, %v; want the body above at distance 9", dir, h, ok, err)
		}
	}
}

func TestRayCastTieInsideGoesToLowerID(t *testing.T) {
	w := NewWorld(Config{Workers: 1})
	ball, _ := shape.NewCircle(1)
	a, _ := w.Add(BodyDef{Shape: ball})
	_, _ = w.Add(BodyDef{Shape: ball, Position: shape.V(100, 0)})
	_ = w.Remove(a)
	w.Step()
	w.Step()                             // the slot is free again
	a2, _ := w.Add(BodyDef{Shape: ball}) // slot 0, generation 2: the higher id
	b, _ := w.Add(BodyDef{Shape: ball})  // slot 2, generation 1: the lower id
	if !(b < a2) {
		t.Fatalf("ids %x, %x: the test needs the later slot to have the lower id", a2, b)
	}
	w.Step()
	h, ok, err := w.RayCast(shape.V(0, 0), shape.V(1, 0), 10, Filter{})
	if err != nil || !ok || h.Body != b || h.Distance != 0 {
		t.Errorf("RayCast from inside both = %+v, %v, %v; want body %x at distance 0", h, ok, err, b)
	}
}

func TestNearestFarAwayIsNeverNaN(t *testing.T) {
	w := NewWorld(Config{Workers: 1})
	ball, _ := shape.NewCircle(1)
	box, _ := shape.NewOBB(1, 2)
	_, _ = w.Add(BodyDef{Shape: ball})
	_, _ = w.Add(BodyDef{Shape: box, Position: shape.V(5, 5), Angle: 0.3})
	w.Step()
	n := 0
	err := w.Nearest(shape.V(1e300, -1e300), 5, Filter{}, func(id BodyID, d float64) bool {
		n++
		if math.IsNaN(d) || d < 1e299 {
			t.Errorf("Nearest from 1e300 gives %x at distance %v, want a huge distance or +Inf", id, d)
		}
		return true
	})
	if err != nil || n != 2 {
		t.Errorf("Nearest from 1e300 yielded %d bodies, err %v; want 2", n, err)
	}
}

func TestQueryAABBHugeBox(t *testing.T) {
	w := NewWorld(Config{Workers: 1})
	ball, _ := shape.NewCircle(1)
	id, _ := w.Add(BodyDef{Shape: ball})
	w.Step()
	for _, r := range []float64{1e151, math.MaxFloat64} {
		var got []BodyID
		err := w.QueryAABB(shape.AABB{Min: shape.V(-r, -r), Max: shape.V(r, r)}, Filter{}, func(b BodyID) bool { got = append(got, b); return true })
		if err != nil || len(got) != 1 || got[0] != id {
			t.Errorf("QueryAABB(±%g) = %v, %v; want [%x]", r, got, err, id)
		}
	}
	// Touching the body's box from outside is still not a hit.
	var got []BodyID
	_ = w.QueryAABB(shape.AABB{Min: shape.V(1, -1), Max: shape.V(1e200, 1)}, Filter{}, func(b BodyID) bool { got = append(got, b); return true })
	if len(got) != 0 {
		t.Errorf("QueryAABB of a box touching the circle = %v, want nothing", got)
	}
}

// TestCategoryIndexBuiltOnDemand checks the category index's life: a world
// keeps none until a Nearest with a filter that leaves out categories
// builds it, and from then on Add, Remove and SetFilter keep it right,
// and clones and restores keep it or not as the world did. Nearest's
// answers, through either strategy, are the brute force's.
func TestCategoryIndexBuiltOnDemand(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t, 5), 9))
	w := NewWorld(Config{Workers: 1})
	var ids []BodyID
	// One body in fifty is of the team Nearest asks for: few enough that
	// the index serves it (see NearestWithin).
	randCat := func() Filter {
		if r.IntN(50) == 0 {
			return Filter{Category: 1 << 3, Mask: math.MaxUint32}
		}
		return Filter{Category: 1 << r.IntN(3), Mask: math.MaxUint32}
	}
	add := func() {
		s, err := shape.NewCircle(uni(r, 0.2, 1))
		if err != nil {
			t.Fatal(err)
		}
		id, err := w.Add(BodyDef{Shape: s, Position: shape.V(uni(r, 0, 100), uni(r, 0, 100)), Filter: randCat()})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for range 2000 {
		add()
	}
	team := Filter{Mask: 1 << 3}
	check := func(when string) {
		t.Helper()
		p := shape.V(uni(r, 0, 100), uni(r, 0, 100))
		type nd struct {
			id BodyID
			d  float64
		}
		var want, got []nd
		b := &w.b
		for _, s := range liveSlots(w) {
			if b.filter[s].cat&team.Mask != 0 {
				want = append(want, nd{w.idOf(s), math.Sqrt(narrowphase.DistanceSq(b.shapes[s], b.xf[s], p))})
			}
		}
		slices.SortFunc(want, func(x, y nd) int { return cmp.Or(cmp.Compare(x.d, y.d), cmp.Compare(x.id, y.id)) })
		want = want[:min(5, len(want))]
		if err := w.Nearest(p, 5, team, func(id BodyID, d float64) bool { got = append(got, nd{id, d}); return true }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: Nearest = %v, want %v", when, got, want)
		}
	}
	w.Step()
	if err := w.Nearest(shape.V(50, 50), 3, Filter{}, func(BodyID, float64) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if w.b.cats.on || atomic.LoadUint32(&w.catState) != catNone {
		t.Fatal("the index was built before a query that it serves")
	}
	plain := w.Clone()
	check("first selective query")
	if !w.b.cats.on || atomic.LoadUint32(&w.catState) != catBuilt {
		t.Fatal("a selective Nearest did not build the index")
	}
	if c := w.Clone(); !c.b.cats.on || atomic.LoadUint32(&c.catState) != catBuilt {
		t.Fatal("a clone of a world with the index has none")
	}
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if plain.b.cats.on || atomic.LoadUint32(&plain.catState) != catNone {
		t.Fatal("a restore into a world without the index made one")
	}
	checkBodies(t, w)
	if c, n := w.b.cats.count(team.Mask), w.tree.Len(); c > 4*5 && c*c > 2*5*n {
		t.Fatalf("%d of %d bodies in the team: too many for Nearest to take the index", c, n)
	}
	check("index built")
	for round := range 200 {
		switch i := r.IntN(len(ids)); r.IntN(3) {
		case 0:
			if err := w.Remove(ids[i]); err == nil {
				ids = slices.Delete(ids, i, i+1)
			}
		case 1:
			add()
		default:
			if err := w.SetFilter(ids[i], randCat()); err != nil {
				t.Fatal(err)
			}
		}
		if round%10 == 0 {
			w.Step()
		}
		check(fmt.Sprintf("round %d", round))
	}
	checkBodies(t, w)
}

// TestCategoryIndexBuiltWhileQueried has goroutines ask the same selective
// Nearest at once on a world that has no category index yet: one of them
// builds it while the others search around their point, and every answer
// is the same (run with -race to check the build's publication).
func TestCategoryIndexBuiltWhileQueried(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t, 8), 9))
	w := NewWorld(Config{Workers: 1})
	for i := range 3000 {
		s, err := shape.NewCircle(uni(r, 0.2, 1))
		if err != nil {
			t.Fatal(err)
		}
		f := Filter{Category: 1, Mask: math.MaxUint32}
		if i%100 == 0 {
			f.Category = 4
		}
		if _, err := w.Add(BodyDef{Shape: s, Position: shape.V(uni(r, 0, 200), uni(r, 0, 200)), Filter: f}); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	p, team := shape.V(100, 100), Filter{Mask: 4}
	answer := func() []BodyID {
		var ids []BodyID
		if err := w.Nearest(p, 4, team, func(id BodyID, _ float64) bool { ids = append(ids, id); return true }); err != nil {
			t.Error(err)
		}
		return ids
	}
	const g = 8
	got := make([][]BodyID, g)
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got[i] = answer()
			}
		}()
	}
	wg.Wait()
	if atomic.LoadUint32(&w.catState) != catBuilt {
		t.Fatal("no goroutine built the index")
	}
	want := answer()
	if len(want) != 4 {
		t.Fatalf("Nearest found %d team bodies, want 4", len(want))
	}
	for i := range got {
		if !slices.Equal(got[i], want) {
			t.Fatalf("goroutine %d: %v, want %v", i, got[i], want)
		}
	}
}
