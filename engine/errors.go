package engine

import "errors"

// Errors returned by World methods, wrapped with details; test with errors.Is.
var (
	// ErrUnknownBody reports an id that names no live body: never issued,
	// or removed (ids carry a generation, so a reused slot refuses old ids).
	ErrUnknownBody = errors.New("engine: unknown or removed body id")
	// ErrInvalidShape reports a shape that did not come from a constructor.
	ErrInvalidShape = errors.New("engine: invalid shape (build it with a shape constructor)")
	// ErrNotFinite reports a NaN or infinite position, angle, delta or distance.
	ErrNotFinite = errors.New("engine: number is NaN or infinite")
	// ErrInvalidArgument reports an argument outside its domain, such as a
	// zero ray direction, a negative distance or an unknown body kind.
	ErrInvalidArgument = errors.New("engine: invalid argument")
	// ErrTooManyBodies reports that the world cannot hold another body.
	ErrTooManyBodies = errors.New("engine: too many bodies")
)
