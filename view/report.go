package view

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/collide-go/collide"
)

// FrameRecord is one frame of a run, for a Report.
type FrameRecord struct {
	// Time is the frame's wall time as the caller measured it (the
	// mutations and the Step, say).
	Time time.Duration
	// Stats are the world's Stats after the frame's Step.
	Stats collide.Stats
}

// Report is a run to write as one self-contained HTML page.
type Report struct {
	Title  string        // the page's title; empty: "collide run"
	Notes  []string      // lines printed under the title (scene, machine, command)
	Frames []FrameRecord // in order
	// Last, when not nil, is pictured at the end (a PNG inside the page).
	Last *Frame
}

// Phase names, in the order of the stacked plot.
var phaseNames = [...]string{"update", "pair finding", "narrow phase", "events", "outside Step"}

var phaseColours = [...]string{"#fbbc05", "#34a853", "#4285f4", "#ea4335", "#bbbbbb"}

// phases returns a frame's phase times in milliseconds: the Step's four
// phases (Stats) and the rest of the frame's time.
func (fr FrameRecord) phases() [5]float64 {
	s := fr.Stats
	p := [5]float64{float64(s.UpdateNs) / 1e6, float64(s.PairsNs) / 1e6, float64(s.NarrowNs) / 1e6, float64(s.EventsNs) / 1e6}
	p[4] = math.Max(0, float64(fr.Time.Nanoseconds())/1e6-(p[0]+p[1]+p[2]+p[3]))
	return p
}

// WriteReport writes r as one HTML page with nothing to fetch: a plot of
// frame time over frames, a table of percentiles (frame time and each
// phase), the phase breakdown as a stacked plot (update, pair finding,
// narrow phase, events, and the frame's time outside Step), contacts per
// frame, and a picture of the last frame. The plots are inline SVG.
func WriteReport(w io.Writer, r *Report) error {
	var b bytes.Buffer
	title := r.Title
	if title == "" {
		title = "collide run"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n", html.EscapeString(title))
	b.WriteString(`<style>
body { font: 14px sans-serif; margin: 24px; color: #222; max-width: 1000px; }
table { border-collapse: collapse; margin: 8px 0 20px; }
th, td { border: 1px solid #ccc; padding: 3px 10px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
svg text { font: 11px sans-serif; fill: #444; }
.key span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 14px; vertical-align: middle; }
</style>
</head>
<body>
`)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(n))
	}
	n := len(r.Frames)
	if n == 0 {
		b.WriteString("<p>No frames.</p>\n")
	} else {
		ft := make([]float64, n)
		contacts := make([]float64, n)
		var ph [5][]float64
		for i, fr := range r.Frames {
			ft[i] = float64(fr.Time.Nanoseconds()) / 1e6
			contacts[i] = float64(fr.Stats.Contacts)
			p := fr.phases()
			for k := range p {
				ph[k] = append(ph[k], p[k])
			}
		}
		b.WriteString("<h2>Frame time</h2>\n")
		linePlot(&b, ft, "ms", "#1950aa", []float64{quantile(sorted(ft), 0.5), quantile(sorted(ft), 0.99)}, []string{"p50", "p99"})
		b.WriteString("<h2>Percentiles (ms)</h2>\n<table>\n<tr><th></th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>\n")
		row := func(name string, v []float64) {
			s := sorted(v)
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n",
				html.EscapeString(name), mean(v), quantile(s, 0.5), quantile(s, 0.9), quantile(s, 0.99), s[len(s)-1])
		}
		row("frame", ft)
		for k, name := range phaseNames {
			row(name, ph[k])
		}
		b.WriteString("</table>\n<h2>Phases</h2>\n")
		stackPlot(&b, ph[:])
		b.WriteString("<p class=\"key\">")
		for k, name := range phaseNames {
			fmt.Fprintf(&b, "<span style=\"background:%s\"></span>%s", phaseColours[k], name)
		}
		b.WriteString("</p>\n<h2>Contacts per frame</h2>\n")
		linePlot(&b, contacts, "contacts", "#ea4335", nil, nil)
	}
	if r.Last != nil {
		b.WriteString("<h2>Last frame</h2>\n")
		var img bytes.Buffer
		if err := WritePNG(&img, r.Last, Fit(r.Last.Bounds(), 900, 900, 10)); err != nil {
			return err
		}
		b.WriteString(`<img alt="the last frame" width="900" height="900" src="data:image/png;base64,`)
		b.WriteString(base64.StdEncoding.EncodeToString(img.Bytes()))
		b.WriteString("\">\n")
	}
	b.WriteString("</body>\n</html>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// Plot geometry, in SVG pixels.
const (
	plotW, plotH = 900.0, 220.0
	plotL, plotB = 50.0, 20.0 // room for the y labels and the x labels
)

// niceMax returns a round number at or above v, for an axis.
func niceMax(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if float64(m*e) >= v {
			return float64(m * e)
		}
	}
	return float64(10 * e)
}

// axes writes a plot's frame and labels; it returns the x and y scales.
func axes(b *bytes.Buffer, n int, top float64, unit string) (sx, sy float64) {
	sx = (plotW - plotL) / math.Max(float64(n-1), 1)
	sy = (plotH - plotB) / top
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">\n", plotW, plotH+4, plotW, plotH+4)
	fmt.Fprintf(b, "<rect x=\"%g\" y=\"0\" width=\"%g\" height=\"%g\" fill=\"#fafafa\" stroke=\"#ccc\"/>\n", plotL, plotW-plotL, plotH-plotB)
	for _, f := range []float64{0, 0.5, 1} {
		y := plotH - plotB - float64(f*top*sy)
		fmt.Fprintf(b, "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", plotL-4, y+4, strconv.FormatFloat(float64(f*top), 'g', 4, 64))
	}
	fmt.Fprintf(b, "<text x=\"4\" y=\"12\">%s</text>\n", html.EscapeString(unit))
	fmt.Fprintf(b, "<text x=\"%g\" y=\"%g\">frame 0</text><text x=\"%g\" y=\"%g\" text-anchor=\"end\">frame %d</text>\n", plotL, plotH+2, plotW, plotH+2, n-1)
	return sx, sy
}

// linePlot writes v over frames, with dashed horizontal marks.
func linePlot(b *bytes.Buffer, v []float64, unit, colour string, marks []float64, names []string) {
	top := niceMax(slices.Max(v))
	sx, sy := axes(b, len(v), top, unit)
	base := plotH - plotB
	fmt.Fprintf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1\" points=\"", colour)
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(b, "%.1f,%.1f", plotL+float64(float64(i)*sx), base-float64(x*sy))
	}
	b.WriteString("\"/>\n")
	for k, m := range marks {
		y := base - float64(m*sy)
		fmt.Fprintf(b, "<line x1=\"%g\" x2=\"%g\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>", plotL, plotW, y, y)
		fmt.Fprintf(b, "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s %.3f</text>\n", plotW-4, y-3, names[k], m)
	}
	b.WriteString("</svg>\n")
}

// stackPlot writes the phases stacked over frames, one band each.
func stackPlot(b *bytes.Buffer, ph [][]float64) {
	n := len(ph[0])
	total := make([]float64, n)
	for _, p := range ph {
		for i, x := range p {
			total[i] += x
		}
	}
	top := niceMax(slices.Max(total))
	sx, sy := axes(b, n, top, "ms")
	base := plotH - plotB
	lower := make([]float64, n)
	for k, p := range ph {
		fmt.Fprintf(b, "<polygon fill=\"%s\" stroke=\"none\" points=\"", phaseColours[k])
		for i := range n {
			fmt.Fprintf(b, "%.1f,%.1f ", plotL+float64(float64(i)*sx), base-float64((lower[i]+p[i])*sy))
		}
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(b, "%.1f,%.1f", plotL+float64(float64(i)*sx), base-float64(lower[i]*sy))
			if i > 0 {
				b.WriteByte(' ')
			}
		}
		b.WriteString("\"/>\n")
		for i := range n {
			lower[i] += p[i]
		}
	}
	b.WriteString("</svg>\n")
}

func sorted(v []float64) []float64 { return slices.Sorted(slices.Values(v)) }

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// quantile returns the q-quantile of the sorted, non-empty v, interpolated
// between the closest ranks (Hyndman and Fan's method 7, as R and NumPy).
func quantile(s []float64, q float64) float64 {
	h := float64(float64(len(s)-1) * q)
	lo := int(math.Floor(h))
	hi := min(lo+1, len(s)-1)
	return s[lo] + float64((h-float64(lo))*(s[hi]-s[lo]))
}
