package view

import (
	"bufio"
	"encoding/xml"
	"io"
	"math"
	"strconv"

	"github.com/collide-go/collide"
)

// pointRadius is the radius in pixels of a drawn point, and arrowHead the
// length of an arrow's head; both keep their size at any zoom.
const (
	pointRadius = 2.5
	arrowHead   = 6.0
)

// WriteSVG writes f as seen through v as an SVG document: one group per
// layer (class "layer-bodies", "layer-contacts", …), body outlines carrying
// their id in data-id, coordinates rounded to 0.01 pixel. Primitives
// wholly outside the viewport are left out. The output depends on f and v
// only, byte for byte.
func WriteSVG(w io.Writer, f *Frame, v Viewport) error {
	bw := bufio.NewWriter(w)
	s := svgWriter{w: bw, v: v}
	s.buf = append(s.buf, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<svg xmlns="http://www.w3.org/2000/svg" width="`...)
	s.buf = strconv.AppendInt(s.buf, int64(v.W), 10)
	s.buf = append(s.buf, `" height="`...)
	s.buf = strconv.AppendInt(s.buf, int64(v.H), 10)
	s.buf = append(s.buf, `" viewBox="0 0 `...)
	s.buf = strconv.AppendInt(s.buf, int64(v.W), 10)
	s.buf = append(s.buf, ' ')
	s.buf = strconv.AppendInt(s.buf, int64(v.H), 10)
	s.buf = append(s.buf, `">`+"\n"+`<rect width="100%" height="100%" fill="#ffffff"/>`+"\n"...)
	layer := collide.Layer(255)
	for i := range f.prims {
		p := &f.prims[i]
		if !v.sees(f, p) {
			continue
		}
		if p.layer != layer {
			if layer != 255 {
				s.buf = append(s.buf, "</g>\n"...)
			}
			layer = p.layer
			s.buf = append(s.buf, `<g class="layer-`...)
			s.buf = append(s.buf, layer.String()...)
			s.buf = append(s.buf, "\">\n"...)
		}
		s.prim(f, p)
		if len(s.buf) > 32<<10 {
			if _, err := bw.Write(s.buf); err != nil {
				return err
			}
			s.buf = s.buf[:0]
		}
	}
	if layer != 255 {
		s.buf = append(s.buf, "</g>\n"...)
	}
	s.buf = append(s.buf, "</svg>\n"...)
	if _, err := bw.Write(s.buf); err != nil {
		return err
	}
	return bw.Flush()
}

type svgWriter struct {
	w   io.Writer
	v   Viewport
	buf []byte
}

func (s *svgWriter) num(x float64) {
	x = math.Round(x*100) / 100
	if x == 0 {
		x = 0 // no "-0"
	}
	s.buf = strconv.AppendFloat(s.buf, x, 'f', -1, 64)
}

func (s *svgWriter) attr(name string, x float64) {
	s.buf = append(s.buf, ' ')
	s.buf = append(s.buf, name...)
	s.buf = append(s.buf, `="`...)
	s.num(x)
	s.buf = append(s.buf, '"')
}

func (s *svgWriter) pt(p collide.Vec2) {
	x, y := s.v.Pixel(p)
	s.num(x)
	s.buf = append(s.buf, ',')
	s.num(y)
}

// paint writes a fill or stroke attribute pair for c ("none" if it is
// transparent).
func (s *svgWriter) paint(name string, c collide.Color) {
	s.buf = append(s.buf, ' ')
	s.buf = append(s.buf, name...)
	if c.A == 0 {
		s.buf = append(s.buf, `="none"`...)
		return
	}
	const hex = "0123456789abcdef"
	s.buf = append(s.buf, `="#`...)
	for _, b := range []uint8{c.R, c.G, c.B} {
		s.buf = append(s.buf, hex[b>>4], hex[b&15])
	}
	s.buf = append(s.buf, '"')
	if c.A != 255 {
		s.buf = append(s.buf, ' ')
		s.buf = append(s.buf, name...)
		s.buf = append(s.buf, `-opacity="`...)
		s.buf = strconv.AppendFloat(s.buf, math.Round(float64(c.A)/255*1000)/1000, 'f', -1, 64)
		s.buf = append(s.buf, '"')
	}
}

func (s *svgWriter) prim(f *Frame, p *prim) {
	pts := f.pts[p.i : p.i+p.n]
	switch p.op {
	case opPolygon:
		s.buf = append(s.buf, `<polygon points="`...)
		for k, q := range pts {
			if k > 0 {
				s.buf = append(s.buf, ' ')
			}
			s.pt(q)
		}
		s.buf = append(s.buf, '"')
		s.style(f, p)
	case opCircle:
		x, y := s.v.Pixel(pts[0])
		s.buf = append(s.buf, "<circle"...)
		s.attr("cx", x)
		s.attr("cy", y)
		s.attr("r", p.r*s.v.Scale)
		s.style(f, p)
	case opSegment:
		a, b := pts[0], pts[1]
		if p.r > 0 {
			s.line(a, b, p.st.Fill, 2*p.r*s.v.Scale, true)
		}
		s.line(a, b, p.st.Stroke, 1, false)
	case opPoint:
		x, y := s.v.Pixel(pts[0])
		s.buf = append(s.buf, "<circle"...)
		s.attr("cx", x)
		s.attr("cy", y)
		s.attr("r", pointRadius)
		s.paint("fill", p.st.Fill)
		s.buf = append(s.buf, "/>\n"...)
	case opArrow:
		s.line(pts[0], pts[1], p.st.Stroke, 1.5, false)
		if h, ok := arrowHeadAt(s.v, pts[0], pts[1]); ok {
			s.buf = append(s.buf, `<polygon points="`...)
			for k := range h {
				if k > 0 {
					s.buf = append(s.buf, ' ')
				}
				s.num(h[k][0])
				s.buf = append(s.buf, ',')
				s.num(h[k][1])
			}
			s.buf = append(s.buf, '"')
			s.paint("fill", p.st.Stroke)
			s.buf = append(s.buf, "/>\n"...)
		}
	case opBox:
		x0, y1 := s.v.Pixel(pts[0])
		x1, y0 := s.v.Pixel(pts[1])
		s.buf = append(s.buf, "<rect"...)
		s.attr("x", x0)
		s.attr("y", y0)
		s.attr("width", x1-x0)
		s.attr("height", y1-y0)
		s.buf = append(s.buf, ` fill="none"`...)
		s.paint("stroke", p.st.Stroke)
		s.buf = append(s.buf, "/>\n"...)
	case opText:
		x, y := s.v.Pixel(pts[0])
		s.buf = append(s.buf, "<text"...)
		s.attr("x", x)
		s.attr("y", y)
		s.buf = append(s.buf, ` font-family="sans-serif" font-size="10"`...)
		s.paint("fill", p.st.Fill)
		s.buf = append(s.buf, '>')
		var esc escaper
		_ = xml.EscapeText(&esc, []byte(f.texts[p.text]))
		s.buf = append(s.buf, esc...)
		s.buf = append(s.buf, "</text>\n"...)
	}
}

// escaper collects the XML-escaped bytes of a text (xml.EscapeText writes
// to an io.Writer).
type escaper []byte

// Write appends b.
func (e *escaper) Write(b []byte) (int, error) { *e = append(*e, b...); return len(b), nil }

func (s *svgWriter) style(f *Frame, p *prim) {
	s.paint("fill", p.st.Fill)
	s.paint("stroke", p.st.Stroke)
	if p.body >= 0 {
		s.buf = append(s.buf, ` data-id="`...)
		s.buf = strconv.AppendUint(s.buf, uint64(f.bodies[p.body].ID), 10)
		s.buf = append(s.buf, '"')
	}
	s.buf = append(s.buf, "/>\n"...)
}

func (s *svgWriter) line(a, b collide.Vec2, c collide.Color, width float64, round bool) {
	if c.A == 0 {
		return
	}
	x0, y0 := s.v.Pixel(a)
	x1, y1 := s.v.Pixel(b)
	s.buf = append(s.buf, "<line"...)
	s.attr("x1", x0)
	s.attr("y1", y0)
	s.attr("x2", x1)
	s.attr("y2", y1)
	s.paint("stroke", c)
	s.attr("stroke-width", width)
	if round {
		s.buf = append(s.buf, ` stroke-linecap="round"`...)
	}
	s.buf = append(s.buf, "/>\n"...)
}

// arrowHeadAt returns the pixel corners of the head of the arrow from a to
// b: a triangle arrowHead pixels long at b, or false for an arrow shorter
// than a tenth of a pixel.
func arrowHeadAt(v Viewport, a, b collide.Vec2) ([3][2]float64, bool) {
	x0, y0 := v.Pixel(a)
	x1, y1 := v.Pixel(b)
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l < 0.1 {
		return [3][2]float64{}, false
	}
	hl := math.Min(arrowHead, l)
	ux, uy := dx/l, dy/l
	bx, by := x1-float64(ux*hl), y1-float64(uy*hl)
	hw := hl / 2.5
	return [3][2]float64{{x1, y1}, {bx - float64(uy*hw), by + float64(ux*hw)}, {bx + float64(uy*hw), by - float64(ux*hw)}}, true
}

// sees reports whether any part of p can show in v.
func (v Viewport) sees(f *Frame, p *prim) bool {
	pts := f.pts[p.i : p.i+p.n]
	if len(pts) == 0 {
		return false
	}
	r := p.r
	if p.op == opText {
		r = math.Inf(1) // its extent is unknown in world units: keep it
	}
	lo, hi := pts[0], pts[0]
	for _, q := range pts[1:] {
		lo, hi = lo.Min(q), hi.Max(q)
	}
	pad := (pointRadius + arrowHead) / v.Scale
	box := collide.AABB{Min: collide.V(lo.X-r-pad, lo.Y-r-pad), Max: collide.V(hi.X+r+pad, hi.Y+r+pad)}
	return box.Overlaps(v.World())
}
