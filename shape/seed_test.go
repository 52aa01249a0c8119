package shape_test

import (
	"math/rand/v2"
	"os"
	"strconv"
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
