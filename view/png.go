package view

import (
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/collide-go/collide"
	"golang.org/x/image/vector"
)

// Render draws f as seen through v onto a new white image, antialiased
// (golang.org/x/image/vector rasterises every outline). Strokes are one
// pixel wide; points and arrow heads keep their pixel size at any zoom.
// Text is not drawn: there is no font in the standard library, and the
// SVG writer and the live view show labels.
func Render(f *Frame, v Viewport) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, v.W, v.H))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	r := raster{img: img, v: v, z: vector.NewRasterizer(1, 1)}
	for i := range f.prims {
		p := &f.prims[i]
		if v.sees(f, p) {
			r.prim(f, p)
		}
	}
	return img
}

// WritePNG writes f as seen through v as a PNG image (see Render).
func WritePNG(w io.Writer, f *Frame, v Viewport) error {
	return png.Encode(w, Render(f, v))
}

// raster fills paths in pixel coordinates. Each path is rasterised in a
// rasteriser the size of its own bounding box, so that a small body costs
// a small area, not the whole image.
type raster struct {
	img  *image.RGBA
	v    Viewport
	z    *vector.Rasterizer
	path [][2]float64 // the current path's points, in pixels
	subs []int        // start of each sub-path in path
}

func (r *raster) begin() { r.path, r.subs = r.path[:0], r.subs[:0] }

// sub starts a sub-path (a closed loop) at the next point.
func (r *raster) sub() { r.subs = append(r.subs, len(r.path)) }

func (r *raster) add(x, y float64) { r.path = append(r.path, [2]float64{x, y}) }

// fill rasterises the current path's closed loops, with the non-zero
// rule, in colour c.
func (r *raster) fill(c collide.Color) {
	if c.A == 0 || len(r.path) == 0 {
		return
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range r.path {
		x0, y0 = math.Min(x0, p[0]), math.Min(y0, p[1])
		x1, y1 = math.Max(x1, p[0]), math.Max(y1, p[1])
	}
	b := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(r.img.Rect)
	if b.Empty() {
		return
	}
	r.z.Reset(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for k, start := range r.subs {
		end := len(r.path)
		if k+1 < len(r.subs) {
			end = r.subs[k+1]
		}
		for j := start; j < end; j++ {
			x, y := float32(r.path[j][0]-ox), float32(r.path[j][1]-oy)
			if j == start {
				r.z.MoveTo(x, y)
			} else {
				r.z.LineTo(x, y)
			}
		}
		r.z.ClosePath()
	}
	src := image.NewUniform(color.NRGBA{c.R, c.G, c.B, c.A})
	r.z.Draw(r.img, b, src, image.Point{})
}

// stroke fills a quad of width wd around the pixel segment a–b.
func (r *raster) strokeSeg(a, b [2]float64, wd float64) {
	dx, dy := b[0]-a[0], b[1]-a[1]
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := float64(float64(-dy/l*wd)/2), float64(float64(dx/l*wd)/2)
	r.sub()
	r.add(a[0]+nx, a[1]+ny)
	r.add(b[0]+nx, b[1]+ny)
	r.add(b[0]-nx, b[1]-ny)
	r.add(a[0]-nx, a[1]-ny)
}

// outline strokes the closed loop pts (pixels) in c.
func (r *raster) outline(pts [][2]float64, c collide.Color) {
	if c.A == 0 {
		return
	}
	r.begin()
	for k := range pts {
		r.strokeSeg(pts[k], pts[(k+1)%len(pts)], 1)
	}
	r.fill(c)
}

// circlePts returns a circle of pixel radius rp around (cx, cy) as a
// polygon fine enough that it strays from the circle by under 0.05 pixel.
func circlePts(dst [][2]float64, cx, cy, rp float64) [][2]float64 {
	n := 8
	for n < 256 && rp*(1-math.Cos(math.Pi/float64(n))) > 0.05 {
		n *= 2
	}
	for k := range n {
		sn, cs := math.Sincos(2 * math.Pi * float64(k) / float64(n))
		dst = append(dst, [2]float64{cx + float64(rp*cs), cy + float64(rp*sn)})
	}
	return dst
}

// capsulePts returns the outline of the pixel segment a–b swept by a disc
// of pixel radius rp: a half circle around b, then one around a.
func capsulePts(dst [][2]float64, a, b [2]float64, rp float64) [][2]float64 {
	th := math.Atan2(b[1]-a[1], b[0]-a[0])
	const n = 16
	for k := range n + 1 {
		sn, cs := math.Sincos(th - math.Pi/2 + float64(math.Pi*float64(k)/n))
		dst = append(dst, [2]float64{b[0] + float64(rp*cs), b[1] + float64(rp*sn)})
	}
	for k := range n + 1 {
		sn, cs := math.Sincos(th + math.Pi/2 + float64(math.Pi*float64(k)/n))
		dst = append(dst, [2]float64{a[0] + float64(rp*cs), a[1] + float64(rp*sn)})
	}
	return dst
}

func (r *raster) prim(f *Frame, p *prim) {
	pts := f.pts[p.i : p.i+p.n]
	var loop [][2]float64
	switch p.op {
	case opPolygon:
		for _, q := range pts {
			x, y := r.v.Pixel(q)
			loop = append(loop, [2]float64{x, y})
		}
	case opCircle:
		x, y := r.v.Pixel(pts[0])
		loop = circlePts(nil, x, y, p.r*r.v.Scale)
	case opBox:
		x0, y1 := r.v.Pixel(pts[0])
		x1, y0 := r.v.Pixel(pts[1])
		r.outline([][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, p.st.Stroke)
		return
	case opPoint:
		x, y := r.v.Pixel(pts[0])
		r.begin()
		r.sub()
		for _, q := range circlePts(nil, x, y, pointRadius) {
			r.add(q[0], q[1])
		}
		r.fill(p.st.Fill)
		return
	case opSegment, opArrow:
		x0, y0 := r.v.Pixel(pts[0])
		x1, y1 := r.v.Pixel(pts[1])
		a, b := [2]float64{x0, y0}, [2]float64{x1, y1}
		if p.op == opSegment && p.r > 0 {
			r.begin()
			r.sub()
			for _, q := range capsulePts(nil, a, b, p.r*r.v.Scale) {
				r.add(q[0], q[1])
			}
			r.fill(p.st.Fill)
		}
		wd, c := 1.0, p.st.Stroke
		if p.op == opArrow {
			wd = 1.5
		}
		r.begin()
		r.strokeSeg(a, b, wd)
		r.fill(c)
		if h, ok := arrowHeadAt(r.v, pts[0], pts[1]); ok && p.op == opArrow {
			r.begin()
			r.sub()
			for _, q := range h {
				r.add(q[0], q[1])
			}
			r.fill(c)
		}
		return
	case opText:
		return
	}
	r.begin()
	r.sub()
	for _, q := range loop {
		r.add(q[0], q[1])
	}
	r.fill(p.st.Fill)
	r.outline(loop, p.st.Stroke)
}
