package engine

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/shape"
)

// BodyID names a body. It packs a storage slot and a generation, so the id
// of a removed body is refused even after its slot is reused. The zero
// BodyID names no body.
type BodyID uint64

func makeID(slot int32, gen uint32) BodyID { return BodyID(uint64(gen)<<32 | uint64(uint32(slot))) }

func (id BodyID) slot() int32 { return int32(uint32(id)) }
func (id BodyID) gen() uint32 { return uint32(id >> 32) }

// BodyKind says whether a body moves.
type BodyKind uint8

// Body kinds.
const (
	// Dynamic bodies move; they pair with every body their filter allows.
	Dynamic BodyKind = iota
	// Static bodies are walls and scenery: they may be repositioned, but are
	// never paired with other static bodies.
	Static
)

// String returns "dynamic" or "static".
func (k BodyKind) String() string {
	switch k {
	case Dynamic:
		return "dynamic"
	case Static:
		return "static"
	}
	return fmt.Sprintf("BodyKind(%d)", uint8(k))
}

// Filter holds collision category and mask bits, and, for queries, which
// bodies to skip.
//
// Two bodies are paired when each one's Category shares a bit with the
// other's Mask. A body's Category must not be 0 unless its whole Filter is
// (Add and SetFilter refuse it with ErrInvalidArgument): a body of no
// category would silently collide with nothing.
//
// A query passes a body when the body's Category shares a bit with the
// query's Mask and the query's Category shares a bit with the body's Mask;
// a query Category of 0 means any category, so Filter{Mask: enemyBits} finds
// every body of those categories whatever their masks. Exclude and
// SkipSensors apply to queries only (a body's filter must leave them
// zero).
//
// When Category and Mask are both 0 they mean DefaultFilter's bits, so the
// zero Filter is the default for bodies and queries alike.
type Filter struct {
	Category uint32 // the bits this body (or query) is
	Mask     uint32 // the bits this body (or query) collides with
	// Exclude, in a query, skips this body: the shooter of a ray, the
	// caster of a hitbox. The zero BodyID skips nothing.
	Exclude BodyID
	// SkipSensors, in a query, skips sensor bodies (trigger zones).
	SkipSensors bool
}

// DefaultFilter is category 1, colliding with every category.
var DefaultFilter = Filter{Category: 1, Mask: math.MaxUint32}

// filterBits is a body's stored filter: the category and mask, never both zero.
type filterBits struct{ cat, mask uint32 }

// bits returns f's category and mask, DefaultFilter's if both are zero.
func (f Filter) bits() filterBits {
	if f.Category == 0 && f.Mask == 0 {
		return filterBits{DefaultFilter.Category, DefaultFilter.Mask}
	}
	return filterBits{f.Category, f.Mask}
}

// checkBody returns an error if f cannot be a body's filter.
func (f Filter) checkBody() error {
	switch {
	case f.Category == 0 && f.Mask != 0:
		return fmt.Errorf("%w: body filter with Category 0 (mask %#x) would collide with nothing; give it a category bit", ErrInvalidArgument, f.Mask)
	case f.Exclude != 0 || f.SkipSensors:
		return fmt.Errorf("%w: Exclude and SkipSensors are query options, not body filter fields", ErrInvalidArgument)
	}
	return nil
}

// Accepts reports whether bodies with filters f and g may touch (the
// zero Filter meaning DefaultFilter; Exclude and SkipSensors play no part).
func (f Filter) Accepts(g Filter) bool {
	a, b := f.bits(), g.bits()
	return a.cat&b.mask != 0 && b.cat&a.mask != 0
}

// BodyDef describes a body to add.
type BodyDef struct {
	// Shape is the body's collision shape, from a shape constructor.
	Shape shape.Shape
	// Position is the body's origin in world units.
	Position shape.Vec2
	// Angle is the body's rotation in radians, counter-clockwise. An AABB
	// shape ignores it and stays axis-aligned.
	Angle float64
	// Filter holds the collision bits; the zero value is DefaultFilter.
	Filter Filter
	// Kind is Dynamic (the zero value) or Static.
	Kind BodyKind
	// Sensor bodies report contacts flagged as sensor contacts.
	Sensor bool
	// Bullet bodies are swept by Step from their place at the previous
	// Step to their current one, so that a fast body never passes through
	// another unseen: every body it overlapped on the way is a contact of
	// that Step (Contact.Swept), even if they no longer overlap at its end.
	// Touching on the way is not a contact. Two bullets are swept against
	// each other, both moving.
	Bullet bool
	// UserData is any value of the caller's, returned with the body.
	UserData any
}

// Body is a snapshot of a body's state.
type Body struct {
	ID       BodyID      // the body's id
	Shape    shape.Shape // its collision shape
	Position shape.Vec2  // its origin in world units
	Angle    float64     // its rotation in radians, as last set
	Filter   Filter      // its collision bits (never the zero Filter)
	Kind     BodyKind    // Dynamic or Static
	Sensor   bool        // whether its contacts are sensor contacts
	Bullet   bool        // whether Step sweeps it
	UserData any         // the caller's value from BodyDef or SetUserData
	// AABB is the tight world box of the shape at the current transform
	// (rounded outward, so it holds the shape whatever the rounding).
	AABB shape.AABB
	// Removed is set for a body that was removed but is still readable
	// because its Ended contacts are: see World.Remove.
	Removed bool
}

const (
	flagAlive uint8 = 1 << iota
	flagStatic
	flagSensor
	flagMoved
	// flagRemoved marks a removed body that stays readable by Body until
	// its Ended contacts have been reported.
	flagRemoved
	// flagBullet marks a body Step sweeps from its previous place.
	flagBullet
)

// hotBody holds a body's generation and flags, which the narrow phase reads
// for every pair whose boxes meet.
type hotBody struct {
	gen   uint32
	flags uint8
}

// bodies is the dense, slot-indexed body storage: one slice per group of
// fields, so each loop touches only what it needs.
type bodies struct {
	hot    []hotBody
	tight  []box32 // the tight boxes, rounded outward (see box32), which every candidate pair tests first
	filter []filterBits
	shapes []shape.Shape
	xf     []shape.Transform
	angle  []float64
	// user holds the non-nil user values only: most bodies have none, and
	// a slice of interfaces would cost every body 16 bytes.
	user  map[int32]any
	free  []int32 // free slots, reused last-in first-out
	moved []int32 // slots moved since the last step
	// Removed bodies stay readable until their Ended contacts have been
	// reported: dying holds the slots removed since the last Step, dead
	// those removed before it. Each Step frees dead and moves dying there.
	dying, dead []int32
	count       int
	cats        catIndex
	// epoch changes whenever a slot gains or loses a shape (Add, SetShape,
	// a slot freed), so that a snapshot can tell its shape table is still
	// good.
	epoch uint64
	// shared is set while shapes and filter may be the arrays of another
	// world too: a clone takes them as they are, since a frame's moves
	// write neither, and whichever world first writes one gets arrays of
	// its own (own).
	shared bool
}

// own gives b shapes and filter arrays of its own if they may be shared:
// every write to either goes through it first.
func (b *bodies) own() {
	if b.shared {
		b.shapes = append(make([]shape.Shape, 0, cap(b.shapes)), b.shapes...)
		b.filter = append(make([]filterBits, 0, cap(b.filter)), b.filter...)
		b.shared = false
	}
}

// trim cuts the slot arrays' room to their length plus a sixty-fourth;
// see World.trimSlots.
func (b *bodies) trim() {
	n := len(b.hot)
	c := n + n/64
	b.shapes = clipTo(b.shapes, c)
	b.xf = clipTo(b.xf, c)
	b.angle = clipTo(b.angle, c)
	b.hot = clipTo(b.hot, c)
	b.tight = clipTo(b.tight, c)
	b.filter = clipTo(b.filter, c)
	b.cats.pos = clipTo(b.cats.pos, c)
}

// clipTo returns s with room for c elements, in a new array if it holds
// more than c plus a thirty-second of its length.
func clipTo[T any](s []T, c int) []T {
	if cap(s) <= c+len(s)/32 {
		return s
	}
	return append(make([]T, 0, c), s...)
}

func (b *bodies) grow() int32 {
	b.shapes = append(b.shapes, shape.Shape{})
	b.xf = append(b.xf, shape.Transform{})
	b.angle = append(b.angle, 0)
	b.hot = append(b.hot, hotBody{})
	b.tight = append(b.tight, box32{})
	b.filter = append(b.filter, filterBits{})
	b.cats.grow()
	return int32(len(b.hot) - 1)
}

// lookup returns the slot of a live body, or an error.
func (w *World) lookup(id BodyID) (int32, error) { return w.lookupFlags(id, flagAlive) }

// lookupFlags returns the slot of the body id names if it has one of the
// flags in want (flagAlive, flagRemoved), or an error.
func (w *World) lookupFlags(id BodyID, want uint8) (int32, error) {
	if s, ok := w.slotOf(id, want); ok {
		return s, nil
	}
	return 0, unknownBody(id)
}

// slotOf returns the slot of the body id names and whether it has one of
// the flags in want: lookupFlags without the error, small enough to be
// inlined into SetTransform, which a game calls for every moving body.
func (w *World) slotOf(id BodyID, want uint8) (int32, bool) {
	s := id.slot()
	if uint(s) >= uint(len(w.b.hot)) || id == 0 {
		return 0, false
	}
	h := &w.b.hot[s]
	return s, h.flags&want != 0 && h.gen == id.gen()
}

// unknownBody returns the error for an id that names no body.
func unknownBody(id BodyID) error { return fmt.Errorf("%w: %#x", ErrUnknownBody, uint64(id)) }

// Add adds a body and returns its id. It fails, changing nothing, on an
// invalid shape, a NaN or infinite position or angle, a box that overflows,
// an unknown kind or an invalid filter (see Filter). The body is seen by
// queries at once and pairs with others at the next Step.
func (w *World) Add(def BodyDef) (BodyID, error) {
	if !def.Shape.Valid() {
		return 0, ErrInvalidShape
	}
	if !def.Position.IsFinite() || !shape.IsFinite(def.Angle) {
		return 0, fmt.Errorf("%w: body position %v angle %v", ErrNotFinite, def.Position, def.Angle)
	}
	if def.Kind > Static {
		return 0, fmt.Errorf("%w: body kind %d", ErrInvalidArgument, def.Kind)
	}
	if err := def.Filter.checkBody(); err != nil {
		return 0, err
	}
	xf := shape.NewTransform(def.Position, def.Angle)
	tight := def.Shape.WorldAABB(xf)
	if !tight.IsFinite() {
		return 0, fmt.Errorf("%w: body box %v at position %v overflows", ErrNotFinite, tight, def.Position)
	}
	b := &w.b
	b.own()
	var s int32
	if n := len(b.free); n > 0 {
		s = b.free[n-1]
		b.free = b.free[:n-1]
	} else {
		if len(b.hot) >= math.MaxInt32 {
			return 0, ErrTooManyBodies
		}
		s = b.grow()
	}
	b.hot[s].gen++
	if b.hot[s].gen == 0 {
		b.hot[s].gen = 1 // generation 0 is never issued, so BodyID 0 is never valid
	}
	flags := flagAlive
	if def.Kind == Static {
		flags |= flagStatic
	}
	if def.Sensor {
		flags |= flagSensor
	}
	if def.Bullet {
		flags |= flagBullet
	}
	b.shapes[s] = def.Shape
	b.epoch++
	b.xf[s] = xf
	b.angle[s] = def.Angle
	b.tight[s] = round32(tight)
	b.filter[s] = def.Filter.bits()
	b.cats.add(s, b.filter[s].cat)
	// A slot still queued as moved by its previous body stays queued once.
	b.hot[s].flags = flags | b.hot[s].flags&flagMoved
	if def.UserData != nil {
		if b.user == nil {
			b.user = make(map[int32]any)
		}
		b.user[s] = def.UserData
	}
	b.count++
	if def.Bullet {
		w.addBullet(s)
	}
	if def.Kind == Static {
		w.bp().InsertStatic(s, tight)
	} else {
		w.bp().Insert(s, tight)
	}
	return makeID(s, b.hot[s].gen), nil
}

// Remove removes a body. Queries stop seeing it at once; its contacts end
// at the next Step, which reports them in Ended. Until the Step after that
// one, Body still reads the removed body's last state (with Removed set),
// so an Ended handler can tell who left; every other call refuses its id.
func (w *World) Remove(id BodyID) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	b := &w.b
	w.tree.Remove(s)
	b.cats.remove(s, b.filter[s].cat)
	// Still in the moved list until the next Step if it was there.
	if b.hot[s].flags&flagBullet != 0 {
		w.removeBullet(s)
	}
	b.hot[s].flags = b.hot[s].flags&^flagAlive | flagRemoved
	b.dying = append(b.dying, s)
	b.count--
	return nil
}

// reap frees the slots of bodies removed before the previous Step (their
// Ended contacts are no longer current) and keeps those removed since it
// readable until the next. Step calls it first.
func (b *bodies) reap() {
	if len(b.dead) > 0 {
		b.epoch++
		b.own()
	}
	for _, s := range b.dead {
		b.hot[s].flags &= flagMoved
		b.shapes[s] = shape.Shape{}
		delete(b.user, s)
		b.free = append(b.free, s)
	}
	b.dead, b.dying = b.dying, b.dead[:0]
}

// SetTransform places a body at pos with the given angle. Queries see the
// new place at once.
func (w *World) SetTransform(id BodyID, pos shape.Vec2, angle float64) error {
	s, ok := w.slotOf(id, flagAlive)
	if !ok {
		return unknownBody(id)
	}
	if !pos.IsFinite() || !shape.IsFinite(angle) {
		return fmt.Errorf("%w: position %v angle %v", ErrNotFinite, pos, angle)
	}
	b := &w.b
	xf := shape.Transform{Pos: pos, Rot: b.xf[s].Rot}
	// By bits: -0 and +0 are equal but make different rotations.
	if math.Float64bits(angle) != math.Float64bits(b.angle[s]) {
		xf.Rot = shape.NewRot(angle)
	}
	t := b.shapes[s].WorldAABB(xf)
	if !t.IsFinite() {
		return overflows(t, xf.Pos)
	}
	// The angle and place before the proxy: a bullet's proxy box depends
	// on them.
	b.angle[s] = angle
	b.xf[s] = xf
	// refresh's common case, inline: a body that is no bullet and stays in
	// its fat box (nine in ten a frame in the swarm) only records its box.
	if h := &b.hot[s]; h.flags&flagBullet == 0 && w.tree.FatAABB(s).ContainsAABB(t) {
		b.tight[s] = round32(t)
		if h.flags&flagMoved == 0 {
			h.flags |= flagMoved
			b.moved = append(b.moved, s)
		}
		return nil
	}
	w.refresh(s, t)
	return nil
}

// Move moves a body by delta, keeping its angle. Queries see the new place
// at once.
func (w *World) Move(id BodyID, delta shape.Vec2) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	xf := w.b.xf[s]
	xf.Pos = xf.Pos.Add(delta)
	if !delta.IsFinite() || !xf.Pos.IsFinite() {
		return fmt.Errorf("%w: move by %v from %v", ErrNotFinite, delta, w.b.xf[s].Pos)
	}
	return w.place(s, xf)
}

// place gives body s transform xf, refreshes its tight box and tells the
// broad phase, so that queries see the change at once (as Box2D's
// b2Body_SetTransform moves the proxy right away). The proxy is re-inserted
// only when the box leaves its fat box; the pair search waits for Step. It
// fails, changing nothing, if the box overflows.
func (w *World) place(s int32, xf shape.Transform) error {
	b := &w.b
	t := b.shapes[s].WorldAABB(xf)
	if !t.IsFinite() {
		return overflows(t, xf.Pos)
	}
	b.xf[s] = xf
	w.refresh(s, t)
	return nil
}

// overflows returns the error for a body box t, at position pos, that is
// not finite.
func overflows(t shape.AABB, pos shape.Vec2) error {
	return fmt.Errorf("%w: body box %v at position %v overflows", ErrNotFinite, t, pos)
}

// refresh records body s's new tight box t and updates its proxy.
func (w *World) refresh(s int32, t shape.AABB) {
	b := &w.b
	h := &b.hot[s]
	old := b.tight[s].aabb()
	b.tight[s] = round32(t)
	if h.flags&flagBullet != 0 {
		// A bullet's proxy holds the box of its motion since the last
		// Step, which it leaves at its next move: stretching it along the
		// motion would only pair it with more bodies.
		w.tree.Update(s, proxyBox(b, w.bullets, s, t), shape.Vec2{})
	} else if !w.tree.FatAABB(s).ContainsAABB(t) {
		// Update would return at once while the box stays in its fat box,
		// as it mostly does: the test is made here, and the displacement
		// only computed for a re-insert. The shift of the box centre
		// stands for it (the broad phase stretches the fat box along it),
		// so none is stored.
		d := t.Center().Sub(old.Center())
		if !d.IsFinite() {
			d = shape.Vec2{} // a jump across the whole float range: no stretch
		}
		w.tree.Update(s, t, d)
	}
	if h.flags&flagMoved == 0 {
		h.flags |= flagMoved
		b.moved = append(b.moved, s)
	}
}

// SetShape gives a body a new shape (a power-up's bigger hitbox), keeping
// its id, place and contacts' identity. Queries see it at once; contacts
// change at the next Step.
func (w *World) SetShape(id BodyID, sh shape.Shape) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	if !sh.Valid() {
		return ErrInvalidShape
	}
	t := sh.WorldAABB(w.b.xf[s])
	if !t.IsFinite() {
		return fmt.Errorf("%w: body box %v of the new shape overflows", ErrNotFinite, t)
	}
	w.b.own()
	w.b.shapes[s] = sh
	w.b.epoch++
	w.refresh(s, t)
	return nil
}

// SetSensor makes a body a sensor or a solid body (a door that opens);
// its contacts carry the new flag from the next Step.
func (w *World) SetSensor(id BodyID, sensor bool) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	if sensor {
		w.b.hot[s].flags |= flagSensor
	} else {
		w.b.hot[s].flags &^= flagSensor
	}
	return nil
}

// SetKind makes a body Dynamic or Static, keeping its id. Its pairs are
// looked for again at the next Step (a static body never pairs with
// another static body).
func (w *World) SetKind(id BodyID, k BodyKind) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	if k > Static {
		return fmt.Errorf("%w: body kind %d", ErrInvalidArgument, k)
	}
	h := &w.b.hot[s]
	if (h.flags&flagStatic != 0) == (k == Static) {
		return nil
	}
	// The proxy moves to the other tree; re-inserting it makes it query
	// and refilter its pairs at the next UpdatePairs.
	w.tree.Remove(s)
	if k == Static {
		h.flags |= flagStatic
		w.tree.InsertStatic(s, proxyBox(&w.b, w.bullets, s, w.b.tightOf(s)))
	} else {
		h.flags &^= flagStatic
		w.tree.Insert(s, proxyBox(&w.b, w.bullets, s, w.b.tightOf(s)))
	}
	return nil
}

// SetUserData replaces a body's user value; nil clears it.
func (w *World) SetUserData(id BodyID, v any) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	if v == nil {
		delete(w.b.user, s)
		return nil
	}
	if w.b.user == nil {
		w.b.user = make(map[int32]any)
	}
	w.b.user[s] = v
	return nil
}

// SetFilter changes a body's collision bits; f must be a valid body filter
// (see Filter). Queries see the new bits at once; pairs they newly allow or
// forbid change at the next Step.
func (w *World) SetFilter(id BodyID, f Filter) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	if err := f.checkBody(); err != nil {
		return err
	}
	b := &w.b
	nb := f.bits()
	b.own()
	b.cats.remove(s, b.filter[s].cat)
	b.filter[s] = nb
	b.cats.add(s, nb.cat)
	w.tree.Touch(s)
	return nil
}

// Body returns a snapshot of a body. A removed body stays readable, with
// Removed set, until the Step after the one that reported its Ended
// contacts.
func (w *World) Body(id BodyID) (Body, error) {
	s, err := w.lookupFlags(id, flagAlive|flagRemoved)
	if err != nil {
		return Body{}, err
	}
	b := &w.b
	kind := Dynamic
	if b.hot[s].flags&flagStatic != 0 {
		kind = Static
	}
	return Body{
		ID:       id,
		Shape:    b.shapes[s],
		Position: b.xf[s].Pos,
		Angle:    b.angle[s],
		Filter:   Filter{Category: b.filter[s].cat, Mask: b.filter[s].mask},
		Kind:     kind,
		Sensor:   b.hot[s].flags&flagSensor != 0,
		Bullet:   b.hot[s].flags&flagBullet != 0,
		UserData: b.user[s],
		AABB:     b.tightOf(s),
		Removed:  b.hot[s].flags&flagRemoved != 0,
	}, nil
}

// Len returns the number of live bodies.
func (w *World) Len() int { return w.b.count }

// Contains reports whether id names a live body (a removed body, even one
// Body still reads, is not).
func (w *World) Contains(id BodyID) bool {
	_, err := w.lookup(id)
	return err == nil
}

// idOf returns the id of the live body in slot s.
func (w *World) idOf(s int32) BodyID { return makeID(s, w.b.hot[s].gen) }

// pairFilter is the broad phase's test for a new candidate pair.
func (w *World) pairFilter(a, c int32) bool {
	fa, fc := w.b.hot[a].flags, w.b.hot[c].flags
	if fa&fc&flagStatic != 0 {
		return false
	}
	return accepts(w.b.filter[a], w.b.filter[c])
}
