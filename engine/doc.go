// Package engine is the step pipeline behind collide.World: dense body
// storage with generation-checked handles, the broad-phase proxies, the pair
// cache, the narrow phase run on a pool of worker goroutines, began/ended
// contact events, and the read-only queries.
//
// # Step
//
// A mutation (Move, SetTransform, SetShape, Add, Remove, SetFilter, SetKind)
// brings the body's tight box and broad-phase proxy up to date at once, as
// Box2D's b2Body_SetTransform does, so that queries between mutations and
// the next Step see the world as mutated; the proxy is re-inserted only when
// the tight box leaves its fat box. Each Step then (1) frees the slots of
// bodies whose Ended events are past, (2) lets the broad phase find new
// candidate pairs for the re-inserted proxies and drop stale ones, (3) runs
// the narrow phase on every live pair that passes the filter and whose
// tight boxes overlap, and (4) compares the contacts with the previous
// step's to produce the began and ended events. Contacts come out ordered by
// the bodies' storage slots, the same for any worker count.
//
// # Contacts
//
// A contact's Normal is a unit vector from body A to body B; Depth > 0;
// moving B by Normal*Depth, or A by its negation, makes them touch (to a few
// ulps: narrowphase.PushOut guarantees a gap). Touching is not a contact.
//
// # Snapshots
//
// World.MarshalBinary encodes the whole state in a versioned little-endian
// format (version 3): a header "CLDW" with the version, the broad phase's
// margins, a table of the distinct shapes (by content, in order of first
// use), every storage slot (flags, generation, and for a live or removed
// body its shape index, position, angle, and filter bits unless they are
// DefaultFilter), the free, removed and moved slot lists, the bullets'
// previous places, the last Step's contacts, the Ended contacts and the
// began indexes; snapshot.go lists the fields, snapshot_shapes.go those of
// capsules, segments, compounds and chains. Floats are stored as their
// bits, so the bytes are the same on every CPU. A contact between two
// convex bodies that have not moved since the Step is stored as its two
// slots: the decoder computes its manifold again, the same function of the
// same numbers. UnmarshalBinary validates everything before it changes
// anything, brings the world's broad phase up to date (or builds a new one
// when too few of its fat boxes still fit), and leaves user values nil.
// StateHash is an FNV-1a hash of the same fields, computed without encoding
// them.
//
// # Drawing
//
// World.Draw describes the world to a Drawer (draw.go): each body's outline
// in storage order after a Body call, then as DrawOptions asks, tight and
// fat boxes, contact points and MTV arrows (from each contact point p to
// p + Normal·Depth). It is a query like the others, and allocates nothing
// once warmed. Renderers (the view package) live outside the core, which
// imports no image or HTTP code.
//
// # Concurrency
//
// Mutations (Add, Remove, SetTransform, Move, the other setters) and Step
// need exclusive access. Queries and reads write nothing, so any number of
// goroutines may run them at once while nothing mutates. Nothing locks
// internally.
package engine
