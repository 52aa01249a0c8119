package collide_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
)

var histSeedFlag = flag.Uint64("histseed", 0, "seed for TestQueriesIndependentOfHistory (0: a random one)")

// TestQueriesIndependentOfHistory builds one state of the world (the same
// bodies, ids, places, kinds and filters) by different histories: added
// once; added far off and moved back in the reverse order (the broad
// phase's trees then list the bodies in another order); restored from the
// first world's snapshot into a new world; cloned; and added into worlds
// of other broad-phase margins. Every query must answer each of them the
// same, bit for bit: that is what a rollback (a restore, then the same
// inputs) and a lockstep peer with the same StateHash rely on. Scenes are
// pairs of bodies mirrored about the x axis, so that equally good answers
// (escapes up and down, hits at equal distances) are common, and the
// queries are MoveAndSlide, Depenetrate, CastShape, RayCast and Nearest,
// the ones that choose among candidates, and QueryAABB, QueryPoint and
// QueryShape, whose callbacks must come in the same order.
func TestQueriesIndependentOfHistory(t *testing.T) {
	seed := *histSeedFlag
	if seed == 0 {
		seed = randomSeed()
	}
	rounds := 150
	if testing.Short() {
		rounds = 30
	}
	for round := range rounds {
		r := rand.New(rand.NewPCG(seed, uint64(round)))
		o := &ocRun{t: t, r: r, sc: ocScene{origin: collide.V(0, 0), size: 2}}
		var defs []collide.BodyDef
		for range 1 + r.IntN(6) {
			p := collide.V(o.grid(-2, 2), o.grid(0.125, 2))
			sh := o.randSymmetric()
			a := o.randAngle()
			k := collide.Static
			if r.IntN(3) == 0 {
				k = collide.Dynamic
			}
			defs = append(defs, collide.BodyDef{Shape: sh, Position: p, Angle: a, Kind: k},
				collide.BodyDef{Shape: sh, Position: collide.V(p.X, -p.Y), Angle: -a, Kind: k})
		}
		add := func(cfg collide.Config) (*collide.World, []collide.BodyID) {
			w := collide.NewWorld(cfg)
			var ids []collide.BodyID
			for _, d := range defs {
				id, err := w.Add(d)
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			w.Step()
			return w, ids
		}
		w0, _ := add(collide.Config{Workers: 1})
		moved, ids := add(collide.Config{Workers: 1})
		for i, id := range ids {
			_ = moved.SetTransform(id, defs[i].Position.Add(collide.V(1000, float64(i))), defs[i].Angle)
		}
		moved.Step()
		for i := len(ids) - 1; i >= 0; i-- {
			_ = moved.SetTransform(ids[i], defs[i].Position, defs[i].Angle)
		}
		moved.Step()
		data, err := w0.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		restored := collide.NewWorld(collide.Config{Workers: 1})
		if err := restored.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		// moved's snapshot restored into w0's own world too: in place.
		rolled, _ := add(collide.Config{Workers: 1})
		if data, err = moved.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		if err := rolled.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		noMargin, _ := add(collide.Config{Workers: 1, Margin: -1, MotionFrames: -1})
		wide, _ := add(collide.Config{Workers: 2, Margin: 20})
		worlds := map[string]*collide.World{"moved back": moved, "restored": restored, "rolled back": rolled, "cloned": moved.Clone(),
			"no margin": noMargin, "margin 20": wide}
		for q := range 12 {
			ch := o.randSymmetric()
			xf := collide.NewTransform(collide.V(o.grid(-1, 1), 0), []float64{0, math.Pi}[r.IntN(2)])
			delta := collide.V(o.grid(-2, 2), 0)
			dir := collide.V([]float64{1, -1}[r.IntN(2)], 0)
			answer := func(w *collide.World) string {
				m, err1 := w.MoveAndSlide(ch, xf, delta, collide.Filter{})
				d, err2 := w.Depenetrate(ch, xf, collide.Filter{})
				h, ok, err3 := w.CastShape(ch, xf, delta, collide.Filter{})
				rh, rok, err4 := w.RayCast(xf.Pos, dir, math.Inf(1), collide.Filter{})
				var near []collide.BodyID
				err5 := w.Nearest(xf.Pos, 3, collide.Filter{}, func(id collide.BodyID, _ float64) bool { near = append(near, id); return true })
				// The overlap queries call back in an order of their own
				// choosing, but the same in every copy of the world.
				var inBox, atPoint, inShape []collide.BodyID
				err6 := w.QueryAABB(collide.AABB{Min: collide.V(-3, -3), Max: collide.V(3, 3)}, collide.Filter{}, func(id collide.BodyID) bool { inBox = append(inBox, id); return true })
				err7 := w.QueryPoint(xf.Pos, collide.Filter{}, func(id collide.BodyID) bool { atPoint = append(atPoint, id); return true })
				err8 := w.QueryShape(ch, xf, collide.Filter{}, func(id collide.BodyID, m collide.Manifold) bool { inShape = append(inShape, id); return true })
				return fmt.Sprintf("MoveAndSlide %+v %v\n  Depenetrate %v %v\n  CastShape %+v %v %v\n  RayCast %+v %v %v\n  Nearest %v %v\n  QueryAABB %v %v\n  QueryPoint %v %v\n  QueryShape %v %v",
					m, err1, d, err2, h, ok, err3, rh, rok, err4, near, err5, inBox, err6, atPoint, err7, inShape, err8)
			}
			want := answer(w0)
			for name, w := range worlds {
				if got := answer(w); got != want {
					t.Fatalf("seed %d round %d query %d: %v at %v (angle %v) moving by %v: the %s world answers\n  %s\nthe world added once\n  %s\nreplay: go test -run TestQueriesIndependentOfHistory -histseed %d .",
						seed, round, q, ch, xf.Pos, xf.Rot.Angle(), delta, name, got, want, seed)
				}
			}
		}
		// One more Step: the same contacts, in the same order.
		w0.Step()
		want := slices.Collect(w0.Contacts())
		for name, w := range worlds {
			w.Step()
			if got := slices.Collect(w.Contacts()); !slices.Equal(got, want) {
				t.Fatalf("seed %d round %d: the %s world's contacts after a Step are\n  %+v\nthe world added once\n  %+v", seed, round, name, got, want)
			}
			w.Close()
		}
		w0.Close()
	}
}
