package collide_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/shape"
)

var bulletSeed = flag.Uint64("bulletseed", 0, "seed for TestExactBulletSweeps (0: a random one)")

// ebBody is the test's record of a body: its shape and flags, and where it
// was at the previous Step and is now.
type ebBody struct {
	id             collide.BodyID
	s              collide.Shape
	filter         collide.Filter
	static, sensor bool
	bullet         bool
	p0, p1         collide.Vec2
	a0, a1         float64
}

// at returns the body's transform at time t of the step: a bullet
// interpolated as Step sweeps it (position and angle linearly), any other
// body where it is.
func (b *ebBody) at(t float64) collide.Transform {
	if !b.bullet || t == 1 {
		return collide.NewTransform(b.p1, b.a1)
	}
	if t == 0 {
		return collide.NewTransform(b.p0, b.a0)
	}
	return collide.NewTransform(b.p0.Add(b.p1.Sub(b.p0).Scale(t)), b.a0+float64(t*(b.a1-b.a0)))
}

func (b *ebBody) moved() bool { return b.bullet && (b.p0 != b.p1 || b.a0 != b.a1) }

// ebSlot is the storage slot of an id (its low 32 bits).
func ebSlot(id collide.BodyID) uint32 { return uint32(id) }

// ebPair is one pair of bodies over a step, for the exact checks.
type ebPair struct {
	a, b   *ebBody
	pa, pb int // a part pair to check alone, or −1 for every part pair
	// margin: overlap means an exact signed distance below it; 0 is the
	// exact predicate, −eps a sure overlap (deeper than rounding), +eps
	// an overlap or a near touch (a contact thinner than rounding, which
	// the engine may or may not report).
	margin float64
}

// with returns p with the margin m.
func (p ebPair) with(m float64) ebPair { p.margin = m; return p }

// overlap reports whether the pair's interiors meet at time t (exactly,
// from the transforms as floats, up to the margin), with the float boxes
// of the parts (grown by a few ulps and the margin) as a pre-test.
func (p ebPair) overlap(t float64) bool {
	xa, xb := p.a.at(t), p.b.at(t)
	ba, bb := p.a.s.WorldAABB(xa), p.b.s.WorldAABB(xb)
	g := 1e-12*(1+math.Abs(ba.Min.X)+math.Abs(ba.Min.Y)+math.Abs(bb.Min.X)+math.Abs(bb.Min.Y)) + max(0, p.margin)
	if !ba.Expand(g).Overlaps(bb.Expand(g)) {
		return false
	}
	for i := range p.a.s.PartCount() {
		if p.pa >= 0 && i != p.pa {
			continue
		}
		sa, ta := p.a.s.Part(i, xa)
		pba := sa.WorldAABB(ta).Expand(g)
		if !pba.Overlaps(bb.Expand(g)) {
			continue
		}
		var ca *woCore
		for j := range p.b.s.PartCount() {
			if p.pb >= 0 && j != p.pb {
				continue
			}
			sb, tb := p.b.s.Part(j, xb)
			if !pba.Overlaps(sb.WorldAABB(tb).Expand(g)) {
				continue
			}
			// A float signed distance decides the clear cases; within
			// 1e-9 of touching, the exact predicate.
			o := xa.Pos
			// With a margin (itself a tolerance of rounding) the float
			// signed distance decides; without, it decides only where it
			// is clear by 1e-9, the exact predicate elsewhere.
			sd := ebFloatSD(p.a.s, xa, i, p.b.s, xb, j, o)
			if p.margin != 0 {
				if sd < p.margin {
					return true
				}
				continue
			}
			if sd < -1e-9 {
				return true
			} else if sd > 1e-9 {
				continue
			}
			if ca == nil {
				c := ebPart(p.a.s, xa, i)
				ca = &c
			}
			if woOverlaps(*ca, ebPart(p.b.s, xb, j)) {
				return true
			}
		}
	}
	return false
}

// ebFloatCore returns part i of s placed by t, in float64 relative to o:
// its core's points and radius.
func ebFloatCore(s collide.Shape, t collide.Transform, i int, o collide.Vec2) ([]collide.Vec2, float64) {
	t.Pos = t.Pos.Sub(o)
	ps, pt := s.Part(i, t)
	var local []collide.Vec2
	r := 0.0
	switch ps.Kind() {
	case shape.KindCircle:
		local, r = []collide.Vec2{ps.Center()}, ps.Radius()
	case shape.KindAABB, shape.KindOBB:
		cs := ps.Corners()
		local = cs[:]
		if ps.Kind() == shape.KindAABB {
			pt.Rot = collide.Transform{}.Rot
		}
	case shape.KindPolygon:
		local = ps.Vertices()
	default:
		p0, p1 := ps.Segment()
		local, r = []collide.Vec2{p0, p1}, ps.Radius()
	}
	out := make([]collide.Vec2, len(local))
	for k, v := range local {
		out[k] = pt.Apply(v)
	}
	return out, r
}

// ebFloatSD is the signed distance, in float64 (rounding errors around
// 1e-14 of the parts' size), between part i of a and part j of b: the
// distance of the origin from their Minkowski difference grown by the sum
// of the radii, negative inside. An independent float version of
// woOverlaps, to skip the exact test where it is clear.
func ebFloatSD(a collide.Shape, ta collide.Transform, i int, b collide.Shape, tb collide.Transform, j int, o collide.Vec2) float64 {
	pa, ra := ebFloatCore(a, ta, i, o)
	pb, rb := ebFloatCore(b, tb, j, o)
	if len(pa) <= 2 && len(pb) <= 2 && ra == 0 && rb == 0 {
		return math.Inf(1) // bare segments never overlap
	}
	var d []collide.Vec2
	for _, q := range pb {
		for _, p := range pa {
			d = append(d, q.Sub(p))
		}
	}
	slices.SortFunc(d, func(x, y collide.Vec2) int {
		if x.X != y.X {
			return cmpF(x.X, y.X)
		}
		return cmpF(x.Y, y.Y)
	})
	var h []collide.Vec2
	for pass := range 2 {
		start := len(h)
		for k := range d {
			q := d[k]
			if pass == 1 {
				q = d[len(d)-1-k]
			}
			for len(h) >= start+2 && h[len(h)-1].Sub(h[len(h)-2]).Cross(q.Sub(h[len(h)-2])) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
	}
	segDist := func(a, b collide.Vec2) float64 {
		ab := b.Sub(a)
		l := ab.LenSq()
		u := 0.0
		if l > 0 {
			u = min(1, max(0, a.Neg().Dot(ab)/l))
		}
		return a.Add(ab.Scale(u)).Len()
	}
	r := ra + rb
	if len(h) < 3 {
		if len(h) == 0 {
			h = d[:1]
		}
		return segDist(h[0], h[len(h)-1]) - r
	}
	inside := true
	best := math.Inf(1)
	for k := range h {
		p, q := h[k], h[(k+1)%len(h)]
		if q.Sub(p).Cross(p.Neg()) < 0 {
			inside = false
		}
		best = min(best, segDist(p, q))
	}
	if inside {
		return -best - r
	}
	return best - r
}

func cmpF(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// ebPart returns part i of s placed by t, exactly: a compound's part by its
// offset and then t, a chain's segment i.
func ebPart(s collide.Shape, t collide.Transform, i int) woCore {
	switch s.Kind() {
	case shape.KindCompound:
		p := s.Parts()[i]
		return woConvex(p.Shape, p.Offset, t)
	case shape.KindChain:
		pts, _ := s.ChainPoints()
		a, b := woApply(t, woVF(pts[i])), woApply(t, woVF(pts[(i+1)%len(pts)]))
		return woCore{pts: woHull([]woV{a, b}), r: woR(0)}
	}
	return woConvex(s, t)
}

// onset returns the first sampled time at which the pair overlaps,
// refined by bisection to the start of that overlap, and whether there is
// one.
func (p ebPair) onset(samples int) (float64, bool) {
	if p.overlap(0) {
		return 0, true
	}
	prev := 0.0
	for k := 1; k <= samples; k++ {
		t := float64(k) / float64(samples)
		if !p.overlap(t) {
			prev = t
			continue
		}
		lo, hi := prev, t
		for range 60 {
			mid := lo + (hi-lo)/2
			if mid <= lo || mid >= hi {
				break
			}
			if p.overlap(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi, true
	}
	return 0, false
}

// overlapsAfter reports whether the pair overlaps a little after t: at
// t + δ for δ from 1e-13 to 1e-2 (and at t itself).
func (p ebPair) overlapsAfter(t float64) bool {
	for d := 0.0; d <= 1e-2; d = max(1e-13, 10*d) {
		if x := t + d; x <= 1 && p.overlap(x) {
			return true
		}
	}
	return false
}

// TestExactBulletSweeps steps random worlds of every kind of body with a
// few bullets (some rotating, some still, some bullets of each other, at 0,
// 1e6 and 1e12) and checks each Step's contacts of every pair with a moving
// bullet against dense sampling of the motion (bisection to the onset of
// the first overlap) with an overlap predicate of its own: exact (big.Rat)
// where every sampled pose is exact (at 0, unrotated, dyadic), where
// touching is no overlap; elsewhere a float signed distance of the
// Minkowski difference with a margin eps (1e-9 and a few ulps of the
// coordinates), overlaps thinner than eps going either way. A pair that
// overlaps at the end has a discrete contact, one that overlaps on the way
// only a swept contact at the onset (the exact onset for a translation,
// not after it for a turn), the parts named overlapping just after the
// TOI, and no other contact at all. Workers 1 and 4 give the same
// contacts.
func TestExactBulletSweeps(t *testing.T) {
	seed := oracleSeed(t, *bulletSeed, "bulletseed")
	t.Logf("seed %d", seed)
	scenes, samples := 200, 96
	if oracleShort() {
		scenes, samples = 40, 64
	}
	var pairs, swept, discrete int
	for _, base := range []float64{0, 1e6, 1e12} {
		for sc := range scenes {
			r := rand.New(rand.NewPCG(seed, math.Float64bits(base)+uint64(sc)))
			n, s, d := ebScene(t, r, base, samples, fmt.Sprintf("base %g scene %d", base, sc))
			pairs, swept, discrete = pairs+n, swept+s, discrete+d
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d pair-steps with a moving bullet checked: %d swept contacts, %d discrete", pairs, swept, discrete)
	if swept < 50 {
		t.Fatalf("only %d swept contacts: the test proves little", swept)
	}
}

func ebScene(t *testing.T, r *rand.Rand, base float64, samples int, name string) (npairs, nswept, ndisc int) {
	t.Helper()
	origin := collide.V(base, -base)
	w1 := collide.NewWorld(collide.Config{Workers: 1})
	w4 := collide.NewWorld(collide.Config{Workers: 4})
	defer w1.Close()
	defer w4.Close()
	pos := func(span float64) collide.Vec2 {
		return origin.Add(collide.V(woDyad(r, -span, span), woDyad(r, -span, span)))
	}
	angle := func() float64 {
		if r.IntN(2) == 0 {
			return float64(r.IntN(4)) * math.Pi / 2
		}
		return r.Float64() * 2 * math.Pi
	}
	var bodies []*ebBody
	for i := range 14 {
		b := &ebBody{s: woShape(r), filter: woFilters[r.IntN(len(woFilters))], sensor: r.IntN(6) == 0, bullet: i < 5}
		if r.IntN(3) == 0 && !b.bullet {
			b.s = must[collide.Shape](t)(collide.NewOBB(woDyad(r, 0.5, 3), 0.0078125)) // a thin wall
		}
		b.static = !b.bullet && r.IntN(2) == 0
		b.p1, b.a1 = pos(8), angle()
		b.p0, b.a0 = b.p1, b.a1
		def := collide.BodyDef{Shape: b.s, Position: b.p1, Angle: b.a1, Filter: b.filter, Sensor: b.sensor, Bullet: b.bullet}
		if b.static {
			def.Kind = collide.Static
		}
		b.id = must[collide.BodyID](t)(w1.Add(def))
		if id := must[collide.BodyID](t)(w4.Add(def)); id != b.id {
			t.Fatalf("%s: ids differ", name)
		}
		bodies = append(bodies, b)
	}
	w1.Step()
	w4.Step()
	for round := range 3 {
		for _, b := range bodies {
			b.p0, b.a0 = b.p1, b.a1
			switch {
			case b.bullet:
				switch k := r.IntN(10); {
				case k == 0: // still
				case k == 1: // turning in place
					b.a1 += r.Float64()*4 - 2
				case k <= 3: // turning on the way
					b.p1 = b.p0.Add(collide.V(woDyad(r, -10, 10), woDyad(r, -10, 10)))
					b.a1 += r.Float64()*2 - 1
				case k == 4: // along an axis (grazes of boxes)
					if r.IntN(2) == 0 {
						b.p1.X += woDyad(r, -12, 12)
					} else {
						b.p1.Y += woDyad(r, -12, 12)
					}
				default:
					b.p1 = b.p0.Add(collide.V(woDyad(r, -12, 12), woDyad(r, -12, 12)))
				}
			case !b.static && r.IntN(3) == 0:
				b.p1 = pos(8) // teleported: where it is is all that counts
			default:
				continue
			}
			for _, w := range []*collide.World{w1, w4} {
				if err := w.SetTransform(b.id, b.p1, b.a1); err != nil {
					t.Fatal(err)
				}
			}
		}
		w1.Step()
		w4.Step()
		var got []collide.Contact
		for c := range w1.Contacts() {
			got = append(got, c)
		}
		var got4 []collide.Contact
		for c := range w4.Contacts() {
			got4 = append(got4, c)
		}
		if !slices.Equal(got, got4) {
			t.Fatalf("%s round %d: workers 1 and 4 give different contacts:\n%v\n%v", name, round, got, got4)
		}
		byPair := map[[2]collide.BodyID][]collide.Contact{}
		for _, c := range got {
			byPair[[2]collide.BodyID{c.A, c.B}] = append(byPair[[2]collide.BodyID{c.A, c.B}], c)
		}
		for i, a := range bodies {
			for _, b := range bodies[i+1:] {
				if !a.moved() && !b.moved() {
					continue // the other oracles check discrete pairs
				}
				if ebSlot(a.id) > ebSlot(b.id) {
					a, b = b, a
				}
				cs := byPair[[2]collide.BodyID{a.id, b.id}]
				desc := func() string {
					return fmt.Sprintf("%s round %d: A %v %v (bullet %v) from %v/%v to %v/%v, B %v %v (bullet %v) from %v/%v to %v/%v",
						name, round, a.id, a.s, a.bullet, a.p0, a.a0, a.p1, a.a1, b.id, b.s, b.bullet, b.p0, b.a0, b.p1, b.a1)
				}
				if (a.static && b.static) || !a.filter.Accepts(b.filter) {
					if len(cs) != 0 {
						t.Fatalf("%s: the filters forbid the pair, contacts %+v", desc(), cs)
					}
					continue
				}
				npairs++
				// Overlaps thinner than rounding (eps: of the sizes, and a
				// few ulps of the coordinates, where the samples' poses
				// round) may go either way.
				eps := 1e-9 + 8*0x1p-52*math.Abs(base)
				if base == 0 && a.a0 == 0 && a.a1 == 0 && b.a0 == 0 && b.a1 == 0 && evPlain(a.s) && evPlain(b.s) {
					// Every pose sampled is exact (dyadic, unrotated):
					// the exact predicate, touching is no overlap.
					eps = 0
				}
				p := ebPair{a: a, b: b, pa: -1, pb: -1}
				sure, near := p.with(-eps), p.with(eps)
				if sure.overlap(1) {
					ndisc++
					if len(cs) == 0 || cs[0].Swept {
						t.Fatalf("%s: they overlap at the end; contacts %+v, want discrete ones", desc(), cs)
					}
					continue
				}
				if near.overlap(1) {
					continue // the end is within rounding of touching
				}
				on, hit := sure.onset(samples)
				if len(cs) == 0 {
					if hit {
						t.Fatalf("%s: they overlap at %v of the motion; no contact", desc(), on)
					}
					continue
				}
				if len(cs) > 1 || !cs[0].Swept {
					t.Fatalf("%s: they do not overlap at the end; contacts %+v, want at most one swept contact", desc(), cs)
				}
				c := cs[0]
				nswept++
				if c.Sensor != (a.sensor || b.sensor) {
					t.Fatalf("%s: Sensor %v", desc(), c.Sensor)
				}
				turning := a.a0 != a.a1 || b.a0 != b.a1
				if !(c.TOI >= 0 && c.TOI <= 1) {
					t.Fatalf("%s: TOI %v", desc(), c.TOI)
				}
				// The parts named overlap (or nearly) just after the TOI,
				// which also makes a contact without a sampled overlap real.
				pp := ebPair{a: a, b: b, pa: c.PartA, pb: c.PartB, margin: eps}
				if !pp.overlapsAfter(c.TOI) {
					if !near.overlapsAfter(c.TOI) && !hit {
						t.Fatalf("%s: swept contact at TOI %v (parts %d, %d), but they never overlap", desc(), c.TOI, c.PartA, c.PartB)
					}
					t.Fatalf("%s: swept contact at TOI %v names parts %d, %d, which do not overlap just after it (onset of the first overlap sampled: %v, %v)",
						desc(), c.TOI, c.PartA, c.PartB, on, hit)
				}
				if hit {
					scale := math.Abs(base) * 0x1p-52 / max(a.p1.Sub(a.p0).Len(), b.p1.Sub(b.p0).Len(), 1e-300)
					tol := 1e-9 + 64*scale
					if c.TOI > on+tol {
						t.Fatalf("%s: TOI %v (parts %d, %d), but they overlap from %v", desc(), c.TOI, c.PartA, c.PartB, on)
					}
					if first, _ := near.onset(samples); !turning && c.TOI < first-tol && !near.overlapsAfter(c.TOI) {
						t.Fatalf("%s: TOI %v, before the overlap at %v", desc(), c.TOI, first)
					}
				}
				if l := c.Manifold.Normal.Len(); math.Abs(l-1) > 1e-9 || c.Manifold.Count != 1 || c.Manifold.Depth != 0 {
					t.Fatalf("%s: swept manifold %+v", desc(), c.Manifold)
				}
			}
		}
		// No contact of a pair the loop above did not account for.
		known := map[collide.BodyID]*ebBody{}
		for _, b := range bodies {
			known[b.id] = b
		}
		for _, c := range got {
			a, b := known[c.A], known[c.B]
			if a == nil || b == nil || ebSlot(c.A) >= ebSlot(c.B) {
				t.Fatalf("%s round %d: contact %+v of unknown or misordered bodies", name, round, c)
			}
			if c.Swept && !a.moved() && !b.moved() {
				t.Fatalf("%s round %d: swept contact %+v of two bodies that did not move", name, round, c)
			}
		}
	}
	return npairs, nswept, ndisc
}
