package view_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
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

// Mount the live view next to pprof on an internal port and publish a frame
// after every Step; open http://127.0.0.1:6060/debug/collide/?token=… in a
// browser to watch.
func ExampleHandler() {
	w := collide.NewWorld(collide.Config{})
	defer w.Close()
	ball, _ := collide.NewCircle(1)
	id, _ := w.Add(collide.BodyDef{Shape: ball})

	h := view.NewHandler(view.Options{Token: "s3cret"})
	mux := http.NewServeMux()
	mux.Handle("/debug/collide/", h)
	// go http.ListenAndServe("127.0.0.1:6060", mux) // internal port only, as for pprof

	for tick := range 3 {
		_ = w.SetTransform(id, collide.V(float64(tick), 0), 0)
		w.Step()
		h.Publish(w) // copies the frame; returns at once when nobody watches
	}

	for _, url := range []string{"/debug/collide/", "/debug/collide/?token=s3cret"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		fmt.Println(url, rec.Code)
	}
	fmt.Println("frames captured with nobody watching:", h.Stats().Published)
	// Output:
	// /debug/collide/ 401
	// /debug/collide/?token=s3cret 200
	// frames captured with nobody watching: 0
}
