// Package collide is a 2D collision engine for authoritative game servers.
//
// A [World] holds bodies, each a shape (circle, AABB, OBB or convex polygon)
// placed by a position and an angle. Once per tick the server moves bodies
// and calls [World.Step]; the world finds every overlapping pair through an
// R-tree broad phase and separating-axis narrow phase and reports the
// contacts, each with its minimum translation vector and contact points, and
// which contacts began and ended since the last step. Between steps the
// server can ask which bodies a shape overlaps, what a ray hits first, which
// bodies contain a point and which are nearest to one. Queries answer for
// the world as it stands after every mutation, with or without a Step in
// between; Contacts, Began and Ended are the last Step's.
//
// # The game loop
//
// A tick is: move bodies (Move, SetTransform); push them out of walls
// (QueryShape with the mover excluded, then PushOut or the contact's MTV);
// Step; act on Began and Ended (Contact.Other and Contact.From give the
// other body and the contact as seen from one body; a body removed since
// the last Step is still readable by Body for its Ended contacts); then
// answer the tick's questions (RayCast for line of sight, Nearest for aggro,
// QueryShape for a melee hitbox). Ranging over Contacts while moving or
// removing bodies is allowed. See the package's Example_gameLoop.
//
// # Conventions
//
// Units are the caller's world units; angles are radians, counter-clockwise.
// A contact's Normal is a unit vector from body A to body B and its Depth is
// positive: moving B by Normal*Depth, or A by its negation, leaves them
// touching in exact arithmetic; in floating point it can leave an overlap of
// a few ulps, so a push-out that must clear uses PushOut. Touching shapes
// (zero overlap) are not in contact. An AABB shape never
// rotates: a body's angle moves it but never turns it.
//
// # Errors
//
// Bad input is refused where it enters, with an error that wraps a sentinel
// (ErrUnknownBody, ErrNotFinite, shape.ErrNonConvex, ...); a failed call
// changes nothing. Step takes no input and never fails.
//
// # Concurrency
//
// Mutations (Add, Remove, SetTransform, Move, SetFilter, SetShape,
// SetSensor, SetKind, SetUserData) and Step need exclusive access. Queries
// and reads (QueryAABB, QueryPoint, QueryShape, RayCast, RayCastAll,
// Nearest, NearestWithin, Body, Contacts, Began, Ended, Stats) write
// nothing, so any number of goroutines may run them at once while nothing
// mutates. The world does no locking of its own.
package collide
