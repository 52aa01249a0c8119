package narrowphase_test

import (
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestCompositeCollideFlipBug: Collide(b, a) of a pair with a compound or
// chain was not Collide(a, b) flipped when two part pairs tied for the
// deepest: the deepest pair was the first found, and CollideParts visits
// the parts of its first shape in the outer loop, so the two orders met
// the tied pairs in different orders. Compound A has unit boxes at x = 0
// (part 0) and x = 10 (part 1); compound B the same boxes the other way
// round, placed at (0.5, 1.5): A's part 0 overlaps B's part 1 and A's part
// 1 B's part 0, both by 0.5 along +Y. Collide(A, B) gave the contact at
// x ≈ 0 and Collide(B, A) the one at x ≈ 10. A compound sinking two parts
// equally into a chain's separate segments did the same (the chain's
// segments were the outer loop one way, the compound's parts the other),
// and so did a compound whose part coincides with a convex shape of the
// same kind (the part pair is an exact twin, with no order of its own, and
// the compound was not put in a fixed order against the convex shape
// either): both orders gave the normal +X. Found by a symmetry sweep of
// composite pairs on a half-unit grid, where equal depths are common.
func TestCompositeCollideFlipBug(t *testing.T) {
	unit, _ := shape.NewOBB(1, 1)
	a, _ := shape.NewCompound([]shape.Part{{Shape: unit}, {Shape: unit, Offset: shape.Transform{Pos: shape.V(10, 0)}}})
	b, _ := shape.NewCompound([]shape.Part{{Shape: unit, Offset: shape.Transform{Pos: shape.V(10, 0)}}, {Shape: unit}})

	small, _ := shape.NewOBB(0.4, 0.4)
	feet, _ := shape.NewCompound([]shape.Part{{Shape: small, Offset: shape.Transform{Pos: shape.V(1.5, 0)}}, {Shape: small, Offset: shape.Transform{Pos: shape.V(-1.5, 0)}}})
	ground, _ := shape.NewChain([]shape.Vec2{shape.V(-3, 0), shape.V(-2, 0), shape.V(-1, 0), shape.V(0, 0.5), shape.V(1, 0), shape.V(2, 0), shape.V(3, 0)}, false)

	one, _ := shape.NewCompound([]shape.Part{{Shape: unit}})

	for _, c := range []struct {
		name string
		a    shape.Shape
		ta   shape.Transform
		b    shape.Shape
		tb   shape.Transform
	}{
		{"compound-compound", a, shape.Identity, b, shape.Transform{Pos: shape.V(0.5, 1.5)}},
		{"compound-chain", feet, shape.Transform{Pos: shape.V(0, 0.25)}, ground, shape.Identity},
		{"compound-obb twin part", one, shape.Identity, unit, shape.Identity},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, ok := narrowphase.Collide(c.a, c.ta, c.b, c.tb)
			mb, okb := narrowphase.Collide(c.b, c.tb, c.a, c.ta)
			if !ok || !okb {
				t.Fatalf("Collide = %v, reversed %v; want both in contact", ok, okb)
			}
			if mb.Flip() != m {
				t.Errorf("Collide(b, a) flipped = %+v, want Collide(a, b) = %+v", mb.Flip(), m)
			}
		})
	}
}
