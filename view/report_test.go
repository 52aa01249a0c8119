package view_test

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"image/png"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/view"
)

func TestReport(t *testing.T) {
	// Frame i takes i+1 ms: 0.1 of update, 0.2 of pair finding, 0.3 of
	// narrow phase, 0.1 of events, the rest outside Step; i contacts.
	var frames []view.FrameRecord
	for i := range 100 {
		frames = append(frames, view.FrameRecord{
			Time:  time.Duration(i+1) * time.Millisecond,
			Stats: collide.Stats{UpdateNs: 1e5, PairsNs: 2e5, NarrowNs: 3e5, EventsNs: 1e5, Contacts: i},
		})
	}
	var last view.Frame
	view.Capture(&last, fixedScene(t), collide.DrawOptions{Contacts: true})
	var b bytes.Buffer
	if err := view.WriteReport(&b, &view.Report{Title: "swarm <test>", Notes: []string{"a note"}, Frames: frames, Last: &last}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<title>swarm &lt;test&gt;</title>",
		"<p>a note</p>",
		// Frame time 1..100 ms: mean 50.5, p50 50.5, p90 90.1, p99 99.01, max 100.
		"<tr><td>frame</td><td>50.500</td><td>50.500</td><td>90.100</td><td>99.010</td><td>100.000</td></tr>",
		"<tr><td>narrow phase</td><td>0.300</td><td>0.300</td><td>0.300</td><td>0.300</td><td>0.300</td></tr>",
		// Outside Step: frame time minus 0.7 ms, clipped at 0 (frame 0 takes 1 ms: 0.3).
		"<tr><td>outside Step</td><td>49.800</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	svgs := regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(page, -1)
	if len(svgs) != 3 {
		t.Fatalf("%d inline SVG plots, want 3 (frame time, phases, contacts)", len(svgs))
	}
	for i, s := range svgs {
		dec := xml.NewDecoder(strings.NewReader(s))
		elems := map[string]int{}
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("plot %d is not XML: %v", i, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				elems[se.Name.Local]++
			}
		}
		if i == 1 && elems["polygon"] != 5 {
			t.Errorf("phase plot has %d bands, want 5", elems["polygon"])
		}
		if i != 1 && elems["polyline"] != 1 {
			t.Errorf("plot %d has %d lines, want 1", i, elems["polyline"])
		}
	}
	// The frame-time line has a point per frame, the last at 100 ms.
	pts := regexp.MustCompile(`points="([^"]*)"`).FindStringSubmatch(svgs[0])
	if n := len(strings.Fields(pts[1])); n != 100 {
		t.Errorf("frame-time line has %d points, want 100", n)
	}
	img := regexp.MustCompile(`src="data:image/png;base64,([^"]*)"`).FindStringSubmatch(page)
	if img == nil {
		t.Fatal("no picture of the last frame")
	}
	raw, err := base64.StdEncoding.DecodeString(img[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		t.Errorf("the last frame's picture is not a PNG: %v", err)
	}
	for _, ref := range []string{`src="http`, `href=`, `<script src`, `<link`} {
		if strings.Contains(page, ref) {
			t.Errorf("the page is not self-contained: it holds %q", ref)
		}
	}
}
