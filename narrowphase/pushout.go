package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// pushOutSlop is PushOut's first margin beyond the penetration depth,
// relative to the size of the coordinates involved: 4 eps is about two ulps
// of the largest of them. Moving by exactly the depth makes the shapes touch
// in exact arithmetic, and the rounding of the move and of the next
// Collide's frame change can leave them a few ulps deep, so a margin of
// that order clears most pairs at the first try.
const pushOutSlop = 4 * 0x1p-52

// pushOutTries bounds the doublings of the margin: 64 of them grow it to
// about 7,000 times the scale of the coordinates, which clears any pair of
// finite shapes.
const pushOutTries = 64

// PushOut returns the translation to add to a's position that ends an
// overlap of a (placed by ta) and b (placed by tb), and true; or the zero
// vector and false when they do not overlap.
//
// The translation is along the negated contact normal (from b towards a),
// of length Depth plus a margin: the exact MTV leaves the shapes touching in
// exact arithmetic, and in floating point it leaves them overlapping by a
// few ulps in about a third of the cases measured, so the next Collide
// reports the contact again. PushOut checks its answer with Collide and
// doubles the margin, from about two ulps of the coordinates' magnitude,
// until a is clear: afterwards Collide(a, ta moved by the result, b, tb)
// reports no contact. The margin stays within a few ulps of the coordinates
// in practice; it is bounded by 64 doublings, which clear any finite pair.
// PushOut allocates nothing.
func PushOut(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (shape.Vec2, bool) {
	m, ok := Collide(a, ta, b, tb)
	if !ok {
		return shape.Vec2{}, false
	}
	dir := m.Normal.Neg()
	scale := math.Abs(ta.Pos.X) + math.Abs(ta.Pos.Y) + math.Abs(tb.Pos.X) + math.Abs(tb.Pos.Y) +
		a.BoundingRadius() + b.BoundingRadius() + m.Depth
	slop := math.Max(float64(pushOutSlop*scale), math.SmallestNonzeroFloat64)
	var d shape.Vec2
	for range pushOutTries {
		d = dir.Scale(m.Depth + slop)
		moved := ta
		moved.Pos = ta.Pos.Add(d)
		if _, hit := Collide(a, moved, b, tb); !hit {
			break
		}
		slop *= 2
	}
	return d, true
}
