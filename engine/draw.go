package engine

import (
	"slices"
	"strconv"
	"sync"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// Color is a colour with straight (not premultiplied) alpha, 8 bits a
// channel. Renderers convert it; the core imports no image package.
type Color struct{ R, G, B, A uint8 }

// Style is how a closed outline is drawn: its fill and its stroke. A zero
// alpha leaves that part out.
type Style struct{ Fill, Stroke Color }

// Layer says what the primitives that follow a [Drawer.Layer] call show, so
// that a renderer can toggle or order them.
type Layer uint8

// The layers, in the order World.Draw emits them.
const (
	// LayerBodies holds the bodies' outlines, each after a Drawer.Body call.
	LayerBodies Layer = iota
	// LayerAABBs holds the bodies' tight world boxes.
	LayerAABBs
	// LayerFatAABBs holds the broad phase's fat boxes.
	LayerFatAABBs
	// LayerContacts holds the contact points.
	LayerContacts
	// LayerMTV holds the contacts' MTV arrows.
	LayerMTV
	// LayerQuery holds query shapes, rays and their hits (DrawRay,
	// DrawQuery, DrawManifold).
	LayerQuery
	// LayerLabels holds text.
	LayerLabels
	// LayerCount is the number of layers.
	LayerCount
)

// String returns the layer's short name: bodies, aabbs, fat, contacts, mtv,
// query or labels.
func (l Layer) String() string {
	switch l {
	case LayerBodies:
		return "bodies"
	case LayerAABBs:
		return "aabbs"
	case LayerFatAABBs:
		return "fat"
	case LayerContacts:
		return "contacts"
	case LayerMTV:
		return "mtv"
	case LayerQuery:
		return "query"
	case LayerLabels:
		return "labels"
	}
	return "Layer(" + strconv.Itoa(int(l)) + ")"
}

// BodyInfo describes the body whose outline the next Drawer calls draw.
type BodyInfo struct {
	ID       BodyID     // the body's id
	Kind     BodyKind   // Dynamic or Static
	Shape    shape.Kind // its shape's kind
	Sensor   bool       // whether it is a sensor
	Bullet   bool       // whether Step sweeps it
	Filter   Filter     // category and mask
	UserData any        // the caller's value, shared, not copied
	AABB     shape.AABB // the tight world box
}

// Drawer receives the description of a frame: World.Draw and the Draw
// helpers call it, renderers (the view package's SVG and PNG writers, the
// live view) implement it. Coordinates are world units, y up. A slice
// argument is valid only during the call: copy what you keep.
type Drawer interface {
	// Layer says what the following calls show.
	Layer(l Layer)
	// Body announces the body whose outline the following calls draw (in
	// LayerBodies).
	Body(b BodyInfo)
	// Polygon draws the closed outline through pts, counter-clockwise.
	Polygon(pts []shape.Vec2, st Style)
	// Circle draws the disc of radius r around c.
	Circle(c shape.Vec2, r float64, st Style)
	// Segment draws the segment from a to b, swept by a disc of radius r
	// (a capsule; r = 0 is a plain line in st.Stroke).
	Segment(a, b shape.Vec2, r float64, st Style)
	// Point draws a dot at p.
	Point(p shape.Vec2, c Color)
	// Arrow draws an arrow from the tail from to the head to.
	Arrow(from, to shape.Vec2, c Color)
	// Box draws the outline of an axis-aligned box.
	Box(b shape.AABB, c Color)
	// Text draws s with its baseline starting at p.
	Text(p shape.Vec2, s string, c Color)
}

// DrawOptions chooses what World.Draw shows. The zero DrawOptions draws the
// bodies only.
type DrawOptions struct {
	NoBodies bool // leave the bodies out
	Contacts bool // contact points, and with MTV their MTV arrows
	MTV      bool // each contact's MTV as an arrow at each contact point
	AABBs    bool // tight world boxes
	FatAABBs bool // the broad phase's fat boxes
	// Labels writes each body's id next to it (this formats a string per
	// body, so it allocates).
	Labels bool
	// Clip, when not the zero AABB, draws only the bodies whose tight box
	// overlaps it (and the contacts whose bodies are drawn): a window
	// around a point of a big world.
	Clip shape.AABB
	// Palette, when not nil, replaces DefaultPalette.
	Palette *Palette
}

// Palette holds the colours World.Draw uses.
type Palette struct {
	Dynamic, Static, Sensor, Bullet Style // bodies by kind and state
	AABB, FatAABB                   Color
	Contact, SweptContact, MTV      Color
	Query, Ray, Hit, Label          Color
}

// DefaultPalette colours bodies by state: dynamic blue, static grey, sensors
// translucent green (state wins over kind: a static sensor is green),
// bullets orange; contacts red, MTVs magenta, tight boxes teal, fat boxes
// light grey, queries and rays gold.
var DefaultPalette = Palette{
	Dynamic:      Style{Fill: Color{66, 133, 244, 110}, Stroke: Color{25, 80, 170, 255}},
	Static:       Style{Fill: Color{120, 120, 120, 150}, Stroke: Color{60, 60, 60, 255}},
	Sensor:       Style{Fill: Color{52, 168, 83, 50}, Stroke: Color{30, 130, 60, 255}},
	Bullet:       Style{Fill: Color{251, 140, 0, 170}, Stroke: Color{190, 90, 0, 255}},
	AABB:         Color{0, 150, 136, 255},
	FatAABB:      Color{170, 170, 170, 255},
	Contact:      Color{220, 30, 30, 255},
	SweptContact: Color{255, 110, 0, 255},
	MTV:          Color{200, 0, 200, 255},
	Query:        Color{230, 180, 0, 255},
	Ray:          Color{230, 180, 0, 255},
	Hit:          Color{220, 30, 30, 255},
	Label:        Color{0, 0, 0, 255},
}

// StyleOf returns the style p gives a body: sensor, then bullet, then
// static or dynamic.
func (p *Palette) StyleOf(b BodyInfo) Style {
	switch {
	case b.Sensor:
		return p.Sensor
	case b.Bullet:
		return p.Bullet
	case b.Kind == Static:
		return p.Static
	}
	return p.Dynamic
}

// vertexBuf is the scratch space for a placed outline. Draw takes one from
// the pool per call, not per body: a Drawer may keep nothing of it, but the
// compiler cannot know that, so a stack array passed through the interface
// would move to the heap at every body.
type vertexBuf = [shape.MaxPolygonVertices]shape.Vec2

var vertexPool = sync.Pool{New: func() any { return new(vertexBuf) }}

// Draw describes the world as it stands to d: the bodies in storage order
// (each a Body call then its outline, coloured by the palette's StyleOf),
// then as the options ask, the tight boxes, the fat boxes, the last Step's
// contacts (a point at each contact point), their MTV arrows and labels.
//
// An MTV arrow goes from each contact point p to p + Normal·Depth, with the
// manifold's Normal (A to B) and Depth: its length is the depth, and it
// shows the way B must move to separate (A moves the opposite way). A
// bullet's swept contact (depth 0) has no arrow and its point is drawn in
// SweptContact.
//
// Draw is a query: it writes nothing to the world, and with Labels off it
// allocates nothing once warmed, whatever the number of bodies. To draw on
// another goroutine than the world's, copy the frame with CopyScene.
func (w *World) Draw(d Drawer, o DrawOptions) {
	src := drawSource{
		hot: w.b.hot, shapes: w.b.shapes, xf: w.b.xf, filter: w.b.filter, user: w.b.user,
		tree: w.tree, contacts: w.contacts,
	}
	src.draw(d, o)
}

// drawSource is what drawing reads: the world's own storage (World.Draw)
// or a Scene's copy of it (Scene.Draw). One routine, draw, serves both, so
// that a scene draws exactly what the world drew.
type drawSource struct {
	hot    []hotBody
	shapes []shape.Shape
	xf     []shape.Transform
	filter []filterBits
	user   map[int32]any
	// tree holds the fat boxes; without one (a Scene), fat does, by slot.
	tree     *broadphase.Tree
	fat      []shape.AABB
	contacts []contact // stored form
}

// draw draws the frame src holds to d with options o: World.Draw's routine.
func (src *drawSource) draw(d Drawer, o DrawOptions) {
	pal := o.Palette
	if pal == nil {
		pal = &DefaultPalette
	}
	clip := o.Clip != (shape.AABB{})
	buf := vertexPool.Get().(*vertexBuf)
	defer vertexPool.Put(buf)
	hot := src.hot
	visible := func(s int32) bool {
		return hot[s].flags&flagAlive != 0 && (!clip || src.tight(s).Overlaps(o.Clip))
	}
	if !o.NoBodies {
		d.Layer(LayerBodies)
		for s := range hot {
			if !visible(int32(s)) {
				continue
			}
			info := src.bodyInfo(int32(s))
			d.Body(info)
			drawShape(d, src.shapes[s], src.xf[s], pal.StyleOf(info), buf)
		}
	}
	if o.AABBs {
		d.Layer(LayerAABBs)
		for s := range hot {
			if visible(int32(s)) {
				d.Box(src.tight(int32(s)), pal.AABB)
			}
		}
	}
	if o.FatAABBs {
		d.Layer(LayerFatAABBs)
		for s := range hot {
			if visible(int32(s)) {
				d.Box(src.fatAABB(int32(s)), pal.FatAABB)
			}
		}
	}
	shown := func(c *contact) bool {
		return !clip || visible(c.a.slot()) || visible(c.b.slot())
	}
	if o.Contacts {
		d.Layer(LayerContacts)
		for i := range src.contacts {
			c := &src.contacts[i]
			if !shown(c) {
				continue
			}
			col := pal.Contact
			if c.swept() {
				col = pal.SweptContact
			}
			for _, p := range c.points[:c.count()] {
				d.Point(p.Point, col)
			}
		}
	}
	if o.MTV {
		d.Layer(LayerMTV)
		for i := range src.contacts {
			if c := &src.contacts[i]; shown(c) && !c.swept() {
				drawMTV(d, c.manifold(), pal.MTV)
			}
		}
	}
	if o.Labels {
		d.Layer(LayerLabels)
		for s := range hot {
			if visible(int32(s)) {
				box := src.tight(int32(s))
				p := shape.Vec2{X: box.Min.X, Y: box.Max.Y}
				d.Text(p, strconv.FormatUint(uint64(makeID(int32(s), hot[s].gen)), 10), pal.Label)
			}
		}
	}
}

// tight returns the exact tight box of the body in slot s.
func (src *drawSource) tight(s int32) shape.AABB { return src.shapes[s].WorldAABB(src.xf[s]) }

// fatAABB returns the fat box of the live body in slot s.
func (src *drawSource) fatAABB(s int32) shape.AABB {
	if src.tree != nil {
		return src.tree.FatAABB(s)
	}
	return src.fat[s]
}

// bodyInfo returns what Drawer.Body says of the live body in slot s.
func (src *drawSource) bodyInfo(s int32) BodyInfo {
	h := &src.hot[s]
	info := BodyInfo{
		ID:     makeID(s, h.gen),
		Shape:  src.shapes[s].Kind(),
		Sensor: h.flags&flagSensor != 0,
		Bullet: h.flags&flagBullet != 0,
		Filter: Filter{Category: src.filter[s].cat, Mask: src.filter[s].mask},
		AABB:   src.tight(s),
	}
	if h.flags&flagStatic != 0 {
		info.Kind = Static
	}
	if len(src.user) != 0 {
		info.UserData = src.user[s]
	}
	return info
}

// Scene is a copy of a frame: what World.Draw reads, taken by
// World.CopyScene and drawn by Scene.Draw, which draws exactly what
// World.Draw drew at the copy, call for call. Copy on the goroutine that
// owns the world, draw on another: a live view's loop pays for a plain
// copy of the bodies' state, not for the drawing. The shapes are
// immutable and shared with the world; user values are shared, not
// copied, so a Drawer on another goroutine must not look inside a mutable
// one. A Scene keeps its memory from copy to copy: once it has grown to
// the world's size, copying allocates nothing. The zero Scene is empty.
//
// A Scene is not safe for concurrent use: copy, then draw (on any
// goroutine, once the copy is handed over), then copy again.
type Scene struct {
	src drawSource
	o   DrawOptions
	pal Palette
}

// CopyScene copies into sc what Draw with options o reads of the world as
// it stands (o's palette included): the bodies' slots, and as o asks the
// fat boxes and the last Step's contacts. Like Draw it is a query.
func (w *World) CopyScene(sc *Scene, o DrawOptions) {
	b, s := &w.b, &sc.src
	sc.pal = DefaultPalette
	if o.Palette != nil {
		sc.pal = *o.Palette
	}
	o.Palette = nil // Draw points it at sc.pal
	sc.o = o
	s.hot = append(s.hot[:0], b.hot...)
	s.shapes, s.xf, s.filter = s.shapes[:0], s.xf[:0], s.filter[:0]
	clear(s.user)
	if !o.NoBodies || o.AABBs || o.Labels || o.Clip != (shape.AABB{}) {
		// The exact tight boxes are computed from shapes and places.
		s.shapes = append(s.shapes, b.shapes...)
		s.xf = append(s.xf, b.xf...)
	}
	if !o.NoBodies {
		s.filter = append(s.filter, b.filter...)
		if len(b.user) != 0 && s.user == nil {
			s.user = make(map[int32]any, len(b.user))
		}
		for k, v := range b.user {
			s.user[k] = v
		}
	}
	s.fat = s.fat[:0]
	if o.FatAABBs {
		s.fat = slices.Grow(s.fat, len(b.hot))[:len(b.hot)]
		for i := range b.hot {
			if b.hot[i].flags&flagAlive != 0 {
				s.fat[i] = w.tree.FatAABB(int32(i))
			}
		}
	}
	s.contacts = s.contacts[:0]
	if o.Contacts || o.MTV {
		s.contacts = append(s.contacts, w.contacts...)
	}
}

// Draw describes the copied frame to d as World.Draw described the world
// with the copy's options when it was copied.
func (sc *Scene) Draw(d Drawer) {
	o := sc.o
	o.Palette = &sc.pal
	sc.src.draw(d, o)
}

// drawMTV draws m's MTV at each of its contact points.
func drawMTV(d Drawer, m narrowphase.Manifold, c Color) {
	mtv := m.Normal.Scale(m.Depth)
	for _, p := range m.Points[:m.Count] {
		d.Arrow(p.Point, p.Point.Add(mtv), c)
	}
}

// drawShape draws s placed by t: the one place that knows each kind's
// outline. A kind it does not know (one added to the shape package later)
// is drawn as its world box, so nothing is left out.
func drawShape(d Drawer, s shape.Shape, t shape.Transform, st Style, buf *vertexBuf) {
	t = s.EffectiveTransform(t)
	switch s.Kind() {
	case shape.KindCircle:
		d.Circle(t.Apply(s.Center()), s.Radius(), st)
	case shape.KindAABB, shape.KindOBB:
		for i, c := range s.Corners() {
			buf[i] = t.Apply(c)
		}
		d.Polygon(buf[:4], st)
	case shape.KindPolygon:
		vs := s.Vertices()
		for i, v := range vs {
			buf[i] = t.Apply(v)
		}
		d.Polygon(buf[:len(vs)], st)
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := s.Segment()
		d.Segment(t.Apply(p0), t.Apply(p1), s.Radius(), st)
	case shape.KindCompound, shape.KindChain:
		// Part by part: a compound's convex parts, a chain's segments.
		for i := range s.PartCount() {
			ps, pt := s.Part(i, t)
			drawShape(d, ps, pt, st, buf)
		}
	default:
		bx := s.WorldAABB(t)
		d.Box(bx, st.Stroke)
	}
}

// DrawShape draws shape s placed by t with style st, as World.Draw draws a
// body.
func DrawShape(d Drawer, s shape.Shape, t shape.Transform, st Style) {
	buf := vertexPool.Get().(*vertexBuf)
	drawShape(d, s, t, st, buf)
	vertexPool.Put(buf)
}

// DrawQuery draws a query shape (for QueryShape) s placed by t as an
// outline in DefaultPalette.Query, in LayerQuery. Draw each hit's manifold
// with DrawManifold.
func DrawQuery(d Drawer, s shape.Shape, t shape.Transform) {
	d.Layer(LayerQuery)
	DrawShape(d, s, t, Style{Stroke: DefaultPalette.Query})
}

// DrawManifold draws a manifold, from QueryShape or narrowphase.Collide, in
// LayerQuery: a point at each contact point and the MTV arrow there, as
// World.Draw draws contacts.
func DrawManifold(d Drawer, m narrowphase.Manifold) {
	d.Layer(LayerQuery)
	for _, p := range m.Points[:m.Count] {
		d.Point(p.Point, DefaultPalette.Hit)
	}
	drawMTV(d, m, DefaultPalette.MTV)
}

// maxRayDraw is the longest a ray that hit nothing is drawn: an infinite
// maxDist would put the end point at infinity.
const maxRayDraw = 1e9

// DrawRay draws a ray cast (for RayCast, RayCastAll) in LayerQuery: the ray
// from origin along dir to the hit point, or to maxDist (at most 1e9) when
// ok is false, and for a hit its point and its unit normal as an arrow one
// world unit long.
func DrawRay(d Drawer, origin, dir shape.Vec2, maxDist float64, hit RayHit, ok bool) {
	d.Layer(LayerQuery)
	if ok {
		d.Segment(origin, hit.Point, 0, Style{Stroke: DefaultPalette.Ray})
		d.Point(hit.Point, DefaultPalette.Hit)
		d.Arrow(hit.Point, hit.Point.Add(hit.Normal), DefaultPalette.Hit)
		return
	}
	end := origin.Add(dir.Normalize().Scale(min(maxDist, maxRayDraw)))
	d.Segment(origin, end, 0, Style{Stroke: DefaultPalette.Ray})
}
