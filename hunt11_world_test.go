package collide_test

import (
	"cmp"
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks World.RayCast, RayCastAll, CastShape and CastShapeAll
// against brute force: narrowphase.RayCast or narrowphase.Cast on every
// live body of a model the test keeps, sorted by distance or fraction and
// then by id, on worlds of every kind near 0, 1e6 or 1e12 after mutations
// without a Step, with rays and casts that start on a body's vertex (at
// distance 0), and with exact ties (bodies stacked on one another). The
// world must give exactly the brute-force answers, in the same order.

var h11Seed = flag.Uint64("h11seed", 0, "seed for TestHunt11WorldQueriesBruteForce (0: a random one)")

type h11Body struct {
	id    collide.BodyID
	s     collide.Shape
	pos   collide.Vec2
	angle float64
}

func (b *h11Body) xf() collide.Transform { return collide.NewTransform(b.pos, b.angle) }

// h11Grid returns a random multiple of 1/16 in [lo, hi].
func h11Grid(r *rand.Rand, lo, hi float64) float64 {
	return lo + math.Floor((hi-lo)*16*r.Float64())/16
}

// h11WorldShape returns a random shape of any kind.
func h11WorldShape(r *rand.Rand) collide.Shape {
	g := func(lo, hi float64) float64 { return h11Grid(r, lo, hi) }
	v := func() collide.Vec2 { return collide.V(g(-2, 2), g(-2, 2)) }
	for {
		var s collide.Shape
		var err error
		switch r.IntN(9) {
		case 0:
			s, err = collide.NewCircle(g(0.125, 1.5))
		case 1:
			s, err = collide.NewAABB(g(0.125, 1.5), g(0.125, 1.5))
		case 2:
			s, err = collide.NewOBB(g(0.125, 1.5), g(0.125, 1.5))
		case 3:
			s, err = collide.ConvexHull([]collide.Vec2{v(), v(), v(), v(), v()})
		case 4:
			s, err = collide.NewCapsule(v(), v(), g(0.0625, 0.75))
		case 5:
			s, err = collide.NewSegment(v(), v())
		case 6:
			a, _ := collide.NewOBB(g(0.25, 1), g(0.25, 1))
			c, _ := collide.NewCapsule(v(), v(), g(0.0625, 0.5))
			s, err = collide.NewCompound([]collide.Part{{Shape: a}, {Shape: c, Offset: collide.NewTransform(v(), g(-3, 3))}})
		case 7:
			w, h, tk := g(1, 3), g(1, 3), g(0.25, 0.75)
			s, err = collide.NewConcavePolygon([]collide.Vec2{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: tk}, {X: tk, Y: tk}, {X: tk, Y: h}, {X: 0, Y: h}})
		default:
			pts := []collide.Vec2{v()}
			d := v()
			for range 2 + r.IntN(8) {
				if r.IntN(3) == 0 {
					d = v()
				}
				pts = append(pts, pts[len(pts)-1].Add(d))
			}
			s, err = collide.NewChain(pts, r.IntN(3) == 0)
		}
		if err == nil {
			return s
		}
	}
}

// h11Vertices returns world points on the body's boundary: its parts'
// vertices (a circle's or capsule's pushed out by the radius along x).
func h11Vertices(b *h11Body) []collide.Vec2 {
	var out []collide.Vec2
	for i := range b.s.PartCount() {
		ps, pt := b.s.Part(i, b.xf())
		pt = ps.EffectiveTransform(pt)
		var local []collide.Vec2
		switch ps.Kind() {
		case shape.KindCircle:
			local = []collide.Vec2{ps.Center().Add(collide.V(ps.Radius(), 0))}
		case shape.KindAABB, shape.KindOBB:
			c := ps.Corners()
			local = c[:]
		default:
			for _, p := range ps.Vertices() {
				local = append(local, p.Add(collide.V(0, ps.Radius())))
			}
		}
		for _, p := range local {
			out = append(out, pt.Apply(p))
		}
	}
	return out
}

// TestHunt11WorldQueriesBruteForce compares the world's ray and shape
// casts with brute force over the live bodies (see the file comment).
func TestHunt11WorldQueriesBruteForce(t *testing.T) {
	seed := oracleSeed(t, *h11Seed, "h11seed")
	r := rand.New(rand.NewPCG(seed, 1113))
	worlds, queries := 150, 150
	if oracleShort() {
		worlds = 15
	}
	nRay, nRayHits, nCast, nCastHits := 0, 0, 0, 0
	for wi := range worlds {
		base := [4]float64{0, 1e6, 1e12, -1e12}[r.IntN(4)]
		basev := collide.V(base, -base)
		pos := func() collide.Vec2 { return basev.Add(collide.V(h11Grid(r, -12, 12), h11Grid(r, -12, 12))) }
		angle := func() float64 {
			if r.IntN(2) == 0 {
				return 0
			}
			return h11Grid(r, -3, 3)
		}
		w := collide.NewWorld(collide.Config{})
		var live []*h11Body
		add := func() {
			b := &h11Body{s: h11WorldShape(r), pos: pos(), angle: angle()}
			if len(live) > 0 && r.IntN(6) == 0 { // stacked on another: exact ties
				o := live[r.IntN(len(live))]
				b.s, b.pos, b.angle = o.s, o.pos, o.angle
			}
			id, err := w.Add(collide.BodyDef{Shape: b.s, Position: b.pos, Angle: b.angle, Kind: collide.BodyKind(r.IntN(2))})
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			b.id = id
			live = append(live, b)
		}
		for range 25 {
			add()
		}
		w.Step()
		for qi := range queries {
			// A mutation or two, never followed by a Step.
			for range r.IntN(3) {
				b := live[r.IntN(len(live))]
				var err error
				switch r.IntN(5) {
				case 0:
					add()
				case 1:
					if len(live) > 5 {
						err = w.Remove(b.id)
						live = slices.DeleteFunc(live, func(x *h11Body) bool { return x == b })
					}
				case 2:
					b.pos, b.angle = pos(), angle()
					err = w.SetTransform(b.id, b.pos, b.angle)
				case 3:
					d := collide.V(h11Grid(r, -3, 3), h11Grid(r, -3, 3))
					b.pos = b.pos.Add(d)
					err = w.Move(b.id, d)
				default:
					b.s = h11WorldShape(r)
					err = w.SetShape(b.id, b.s)
				}
				if err != nil {
					t.Fatalf("world %d, query %d: %v", wi, qi, err)
				}
			}
			// An origin on a body's vertex, or anywhere.
			origin := pos()
			if r.IntN(4) != 0 {
				vs := h11Vertices(live[r.IntN(len(live))])
				origin = vs[r.IntN(len(vs))]
			}
			var dir collide.Vec2
			if r.IntN(2) == 0 {
				dir = [4]collide.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[r.IntN(4)]
			} else {
				a := r.Float64() * 2 * math.Pi
				dir = collide.V(math.Cos(a), math.Sin(a))
			}
			maxDist := [4]float64{math.Inf(1), 0, 6, 30}[r.IntN(4)]
			nRay++

			// Rays: brute force, nearest first, ties by id.
			type rayHit struct {
				id collide.BodyID
				h  narrowphase.RayHit
			}
			var want []rayHit
			for _, b := range live {
				if h, ok := narrowphase.RayCast(b.s, b.xf(), origin, dir, maxDist); ok {
					want = append(want, rayHit{b.id, h})
				}
			}
			slices.SortFunc(want, func(x, y rayHit) int {
				return cmp.Or(cmp.Compare(x.h.Distance, y.h.Distance), cmp.Compare(x.id, y.id))
			})
			var got []collide.RayHit
			if err := w.RayCastAll(origin, dir, maxDist, collide.DefaultFilter, func(h collide.RayHit) bool {
				got = append(got, h)
				return true
			}); err != nil {
				t.Fatal(err)
			}
			same := len(got) == len(want)
			for i := 0; same && i < len(got); i++ {
				g, x := got[i], want[i]
				same = g.Body == x.id && g.Part == x.h.Part && g.Point == x.h.Point && g.Normal == x.h.Normal && g.Distance == x.h.Distance
			}
			if !same {
				t.Fatalf("world %d, query %d: RayCastAll(%v, %v, %v) = %+v, want (brute force) %+v", wi, qi, origin, dir, maxDist, got, want)
			}
			first, ok, err := w.RayCast(origin, dir, maxDist, collide.DefaultFilter)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (len(want) > 0) || (ok && (first.Body != want[0].id || first.Distance != want[0].h.Distance || first.Point != want[0].h.Point ||
				first.Normal != want[0].h.Normal || first.Part != want[0].h.Part)) {
				t.Fatalf("world %d, query %d: RayCast(%v, %v, %v) = %+v, %v, want (brute force) %+v", wi, qi, origin, dir, maxDist, first, ok, want)
			}
			if ok {
				nRayHits++
			}

			// Casts: a convex shape touching the origin point, moved.
			var s collide.Shape
			switch r.IntN(4) {
			case 0:
				s, _ = collide.NewCircle(h11Grid(r, 0.125, 1))
			case 1:
				s, _ = collide.NewAABB(h11Grid(r, 0.125, 1), h11Grid(r, 0.125, 1))
			case 2:
				s, _ = collide.NewOBB(h11Grid(r, 0.125, 1), h11Grid(r, 0.125, 1))
			default:
				s, _ = collide.NewCapsule(collide.V(-0.5, 0), collide.V(0.5, 0), h11Grid(r, 0.0625, 0.5))
			}
			ts := collide.NewTransform(origin.Sub(dir.Scale(s.BoundingRadius()*[3]float64{0, 1, 0.5}[r.IntN(3)])), angle())
			delta := dir.Scale([4]float64{0, 1, 5, 20}[r.IntN(4)])
			type castHit struct {
				id collide.BodyID
				h  narrowphase.CastHit
			}
			var cwant []castHit
			for _, b := range live {
				if h, ok := narrowphase.Cast(s, ts, delta, b.s, b.xf()); ok {
					cwant = append(cwant, castHit{b.id, h})
				}
			}
			slices.SortFunc(cwant, func(x, y castHit) int {
				return cmp.Or(cmp.Compare(x.h.Fraction, y.h.Fraction), cmp.Compare(x.id, y.id))
			})
			var cgot []collide.ShapeHit
			if err := w.CastShapeAll(s, ts, delta, collide.DefaultFilter, func(h collide.ShapeHit) bool {
				cgot = append(cgot, h)
				return true
			}); err != nil {
				t.Fatal(err)
			}
			same = len(cgot) == len(cwant)
			for i := 0; same && i < len(cgot); i++ {
				g, x := cgot[i], cwant[i]
				same = g.Body == x.id && g.Part == x.h.Part && g.Point == x.h.Point && g.Normal == x.h.Normal && g.Fraction == x.h.Fraction
			}
			nCast++
			if !same {
				t.Fatalf("world %d, query %d: CastShapeAll(%v at %v, %v) = %+v, want (brute force) %+v", wi, qi, s, ts, delta, cgot, cwant)
			}
			cfirst, cok, err := w.CastShape(s, ts, delta, collide.DefaultFilter)
			if err != nil {
				t.Fatal(err)
			}
			if cok != (len(cwant) > 0) || (cok && (cfirst.Body != cwant[0].id || cfirst.Fraction != cwant[0].h.Fraction || cfirst.Point != cwant[0].h.Point ||
				cfirst.Normal != cwant[0].h.Normal || cfirst.Part != cwant[0].h.Part)) {
				t.Fatalf("world %d, query %d: CastShape(%v at %v, %v) = %+v, %v, want (brute force) %+v", wi, qi, s, ts, delta, cfirst, cok, cwant)
			}
			if cok {
				nCastHits++
			}
		}
	}
	t.Logf("%d rays (%d hit), %d casts (%d hit)", nRay, nRayHits, nCast, nCastHits)
}
