package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/view"
)

// viewOptions are the flags for pictures, the live view and the report.
type viewOptions struct {
	svg, png  string // write frame at as SVG, PNG
	at        int    // the frame to picture: 0 is the scene as loaded; -1 the last
	size      int    // picture width in pixels
	serve     string // serve the live view at this address, stepping forever
	token     string // the live view's token
	report    string // write the run's report here
	serveStop context.Context
	// serveReady, for tests, is told the address the live view listens on.
	serveReady func(net.Addr)
}

func (v *viewOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&v.svg, "svg", "", "write frame -at as an SVG picture to this file")
	fs.StringVar(&v.png, "png", "", "write frame -at as a PNG picture to this file")
	fs.IntVar(&v.at, "at", -1, "the frame -svg and -png picture: 0 is the scene as loaded, 1 the first warm-up frame; -1 the last")
	fs.IntVar(&v.size, "size", 1200, "width of the -svg and -png pictures in pixels")
	fs.StringVar(&v.serve, "serve", "", "serve the live view at this address (a bare :port binds 127.0.0.1) and step the scene at 60 Hz until interrupted; open http://ADDR/debug/collide/")
	fs.StringVar(&v.token, "token", "", "require this token from the live view's clients (?token=...)")
	fs.StringVar(&v.report, "report", "", "write an HTML report of the measured frames to this file")
}

// viewer does what the view flags ask while the main job runs.
type viewer struct {
	o       viewOptions
	frames  []view.FrameRecord
	pic     view.Frame // the pictured frame
	picked  bool
	lastRun int
}

func newViewer(o viewOptions) *viewer { return &viewer{o: o} }

var pictureOptions = collide.DrawOptions{Contacts: true, MTV: true}

// frame is called after frame k (its Step) took d; measured frames go to
// the report.
func (v *viewer) frame(w *collide.World, k int, d time.Duration, measured bool) {
	v.lastRun = k
	if (v.o.svg != "" || v.o.png != "") && v.o.at == k {
		view.Capture(&v.pic, w, pictureOptions)
		v.pic.Seq = uint64(k)
		v.picked = true
	}
	if measured && v.o.report != "" {
		v.frames = append(v.frames, view.FrameRecord{Time: d, Stats: w.Stats()})
	}
}

// finish writes the pictures and the report.
func (v *viewer) finish(w *collide.World, s Summary) error {
	if v.o.svg != "" || v.o.png != "" {
		if v.o.at < 0 {
			view.Capture(&v.pic, w, pictureOptions)
			v.pic.Seq, v.picked = uint64(v.lastRun), true
		}
		if !v.picked {
			return fmt.Errorf("-at %d: the run has frames 0 to %d", v.o.at, v.lastRun)
		}
		vp := v.viewport(&v.pic)
		if err := writeFile(v.o.svg, func(f io.Writer) error { return view.WriteSVG(f, &v.pic, vp) }); err != nil {
			return err
		}
		if err := writeFile(v.o.png, func(f io.Writer) error { return view.WritePNG(f, &v.pic, vp) }); err != nil {
			return err
		}
	}
	if v.o.report != "" {
		var last view.Frame
		view.Capture(&last, w, pictureOptions)
		r := &view.Report{
			Title: fmt.Sprintf("collide: %s, %d bodies", s.Scene, s.Bodies),
			Notes: []string{
				fmt.Sprintf("%d frames measured after %d warm-up, %d workers; frame time is the scene's moves (SetTransform) plus Step.", s.Frames, s.Warmup, s.Workers),
				fmt.Sprintf("Frame time mean %.3f ms, p50 %.3f, p99 %.3f, max %.3f; %.1f contacts a frame.", s.FrameMeanMs, s.FrameP50Ms, s.FrameP99Ms, s.FrameMaxMs, s.ContactsPerFrm),
			},
			Frames: v.frames,
			Last:   &last,
		}
		if err := writeFile(v.o.report, func(f io.Writer) error { return view.WriteReport(f, r) }); err != nil {
			return err
		}
	}
	return nil
}

// viewport fits the frame into a picture -size wide, as tall as its
// aspect asks (within 1/4 and 4 times the width).
func (v *viewer) viewport(f *view.Frame) view.Viewport {
	b := f.Bounds()
	w := max(v.o.size, 16)
	h := w
	if bw, bh := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y; bw > 0 && bh > 0 {
		h = int(math.Round(float64(w) * math.Min(4, math.Max(0.25, bh/bw))))
	}
	return view.Fit(b, w, h, 10)
}

func writeFile(name string, write func(io.Writer) error) error {
	if name == "" {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// listenAddr returns the address to listen on for -serve: a bare port
// (":8080" or "8080") binds the loopback interface only, since the live
// view shows the whole game state; an address with a host is used as
// given.
func listenAddr(addr string) (string, error) {
	if _, err := strconv.ParseUint(addr, 10, 16); err == nil {
		return net.JoinHostPort("127.0.0.1", addr), nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("-serve %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// serve runs the scene live: it steps a frame every 1/60 s, publishes it to
// the live view at -serve, and stops on an interrupt.
func (v *viewer) serve(w *collide.World, frame func() (time.Duration, error), stderr io.Writer) error {
	addr, err := listenAddr(v.o.serve)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h := view.NewHandler(view.Options{Token: v.o.token})
	mux := http.NewServeMux()
	mux.Handle("/debug/collide/", h)
	mux.Handle("/{$}", http.RedirectHandler("/debug/collide/", http.StatusFound))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	u := "http://" + ln.Addr().String() + "/debug/collide/"
	if v.o.token != "" {
		u += "?token=" + v.o.token
	}
	fmt.Fprintf(stderr, "live view at %s (Ctrl-C stops)\n", u)
	if v.o.serveReady != nil {
		v.o.serveReady(ln.Addr())
	}

	ctx := v.o.serveStop
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
			if _, err := frame(); err != nil {
				srv.Close()
				return err
			}
			h.Publish(w)
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
