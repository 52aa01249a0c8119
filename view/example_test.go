package view_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/view"
)

// Write a frame of a world as an SVG picture: capture it with the layers
// to show, then write it through a viewport that fits the whole world.
func ExampleWriteSVG() {
	w := collide.NewWorld(collide.Config{})
	defer w.Close()
	ball, _ := collide.NewCircle(1)
	crate, _ := collide.NewOBB(1, 1)
	_, _ = w.Add(collide.BodyDef{Shape: ball, Position: collide.V(0, 0)})
	_, _ = w.Add(collide.BodyDef{Shape: crate, Position: collide.V(1.5, 0), Angle: 0.5})
	w.Step()

	var f view.Frame
	view.Capture(&f, w, collide.DrawOptions{Contacts: true, MTV: true})
	var svg bytes.Buffer
	if err := view.WriteSVG(&svg, &f, view.Fit(f.Bounds(), 640, 480, 20)); err != nil {
		fmt.Println(err)
		return
	}

	fmt.Println(strings.Count(svg.String(), "<circle"), "circles (the ball and the contact point)")
	fmt.Println(strings.Count(svg.String(), "<polygon"), "polygons (the crate and the MTV arrow head)")
	// Output:
	// 2 circles (the ball and the contact point)
	// 2 polygons (the crate and the MTV arrow head)
}
