package shape

import "errors"

// Errors returned by the constructors, wrapped with the details of the
// offending value. Test for them with [errors.Is].
var (
	// ErrNotFinite reports a NaN or infinite number.
	ErrNotFinite = errors.New("shape: number is NaN or infinite")
	// ErrTooLarge reports a size or coordinate beyond MaxMagnitude.
	ErrTooLarge = errors.New("shape: number too large")
	// ErrNonPositiveSize reports a radius or half extent that is zero or negative.
	ErrNonPositiveSize = errors.New("shape: size must be positive")
	// ErrTooFewVertices reports fewer than three distinct vertices.
	ErrTooFewVertices = errors.New("shape: polygon needs at least 3 distinct vertices")
	// ErrTooManyVertices reports more than MaxPolygonVertices vertices after cleanup.
	ErrTooManyVertices = errors.New("shape: polygon has too many vertices")
	// ErrCollinear reports points that all lie on one line, enclosing no area.
	ErrCollinear = errors.New("shape: polygon vertices are collinear")
	// ErrSelfIntersecting reports an outline whose edges cross or fold back.
	ErrSelfIntersecting = errors.New("shape: polygon is self-intersecting")
	// ErrNonConvex reports a simple outline with a reflex vertex.
	ErrNonConvex = errors.New("shape: polygon is not convex")
)
