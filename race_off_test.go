//go:build !race

package collide_test

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
