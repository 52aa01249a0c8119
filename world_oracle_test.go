package collide_test

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/shape"
)

// This file checks the World's queries against scans over every body with
// predicates of its own, in exact rational arithmetic, not the narrow
// phase: each body is its convex parts (a compound's parts placed by their
// offsets and then the body, a chain's segments, an AABB unturned), each
// part a core (point, segment or convex polygon) grown by a radius, placed
// exactly from the float64 position and the cosine and sine the body's
// transform holds. Shapes and positions are dyadic, with quarter turns
// often, so that exact touching (a box edge on a body's extent, a point on
// a boundary) comes up all the time, near the origin and at 1e6, 1e7 and
// 1e12, between mutations (Add, Remove, Move, SetTransform) without Step.

var woSeed = flag.Uint64("woseed", 0, "seed for TestWorldOracle (0: a random one)")

type woV struct{ x, y *big.Rat }

func woR(x float64) *big.Rat  { return new(big.Rat).SetFloat64(x) }
func woVF(v collide.Vec2) woV { return woV{woR(v.X), woR(v.Y)} }
func (p woV) sub(q woV) woV {
	return woV{new(big.Rat).Sub(p.x, q.x), new(big.Rat).Sub(p.y, q.y)}
}
func (p woV) dot(q woV) *big.Rat {
	return new(big.Rat).Add(new(big.Rat).Mul(p.x, q.x), new(big.Rat).Mul(p.y, q.y))
}
func (p woV) cross(q woV) *big.Rat {
	return new(big.Rat).Sub(new(big.Rat).Mul(p.x, q.y), new(big.Rat).Mul(p.y, q.x))
}
func woCmp(p, q woV) int {
	if c := p.x.Cmp(q.x); c != 0 {
		return c
	}
	return p.y.Cmp(q.y)
}

// woApply applies t (its cos and sin as held) to p exactly.
func woApply(t collide.Transform, p woV) woV {
	c, s := woR(t.Rot.Cos()), woR(t.Rot.Sin())
	x := new(big.Rat).Add(woR(t.Pos.X), new(big.Rat).Sub(new(big.Rat).Mul(c, p.x), new(big.Rat).Mul(s, p.y)))
	y := new(big.Rat).Add(woR(t.Pos.Y), new(big.Rat).Add(new(big.Rat).Mul(s, p.x), new(big.Rat).Mul(c, p.y)))
	return woV{x, y}
}

// woCore is a convex core grown by r.
type woCore struct {
	pts []woV // 1, 2, or a CCW polygon with no collinear vertex
	r   *big.Rat
}

func woHull(pts []woV) []woV {
	p := slices.Clone(pts)
	sort.Slice(p, func(i, j int) bool { return woCmp(p[i], p[j]) < 0 })
	p = slices.CompactFunc(p, func(a, b woV) bool { return woCmp(a, b) == 0 })
	if len(p) <= 2 {
		return p
	}
	var h []woV
	for pass := range 2 {
		start := len(h)
		for i := range p {
			q := p[i]
			if pass == 1 {
				q = p[len(p)-1-i]
			}
			for len(h) >= start+2 && h[len(h)-1].sub(h[len(h)-2]).cross(q.sub(h[len(h)-2])).Sign() <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
	}
	if len(h) < 3 {
		return []woV{p[0], p[len(p)-1]}
	}
	return h
}

// woConvex places the convex shape s by the transforms ts, applied
// innermost first.
func woConvex(s collide.Shape, ts ...collide.Transform) woCore {
	var local []collide.Vec2
	r := 0.0
	switch s.Kind() {
	case shape.KindCircle:
		local, r = []collide.Vec2{s.Center()}, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		cs := s.Corners()
		local = cs[:]
	case shape.KindPolygon:
		local = s.Vertices()
	default:
		p0, p1 := s.Segment()
		local, r = []collide.Vec2{p0, p1}, s.Radius()
	}
	pts := make([]woV, len(local))
	for i, v := range local {
		p := woVF(v)
		for _, t := range ts {
			if s.Kind() == shape.KindAABB {
				t = collide.Transform{Pos: t.Pos}
			}
			p = woApply(t, p)
		}
		pts[i] = p
	}
	return woCore{pts: woHull(pts), r: woR(r)}
}

// woBody returns the exact parts of a body of shape s placed by t.
func woBody(s collide.Shape, t collide.Transform) []woCore {
	switch s.Kind() {
	case shape.KindCompound:
		var out []woCore
		for _, p := range s.Parts() {
			out = append(out, woConvex(p.Shape, p.Offset, t))
		}
		return out
	case shape.KindChain:
		pts, closed := s.ChainPoints()
		var out []woCore
		n := len(pts)
		segs := n - 1
		if closed {
			segs = n
		}
		for i := range segs {
			a, b := woApply(t, woVF(pts[i])), woApply(t, woVF(pts[(i+1)%n]))
			out = append(out, woCore{pts: woHull([]woV{a, b}), r: new(big.Rat)})
		}
		return out
	}
	return []woCore{woConvex(s, t)}
}

func woPointSegDist2(p, a, b woV) *big.Rat {
	d, w := b.sub(a), p.sub(a)
	wd := w.dot(d)
	if wd.Sign() <= 0 {
		return w.dot(w)
	}
	dd := d.dot(d)
	if wd.Cmp(dd) >= 0 {
		e := p.sub(b)
		return e.dot(e)
	}
	c := w.cross(d)
	return new(big.Rat).Quo(new(big.Rat).Mul(c, c), dd)
}

// woInside reports whether p lies in the polygon core: closed, and
// strictly.
func woInside(c woCore, p woV) (closed, strict bool) {
	if len(c.pts) < 3 {
		return false, false
	}
	closed, strict = true, true
	for i := range c.pts {
		a, b := c.pts[i], c.pts[(i+1)%len(c.pts)]
		switch b.sub(a).cross(p.sub(a)).Sign() {
		case -1:
			return false, false
		case 0:
			strict = false
		}
	}
	return closed, strict
}

// woDist2 returns the squared distance from p to the core (0 inside).
func woDist2(c woCore, p woV) *big.Rat {
	if in, _ := woInside(c, p); in {
		return new(big.Rat)
	}
	var best *big.Rat
	n := len(c.pts)
	edges := n
	if n <= 2 {
		edges = 1
	}
	for i := range edges {
		d := woPointSegDist2(p, c.pts[i], c.pts[(i+1)%n])
		if best == nil || d.Cmp(best) < 0 {
			best = d
		}
	}
	return best
}

// woOverlaps reports whether the interiors of grown cores a and b meet:
// the origin strictly inside their Minkowski difference (for two bare
// segments, never: walls do not overlap walls).
func woOverlaps(a, b woCore) bool {
	if len(a.pts) <= 2 && len(b.pts) <= 2 && a.r.Sign() == 0 && b.r.Sign() == 0 {
		return false
	}
	var d []woV
	for _, q := range b.pts {
		for _, p := range a.pts {
			d = append(d, q.sub(p))
		}
	}
	m := woCore{pts: woHull(d), r: new(big.Rat).Add(a.r, b.r)}
	o := woV{new(big.Rat), new(big.Rat)}
	if _, strict := woInside(m, o); strict {
		return true
	}
	if m.r.Sign() == 0 {
		return false
	}
	return woDist2(m, o).Cmp(new(big.Rat).Mul(m.r, m.r)) < 0
}

// woPen returns whether the interiors of a and b meet and the signed
// penetration: the depth when they do, minus the gap when they do not.
func woPen(a, b woCore) (bool, float64) {
	var d []woV
	for _, q := range b.pts {
		for _, p := range a.pts {
			d = append(d, q.sub(p))
		}
	}
	m := woCore{pts: woHull(d), r: new(big.Rat).Add(a.r, b.r)}
	o := woV{new(big.Rat), new(big.Rat)}
	sd := woSigned(m, o)
	return woOverlaps(a, b), -sd
}

// woDist returns the distance from p to the grown core, 0 inside, to
// float64.
func woDist(c woCore, p woV) float64 {
	d2 := woDist2(c, p)
	if d2.Cmp(new(big.Rat).Mul(c.r, c.r)) <= 0 {
		return 0
	}
	f := new(big.Float).SetPrec(200).SetRat(d2)
	f.Sqrt(f)
	f.Sub(f, new(big.Float).SetPrec(200).SetRat(c.r))
	v, _ := f.Float64()
	return v
}

// woSigned returns the signed distance from p to the grown core, to
// float64: the distance outside, minus the distance to the boundary inside.
func woSigned(c woCore, p woV) float64 {
	rf := new(big.Float).SetPrec(200).SetRat(c.r)
	sqrt := func(x *big.Rat) *big.Float {
		f := new(big.Float).SetPrec(200).SetRat(x)
		return f.Sqrt(f)
	}
	if _, strict := woInside(c, p); strict {
		var best *big.Rat
		for i := range c.pts {
			d := woPointSegDist2(p, c.pts[i], c.pts[(i+1)%len(c.pts)])
			if best == nil || d.Cmp(best) < 0 {
				best = d
			}
		}
		v, _ := new(big.Float).Neg(new(big.Float).Add(sqrt(best), rf)).Float64()
		return v
	}
	v, _ := new(big.Float).Sub(sqrt(woDist2(c, p)), rf).Float64()
	return v
}

// woBodyRec is the test's record of a body, from the calls it made.
type woBodyRec struct {
	s      collide.Shape
	xf     collide.Transform
	filter collide.Filter
	sensor bool
	parts  []woCore
}

// woDyad returns a multiple of 1/16 in [lo, hi].
func woDyad(r *rand.Rand, lo, hi float64) float64 {
	return math.Round((lo+r.Float64()*(hi-lo))*16) / 16
}

// woShape returns a dyadic shape of any kind.
func woShape(r *rand.Rand) collide.Shape {
	dv := func(lo, hi float64) collide.Vec2 { return collide.V(woDyad(r, lo, hi), woDyad(r, lo, hi)) }
	size := func() float64 { return woDyad(r, 0.25, 2) }
	for {
		var s collide.Shape
		var err error
		switch r.IntN(9) {
		case 0:
			s, err = collide.NewOffsetCircle(dv(-1, 1), size())
		case 1:
			s, err = collide.NewAABB(size(), size())
		case 2:
			s, err = collide.NewOBB(size(), size())
		case 3:
			pts := make([]collide.Vec2, 3+r.IntN(5))
			for i := range pts {
				pts[i] = dv(-2, 2)
			}
			s, err = collide.ConvexHull(pts)
		case 4:
			s, err = collide.NewCapsule(dv(-2, 2), dv(-2, 2), size()/2)
		case 5:
			s, err = collide.NewSegment(dv(-2, 2), dv(-2, 2))
		case 6:
			parts := make([]collide.Part, 1+r.IntN(3))
			for i := range parts {
				var ps collide.Shape
				for !ps.Valid() || !ps.Kind().Convex() || ps.Kind() == shape.KindAABB {
					ps = woShape(r)
				}
				rot := [4]collide.Transform{{}, {Rot: shape.RotFromCosSin(0, 1)}, {Rot: shape.RotFromCosSin(-1, 0)}, {Rot: shape.NewRot(r.Float64() * 6)}}[r.IntN(4)]
				rot.Pos = dv(-2, 2)
				parts[i] = collide.Part{Shape: ps, Offset: rot}
			}
			s, err = collide.NewCompound(parts)
		case 7:
			n := 5 + r.IntN(8)
			pts := make([]collide.Vec2, n)
			for i := range pts {
				a := 2 * math.Pi * float64(i) / float64(n)
				rad := woDyad(r, 0.5, 2.5)
				pts[i] = collide.V(math.Round(rad*math.Cos(a)*16)/16, math.Round(rad*math.Sin(a)*16)/16)
			}
			s, err = collide.NewConcavePolygon(pts)
		default:
			pts := []collide.Vec2{dv(-2, 2)}
			for range 1 + r.IntN(5) {
				pts = append(pts, pts[len(pts)-1].Add(dv(-1.5, 1.5)))
			}
			s, err = collide.NewChain(pts, len(pts) >= 3 && r.IntN(3) == 0)
		}
		if err == nil {
			return s
		}
	}
}

var woFilters = []collide.Filter{{}, {Category: 2, Mask: 2}, {Category: 4, Mask: 1 | 4}, {Category: 1, Mask: 1}}
var woQueryFilters = []collide.Filter{{}, {Mask: 2}, {Mask: 4 | 2}, {Category: 2, Mask: math.MaxUint32}, {SkipSensors: true}}

// woPasses is the query filter rule, from the docs: the body's category
// in the query's mask, and the query's category (when not 0) in the
// body's mask; Exclude and SkipSensors as named.
func woPasses(q collide.Filter, id collide.BodyID, b *woBodyRec) bool {
	bc, bm := bits(b.filter)
	return queryPasses(q, id, bc, bm, b.sensor)
}

// woClassify tests each part of body id (test gives whether the part is
// in the query's answer beyond rounding, and whether it is within rounding
// of its boundary) and appends id to want if one part is in, else to
// either if one is near.
func woClassify(want, either []collide.BodyID, id collide.BodyID, parts []woCore, test func(c woCore) (in, near bool)) ([]collide.BodyID, []collide.BodyID) {
	in, near := false, false
	for _, c := range parts {
		i, n := test(c)
		in, near = in || i, near || n
	}
	switch {
	case in:
		want = append(want, id)
	case near:
		either = append(either, id)
	}
	return want, either
}

// TestWorldOracle runs random mutations and, after each, QueryPoint,
// QueryAABB and Nearest/NearestWithin against exact scans.
func TestWorldOracle(t *testing.T) {
	seed := oracleSeed(t, *woSeed, "woseed")
	ops := 60
	if testing.Short() {
		ops = 6
	}
	for _, base := range []float64{0, 1e6, 1e7, 1e12} {
		t.Run(fmt.Sprint(base), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, math.Float64bits(base)))
			w := collide.NewWorld(collide.Config{Workers: 1})
			defer w.Close()
			origin := collide.V(base, -base)
			bodies := map[collide.BodyID]*woBodyRec{}
			var ids []collide.BodyID
			pos := func() collide.Vec2 { return origin.Add(collide.V(woDyad(r, -8, 8), woDyad(r, -8, 8))) }
			angle := func() float64 {
				switch r.IntN(3) {
				case 0:
					return 0
				case 1:
					return float64(r.IntN(4)) * math.Pi / 2
				}
				return r.Float64() * 2 * math.Pi
			}
			add := func() {
				b := &woBodyRec{s: woShape(r), filter: woFilters[r.IntN(len(woFilters))], sensor: r.IntN(5) == 0}
				p, a := pos(), angle()
				id, err := w.Add(collide.BodyDef{Shape: b.s, Position: p, Angle: a, Filter: b.filter, Sensor: b.sensor,
					Kind: [2]collide.BodyKind{collide.Dynamic, collide.Static}[r.IntN(2)]})
				if err != nil {
					t.Fatal(err)
				}
				b.xf = collide.NewTransform(p, a)
				b.parts = woBody(b.s, b.xf)
				bodies[id] = b
				ids = append(ids, id)
			}
			for range 20 {
				add()
			}
			for op := range ops {
				what := "Add"
				switch k := r.IntN(6); {
				case k == 0 || len(ids) < 5:
					add()
				case k == 1:
					i := r.IntN(len(ids))
					if err := w.Remove(ids[i]); err != nil {
						t.Fatal(err)
					}
					delete(bodies, ids[i])
					ids = slices.Delete(ids, i, i+1)
					what = "Remove"
				case k == 2 || k == 3:
					id := ids[r.IntN(len(ids))]
					b := bodies[id]
					d := collide.V(woDyad(r, -2, 2), woDyad(r, -2, 2))
					if err := w.Move(id, d); err != nil {
						t.Fatal(err)
					}
					b.xf.Pos = b.xf.Pos.Add(d)
					b.parts = woBody(b.s, b.xf)
					what = "Move"
				default:
					id := ids[r.IntN(len(ids))]
					b := bodies[id]
					p, a := pos(), angle()
					if err := w.SetTransform(id, p, a); err != nil {
						t.Fatal(err)
					}
					b.xf = collide.NewTransform(p, a)
					b.parts = woBody(b.s, b.xf)
					what = "SetTransform"
				}
				if r.IntN(10) == 0 {
					w.Step()
					what += "+Step"
				}
				woCheckQueries(t, r, w, bodies, ids, origin, fmt.Sprintf("op %d (after %s)", op, what))
				if t.Failed() {
					return
				}
			}
		})
	}
}

// woCheckQueries runs QueryPoint, QueryAABB and Nearest against exact scans.
func woCheckQueries(t *testing.T, r *rand.Rand, w *collide.World, bodies map[collide.BodyID]*woBodyRec, ids []collide.BodyID, origin collide.Vec2, at string) {
	t.Helper()
	f := woQueryFilters[r.IntN(len(woQueryFilters))]
	if r.IntN(4) == 0 {
		f.Exclude = ids[r.IntN(len(ids))]
	}
	for range 2 {
		// A dyadic point, often a body's origin or one of its vertices.
		p := origin.Add(collide.V(woDyad(r, -9, 9), woDyad(r, -9, 9)))
		if r.IntN(3) == 0 {
			b := bodies[ids[r.IntN(len(ids))]]
			c := b.parts[r.IntN(len(b.parts))]
			p = c.pts[r.IntN(len(c.pts))].f()
		}
		pv := woVF(p)

		var got, want []collide.BodyID
		if err := w.QueryPoint(p, f, func(id collide.BodyID) bool { got = append(got, id); return true }); err != nil {
			t.Fatal(err)
		}
		var either []collide.BodyID // within rounding of the boundary
		for id, b := range bodies {
			if !woPasses(f, id, b) {
				continue
			}
			eps := 1e-9 * (b.s.BoundingRadius() + b.xf.Pos.Sub(p).Len())
			if b.xf.Pos.Sub(p).Len() > b.s.BoundingRadius()*(1+1e-9)+eps {
				continue // out of reach: nothing exact to decide
			}
			want, either = woClassify(want, either, id, b.parts, func(c woCore) (bool, bool) {
				sd := woSigned(c, pv)
				return sd < -eps, math.Abs(sd) <= eps
			})
		}
		if !woSameUpTo(got, want, either) {
			t.Errorf("%s: QueryPoint(%v, %+v) = %v, want %v (either way: %v)%s", at, p, f, got, want, either, woDiff(bodies, got, want))
		}

		// A dyadic box around p, its edges often on a body's vertex.
		h := collide.V(woDyad(r, 0.0625, 4), woDyad(r, 0.0625, 4))
		box := collide.AABB{Min: p.Sub(h), Max: p.Add(h)}
		if r.IntN(2) == 0 {
			b := bodies[ids[r.IntN(len(ids))]]
			c := b.parts[r.IntN(len(b.parts))]
			v := c.pts[r.IntN(len(c.pts))].f()
			switch r.IntN(4) {
			case 0:
				box.Min.X = v.X
			case 1:
				box.Max.X = v.X
			case 2:
				box.Min.Y = v.Y
			default:
				box.Max.Y = v.Y
			}
		}
		got, want = got[:0], want[:0]
		if box.Min.X < box.Max.X && box.Min.Y < box.Max.Y {
			if err := w.QueryAABB(box, f, func(id collide.BodyID) bool { got = append(got, id); return true }); err != nil {
				t.Fatal(err)
			}
			bc := woCore{pts: woHull([]woV{woVF(box.Min), woVF(collide.V(box.Max.X, box.Min.Y)), woVF(box.Max), woVF(collide.V(box.Min.X, box.Max.Y))}), r: new(big.Rat)}
			var either []collide.BodyID
			for id, b := range bodies {
				if !woPasses(f, id, b) {
					continue
				}
				eps := 1e-9 * (b.s.BoundingRadius() + b.xf.Pos.Sub(box.Center()).Len() + h.Len())
				if reach := b.s.BoundingRadius()*(1+1e-9) + eps; b.xf.Pos.X+reach < box.Min.X || b.xf.Pos.X-reach > box.Max.X ||
					b.xf.Pos.Y+reach < box.Min.Y || b.xf.Pos.Y-reach > box.Max.Y {
					continue
				}
				want, either = woClassify(want, either, id, b.parts, func(c woCore) (bool, bool) {
					ov, pen := woPen(bc, c)
					return ov && pen > eps, math.Abs(pen) <= eps
				})
			}
			if !woSameUpTo(got, want, either) {
				t.Errorf("%s: QueryAABB(%v, %+v) = %v, want %v (either way: %v)%s", at, box, f, got, want, either, woDiff(bodies, got, want))
			}
		}

		// Nearest and NearestWithin: exact distances, ordered by distance
		// then id; k of them.
		type near struct {
			id collide.BodyID
			d  float64
		}
		// Exact distances for the bodies that may matter: those whose
		// bounding disc comes within reach of the k nearest discs' far
		// sides (the rest are farther than every body reported could be).
		var cands []near // id and the disc's near side
		for id, b := range bodies {
			if !woPasses(f, id, b) {
				continue
			}
			cands = append(cands, near{id, math.Max(0, b.xf.Pos.Sub(p).Len()-b.s.BoundingRadius()*(1+1e-9)-1e-9)})
		}
		var fars []float64
		for _, c := range cands {
			b := bodies[c.id]
			fars = append(fars, b.xf.Pos.Sub(p).Len()+b.s.BoundingRadius()*(1+1e-9)+1e-9)
		}
		slices.Sort(fars)
		reach := math.Inf(1)
		if len(fars) >= 6 {
			reach = fars[5] // k is at most 6
		}
		var all []near
		for _, c := range cands {
			if c.d > reach {
				continue
			}
			best := math.Inf(1)
			for _, pc := range bodies[c.id].parts {
				best = math.Min(best, woDist(pc, pv))
			}
			all = append(all, near{c.id, best})
		}
		slices.SortFunc(all, func(a, b near) int {
			if c := cmp.Compare(a.d, b.d); c != 0 {
				return c
			}
			return cmp.Compare(a.id, b.id)
		})
		k := 1 + r.IntN(6)
		within := []float64{math.Inf(1), woDyad(r, 0, 4), 0}[r.IntN(3)]
		var gotNear []near
		call := func(id collide.BodyID, d float64) bool { gotNear = append(gotNear, near{id, d}); return true }
		if math.IsInf(within, 1) && r.IntN(2) == 0 {
			_ = w.Nearest(p, k, f, call)
		} else {
			_ = w.NearestWithin(p, k, within, f, call)
		}
		tol := 1e-9 * 16 // distances of bodies of size ~2 a few units away, relative
		exact := map[collide.BodyID]float64{}
		for _, n := range all {
			exact[n.id] = n.d
		}
		for i, g := range gotNear {
			e, ok := exact[g.id]
			if !ok {
				t.Errorf("%s: Nearest(%v, %d, %v, %+v)[%d] = %v, a body the filter refuses, not live, or farther than six others", at, p, k, within, f, i, g.id)
				continue
			}
			if math.Abs(g.d-e) > tol {
				b := bodies[g.id]
				t.Errorf("%s: Nearest(%v)[%d] = %v at %.17g, exact distance %.17g: %v at %v (cos %v sin %v)", at, p, i, g.id, g.d, e, b.s, b.xf.Pos, b.xf.Rot.Cos(), b.xf.Rot.Sin())
			}
			if g.d > within {
				t.Errorf("%s: NearestWithin(%v, within %v)[%d] = %v at %v beyond the limit", at, p, within, i, g.id, g.d)
			}
			if i > 0 && (gotNear[i-1].d > g.d || (gotNear[i-1].d == g.d && gotNear[i-1].id > g.id)) {
				t.Errorf("%s: Nearest(%v) out of order at %d: %v", at, p, i, gotNear)
			}
		}
		// The count, and no body left out nearer than the last one given
		// (beyond the tolerance).
		wantN := 0
		for _, n := range all {
			if n.d <= within+tol {
				wantN++
			}
		}
		surelyIn := 0
		for _, n := range all {
			if n.d <= within-tol {
				surelyIn++
			}
		}
		if len(gotNear) > min(k, wantN) || len(gotNear) < min(k, surelyIn) {
			t.Errorf("%s: Nearest(%v, k=%d, within %v, %+v) gave %d bodies %v, want %d of %v", at, p, k, within, f, len(gotNear), gotNear, min(k, wantN), all)
		}
		if len(gotNear) > 0 {
			last := gotNear[len(gotNear)-1].d
			given := map[collide.BodyID]bool{}
			for _, g := range gotNear {
				given[g.id] = true
			}
			for _, n := range all {
				if !given[n.id] && n.d < last-tol {
					t.Errorf("%s: Nearest(%v, k=%d) left out %v at %.17g, nearer than %.17g", at, p, k, n.id, n.d, last)
				}
			}
		}
		if t.Failed() {
			return
		}
	}
}

// woSameUpTo reports whether got holds every id of want, and others only
// from either.
func woSameUpTo(got, want, either []collide.BodyID) bool {
	for _, id := range want {
		if !slices.Contains(got, id) {
			return false
		}
	}
	for _, id := range got {
		if !slices.Contains(want, id) && !slices.Contains(either, id) {
			return false
		}
	}
	return true
}

// woDiff describes the bodies in one list and not the other.
func woDiff(bodies map[collide.BodyID]*woBodyRec, got, want []collide.BodyID) string {
	s := ""
	for _, id := range got {
		if !slices.Contains(want, id) {
			b := bodies[id]
			s += fmt.Sprintf("\n\textra %v: %v at %v (cos %v sin %v)", id, b.s, b.xf.Pos, b.xf.Rot.Cos(), b.xf.Rot.Sin())
		}
	}
	for _, id := range want {
		if !slices.Contains(got, id) {
			b := bodies[id]
			s += fmt.Sprintf("\n\tmissing %v: %v at %v (cos %v sin %v)", id, b.s, b.xf.Pos, b.xf.Rot.Cos(), b.xf.Rot.Sin())
		}
	}
	return s
}

func (p woV) f() collide.Vec2 {
	x, _ := p.x.Float64()
	y, _ := p.y.Float64()
	return collide.V(x, y)
}
