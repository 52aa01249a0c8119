package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// boxSAT is the outcome of the box–box separating axis test. When aligned,
// hb holds B's half extents along A's axes and ox, oy the overlaps of
// alignedCore; otherwise sat holds the general result.
type boxSAT struct {
	aligned bool
	hb      shape.Vec2
	ox, oy  float64
	sat     satResult
}

// boxBoxSAT runs the separating axis test for a box of half extents ha at the
// origin and a box of half extents hb placed by rel, on the four box axes.
//
// When the relative rotation is exactly a multiple of 90° (its sine or
// cosine is exactly zero, as it is for two boxes with the same angle) the
// boxes are aligned and the test reduces to two intervals. The shortcut is
// taken only when exact: treating a rotation of even 1e-12 as aligned drops
// hb·1e-12 from the projection radii, which on a long thin box is a missed
// contact or a wrong depth. Otherwise the projection radius of a box
// on a unit axis u is hx|u·x| + hy|u·y| (Ericson, RTCD §4.4.1); the overlap on
// each axis covers both of its opposite face normals at once.
func boxBoxSAT(ha, hb shape.Vec2, rel shape.Transform) (boxSAT, bool) {
	c, s := rel.Rot.Cos(), rel.Rot.Sin()
	ac, as := math.Abs(c), math.Abs(s)
	p := rel.Pos
	if as == 0 || ac == 0 {
		h := hb
		if ac == 0 {
			h = shape.Vec2{X: hb.Y, Y: hb.X}
		}
		ox, oy, ok := alignedCore(ha, h, p)
		return boxSAT{aligned: true, hb: h, ox: ox, oy: oy}, ok
	}
	// A's axes X and Y.
	ox := (ha.X + (float64(hb.X*ac) + float64(hb.Y*as))) - math.Abs(p.X)
	if !(ox > 0) {
		return boxSAT{}, false
	}
	oy := (ha.Y + (float64(hb.X*as) + float64(hb.Y*ac))) - math.Abs(p.Y)
	if !(oy > 0) {
		return boxSAT{}, false
	}
	// B's axes u = (c, s) and v = (-s, c).
	du := float64(p.X*c) + float64(p.Y*s)
	ou := (hb.X + (float64(ha.X*ac) + float64(ha.Y*as))) - math.Abs(du)
	if !(ou > 0) {
		return boxSAT{}, false
	}
	dv := float64(p.Y*c) - float64(p.X*s)
	ov := (hb.Y + (float64(ha.X*as) + float64(ha.Y*ac))) - math.Abs(dv)
	if !(ov > 0) {
		return boxSAT{}, false
	}
	// Face indices follow shape.Shape.Corners: 0 bottom, 1 right, 2 top,
	// 3 left. A's face looks towards B, B's face towards A.
	depthA, faceA := ox, 1
	if p.X < 0 {
		faceA = 3
	}
	if oy < ox {
		depthA, faceA = oy, 2
		if p.Y < 0 {
			faceA = 0
		}
	}
	depthB, faceB := ou, 3
	if du < 0 {
		faceB = 1
	}
	if ov < ou {
		depthB, faceB = ov, 0
		if dv < 0 {
			faceB = 2
		}
	}
	return boxSAT{sat: pickReference(depthA, faceA, depthB, faceB)}, true
}

// depth returns the depth of the overlap r found, as the manifold has it.
func (r boxSAT) depth() float64 {
	if r.aligned {
		return min(r.ox, r.oy)
	}
	return r.sat.depth
}

// collideBoxes collides box a (half extents ha) with box b (half extents hb)
// placed in a's frame by rel; the manifold, in a's frame, goes to m.
func collideBoxes(m *Manifold, ha, hb shape.Vec2, rel shape.Transform) bool {
	r, ok := boxBoxSAT(ha, hb, rel)
	if !ok {
		return false
	}
	if r.aligned {
		alignedManifold(m, ha, r.hb, rel.Pos, r.ox, r.oy)
		return true
	}
	var ca, cb [4]shape.Vec2
	boxCornersInto(&ca, ha)
	boxCornersInto(&cb, hb)
	clipHulls(m, &hull{ca[:], boxNormals[:]}, &hull{cb[:], boxNormals[:]}, rel, r.sat)
	return true
}

// boxCornersInto writes the corners of a box of half extents h into c in
// the order of [shape.Shape.Corners], a corner at a time (see
// cornersInto).
func boxCornersInto(c *[4]shape.Vec2, h shape.Vec2) {
	c[0], c[1] = shape.Vec2{X: -h.X, Y: -h.Y}, shape.Vec2{X: h.X, Y: -h.Y}
	c[2], c[3] = shape.Vec2{X: h.X, Y: h.Y}, shape.Vec2{X: -h.X, Y: h.Y}
}

// obbOBB collides two oriented boxes in A's frame.
func obbOBB(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, m *Manifold) (bool, float64) {
	ha, hb := a.HalfExtents(), b.HalfExtents()
	if !collideBoxes(m, ha, hb, ta.MulInv(tb)) {
		return false, 0
	}
	m.toWorld(ta)
	return true, boxScale(ta.Pos, ha, tb.Pos, hb)
}

func obbOBBOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	r, ok := boxBoxSAT(a.HalfExtents(), b.HalfExtents(), ta.MulInv(tb))
	return r.depth(), ok
}
