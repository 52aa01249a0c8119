//go:build !race

package broadphase

const raceEnabled = false
