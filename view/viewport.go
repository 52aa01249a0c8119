package view

import (
	"math"

	"github.com/collide-go/collide"
)

// Viewport maps a window of the world onto an image W×H pixels: world
// point Center lands in the middle of the image, Scale pixels make one world
// unit, and y points up in the world and down in the image.
type Viewport struct {
	W, H   int          // image size in pixels
	Center collide.Vec2 // world point at the image's centre
	Scale  float64      // pixels per world unit
}

// Fit returns the viewport of a w×h image that shows all of box with a
// margin of pad pixels on every side. An empty or degenerate box is shown
// around its centre at one pixel per unit.
func Fit(box collide.AABB, w, h, pad int) Viewport {
	v := Viewport{W: w, H: h, Center: box.Center(), Scale: 1}
	if box.IsEmpty() {
		v.Center = collide.Vec2{}
		return v
	}
	bw, bh := box.Max.X-box.Min.X, box.Max.Y-box.Min.Y
	aw, ah := float64(max(w-2*pad, 1)), float64(max(h-2*pad, 1))
	if s := math.Min(aw/bw, ah/bh); s > 0 && !math.IsInf(s, 0) {
		v.Scale = s
	}
	return v
}

// Around returns the viewport of a w×h image centred on c that shows
// halfWidth world units either side of it horizontally.
func Around(c collide.Vec2, halfWidth float64, w, h int) Viewport {
	return Viewport{W: w, H: h, Center: c, Scale: float64(w) / (2 * halfWidth)}
}

// Pixel returns the image coordinates of world point p (x right, y down).
func (v Viewport) Pixel(p collide.Vec2) (x, y float64) {
	// Products (and halvings, which compile to products) converted
	// explicitly: no fused multiply-add on arm64.
	x = float64((p.X-v.Center.X)*v.Scale) + float64(float64(v.W)/2)
	y = float64(float64(v.H)/2) - float64((p.Y-v.Center.Y)*v.Scale)
	return x, y
}

// World returns the world box the viewport shows.
func (v Viewport) World() collide.AABB {
	hw, hh := float64(v.W)/(2*v.Scale), float64(v.H)/(2*v.Scale)
	return collide.AABB{Min: collide.V(v.Center.X-hw, v.Center.Y-hh), Max: collide.V(v.Center.X+hw, v.Center.Y+hh)}
}
