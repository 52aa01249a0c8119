package collide_test

import (
	"bytes"
	"errors"
	"math"
	"runtime/trace"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide"
)

// Regression tests for the game-loop issue: each is named after the wrong
// answer or the friction it fixes, and fails on the code before the fix.

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func pointIDs(t *testing.T, w *collide.World, p collide.Vec2, f collide.Filter) []collide.BodyID {
	t.Helper()
	var ids []collide.BodyID
	if err := w.QueryPoint(p, f, func(id collide.BodyID) bool { ids = append(ids, id); return true }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids
}

func TestQueryBetweenMoveAndStepSeesTheMove(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball}))
	w.Step()
	if err := w.Move(a, collide.V(0.1, 0)); err != nil {
		t.Fatal(err)
	}
	if got := pointIDs(t, w, collide.V(0.55, 0), collide.Filter{}); len(got) != 1 {
		t.Fatalf("QueryPoint 0.45 from the moved centre found %v, want [a]", got)
	}

	// A teleport: every query finds the body at its new place, none at
	// the old, before any Step.
	if err := w.SetTransform(a, collide.V(100, 0), 0); err != nil {
		t.Fatal(err)
	}
	if got := pointIDs(t, w, collide.V(0.1, 0), collide.Filter{}); len(got) != 0 {
		t.Errorf("QueryPoint at the old place found %v", got)
	}
	if got := pointIDs(t, w, collide.V(100.2, 0), collide.Filter{}); len(got) != 1 {
		t.Errorf("QueryPoint at the new place found %v, want [a]", got)
	}
	probe := must[collide.Shape](t)(collide.NewAABB(0.3, 0.3))
	n := 0
	_ = w.QueryShape(probe, collide.NewTransform(collide.V(100.6, 0), 0), collide.Filter{}, func(collide.BodyID, collide.Manifold) bool { n++; return true })
	if n != 1 {
		t.Errorf("QueryShape at the new place found %d bodies, want 1", n)
	}
	n = 0
	_ = w.QueryAABB(collide.AABB{Min: collide.V(99, -1), Max: collide.V(101, 1)}, collide.Filter{}, func(collide.BodyID) bool { n++; return true })
	if n != 1 {
		t.Errorf("QueryAABB at the new place found %d bodies, want 1", n)
	}
	if h, ok, _ := w.RayCast(collide.V(90, 0), collide.V(1, 0), 20, collide.Filter{}); !ok || h.Body != a || h.Distance != 9.5 {
		t.Errorf("RayCast towards the new place = %+v, %v; want a at 9.5", h, ok)
	}
	if _, ok, _ := w.RayCast(collide.V(-5, 0), collide.V(1, 0), 10, collide.Filter{}); ok {
		t.Errorf("RayCast through the old place hit")
	}
	var near []collide.BodyID
	_ = w.NearestWithin(collide.V(0, 0), 1, 50, collide.Filter{}, func(id collide.BodyID, _ float64) bool { near = append(near, id); return true })
	if len(near) != 0 {
		t.Errorf("NearestWithin 50 of the old place found %v", near)
	}

	// Add and Remove are seen at once too.
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(-7, 0)}))
	if got := pointIDs(t, w, collide.V(-7, 0), collide.Filter{}); !slices.Equal(got, []collide.BodyID{b}) {
		t.Errorf("QueryPoint after Add found %v, want [b]", got)
	}
	_ = w.Remove(b)
	if got := pointIDs(t, w, collide.V(-7, 0), collide.Filter{}); len(got) != 0 {
		t.Errorf("QueryPoint after Remove found %v", got)
	}
	// SetFilter: a query for category 2 sees the change at once.
	_ = w.SetFilter(a, collide.Filter{Category: 2, Mask: 2})
	if got := pointIDs(t, w, collide.V(100, 0), collide.Filter{Mask: 2}); len(got) != 1 {
		t.Errorf("QueryPoint for category 2 after SetFilter found %v, want [a]", got)
	}
}

func TestQueryExcludeAndSkipSensors(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	shooter := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball}))
	zone := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(3, 0), Sensor: true}))
	enemy := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(6, 0)}))

	h, ok, _ := w.RayCast(collide.V(0, 0), collide.V(1, 0), 100, collide.Filter{})
	if !ok || h.Body != shooter || h.Distance != 0 {
		t.Fatalf("plain RayCast from inside the shooter = %+v; want the shooter at 0", h)
	}
	h, ok, _ = w.RayCast(collide.V(0, 0), collide.V(1, 0), 100, collide.Filter{Exclude: shooter})
	if !ok || h.Body != zone {
		t.Errorf("RayCast excluding the shooter = %+v, %v; want the zone", h, ok)
	}
	h, ok, _ = w.RayCast(collide.V(0, 0), collide.V(1, 0), 100, collide.Filter{Exclude: shooter, SkipSensors: true})
	if !ok || h.Body != enemy || h.Distance != 5 {
		t.Errorf("RayCast excluding the shooter and sensors = %+v, %v; want the enemy at 5", h, ok)
	}
	var got []collide.BodyID
	big := must[collide.Shape](t)(collide.NewCircle(10))
	_ = w.QueryShape(big, collide.Transform{}, collide.Filter{Exclude: shooter, SkipSensors: true}, func(id collide.BodyID, _ collide.Manifold) bool {
		got = append(got, id)
		return true
	})
	if !slices.Equal(got, []collide.BodyID{enemy}) {
		t.Errorf("QueryShape excluding the shooter and sensors = %v, want [enemy]", got)
	}
	got = got[:0]
	_ = w.Nearest(collide.V(0, 0), 3, collide.Filter{Exclude: shooter}, func(id collide.BodyID, _ float64) bool { got = append(got, id); return true })
	if !slices.Equal(got, []collide.BodyID{zone, enemy}) {
		t.Errorf("Nearest excluding the shooter = %v, want [zone enemy]", got)
	}
	// Query options are not body fields.
	if _, err := w.Add(collide.BodyDef{Shape: ball, Filter: collide.Filter{SkipSensors: true}}); !errors.Is(err, collide.ErrInvalidArgument) {
		t.Errorf("Add with a query-only filter field = %v, want ErrInvalidArgument", err)
	}
}

func TestFilterCategoryZero(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	// A body of category 0 would collide with nothing: refused.
	if _, err := w.Add(collide.BodyDef{Shape: ball, Filter: collide.Filter{Mask: 2}}); !errors.Is(err, collide.ErrInvalidArgument) {
		t.Errorf("Add with Category 0 = %v, want ErrInvalidArgument", err)
	}
	red := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Filter: collide.Filter{Category: 2, Mask: 4}}))
	blue := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Filter: collide.Filter{Category: 4, Mask: 2}}))
	if err := w.SetFilter(red, collide.Filter{Mask: 4}); !errors.Is(err, collide.ErrInvalidArgument) {
		t.Errorf("SetFilter with Category 0 = %v, want ErrInvalidArgument", err)
	}
	if b, _ := w.Body(red); b.Filter.Category != 2 {
		t.Errorf("a refused SetFilter changed the filter to %+v", b.Filter)
	}
	// A query of category 0 means any category: the mask alone picks.
	for _, tc := range []struct {
		name string
		f    collide.Filter
		want []collide.BodyID
	}{
		{"mask red", collide.Filter{Mask: 2}, []collide.BodyID{red}},
		{"mask blue", collide.Filter{Mask: 4}, []collide.BodyID{blue}},
		{"mask both", collide.Filter{Mask: 6}, []collide.BodyID{red, blue}},
		// The zero Filter is DefaultFilter: category 1, which neither
		// body's mask accepts.
		{"zero", collide.Filter{}, nil},
		{"category 2 mask all", collide.Filter{Category: 2, Mask: math.MaxUint32}, []collide.BodyID{blue}},
	} {
		if got := pointIDs(t, w, collide.V(0, 0), tc.f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: QueryPoint(%+v) = %v, want %v", tc.name, tc.f, got, tc.want)
		}
	}
}

func TestQueryAABBHugeBoxFindsFarBody(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	near := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball}))
	far := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(1e200, 0)}))
	var got []collide.BodyID
	err := w.QueryAABB(collide.AABB{Min: collide.V(-1e300, -1e300), Max: collide.V(1e300, 1e300)}, collide.Filter{}, func(id collide.BodyID) bool {
		got = append(got, id)
		return true
	})
	slices.Sort(got)
	if err != nil || !slices.Equal(got, []collide.BodyID{near, far}) {
		t.Errorf("QueryAABB(±1e300) = %v, %v; want both bodies", got, err)
	}
	// A huge box that only touches the far body's side finds nothing there.
	got = got[:0]
	_ = w.QueryAABB(collide.AABB{Min: collide.V(-1e300, -1e300), Max: collide.V(1e200-1e185, 1e300)}, collide.Filter{}, func(id collide.BodyID) bool {
		got = append(got, id)
		return true
	})
	if !slices.Equal(got, []collide.BodyID{near}) {
		t.Errorf("QueryAABB ending short of the far body = %v, want [near]", got)
	}
}

func TestRemovedBodyReadableForItsEndedContacts(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	zoneShape := must[collide.Shape](t)(collide.NewAABB(5, 5))
	zone := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: zoneShape, Sensor: true, Kind: collide.Static}))
	player := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, UserData: "player-7", Filter: collide.Filter{Category: 8, Mask: math.MaxUint32}}))
	w.Step()
	if err := w.Remove(player); err != nil {
		t.Fatal(err)
	}
	if w.Contains(player) {
		t.Error("Contains(removed) = true")
	}
	if err := w.Move(player, collide.V(1, 0)); !errors.Is(err, collide.ErrUnknownBody) {
		t.Errorf("Move(removed) = %v, want ErrUnknownBody", err)
	}
	w.Step()
	left := 0
	for c := range w.Ended() {
		who := c.Other(zone)
		b, err := w.Body(who)
		if err != nil {
			t.Fatalf("Body of the removed body in its Ended contact: %v", err)
		}
		if b.UserData != "player-7" || !b.Removed || b.Kind != collide.Dynamic || b.Filter.Category != 8 {
			t.Errorf("Body(removed) = %+v; want its user value, kind and filter, Removed set", b)
		}
		left++
	}
	if left != 1 {
		t.Fatalf("%d Ended contacts, want 1", left)
	}
	// A new body does not take the slot while the old one is readable.
	other := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(50, 0)}))
	if b, err := w.Body(player); err != nil || b.UserData != "player-7" {
		t.Errorf("after an Add, Body(removed) = %+v, %v", b, err)
	}
	_ = other
	w.Step()
	if _, err := w.Body(player); !errors.Is(err, collide.ErrUnknownBody) {
		t.Errorf("two Steps after Remove, Body = %v, want ErrUnknownBody", err)
	}
}

func TestContactOtherAndFrom(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball}))
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(1.5, 0)}))
	w.Step()
	n := 0
	for c := range w.Contacts() {
		n++
		if c.Other(a) != b || c.Other(b) != a {
			t.Errorf("Other: %v, %v", c.Other(a), c.Other(b))
		}
		fa, fb := c.From(a), c.From(b)
		if fa.A != a || fa.B != b || fa.Manifold.Normal != collide.V(1, 0) {
			t.Errorf("From(a) = %+v, want A=a, normal +X", fa)
		}
		if fb.A != b || fb.B != a || fb.Manifold.Normal != collide.V(-1, 0) || fb.Manifold.Depth != 0.5 {
			t.Errorf("From(b) = %+v, want A=b, normal -X, depth 0.5", fb)
		}
	}
	if n != 1 {
		t.Fatalf("%d contacts, want 1", n)
	}
}

func TestMoveAndRemoveWhileRangingOverContacts(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	wall := must[collide.Shape](t)(collide.NewAABB(10, 1))
	ground := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: wall, Kind: collide.Static}))
	var ids []collide.BodyID
	for i := range 6 {
		ids = append(ids, must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(float64(3*i)-8, 1.5)})))
	}
	w.Step()
	var before []collide.Contact
	for c := range w.Contacts() {
		before = append(before, c)
	}
	var seen []collide.Contact
	for c := range w.Contacts() {
		seen = append(seen, c)
		me := c.Other(ground)
		if me == ids[2] {
			if err := w.Remove(me); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// Push out: the contact as seen from the ball, moved by the MTV.
		if err := w.Move(me, c.From(me).Manifold.MTV().Neg()); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(seen, before) || len(seen) != 6 {
		t.Fatalf("ranging while mutating saw %d contacts, want the step's %d unchanged", len(seen), len(before))
	}
	w.Step()
	if n := w.ContactCount(); n > 5 {
		t.Errorf("after pushing out, %d contacts remain", n)
	}
}

func TestSettersKeepTheID(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	small := must[collide.Shape](t)(collide.NewCircle(0.5))
	bigger := must[collide.Shape](t)(collide.NewCircle(2))
	door := must[collide.Shape](t)(collide.NewAABB(1, 1))
	hero := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: small}))
	gate := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: door, Position: collide.V(2.5, 0), Kind: collide.Static}))
	w.Step()
	if w.ContactCount() != 0 {
		t.Fatal("contact before the power-up")
	}
	// Power-up: a bigger hitbox reaches the gate, at once for queries.
	if err := w.SetShape(hero, bigger); err != nil {
		t.Fatal(err)
	}
	if got := pointIDs(t, w, collide.V(0, 1.9), collide.Filter{}); !slices.Equal(got, []collide.BodyID{hero}) {
		t.Errorf("QueryPoint after SetShape = %v, want [hero]", got)
	}
	w.Step()
	c := firstContact(w)
	if c == nil || c.Sensor {
		t.Fatalf("after SetShape: contact %+v, want a solid contact", c)
	}
	// The door opens: a sensor from now on.
	_ = w.SetSensor(gate, true)
	w.Step()
	if c := firstContact(w); c == nil || !c.Sensor {
		t.Errorf("after SetSensor: contact %+v, want a sensor contact", c)
	}
	// Two static bodies never pair.
	_ = w.SetKind(hero, collide.Static)
	w.Step()
	if n := w.ContactCount(); n != 0 {
		t.Errorf("hero made static: %d contacts with the static gate, want 0", n)
	}
	_ = w.SetKind(hero, collide.Dynamic)
	w.Step()
	if n := w.ContactCount(); n != 1 {
		t.Errorf("hero dynamic again: %d contacts, want 1", n)
	}
	_ = w.SetUserData(hero, "hero")
	if b, _ := w.Body(hero); b.UserData != "hero" || b.Shape != bigger || b.Kind != collide.Dynamic {
		t.Errorf("Body after the setters = %+v", b)
	}
	_ = w.SetUserData(hero, nil)
	if b, _ := w.Body(hero); b.UserData != nil {
		t.Errorf("SetUserData(nil) left %v", b.UserData)
	}
	for name, err := range map[string]error{
		"SetShape zero":   w.SetShape(hero, collide.Shape{}),
		"SetKind unknown": w.SetKind(hero, collide.BodyKind(9)),
		"SetSensor stale": w.SetSensor(collide.BodyID(12345), true),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func firstContact(w *collide.World) *collide.Contact {
	for c := range w.Contacts() {
		return &c
	}
	return nil
}

// TestRayMaxDistZeroFindsBodiesItStartsIn is the differential check's
// first finding: with maxDist 0 the cast stopped at the first body.
func TestRayMaxDistZeroFindsBodiesItStartsIn(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	c1 := must[collide.Shape](t)(collide.NewCircle(1))
	p := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: c1, Position: collide.V(0, 0)}))
	q := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: c1, Position: collide.V(0.5, 0)}))
	w.Step()
	var got []collide.BodyID
	_ = w.RayCastAll(collide.V(0.2, 0), collide.V(0, 1), 0, collide.Filter{}, func(h collide.RayHit) bool {
		got = append(got, h.Body)
		return true
	})
	if !slices.Equal(got, []collide.BodyID{p, q}) {
		t.Errorf("RayCastAll of length 0 from inside both = %v, want [p q]", got)
	}
	_ = w.SetFilter(p, collide.Filter{Category: 2, Mask: 2})
	h, ok, err := w.RayCast(collide.V(0.2, 0), collide.V(0, 1), 0, collide.Filter{})
	if err != nil || !ok || h.Body != q || h.Distance != 0 {
		t.Errorf("RayCast of length 0 with p filtered out = %+v, %v, %v; want q at 0", h, ok, err)
	}
}

// TestOffsetCircleThinContactAtFarCoordinates is the second: an offset
// circle's box, two roundings from the shape, missed a contact that
// Collide finds.
func TestOffsetCircleThinContactAtFarCoordinates(t *testing.T) {
	box := must[collide.Shape](t)(collide.NewAABB(0.11598435877788783, 0.048371141955975167))
	ball := must[collide.Shape](t)(collide.NewOffsetCircle(collide.V(0.009204305011436431, 0.00880622403054792), 0.032257792529663175))
	bx := collide.NewTransform(collide.V(9999911.5892139357, 10000087.236405281), -1.5218363040352441)
	cx := collide.NewTransform(collide.V(9999911.4344155695, 10000087.236405281), -1.793463269820444)
	m, ok := collide.Collide(box, bx, ball, cx)
	if !ok {
		t.Fatal("Collide misses the contact: the test would prove nothing")
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	_, _ = w.Add(collide.BodyDef{Shape: box, Position: bx.Pos, Angle: -1.5218363040352441})
	_, _ = w.Add(collide.BodyDef{Shape: ball, Position: cx.Pos, Angle: -1.793463269820444})
	w.Step()
	if n := w.ContactCount(); n != 1 {
		t.Errorf("World found %d contacts; Collide finds one of depth %g", n, m.Depth)
	}
	n := 0
	_ = w.QueryShape(ball, cx, collide.Filter{}, func(collide.BodyID, collide.Manifold) bool { n++; return true })
	if n != 2 { // the box and the ball's own body
		t.Errorf("QueryShape with the ball found %d bodies, want 2", n)
	}
}

// TestNearestExactTieGoesToLowerID is the third: the box distance rounded
// above the shape distance and pruned the lower id of two exact twins.
func TestNearestExactTieGoesToLowerID(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	sh := must[collide.Shape](t)(collide.NewPolygon([]collide.Vec2{{X: -1.958542800034763, Y: -1.6739557940112988}, {X: 2.506714837655433, Y: 0.43906371013452383}, {X: 1.8989054286784663, Y: 1.6788975793607912}, {X: -1.460765059391228, Y: 0.5401172325411064}}))
	x := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: sh, Angle: 2.802003173448588, Kind: collide.Static}))
	y := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: sh, Angle: 2.802003173448588}))
	w.Step()
	for k, want := range map[int][]collide.BodyID{1: {x}, 2: {x, y}} {
		var got []collide.BodyID
		var ds []float64
		_ = w.Nearest(collide.V(20, 5), k, collide.Filter{}, func(id collide.BodyID, d float64) bool {
			got, ds = append(got, id), append(ds, d)
			return true
		})
		if !slices.Equal(got, want) {
			t.Errorf("Nearest k=%d = %v at %v, want %v (x < y)", k, got, ds, want)
		}
	}
}

// TestSetTransformAcrossTheFloatRange is the fourth: a jump from 1e308 to
// -1e308 overflowed the displacement and was refused.
func TestSetTransformAcrossTheFloatRange(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(1e308, 0)}))
	if err := w.SetTransform(a, collide.V(-1e308, 0), 0); err != nil {
		t.Fatalf("SetTransform to a finite place: %v", err)
	}
	w.Step()
	if got := pointIDs(t, w, collide.V(-1e308, 0), collide.Filter{}); !slices.Equal(got, []collide.BodyID{a}) {
		t.Errorf("QueryPoint at the new place = %v", got)
	}
	// A move that leaves the float range is refused, naming the position.
	err := w.Move(a, collide.V(-1e308, 0))
	if !errors.Is(err, collide.ErrNotFinite) || !strings.Contains(err.Error(), "from") {
		t.Errorf("Move past -MaxFloat64 = %v, want ErrNotFinite naming the position", err)
	}
}

func TestNearestWithin(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	var ids []collide.BodyID
	for i := range 5 {
		ids = append(ids, must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: collide.V(float64(3*i+2), 0)})))
	}
	for _, tc := range []struct {
		max  float64
		want []collide.BodyID
	}{
		{0.5, nil}, {1, ids[:1]}, {4, ids[:2]}, {4.5, ids[:2]}, {math.Inf(1), ids[:3]},
	} {
		var got []collide.BodyID
		if err := w.NearestWithin(collide.V(0, 0), 3, tc.max, collide.Filter{}, func(id collide.BodyID, _ float64) bool { got = append(got, id); return true }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("NearestWithin(max %g) = %v, want %v", tc.max, got, tc.want)
		}
	}
	for _, bad := range []float64{-1, math.NaN()} {
		if err := w.NearestWithin(collide.V(0, 0), 3, bad, collide.Filter{}, func(collide.BodyID, float64) bool { return true }); err == nil {
			t.Errorf("NearestWithin(max %v) accepted", bad)
		}
	}
}

func TestOneErrNotFiniteWithoutDoubledPrefixes(t *testing.T) {
	_, shapeErr := collide.NewCircle(math.NaN())
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	_, addErr := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(math.NaN(), 0)})
	queryErr := w.QueryShape(ball, collide.NewTransform(collide.V(math.Inf(1), 0), 0), collide.Filter{}, func(collide.BodyID, collide.Manifold) bool { return true })
	for name, err := range map[string]error{"NewCircle": shapeErr, "Add": addErr, "QueryShape": queryErr} {
		if !errors.Is(err, collide.ErrNotFinite) {
			t.Errorf("%s: %v is not ErrNotFinite", name, err)
			continue
		}
		if msg := err.Error(); strings.Count(msg, "NaN or infinite") != 1 || strings.Count(msg, ":") > 2 {
			t.Errorf("%s: message %q repeats itself", name, msg)
		}
	}
}

func TestStepPhasesAreTraceRegions(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("a trace is already running")
	}
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	_, _ = w.Add(collide.BodyDef{Shape: ball})
	_, _ = w.Add(collide.BodyDef{Shape: ball, Position: collide.V(1, 0)})
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatal(err)
	}
	w.Step()
	trace.Stop()
	for _, name := range []string{"collide.update", "collide.pairs", "collide.narrow", "collide.events"} {
		if !bytes.Contains(buf.Bytes(), []byte(name)) {
			t.Errorf("trace has no region %s", name)
		}
	}
}

func TestCastShapeBadInput(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	ball := must[collide.Shape](t)(collide.NewCircle(1))
	_, _ = w.Add(collide.BodyDef{Shape: ball})
	nan := math.NaN()
	for name, err := range map[string]error{
		"zero shape": func() error {
			_, _, err := w.CastShape(collide.Shape{}, collide.Transform{}, collide.V(1, 0), collide.Filter{})
			return err
		}(),
		"NaN delta": func() error {
			_, _, err := w.CastShape(ball, collide.Transform{}, collide.V(nan, 0), collide.Filter{})
			return err
		}(),
		"Inf transform": w.CastShapeAll(ball, collide.NewTransform(collide.V(math.Inf(1), 0), 0), collide.V(1, 0), collide.Filter{}, func(collide.ShapeHit) bool { return true }),
		"overflowing delta": func() error {
			_, _, err := w.CastShape(ball, collide.NewTransform(collide.V(1e308, 0), 0), collide.V(1e308, 0), collide.Filter{})
			return err
		}(),
	} {
		want := collide.ErrNotFinite
		if name == "zero shape" {
			want = collide.ErrInvalidShape
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}

// TestCastShapeSeesMovesAndTies: a cast between a Move and the next Step
// sees the move, and two bodies touched at the same fraction go to the
// lower id.
func TestCastShapeSeesMovesAndTies(t *testing.T) {
	w := collide.NewWorld(collide.Config{Workers: 1})
	box := must[collide.Shape](t)(collide.NewAABB(1, 1))
	ball := must[collide.Shape](t)(collide.NewCircle(0.5))
	a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: box, Position: collide.V(10, 0)}))
	b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: box, Position: collide.V(10, 3), Kind: collide.Static}))
	w.Step()
	_ = w.Move(b, collide.V(0, -3)) // now an exact twin of a, at the same place
	h, ok, err := w.CastShape(ball, collide.Transform{}, collide.V(20, 0), collide.Filter{})
	if err != nil || !ok || h.Body != min(a, b) || h.Fraction != 8.5/20 {
		t.Errorf("CastShape = %+v, %v, %v; want the lower of %v, %v at %v", h, ok, err, a, b, 8.5/20)
	}
	n := 0
	_ = w.CastShapeAll(ball, collide.Transform{}, collide.V(20, 0), collide.Filter{Exclude: a}, func(h collide.ShapeHit) bool {
		n++
		if h.Body != b {
			t.Errorf("CastShapeAll excluding a found %v", h.Body)
		}
		return true
	})
	if n != 1 {
		t.Errorf("CastShapeAll excluding a found %d bodies, want 1", n)
	}
}
