//go:build race

package view_test

// raceEnabled reports whether the race detector is on: it makes sync.Pool
// drop items at random and adds allocations of its own, so allocation
// counts mean nothing.
const raceEnabled = true
