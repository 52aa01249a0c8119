package collide

import (
	"iter"

	"github.com/collide-go/collide/engine"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// Vocabulary types, re-exported so that one import is enough.
type (
	// Vec2 is a 2D vector or point.
	Vec2 = shape.Vec2
	// Transform is a position and rotation; the zero Transform is the identity.
	Transform = shape.Transform
	// AABB is an axis-aligned box.
	AABB = shape.AABB
	// Shape is a validated collision shape; build it with the shape package.
	Shape = shape.Shape
	// Manifold is a contact's normal (A to B), depth and contact points.
	Manifold = narrowphase.Manifold
	// Config sets up a World; the zero Config is a working world.
	Config = engine.Config
	// BodyID names a body; a removed body's id is refused.
	BodyID = engine.BodyID
	// BodyDef describes a body to add.
	BodyDef = engine.BodyDef
	// Body is a snapshot of a body's state.
	Body = engine.Body
	// BodyKind is Dynamic or Static.
	BodyKind = engine.BodyKind
	// Filter holds collision category and mask bits, and query options.
	Filter = engine.Filter
	// Contact is an overlapping pair of bodies after a Step.
	Contact = engine.Contact
	// RayHit is where a ray enters a body.
	RayHit = engine.RayHit
	// ShapeHit is where a moving shape first touches a body.
	ShapeHit = engine.ShapeHit
	// CastHit is where a moving shape first touches another shape.
	CastHit = narrowphase.CastHit
	// MoveResult is where MoveAndSlide left a character and what it met.
	MoveResult = engine.MoveResult
	// Stats holds the counters and phase times of the last Step.
	Stats = engine.Stats
)

// Body kinds.
const (
	// Dynamic bodies move and pair with every body their filter allows.
	Dynamic = engine.Dynamic
	// Static bodies are scenery, never paired with other static bodies.
	Static = engine.Static
)

// DefaultFilter is category 1, colliding with every category; the zero
// Filter means it.
var DefaultFilter = engine.DefaultFilter

// Errors, testable with errors.Is whichever package raised them.
var (
	// ErrUnknownBody reports an id that names no live body.
	ErrUnknownBody = engine.ErrUnknownBody
	// ErrInvalidShape reports a shape that did not come from a constructor.
	ErrInvalidShape = engine.ErrInvalidShape
	// ErrNotFinite reports a NaN or infinite number, or a box that
	// overflows; shape constructors and World methods return the same one.
	ErrNotFinite = engine.ErrNotFinite
	// ErrInvalidArgument reports an argument outside its domain.
	ErrInvalidArgument = engine.ErrInvalidArgument
	// ErrTooManyBodies reports that the world cannot hold another body.
	ErrTooManyBodies = engine.ErrTooManyBodies
	// ErrSnapshot reports bytes UnmarshalBinary cannot restore.
	ErrSnapshot = engine.ErrSnapshot

	// ErrTooLarge reports a size or coordinate above what a shape holds.
	ErrTooLarge = shape.ErrTooLarge
	// ErrNonPositiveSize reports a zero or negative radius or half extent.
	ErrNonPositiveSize = shape.ErrNonPositiveSize
	// ErrTooFewVertices reports a polygon with fewer than 3 distinct vertices.
	ErrTooFewVertices = shape.ErrTooFewVertices
	// ErrTooManyVertices reports a polygon above MaxPolygonVertices.
	ErrTooManyVertices = shape.ErrTooManyVertices
	// ErrCollinear reports a polygon whose vertices are (nearly) collinear.
	ErrCollinear = shape.ErrCollinear
	// ErrSelfIntersecting reports a polygon whose edges cross.
	ErrSelfIntersecting = shape.ErrSelfIntersecting
	// ErrNonConvex reports a polygon that is not convex.
	ErrNonConvex = shape.ErrNonConvex
	// ErrInvalidPart reports a compound part that cannot be one.
	ErrInvalidPart = shape.ErrInvalidPart
)

// MaxPolygonVertices is the most vertices a polygon may have.
const MaxPolygonVertices = shape.MaxPolygonVertices

// V returns the vector (x, y).
func V(x, y float64) Vec2 { return Vec2{X: x, Y: y} }

// World holds bodies and the contacts of the last Step.
//
// Every query answers for the world as it stands, after every mutation,
// with or without a Step in between; Contacts, Began and Ended are the last
// Step's.
//
// Concurrency: Add, Remove, the setters (SetTransform, Move, SetFilter,
// SetShape, SetSensor, SetKind, SetUserData), Step and Close need exclusive
// access. Queries and reads write nothing, so any number of
// goroutines may run them at once while no mutation or Step runs. The world
// does no locking of its own.
type World struct {
	e *engine.World
}

// NewWorld returns an empty world. The zero Config uses GOMAXPROCS workers
// and the broad phase's default margins.
func NewWorld(cfg Config) *World { return &World{e: engine.NewWorld(cfg)} }

// Close stops the world's worker goroutines; the world stays usable on the
// caller's goroutine. It is optional.
func (w *World) Close() { w.e.Close() }

// Add adds a body and returns its id; queries see it at once. An invalid
// shape, a NaN or infinite position or angle, a box that overflows or a
// filter of category 0 (see Filter) is refused, and the world is left as it
// was.
func (w *World) Add(def BodyDef) (BodyID, error) { return w.e.Add(def) }

// Remove removes a body; queries stop seeing it at once and its contacts
// end at the next Step. Body still reads it (with Removed set) until the
// Step after that, so an Ended handler can tell who left.
func (w *World) Remove(id BodyID) error { return w.e.Remove(id) }

// SetTransform places a body at pos with the given angle in radians.
func (w *World) SetTransform(id BodyID, pos Vec2, angle float64) error {
	return w.e.SetTransform(id, pos, angle)
}

// Move moves a body by delta, keeping its angle.
func (w *World) Move(id BodyID, delta Vec2) error { return w.e.Move(id, delta) }

// SetFilter changes a body's collision bits.
func (w *World) SetFilter(id BodyID, f Filter) error { return w.e.SetFilter(id, f) }

// SetShape gives a body a new shape, keeping its id and place.
func (w *World) SetShape(id BodyID, s Shape) error { return w.e.SetShape(id, s) }

// SetSensor makes a body a sensor (its contacts flagged Sensor) or not.
func (w *World) SetSensor(id BodyID, sensor bool) error { return w.e.SetSensor(id, sensor) }

// SetKind makes a body Dynamic or Static, keeping its id.
func (w *World) SetKind(id BodyID, k BodyKind) error { return w.e.SetKind(id, k) }

// SetUserData replaces a body's user value; nil clears it.
func (w *World) SetUserData(id BodyID, v any) error { return w.e.SetUserData(id, v) }

// Body returns a snapshot of a body, also of one removed since the Step
// before the last (Removed set).
func (w *World) Body(id BodyID) (Body, error) { return w.e.Body(id) }

// Contains reports whether id names a live body.
func (w *World) Contains(id BodyID) bool { return w.e.Contains(id) }

// Len returns the number of bodies.
func (w *World) Len() int { return w.e.Len() }

// Step finds the contacts of the world as it stands. A steady-state Step
// allocates nothing.
func (w *World) Step() { w.e.Step() }

// Contacts yields the contacts found by the last Step, in a deterministic
// order. The sequence stays valid until the next Step; moving or removing
// bodies while ranging over it is allowed.
func (w *World) Contacts() iter.Seq[Contact] { return w.e.Contacts() }

// Began yields the contacts of the last Step that were not contacts in the
// step before. Valid until the next Step.
func (w *World) Began() iter.Seq[Contact] { return w.e.Began() }

// Ended yields the contacts of the step before the last that have ended, as
// they were then; Body still reads a removed body among them. Valid until
// the next Step.
func (w *World) Ended() iter.Seq[Contact] { return w.e.Ended() }

// ContactCount returns the number of contacts found by the last Step.
func (w *World) ContactCount() int { return w.e.ContactCount() }

// Stats returns the counters and phase times of the last Step.
func (w *World) Stats() Stats { return w.e.Stats() }

// QueryAABB calls fn for each body whose shape overlaps box and passes
// filter f (the zero Filter is the default), until fn returns false. Like
// QueryPoint and QueryShape it calls back in an order of the world's state
// alone, the same in a clone or a restored snapshot, whatever happened to
// the world before: a rollback that acts on each hit in turn replays
// exactly.
func (w *World) QueryAABB(box AABB, f Filter, fn func(BodyID) bool) error {
	return w.e.QueryAABB(box, f, fn)
}

// QueryPoint calls fn for each body whose shape contains p, boundary
// included, until fn returns false.
func (w *World) QueryPoint(p Vec2, f Filter, fn func(BodyID) bool) error {
	return w.e.QueryPoint(p, f, fn)
}

// QueryShape calls fn for each body that shape s placed by t overlaps, with
// the manifold from the query shape (A) to the body (B), until fn returns
// false: the rotated skill hitbox in front of a hero, an explosion circle.
func (w *World) QueryShape(s Shape, t Transform, f Filter, fn func(BodyID, Manifold) bool) error {
	return w.e.QueryShape(s, t, f, fn)
}

// RayCast returns the first body the ray from origin along dir meets within
// maxDist. A ray that starts inside a body hits it at distance 0.
func (w *World) RayCast(origin, dir Vec2, maxDist float64, f Filter) (RayHit, bool, error) {
	return w.e.RayCast(origin, dir, maxDist, f)
}

// RayCastAll calls fn for every body the ray meets within maxDist, nearest
// first, until fn returns false.
func (w *World) RayCastAll(origin, dir Vec2, maxDist float64, f Filter, fn func(RayHit) bool) error {
	return w.e.RayCastAll(origin, dir, maxDist, f, fn)
}

// CastShape returns the first body, passing filter f, that shape s placed by
// t touches while it moves by delta (translation only): a projectile or a
// dash that must not pass through walls. Fraction is the exact first time of
// touching (touching counts, a body overlapped at the start is a hit at 0);
// equal fractions go to the lower id. A NaN or infinite transform or delta
// is refused with ErrNotFinite, a zero Shape with ErrInvalidShape.
func (w *World) CastShape(s Shape, t Transform, delta Vec2, f Filter) (ShapeHit, bool, error) {
	return w.e.CastShape(s, t, delta, f)
}

// CastShapeAll calls fn for every body, passing filter f, that shape s
// placed by t touches while it moves by delta, in order of fraction (equal
// fractions by id), until fn returns false.
func (w *World) CastShapeAll(s Shape, t Transform, delta Vec2, f Filter, fn func(ShapeHit) bool) error {
	return w.e.CastShapeAll(s, t, delta, f, fn)
}

// MoveAndSlide moves a character shape s placed by t by delta, sliding
// along the bodies passing f that it meets, and reports where it ended and
// what it touched; it never passes through a body and ends overlapping none.
// The world is not changed: set the character's body to the result.
func (w *World) MoveAndSlide(s Shape, t Transform, delta Vec2, f Filter) (MoveResult, error) {
	return w.e.MoveAndSlide(s, t, delta, f)
}

// Depenetrate returns the smallest translation (found round by round) that
// moves shape s placed by t out of every body passing f that it overlaps,
// all at once; zero when it overlaps nothing.
func (w *World) Depenetrate(s Shape, t Transform, f Filter) (Vec2, error) {
	return w.e.Depenetrate(s, t, f)
}

// Nearest calls fn for the k bodies nearest to p, by distance from p to each
// shape (0 inside), nearest first: by the distance reported, equal
// distances by lower id (also at the k-th place), until fn returns false.
func (w *World) Nearest(p Vec2, k int, f Filter, fn func(id BodyID, dist float64) bool) error {
	return w.e.Nearest(p, k, f, fn)
}

// NearestWithin is Nearest limited to bodies within maxDist of p (at
// exactly maxDist included); maxDist may be +Inf.
func (w *World) NearestWithin(p Vec2, k int, maxDist float64, f Filter, fn func(id BodyID, dist float64) bool) error {
	return w.e.NearestWithin(p, k, maxDist, f, fn)
}

// AppendBinary appends the world's state to dst; see MarshalBinary.
func (w *World) AppendBinary(dst []byte) ([]byte, error) { return w.e.AppendBinary(dst) }

// MarshalBinary returns the world's state, for rollback and for moving a
// room between processes: bodies and ids (with generations and free slots,
// so ids stay valid and stale ids stay stale), shapes (each distinct one
// once), filters, kinds, sensors, bullets and their previous places, moves
// pending since the last Step, and that Step's contacts and events. User
// values are not encoded. The format is versioned (package engine documents
// it) and the bytes are the same on every CPU.
func (w *World) MarshalBinary() ([]byte, error) { return w.e.MarshalBinary() }

// UnmarshalBinary restores a state MarshalBinary encoded, in place; on any
// error the world is unchanged. Afterwards the world gives the same
// contacts, events, query answers and StateHash as the original would,
// driven by the same inputs, and Add hands out the same ids. Every restored
// body's user value is nil: set them again with SetUserData. The world
// keeps its own worker count, and the buffers of the state it replaced, for
// the next restore: a rollback loop allocates next to nothing.
func (w *World) UnmarshalBinary(data []byte) error { return w.e.UnmarshalBinary(data) }

// Clone returns a deep copy of the world sharing nothing mutable with it,
// user values included (the values themselves, not what they point to),
// with workers of its own. It needs exclusive access, like a mutation.
func (w *World) Clone() *World { return &World{e: w.e.Clone()} }

// StateHash returns a hash of the state that matters for results (what
// MarshalBinary encodes), the same for any worker count and on every CPU:
// compare it between lockstep peers or against a replay every frame.
func (w *World) StateHash() uint64 { return w.e.StateHash() }
