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

// TestDecomposeInvertedPieceBug: a turned comb (scale 1e6, moved by 1e6)
// whose slot wall runs through vertices 7, 0, 1 and 2, which turn by a sine
// of 1e-10 to 1e-9 (far above cleaning's 1e-12), on a line that also
// passes the far vertex 3 at a sine of 1.3e-9. The cut from vertex 0 to
// vertex 3 leaves the piece 0, 1, 2, 3, a sliver whose tip 3 turns back by
// a sine of 1.6e-16, below the 1e-12 that cleaning calls straight. Cleaning
// dropped that tip as a fold, which left the clockwise triangle 0, 1, 2: a
// "reflex" vertex no cut can mend, and Decompose refused the simple outline
// with ErrCollinear (vertex 1 "too close to straight to be cut").
func TestDecomposeInvertedPieceBug(t *testing.T) {
	h13Regression(t, []shape.Vec2{
		{X: 5.377503409625396e+06, Y: 5.6960827278889045e+06},
		{X: 5.377503272828477e+06, Y: 5.696082518636416e+06},
		{X: 5.377502999234642e+06, Y: 5.696082100131442e+06},
		{X: 2.0943758866055782e+06, Y: 674020.7342853476},
		{X: 1.0592016494294655e+07, Y: 1.1844977367563877e+07},
		{X: 6.471878885840221e+06, Y: 7.370102834416791e+06},
		{X: 2.8664737005092143e+06, Y: 7.337645946268253e+06},
		{X: 5.377503546422313e+06, Y: 5.6960829371413905e+06},
	}, true)
}

// TestDecomposeCutThroughVertexBug: a turned polyomino outline at the
// origin, every corner turning by a sine of 0.24 or more, whose vertices 6,
// 7, 4 and 1 lie on one line of the unturned grid, so that after turning
// vertex 4 is 2.8e-16 (as a sine) off the segment from 7 to 1. The cut from
// the reflex vertex 7 to vertex 1 touches no edge exactly, so it was taken;
// cleaning then dropped 7 from its half as straight, leaving the edge 1→6
// within rounding of vertex 4: a half pinched at 4, whose vertex 4 no cut
// could mend, and Decompose refused the simple outline with ErrCollinear.
func TestDecomposeCutThroughVertexBug(t *testing.T) {
	h13Regression(t, []shape.Vec2{
		{X: 4.638774798157773, Y: 3.934687836662053},
		{X: 3.267512937416605, Y: 4.280579307034868},
		{X: 1.5503596063026213, Y: 3.255208916666514},
		{X: 0.8199542395416739, Y: 2.5278795550930893},
		{X: 2.2421425470482514, Y: 5.997732638148851},
		{X: -1.0130663696182634, Y: 7.548092244451473},
		{X: 1.2167721566798977, Y: 7.714885969262834},
		{X: 1.7294573518640748, Y: 6.856309303705843},
	}, true)
}
