package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestBulletsThroughThePool steps scenes of every kind with a third of the
// bodies bullets (moving far, some turning) in a world whose every step
// goes through the pool (Workers 4, the parallel sizes lowered to 1), so
// that the sweeps run on the workers, and requires the contacts, events
// and StateHash of a Workers 1 world, of a Clone and of a snapshot restored
// into a pooled world, step after step.
func TestBulletsThroughThePool(t *testing.T) {
	seed := testSeed(t, 7)
	scenes, steps := 12, 8
	if testing.Short() {
		scenes, steps = 4, 6
	}
	totalSwept := 0
	for sc := range scenes {
		r := rand.New(rand.NewPCG(seed, uint64(sc)))
		one := NewWorld(Config{Workers: 1})
		par := NewWorld(Config{Workers: 4})
		par.setParallelFrom(1, 1)
		worlds := []*World{one, par}
		var ids []BodyID
		n := 60 + r.IntN(60)
		sz := 4 * math.Sqrt(float64(n))
		for i := range n {
			def := BodyDef{Shape: randomShape(t, r, shape.Kind(r.IntN(shape.KindCount))), Position: shape.V(uni(r, 0, sz), uni(r, 0, sz)),
				Angle: uni(r, 0, 2*math.Pi), Bullet: i%3 == 0, Sensor: r.IntN(8) == 0}
			if !def.Bullet && r.IntN(4) == 0 {
				def.Kind = Static
			}
			var id BodyID
			for k, w := range worlds {
				got, err := w.Add(def)
				if err != nil {
					t.Fatal(err)
				}
				if k > 0 && got != id {
					t.Fatalf("ids differ")
				}
				id = got
			}
			ids = append(ids, id)
		}
		for step := range steps {
			for _, id := range ids {
				b, err := one.Body(id)
				if err != nil || !b.Bullet && r.IntN(4) != 0 {
					continue
				}
				p := b.Position.Add(shape.V(uni(r, -8, 8), uni(r, -8, 8)))
				a := b.Angle
				if r.IntN(3) == 0 {
					a += uni(r, -1, 1)
				}
				for _, w := range worlds {
					if err := w.SetTransform(id, p, a); err != nil {
						t.Fatal(err)
					}
				}
			}
			if step == steps/2 {
				c := par.Clone()
				data, err := par.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				rs := NewWorld(Config{Workers: 4})
				rs.setParallelFrom(1, 1)
				if err := rs.UnmarshalBinary(data); err != nil {
					t.Fatal(err)
				}
				worlds = append(worlds, c, rs)
			}
			for _, w := range worlds {
				w.Step()
			}
			want := fmt.Sprint(one.contacts, one.began, one.ended)
			swept := 0
			for _, c := range one.contacts {
				if c.swept() {
					swept++
				}
			}
			totalSwept += swept
			for k, w := range worlds[1:] {
				if got := fmt.Sprint(w.contacts, w.began, w.ended); got != want || w.StateHash() != one.StateHash() {
					t.Fatalf("seed %d scene %d step %d: world %d differs from Workers 1 (%d swept contacts)", seed, sc, step, k+1, swept)
				}
			}
			if !slices.EqualFunc(one.contacts, par.contacts, func(a, b contact) bool { return a == b }) {
				t.Fatalf("seed %d scene %d step %d: contacts differ", seed, sc, step)
			}
		}
	}
	t.Logf("%d swept contacts", totalSwept)
	if totalSwept < 20 {
		t.Fatalf("only %d swept contacts: the test proves little", totalSwept)
	}
}
