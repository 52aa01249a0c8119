package collide_test

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

var diffSeed = flag.Uint64("diffseed", 0, "seed for TestWorldDifferential (0: a random one)")

// model is the test's own record of a live body, kept from the calls the
// test makes, never read back from the World.
type model struct {
	shape  collide.Shape
	pos    collide.Vec2
	angle  float64
	xf     collide.Transform
	filter collide.Filter
	static bool
	sensor bool
	user   any
}

// diffWorld drives a World and a model side by side.
type diffWorld struct {
	t      *testing.T
	r      *rand.Rand
	w      *collide.World
	live   map[collide.BodyID]*model
	ids    []collide.BodyID          // live ids, in the order added
	dying  map[collide.BodyID]*model // removed since the last Step
	dead   map[collide.BodyID]*model // removed before it: readable until the next
	origin collide.Vec2
	size   float64 // the world's extent
	scale  float64 // shape size
	ops    int
}

var diffFilters = []collide.Filter{
	{}, {Category: 2, Mask: 2}, {Category: 4, Mask: 1 | 4}, {Category: 1, Mask: 1}, collide.DefaultFilter, {Category: 2 | 4, Mask: math.MaxUint32},
}

var diffQueryFilters = []collide.Filter{
	{}, {Mask: 2}, {Mask: 4 | 2}, {Category: 1, Mask: 4}, {Category: 2, Mask: math.MaxUint32}, {SkipSensors: true}, {Mask: 1, SkipSensors: true},
}

// randSimple returns a random shape of one of the four first kinds.
func (d *diffWorld) randSimple() collide.Shape {
	for {
		if sh := d.randShape(); sh.Kind() <= shape.KindPolygon {
			return sh
		}
	}
}

func (d *diffWorld) randShape() collide.Shape {
	r, s := d.r, d.scale
	size := func() float64 { return s * (0.1 + r.Float64()) }
	var sh collide.Shape
	var err error
	switch r.IntN(9) {
	case 5:
		sh, err = collide.NewCapsule(collide.V(-size(), 0), collide.V(size(), s*(r.Float64()-0.5)), size()/2)
	case 6:
		sh, err = collide.NewSegment(collide.V(-size(), s*(r.Float64()-0.5)), collide.V(size(), 0))
	case 7:
		// A compound of two or three parts, or a concave star.
		if r.IntN(2) == 0 {
			pts := make([]collide.Vec2, 10)
			for i := range pts {
				rad := size()
				if i%2 == 1 {
					rad *= 0.4
				}
				a := 2 * math.Pi * float64(i) / 10
				pts[i] = collide.V(rad*math.Cos(a), rad*math.Sin(a))
			}
			sh, err = collide.NewConcavePolygon(pts)
			break
		}
		parts := make([]collide.Part, 2+r.IntN(2))
		for i := range parts {
			var ps collide.Shape
			for !ps.Valid() || ps.Kind() == shape.KindAABB {
				ps = d.randSimple()
			}
			parts[i] = collide.Part{Shape: ps, Offset: collide.NewTransform(collide.V(s*(r.Float64()-0.5), s*(r.Float64()-0.5)), 2*math.Pi*r.Float64())}
		}
		sh, err = collide.NewCompound(parts)
	case 8:
		pts := make([]collide.Vec2, 2+r.IntN(6))
		x := -size()
		for i := range pts {
			pts[i] = collide.V(x, s*(r.Float64()-0.5))
			x += size()
		}
		sh, err = collide.NewChain(pts, r.IntN(3) == 0 && len(pts) >= 3)
	case 0:
		sh, err = collide.NewCircle(size())
	case 1:
		sh, err = collide.NewOffsetCircle(collide.V(s*(r.Float64()-0.5), s*(r.Float64()-0.5)), size())
	case 2:
		sh, err = collide.NewAABB(size(), size())
	case 3:
		sh, err = collide.NewOBB(size(), size())
	default:
		pts := make([]collide.Vec2, 3+r.IntN(6))
		for i := range pts {
			pts[i] = collide.V(size()*(2*r.Float64()-1), size()*(2*r.Float64()-1))
		}
		sh, err = collide.ConvexHull(pts)
		if err != nil {
			return d.randShape()
		}
	}
	if err != nil {
		d.t.Fatal(err)
	}
	return sh
}

func (d *diffWorld) randPos() collide.Vec2 {
	return d.origin.Add(collide.V(d.size*d.r.Float64(), d.size*d.r.Float64()))
}

func (d *diffWorld) randID() (collide.BodyID, *model) {
	id := d.ids[d.r.IntN(len(d.ids))]
	return id, d.live[id]
}

func (d *diffWorld) add(m *model) {
	id, err := d.w.Add(collide.BodyDef{Shape: m.shape, Position: m.pos, Angle: m.angle, Filter: m.filter,
		Kind: map[bool]collide.BodyKind{false: collide.Dynamic, true: collide.Static}[m.static], Sensor: m.sensor, UserData: m.user})
	if err != nil {
		d.t.Fatalf("Add: %v", err)
	}
	m.xf = collide.NewTransform(m.pos, m.angle)
	d.live[id] = m
	d.ids = append(d.ids, id)
}

// mutate applies one random mutation to the World and the model.
func (d *diffWorld) mutate() string {
	r := d.r
	d.ops++
	if len(d.ids) < 4 || r.IntN(12) == 0 {
		m := &model{shape: d.randShape(), pos: d.randPos(), angle: 2 * math.Pi * r.Float64(),
			filter: diffFilters[r.IntN(len(diffFilters))], static: r.IntN(4) == 0, sensor: r.IntN(6) == 0, user: d.ops}
		if len(d.ids) > 0 && r.IntN(4) == 0 { // an exact twin of a live body
			_, o := d.randID()
			m.shape, m.pos, m.angle, m.static = o.shape, o.pos, o.angle, !o.static
		}
		d.add(m)
		return "Add"
	}
	id, m := d.randID()
	switch r.IntN(9) {
	case 0:
		if err := d.w.Remove(id); err != nil {
			d.t.Fatalf("Remove: %v", err)
		}
		delete(d.live, id)
		d.ids = slices.DeleteFunc(d.ids, func(x collide.BodyID) bool { return x == id })
		d.dying[id] = m
		return "Remove"
	case 1, 2, 3:
		delta := collide.V(d.scale*(r.Float64()-0.5), d.scale*(r.Float64()-0.5))
		if err := d.w.Move(id, delta); err != nil {
			d.t.Fatalf("Move: %v", err)
		}
		m.pos = m.pos.Add(delta)
		m.xf.Pos = m.pos
		return "Move"
	case 4:
		m.pos, m.angle = d.randPos(), 2*math.Pi*r.Float64()
		if r.IntN(3) == 0 { // a short hop keeping the angle
			m.pos = m.xf.Pos.Add(collide.V(d.scale, 0))
		}
		if err := d.w.SetTransform(id, m.pos, m.angle); err != nil {
			d.t.Fatalf("SetTransform: %v", err)
		}
		m.xf = collide.NewTransform(m.pos, m.angle)
		return "SetTransform"
	case 5:
		m.filter = diffFilters[r.IntN(len(diffFilters))]
		if err := d.w.SetFilter(id, m.filter); err != nil {
			d.t.Fatalf("SetFilter: %v", err)
		}
		return "SetFilter"
	case 6:
		m.shape = d.randShape()
		if err := d.w.SetShape(id, m.shape); err != nil {
			d.t.Fatalf("SetShape: %v", err)
		}
		return "SetShape"
	case 7:
		m.sensor = !m.sensor
		if err := d.w.SetSensor(id, m.sensor); err != nil {
			d.t.Fatalf("SetSensor: %v", err)
		}
		return "SetSensor"
	default:
		m.static = !m.static
		k := collide.Dynamic
		if m.static {
			k = collide.Static
		}
		if err := d.w.SetKind(id, k); err != nil {
			d.t.Fatalf("SetKind: %v", err)
		}
		return "SetKind"
	}
}

// passes is the query filter rule (queryPasses) for a body of the model.
func passes(q collide.Filter, id collide.BodyID, m *model) bool {
	bc, bm := bits(m.filter)
	return queryPasses(q, id, bc, bm, m.sensor)
}

func (d *diffWorld) randQueryFilter() collide.Filter {
	f := diffQueryFilters[d.r.IntN(len(diffQueryFilters))]
	if d.r.IntN(4) == 0 && len(d.ids) > 0 {
		f.Exclude, _ = d.randID()
	}
	return f
}

func (d *diffWorld) fail(after, format string, args ...any) {
	d.t.Helper()
	d.t.Fatalf("op %d (after %s): %s", d.ops, after, fmt.Sprintf(format, args...))
}

// query runs one query of each kind and checks it against a scan of the
// model.
func (d *diffWorld) query(after string) {
	r, w := d.r, d.w
	f := d.randQueryFilter()
	p := d.randPos()
	if r.IntN(4) == 0 && len(d.ids) > 0 { // a point on a body's origin or edge
		_, m := d.randID()
		p = m.xf.Pos
	}

	// QueryPoint.
	var got, want []collide.BodyID
	_ = w.QueryPoint(p, f, func(id collide.BodyID) bool { got = append(got, id); return true })
	for id, m := range d.live {
		if passes(f, id, m) && narrowphase.ContainsPoint(m.shape, m.xf, p) {
			want = append(want, id)
		}
	}
	if !sameIDSet(got, want) {
		d.fail(after, "QueryPoint(%v, %+v) = %v, want %v", p, f, got, want)
	}

	// QueryShape, with the manifold bit for bit.
	qs, qt := d.randShape(), collide.NewTransform(p, 2*math.Pi*r.Float64())
	got, want = got[:0], want[:0]
	_ = w.QueryShape(qs, qt, f, func(id collide.BodyID, m collide.Manifold) bool {
		got = append(got, id)
		if mm := d.live[id]; mm == nil {
			d.fail(after, "QueryShape found %v, not a live body", id)
		} else if wm, ok := narrowphase.Collide(qs, qt, mm.shape, mm.xf); !ok || wm != m {
			d.fail(after, "QueryShape manifold for %v = %+v, Collide gives %+v, %v", id, m, wm, ok)
		}
		return true
	})
	for id, m := range d.live {
		if _, ok := narrowphase.Collide(qs, qt, m.shape, m.xf); ok && passes(f, id, m) {
			want = append(want, id)
		}
	}
	if !sameIDSet(got, want) {
		d.fail(after, "QueryShape(%v at %v, %+v) = %v, want %v", qs, qt, f, got, want)
	}

	// QueryAABB: the box as a shape, by Collide.
	h := collide.V(d.scale*(0.1+2*r.Float64()), d.scale*(0.1+2*r.Float64()))
	box := collide.AABB{Min: p.Sub(h), Max: p.Add(h)}
	bs, _ := collide.NewAABB(box.HalfExtents().X, box.HalfExtents().Y)
	bt := collide.NewTransform(box.Center(), 0)
	got, want = got[:0], want[:0]
	_ = w.QueryAABB(box, f, func(id collide.BodyID) bool { got = append(got, id); return true })
	for id, m := range d.live {
		if _, ok := narrowphase.Collide(bs, bt, m.shape, m.xf); ok && passes(f, id, m) {
			want = append(want, id)
		}
	}
	if !sameIDSet(got, want) {
		d.fail(after, "QueryAABB(%v, %+v) = %v, want %v", box, f, got, want)
	}

	// RayCastAll and RayCast: lengths 0, finite and infinite.
	s, c := math.Sincos(2 * math.Pi * r.Float64())
	dir := collide.V(c, s)
	maxDist := []float64{0, d.scale * 5 * r.Float64(), d.size, math.Inf(1)}[r.IntN(4)]
	type hit struct {
		id collide.BodyID
		h  narrowphase.RayHit
	}
	var wantHits []hit
	for id, m := range d.live {
		if hh, ok := narrowphase.RayCast(m.shape, m.xf, p, dir, maxDist); ok && passes(f, id, m) {
			wantHits = append(wantHits, hit{id, hh})
		}
	}
	slices.SortFunc(wantHits, func(a, b hit) int {
		if c := cmp.Compare(a.h.Distance, b.h.Distance); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	var gotHits []collide.RayHit
	_ = w.RayCastAll(p, dir, maxDist, f, func(h collide.RayHit) bool { gotHits = append(gotHits, h); return true })
	if len(gotHits) != len(wantHits) {
		var shapes []string
		for _, wh := range wantHits {
			m := d.live[wh.id]
			shapes = append(shapes, fmt.Sprintf("%v at %v hit at %v", m.shape, m.xf, wh.h.Distance))
		}
		d.fail(after, "RayCastAll(%v, %v, %v, %+v) found %d bodies, want %d: %v", p, dir, maxDist, f, len(gotHits), len(wantHits), shapes)
	}
	for i, g := range gotHits {
		wh := wantHits[i]
		if g.Body != wh.id || g.Distance != wh.h.Distance || g.Point != wh.h.Point || g.Normal != wh.h.Normal {
			d.fail(after, "RayCastAll hit %d = %+v, want %v %+v", i, g, wh.id, wh.h)
		}
	}
	first, ok, _ := w.RayCast(p, dir, maxDist, f)
	if ok != (len(wantHits) > 0) || (ok && (first.Body != wantHits[0].id || first.Distance != wantHits[0].h.Distance)) {
		d.fail(after, "RayCast(%v, %v, %v, %+v) = %+v, %v; want %v", p, dir, maxDist, f, first, ok, wantHits)
	}

	// CastShape and CastShapeAll: the brute force casts against every body.
	cs := d.randShape()
	ct := collide.NewTransform(p, 2*math.Pi*r.Float64())
	cd := collide.V(d.scale*20*(r.Float64()-0.5), d.scale*20*(r.Float64()-0.5))
	if r.IntN(8) == 0 {
		cd = collide.Vec2{}
	}
	var wantCast []collide.ShapeHit
	for id, m := range d.live {
		if h, ok := narrowphase.Cast(cs, ct, cd, m.shape, m.xf); ok && passes(f, id, m) {
			wantCast = append(wantCast, collide.ShapeHit{Body: id, Part: h.Part, Fraction: h.Fraction, Point: h.Point, Normal: h.Normal})
		}
	}
	slices.SortFunc(wantCast, func(a, b collide.ShapeHit) int {
		if c := cmp.Compare(a.Fraction, b.Fraction); c != 0 {
			return c
		}
		return cmp.Compare(a.Body, b.Body)
	})
	var gotCast []collide.ShapeHit
	if err := w.CastShapeAll(cs, ct, cd, f, func(h collide.ShapeHit) bool { gotCast = append(gotCast, h); return true }); err != nil {
		d.fail(after, "CastShapeAll: %v", err)
	}
	if !slices.Equal(gotCast, wantCast) {
		d.fail(after, "CastShapeAll(%v at %v by %v, %+v) = %v, want %v", cs, ct, cd, f, gotCast, wantCast)
	}
	firstCast, ok, _ := w.CastShape(cs, ct, cd, f)
	if ok != (len(wantCast) > 0) || (ok && firstCast != wantCast[0]) {
		d.fail(after, "CastShape(%v at %v by %v, %+v) = %+v, %v; want %v", cs, ct, cd, f, firstCast, ok, wantCast)
	}

	// Nearest and NearestWithin.
	k := 1 + r.IntN(5)
	within := []float64{math.Inf(1), d.scale * 3 * r.Float64(), 0}[r.IntN(3)]
	type near struct {
		id collide.BodyID
		d  float64
	}
	var wantNear []near
	for id, m := range d.live {
		if dd := math.Sqrt(narrowphase.DistanceSq(m.shape, m.xf, p)); passes(f, id, m) && dd <= within {
			wantNear = append(wantNear, near{id, dd})
		}
	}
	slices.SortFunc(wantNear, func(a, b near) int {
		if c := cmp.Compare(a.d, b.d); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	wantNear = wantNear[:min(k, len(wantNear))]
	var gotNear []near
	call := func(id collide.BodyID, dd float64) bool { gotNear = append(gotNear, near{id, dd}); return true }
	if math.IsInf(within, 1) && r.IntN(2) == 0 {
		_ = w.Nearest(p, k, f, call)
	} else {
		_ = w.NearestWithin(p, k, within, f, call)
	}
	if !slices.Equal(gotNear, wantNear) {
		d.fail(after, "Nearest(%v, k=%d, within %v, %+v) = %v, want %v", p, k, within, f, gotNear, wantNear)
	}
}

// step steps the World and checks its contacts, events and the readability
// of removed bodies.
func (d *diffWorld) step(prev map[partKey]bool) map[partKey]bool {
	w := d.w
	w.Step()
	for id, m := range d.dead { // their Ended events are past now
		if _, err := w.Body(id); !errors.Is(err, collide.ErrUnknownBody) {
			d.fail("Step", "Body(%v) removed two Steps ago = %v, want ErrUnknownBody", id, err)
		}
		_ = m
	}
	d.dead, d.dying = d.dying, map[collide.BodyID]*model{}
	for id, m := range d.dead {
		b, err := w.Body(id)
		if err != nil || !b.Removed || b.UserData != m.user {
			d.fail("Step", "Body(%v) removed since the last Step = %+v, %v; want readable with Removed", id, b, err)
		}
	}
	// The narrow phase's part contacts of every pair the filters allow.
	want := map[partKey]bool{}
	for i, a := range d.ids {
		for _, b := range d.ids[i+1:] {
			ma, mb := d.live[a], d.live[b]
			ac, am := bits(ma.filter)
			bc, bm := bits(mb.filter)
			if (ma.static && mb.static) || ac&bm == 0 || bc&am == 0 {
				continue
			}
			narrowphase.CollideParts(ma.shape, ma.xf, mb.shape, mb.xf, func(pa, pb int, m narrowphase.Manifold) bool {
				k := partKey{a, b, pa, pb}
				if b < a {
					k = partKey{b, a, pb, pa}
				}
				want[k] = true
				return true
			})
		}
	}
	cur := map[partKey]bool{}
	for c := range w.Contacts() {
		ma, mb := d.live[c.A], d.live[c.B]
		if ma == nil || mb == nil {
			d.fail("Step", "contact %v–%v names a body that is not live", c.A, c.B)
		}
		// The manifold in the contact's own order (exact twins tie-break
		// by argument order, so it is computed that way round).
		k := keyOf(c)
		var wm narrowphase.Manifold
		ok := false
		narrowphase.CollideParts(ma.shape, ma.xf, mb.shape, mb.xf, func(pa, pb int, m narrowphase.Manifold) bool {
			if pa == c.PartA && pb == c.PartB {
				wm, ok = m, true
				return false
			}
			return true
		})
		if !ok || !want[k] || wm != c.Manifold {
			d.fail("Step", "contact %v–%v parts %d, %d (%v at %v, %v at %v): manifold %+v, the narrow phase gives %+v, %v",
				c.A, c.B, c.PartA, c.PartB, ma.shape, ma.xf, mb.shape, mb.xf, c.Manifold, wm, ok)
		}
		if c.Sensor != (ma.sensor || mb.sensor) {
			d.fail("Step", "contact %v–%v Sensor = %v", c.A, c.B, c.Sensor)
		}
		if f := c.From(c.B); f.A != c.B || f.PartA != c.PartB || f.Manifold.Normal != c.Manifold.Normal.Neg() || c.Other(c.A) != c.B {
			d.fail("Step", "From/Other wrong on %+v", c)
		}
		if cur[k] {
			d.fail("Step", "contact %+v twice", k)
		}
		cur[k] = true
	}
	for k := range want {
		if !cur[k] {
			d.fail("Step", "missing contact %+v (%v at %v, %v at %v)", k, d.live[k.a].shape, d.live[k.a].xf, d.live[k.b].shape, d.live[k.b].xf)
		}
	}
	began, ended := 0, 0
	for c := range w.Began() {
		began++
		if prev[keyOf(c)] {
			d.fail("Step", "began %+v was a contact already", keyOf(c))
		}
	}
	for c := range w.Ended() {
		ended++
		k := keyOf(c)
		if !prev[k] || cur[k] {
			d.fail("Step", "ended %+v: was %v, is %v", k, prev[k], cur[k])
		}
	}
	nb, ne := 0, 0
	for k := range cur {
		if !prev[k] {
			nb++
		}
	}
	for k := range prev {
		if !cur[k] {
			ne++
		}
	}
	if began != nb || ended != ne {
		d.fail("Step", "began %d ended %d, want %d and %d", began, ended, nb, ne)
	}
	return cur
}

// TestWorldDifferential drives random mutation sequences with a query after
// every mutation and a full check after every Step, against a brute-force
// scan of the test's own model, at unit, far (1e7) and very far (1e12)
// coordinates.
func TestWorldDifferential(t *testing.T) {
	seed := oracleSeed(t, *diffSeed, "diffseed")
	ops := 1500
	if testing.Short() {
		ops = 300
	}
	for _, sc := range []struct {
		name          string
		origin        float64
		size, scale   float64
		bodies, ratio int
	}{
		{"unit", 0, 20, 1, 40, 4},
		{"crowded", 0, 6, 1, 40, 2},
		{"far-1e7", 1e7, 2, 0.1, 30, 4},
		{"far-1e12", 1e12, 50, 3, 30, 4},
	} {
		t.Run(sc.name, func(t *testing.T) {
			for _, workers := range []int{1, 3} {
				d := &diffWorld{t: t, r: rand.New(rand.NewPCG(seed, uint64(workers))), w: collide.NewWorld(collide.Config{Workers: workers}),
					live: map[collide.BodyID]*model{}, dying: map[collide.BodyID]*model{}, dead: map[collide.BodyID]*model{},
					origin: collide.V(sc.origin, -sc.origin), size: sc.size, scale: sc.scale}
				for range sc.bodies {
					d.mutate()
				}
				prev := d.step(nil)
				for range ops {
					after := d.mutate()
					d.query(after)
					if d.r.IntN(sc.ratio) == 0 {
						prev = d.step(prev)
						d.query("Step")
					}
				}
				d.w.Close()
			}
		})
	}
}

// FuzzWorldOps drives the differential check from fuzzed bytes: each byte
// picks a mutation or a Step, and every query and every Step is checked
// against the model, as in TestWorldDifferential. The seed of the query
// stream comes from the input's first bytes.
func FuzzWorldOps(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 0, 0, 0, 255, 255, 9, 9, 9, 200, 17, 3, 3, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 200 {
			ops = ops[:200]
		}
		var seed uint64
		for i, b := range ops[:min(8, len(ops))] {
			seed |= uint64(b) << (8 * i)
		}
		d := &diffWorld{t: t, r: rand.New(rand.NewPCG(seed, 1)), w: collide.NewWorld(collide.Config{Workers: 1}),
			live: map[collide.BodyID]*model{}, dying: map[collide.BodyID]*model{}, dead: map[collide.BodyID]*model{},
			size: 10, scale: 1}
		defer d.w.Close()
		prev := d.step(nil)
		for _, op := range ops {
			if op%5 == 0 {
				prev = d.step(prev)
				d.query("Step")
				continue
			}
			after := d.mutate()
			d.query(after)
		}
	})
}
