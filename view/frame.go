package view

import (
	"reflect"

	"github.com/collide-go/collide"
)

// op is a recorded Drawer call.
type op uint8

const (
	opPolygon op = iota
	opCircle
	opSegment
	opPoint
	opArrow
	opBox
	opText
)

// prim is one recorded primitive. Its coordinates are pts[i:i+n]: a
// polygon's vertices, a circle's centre, a segment's or arrow's two ends, a
// box's min and max, a point or a text's place.
type prim struct {
	op    op
	layer collide.Layer
	body  int32 // index into Frame.bodies of the body it outlines, or -1
	i, n  int32
	r     float64 // circle or segment radius
	st    collide.Style
	text  int32 // index into Frame.texts
}

// BodyMeta is what a Frame keeps of a drawn body: its identity and state at
// the capture, for the live view's hover and for reports.
type BodyMeta struct {
	ID     collide.BodyID
	Kind   collide.BodyKind
	Shape  string // the shape kind's name: circle, aabb, obb, polygon
	Sensor bool
	Bullet bool
	Filter collide.Filter
	// User is the body's user value when it is a string, number or bool
	// (values that cannot change under the reader); for any other value it
	// is the value's type, a reflect.Type, so that no goroutine reads a
	// game object the loop may be mutating.
	User any
}

// Frame is a recorded description of a frame: a collide.Drawer that keeps
// every call. Build one with Capture, or pass it to World.Draw and the Draw
// helpers yourself. The zero Frame is empty and ready.
type Frame struct {
	// Seq is the frame's number, set by whoever captures it.
	Seq uint64
	// Stats are the world's Stats at the capture.
	Stats collide.Stats

	layer  collide.Layer
	body   int32
	prims  []prim
	pts    []collide.Vec2
	texts  []string
	bodies []BodyMeta
	bounds collide.AABB
	inside bool // bounds holds something, kept up to date by add
}

var _ collide.Drawer = (*Frame)(nil)

// Capture draws w into f with options o (f is reset first) and records the
// world's stats; it returns f. With a reused f it allocates nothing once f
// has grown to the world's size (labels aside).
func Capture(f *Frame, w *collide.World, o collide.DrawOptions) *Frame {
	f.Reset()
	f.Stats = w.Stats()
	w.Draw(f, o)
	return f
}

// drawScene draws sc into f (reset first) and records st as the world's
// stats: Capture from a copy of the world.
func (f *Frame) drawScene(sc *collide.Scene, st collide.Stats) {
	f.Reset()
	f.Stats = st
	sc.Draw(f)
}

// Reset empties f, keeping its memory.
func (f *Frame) Reset() {
	f.Seq, f.Stats, f.layer, f.body = 0, collide.Stats{}, collide.LayerBodies, -1
	f.prims, f.pts, f.texts = f.prims[:0], f.pts[:0], f.texts[:0]
	clear(f.bodies) // drop user values
	f.bodies = f.bodies[:0]
	f.bounds, f.inside = collide.AABB{}, false
}

// Len returns the number of primitives recorded.
func (f *Frame) Len() int { return len(f.prims) }

// Bodies returns the bodies drawn, in drawing order. The slice belongs to f.
func (f *Frame) Bodies() []BodyMeta { return f.bodies }

// Bounds returns the box around everything drawn, or an empty box
// (Min > Max) for an empty frame.
func (f *Frame) Bounds() collide.AABB {
	if !f.inside {
		return collide.AABB{Min: collide.V(1, 1), Max: collide.V(-1, -1)}
	}
	return f.bounds
}

// Layer records the layer of the calls that follow.
func (f *Frame) Layer(l collide.Layer) { f.layer, f.body = l, -1 }

// Body records the body whose outline follows.
func (f *Frame) Body(b collide.BodyInfo) {
	f.body = int32(len(f.bodies))
	f.bodies = append(f.bodies, BodyMeta{
		ID: b.ID, Kind: b.Kind, Shape: b.Shape.String(), Sensor: b.Sensor, Bullet: b.Bullet,
		Filter: b.Filter, User: safeUser(b.UserData),
	})
}

// safeUser returns v if it is an immutable basic value, else its type.
func safeUser(v any) any {
	switch v.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return v
	}
	return reflect.TypeOf(v)
}

// add records a primitive whose points were appended from index i on.
// The caller widens the bounds over them (widen): each Drawer method
// does it while its points are at hand, in the fewest comparisons its
// primitive allows, rather than in a pass of its own.
func (f *Frame) add(o op, i int, r float64, st collide.Style) {
	body := f.body
	if int(body) >= len(f.bodies) {
		body = -1 // a zero Frame, drawn to before any Body call
	}
	f.prims = append(f.prims, prim{op: o, layer: f.layer, body: body, i: int32(i), n: int32(len(f.pts) - i), r: r, st: st, text: -1})
	if o != opPolygon && o != opCircle {
		f.body = -1 // only a body's outline belongs to it
	}
}

// widen grows f's bounds to hold the box from lo to hi (lo ≤ hi).
func (f *Frame) widen(lo, hi collide.Vec2) {
	if !f.inside {
		f.bounds, f.inside = collide.AABB{Min: lo, Max: hi}, true
		return
	}
	// Plain comparisons: the points are finite.
	b := &f.bounds
	if lo.X < b.Min.X {
		b.Min.X = lo.X
	}
	if lo.Y < b.Min.Y {
		b.Min.Y = lo.Y
	}
	if hi.X > b.Max.X {
		b.Max.X = hi.X
	}
	if hi.Y > b.Max.Y {
		b.Max.Y = hi.Y
	}
}

// span returns the box from a to b, either way round.
func span(a, b collide.Vec2) (lo, hi collide.Vec2) {
	lo, hi = a, b
	if b.X < a.X {
		lo.X, hi.X = b.X, a.X
	}
	if b.Y < a.Y {
		lo.Y, hi.Y = b.Y, a.Y
	}
	return lo, hi
}

// Polygon records a closed outline.
func (f *Frame) Polygon(pts []collide.Vec2, st collide.Style) {
	i := len(f.pts)
	f.pts = append(f.pts, pts...)
	f.add(opPolygon, i, 0, st)
	if len(pts) == 0 {
		return
	}
	lo, hi := pts[0], pts[0]
	for _, q := range pts[1:] {
		if q.X < lo.X {
			lo.X = q.X
		} else if q.X > hi.X {
			hi.X = q.X
		}
		if q.Y < lo.Y {
			lo.Y = q.Y
		} else if q.Y > hi.Y {
			hi.Y = q.Y
		}
	}
	f.widen(lo, hi)
}

// Circle records a disc.
func (f *Frame) Circle(c collide.Vec2, r float64, st collide.Style) {
	f.pts = append(f.pts, c)
	f.add(opCircle, len(f.pts)-1, r, st)
	f.widen(collide.V(c.X-r, c.Y-r), collide.V(c.X+r, c.Y+r))
}

// Segment records a segment swept by a disc of radius r.
func (f *Frame) Segment(a, b collide.Vec2, r float64, st collide.Style) {
	f.pts = append(f.pts, a, b)
	f.add(opSegment, len(f.pts)-2, r, st)
	lo, hi := span(a, b)
	f.widen(collide.V(lo.X-r, lo.Y-r), collide.V(hi.X+r, hi.Y+r))
}

// Point records a dot.
func (f *Frame) Point(p collide.Vec2, c collide.Color) {
	f.pts = append(f.pts, p)
	f.add(opPoint, len(f.pts)-1, 0, collide.Style{Fill: c})
	f.widen(p, p)
}

// Arrow records an arrow from tail to head.
func (f *Frame) Arrow(from, to collide.Vec2, c collide.Color) {
	f.pts = append(f.pts, from, to)
	f.add(opArrow, len(f.pts)-2, 0, collide.Style{Stroke: c})
	f.widen(span(from, to))
}

// Box records a box outline.
func (f *Frame) Box(b collide.AABB, c collide.Color) {
	f.pts = append(f.pts, b.Min, b.Max)
	f.add(opBox, len(f.pts)-2, 0, collide.Style{Stroke: c})
	f.widen(span(b.Min, b.Max))
}

// Text records a label.
func (f *Frame) Text(p collide.Vec2, s string, c collide.Color) {
	f.pts = append(f.pts, p)
	f.add(opText, len(f.pts)-1, 0, collide.Style{Fill: c})
	f.prims[len(f.prims)-1].text = int32(len(f.texts))
	f.texts = append(f.texts, s)
	f.widen(p, p)
}

// CopyFrom makes f a copy of g that shares nothing mutable with it.
func (f *Frame) CopyFrom(g *Frame) {
	f.Seq, f.Stats, f.layer, f.body, f.bounds, f.inside = g.Seq, g.Stats, g.layer, g.body, g.bounds, g.inside
	f.prims = append(f.prims[:0], g.prims...)
	f.pts = append(f.pts[:0], g.pts...)
	f.texts = append(f.texts[:0], g.texts...)
	clear(f.bodies)
	f.bodies = append(f.bodies[:0], g.bodies...)
}
