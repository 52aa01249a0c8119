package collide_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// randomSeed returns a fresh random seed for a random oracle given none,
// or a fixed one when the environment sets COLLIDE_FIXED_SEEDS (to a
// number, or to anything else for 1). .ci/run sets it, so that a CI run is
// the same run every time; without it, or with a test's own seed flag,
// the oracles hunt on the seeds they are given.
func randomSeed() uint64 {
	v, ok := os.LookupEnv("COLLIDE_FIXED_SEEDS")
	if !ok {
		return rand.Uint64()
	}
	if n, err := strconv.ParseUint(v, 0, 64); err == nil && n != 0 {
		return n
	}
	return 1
}

// oracleSeed returns a random oracle's seed: the value of its seed flag
// (named flagName) if set, else randomSeed's; a failing run logs how to
// replay it.
func oracleSeed(t *testing.T, flagValue uint64, flagName string) uint64 {
	seed := flagValue
	if seed == 0 {
		seed = randomSeed()
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay: go test -run %s -%s %d .", t.Name(), flagName, seed)
		}
	})
	return seed
}
