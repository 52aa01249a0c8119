package collide_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
)

// bulletRun drives bullets through a field of thin walls and checks, step by
// step, that the bodies each bullet touched on its way are exactly the ones
// a cast of the bullet over its motion against every wall finds: no wall
// missed, no contact made up. It returns a hash of the contact stream.
func bulletRun(t *testing.T, workers, steps int, swept bool) (uint64, int, int) {
	r := rand.New(rand.NewPCG(31, 41))
	w := collide.NewWorld(collide.Config{Workers: workers})
	defer w.Close()
	type wall struct {
		id collide.BodyID
		s  collide.Shape
		xf collide.Transform
	}
	var walls []wall
	for range 60 {
		s := must[collide.Shape](t)(collide.NewOBB(1+4*r.Float64(), 0.005)) // 1 cm thick
		p, a := collide.V(200*r.Float64(), 200*r.Float64()), 7*r.Float64()
		id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: s, Position: p, Angle: a, Kind: collide.Static}))
		walls = append(walls, wall{id, s, collide.NewTransform(p, a)})
	}
	ball := must[collide.Shape](t)(collide.NewCircle(0.1))
	type bullet struct {
		id  collide.BodyID
		pos collide.Vec2
		vel collide.Vec2
	}
	bullets := make([]bullet, 100)
	for i := range bullets {
		p := collide.V(200*r.Float64(), 200*r.Float64())
		s, c := math.Sincos(2 * math.Pi * r.Float64())
		speed := 1 + 199*r.Float64()*r.Float64()
		bullets[i] = bullet{pos: p, vel: collide.V(c*speed, s*speed)}
		bullets[i].id = must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: p, Bullet: swept,
			Filter: collide.Filter{Category: 2, Mask: 1}})) // walls, not each other
	}
	w.Step()
	h := fnv.New64a()
	crossings, missed := 0, 0
	for step := range steps {
		from := make([]collide.Vec2, len(bullets))
		for i := range bullets {
			b := &bullets[i]
			from[i] = b.pos
			b.pos = b.pos.Add(b.vel)
			if b.pos.X < 0 || b.pos.X > 200 || b.pos.Y < 0 || b.pos.Y > 200 { // wrap by a teleport
				b.pos = collide.V(math.Mod(b.pos.X+200, 200), math.Mod(b.pos.Y+200, 200))
			}
			if err := w.SetTransform(b.id, b.pos, 0); err != nil {
				t.Fatal(err)
			}
		}
		w.Step()
		got := map[[2]collide.BodyID]float64{}
		for c := range w.Contacts() {
			got[[2]collide.BodyID{c.A, c.B}] = c.TOI
			fmt.Fprintf(h, "%d %d %v %x %x\n", c.A, c.B, c.Swept, math.Float64bits(c.TOI), math.Float64bits(c.Manifold.Normal.X))
		}
		want := 0
		for i, b := range bullets {
			d := b.pos.Sub(from[i])
			for _, wl := range walls {
				hit, ok := collide.Cast(ball, collide.NewTransform(from[i], 0), d, wl.s, wl.xf)
				if !ok {
					continue
				}
				want++
				key := [2]collide.BodyID{min(b.id, wl.id), max(b.id, wl.id)}
				toi, found := got[key]
				if !swept {
					if !found {
						missed++
					}
					continue
				}
				if !found {
					t.Fatalf("step %d: bullet %v from %v by %v crossed wall %v at %v: no contact", step, b.id, from[i], d, wl.id, hit.Fraction)
				}
				if toi != hit.Fraction && toi != 0 {
					t.Fatalf("step %d: bullet %v, wall %v: TOI %v, the cast says %v", step, b.id, wl.id, toi, hit.Fraction)
				}
			}
		}
		if swept && len(got) != want {
			t.Fatalf("step %d: %d contacts, the casts find %d", step, len(got), want)
		}
		crossings += want
	}
	return h.Sum64(), crossings, missed
}

// TestBulletsNeverTunnel: 100 bullets of radius 0.1 at 1 to 200 units a
// step through 60 walls 1 cm thick, 250 steps (25,000 bullet-steps).
func TestBulletsNeverTunnel(t *testing.T) {
	steps := 250
	if testing.Short() {
		steps = 50
	}
	h1, n, _ := bulletRun(t, 1, steps, true)
	h4, _, _ := bulletRun(t, 4, steps, true)
	if h1 != h4 {
		t.Errorf("Workers 1 and 4 give different contact streams")
	}
	if n < steps {
		t.Fatalf("only %d wall crossings in %d steps: the test proves little", n, steps)
	}
	_, n0, missed := bulletRun(t, 1, steps, false)
	t.Logf("%d bullet-steps, %d wall crossings, all reported; as plain bodies (Bullet false) %d of %d (%.1f%%) were missed",
		100*steps, n, missed, n0, 100*float64(missed)/float64(n0))
}

// TestRotatingBulletNeverTunnels: a spinning stick bullet (up to 3 radians a
// step) is swept with TimeOfImpact; every wall a dense sampling of its
// motion overlaps is a contact.
func TestRotatingBulletNeverTunnels(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	w := collide.NewWorld(collide.Config{Workers: 1})
	wallS := must[collide.Shape](t)(collide.NewOBB(3, 0.005))
	var walls []collide.BodyID
	var wxf []collide.Transform
	for range 30 {
		p, a := collide.V(60*r.Float64(), 60*r.Float64()), 7*r.Float64()
		walls = append(walls, must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: wallS, Position: p, Angle: a, Kind: collide.Static})))
		wxf = append(wxf, collide.NewTransform(p, a))
	}
	stick := must[collide.Shape](t)(collide.NewOBB(1, 0.05))
	pos, ang := collide.V(30, 30), 0.0
	id := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: stick, Position: pos, Bullet: true}))
	w.Step()
	missed, steps := 0, 400
	if oracleShort() {
		steps = 80
	}
	for step := range steps {
		from, fromA := pos, ang
		pos = collide.V(60*r.Float64(), 60*r.Float64())
		if pos.Sub(from).Len() > 20 {
			pos = from.Add(pos.Sub(from).Normalize().Scale(20))
		}
		ang += 3 * (2*r.Float64() - 1)
		_ = w.SetTransform(id, pos, ang)
		w.Step()
		got := map[collide.BodyID]bool{}
		for c := range w.Contacts() {
			got[c.Other(id)] = true
		}
		for i, wl := range walls {
			for k := 0; k <= 2000; k++ {
				s := float64(k) / 2000
				xf := collide.NewTransform(from.Add(pos.Sub(from).Scale(s)), fromA+s*(ang-fromA))
				if m, ok := collide.Collide(stick, xf, wallS, wxf[i]); ok && m.Depth > 1e-9 {
					if !got[wl] {
						missed++
						t.Errorf("step %d: the stick overlaps wall %v at %v of its motion; no contact", step, wl, s)
					}
					break
				}
			}
		}
	}
	if missed > 0 {
		t.Fatalf("%d walls missed", missed)
	}
}
