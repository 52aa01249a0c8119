package shape_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestDecomposePinchedRing replays a grid star of unit 0.9 placed at 1e9
// (TestHunt13DecomposeExact, seed 901011) whose vertex (2, 6), in grid
// units, lies exactly on the line of the edge from (4, 7) to (0, 5) before
// rounding: after rounding it lies a fraction of a rounding step inside.
// A cut along that edge left a ring in which the vertex was reflex and the
// bisector of its wedge left through no edge (it starts on one, to
// rounding), so the cuts failed and the diagonals gave 8 pieces where the
// bound is 7. The ring now splits at the pinch (pinchEdge, pinch): 6
// pieces. The hunt's exact oracles check the pieces and the bound.
func TestDecomposePinchedRing(t *testing.T) {
	in := []shape.Vec2{shape.Vec2{X: 1.0000000044791191e+09, Y: 1.0000000026874714e+09}, shape.Vec2{X: 1.0000000026874714e+09, Y: 1.0000000053749429e+09}, shape.Vec2{X: 1.0000000033593392e+09, Y: 1.000000004703075e+09}, shape.Vec2{X: 1.0000000053749429e+09, Y: 1.0000000026874714e+09}, shape.Vec2{X: 1.0000000053749429e+09, Y: 1.0000000044791191e+09}, shape.Vec2{X: 1.0000000044791191e+09, Y: 1.0000000053749429e+09}, shape.Vec2{X: 1.0000000053749429e+09, Y: 1.0000000053749429e+09}, shape.Vec2{X: 1.0000000035832952e+09, Y: 1.0000000062707667e+09}, shape.Vec2{X: 1e+09, Y: 1.0000000044791191e+09}, shape.Vec2{X: 1e+09, Y: 1.0000000035832952e+09}, shape.Vec2{X: 1e+09, Y: 1.0000000026874714e+09}, shape.Vec2{X: 1e+09, Y: 1.0000000008958238e+09}, shape.Vec2{X: 1e+09, Y: 1.0000000008958238e+09}, shape.Vec2{X: 1e+09, Y: 1.0000000008958238e+09}, shape.Vec2{X: 1.0000000008958238e+09, Y: 1.0000000026874714e+09}, shape.Vec2{X: 1.0000000011197797e+09, Y: 1.0000000033593392e+09}, shape.Vec2{X: 1.0000000017916477e+09, Y: 1.0000000053749429e+09}, shape.Vec2{X: 1.0000000026874714e+09, Y: 1.0000000008958238e+09}, shape.Vec2{X: 1.0000000026874714e+09, Y: 1.0000000017916477e+09}}
	r := rand.New(rand.NewPCG(9, 11))
	h13Check(t, r, h13Case{name: "grid-star/scale=0.8958238119067209/off=1e+09/turn=false", in: in, base: in}, map[string]int{})
	pieces, err := shape.Decompose(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 6 {
		t.Errorf("%d pieces, want 6 (r + 1 for the outline's 5 reflex vertices)", len(pieces))
	}
}
