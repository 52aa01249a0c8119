// Package narrowphase decides whether two placed shapes overlap and, when
// they do, how: the kind-pair routines, the [Collide] and [Overlap]
// dispatchers, ray casts and point queries.
//
// # Frames
//
// Every function takes shapes in their local frames together with the
// [shape.Transform] that places each one in the world, and returns world
// coordinates. An AABB shape ignores its transform's rotation (see
// [shape.Shape.EffectiveTransform]). Pair routines work in the local frame of
// one of the two shapes, with the other shape's transform expressed relative
// to it, and convert the result to world coordinates once at the end, so
// contacts keep their precision far from the origin (coordinates of 1e6 and
// beyond).
//
// # Contact convention
//
// [Collide] returns a [Manifold] whose Normal is a unit vector pointing from
// A to B and whose Depth (> 0) is the exact penetration depth: the length of
// the shortest translation that separates the pair. Applying Normal*Depth to
// B, or its negation to A, brings them to touching in exact arithmetic, even
// when one shape contains the other. In floating point the move and the next
// Collide round, and the pair is often left overlapping by a few ulps (30%
// to 50% of random pairs), so the next Collide reports the contact again.
// [PushOut] returns a translation, the MTV plus a few ulps, that is checked
// with Collide to clear. Shapes that merely touch (zero overlap) do not
// collide, at any angle and far from the origin: where the float routines
// find an overlap of rounding size (within 1e-12 of the pair's
// coordinates and sizes), Collide and Overlap decide it in exact
// arithmetic, for the shapes that the transforms' positions and the
// cosines and sines they hold describe exactly (a compound's part placed
// by the exact product of its offset and its body's transform), and a
// touch, or a gap of rounding size, is no contact. Where the numbers are
// beyond the exact arithmetic's range (products below 1e-241 or above
// 1e241) the float answer stands.
// Each manifold carries one or two contact points; every point lies midway
// between the two surfaces and has its own Depth (> 0), the overlap of the
// surfaces there measured along Normal. Collide(b, a) is exactly Collide(a,
// b) with the normal negated: mirrored kind pairs run one routine and flip
// it, and two shapes of one kind are always computed in a fixed order (by
// position, then rotation, then size) and flipped when given the other way
// round. That holds even where the normal is a tie-break: when two circle
// centres coincide there is no direction to prefer and the normal is +X in
// the fixed order, -X in the other. No function here ever returns NaN for
// finite input.
//
// Invalid shapes (the zero [shape.Shape]) never collide, and no input makes
// these functions panic.
//
// # Algorithms
//
// Circles are tested by centre distance, circle–box pairs by clamping the
// centre into the box, circle–polygon pairs by the closest feature, boxes and
// polygons by the separating axis theorem over their face normals with
// reference/incident face clipping for the contact points (Ericson,
// Real-Time Collision Detection, §4.4 and §5.2; Box2D's b2CollidePolygons).
// For convex shapes the smallest face-normal overlap is the exact
// penetration depth, because those normals are the face normals of the
// Minkowski difference.
//
// # Concurrency and cost
//
// The package is stateless: every function is pure, allocates nothing and is
// safe for concurrent use. Dispatch is a switch over the kind pair; routines
// exist only for pairs in canonical kind order and the mirrored pairs swap
// their arguments and flip the normal.
package narrowphase
