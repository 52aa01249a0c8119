package engine

import (
	"errors"

	"github.com/collide-go/collide/shape"
)

// Errors returned by World methods, wrapped with details; test with errors.Is.
var (
	// ErrUnknownBody reports an id that names no live body: never issued,
	// or removed (ids carry a generation, so a reused slot refuses old ids).
	ErrUnknownBody = errors.New("engine: unknown or removed body id")
	// ErrInvalidShape reports a shape that did not come from a constructor.
	ErrInvalidShape = errors.New("engine: invalid shape (build it with a shape constructor)")
	// ErrNotFinite reports a NaN or infinite position, angle, delta or
	// distance, or a box that overflows. It is shape.ErrNotFinite itself, so
	// one errors.Is test serves whichever package raised it.
	ErrNotFinite = shape.ErrNotFinite
	// ErrInvalidArgument reports an argument outside its domain, such as a
	// zero ray direction, a negative distance or an unknown body kind.
	ErrInvalidArgument = errors.New("engine: invalid argument")
	// ErrTooManyBodies reports that the world cannot hold another body.
	ErrTooManyBodies = errors.New("engine: too many bodies")
)
