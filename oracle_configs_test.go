package collide_test

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks every World query, and Step's contacts and events, part
// by part, against brute force over the test's own model of the bodies
// (narrowphase.ContainsPoint, Overlap, Collide, CollideParts, RayCast, Cast
// and DistanceSq called on every live body, the documented filter, tie and
// pair rules applied by the test), after every single mutation: Add,
// Remove, Move (a zero delta too), SetTransform, SetFilter, SetShape,
// SetSensor, SetKind, Clone, MarshalBinary into a new world, and rollbacks
// (UnmarshalBinary of an earlier frame into the world itself).
//
// What the other world oracles leave out, it puts in: broad-phase margins
// other than the default (no margin at all, a hair of one, a huge one with
// long motion stretches), so that no query leans on the slack of fat boxes;
// every kind of shape, compounds, chains and concave polygons among them,
// with RayHit.Part and ShapeHit.Part checked; bullets among the bodies;
// bodies placed in mirror pairs about a ray, so that ray, cast and nearest
// queries meet exact ties between different bodies; and snapshots restored
// into worlds of other margins. Positions lie on a dyadic grid (exact
// touching comes up often) near the origin, at 1e6 and at 1e9.

var ocSeedFlag = flag.Uint64("ocseed", 0, "seed for TestOracleConfigs (0: random seeds)")

// ocBody is the model of one body.
type ocBody struct {
	id                     collide.BodyID
	shape                  collide.Shape
	pos                    collide.Vec2
	angle                  float64
	cat, mask              uint32
	static, sensor, bullet bool
}

func (b *ocBody) xf() collide.Transform { return collide.NewTransform(b.pos, b.angle) }

func (b *ocBody) String() string {
	return fmt.Sprintf("{id %#x %v pos (%v, %v) angle %v cat %d mask %#x static=%v sensor=%v bullet=%v}",
		uint64(b.id), b.shape, b.pos.X, b.pos.Y, b.angle, b.cat, b.mask, b.static, b.sensor, b.bullet)
}

// ocState is the model: live bodies, removed ones still readable, ids no
// longer readable, and the last Step's contacts and events as the World
// gave them (checked when they were given).
type ocState struct {
	live        []*ocBody
	dying, dead []*ocBody
	gone        []collide.BodyID
	contacts    []collide.Contact
	began       []collide.Contact
	ended       []collide.Contact
}

func (s *ocState) clone() ocState {
	cp := func(l []*ocBody) []*ocBody {
		out := make([]*ocBody, len(l))
		for i, b := range l {
			c := *b
			out[i] = &c
		}
		return out
	}
	return ocState{live: cp(s.live), dying: cp(s.dying), dead: cp(s.dead), gone: slices.Clone(s.gone),
		contacts: slices.Clone(s.contacts), began: slices.Clone(s.began), ended: slices.Clone(s.ended)}
}

func (s *ocState) find(id collide.BodyID) *ocBody {
	for _, b := range s.live {
		if b.id == id {
			return b
		}
	}
	return nil
}

// ocScene is one kind of world.
type ocScene struct {
	name   string
	cfg    collide.Config
	origin collide.Vec2
	size   float64 // extent of the populated region, in grid units of 1/8
	bodies int
	ops    int
	// crowd, when set, adds and removes bodies by the hundred, so that
	// the broad phase's trees cross the sizes at which they are tiled and
	// untiled again.
	crowd bool
}

type ocRun struct {
	t     *testing.T
	r     *rand.Rand
	sc    ocScene
	seed  uint64
	w     *collide.World
	st    ocState
	op    int
	trail []string // the last operations, for the failure message
	// saved is an earlier frame for rollbacks: its bytes and its model.
	saved    []byte
	savedSt  ocState
	probes   []ocProbe // points and axes about which mirror pairs lie
	queries  int
	ties     int
	restores int
}

// ocProbe is a point and an axis direction that two mirrored bodies are
// placed about: rays, casts and nearest queries from it meet ties.
type ocProbe struct {
	p, u collide.Vec2
}

func (o *ocRun) did(format string, args ...any) {
	o.op++
	o.trail = append(o.trail, fmt.Sprintf("op %d: ", o.op)+fmt.Sprintf(format, args...))
	if len(o.trail) > 10 {
		o.trail = o.trail[1:]
	}
}

func (o *ocRun) fail(format string, args ...any) {
	o.t.Helper()
	o.t.Fatalf("scene %s seed %d op %d: %s\nlast operations:\n  %s\nreplay: go test -run 'TestOracleConfigs/%s' -ocseed %d .",
		o.sc.name, o.seed, o.op, fmt.Sprintf(format, args...), strings.Join(o.trail, "\n  "), o.sc.name, o.seed)
}

func (o *ocRun) describe(ids ...collide.BodyID) string {
	var sb strings.Builder
	for _, id := range ids {
		if b := o.st.find(id); b != nil {
			fmt.Fprintf(&sb, "\n    body %v", b)
		} else {
			fmt.Fprintf(&sb, "\n    body %#x: not live in the model", uint64(id))
		}
	}
	return sb.String()
}

// ---- random inputs ----

// grid returns a multiple of 1/8 in [lo, hi].
func (o *ocRun) grid(lo, hi float64) float64 {
	n := int((hi - lo) * 8)
	return lo + float64(o.r.IntN(n+1))/8
}

func (o *ocRun) size() float64 { return o.grid(0.125, 1.5) }

func (o *ocRun) randConvex() collide.Shape { return randConvex(o.r, o.grid, o.size) }

func (o *ocRun) randShape() collide.Shape {
	r := o.r
	for {
		var sh collide.Shape
		var err error
		switch r.IntN(10) {
		case 0: // a compound of two to four convex parts
			parts := make([]collide.Part, 2+r.IntN(3))
			for i := range parts {
				ps := o.randConvex()
				for ps.Kind() == shape.KindAABB {
					ps = o.randConvex()
				}
				parts[i] = collide.Part{Shape: ps, Offset: collide.NewTransform(collide.V(o.grid(-1.5, 1.5), o.grid(-1.5, 1.5)), o.randAngle())}
			}
			sh, err = collide.NewCompound(parts)
		case 1: // a concave star or an L
			if r.IntN(2) == 0 {
				sh, err = collide.NewConcavePolygon(randStar(r, o.size))
			} else {
				a, b := o.size(), o.size()
				sh, err = collide.NewConcavePolygon([]collide.Vec2{{X: -a, Y: -a}, {X: a + b, Y: -a}, {X: a + b, Y: 0}, {X: 0, Y: 0}, {X: 0, Y: a + b}, {X: -a, Y: a + b}})
			}
		case 2: // a chain, open or closed
			n := 2 + r.IntN(6)
			pts := make([]collide.Vec2, n)
			x := o.grid(-3, -1)
			for i := range pts {
				pts[i] = collide.V(x, o.grid(-1, 1))
				x += o.grid(0.25, 1.5)
			}
			closed := n >= 3 && r.IntN(3) == 0
			if closed { // a closed chain around a point: a rough ring
				for i := range pts {
					sn, cs := math.Sincos(2 * math.Pi * float64(i) / float64(n))
					rr := 1 + o.grid(0, 1)
					pts[i] = collide.V(rr*cs, rr*sn)
				}
			}
			sh, err = collide.NewChain(pts, closed)
		default:
			return o.randConvex()
		}
		if err == nil {
			return sh
		}
	}
}

// randSymmetric returns a shape symmetric about its local x axis.
func (o *ocRun) randSymmetric() collide.Shape {
	r := o.r
	for {
		var sh collide.Shape
		var err error
		a, b := o.size(), o.size()
		switch r.IntN(7) {
		case 0:
			sh, err = collide.NewCircle(a)
		case 1:
			sh, err = collide.NewAABB(a, b)
		case 2:
			sh, err = collide.NewOBB(a, b)
		case 3:
			sh, err = collide.NewCapsule(collide.V(-a, 0), collide.V(a, 0), b/2)
		case 4:
			sh, err = collide.NewPolygon([]collide.Vec2{{X: -a, Y: -b}, {X: a, Y: -b / 2}, {X: a, Y: b / 2}, {X: -a, Y: b}})
		case 5:
			sh, err = collide.NewSegment(collide.V(-a, 0), collide.V(a, 0))
		default:
			c1, _ := collide.NewCircle(a / 2)
			c2, _ := collide.NewOBB(a/2, b/2)
			sh, err = collide.NewCompound([]collide.Part{{Shape: c1, Offset: collide.NewTransform(collide.V(-a, 0), 0)}, {Shape: c2, Offset: collide.NewTransform(collide.V(a, 0), 0)}})
		}
		if err == nil {
			return sh
		}
	}
}

func (o *ocRun) randAngle() float64 {
	switch o.r.IntN(6) {
	case 0, 1:
		return 0
	case 2:
		return float64(o.r.IntN(4)-2) * math.Pi / 2
	case 3:
		return float64(o.r.IntN(8)) * math.Pi / 4
	}
	return 2 * math.Pi * (o.r.Float64() - 0.5)
}

func (o *ocRun) randPos() collide.Vec2 {
	return o.sc.origin.Add(collide.V(o.grid(0, o.sc.size), o.grid(0, o.sc.size)))
}

var ocBodyFilters = [][2]uint32{{1, math.MaxUint32}, {2, 2}, {4, 1 | 4}, {1 | 2, 2 | 4}, {8, math.MaxUint32}}

var ocQueryFilters = []collide.Filter{
	{}, {Mask: 2}, {Mask: 8}, {Category: 1, Mask: 4}, {Category: 2, Mask: 2}, {Mask: 4 | 2}, {Category: 8, Mask: math.MaxUint32},
}

func (o *ocRun) randQueryFilter() collide.Filter {
	r := o.r
	f := ocQueryFilters[r.IntN(len(ocQueryFilters))]
	switch r.IntN(5) {
	case 0, 1:
		if b := o.randLive(); b != nil {
			f.Exclude = b.id
		}
	case 2:
		if len(o.st.gone) > 0 {
			f.Exclude = o.st.gone[r.IntN(len(o.st.gone))]
		} else if len(o.st.dying) > 0 {
			f.Exclude = o.st.dying[0].id
		}
	}
	f.SkipSensors = r.IntN(3) == 0
	return f
}

// ocPasses is the documented query filter rule (queryPasses).
func ocPasses(q collide.Filter, b *ocBody) bool {
	return queryPasses(q, b.id, b.cat, b.mask, b.sensor)
}

// ocPairs is the documented body pair rule.
func ocPairs(a, b *ocBody) bool {
	return !(a.static && b.static) && a.cat&b.mask != 0 && b.cat&a.mask != 0
}

func (o *ocRun) randLive() *ocBody {
	if len(o.st.live) == 0 {
		return nil
	}
	return o.st.live[o.r.IntN(len(o.st.live))]
}

// randPoint returns a query point: a probe, a body's origin or a point of
// the region.
func (o *ocRun) randPoint() collide.Vec2 {
	switch o.r.IntN(6) {
	case 0, 1:
		if len(o.probes) > 0 {
			return o.probes[o.r.IntN(len(o.probes))].p
		}
	case 2:
		if b := o.randLive(); b != nil {
			return b.pos
		}
	}
	return o.randPos()
}

// ---- mutations ----

func (o *ocRun) randBody() *ocBody {
	r := o.r
	f := ocBodyFilters[r.IntN(len(ocBodyFilters))]
	return &ocBody{shape: o.randShape(), pos: o.randPos(), angle: o.randAngle(), cat: f[0], mask: f[1],
		static: r.IntN(4) == 0, sensor: r.IntN(6) == 0, bullet: r.IntN(10) == 0}
}

func (o *ocRun) add(b *ocBody) {
	o.t.Helper()
	f := collide.Filter{Category: b.cat, Mask: b.mask}
	if b.cat == 1 && b.mask == math.MaxUint32 && o.r.IntN(2) == 0 {
		f = collide.Filter{}
	}
	kind := collide.Dynamic
	if b.static {
		kind = collide.Static
	}
	id, err := o.w.Add(collide.BodyDef{Shape: b.shape, Position: b.pos, Angle: b.angle, Filter: f, Kind: kind, Sensor: b.sensor, Bullet: b.bullet})
	if err != nil {
		o.fail("Add(%v): %v", b, err)
	}
	if id == 0 || o.st.find(id) != nil || slices.Contains(o.st.gone, id) ||
		slices.ContainsFunc(append(slices.Clip(o.st.dying), o.st.dead...), func(x *ocBody) bool { return x.id == id }) {
		o.fail("Add returned id %#x, already used", uint64(id))
	}
	b.id = id
	o.st.live = append(o.st.live, b)
	o.did("Add %v", b)
}

// addMirrorPair adds two bodies mirrored about the horizontal line through
// a new probe point, so that a ray, a symmetric cast or a nearest query from
// the probe along the line meets both at the same distance.
func (o *ocRun) addMirrorPair() {
	p := o.randPos()
	u := collide.V(1, 0)
	if o.r.IntN(2) == 0 {
		u = collide.V(-1, 0)
	}
	sh := o.randSymmetric()
	ahead := o.grid(1, 6)
	side := o.grid(0.25, 3)
	angle := o.randAngle()
	f := ocBodyFilters[o.r.IntN(len(ocBodyFilters))]
	a := &ocBody{shape: sh, pos: p.Add(collide.V(u.X*ahead, side)), angle: angle, cat: f[0], mask: f[1], static: o.r.IntN(3) == 0}
	b := &ocBody{shape: sh, pos: p.Add(collide.V(u.X*ahead, -side)), angle: -angle, cat: f[0], mask: f[1], static: o.r.IntN(3) == 0}
	if o.r.IntN(2) == 0 {
		a, b = b, a // either one may get the lower id
	}
	o.add(a)
	o.check()
	o.add(b)
	o.probes = append(o.probes, ocProbe{p: p, u: u})
	if len(o.probes) > 8 {
		o.probes = o.probes[1:]
	}
}

// addTouching adds an AABB or a circle just touching an AABB or circle
// body along an axis.
func (o *ocRun) addTouching(t *ocBody) {
	sx, sy := 1.0, 0.0
	if o.r.IntN(2) == 0 {
		sx, sy = 0, -1
	}
	center, reach, ok := touchReach(t.shape, t.xf(), sx, sy)
	if !ok {
		o.add(o.randBody())
		return
	}
	b := o.randBody()
	b.shape, b.pos = touchingShape(o.r, o.size, center, reach, sx, sy)
	o.add(b)
}

func (o *ocRun) remove(b *ocBody) {
	if err := o.w.Remove(b.id); err != nil {
		o.fail("Remove(%v): %v", b, err)
	}
	i := slices.Index(o.st.live, b)
	o.st.live = slices.Delete(o.st.live, i, i+1)
	o.st.dying = append(o.st.dying, b)
	o.did("Remove %#x", uint64(b.id))
}

func (o *ocRun) step() {
	o.w.Step()
	o.did("Step")
	for _, b := range o.st.dead {
		o.st.gone = append(o.st.gone, b.id)
	}
	if len(o.st.gone) > 32 {
		o.st.gone = o.st.gone[len(o.st.gone)-32:]
	}
	o.st.dead, o.st.dying = o.st.dying, nil
	o.checkStep()
}

// restore replaces the world by one restored from data (in place, or into
// a new world of another margin) and the model by st.
func (o *ocRun) restore(data []byte, st ocState, fresh bool) {
	o.restores++
	if fresh {
		cfgs := []collide.Config{{Workers: 1}, {Workers: 2, Margin: 3}, {Workers: 1, Margin: -1, MotionFrames: -1}}
		w := collide.NewWorld(cfgs[o.r.IntN(len(cfgs))])
		if o.r.IntN(2) == 0 { // a world with bodies of its own first
			for range 1 + o.r.IntN(5) {
				b := o.randBody()
				_, _ = w.Add(collide.BodyDef{Shape: b.shape, Position: b.pos, Angle: b.angle})
			}
			w.Step()
		}
		if err := w.UnmarshalBinary(data); err != nil {
			o.fail("UnmarshalBinary into a new world: %v", err)
		}
		o.w.Close()
		o.w = w
		o.t.Cleanup(w.Close)
	} else if err := o.w.UnmarshalBinary(data); err != nil {
		o.fail("UnmarshalBinary: %v", err)
	}
	o.st = st
	// The last Step's contacts and events are the snapshot's.
	got := slices.Collect(o.w.Contacts())
	gb := slices.Collect(o.w.Began())
	ge := slices.Collect(o.w.Ended())
	if !slices.Equal(got, st.contacts) || !slices.Equal(gb, st.began) || !slices.Equal(ge, st.ended) {
		o.fail("after UnmarshalBinary: contacts %v began %v ended %v, want %v, %v, %v", got, gb, ge, st.contacts, st.began, st.ended)
	}
}

// mutate applies one random mutation; the caller checks the queries.
func (o *ocRun) mutate() {
	r := o.r
	if len(o.st.live) < 4 || r.IntN(8) == 0 {
		switch r.IntN(6) {
		case 0:
			o.addMirrorPair()
		case 1:
			if t := o.randLive(); t != nil {
				o.addTouching(t)
				return
			}
			o.add(o.randBody())
		case 2: // an exact twin of a live body, other flags
			b := o.randBody()
			if t := o.randLive(); t != nil {
				b.shape, b.pos, b.angle = t.shape, t.pos, t.angle
			}
			o.add(b)
		default:
			o.add(o.randBody())
		}
		return
	}
	if o.sc.crowd && r.IntN(40) == 0 {
		if len(o.st.live) > o.sc.bodies/2 { // remove two thirds at once
			for _, b := range slices.Clone(o.st.live) {
				if r.IntN(3) != 0 {
					o.remove(b)
				}
			}
		} else {
			for range o.sc.bodies {
				o.add(o.randBody())
			}
		}
		return
	}
	b := o.randLive()
	switch r.IntN(22) {
	case 0, 1:
		o.remove(b)
	case 2, 3, 4:
		d := collide.V(o.grid(-1, 1), o.grid(-1, 1))
		if r.IntN(5) == 0 {
			d = collide.Vec2{}
		}
		if err := o.w.Move(b.id, d); err != nil {
			o.fail("Move(%v, %v): %v", b, d, err)
		}
		b.pos = b.pos.Add(d)
		o.did("Move %#x by %v", uint64(b.id), d)
	case 5, 6:
		pos, angle := o.randPos(), o.randAngle()
		switch r.IntN(4) {
		case 0: // a teleport far off
			pos = o.sc.origin.Add(collide.V(float64(r.IntN(2001)-1000)*o.sc.size, float64(r.IntN(2001)-1000)*o.sc.size))
		case 1: // a turn in place
			pos = b.pos
		}
		if err := o.w.SetTransform(b.id, pos, angle); err != nil {
			o.fail("SetTransform(%v, %v, %v): %v", b, pos, angle, err)
		}
		b.pos, b.angle = pos, angle
		o.did("SetTransform %#x to %v angle %v", uint64(b.id), pos, angle)
	case 7:
		f := ocBodyFilters[r.IntN(len(ocBodyFilters))]
		if err := o.w.SetFilter(b.id, collide.Filter{Category: f[0], Mask: f[1]}); err != nil {
			o.fail("SetFilter: %v", err)
		}
		b.cat, b.mask = f[0], f[1]
		o.did("SetFilter %#x to %d/%#x", uint64(b.id), f[0], f[1])
	case 8, 9:
		s := o.randShape()
		if err := o.w.SetShape(b.id, s); err != nil {
			o.fail("SetShape: %v", err)
		}
		b.shape = s
		o.did("SetShape %#x to %v", uint64(b.id), s)
	case 10:
		b.sensor = !b.sensor
		if err := o.w.SetSensor(b.id, b.sensor); err != nil {
			o.fail("SetSensor: %v", err)
		}
		o.did("SetSensor %#x %v", uint64(b.id), b.sensor)
	case 11:
		b.static = !b.static
		k := collide.Dynamic
		if b.static {
			k = collide.Static
		}
		if err := o.w.SetKind(b.id, k); err != nil {
			o.fail("SetKind: %v", err)
		}
		o.did("SetKind %#x %v", uint64(b.id), k)
	case 12: // a deep copy goes on in its place
		c := o.w.Clone()
		o.w.Close()
		o.w = c
		o.t.Cleanup(c.Close)
		o.did("Clone")
	case 13: // remember this frame for a rollback
		data, err := o.w.MarshalBinary()
		if err != nil {
			o.fail("MarshalBinary: %v", err)
		}
		o.saved, o.savedSt = data, o.st.clone()
		o.did("MarshalBinary (saved)")
	case 14: // roll back to the saved frame, in place
		if o.saved == nil {
			o.step()
			return
		}
		o.restore(o.saved, o.savedSt.clone(), false)
		o.did("UnmarshalBinary (rollback)")
	case 15: // move to a new world
		data, err := o.w.MarshalBinary()
		if err != nil {
			o.fail("MarshalBinary: %v", err)
		}
		o.restore(data, o.st, true)
		o.did("MarshalBinary into a new world")
	case 16:
		o.staleCalls()
		o.did("calls on stale ids")
	default:
		o.step()
	}
}

// staleCalls checks that every call on a removed or never issued id is
// refused with ErrUnknownBody.
func (o *ocRun) staleCalls() {
	ids := []collide.BodyID{0, 1<<40 | 3}
	for _, b := range append(slices.Clip(o.st.dying), o.st.dead...) {
		ids = append(ids, b.id)
	}
	ids = append(ids, o.st.gone...)
	id := ids[o.r.IntN(len(ids))]
	checkStaleCalls(o.w, id, o.fail)
}

// ---- checks ----

func (o *ocRun) check() {
	o.t.Helper()
	o.checkBodies()
	o.checkPoint()
	o.checkAABB()
	o.checkShape()
	o.checkRays()
	o.checkCasts()
	o.checkNearest()
	o.queries += 7
}

func (o *ocRun) checkBodies() {
	if o.w.Len() != len(o.st.live) {
		o.fail("Len() = %d, want %d", o.w.Len(), len(o.st.live))
	}
	chk := func(b *ocBody, removed bool) {
		got, err := o.w.Body(b.id)
		kind := collide.Dynamic
		if b.static {
			kind = collide.Static
		}
		if err != nil || got.ID != b.id || got.Position != b.pos || got.Angle != b.angle || !ocSameShape(got.Shape, b.shape) ||
			got.Kind != kind || got.Sensor != b.sensor || got.Bullet != b.bullet || got.Removed != removed ||
			got.Filter != (collide.Filter{Category: b.cat, Mask: b.mask}) {
			o.fail("Body(%#x) = %+v, %v; want %v removed=%v", uint64(b.id), got, err, b, removed)
		}
		if o.w.Contains(b.id) == removed {
			o.fail("Contains(%#x) = %v, removed %v", uint64(b.id), !removed, removed)
		}
	}
	if b := o.randLive(); b != nil {
		chk(b, false)
	}
	for _, b := range append(slices.Clip(o.st.dying), o.st.dead...) {
		chk(b, true)
	}
	for _, id := range o.st.gone {
		if _, err := o.w.Body(id); !errors.Is(err, collide.ErrUnknownBody) {
			o.fail("Body(%#x) removed two Steps ago: %v, want ErrUnknownBody", uint64(id), err)
		}
	}
}

// ocSameShape reports whether two shapes hold the same numbers: a shape
// restored from a snapshot is rebuilt, equal in content but not Identical.
func ocSameShape(a, b collide.Shape) bool {
	if a.Identical(b) {
		return true
	}
	if a.Kind() != b.Kind() || a.Valid() != b.Valid() {
		return false
	}
	switch a.Kind() {
	case shape.KindCompound:
		pa, pb := a.Parts(), b.Parts()
		if len(pa) != len(pb) {
			return false
		}
		for i := range pa {
			if pa[i].Offset != pb[i].Offset || !ocSameShape(pa[i].Shape, pb[i].Shape) {
				return false
			}
		}
		return true
	case shape.KindChain:
		xa, ca := a.ChainPoints()
		xb, cb := b.ChainPoints()
		return ca == cb && slices.Equal(xa, xb)
	case shape.KindCircle:
		return a.Center() == b.Center() && a.Radius() == b.Radius()
	case shape.KindAABB, shape.KindOBB:
		return a.HalfExtents() == b.HalfExtents()
	case shape.KindPolygon:
		return slices.Equal(a.Vertices(), b.Vertices()) && slices.Equal(a.Normals(), b.Normals())
	}
	p0, p1 := a.Segment()
	q0, q1 := b.Segment()
	return p0 == q0 && p1 == q1 && a.Radius() == b.Radius()
}

func (o *ocRun) sameIDs(what string, got, want []collide.BodyID) {
	o.t.Helper()
	if !sameIDSet(got, want) {
		o.fail("%s = %#x, want %#x; differing:%s", what, got, want, o.describe(idsDiff(got, want)...))
	}
}

func (o *ocRun) checkPoint() {
	p, f := o.randPoint(), o.randQueryFilter()
	var got, want []collide.BodyID
	for _, b := range o.st.live {
		if ocPasses(f, b) && narrowphase.ContainsPoint(b.shape, b.xf(), p) {
			want = append(want, b.id)
		}
	}
	if err := o.w.QueryPoint(p, f, func(id collide.BodyID) bool { got = append(got, id); return true }); err != nil {
		o.fail("QueryPoint: %v", err)
	}
	o.sameIDs(fmt.Sprintf("QueryPoint(%v, %+v)", p, f), got, want)
}

// checkAABB queries boxes on the 1/8 grid, so that the box's centre and
// half extents give back its edges exactly and the box is a shape the
// oracle can test each body against; boxes of zero area; and boxes reaching
// far beyond the scene on three sides, which the oracle tests body by body
// in the body's frame, where a body within rounding of the one edge in the
// scene (overlapping the box grown by 16 ulps of the body's coordinates
// but not the box shrunk by as much) may go either way.
func (o *ocRun) checkAABB() {
	r := o.r
	p := o.randPoint()
	p = collide.V(math.Round(p.X*8)/8, math.Round(p.Y*8)/8)
	lo := p.Sub(collide.V(o.grid(0, 3), o.grid(0, 3)))
	hi := p.Add(collide.V(o.grid(0, 3), o.grid(0, 3)))
	box := collide.AABB{Min: lo, Max: hi}
	far := false
	switch r.IntN(6) {
	case 0: // zero width or height
		if r.IntN(2) == 0 {
			box.Max.X = box.Min.X
		} else {
			box.Max.Y = box.Min.Y
		}
	case 1: // the box of a body's AABB shape, or a box touching its side
		if b := o.randLive(); b != nil && b.shape.Kind() == shape.KindAABB {
			h := b.shape.HalfExtents()
			box = collide.AABB{Min: b.pos.Sub(h), Max: b.pos.Add(h)}
			if r.IntN(2) == 0 {
				box.Min.X, box.Max.X = box.Max.X, box.Max.X+o.size()
			}
		}
	case 2:
		e := 1e300
		if r.IntN(2) == 0 {
			e = 1e12
		}
		box, far = collide.AABB{Min: collide.V(-e, lo.Y), Max: collide.V(e, e)}, true
	}
	f := o.randQueryFilter()
	var want []collide.BodyID
	either := map[collide.BodyID]bool{}
	h := box.HalfExtents()
	switch {
	case far:
		for _, b := range o.st.live {
			if !ocPasses(f, b) {
				continue
			}
			// The box in the body's frame: only its lower edge is near.
			rr := b.shape.BoundingRadius() + 1
			ey := box.Min.Y - b.pos.Y // exact: both are near each other or the body is far off
			m := 16 * 0x1p-52 * (math.Abs(b.pos.X) + math.Abs(b.pos.Y) + rr)
			test := func(dy float64) bool {
				lo := max(ey+dy, -2*rr)
				if lo >= 2*rr {
					return false
				}
				c := collide.V(0, (lo+2*rr)/2)
				s, err := collide.NewAABB(2*rr, (2*rr-lo)/2)
				if err != nil {
					o.fail("NewAABB: %v", err)
				}
				return narrowphase.Overlap(s, collide.NewTransform(c, 0), b.shape, collide.Transform{Rot: b.xf().Rot})
			}
			in, out := test(m), test(-m)
			switch {
			case in != out:
				either[b.id] = true
			case in:
				want = append(want, b.id)
			}
		}
	case h.X > 0 && h.Y > 0:
		c := box.Center()
		if c.Sub(h) != box.Min || c.Add(h) != box.Max {
			// A body off the grid: the grid box instead.
			box = collide.AABB{Min: lo, Max: hi}
			c, h = box.Center(), box.HalfExtents()
		}
		qs, err := collide.NewAABB(h.X, h.Y)
		if err != nil {
			o.fail("NewAABB: %v", err)
		}
		for _, b := range o.st.live {
			if ocPasses(f, b) && narrowphase.Overlap(qs, collide.NewTransform(c, 0), b.shape, b.xf()) {
				want = append(want, b.id)
			}
		}
	}
	var got []collide.BodyID
	if err := o.w.QueryAABB(box, f, func(id collide.BodyID) bool {
		if !either[id] {
			got = append(got, id)
		}
		return true
	}); err != nil {
		o.fail("QueryAABB: %v", err)
	}
	o.sameIDs(fmt.Sprintf("QueryAABB(%v, %+v)", box, f), got, want)
}

func (o *ocRun) checkShape() {
	r := o.r
	qs, qt := o.randShape(), collide.NewTransform(o.randPoint(), o.randAngle())
	if b := o.randLive(); b != nil && r.IntN(4) == 0 {
		qs, qt = b.shape, b.xf()
	}
	f := o.randQueryFilter()
	var want []collide.BodyID
	for _, b := range o.st.live {
		if _, ok := narrowphase.Collide(qs, qt, b.shape, b.xf()); ok && ocPasses(f, b) {
			want = append(want, b.id)
		}
	}
	what := fmt.Sprintf("QueryShape(%v at %v angle %v, %+v)", qs, qt.Pos, qt.Rot.Angle(), f)
	var got []collide.BodyID
	err := o.w.QueryShape(qs, qt, f, func(id collide.BodyID, m collide.Manifold) bool {
		got = append(got, id)
		if b := o.st.find(id); b != nil {
			if wm, ok := narrowphase.Collide(qs, qt, b.shape, b.xf()); !ok || wm != m {
				o.fail("%s: manifold for %v = %+v, Collide gives %+v, %v", what, b, m, wm, ok)
			}
		}
		return true
	})
	if err != nil {
		o.fail("%s: %v", what, err)
	}
	o.sameIDs(what, got, want)
}

type ocRay struct {
	id collide.BodyID
	h  narrowphase.RayHit
}

func (o *ocRun) checkRays() {
	r := o.r
	origin := o.randPoint()
	dir := [4]collide.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[r.IntN(4)]
	unit := dir
	switch r.IntN(5) {
	case 0, 1: // along a probe's axis, from it: ties
		if len(o.probes) > 0 {
			pr := o.probes[r.IntN(len(o.probes))]
			origin, dir, unit = pr.p, pr.u, pr.u
		}
	case 2: // a direction of another length
		dir = unit.Scale(float64(1+r.IntN(7)) / 4)
	case 3:
		s, c := math.Sincos(2 * math.Pi * r.Float64())
		if u := collide.V(c, s); math.Abs(u.LenSq()-1) <= 1e-15 {
			dir, unit = u, u
		}
	}
	maxDist := []float64{0, math.Inf(1), 4, o.sc.size / 8}[r.IntN(4)]
	if r.IntN(8) == 0 { // from far off
		far := []float64{1e3, 1e6, 1e12}[r.IntN(3)]
		origin = origin.Sub(unit.Scale(far))
		maxDist = []float64{math.Inf(1), 2 * far, far}[r.IntN(3)]
	}
	if r.IntN(4) == 0 { // exactly where a body is entered
		if b := o.randLive(); b != nil {
			if h, ok := narrowphase.RayCast(b.shape, b.xf(), origin, unit, math.Inf(1)); ok {
				maxDist = h.Distance
			}
		}
	}
	f := o.randQueryFilter()
	var want []ocRay
	for _, b := range o.st.live {
		if h, ok := narrowphase.RayCast(b.shape, b.xf(), origin, unit, maxDist); ok && ocPasses(f, b) {
			want = append(want, ocRay{b.id, h})
		}
	}
	slices.SortFunc(want, func(a, b ocRay) int { return cmp.Or(cmp.Compare(a.h.Distance, b.h.Distance), cmp.Compare(a.id, b.id)) })
	for i := 1; i < len(want); i++ {
		if want[i].h.Distance == want[i-1].h.Distance {
			o.ties++
		}
	}
	same := func(g collide.RayHit, w ocRay) bool {
		return g.Body == w.id && g.Part == w.h.Part && g.Distance == w.h.Distance && g.Point == w.h.Point && g.Normal == w.h.Normal
	}
	what := fmt.Sprintf("RayCastAll(origin %v, dir %v, maxDist %v, %+v)", origin, dir, maxDist, f)
	var got []collide.RayHit
	if err := o.w.RayCastAll(origin, dir, maxDist, f, func(h collide.RayHit) bool { got = append(got, h); return true }); err != nil {
		o.fail("%s: %v", what, err)
	}
	bad := len(got) != len(want)
	for i := 0; !bad && i < len(got); i++ {
		bad = !same(got[i], want[i])
	}
	if bad {
		var ids []collide.BodyID
		for _, w := range want {
			ids = append(ids, w.id)
		}
		o.fail("%s = %+v, want %+v%s", what, got, want, o.describe(ids...))
	}
	first, ok, err := o.w.RayCast(origin, dir, maxDist, f)
	if err != nil {
		o.fail("RayCast: %v", err)
	}
	if ok != (len(want) > 0) || (ok && !same(first, want[0])) {
		var ids []collide.BodyID
		if ok {
			ids = append(ids, first.Body)
		}
		for _, w := range want {
			ids = append(ids, w.id)
		}
		o.fail("RayCast(origin %v, dir %v, maxDist %v, %+v) = %+v, %v; want the first of %+v%s", origin, dir, maxDist, f, first, ok, want, o.describe(ids...))
	}
}

func (o *ocRun) checkCasts() {
	r := o.r
	var qs collide.Shape
	var qt collide.Transform
	var delta collide.Vec2
	switch r.IntN(4) {
	case 0, 1: // a symmetric shape from a probe along its axis: ties
		if len(o.probes) > 0 {
			pr := o.probes[r.IntN(len(o.probes))]
			for qs = o.randSymmetric(); qs.Kind() == shape.KindSegment; qs = o.randSymmetric() {
			}
			qt = collide.NewTransform(pr.p, 0)
			delta = pr.u.Scale(o.grid(0, 8))
			break
		}
		fallthrough
	default:
		qs, qt = o.randShape(), collide.NewTransform(o.randPoint(), o.randAngle())
		delta = collide.V(o.grid(-6, 6), o.grid(-6, 6))
	}
	switch r.IntN(10) {
	case 0:
		delta = collide.Vec2{}
	case 1: // a motion too short to normalise
		delta = collide.V(5e-324, 0)
	case 2: // from far off, across the whole scene and far beyond
		far := []float64{1e3, 1e6, 1e12}[r.IntN(3)]
		u := [4]collide.Vec2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}[r.IntN(4)]
		qt.Pos = qt.Pos.Sub(u.Scale(far))
		delta = u.Scale(far * float64(1+r.IntN(3)))
	}
	f := o.randQueryFilter()
	var want []collide.ShapeHit
	for _, b := range o.st.live {
		if h, ok := narrowphase.Cast(qs, qt, delta, b.shape, b.xf()); ok && ocPasses(f, b) {
			want = append(want, collide.ShapeHit{Body: b.id, Part: h.Part, Fraction: h.Fraction, Point: h.Point, Normal: h.Normal})
		}
	}
	slices.SortFunc(want, func(a, b collide.ShapeHit) int {
		return cmp.Or(cmp.Compare(a.Fraction, b.Fraction), cmp.Compare(a.Body, b.Body))
	})
	for i := 1; i < len(want); i++ {
		if want[i].Fraction == want[i-1].Fraction && want[i].Fraction > 0 {
			o.ties++
		}
	}
	what := fmt.Sprintf("CastShape(%v at %v angle %v by %v, %+v)", qs, qt.Pos, qt.Rot.Angle(), delta, f)
	var got []collide.ShapeHit
	if err := o.w.CastShapeAll(qs, qt, delta, f, func(h collide.ShapeHit) bool { got = append(got, h); return true }); err != nil {
		o.fail("%s: %v", what, err)
	}
	if !slices.Equal(got, want) {
		var ids []collide.BodyID
		for _, w := range want {
			ids = append(ids, w.Body)
		}
		o.fail("%sAll = %+v, want %+v%s", what, got, want, o.describe(ids...))
	}
	first, ok, err := o.w.CastShape(qs, qt, delta, f)
	if err != nil {
		o.fail("%s: %v", what, err)
	}
	if ok != (len(want) > 0) || (ok && first != want[0]) {
		var ids []collide.BodyID
		for _, w := range want {
			ids = append(ids, w.Body)
		}
		o.fail("%s = %+v, %v; want the first of %+v%s", what, first, ok, want, o.describe(ids...))
	}
}

type ocNear struct {
	id collide.BodyID
	d2 float64
}

func (o *ocRun) checkNearest() {
	r := o.r
	p, f := o.randPoint(), o.randQueryFilter()
	k := []int{1, 1, 2, 3, 5, len(o.st.live) + 1}[r.IntN(6)]
	maxDist := []float64{math.Inf(1), 0, 2, 5}[r.IntN(4)]
	if r.IntN(4) == 0 {
		if b := o.randLive(); b != nil {
			maxDist = math.Sqrt(narrowphase.DistanceSq(b.shape, b.xf(), p))
		}
	}
	var all []ocNear
	for _, b := range o.st.live {
		if d2 := narrowphase.DistanceSq(b.shape, b.xf(), p); ocPasses(f, b) && math.Sqrt(d2) <= maxDist {
			all = append(all, ocNear{b.id, d2})
		}
	}
	// Nearest first by the distance reported, equal distances by id: two
	// squares an ulp apart can share a root, and then the lower id comes
	// first (and is kept at the k-th place).
	slices.SortFunc(all, func(a, b ocNear) int {
		return cmp.Or(cmp.Compare(math.Sqrt(a.d2), math.Sqrt(b.d2)), cmp.Compare(a.id, b.id))
	})
	want := all[:min(k, len(all))]
	for i := 1; i < len(want); i++ {
		if math.Sqrt(want[i].d2) == math.Sqrt(want[i-1].d2) {
			o.ties++
		}
	}
	var got []ocNear
	fn := func(id collide.BodyID, d float64) bool { got = append(got, ocNear{id, d}); return true }
	var err error
	if math.IsInf(maxDist, 1) && r.IntN(2) == 0 {
		err = o.w.Nearest(p, k, f, fn)
	} else {
		err = o.w.NearestWithin(p, k, maxDist, f, fn)
	}
	if err != nil {
		o.fail("Nearest: %v", err)
	}
	bad := len(got) != len(want)
	for i := 0; !bad && i < len(got); i++ {
		bad = got[i].id != want[i].id || got[i].d2 != math.Sqrt(want[i].d2)
	}
	if bad {
		var ids []collide.BodyID
		for _, w := range want {
			ids = append(ids, w.id)
		}
		for _, g := range got {
			ids = append(ids, g.id)
		}
		o.fail("NearestWithin(%v, k=%d, maxDist=%v, %+v) = %v (distances), want %v (squared)%s", p, k, maxDist, f, got, want, o.describe(ids...))
	}
}

// checkStep compares the last Step's contacts with CollideParts over every
// pair the rules allow, part by part and bit for bit, and its events with
// the difference from the Step before. A pair with a bullet that has no
// contact at the end may have swept contacts (TestExactBulletSweeps checks
// those); every other contact is an overlap at the end.
func (o *ocRun) checkStep() {
	want := map[partKey]collide.Manifold{}
	live := o.st.live
	// World boxes first (inclusive, and grown by far more than their
	// rounding): a scene of many bodies has too many pairs to collide all.
	boxes := make([]collide.AABB, len(live))
	for i, b := range live {
		bx := b.shape.WorldAABB(b.xf())
		boxes[i] = bx.Expand(1e-9 * (1 + math.Abs(bx.Min.X) + math.Abs(bx.Min.Y) + math.Abs(bx.Max.X) + math.Abs(bx.Max.Y)))
	}
	// Sweep and prune on x.
	order := make([]int, len(live))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(boxes[i].Min.X, boxes[j].Min.X) })
	for oi, i := range order {
		a := live[i]
		for _, j := range order[oi+1:] {
			if boxes[j].Min.X > boxes[i].Max.X {
				break
			}
			b := live[j]
			if !ocPairs(a, b) || !boxes[i].Overlaps(boxes[j]) {
				continue
			}
			x, y := a, b
			if y.id < x.id {
				x, y = y, x
			}
			narrowphase.CollideParts(x.shape, x.xf(), y.shape, y.xf(), func(pa, pb int, m narrowphase.Manifold) bool {
				want[partKey{x.id, y.id, pa, pb}] = m
				return true
			})
		}
	}
	cur := map[partKey]collide.Contact{}
	swept := map[[2]collide.BodyID]bool{}
	var list []collide.Contact
	for c := range o.w.Contacts() {
		list = append(list, c)
		k := keyOf(c)
		if _, dup := cur[k]; dup {
			o.fail("contact %+v twice", k)
		}
		cur[k] = c
		a, b := o.st.find(c.A), o.st.find(c.B)
		if a == nil || b == nil {
			o.fail("contact %+v names a body that is not live%s", c, o.describe(c.A, c.B))
		}
		if !ocPairs(a, b) {
			o.fail("contact %+v between bodies the rules keep apart%s", c, o.describe(c.A, c.B))
		}
		if c.Sensor != (a.sensor || b.sensor) {
			o.fail("contact %+v: Sensor = %v, want %v", c, c.Sensor, a.sensor || b.sensor)
		}
		if c.Swept {
			if !a.bullet && !b.bullet {
				o.fail("swept contact %+v with no bullet%s", c, o.describe(c.A, c.B))
			}
			swept[[2]collide.BodyID{k.a, k.b}] = true
			continue
		}
		if c.TOI != 0 {
			o.fail("contact %+v: TOI set on a contact that is not swept", c)
		}
		wm, ok := want[k]
		if !ok {
			o.fail("contact %+v (parts %d, %d) is no overlap by CollideParts%s", c, c.PartA, c.PartB, o.describe(c.A, c.B))
		}
		// The manifold in the contact's own order.
		if c.A != k.a {
			wm = wm.Flip()
		}
		if wm != c.Manifold {
			x, y := o.st.find(k.a), o.st.find(k.b)
			var wm2 narrowphase.Manifold
			narrowphase.CollideParts(a.shape, a.xf(), b.shape, b.xf(), func(pa, pb int, m narrowphase.Manifold) bool {
				if pa == c.PartA && pb == c.PartB {
					wm2 = m
					return false
				}
				return true
			})
			if wm2 != c.Manifold {
				o.fail("contact %+v: manifold %+v, CollideParts gives %+v (A first) and %+v (lower id first)%s", c, c.Manifold, wm2, wm, o.describe(x.id, y.id))
			}
		}
	}
	for k := range want {
		if _, ok := cur[k]; !ok {
			o.fail("missing contact %+v: CollideParts gives %+v%s", k, want[k], o.describe(k.a, k.b))
		}
	}
	for k := range swept {
		for kk := range want {
			if kk.a == k[0] && kk.b == k[1] {
				o.fail("pair %#x–%#x overlaps at the end and has a swept contact too", uint64(k[0]), uint64(k[1]))
			}
		}
	}
	// A is the body in the lower storage slot (the id's low 32 bits), and
	// the contacts come in order of slot pair, then part pair.
	for i, c := range list {
		if uint32(c.A) >= uint32(c.B) {
			o.fail("contact %+v: A is not in the lower slot", c)
		}
		if i > 0 {
			p := list[i-1]
			if cmp.Or(cmp.Compare(uint32(p.A), uint32(c.A)), cmp.Compare(uint32(p.B), uint32(c.B)), cmp.Compare(p.PartA, c.PartA), cmp.Compare(p.PartB, c.PartB)) >= 0 {
				o.fail("contacts %+v and %+v out of slot and part order", p, c)
			}
		}
	}
	if n := o.w.ContactCount(); n != len(list) {
		o.fail("ContactCount() = %d, Contacts yields %d", n, len(list))
	}
	prev := map[partKey]collide.Contact{}
	for _, c := range o.st.contacts {
		prev[keyOf(c)] = c
	}
	began := slices.Collect(o.w.Began())
	ended := slices.Collect(o.w.Ended())
	nb, ne := 0, 0
	for k := range cur {
		if _, was := prev[k]; !was {
			nb++
		}
	}
	for k := range prev {
		if _, is := cur[k]; !is {
			ne++
		}
	}
	for _, c := range began {
		k := keyOf(c)
		if cc, ok := cur[k]; !ok || cc != c {
			o.fail("Began %+v is not this Step's contact %+v", c, cc)
		}
		if _, was := prev[k]; was {
			o.fail("Began %+v was a contact already", c)
		}
	}
	for _, c := range ended {
		k := keyOf(c)
		if pc, ok := prev[k]; !ok || pc != c {
			o.fail("Ended %+v is not the previous Step's contact %+v", c, pc)
		}
		if _, is := cur[k]; is {
			o.fail("Ended %+v is still a contact", c)
		}
		for _, id := range []collide.BodyID{c.A, c.B} {
			if _, err := o.w.Body(id); err != nil {
				o.fail("Body(%#x) of Ended %+v: %v", uint64(id), c, err)
			}
		}
	}
	if len(began) != nb || len(ended) != ne {
		o.fail("Began %d, Ended %d; want %d and %d", len(began), len(ended), nb, ne)
	}
	o.st.contacts, o.st.began, o.st.ended = list, began, ended
}

var ocScenes = []ocScene{
	{name: "default", cfg: collide.Config{}, origin: collide.V(0, 0), size: 16, bodies: 30, ops: 2500},
	{name: "no-margin", cfg: collide.Config{Margin: -1, MotionFrames: -1}, origin: collide.V(-3, 5), size: 12, bodies: 30, ops: 2500},
	{name: "hair-margin", cfg: collide.Config{Margin: 1e-9, MotionFrames: 1000}, origin: collide.V(0, 0), size: 16, bodies: 30, ops: 2500},
	{name: "huge-margin", cfg: collide.Config{Margin: 40, MotionFrames: 50}, origin: collide.V(0, 0), size: 16, bodies: 30, ops: 2500},
	{name: "no-margin-1e6", cfg: collide.Config{Margin: -1, MotionFrames: -1}, origin: collide.V(1e6, -1e6), size: 12, bodies: 30, ops: 2500},
	{name: "no-margin-1e9", cfg: collide.Config{Margin: -1, MotionFrames: -1}, origin: collide.V(-1e9, 1e9), size: 12, bodies: 30, ops: 2500},
	{name: "default-1e9", cfg: collide.Config{}, origin: collide.V(1e9, 1e9), size: 16, bodies: 30, ops: 2500},
	{name: "tiled", cfg: collide.Config{}, origin: collide.V(0, 0), size: 120, bodies: 1300, ops: 500, crowd: true},
	{name: "tiled-no-margin-1e9", cfg: collide.Config{Margin: -1, MotionFrames: -1}, origin: collide.V(1e9, -1e9), size: 100, bodies: 1300, ops: 500, crowd: true},
}

// TestOracleConfigs runs random mutation sequences in worlds of several
// broad-phase margins, at unit, 1e6 and 1e9 coordinates, and checks every
// query after every mutation and the contacts and events after every Step
// against brute force over the test's model (see the top of the file).
func TestOracleConfigs(t *testing.T) {
	seed := *ocSeedFlag
	if seed == 0 {
		seed = randomSeed()
	}
	for i, sc := range ocScenes {
		if oracleShort() {
			sc.ops /= 6
			if sc.crowd {
				// Still above the 512 moving proxies from which a tree is tiled.
				sc.bodies, sc.ops = 720, 40
			}
		}
		sc.cfg.Workers = 1 + i%2
		t.Run(sc.name, func(t *testing.T) {
			o := &ocRun{t: t, r: rand.New(rand.NewPCG(seed, uint64(i))), sc: sc, seed: seed, w: collide.NewWorld(sc.cfg)}
			t.Cleanup(func() { o.w.Close() })
			for range sc.bodies {
				o.add(o.randBody())
			}
			o.addMirrorPair()
			o.step()
			for range sc.ops {
				o.mutate()
				o.check()
			}
			t.Logf("seed %d: %d ops, %d queries, %d ties met, %d restores", seed, o.op, o.queries, o.ties, o.restores)
		})
	}
}
