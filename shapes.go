package collide

import (
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// NewCircle returns a circle of radius r centred on its body's origin.
func NewCircle(r float64) (Shape, error) { return shape.NewCircle(r) }

// NewOffsetCircle returns a circle of radius r centred on the local point c.
func NewOffsetCircle(c Vec2, r float64) (Shape, error) { return shape.NewOffsetCircle(c, r) }

// NewAABB returns a box of half width hw and half height hh that never
// rotates: its body's angle is ignored.
func NewAABB(hw, hh float64) (Shape, error) { return shape.NewAABB(hw, hh) }

// NewOBB returns a box of half width hw and half height hh that turns with
// its body.
func NewOBB(hw, hh float64) (Shape, error) { return shape.NewOBB(hw, hh) }

// NewPolygon returns the convex polygon with the given local vertices; see
// shape.NewPolygon for the cleanup it does and the errors it returns.
func NewPolygon(verts []Vec2) (Shape, error) { return shape.NewPolygon(verts) }

// ConvexHull returns the convex polygon enclosing the points.
func ConvexHull(points []Vec2) (Shape, error) { return shape.ConvexHull(points) }

// SimplifyHull returns a convex polygon of at most maxVertices vertices
// that encloses every point, for clouds whose hull has more than
// MaxPolygonVertices; see shape.SimplifyHull.
func SimplifyHull(points []Vec2, maxVertices int) (Shape, error) {
	return shape.SimplifyHull(points, maxVertices)
}

// NewTransform returns the transform that rotates by angle radians
// (counter-clockwise) and then translates by pos.
func NewTransform(pos Vec2, angle float64) Transform { return shape.NewTransform(pos, angle) }

// Collide reports whether shapes a and b, placed by ta and tb, overlap, and
// if so how: the manifold's normal points from a to b.
func Collide(a Shape, ta Transform, b Shape, tb Transform) (Manifold, bool) {
	return narrowphase.Collide(a, ta, b, tb)
}

// SinCos returns the sine and cosine of x with the same bits on every
// architecture, unlike math.Sincos; rotations are built with it.
func SinCos(x float64) (sin, cos float64) { return shape.SinCos(x) }

// PushOut returns the translation to add to a's position that ends an
// overlap of a and b, checked with Collide to leave no contact (the plain
// MTV can leave a few ulps of overlap), and true; or zero and false when
// they do not overlap. See narrowphase.PushOut.
func PushOut(a Shape, ta Transform, b Shape, tb Transform) (Vec2, bool) {
	return narrowphase.PushOut(a, ta, b, tb)
}

// Cast reports when shape a, placed by ta and moved by delta, first touches
// shape b, placed by tb: the exact fraction of the motion, the point, and
// the normal from b toward a. See narrowphase.Cast.
func Cast(a Shape, ta Transform, delta Vec2, b Shape, tb Transform) (CastHit, bool) {
	return narrowphase.Cast(a, ta, delta, b, tb)
}

// Sweep is a shape's motion over a step, position and angle at t = 0 and
// t = 1, for TimeOfImpact.
type Sweep = narrowphase.Sweep

// TimeOfImpact returns the first time in [0, 1] at which two shapes moving
// along their sweeps, rotating too, touch. See narrowphase.TimeOfImpact.
func TimeOfImpact(a Shape, sa Sweep, b Shape, sb Sweep) (float64, bool) {
	return narrowphase.TimeOfImpact(a, sa, b, sb)
}

// Decompose returns convex pieces (counter-clockwise, each at most
// MaxPolygonVertices vertices, each accepted by NewPolygon) whose union is
// the simple polygon outline; see shape.Decompose.
func Decompose(outline []Vec2) ([][]Vec2, error) { return shape.Decompose(outline) }

// NewCapsule returns the capsule of every point within r of the segment
// p0–p1 (local coordinates), the usual shape of a character; see
// shape.NewCapsule.
func NewCapsule(p0, p1 Vec2, r float64) (Shape, error) { return shape.NewCapsule(p0, p1, r) }

// NewSegment returns the two-sided line segment p0–p1 of zero thickness, a
// wall; two segments never collide. See shape.NewSegment.
func NewSegment(p0, p1 Vec2) (Shape, error) { return shape.NewSegment(p0, p1) }

// Part is one convex piece of a compound shape, placed by its offset in the
// body's frame.
type Part = shape.Part

// NewCompound returns a shape of several convex parts that turn with their
// body; the World reports one contact per overlapping part pair. See
// shape.NewCompound.
func NewCompound(parts []Part) (Shape, error) { return shape.NewCompound(parts) }

// NewConcavePolygon returns the compound of the convex pieces Decompose
// cuts the simple outline into. See shape.NewConcavePolygon.
func NewConcavePolygon(outline []Vec2) (Shape, error) { return shape.NewConcavePolygon(outline) }

// NewChain returns a polyline of two-sided segments through points,
// closed back to the first when closed is set: level geometry, with
// contacts per segment and no ghost collisions at internal vertices. See
// shape.NewChain.
func NewChain(points []Vec2, closed bool) (Shape, error) { return shape.NewChain(points, closed) }
