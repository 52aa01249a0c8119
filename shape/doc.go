// Package shape is the shared vocabulary of collide: two-dimensional vectors,
// rotations, rigid transforms, axis-aligned boxes and the four collision shape
// kinds (circle, AABB, OBB and convex polygon) with their validating
// constructors.
//
// # Frames and units
//
// Shapes are defined in their body's local frame, in world units, centred on
// the body's origin (a circle may carry a local offset). A [Transform] places a
// shape in the world: a position and a counter-clockwise rotation in radians.
// The AABB kind is special: it never rotates. A body's angle moves nothing
// about an AABB shape but its centre, which is the body's position, so the
// box always stays axis-aligned in the world. Use an OBB for a box that turns.
//
// # Validation
//
// Constructors validate their input and return an error wrapping one of the
// Err sentinels, testable with [errors.Is]: non-finite numbers, zero or
// negative sizes, fewer than three distinct vertices, collinear input,
// self-intersecting or non-convex outlines, and more than
// [MaxPolygonVertices] vertices. A Shape that came from a constructor is
// immutable and safe to share between bodies and goroutines; the zero Shape
// is not a valid shape (see [Shape.Valid]).
//
// Everything here is a small value type with value receivers; nothing
// allocates except [NewPolygon] and [ConvexHull], once, at construction.
package shape
