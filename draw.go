package collide

import "github.com/collide-go/collide/engine"

// Debug drawing: the world describes a frame to a Drawer; the view package
// renders it to SVG, PNG or a live page. Re-exported from engine.
type (
	// Drawer receives the description of a frame; see engine.Drawer.
	Drawer = engine.Drawer
	// DrawOptions chooses what World.Draw shows; the zero value draws the
	// bodies only.
	DrawOptions = engine.DrawOptions
	// Color is a colour with straight alpha, 8 bits a channel.
	Color = engine.Color
	// Style is an outline's fill and stroke.
	Style = engine.Style
	// Layer says what the primitives a Drawer receives show.
	Layer = engine.Layer
	// BodyInfo describes the body a Drawer is about to draw.
	BodyInfo = engine.BodyInfo
	// Palette holds the colours World.Draw uses.
	Palette = engine.Palette
	// Scene is a copy of a frame, taken by World.CopyScene on the world's
	// goroutine and drawn by its Draw method on any goroutine, exactly as
	// World.Draw drew it; see engine.Scene.
	Scene = engine.Scene
)

// The layers, in the order World.Draw emits them.
const (
	// LayerBodies holds the bodies' outlines.
	LayerBodies = engine.LayerBodies
	// LayerAABBs holds the tight world boxes.
	LayerAABBs = engine.LayerAABBs
	// LayerFatAABBs holds the broad phase's fat boxes.
	LayerFatAABBs = engine.LayerFatAABBs
	// LayerContacts holds the contact points.
	LayerContacts = engine.LayerContacts
	// LayerMTV holds the contacts' MTV arrows.
	LayerMTV = engine.LayerMTV
	// LayerQuery holds query shapes, rays and their hits.
	LayerQuery = engine.LayerQuery
	// LayerLabels holds text.
	LayerLabels = engine.LayerLabels
	// LayerCount is the number of layers.
	LayerCount = engine.LayerCount
)

// DefaultPalette is the palette World.Draw uses unless told otherwise:
// dynamic blue, static grey, sensors green, bullets orange, contacts red,
// MTVs magenta.
var DefaultPalette = &engine.DefaultPalette

// Draw describes the world as it stands to d: bodies in storage order, and
// as o asks, tight and fat boxes, the last Step's contact points and MTV
// arrows (from each contact point p to p + Normal·Depth), and labels. It is
// a read-only query and, without labels, allocates nothing once warmed. See
// engine.World.Draw.
func (w *World) Draw(d Drawer, o DrawOptions) { w.e.Draw(d, o) }

// CopyScene copies into sc what Draw with options o reads of the world as
// it stands: a plain copy of the bodies' state (and as o asks, the fat
// boxes and the last Step's contacts), for sc.Draw to draw on another
// goroutine while the loop steps on. The copy shares the shapes
// (immutable) and the user values (not copied). It is a read-only query
// and, once sc has grown to the world's size, allocates nothing. See
// engine.World.CopyScene.
func (w *World) CopyScene(sc *Scene, o DrawOptions) { w.e.CopyScene(sc, o) }

// DrawShape draws shape s placed by t with style st, as Draw draws a body.
func DrawShape(d Drawer, s Shape, t Transform, st Style) { engine.DrawShape(d, s, t, st) }

// DrawQuery draws a QueryShape query's shape s placed by t, in LayerQuery.
func DrawQuery(d Drawer, s Shape, t Transform) { engine.DrawQuery(d, s, t) }

// DrawManifold draws a manifold's points and MTV arrows, in LayerQuery.
func DrawManifold(d Drawer, m Manifold) { engine.DrawManifold(d, m) }

// DrawRay draws a ray cast and its hit (ok) in LayerQuery: the ray to the
// hit point or to maxDist, the hit point and its normal.
func DrawRay(d Drawer, origin, dir Vec2, maxDist float64, hit RayHit, ok bool) {
	engine.DrawRay(d, origin, dir, maxDist, hit, ok)
}
