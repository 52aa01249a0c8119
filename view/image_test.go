package view_test

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/view"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixedScene is a small world with every body state and one contact: a
// circle overlapping a turned OBB, a static box, a sensor triangle, a
// bullet, stepped once.
func fixedScene(t testing.TB) *collide.World {
	t.Helper()
	w := collide.NewWorld(collide.Config{Workers: 1})
	t.Cleanup(w.Close)
	circle, _ := collide.NewCircle(1)
	obb, _ := collide.NewOBB(1, 0.5)
	box, _ := collide.NewAABB(2, 1)
	tri, _ := collide.NewPolygon([]collide.Vec2{collide.V(-1, -1), collide.V(1, -1), collide.V(0, 1)})
	small, _ := collide.NewCircle(0.3)
	for _, d := range []collide.BodyDef{
		{Shape: circle, Position: collide.V(0, 0), UserData: "hero"},
		{Shape: obb, Position: collide.V(1.5, 0.2), Angle: 0.3},
		{Shape: box, Position: collide.V(6, -1), Kind: collide.Static},
		{Shape: tri, Position: collide.V(2, 4), Sensor: true},
		{Shape: small, Position: collide.V(-3, 3), Bullet: true},
	} {
		if _, err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	return w
}

var allLayers = collide.DrawOptions{Contacts: true, MTV: true, AABBs: true, FatAABBs: true, Labels: true}

func TestSVGIsXMLAndMatchesGolden(t *testing.T) {
	w := fixedScene(t)
	var f view.Frame
	view.Capture(&f, w, allLayers)
	var buf bytes.Buffer
	if err := view.WriteSVG(&buf, &f, view.Fit(f.Bounds(), 400, 300, 10)); err != nil {
		t.Fatal(err)
	}
	// It parses, and holds what was drawn.
	counts := map[string]int{}
	ids := 0
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, buf.String())
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			for _, a := range se.Attr {
				if a.Name.Local == "data-id" {
					ids++
				}
			}
		}
	}
	want := map[string]int{
		"svg": 1, "g": 6, // bodies, aabbs, fat, contacts, mtv, labels
		"circle": 2 + 1, // two circle bodies, one contact point
		"rect":   1 + 5 + 5,
		"text":   5,
	}
	for el, n := range want {
		if counts[el] != n {
			t.Errorf("%d <%s> elements, want %d", counts[el], el, n)
		}
	}
	if ids != 5 {
		t.Errorf("%d outlines carry a data-id, want one per body (5)", ids)
	}
	golden := filepath.Join("testdata", "frame.golden.svg")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./view -run SVG -update to write it)", err)
	}
	if !bytes.Equal(g, buf.Bytes()) {
		t.Errorf("WriteSVG differs from %s (rerun with -update if the change is meant):\n%s", golden, buf.String())
	}
}

// ink returns the coverage-weighted area (in pixels) and centroid of the
// non-white pixels of img, for a black-on-white picture.
func ink(img *image.RGBA) (area, cx, cy float64) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := float64(255-img.Pix[img.PixOffset(x, y)]) / 255
			area += c
			cx += c * (float64(x) + 0.5)
			cy += c * (float64(y) + 0.5)
		}
	}
	return area, cx / area, cy / area
}

func TestPNGFillsTheBodyByPixels(t *testing.T) {
	black := collide.Style{Fill: collide.Color{A: 255}}
	pal := *collide.DefaultPalette
	pal.Dynamic, pal.Static = black, black
	circle, _ := collide.NewCircle(1.5)
	obb, _ := collide.NewOBB(2, 1)
	tri, _ := collide.NewPolygon([]collide.Vec2{collide.V(0, 0), collide.V(3, 0), collide.V(0, 3)})
	vp := view.Around(collide.V(0, 0), 5, 200, 200) // 20 pixels a unit, (0, 0) at pixel (100, 100)
	tests := []struct {
		name     string
		def      collide.BodyDef
		area     float64 // in world units²
		centroid collide.Vec2
	}{
		{"circle", collide.BodyDef{Shape: circle, Position: collide.V(1, -1)}, math.Pi * 1.5 * 1.5, collide.V(1, -1)},
		{"turned OBB", collide.BodyDef{Shape: obb, Position: collide.V(-1, 0.5), Angle: 0.7}, 8, collide.V(-1, 0.5)},
		{"static triangle", collide.BodyDef{Shape: tri, Position: collide.V(-2, -2), Kind: collide.Static}, 4.5, collide.V(-1, -1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := collide.NewWorld(collide.Config{Workers: 1})
			defer w.Close()
			if _, err := w.Add(tc.def); err != nil {
				t.Fatal(err)
			}
			var f view.Frame
			view.Capture(&f, w, collide.DrawOptions{Palette: &pal})
			var buf bytes.Buffer
			if err := view.WritePNG(&buf, &f, vp); err != nil {
				t.Fatal(err)
			}
			img := view.Render(&f, vp)
			area, cx, cy := ink(img)
			wantArea := tc.area * vp.Scale * vp.Scale
			wx, wy := vp.Pixel(tc.centroid)
			if math.Abs(area-wantArea) > 0.01*wantArea {
				t.Errorf("filled area %.1f pixels, want %.1f (within 1%%)", area, wantArea)
			}
			if math.Hypot(cx-wx, cy-wy) > 1 {
				t.Errorf("centroid at pixel (%.2f, %.2f), want (%.2f, %.2f) within one pixel", cx, cy, wx, wy)
			}
			if !bytes.HasPrefix(buf.Bytes(), []byte("\x89PNG")) {
				t.Errorf("WritePNG wrote no PNG")
			}
		})
	}
}

func TestViewportFitAndAround(t *testing.T) {
	box := collide.AABB{Min: collide.V(-10, 0), Max: collide.V(30, 10)}
	v := view.Fit(box, 420, 220, 10) // 400×200 inside: 10 px/unit
	tests := []struct {
		name   string
		p      collide.Vec2
		px, py float64
	}{
		{"min corner", box.Min, 10, 160},
		{"max corner", box.Max, 410, 60},
		{"centre", box.Center(), 210, 110},
	}
	for _, tc := range tests {
		x, y := v.Pixel(tc.p)
		if x != tc.px || y != tc.py {
			t.Errorf("Fit(...).Pixel(%s %v) = (%g, %g), want (%g, %g)", tc.name, tc.p, x, y, tc.px, tc.py)
		}
	}
	a := view.Around(collide.V(100, 100), 5, 100, 50)
	if got := a.World(); got != (collide.AABB{Min: collide.V(95, 97.5), Max: collide.V(105, 102.5)}) {
		t.Errorf("Around((100, 100), 5, 100×50).World() = %v, want (95, 97.5)-(105, 102.5)", got)
	}
	if e := view.Fit(collide.AABB{Min: collide.V(1, 1), Max: collide.V(-1, -1)}, 10, 10, 0); e.Scale != 1 {
		t.Errorf("Fit(empty box).Scale = %g, want 1", e.Scale)
	}
	if !strings.Contains(collide.LayerMTV.String(), "mtv") {
		t.Errorf("LayerMTV.String() = %q", collide.LayerMTV.String())
	}
}

// TestZeroFrameDrawnToDirectly: a zero Frame takes Drawer calls without a
// Body call first (DrawRay, DrawQuery) and writes them.
func TestZeroFrameDrawnToDirectly(t *testing.T) {
	var f view.Frame
	q, _ := collide.NewOBB(1, 2)
	collide.DrawQuery(&f, q, collide.NewTransform(collide.V(1, 1), 0.5))
	collide.DrawRay(&f, collide.V(-5, 0), collide.V(1, 0), 3, collide.RayHit{}, false)
	if f.Len() != 2 || len(f.Bodies()) != 0 {
		t.Fatalf("zero Frame recorded %d primitives and %d bodies, want 2 and 0", f.Len(), len(f.Bodies()))
	}
	var buf bytes.Buffer
	if err := view.WriteSVG(&buf, &f, view.Fit(f.Bounds(), 100, 100, 5)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "data-id") || !strings.Contains(buf.String(), `class="layer-query"`) {
		t.Errorf("SVG of a query and a ray:\n%s", buf.String())
	}
	if b := f.Bounds(); b.Min.X != -5 || b.Max.X < 2 {
		t.Errorf("Bounds() = %v, want from x = -5 (the ray) past x = 2 (the box)", b)
	}
}
