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

// Filter holds collision category and mask bits. Two bodies (or a query and
// a body) are paired when each one's Category shares a bit with the other's
// Mask. The zero Filter means DefaultFilter.
type Filter struct {
	Category uint32 // the bits this body is
	Mask     uint32 // the bits this body collides with
}

// DefaultFilter is category 1, colliding with every category.
var DefaultFilter = Filter{Category: 1, Mask: math.MaxUint32}

func (f Filter) orDefault() Filter {
	if f == (Filter{}) {
		return DefaultFilter
	}
	return f
}

// Accepts reports whether bodies with filters f and g may touch.
func (f Filter) Accepts(g Filter) bool {
	f, g = f.orDefault(), g.orDefault()
	return f.Category&g.Mask != 0 && g.Category&f.Mask != 0
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
	UserData any         // the caller's value from BodyDef
	// AABB is the tight world box of the shape at the current transform.
	AABB shape.AABB
}

const (
	flagAlive uint8 = 1 << iota
	flagStatic
	flagSensor
	flagMoved
)

// hotBody holds what the narrow-phase loop reads for every candidate pair,
// packed so that one pair end costs one cache line.
type hotBody struct {
	tight shape.AABB
	gen   uint32
	flags uint8
}

// bodies is the dense, slot-indexed body storage: one slice per group of
// fields, so each loop touches only what it needs.
type bodies struct {
	hot    []hotBody
	filter []Filter
	shapes []shape.Shape
	xf     []shape.Transform
	angle  []float64
	// user holds the non-nil user values only: most bodies have none, and
	// a slice of interfaces would cost every body 16 bytes.
	user  map[int32]any
	free  []int32 // free slots, reused last-in first-out
	moved []int32 // slots moved since the last step
	count int
}

func (b *bodies) grow() int32 {
	b.shapes = append(b.shapes, shape.Shape{})
	b.xf = append(b.xf, shape.Transform{})
	b.angle = append(b.angle, 0)
	b.hot = append(b.hot, hotBody{})
	b.filter = append(b.filter, Filter{})
	return int32(len(b.hot) - 1)
}

// lookup returns the slot of a live body, or an error.
func (w *World) lookup(id BodyID) (int32, error) {
	s := id.slot()
	if id == 0 || s < 0 || int(s) >= len(w.b.hot) || w.b.hot[s].flags&flagAlive == 0 || w.b.hot[s].gen != id.gen() {
		return 0, fmt.Errorf("%w: %#x", ErrUnknownBody, uint64(id))
	}
	return s, nil
}

// Add adds a body and returns its id. It fails, changing nothing, on an
// invalid shape, a NaN or infinite position or angle, or an unknown kind.
func (w *World) Add(def BodyDef) (BodyID, error) {
	if !def.Shape.Valid() {
		return 0, ErrInvalidShape
	}
	if !def.Position.IsFinite() || !shape.IsFinite(def.Angle) {
		return 0, fmt.Errorf("%w: position %v angle %v", ErrNotFinite, def.Position, def.Angle)
	}
	if def.Kind > Static {
		return 0, fmt.Errorf("%w: body kind %d", ErrInvalidArgument, def.Kind)
	}
	xf := shape.NewTransform(def.Position, def.Angle)
	tight := def.Shape.WorldAABB(xf)
	if !tight.IsFinite() {
		return 0, fmt.Errorf("%w: body box %v overflows", ErrNotFinite, tight)
	}
	b := &w.b
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
	b.shapes[s] = def.Shape
	b.xf[s] = xf
	b.angle[s] = def.Angle
	b.hot[s].tight = tight
	b.filter[s] = def.Filter.orDefault()
	// A slot still queued as moved by its previous body stays queued once.
	b.hot[s].flags = flags | b.hot[s].flags&flagMoved
	if def.UserData != nil {
		if b.user == nil {
			b.user = make(map[int32]any)
		}
		b.user[s] = def.UserData
	}
	b.count++
	if def.Kind == Static {
		w.tree.InsertStatic(s, tight)
	} else {
		w.tree.Insert(s, tight)
	}
	return makeID(s, b.hot[s].gen), nil
}

// Remove removes a body. Its contacts end at the next Step.
func (w *World) Remove(id BodyID) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	b := &w.b
	w.tree.Remove(s)
	b.hot[s].flags &= flagMoved // still in the moved list until the next Step
	b.shapes[s] = shape.Shape{}
	delete(b.user, s)
	b.free = append(b.free, s)
	b.count--
	return nil
}

// SetTransform places a body at pos with the given angle.
func (w *World) SetTransform(id BodyID, pos shape.Vec2, angle float64) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	if !pos.IsFinite() || !shape.IsFinite(angle) {
		return fmt.Errorf("%w: position %v angle %v", ErrNotFinite, pos, angle)
	}
	b := &w.b
	d := pos.Sub(b.xf[s].Pos)
	if !d.IsFinite() {
		return fmt.Errorf("%w: move by %v overflows", ErrNotFinite, d)
	}
	if angle != b.angle[s] {
		b.xf[s].Rot = shape.NewRot(angle)
		b.angle[s] = angle
	}
	b.xf[s].Pos = pos
	w.markMoved(s)
	return nil
}

// Move moves a body by delta, keeping its angle.
func (w *World) Move(id BodyID, delta shape.Vec2) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	p := w.b.xf[s].Pos.Add(delta)
	if !delta.IsFinite() || !p.IsFinite() {
		return fmt.Errorf("%w: move by %v", ErrNotFinite, delta)
	}
	w.b.xf[s].Pos = p
	w.markMoved(s)
	return nil
}

func (w *World) markMoved(s int32) {
	b := &w.b
	if b.hot[s].flags&flagMoved == 0 {
		b.hot[s].flags |= flagMoved
		b.moved = append(b.moved, s)
	}
}

// SetFilter changes a body's collision bits. Pairs it newly allows are found
// at the next Step.
func (w *World) SetFilter(id BodyID, f Filter) error {
	s, err := w.lookup(id)
	if err != nil {
		return err
	}
	w.b.filter[s] = f.orDefault()
	w.tree.Touch(s)
	return nil
}

// Body returns a snapshot of a body.
func (w *World) Body(id BodyID) (Body, error) {
	s, err := w.lookup(id)
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
		Filter:   b.filter[s],
		Kind:     kind,
		Sensor:   b.hot[s].flags&flagSensor != 0,
		UserData: b.user[s],
		AABB:     b.shapes[s].WorldAABB(b.xf[s]),
	}, nil
}

// Len returns the number of live bodies.
func (w *World) Len() int { return w.b.count }

// Contains reports whether id names a live body.
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
	return w.b.filter[a].Accepts(w.b.filter[c])
}
