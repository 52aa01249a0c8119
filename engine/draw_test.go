package engine

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// recorder is a Drawer that keeps every call, for tests.
type recorder struct {
	layer    Layer
	bodies   []BodyInfo
	styles   []Style // the style of each body's outline, index for index
	polygons [][]shape.Vec2
	circles  []shape.Vec2
	points   []shape.Vec2
	arrows   [][2]shape.Vec2
	boxes    map[Layer][]shape.AABB
	texts    []string
	segments int
	perLayer [LayerCount]int
}

func (r *recorder) Layer(l Layer)               { r.layer = l }
func (r *recorder) Body(b BodyInfo)             { r.bodies = append(r.bodies, b) }
func (r *recorder) count()                      { r.perLayer[r.layer]++ }
func (r *recorder) Point(p shape.Vec2, _ Color) { r.count(); r.points = append(r.points, p) }
func (r *recorder) Polygon(pts []shape.Vec2, st Style) {
	r.count()
	r.polygons = append(r.polygons, append([]shape.Vec2(nil), pts...))
	if r.layer == LayerBodies {
		r.styles = append(r.styles, st)
	}
}
func (r *recorder) Circle(c shape.Vec2, _ float64, st Style) {
	r.count()
	r.circles = append(r.circles, c)
	if r.layer == LayerBodies {
		r.styles = append(r.styles, st)
	}
}
func (r *recorder) Segment(_, _ shape.Vec2, _ float64, _ Style) { r.count(); r.segments++ }
func (r *recorder) Arrow(a, b shape.Vec2, _ Color) {
	r.count()
	r.arrows = append(r.arrows, [2]shape.Vec2{a, b})
}
func (r *recorder) Box(b shape.AABB, _ Color) {
	r.count()
	if r.boxes == nil {
		r.boxes = map[Layer][]shape.AABB{}
	}
	r.boxes[r.layer] = append(r.boxes[r.layer], b)
}
func (r *recorder) Text(_ shape.Vec2, s string, _ Color) { r.count(); r.texts = append(r.texts, s) }

// nullDrawer counts calls and keeps nothing, for allocation tests.
type nullDrawer struct{ n int }

func (d *nullDrawer) Layer(Layer)                                    { d.n++ }
func (d *nullDrawer) Body(BodyInfo)                                  { d.n++ }
func (d *nullDrawer) Polygon([]shape.Vec2, Style)                    { d.n++ }
func (d *nullDrawer) Circle(shape.Vec2, float64, Style)              { d.n++ }
func (d *nullDrawer) Segment(shape.Vec2, shape.Vec2, float64, Style) { d.n++ }
func (d *nullDrawer) Point(shape.Vec2, Color)                        { d.n++ }
func (d *nullDrawer) Arrow(shape.Vec2, shape.Vec2, Color)            { d.n++ }
func (d *nullDrawer) Box(shape.AABB, Color)                          { d.n++ }
func (d *nullDrawer) Text(shape.Vec2, string, Color)                 { d.n++ }

// drawScene is a fixed scene: a circle overlapping an OBB (one contact),
// a static box, a sensor triangle overlapping nothing and a bullet.
func drawScene(t *testing.T) (*World, []BodyID) {
	t.Helper()
	w := NewWorld(Config{Workers: 1})
	circle, _ := shape.NewCircle(1)
	obb, _ := shape.NewOBB(1, 0.5)
	box, _ := shape.NewAABB(2, 1)
	tri, _ := shape.NewPolygon([]shape.Vec2{{X: -1, Y: -1}, {X: 1, Y: -1}, {X: 0, Y: 1}})
	small, _ := shape.NewCircle(0.1)
	defs := []BodyDef{
		{Shape: circle, Position: shape.V(0, 0), UserData: "hero"},
		{Shape: obb, Position: shape.V(1.5, 0.2), Angle: 0.3},
		{Shape: box, Position: shape.V(10, 0), Kind: Static},
		{Shape: tri, Position: shape.V(20, 0), Sensor: true},
		{Shape: small, Position: shape.V(30, 0), Bullet: true},
	}
	var ids []BodyID
	for _, d := range defs {
		id, err := w.Add(d)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	w.Step()
	return w, ids
}

func TestDrawCountsPerPrimitive(t *testing.T) {
	w, ids := drawScene(t)
	tests := []struct {
		name                              string
		o                                 DrawOptions
		bodies, polygons, circles, points int
		arrows, tight, fat, texts         int
	}{
		{name: "zero options: bodies only", o: DrawOptions{}, bodies: 5, polygons: 3, circles: 2},
		{name: "contacts", o: DrawOptions{Contacts: true}, bodies: 5, polygons: 3, circles: 2, points: 1},
		{name: "contacts and MTV", o: DrawOptions{Contacts: true, MTV: true}, bodies: 5, polygons: 3, circles: 2, points: 1, arrows: 1},
		{name: "boxes", o: DrawOptions{NoBodies: true, AABBs: true, FatAABBs: true}, tight: 5, fat: 5},
		{name: "labels", o: DrawOptions{NoBodies: true, Labels: true}, texts: 5},
		{name: "clip to the static box", o: DrawOptions{Clip: shape.AABB{Min: shape.V(9, -1), Max: shape.V(11, 1)}, Contacts: true, AABBs: true}, bodies: 1, polygons: 1, tight: 1},
		{name: "clip to the pair", o: DrawOptions{Clip: shape.AABB{Min: shape.V(-1, -1), Max: shape.V(0, 0)}, Contacts: true, MTV: true}, bodies: 1, circles: 1, points: 1, arrows: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			w.Draw(&r, tc.o)
			got := []int{len(r.bodies), len(r.polygons), len(r.circles), len(r.points), len(r.arrows), len(r.boxes[LayerAABBs]), len(r.boxes[LayerFatAABBs]), len(r.texts)}
			want := []int{tc.bodies, tc.polygons, tc.circles, tc.points, tc.arrows, tc.tight, tc.fat, tc.texts}
			names := []string{"Body", "Polygon", "Circle", "Point", "Arrow", "tight Box", "fat Box", "Text"}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("Draw(%+v): %d %s calls, want %d", tc.o, got[i], names[i], want[i])
				}
			}
		})
	}
	// Body order is storage order, and the info matches Body.
	var r recorder
	w.Draw(&r, DrawOptions{})
	for i, info := range r.bodies {
		b, _ := w.Body(ids[i])
		want := BodyInfo{ID: ids[i], Kind: b.Kind, Shape: b.Shape.Kind(), Sensor: b.Sensor, Bullet: b.Bullet, Filter: b.Filter, UserData: b.UserData, AABB: b.AABB}
		if info != want {
			t.Errorf("Body call %d = %+v, want %+v", i, info, want)
		}
	}
}

func TestDrawOutlinesAreTheShapes(t *testing.T) {
	w, ids := drawScene(t)
	var r recorder
	w.Draw(&r, DrawOptions{})
	// The OBB's corners, placed independently: rotate by the angle's own
	// cos/sin, then translate.
	b, _ := w.Body(ids[1])
	sn, cs := shape.SinCos(0.3)
	h := b.Shape.HalfExtents()
	var want []shape.Vec2
	for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		x, y := c[0]*h.X, c[1]*h.Y
		want = append(want, shape.V(float64(cs*x)-float64(sn*y)+1.5, float64(sn*x)+float64(cs*y)+0.2))
	}
	got := r.polygons[0]
	for i := range want {
		if d := got[i].Sub(want[i]).Len(); d > 1e-12 {
			t.Errorf("OBB corner %d = %v, want %v", i, got[i], want[i])
		}
	}
	// Every outline point lies in the body's tight box.
	for i, p := range r.polygons {
		var box shape.AABB
		switch i {
		case 0:
			box = r.bodies[1].AABB
		case 1:
			box = r.bodies[2].AABB
		case 2:
			box = r.bodies[3].AABB
		}
		for _, v := range p {
			if !box.Contains(v) {
				t.Errorf("polygon %d vertex %v outside its body's box %v", i, v, box)
			}
		}
	}
}

func TestDrawMTVArrowsEndAtPointPlusNormalTimesDepth(t *testing.T) {
	w, ids := drawScene(t)
	var r recorder
	w.Draw(&r, DrawOptions{NoBodies: true, Contacts: true, MTV: true})
	// The oracle is narrowphase.Collide on the two bodies, not the World's
	// contact list.
	a, _ := w.Body(ids[0])
	b, _ := w.Body(ids[1])
	m, ok := narrowphase.Collide(a.Shape, shape.NewTransform(a.Position, a.Angle), b.Shape, shape.NewTransform(b.Position, b.Angle))
	if !ok {
		t.Fatal("the circle and the OBB do not overlap")
	}
	if len(r.arrows) != m.Count {
		t.Fatalf("%d MTV arrows, want one per contact point (%d)", len(r.arrows), m.Count)
	}
	for i, arr := range r.arrows {
		p := m.Points[i].Point
		head := shape.V(p.X+float64(m.Normal.X*m.Depth), p.Y+float64(m.Normal.Y*m.Depth))
		if arr[0] != p || arr[1] != head {
			t.Errorf("MTV arrow %d = %v -> %v, want %v -> %v (p + normal·depth %.4f)", i, arr[0], arr[1], p, head, m.Depth)
		}
		if l := arr[1].Sub(arr[0]).Len(); l < m.Depth*(1-1e-12) || l > m.Depth*(1+1e-12) {
			t.Errorf("MTV arrow %d is %.6f long, want the depth %.6f", i, l, m.Depth)
		}
		if r.points[i] != p {
			t.Errorf("contact point %d drawn at %v, want %v", i, r.points[i], p)
		}
	}
}

func TestDrawColoursByState(t *testing.T) {
	w, _ := drawScene(t)
	var r recorder
	w.Draw(&r, DrawOptions{})
	p := DefaultPalette
	want := []Style{p.Dynamic, p.Dynamic, p.Static, p.Sensor, p.Bullet}
	// Outlines come circle, OBB, box, triangle, circle: r.styles is in
	// call order, which is body order.
	for i, st := range r.styles {
		if st != want[i] {
			t.Errorf("body %d (%+v) drawn in %+v, want %+v", i, r.bodies[i], st, want[i])
		}
	}
	// A palette of one's own replaces the default; state beats kind.
	mine := DefaultPalette
	mine.Sensor.Fill = Color{1, 2, 3, 4}
	if err := w.SetKind(r.bodies[3].ID, Static); err != nil {
		t.Fatal(err)
	}
	var r2 recorder
	w.Draw(&r2, DrawOptions{Palette: &mine})
	if got := r2.styles[3]; got != mine.Sensor {
		t.Errorf("static sensor drawn in %+v, want the palette's sensor style %+v", got, mine.Sensor)
	}
}

func TestDrawUnknownKindFallsBackToItsBox(t *testing.T) {
	s, _ := shape.NewOBB(1, 2)
	// A kind the drawer does not know, as a later shape kind would be: a
	// Shape's first word points just past its head, whose first byte is
	// the kind.
	var fake [2]shape.Vec2
	*(*uint8)(unsafe.Pointer(&fake[0])) = 200
	*(*unsafe.Pointer)(unsafe.Pointer(&s)) = unsafe.Pointer(&fake[1])
	if s.Kind() != 200 {
		t.Fatalf("forged kind %v, want Kind(200)", s.Kind())
	}
	var r recorder
	DrawShape(&r, s, shape.NewTransform(shape.V(5, 5), 0), DefaultPalette.Dynamic)
	if len(r.polygons)+len(r.circles) != 0 || len(r.boxes[r.layer]) != 1 {
		t.Fatalf("unknown kind drew %d polygons, %d circles, %d boxes; want only its box", len(r.polygons), len(r.circles), len(r.boxes[r.layer]))
	}
	if got, want := r.boxes[r.layer][0], s.WorldAABB(shape.NewTransform(shape.V(5, 5), 0)); got != want {
		t.Errorf("fallback box %v, want the world box %v", got, want)
	}
}

func TestDrawRayAndQuery(t *testing.T) {
	w, _ := drawScene(t)
	origin, dir := shape.V(-5, 0), shape.V(2, 0)
	hit, ok, err := w.RayCast(origin, dir, 100, Filter{})
	if err != nil || !ok {
		t.Fatalf("RayCast: %v %v", ok, err)
	}
	var r recorder
	DrawRay(&r, origin, dir, 100, hit, ok)
	if r.segments != 1 || len(r.points) != 1 || len(r.arrows) != 1 || r.points[0] != hit.Point || r.arrows[0][1] != hit.Point.Add(hit.Normal) {
		t.Errorf("DrawRay of a hit: %d segments, points %v, arrows %v; want one segment, the point %v and its normal", r.segments, r.points, r.arrows, hit.Point)
	}
	var miss recorder
	DrawRay(&miss, origin, shape.V(0, 1), 1e300, RayHit{}, false)
	if miss.segments != 1 || len(miss.points) != 0 || miss.perLayer[LayerQuery] != 1 {
		t.Errorf("DrawRay of a miss: %d segments, %d points, want one segment and no point", miss.segments, len(miss.points))
	}
	q, _ := shape.NewCircle(0.5)
	xf := shape.NewTransform(shape.V(0.8, 0), 0)
	var rq recorder
	DrawQuery(&rq, q, xf)
	n := 0
	_ = w.QueryShape(q, xf, Filter{}, func(_ BodyID, m narrowphase.Manifold) bool {
		DrawManifold(&rq, m)
		n += m.Count
		return true
	})
	if n == 0 || len(rq.circles) != 1 || len(rq.points) != n || len(rq.arrows) != n || rq.perLayer[LayerQuery] != 1+2*n {
		t.Errorf("DrawQuery + DrawManifold: %d circles, %d points, %d arrows, %d in LayerQuery; want 1, %d, %d, %d", len(rq.circles), len(rq.points), len(rq.arrows), rq.perLayer[LayerQuery], n, n, 1+2*n)
	}
}

func TestDrawAllocatesNothingPerBody(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	for _, n := range []int{10, 2000} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			sc := newScene(t, 7, n, Config{Workers: 1})
			for i, id := range sc.ids {
				if i%3 == 0 {
					_ = sc.w.SetUserData(id, i)
				}
			}
			sc.w.Step()
			var d nullDrawer
			o := DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true}
			sc.w.Draw(&d, o)
			if got := testing.AllocsPerRun(20, func() { sc.w.Draw(&d, o) }); got != 0 {
				t.Errorf("Draw of %d bodies allocated %.1f times a call, want 0", n, got)
			}
		})
	}
}

// TestDrawNewKinds: a capsule and a segment are one Segment call each (with
// the capsule's radius), a compound draws its parts and a chain its
// segments.
func TestDrawNewKinds(t *testing.T) {
	capsule, _ := shape.NewCapsule(shape.V(-1, 0), shape.V(1, 0), 0.5)
	seg, _ := shape.NewSegment(shape.V(0, 0), shape.V(0, 2))
	obb, _ := shape.NewOBB(1, 1)
	comp, _ := shape.NewCompound([]shape.Part{{Shape: capsule}, {Shape: obb, Offset: shape.NewTransform(shape.V(3, 0), 0)}})
	chain, _ := shape.NewChain([]shape.Vec2{shape.V(0, 0), shape.V(1, 0), shape.V(2, 1), shape.V(3, 1)}, false)
	for _, tc := range []struct {
		name               string
		s                  shape.Shape
		segments, polygons int
	}{
		{"capsule", capsule, 1, 0},
		{"segment", seg, 1, 0},
		{"compound", comp, 1, 1},
		{"chain", chain, 3, 0},
	} {
		var r recorder
		DrawShape(&r, tc.s, shape.NewTransform(shape.V(5, 5), 0.3), DefaultPalette.Dynamic)
		if r.segments != tc.segments || len(r.polygons) != tc.polygons || len(r.circles) != 0 {
			t.Errorf("%s drew %d segments, %d polygons, %d circles; want %d, %d, 0", tc.name, r.segments, len(r.polygons), len(r.circles), tc.segments, tc.polygons)
		}
	}
}

// callLog is a Drawer that writes every call, with all its arguments, as a
// line: two logs are equal when the calls were.
type callLog struct{ b []byte }

func (l *callLog) f(format string, a ...any) { l.b = fmt.Appendf(l.b, format+"\n", a...) }
func (l *callLog) Layer(x Layer)             { l.f("layer %v", x) }
func (l *callLog) Body(b BodyInfo)           { l.f("body %+v", b) }
func (l *callLog) Polygon(pts []shape.Vec2, st Style) {
	l.f("polygon %v %v", pts, st)
}
func (l *callLog) Circle(c shape.Vec2, r float64, st Style) { l.f("circle %v %v %v", c, r, st) }
func (l *callLog) Segment(a, b shape.Vec2, r float64, st Style) {
	l.f("segment %v %v %v %v", a, b, r, st)
}
func (l *callLog) Point(p shape.Vec2, c Color)          { l.f("point %v %v", p, c) }
func (l *callLog) Arrow(a, b shape.Vec2, c Color)       { l.f("arrow %v %v %v", a, b, c) }
func (l *callLog) Box(b shape.AABB, c Color)            { l.f("box %v %v", b, c) }
func (l *callLog) Text(p shape.Vec2, s string, c Color) { l.f("text %v %q %v", p, s, c) }

// TestSceneDrawsWhatDrawDrew: a Scene copied from the world draws, call for
// call, what World.Draw drew at the copy, after the world has changed every
// way it can (moves, a new shape, kind, sensor, filter and user value, a
// removal, an addition, a Step, a palette edited in place), for every
// option that changes what is drawn. Reused, the Scene draws its last copy.
func TestSceneDrawsWhatDrawDrew(t *testing.T) {
	all := DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true, Labels: true}
	pal := DefaultPalette
	pal.Dynamic.Fill = Color{1, 2, 3, 4}
	tests := []struct {
		name string
		o    DrawOptions
	}{
		{"zero options", DrawOptions{}},
		{"everything", all},
		{"no bodies", DrawOptions{NoBodies: true, Contacts: true, MTV: true, AABBs: true, FatAABBs: true, Labels: true}},
		{"MTV without points", DrawOptions{MTV: true}},
		{"clip to the pair", DrawOptions{Clip: shape.AABB{Min: shape.V(-1, -1), Max: shape.V(0, 0)}, Contacts: true, MTV: true, FatAABBs: true}},
		{"palette", DrawOptions{Contacts: true, Palette: &pal}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, ids := drawScene(t)
			var sc Scene
			// A first copy of another state, which the second replaces.
			w.CopyScene(&sc, all)
			if err := w.Move(ids[0], shape.V(0.25, 0)); err != nil {
				t.Fatal(err)
			}
			w.Step()
			var want callLog
			w.Draw(&want, tc.o)
			w.CopyScene(&sc, tc.o)

			tri, _ := shape.NewPolygon([]shape.Vec2{{X: -2, Y: -1}, {X: 2, Y: -1}, {X: 0, Y: 3}})
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(w.Move(ids[1], shape.V(-0.5, 0.1)))
			must(w.SetTransform(ids[2], shape.V(11, 1), 0.5))
			must(w.SetShape(ids[3], tri))
			must(w.SetKind(ids[1], Static))
			must(w.SetSensor(ids[0], true))
			must(w.SetFilter(ids[0], Filter{Category: 2, Mask: 1}))
			must(w.SetUserData(ids[0], "villain"))
			must(w.SetUserData(ids[1], 7))
			must(w.Remove(ids[4]))
			if _, err := w.Add(BodyDef{Shape: tri, Position: shape.V(0.5, 0.5)}); err != nil {
				t.Fatal(err)
			}
			w.Step()
			pal.Dynamic.Fill = Color{9, 9, 9, 9}
			defer func() { pal.Dynamic.Fill = Color{1, 2, 3, 4} }()

			var now, got callLog
			w.Draw(&now, tc.o)
			if string(now.b) == string(want.b) {
				t.Fatalf("the world draws as before its changes: the test changes nothing")
			}
			sc.Draw(&got)
			if string(got.b) != string(want.b) {
				t.Errorf("Scene.Draw after the world changed:\n%s\nwant World.Draw at the copy:\n%s", got.b, want.b)
			}
		})
	}
	t.Run("zero Scene", func(t *testing.T) {
		var sc Scene
		var got, want callLog
		sc.Draw(&got)
		NewWorld(Config{}).Draw(&want, DrawOptions{})
		if string(got.b) != string(want.b) {
			t.Errorf("zero Scene draws\n%s\nwant an empty world's\n%s", got.b, want.b)
		}
	})
}

// TestSceneAllocatesNothing: once a Scene has grown to the world's size,
// copying it allocates nothing (user values included), and drawing it
// allocates nothing per body, as World.Draw.
func TestSceneAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	for _, n := range []int{10, 2000} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			sc := newScene(t, 7, n, Config{Workers: 1})
			for i, id := range sc.ids {
				if i%3 == 0 {
					_ = sc.w.SetUserData(id, i)
				}
			}
			sc.w.Step()
			var d nullDrawer
			var s Scene
			o := DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true}
			sc.w.CopyScene(&s, o)
			s.Draw(&d)
			if got := testing.AllocsPerRun(20, func() { sc.w.CopyScene(&s, o) }); got != 0 {
				t.Errorf("CopyScene of %d bodies allocated %.1f times a call, want 0", n, got)
			}
			if got := testing.AllocsPerRun(20, func() { s.Draw(&d) }); got != 0 {
				t.Errorf("Scene.Draw of %d bodies allocated %.1f times a call, want 0", n, got)
			}
		})
	}
}
