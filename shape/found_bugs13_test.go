package shape_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// h13Regression checks one outline with TestHunt13DecomposeExact's oracles
// after confirming, exactly, the verdict it is meant to have.
func h13Regression(t *testing.T, in []shape.Vec2, simple bool) {
	t.Helper()
	v := h13Classify(in)
	if v.simple != simple || v.ambiguous || v.degen {
		t.Fatalf("the outline's exact verdict is simple=%v ambiguous=%v (%s) degenerate=%v, want simple=%v, unambiguous",
			v.simple, v.ambiguous, v.why, v.degen, simple)
	}
	h13Check(t, rand.New(rand.NewPCG(13, 13)), h13Case{name: t.Name(), in: in, base: in}, map[string]int{})
}

// TestDecomposeSubUlpExitBug: a dart 3.4e-6 across at (1e6, −1e6), whose
// reflex vertex A has a one-ulp edge A→B and passes within 0.01 ulp of the
// next edge B→C. The extension of the edge D→A leaves the polygon through
// B→C a hundredth of an ulp beyond A, but the exit point rounds to behind
// A, so the exit was missed, no vertex counted as in A's wedge, and
// Decompose refused the simple outline as "too close to straight to be
// cut". The diagonal A–C splits it into two triangles.
func TestDecomposeSubUlpExitBug(t *testing.T) {
	h13Regression(t, []shape.Vec2{
		{X: 1.0000000000018646e+06, Y: -1.0000000000005722e+06}, // A
		{X: 1.0000000000018646e+06, Y: -1.0000000000005723e+06}, // B, an ulp below A
		{X: 1.0000000000018778e+06, Y: -999999.9999991313},      // C
		{X: 1.0000000000013245e+06, Y: -1.0000000000024982e+06}, // D
	}, true)
}

// TestDecomposeNoPiecesBug: a triangle two ulps of its coordinates across
// at (−3e9, 7e8). NewPolygon refuses it as thinner than the rounding of its
// coordinates (its centroid rounds onto an edge), so Decompose left its one
// piece out as a sliver and returned no pieces and no error: a
// decomposition whose union is empty, and NewConcavePolygon then failed
// with "a compound needs at least one part". The right answer is
// NewPolygon's refusal, ErrCollinear.
func TestDecomposeNoPiecesBug(t *testing.T) {
	in := []shape.Vec2{
		{X: -3.0000000000000005e+09, Y: 7.000000000000001e+08},
		{X: -2.9999999999999995e+09, Y: 6.999999999999998e+08},
		{X: -3e+09, Y: 7e+08},
	}
	if _, err := shape.NewPolygon(in); !errors.Is(err, shape.ErrCollinear) {
		t.Fatalf("NewPolygon(in) error = %v, want ErrCollinear", err)
	}
	pieces, err := shape.Decompose(in)
	if err == nil && len(pieces) == 0 {
		t.Fatalf("Decompose(in) = no pieces, nil error; want ErrCollinear")
	}
	h13Regression(t, in, true)
}
