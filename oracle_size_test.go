package collide_test

import "testing"

// oracleShort reports whether the longest random oracles (a minute or
// more each at full size) run at their -short size: under -short, and
// under the race detector, which makes them several times slower and
// finds nothing in them that the tests of the parallel step and of
// concurrent queries do not. .ci/run runs them at full size without it.
func oracleShort() bool { return testing.Short() || raceEnabled }
