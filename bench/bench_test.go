package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
	"github.com/collide-go/collide/shape"
)

// warmupFrames is how long a scene runs before it is measured: bodies
// created together leave their fat boxes in waves, so the first frames are
// not the steady state.
func warmupFrames(n int) int {
	if n >= 100000 {
		return 60
	}
	return 300
}

type loaded struct {
	sc  *scene.Scene
	w   *collide.World
	ids []collide.BodyID
}

func load(b *testing.B, sc *scene.Scene, workers int) *loaded {
	b.Helper()
	w := collide.NewWorld(collide.Config{Workers: workers})
	ids, err := scene.Load(w, sc)
	if err != nil {
		b.Fatal(err)
	}
	w.Step()
	return &loaded{sc: sc, w: w, ids: ids}
}

func (l *loaded) frame(b *testing.B) {
	l.sc.Advance()
	if err := scene.Sync(l.w, l.sc, l.ids); err != nil {
		b.Fatal(err)
	}
	l.w.Step()
}

func benchFrames(b *testing.B, sc *scene.Scene, workers int) {
	l := load(b, sc, workers)
	defer l.w.Close()
	for range warmupFrames(len(sc.Bodies)) {
		l.frame(b)
	}
	var st collide.Stats
	var update, pairs, narrow, cand, contacts, reins float64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		l.frame(b)
		st = l.w.Stats()
		update += float64(st.UpdateNs)
		pairs += float64(st.PairsNs)
		narrow += float64(st.NarrowNs)
		cand += float64(st.Pairs)
		contacts += float64(st.Contacts)
		reins += float64(st.Reinserted)
	}
	n := float64(b.N)
	b.ReportMetric(update/n, "update-ns/op")
	b.ReportMetric(pairs/n, "pairfind-ns/op")
	b.ReportMetric(narrow/n, "narrow-ns/op")
	b.ReportMetric(cand/n, "pairs/op")
	b.ReportMetric(contacts/n, "contacts/op")
	b.ReportMetric(reins/n, "reinserts/op")
}

// BenchmarkStep steps the swarm scene: n moving bodies, a quarter of each
// shape kind.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(b *testing.B) {
				benchFrames(b, scene.Swarm(n, 1), workers)
			})
			if runtime.GOMAXPROCS(0) == 1 {
				break
			}
		}
	}
}

// BenchmarkBullets steps the 10k swarm with 1,000 fast bodies (circles of
// radius 0.1 at 20 units a frame, bouncing off the world's edges): swept,
// as bullets, and plain, the same bodies stepped discretely; "none" is the
// swarm without them. swept − none is what the bullets add to a Step,
// swept − plain what sweeping costs.
func BenchmarkBullets(b *testing.B) {
	for _, mode := range []string{"swept", "plain", "none"} {
		b.Run(mode, func(b *testing.B) { benchBullets(b, mode) })
	}
}

func benchBullets(b *testing.B, mode string) {
	swept := mode == "swept"
	sc := scene.Swarm(10000, 1)
	l := load(b, sc, 1)
	defer l.w.Close()
	r := rand.New(rand.NewPCG(6, 7))
	ball, err := collide.NewCircle(0.1)
	if err != nil {
		b.Fatal(err)
	}
	n := 1000
	if mode == "none" {
		n = 0
	}
	ids := make([]collide.BodyID, n)
	pos := make([]collide.Vec2, n)
	vel := make([]collide.Vec2, n)
	for i := range ids {
		pos[i] = collide.V(r.Float64()*sc.World, r.Float64()*sc.World)
		s, c := math.Sincos(2 * math.Pi * r.Float64())
		vel[i] = collide.V(20*c, 20*s)
		if ids[i], err = l.w.Add(collide.BodyDef{Shape: ball, Position: pos[i], Bullet: swept}); err != nil {
			b.Fatal(err)
		}
	}
	frame := func() {
		for i := range ids {
			p := pos[i].Add(vel[i])
			if p.X < 0 || p.X > sc.World {
				vel[i].X = -vel[i].X
			}
			if p.Y < 0 || p.Y > sc.World {
				vel[i].Y = -vel[i].Y
			}
			pos[i] = pos[i].Add(vel[i])
			if err := l.w.SetTransform(ids[i], pos[i], 0); err != nil {
				b.Fatal(err)
			}
		}
		l.frame(b)
	}
	for range warmupFrames(len(sc.Bodies)) {
		frame()
	}
	found := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		frame()
		for c := range l.w.Contacts() {
			if c.Swept {
				found++
			}
		}
	}
	b.ReportMetric(float64(found)/float64(b.N), "swept/op")
}

// BenchmarkArena steps the arena scene: 80% static bodies, 20% moving. It
// should cost a fraction of a swarm step of the same size.
func BenchmarkArena(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("n=%d/workers=1", n), func(b *testing.B) {
			benchFrames(b, scene.Arena(n, 1), 1)
		})
	}
}

// heapPerBody returns the heap that build leaves reachable, per body of sc,
// after a full collection before and after. The ids slice build returns is
// the harness's, not the world's, and is left out.
func heapPerBody(sc *scene.Scene, build func() (keep any, ids []collide.BodyID)) float64 {
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	keep, ids := build()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(keep)
	return (float64(m1.HeapAlloc-m0.HeapAlloc) - float64(8*len(ids))) / float64(len(sc.Bodies))
}

// BenchmarkBuild builds a world of the 100k swarm's bodies and steps it
// once, and reports the heap each body costs (tree and pair cache
// included).
func BenchmarkBuild(b *testing.B) {
	sc := scene.Swarm(100000, 1)
	b.ReportAllocs()
	var perBody float64
	for b.Loop() {
		perBody = heapPerBody(sc, func() (any, []collide.BodyID) {
			l := load(b, sc, 1)
			return l.w, l.ids
		})
	}
	b.ReportMetric(perBody, "B/body")
}

// queryScene is the 10k swarm's first frame with pre-drawn random queries.
type queryScene struct {
	w      *collide.World
	points []collide.Vec2
	angles []float64
}

const queryCount = 10000

func newQueryScene(b *testing.B) *queryScene {
	sc := scene.Swarm(10000, 1)
	l := load(b, sc, 1)
	r := rand.New(rand.NewPCG(2, 3))
	q := &queryScene{w: l.w, points: make([]collide.Vec2, queryCount), angles: make([]float64, queryCount)}
	for i := range q.points {
		q.points[i] = collide.V(r.Float64()*sc.World, r.Float64()*sc.World)
		q.angles[i] = r.Float64() * 2 * math.Pi
	}
	return q
}

// BenchmarkQuery runs 10,000 random queries, cycled, on the first frame of
// the 10k swarm; one op is one query.
func BenchmarkQuery(b *testing.B) {
	q := newQueryScene(b)
	hitbox, err := collide.NewOBB(3, 1.5)
	if err != nil {
		b.Fatal(err)
	}
	found := 0
	b.Run("QueryShape", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			j := i % queryCount
			_ = q.w.QueryShape(hitbox, collide.NewTransform(q.points[j], q.angles[j]), collide.Filter{}, func(collide.BodyID, collide.Manifold) bool {
				found++
				return true
			})
			i++
		}
	})
	b.Run("RayCast", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			j := i % queryCount
			a := q.angles[j]
			if _, ok, _ := q.w.RayCast(q.points[j], collide.V(math.Cos(a), math.Sin(a)), 100, collide.Filter{}); ok {
				found++
			}
			i++
		}
	})
	b.Run("QueryPoint", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = q.w.QueryPoint(q.points[i%queryCount], collide.Filter{}, func(collide.BodyID) bool { found++; return true })
			i++
		}
	})
	bullet, err := collide.NewCircle(0.1)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("CastShape", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			j := i % queryCount
			a := q.angles[j]
			if _, ok, _ := q.w.CastShape(bullet, collide.NewTransform(q.points[j], 0), collide.V(40*math.Cos(a), 40*math.Sin(a)), collide.Filter{}); ok {
				found++
			}
			i++
		}
	})
	player, err := collide.NewCircle(0.5)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("MoveAndSlide", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			j := i % queryCount
			a := q.angles[j]
			if r, err := q.w.MoveAndSlide(player, collide.NewTransform(q.points[j], 0), collide.V(5*math.Cos(a), 5*math.Sin(a)), collide.Filter{}); err == nil && r.Blocked {
				found++
			}
			i++
		}
	})
	capsule, err := collide.NewCapsule(collide.V(0, -0.5), collide.V(0, 0.5), 0.4)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("MoveAndSlideCapsule", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			j := i % queryCount
			a := q.angles[j]
			if r, err := q.w.MoveAndSlide(capsule, collide.NewTransform(q.points[j], 0), collide.V(5*math.Cos(a), 5*math.Sin(a)), collide.Filter{}); err == nil && r.Blocked {
				found++
			}
			i++
		}
	})
	b.Run("Nearest", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = q.w.Nearest(q.points[i%queryCount], 8, collide.Filter{}, func(collide.BodyID, float64) bool { found++; return true })
			i++
		}
	})
	if found == 0 {
		b.Fatal("no query found anything")
	}
}

// BenchmarkNearestTeam is aggro in a crowded room: Nearest with a team
// filter that 3 of 3,003 bodies pass (the swarm's 3,000 plus three of
// category 2), from random points; one op is one query.
func BenchmarkNearestTeam(b *testing.B) {
	sc := scene.Swarm(3000, 1)
	l := load(b, sc, 1)
	r := rand.New(rand.NewPCG(4, 5))
	ball, err := collide.NewCircle(0.5)
	if err != nil {
		b.Fatal(err)
	}
	for range 3 {
		def := collide.BodyDef{Shape: ball, Position: collide.V(r.Float64()*sc.World, r.Float64()*sc.World), Filter: collide.Filter{Category: 2, Mask: math.MaxUint32}}
		if _, err := l.w.Add(def); err != nil {
			b.Fatal(err)
		}
	}
	l.w.Step()
	points := make([]collide.Vec2, queryCount)
	for i := range points {
		points[i] = collide.V(r.Float64()*sc.World, r.Float64()*sc.World)
	}
	team := collide.Filter{Category: 1, Mask: 2}
	found := 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = l.w.Nearest(points[i%queryCount], 1, team, func(collide.BodyID, float64) bool { found++; return true })
		i++
	}
	if found == 0 {
		b.Fatal("no query found anything")
	}
}

// BenchmarkHeapSteady reports the heap each body costs once the 100k swarm
// has run long enough for every buffer (pairs, contacts of two steps, the
// R-tree after churn) to reach its working size. One op is 200 frames.
func BenchmarkHeapSteady(b *testing.B) {
	sc := scene.Swarm(100000, 1)
	b.ReportAllocs()
	var perBody float64
	for b.Loop() {
		perBody = heapPerBody(sc, func() (any, []collide.BodyID) {
			l := load(b, sc, 1)
			for range 200 {
				l.frame(b)
			}
			return l.w, l.ids
		})
	}
	b.ReportMetric(perBody, "B/body")
}

// BenchmarkSnapshot saves, restores, clones and hashes the 10k swarm after
// its warm-up; bytes/body is the snapshot's size.
func BenchmarkSnapshot(b *testing.B) {
	sc := scene.Swarm(10000, 1)
	l := load(b, sc, 1)
	defer l.w.Close()
	for range warmupFrames(len(sc.Bodies)) {
		l.frame(b)
	}
	data, err := l.w.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	// The same world eight frames on, for a rollback that goes back eight.
	later := l.w.Clone()
	for range 8 {
		l.frame(b)
	}
	data8, err := l.w.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	l.w.Close()
	l.w = later
	shapeBytes := shapeTableBytes(b, l)
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, len(data))
		for b.Loop() {
			buf, _ = l.w.AppendBinary(buf[:0])
		}
		b.ReportMetric(float64(len(data))/float64(len(sc.Bodies)), "bytes/body")
		b.ReportMetric(float64(len(data)-shapeBytes)/float64(len(sc.Bodies)), "bytes/body-no-shapes")
	})
	// A body's new shape makes the next snapshot look up every body's
	// shape again.
	b.Run("MarshalNewShape", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, len(data))
		ids := l.ids
		body, err := l.w.Body(ids[0])
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := l.w.SetShape(ids[0], body.Shape); err != nil {
				b.Fatal(err)
			}
			buf, _ = l.w.AppendBinary(buf[:0])
		}
	})
	b.Run("Unmarshal", func(b *testing.B) {
		// Into a world that restored it before: rolling back to the same
		// frame again and again.
		w := collide.NewWorld(collide.Config{Workers: 1})
		defer w.Close()
		b.ReportAllocs()
		for b.Loop() {
			if err := w.UnmarshalBinary(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnmarshalRollback8", func(b *testing.B) {
		// Back and forth by eight frames, as a rollback to eight frames ago
		// does: the world holds the other frame each time.
		w := collide.NewWorld(collide.Config{Workers: 1})
		defer w.Close()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			d := data
			if i%2 == 1 {
				d = data8
			}
			if err := w.UnmarshalBinary(d); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("UnmarshalFresh", func(b *testing.B) {
		// Into a new world each time: a room moved to another process.
		b.ReportAllocs()
		for b.Loop() {
			w := collide.NewWorld(collide.Config{Workers: 1})
			if err := w.UnmarshalBinary(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Clone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l.w.Clone().Close()
		}
	})
	b.Run("StateHash", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l.w.StateHash()
		}
	})
}

// shapeTableBytes returns how many of a snapshot's bytes hold its shape
// table, from the format's sizes: a kind byte, then a circle's three
// floats, a box's two, or a polygon's vertex count byte and vertices. Only
// the swarm's kinds are counted.
func shapeTableBytes(b *testing.B, l *loaded) int {
	seen := map[collide.Shape]bool{}
	n := 0
	for _, id := range l.ids {
		body, err := l.w.Body(id)
		if err != nil {
			b.Fatal(err)
		}
		sh := body.Shape
		if seen[sh] {
			continue
		}
		seen[sh] = true
		switch sh.Kind() {
		case shape.KindCircle:
			n += 1 + 3*8
		case shape.KindAABB, shape.KindOBB:
			n += 1 + 2*8
		case shape.KindPolygon:
			n += 2 + 16*len(sh.Vertices())
		default:
			b.Fatalf("a %v in the swarm", sh.Kind())
		}
	}
	return n
}
