package narrowphase_test

import "testing"

// oracleShort reports whether the long random oracles that do not count
// their cases with exCases run at their -short size: under -short, and
// under the race detector, which makes them several times slower (.ci/run
// runs them at full size without it).
func oracleShort() bool { return testing.Short() || raceEnabled }
