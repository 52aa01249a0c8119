package narrowphase_test

import (
	"math"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// npFuzzShape builds a shape from fuzz input. Kind k%7 selects circle, AABB,
// OBB, polygon, the invalid zero Shape, capsule or segment. Polygons are
// the convex hull of the four points pts and (s1, s2); capsules and
// segments run from pts[0] to pts[1], a capsule with radius s1. It reports
// false when the constructor rejects the input.
func npFuzzShape(k uint8, s1, s2 float64, pts [4]shape.Vec2) (shape.Shape, bool) {
	var s shape.Shape
	var err error
	switch k % 7 {
	case 0:
		s, err = shape.NewOffsetCircle(xy(s2, 0), s1)
	case 1:
		s, err = shape.NewAABB(s1, s2)
	case 2:
		s, err = shape.NewOBB(s1, s2)
	case 3:
		s, err = shape.ConvexHull([]shape.Vec2{pts[0], pts[1], pts[2], pts[3], xy(s1, s2)})
	case 4:
		return shape.Shape{}, true
	case 5:
		s, err = shape.NewCapsule(pts[0], pts[1], s1)
	case 6:
		s, err = shape.NewSegment(pts[0], pts[1])
	}
	return s, err == nil
}

// npSane reports whether a fuzzed pair is in the range where the geometric
// properties can be checked to a relative tolerance: coordinates within 1e7,
// and no sliver whose size is below 1e-4 of the scene (its edge normals
// would be ill-conditioned for every implementation, the oracle's too).
func npSane(ps ...npShape) bool {
	scale := npExtent(ps...)
	if scale > 1e7 {
		return false
	}
	for _, p := range ps {
		if p.disc {
			if p.r < 1e-4*scale {
				return false
			}
			continue
		}
		// Width: the smallest extent of the polygon across its edge normals.
		w := math.Inf(1)
		for _, n := range p.normals {
			w = math.Min(w, p.maxAlong(n)-p.minAlong(n))
		}
		if w < 1e-4*scale {
			return false
		}
		for i, a := range p.verts {
			b := p.verts[(i+1)%len(p.verts)]
			if math.Hypot(b.X-a.X, b.Y-a.Y) < 1e-4*scale {
				return false
			}
		}
	}
	return true
}

// FuzzCollide feeds arbitrary kinds, sizes, placements and polygon vertices
// to Collide and Overlap. Whatever the input, nothing panics and invalid
// shapes never collide. For sane inputs: both orders agree (same depth,
// negated normal or an equally deep tie), Overlap agrees, outputs are
// finite, the normal is unit, and moving B by Normal*Depth*1.001 separates.
func FuzzCollide(f *testing.F) {
	f.Add(uint8(0), uint8(3), 1.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 1.5, 0.2, 0.3, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0)
	f.Add(uint8(1), uint8(2), 1.0, 0.5, 0.5, 0.25, 0.0, 0.0, 1.0, 1.0, 0.5, 0.7, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0)
	f.Add(uint8(3), uint8(3), 2.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.5, 1.0, 1.0, -0.5, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0, 0.5, 0.5)
	f.Add(uint8(0), uint8(0), 1.0, 0.0, 1.0, 0.0, 3.0, 4.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(4), uint8(2), 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0)
	f.Fuzz(func(t *testing.T, ka, kb uint8, sa1, sa2, sb1, sb2, ax, ay, aang, bx, by, bang,
		p0x, p0y, p1x, p1y, p2x, p2y, p3x, p3y float64) {
		pts := [4]shape.Vec2{xy(p0x, p0y), xy(p1x, p1y), xy(p2x, p2y), xy(p3x, p3y)}
		// B's polygon is A's point set turned a quarter and mirrored, so
		// that the two differ.
		ptsB := [4]shape.Vec2{xy(-p0y, p0x), xy(p1y, p1x), xy(-p2y, -p2x), xy(p3y, -p3x)}
		a, okA := npFuzzShape(ka, sa1, sa2, pts)
		b, okB := npFuzzShape(kb, sb1, sb2, ptsB)
		if !okA || !okB {
			return
		}
		ta, tb := npAt(ax, ay, aang), npAt(bx, by, bang)
		if ta.Validate() != nil || tb.Validate() != nil {
			return
		}
		m, hit := narrowphase.Collide(a, ta, b, tb)
		mr, hitr := narrowphase.Collide(b, tb, a, ta)
		ov := narrowphase.Overlap(a, ta, b, tb)
		ovr := narrowphase.Overlap(b, tb, a, ta)
		if !a.Valid() || !b.Valid() {
			if hit || hitr || ov || ovr {
				t.Fatalf("Collide(%s, %s) with an invalid shape hits", a.Kind(), b.Kind())
			}
			return
		}
		pa, pb := npPlace(a, ta), npPlace(b, tb)
		if !npSane(pa, pb) {
			return
		}
		scale := npExtent(pa, pb)
		tol := npRelTol * scale
		desc := npDescribe(a, ta, b, tb)
		if ov != hit || ovr != hitr {
			t.Fatalf("Overlap = %v/%v, Collide hit = %v/%v (both orders)\n\t%s", ov, ovr, hit, hitr, desc)
		}
		want := exactOracle(pa, pb)
		if hit != hitr {
			if math.Abs(want.Depth) > tol {
				t.Fatalf("%s hit = %v, %s hit = %v (oracle depth %.17g)\n\t%s",
					npCall(a, b), hit, npCall(b, a), hitr, want.Depth, desc)
			}
			return
		}
		if !hit {
			if want.Depth > tol {
				t.Fatalf("%s = no hit, oracle depth %.17g\n\t%s", npCall(a, b), want.Depth, desc)
			}
			return
		}
		if !npCheckManifold(t, npCall(a, b), m, pa, pb) || !npCheckManifold(t, npCall(b, a), mr, pb, pa) {
			t.Fatalf("pair:\n\t%s", desc)
		}
		if math.Abs(m.Depth-mr.Depth) > tol {
			t.Fatalf("%s.Depth = %.17g, %s.Depth = %.17g\n\t%s", npCall(a, b), m.Depth, npCall(b, a), mr.Depth, desc)
		}
		if math.Abs(m.Depth-want.Depth) > tol {
			t.Fatalf("%s.Depth = %.17g, oracle %.17g\n\t%s", npCall(a, b), m.Depth, want.Depth, desc)
		}
		if math.Hypot(m.Normal.X+mr.Normal.X, m.Normal.Y+mr.Normal.Y) > 1e-9 &&
			math.Abs(npPush(pa, pb, mr.Normal.Neg())-m.Depth) > tol {
			t.Fatalf("%s.Normal = %v, want %v negated\n\t%s", npCall(b, a), mr.Normal, m.Normal, desc)
		}
		if m.Depth > 1e-6*scale {
			far := npMoved(tb, m.Normal.Scale(m.Depth*1.001))
			if _, hit := narrowphase.Collide(a, ta, b, far); hit {
				t.Fatalf("%s after moving B by Normal*Depth*1.001 still hits\n\t%s", npCall(a, b), desc)
			}
			far = npMoved(ta, mr.Normal.Scale(mr.Depth*1.001))
			if _, hit := narrowphase.Collide(b, tb, a, far); hit {
				t.Fatalf("%s after moving A by Normal*Depth*1.001 still hits\n\t%s", npCall(b, a), desc)
			}
		}
	})
}
