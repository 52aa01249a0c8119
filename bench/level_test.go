package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
)

// levelChains returns the outlines of a level of about segs chain segments
// over a square world of side w: its four walls (an open chain each, a
// point every 2 units) and closed rocks (wobbly rings of 80 segments,
// radius 4 to 12) scattered over it.
func levelChains(r *rand.Rand, w float64, segs int) [][]collide.Vec2 {
	var out [][]collide.Vec2
	total := 0
	corners := []collide.Vec2{collide.V(0, 0), collide.V(w, 0), collide.V(w, w), collide.V(0, w), collide.V(0, 0)}
	for i := range 4 {
		a, b := corners[i], corners[i+1]
		k := int(math.Ceil(b.Sub(a).Len() / 2))
		pts := make([]collide.Vec2, k+1)
		for j := range pts {
			pts[j] = a.Add(b.Sub(a).Scale(float64(j) / float64(k)))
		}
		out = append(out, pts)
		total += k
	}
	for total < segs {
		c := collide.V(r.Float64()*w, r.Float64()*w)
		rad := 4 + 8*r.Float64()
		pts := make([]collide.Vec2, 80)
		for j := range pts {
			a := 2 * math.Pi * float64(j) / 80
			rr := rad * (1 + 0.15*math.Sin(5*a+rad))
			pts[j] = c.Add(collide.V(rr*math.Cos(a), rr*math.Sin(a)))
		}
		out = append(out, pts)
		total += 80
	}
	return out
}

// borderChain returns one closed chain of n points around the square
// world of side w: a level outline whose box holds every body.
func borderChain(w float64, n int) []collide.Vec2 {
	pts := make([]collide.Vec2, 0, n)
	per := n / 4
	corners := []collide.Vec2{collide.V(0, 0), collide.V(w, 0), collide.V(w, w), collide.V(0, w), collide.V(0, 0)}
	for i := range 4 {
		a, b := corners[i], corners[i+1]
		for j := range per {
			pts = append(pts, a.Add(b.Sub(a).Scale(float64(j)/float64(per))))
		}
	}
	return pts
}

// BenchmarkLevel steps the 10k swarm alone and with a level of 100,000
// static chain segments (four wall chains and 1,200 rock outlines):
// "beside", the level fills the square next to the swarm's (a map whose
// other half the players are not in: what the level's presence costs);
// "among", the same level laid over the swarm's square (its bodies then
// touch rocks, and the extra contacts, one per segment touched, are real
// work); "border", one closed chain of 100,000 points around the swarm's
// square, whose box holds every body, so that every moving body is paired
// with it.
func BenchmarkLevel(b *testing.B) {
	for _, level := range []string{"none", "beside", "among", "border"} {
		name := map[string]string{"none": "swarm", "beside": "swarm+chains-beside=100000",
			"among": "swarm+chains-among=100000", "border": "swarm+border=100000"}[level]
		b.Run(name, func(b *testing.B) {
			sc := scene.Swarm(10000, 1)
			l := load(b, sc, 1)
			defer l.w.Close()
			var outlines [][]collide.Vec2
			switch level {
			case "beside", "among":
				outlines = levelChains(rand.New(rand.NewPCG(9, 9)), sc.World, 100000)
				if level == "beside" {
					for _, pts := range outlines {
						for i := range pts {
							pts[i].X += sc.World
						}
					}
				}
			case "border":
				outlines = [][]collide.Vec2{borderChain(sc.World, 100000)}
			}
			if len(outlines) > 0 {
				segs := 0
				for _, pts := range outlines {
					closed := len(pts) == 80 || len(pts) == 100000
					s, err := collide.NewChain(pts, closed)
					if err != nil {
						b.Fatal(err)
					}
					segs += s.PartCount()
					if _, err := l.w.Add(collide.BodyDef{Shape: s, Kind: collide.Static}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(segs), "segments")
			}
			for range warmupFrames(len(sc.Bodies)) {
				l.frame(b)
			}
			contacts := 0.0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				l.frame(b)
				contacts += float64(l.w.Stats().Contacts)
			}
			b.ReportMetric(contacts/float64(b.N), "contacts/op")
		})
	}
}

// BenchmarkChainCollide collides a circle with a lone segment and with the
// same segment inside a chain of 100,000 points: the chain's box tree
// keeps the cost near the lone segment's.
func BenchmarkChainCollide(b *testing.B) {
	const n = 100_000
	pts := make([]collide.Vec2, n)
	for i := range pts {
		pts[i] = collide.V(float64(i)*2, 4*math.Sin(float64(i)*0.01))
	}
	chain, err := collide.NewChain(pts, false)
	if err != nil {
		b.Fatal(err)
	}
	i := 54321
	seg, _ := collide.NewSegment(pts[i], pts[i+1])
	ball, _ := collide.NewCircle(0.3)
	mid := pts[i].Add(pts[i+1]).Scale(0.5)
	at := collide.NewTransform(collide.V(mid.X, mid.Y+0.2), 0)
	for _, c := range []struct {
		name string
		s    collide.Shape
	}{{"segment", seg}, {fmt.Sprintf("chain=%d", n), chain}} {
		b.Run(c.name, func(b *testing.B) {
			if _, ok := collide.Collide(ball, at, c.s, collide.Transform{}); !ok {
				b.Fatal("no contact")
			}
			b.ReportAllocs()
			for b.Loop() {
				collide.Collide(ball, at, c.s, collide.Transform{})
			}
		})
	}
}

// BenchmarkMoveAndSlideLevel moves a capsule character 5 units at a time
// through the 10k swarm laid over the level of 100,000 chain segments (the
// "among" level of BenchmarkLevel): one op is one MoveAndSlide.
func BenchmarkMoveAndSlideLevel(b *testing.B) {
	sc := scene.Swarm(10000, 1)
	l := load(b, sc, 1)
	defer l.w.Close()
	for _, pts := range levelChains(rand.New(rand.NewPCG(9, 9)), sc.World, 100000) {
		s, err := collide.NewChain(pts, len(pts) == 80)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.w.Add(collide.BodyDef{Shape: s, Kind: collide.Static}); err != nil {
			b.Fatal(err)
		}
	}
	l.w.Step()
	player, err := collide.NewCapsule(collide.V(0, -0.5), collide.V(0, 0.5), 0.4)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 3))
	const n = 4096
	from := make([]collide.Vec2, n)
	move := make([]collide.Vec2, n)
	for i := range from {
		from[i] = collide.V(r.Float64()*sc.World, r.Float64()*sc.World)
		a := 2 * math.Pi * r.Float64()
		move[i] = collide.V(5*math.Cos(a), 5*math.Sin(a))
	}
	blocked := 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		res, err := l.w.MoveAndSlide(player, collide.NewTransform(from[i%n], 0), move[i%n], collide.Filter{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Blocked {
			blocked++
		}
		i++
	}
	b.ReportMetric(float64(blocked)/float64(b.N), "blocked/op")
}
