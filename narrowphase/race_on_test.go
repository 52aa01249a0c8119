//go:build race

package narrowphase_test

// raceEnabled reports whether the race detector is on.
const raceEnabled = true
