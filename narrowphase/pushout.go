package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// pushOutSlop is PushOut's first margin beyond the penetration depth, in
// units of the pair's scale (see PushOut): 4 machine epsilons, which is 4 to
// 8 ulps of the scale. Moving by exactly the depth makes the shapes touch in
// exact arithmetic; the rounding of the move and of the next Collide's
// change of frame (a subtraction of positions, a rotation, a projection)
// costs a few ulps of the largest coordinate. Measured over random pairs, a
// margin of 2 epsilons always cleared, so 4 clears at the first try with
// room to spare.
const pushOutSlop = 4 * 0x1p-52

// pushOutTries bounds the number of Collide checks. The margin doubles after
// each failed check, so the last one tries 2^63 times the first: more than
// 8,000 times the pair's scale, far beyond the distance at which the shapes'
// bounding discs are apart.
const pushOutTries = 64

// PushOut returns the translation to add to a's position that ends the
// overlap of shape a placed by ta and shape b placed by tb, and true; or the
// zero vector and false when they do not overlap (Collide reports no
// contact).
//
// The translation points along the negated contact normal (from b towards
// a) and, for two convex shapes, its length is the penetration Depth plus
// a small margin. For a compound or a chain, Normal and Depth are those of
// the deepest part pair, and other parts may lie in the way along −Normal
// (a box wedged in the V of a chain): the margin then keeps doubling until
// no part touches, so the translation clears every part but can be far
// longer than Depth, up to about twice the distance along −Normal at which
// the last part clears. World.Depenetrate, in the root package, looks for
// a short way out of several parts and bodies at once. Moving a
// by the exact MTV, −Normal·Depth, makes the shapes touch in exact
// arithmetic, but in floating point the move and the next Collide's change
// of frame round, and leave the pair a few ulps deep in a large share of
// cases (measured over random pairs of every kind: about 30% at coordinates
// near 1 and 50% at 300 and beyond), so the next Collide reports the contact
// again. PushOut checks its answer instead of hoping: it tries Depth plus a
// margin of 4·ε·s, where ε = 2⁻⁵² is the machine epsilon and the scale s is
// the largest coordinate of the two positions plus the larger bounding
// radius plus Depth (4·ε·s is 4 to 8 ulps of s); it moves a by that, calls
// Collide, and doubles the margin until Collide reports no contact. So
// Collide(a, ta moved by the result, b, tb) reports no contact, and the
// result exceeds the MTV by a few ulps of s. In measurements a margin of
// 2·ε·s always sufficed, so the first try clears; only below the normal
// float64 range (s under about 1e-307), where rounding is absolute and the
// margin starts at the smallest positive float64, does it need a doubling.
//
// The doubling is bounded (64 checks, the last with a margin above 8,000·s,
// far past the distance at which the shapes' bounding discs part), and a
// margin or translation that would overflow is never tried. Should the
// checks run out, or the next margin overflow, PushOut returns its last
// tried translation (finite, along −Normal; the zero vector if even the
// first would overflow) with true. For valid shapes and finite transforms
// this cannot happen: the margin passes 3·s, where the bounding discs are
// apart by far more than any rounding, within 52 doublings; and where s is
// so large that such a translation would overflow, the first margin alone
// (above 1e290) dwarfs every valid shape (at most 1e150). PushOut never
// returns NaN for finite input, never loops forever, and allocates nothing.
func PushOut(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (delta shape.Vec2, ok bool) {
	m, ok := Collide(a, ta, b, tb)
	if !ok {
		return shape.Vec2{}, false
	}
	dir := m.Normal.Neg()
	// A maximum of magnitudes, not a sum, so that s itself cannot overflow
	// before the radius and the depth are added.
	pos := max(max(math.Abs(ta.Pos.X), math.Abs(ta.Pos.Y)), max(math.Abs(tb.Pos.X), math.Abs(tb.Pos.Y)))
	s := pos + max(a.BoundingRadius(), b.BoundingRadius()) + m.Depth
	// Subnormal scales would round the margin to zero, which never grows.
	slop := max(float64(pushOutSlop*s), math.SmallestNonzeroFloat64)
	for range pushOutTries {
		d := dir.Scale(m.Depth + slop)
		if !d.IsFinite() {
			break
		}
		delta = d
		moved := ta
		moved.Pos = ta.Pos.Add(d)
		if _, hit := collideFloat(a, moved, b, tb); !hit {
			break
		}
		slop *= 2
	}
	return delta, true
}
