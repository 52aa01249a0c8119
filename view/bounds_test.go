package view_test

import (
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
	"github.com/collide-go/collide/view"
)

// TestBoundsHoldEveryPointExactly: the bounds a Frame keeps as it records
// are the box around every recorded point, widened by circles' and
// segments' radii, as a pass over all the points finds it: for each
// primitive drawn alone (boxes given upside down, arrows and segments
// pointing down-left), for all of them in one frame, after Reset and
// CopyFrom, and for worlds drawn with every layer.
func TestBoundsHoldEveryPointExactly(t *testing.T) {
	tri := []collide.Vec2{collide.V(3, -2), collide.V(5, 7), collide.V(-4, 1), collide.V(0, -6)}
	red := collide.Color{R: 255, A: 255}
	st := collide.Style{Stroke: red}
	calls := []struct {
		name string
		draw func(f *view.Frame)
	}{
		{"polygon", func(f *view.Frame) { f.Polygon(tri, st) }},
		{"polygon of one point", func(f *view.Frame) { f.Polygon(tri[1:2], st) }},
		{"no polygon", func(f *view.Frame) { f.Polygon(nil, st) }},
		{"circle", func(f *view.Frame) { f.Circle(collide.V(-2, 3), 1.5, st) }},
		{"segment down-left", func(f *view.Frame) { f.Segment(collide.V(4, 4), collide.V(-1, -3), 0.25, st) }},
		{"line", func(f *view.Frame) { f.Segment(collide.V(-1, 8), collide.V(2, -3), 0, st) }},
		{"point", func(f *view.Frame) { f.Point(collide.V(7, -9), red) }},
		{"arrow down-left", func(f *view.Frame) { f.Arrow(collide.V(1, 1), collide.V(-3, -0.5), red) }},
		{"box", func(f *view.Frame) { f.Box(collide.AABB{Min: collide.V(-1, -2), Max: collide.V(3, 4)}, red) }},
		{"box upside down", func(f *view.Frame) { f.Box(collide.AABB{Min: collide.V(3, 4), Max: collide.V(-1, -2)}, red) }},
		{"text", func(f *view.Frame) { f.Text(collide.V(-8, 2), "x", red) }},
	}
	check := func(t *testing.T, what string, f *view.Frame) {
		t.Helper()
		want, ok := view.PointBounds(f)
		got := f.Bounds()
		if !ok {
			if got.Min.X <= got.Max.X {
				t.Errorf("%s: Bounds() = %v for a frame without points, want an empty box", what, got)
			}
			return
		}
		if got != want {
			t.Errorf("%s: Bounds() = %v, want %v", what, got, want)
		}
	}
	var all view.Frame
	for _, c := range calls {
		var f view.Frame
		c.draw(&f)
		check(t, c.name, &f)
		c.draw(&all)
		check(t, "all up to "+c.name, &all)
	}
	// Backwards, so that each primitive is also one that widens a frame
	// already holding others.
	var back view.Frame
	for i := len(calls) - 1; i >= 0; i-- {
		calls[i].draw(&back)
		check(t, "backwards down to "+calls[i].name, &back)
	}
	var cp view.Frame
	cp.CopyFrom(&all)
	check(t, "CopyFrom", &cp)
	all.Reset()
	check(t, "Reset", &all)
	calls[3].draw(&all)
	check(t, "circle after Reset", &all)

	o := collide.DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true, Labels: true}
	var f view.Frame
	view.Capture(&f, fixedScene(t), o)
	check(t, "fixed scene", &f)
	sc := scene.Swarm(500, 3)
	w := collide.NewWorld(collide.Config{Workers: 1})
	t.Cleanup(w.Close)
	ids, err := scene.Load(w, sc)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		sc.Advance()
		if err := scene.Sync(w, sc, ids); err != nil {
			t.Fatal(err)
		}
		w.Step()
		view.Capture(&f, w, o)
		check(t, "swarm", &f)
	}
}
