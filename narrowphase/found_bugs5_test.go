package narrowphase_test

import (
	"math"
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

// TestTinyBoxCapsuleCornerBug: hullCapsule, looking for the nearest
// features of a core that is apart from the hull, counted a core end as in
// front of a face unless it lay behind the face by more than a tolerance
// that had an absolute term, 1e-12, besides the part relative to the
// coordinates. For a box of half size s = 2⁻⁴⁴ (5.7e-14) every end was
// then in front of every face, and the far end of the capsule's core,
// (5s, 0.5s), level with the box's left face and 6s behind it (4s right of
// the box), was taken for a point on that face (its separation, −6s,
// clamped to 0): a touch of the cores, so the depth fell back to the
// radius less the largest separating axis, 0.2385·s along the core's side
// normal, where the exact answer is 0.2·s along the direction from the
// box's corner to the near end. Scaling every number of a pair by a power
// of two scales the exact answer exactly; at s = 1 the answer was right.
// Found by comparing Collide of random pairs with the same pairs scaled by
// 2^k.
func TestTinyBoxCapsuleCornerBug(t *testing.T) {
	for _, e := range []int{0, -30, -44, -60, -200} {
		s := math.Ldexp(1, e)
		box, _ := shape.NewAABB(s, s)
		c, _ := shape.NewCapsule(shape.V(1.6*s, 1.8*s), shape.V(5*s, 0.5*s), 1.2*s)
		// The nearest features: the box's corner (s, s) and the core's end
		// (1.6s, 1.8s), s apart along (0.6, 0.8); the depth is 1.2s − s.
		m, ok := narrowphase.Collide(box, shape.Identity, c, shape.Identity)
		if !ok || math.Abs(m.Depth/s-0.2) > 1e-12 || m.Normal.Sub(shape.V(0.6, 0.8)).Len() > 1e-12 {
			t.Errorf("scale 2^%d: Collide(box, capsule) = %+v, %v; want depth 0.2·s along (0.6, 0.8)", e, m, ok)
		}
	}
}
