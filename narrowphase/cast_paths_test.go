package narrowphase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// TestCastAABBsMatchesMinkowski compares castAABBs with the general path
// (castMink) on random boxes and motions, many of them aligned face to
// face, grazing, or starting near each other, at the origin and far from
// it: wherever castAABBs answers, both agree on the hit, the fraction (to
// 1e-12 of the motion's reach), the normal (a face's: castAABBs gives it
// exactly, the general path to an ulp) and the
// point (to 1e-9 of the scene's size plus an ulp of its coordinates).
func TestCastAABBsMatchesMinkowski(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	n := 200000
	if testing.Short() {
		n = 30000
	}
	answered, hits := 0, 0
	for i := range n {
		base := [4]float64{0, 1e3, 1e6, 1e12}[i%4]
		// Sizes and places on a grid of eighths half of the time, so that
		// faces align and touch exactly.
		q := func(lo, hi float64) float64 {
			v := lo + (hi-lo)*r.Float64()
			if i%2 == 0 {
				v = math.Round(v*8) / 8
			}
			return v
		}
		ha, hb := shape.Vec2{X: q(0.125, 2), Y: q(0.125, 2)}, shape.Vec2{X: q(0.125, 2), Y: q(0.125, 2)}
		a, err := shape.NewAABB(ha.X, ha.Y)
		if err != nil {
			t.Fatal(err)
		}
		b, err := shape.NewAABB(hb.X, hb.Y)
		if err != nil {
			t.Fatal(err)
		}
		tb := shape.Transform{Pos: shape.Vec2{X: base + q(-1, 1), Y: -base + q(-1, 1)}}
		ta := shape.Transform{Pos: tb.Pos.Add(shape.Vec2{X: q(-8, 8), Y: q(-8, 8)})}
		d := shape.Vec2{X: q(-16, 16), Y: q(-16, 16)}
		switch i % 5 {
		case 1:
			d.Y = 0 // along an axis: face to face, or a graze
		case 2:
			d.X = 0
		}
		f1, p1, n1, hit1, clear := castAABBs(a, ta, d, b, tb)
		h1 := CastHit{Fraction: f1, Point: p1, Normal: n1}
		if !clear {
			continue
		}
		answered++
		if sameAsMinkowski(t, fmt.Sprintf("case %d: castAABBs", i), a, ta, d, b, tb, h1, hit1, 1e-15) {
			hits++
		}
	}
	t.Logf("%d of %d answered by castAABBs, %d hits", answered, n, hits)
	if answered < n/2 || hits < n/10 {
		t.Fatalf("only %d answered, %d hits: the cases test too little", answered, hits)
	}
}

// gridAngle returns an angle on the grid of eighths of a turn, a hair
// (up to 5e-7) off it, or anywhere, a third of the time each: faces
// parallel, nearly parallel, or not.
func gridAngle(r *rand.Rand) float64 {
	switch r.IntN(3) {
	case 0:
		return float64(r.IntN(8)) * math.Pi / 4
	case 1:
		return float64(r.IntN(8))*math.Pi/4 + (r.Float64()-0.5)*1e-6
	}
	return r.Float64() * 2 * math.Pi
}

// castMinkHit is castMink's answer as a CastHit.
func castMinkHit(a shape.Shape, ta shape.Transform, d shape.Vec2, b shape.Shape, tb shape.Transform) (CastHit, bool) {
	f, p, n, ok := castMink(a, ta, d, b, tb)
	return CastHit{Fraction: f, Point: p, Normal: n}, ok
}

// sameAsMinkowski fails t unless hit h (ok) of a special cast path agrees
// with the general path (castMink) on a moved by d against b: the same
// hit, and then the fraction to 1e-12 of the motion's reach, the normal to
// normalTol, the point to 1e-9 of the reach (each plus an ulp or two of
// the coordinates). It reports whether they hit.
func sameAsMinkowski(t *testing.T, what string, a shape.Shape, ta shape.Transform, d shape.Vec2, b shape.Shape, tb shape.Transform, h CastHit, ok bool, normalTol float64) bool {
	t.Helper()
	h2, ok2 := castMinkHit(a, ta, d, b, tb)
	if ok != ok2 {
		t.Fatalf("%s: %v at %v by %v, %v at %v: hit %v (%+v), the general path %v (%+v)", what, a, ta, d, b, tb, ok, h, ok2, h2)
	}
	if !ok {
		return false
	}
	reach := d.Len() + a.BoundingRadius() + b.BoundingRadius()
	mag := math.Abs(tb.Pos.X) + math.Abs(tb.Pos.Y) + reach
	if math.Abs(h.Fraction-h2.Fraction)*d.Len() > 1e-12*reach+4e-16*mag ||
		h.Normal.Sub(h2.Normal).Len() > normalTol || h.Point.Sub(h2.Point).Len() > 1e-9*reach+4e-16*mag {
		t.Fatalf("%s: %v at %v by %v, %v at %v: %+v, the general path %+v", what, a, ta, d, b, tb, h, h2)
	}
	return true
}

// TestCastBoxesMatchesMinkowski compares castBoxes with the general path
// (castMink) on random AABB–OBB, OBB–AABB and OBB–OBB pairs and motions,
// with angles on a grid of eighths of a turn half of the time (faces
// parallel, which castBoxes leaves to the general path) and a hair off
// it, at the origin and far from it: wherever castBoxes answers, both
// agree on the hit, the fraction, the normal and the point, as in
// TestCastAABBsMatchesMinkowski.
func TestCastBoxesMatchesMinkowski(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	n := 200000
	if testing.Short() {
		n = 30000
	}
	answered, hits := 0, 0
	for i := range n {
		base := [4]float64{0, 1e3, 1e6, 1e12}[i%4]
		angle := func() float64 { return gridAngle(r) }
		box := func(obb bool) shape.Shape {
			hx, hy := 0.125+2*r.Float64(), 0.125+2*r.Float64()
			var s shape.Shape
			var err error
			if obb {
				s, err = shape.NewOBB(hx, hy)
			} else {
				s, err = shape.NewAABB(hx, hy)
			}
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		kind := i % 3 // AABB–OBB, OBB–AABB, OBB–OBB
		a, b := box(kind != 0), box(kind != 1)
		tb := shape.NewTransform(shape.Vec2{X: base + 2*r.Float64() - 1, Y: -base + 2*r.Float64() - 1}, angle())
		ta := shape.NewTransform(tb.Pos.Add(shape.Vec2{X: 16*r.Float64() - 8, Y: 16*r.Float64() - 8}), angle())
		d := shape.Vec2{X: 32*r.Float64() - 16, Y: 32*r.Float64() - 16}
		f1, p1, n1, hit1, clear := castBoxes(a, ta, d, b, tb)
		h1 := CastHit{Fraction: f1, Point: p1, Normal: n1}
		if !clear {
			continue
		}
		answered++
		if sameAsMinkowski(t, fmt.Sprintf("case %d: castBoxes", i), a, ta, d, b, tb, h1, hit1, 1e-12) {
			hits++
		}
	}
	t.Logf("%d of %d answered by castBoxes, %d hits", answered, n, hits)
	if answered < n/3 || hits < n/20 {
		t.Fatalf("only %d answered, %d hits: the cases test too little", answered, hits)
	}
}

// TestCastCirclesIsMinkowski requires castCircles to give castMink's
// answer bit for bit (it takes the same steps on the same numbers) on
// random offset circles, turned, touching, overlapping and apart, at the
// origin and far from it.
func TestCastCirclesIsMinkowski(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	n := 100000
	if testing.Short() {
		n = 20000
	}
	hits := 0
	for i := range n {
		base := [4]float64{0, 1e3, 1e6, 1e12}[i%4]
		circle := func() shape.Shape {
			c := shape.Vec2{}
			if r.IntN(2) == 0 {
				c = shape.Vec2{X: r.Float64() - 0.5, Y: r.Float64() - 0.5}
			}
			s, err := shape.NewOffsetCircle(c, 0.125+2*r.Float64())
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		a, b := circle(), circle()
		tb := shape.NewTransform(shape.Vec2{X: base + r.Float64(), Y: -base - r.Float64()}, 6.3*r.Float64())
		ta := shape.NewTransform(tb.Pos.Add(shape.Vec2{X: 16*r.Float64() - 8, Y: 16*r.Float64() - 8}), 6.3*r.Float64())
		if i%7 == 0 {
			ta = tb // concentric placements: overlapping
		}
		d := shape.Vec2{X: 32*r.Float64() - 16, Y: 32*r.Float64() - 16}
		f1, p1, n1, _, hit1 := castCircles(a, ta, d, b, tb)
		h1 := CastHit{Fraction: f1, Point: p1, Normal: n1}
		h2, hit2 := castMinkHit(a, ta, d, b, tb)
		if h1 != h2 || hit1 != hit2 {
			t.Fatalf("case %d: %v at %v by %v, %v at %v: castCircles %+v %v, castMink %+v %v", i, a, ta, d, b, tb, h1, hit1, h2, hit2)
		}
		if hit1 {
			hits++
		}
	}
	if hits < n/10 {
		t.Fatalf("only %d hits of %d", hits, n)
	}
}

// TestCastSegmentHullMatchesMinkowski compares Cast between a segment and
// a box or polygon (either moving), where castSegmentHull answers, with
// the general path (castMink) on random pairs and motions: angles on a
// grid of eighths of a turn a third of the time (a segment parallel to a
// face, which castSegmentHull leaves to the general path) and a hair off
// it, segments from a thousandth to six long, motions aimed at the hull,
// along an axis, zero or a hundred times the size, at the origin and far
// from it. Both must agree on the hit, the fraction, the normal and the
// point, as in TestCastAABBsMatchesMinkowski.
func TestCastSegmentHullMatchesMinkowski(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 48))
	n := 200000
	if testing.Short() {
		n = 30000
	}
	answered, hits := 0, 0
	angle := func() float64 { return gridAngle(r) }
	for i := range n {
		base := [4]float64{0, 1e3, 1e6, 1e12}[i%4]
		var hull shape.Shape
		var err error
		switch r.IntN(3) {
		case 0:
			hull, err = shape.NewAABB(0.125+2*r.Float64(), 0.125+2*r.Float64())
		case 1:
			hull, err = shape.NewOBB(0.125+2*r.Float64(), 0.125+2*r.Float64())
		default:
			pts := make([]shape.Vec2, 3+r.IntN(shape.MaxPolygonVertices-2))
			for k := range pts {
				pts[k] = shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2}
			}
			hull, err = shape.ConvexHull(pts)
		}
		if err != nil {
			continue // a degenerate random hull
		}
		l := math.Pow(10, -3+3.8*r.Float64()) / 2
		seg, err := shape.NewSegment(shape.Vec2{X: -l}, shape.Vec2{X: l})
		if err != nil {
			t.Fatal(err)
		}
		th := shape.NewTransform(shape.Vec2{X: base + 2*r.Float64() - 1, Y: -base + 2*r.Float64() - 1}, angle())
		ts := shape.NewTransform(th.Pos.Add(shape.Vec2{X: 16*r.Float64() - 8, Y: 16*r.Float64() - 8}), angle())
		var d shape.Vec2
		switch r.IntN(6) {
		case 0:
			d = shape.Vec2{X: 32*r.Float64() - 16}
		case 1:
			d = shape.Vec2{Y: 32*r.Float64() - 16}
		case 2:
			d = th.Pos.Sub(ts.Pos).Scale(100 + 100*r.Float64())
		case 3:
			d = shape.Vec2{X: 32*r.Float64() - 16, Y: 32*r.Float64() - 16}
		default:
			d = th.Pos.Sub(ts.Pos).Scale(1 + r.Float64()).Add(shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2})
		}
		if i%50 == 0 {
			d = shape.Vec2{}
		}
		a, ta, b, tb := seg, ts, hull, th
		if i%2 == 1 {
			a, ta, b, tb = hull, th, seg, ts
			d = d.Neg()
		}
		var clear bool
		if a.Kind() == shape.KindSegment {
			_, _, _, _, clear = castSegmentHull(a, ta, d, b, tb)
		} else {
			_, _, _, _, clear = castSegmentHull(b, tb, d.Neg(), a, ta)
		}
		if !clear {
			continue
		}
		answered++
		f, p, nm, _, ok := cast(a, ta, d, b, tb)
		if sameAsMinkowski(t, fmt.Sprintf("case %d: castSegmentHull", i), a, ta, d, b, tb, CastHit{Fraction: f, Point: p, Normal: nm}, ok, 1e-12) {
			hits++
		}
	}
	t.Logf("%d of %d answered by castSegmentHull, %d hits", answered, n, hits)
	if answered < n/3 || hits < n/20 {
		t.Fatalf("only %d answered, %d hits: the cases test too little", answered, hits)
	}
}

// TestCastCircleHullMatchesMinkowski compares castCircleHull (a circle
// against a box, polygon, capsule or segment in the hull's frame) with the
// general path (castMink) on random pairs and motions: circles from a
// hundredth to twice the hull's size, often started near a corner of the
// hull, so that the ray enters the hull's offset faces beyond their ends
// (the wedge at a vertex, where only its disc can be met) or starts in
// such a wedge, hulls with vertices nearly in line, motions aimed at a
// vertex, along an axis, zero or a hundred times the size, at the origin
// and far from it. Wherever castCircleHull answers, both agree on the hit,
// the fraction, the normal (to 1e-9: at a disc each computes it in its own
// frame) and the point.
func TestCastCircleHullMatchesMinkowski(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 50))
	n := 200000
	if testing.Short() {
		n = 30000
	}
	answered, hits, discs := 0, 0, 0
	for i := range n {
		base := [4]float64{0, 1e3, 1e6, 1e12}[i%4]
		var hull shape.Shape
		var err error
		flat := false
		switch r.IntN(6) {
		case 5:
			// A vertex where the outline turns by a hair (1e-12 to 1e-9
			// radians): its two faces nearly in line, the ray aimed near
			// it.
			turn := math.Pow(10, -12+3*r.Float64())
			hull, err = shape.NewPolygon([]shape.Vec2{{X: -1}, {}, {X: 1, Y: turn}, {X: 0.25, Y: 1}})
			flat = true
		case 0:
			hull, err = shape.NewAABB(0.125+2*r.Float64(), 0.125+2*r.Float64())
		case 1:
			hull, err = shape.NewOBB(0.125+2*r.Float64(), 0.125+2*r.Float64())
		case 2:
			pts := make([]shape.Vec2, 3+r.IntN(shape.MaxPolygonVertices-2))
			for k := range pts {
				pts[k] = shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2}
			}
			hull, err = shape.ConvexHull(pts)
		case 3:
			// Many vertices on an arc: faces nearly in line.
			pts := make([]shape.Vec2, shape.MaxPolygonVertices)
			a0, span := r.Float64()*6.3, 1e-3+r.Float64()*0.1
			for k := range pts {
				s, c := math.Sincos(a0 + span*float64(k)/float64(len(pts)-1))
				pts[k] = shape.Vec2{X: 2 * c, Y: 2 * s}
			}
			hull, err = shape.ConvexHull(pts)
		default:
			p0 := shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2}
			p1 := shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2}
			if r.IntN(2) == 0 {
				hull, err = shape.NewSegment(p0, p1)
			} else {
				hull, err = shape.NewCapsule(p0, p1, 0.01+r.Float64())
			}
		}
		if err != nil {
			continue // a degenerate random hull
		}
		var c shape.Vec2
		if r.IntN(3) == 0 {
			c = shape.Vec2{X: r.Float64() - 0.5, Y: r.Float64() - 0.5}
		}
		circle, err := shape.NewOffsetCircle(c, math.Pow(10, -2+2.3*r.Float64()))
		if err != nil {
			t.Fatal(err)
		}
		th := shape.NewTransform(shape.Vec2{X: base + 2*r.Float64() - 1, Y: -base + 2*r.Float64() - 1}, r.Float64()*6.3)
		var tc shape.Transform
		var corner shape.Vec2
		if hull.Kind() == shape.KindAABB || hull.Kind() == shape.KindOBB {
			he := hull.HalfExtents()
			corner = hull.EffectiveTransform(th).Apply(shape.Vec2{X: he.X, Y: -he.Y})
		} else if flat {
			corner = th.Apply(shape.Vec2{X: (r.Float64() - 0.5) * 1e-3})
		} else {
			vs := hull.Vertices()
			corner = th.Apply(vs[r.IntN(len(vs))])
		}
		switch r.IntN(3) {
		case 0: // anywhere around
			tc = shape.NewTransform(th.Pos.Add(shape.Vec2{X: 16*r.Float64() - 8, Y: 16*r.Float64() - 8}), r.Float64()*6.3)
		default: // near a corner
			a := r.Float64() * 6.3
			s, co := math.Sincos(a)
			dist := circle.Radius() * (0.5 + 2*r.Float64())
			tc = shape.NewTransform(corner.Add(shape.Vec2{X: co * dist, Y: s * dist}).Sub(c), 0)
		}
		var d shape.Vec2
		switch r.IntN(6) {
		case 0:
			d = shape.Vec2{X: 32*r.Float64() - 16}
		case 1:
			d = corner.Sub(tc.Pos).Scale(1 + r.Float64())
		case 2:
			d = th.Pos.Sub(tc.Pos).Scale(100 + 100*r.Float64())
		case 3:
			d = shape.Vec2{X: 32*r.Float64() - 16, Y: 32*r.Float64() - 16}
		default:
			d = th.Pos.Sub(tc.Pos).Scale(1 + r.Float64()).Add(shape.Vec2{X: 4*r.Float64() - 2, Y: 4*r.Float64() - 2})
		}
		if i%50 == 0 {
			d = shape.Vec2{}
		}
		f, p, nm, hit, clear := castCircleHull(circle, tc, d, hull, th)
		if !clear {
			continue
		}
		answered++
		if sameAsMinkowski(t, fmt.Sprintf("case %d: castCircleHull", i), circle, tc, d, hull, th, CastHit{Fraction: f, Point: p, Normal: nm}, hit, 1e-9) {
			hits++
			if !nearFace(hull, th, p, nm) {
				discs++
			}
		}
	}
	t.Logf("%d of %d answered by castCircleHull, %d hits, %d of them at a vertex", answered, n, hits, discs)
	if answered < n/3 || hits < n/20 || discs < n/50 {
		t.Fatalf("only %d answered, %d hits, %d at a vertex: the cases test too little", answered, hits, discs)
	}
}

// nearFace reports whether normal nm at point p on hull h (placed by th)
// is one of h's face normals: a touch on a face, not at a vertex.
func nearFace(h shape.Shape, th shape.Transform, p, nm shape.Vec2) bool {
	x := h.EffectiveTransform(th)
	var ns []shape.Vec2
	if h.Kind() == shape.KindAABB || h.Kind() == shape.KindOBB {
		ns = boxNormals[:]
	} else {
		ns = h.Normals()
	}
	for _, u := range ns {
		if x.Rot.Apply(u).Sub(nm).Len() < 1e-9 {
			return true
		}
	}
	return false
}

// TestCastCircleHullThreeFacesInLine casts a small circle onto a polygon
// whose outline turns by about 1e-12 at two vertices in a row: three
// offset faces are reached at the same fraction to rounding, and the
// latest by the floats can be two faces from the true one, past whose end
// the ray meets neither that vertex's disc nor the face across it. Such
// ties go to the general path: Cast must agree with castMink (it reported
// no hit for r = 1e-4, and a late graze with normal (1, 0) for r = 1e-3,
// where the circle lands on the third face, normal about (0, −1)).
func TestCastCircleHullThreeFacesInLine(t *testing.T) {
	hull, err := shape.NewPolygon([]shape.Vec2{{X: -1}, {}, {X: 1e-6, Y: 1e-18}, {X: 0.01, Y: 2e-14}, {X: 0.01, Y: 1}, {X: -1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, base := range []float64{0, 1e3, 1e6} {
		for _, r := range []float64{1e-4, 1e-3} {
			for _, h0 := range []float64{50, 100} {
				for _, x0 := range []float64{0.001, 0.002, 0.003} {
					c, err := shape.NewCircle(r)
					if err != nil {
						t.Fatal(err)
					}
					tc := shape.NewTransform(shape.V(base+x0, base-h0), 0)
					th := shape.NewTransform(shape.V(base, base), 0)
					d := shape.V(0, 2*h0)
					h, ok := Cast(c, tc, d, hull, th)
					if !ok {
						t.Fatalf("base %g r %g h0 %g x0 %g: no hit; the circle lands on the hull's bottom", base, r, h0, x0)
					}
					sameAsMinkowski(t, fmt.Sprintf("base %g r %g h0 %g x0 %g", base, r, h0, x0), c, tc, d, hull, th, h, ok, 1e-9)
					if h.Normal.Y > -0.99 {
						t.Fatalf("base %g r %g h0 %g x0 %g: normal %v, want the bottom face's, about (0, -1)", base, r, h0, x0, h.Normal)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d casts", checked)
}
