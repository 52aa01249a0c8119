package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListenAddrBindsLoopbackByDefault(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: ":8080", want: "127.0.0.1:8080"},
		{in: "8080", want: "127.0.0.1:8080"},
		{in: ":0", want: "127.0.0.1:0"},
		{in: "0.0.0.0:8080", want: "0.0.0.0:8080"},
		{in: "localhost:9000", want: "localhost:9000"},
		{in: "[::1]:9000", want: "[::1]:9000"},
		{in: "10.1.2.3:80", want: "10.1.2.3:80"},
		{in: "nonsense", err: true},
	}
	for _, tc := range tests {
		got, err := listenAddr(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("listenAddr(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// TestServeListensOnLoopback runs -serve :0 and checks that it listens on
// 127.0.0.1 and serves the page, with the token it was given.
func TestServeListensOnLoopback(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan net.Addr, 1)
	o := options{n: 200, frames: 1, warmup: 1, seed: 1, kind: "swarm", workers: 1}
	o.view.serve, o.view.token, o.view.serveStop = ":0", "tk", ctx
	o.view.serveReady = func(a net.Addr) { ready <- a }
	done := make(chan error, 1)
	go func() { done <- run(o, io.Discard, io.Discard) }()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run -serve ended before listening: %v", err)
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		t.Errorf("-serve :0 listens on %v, want a loopback address", addr)
	}
	for _, c := range []struct {
		path string
		want int
	}{
		{"/debug/collide/?token=tk", http.StatusOK},
		{"/debug/collide/", http.StatusUnauthorized},
	} {
		resp, err := http.Get("http://" + addr.String() + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("GET %s: %s, want %d", c.path, resp.Status, c.want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run -serve: %v", err)
	}
}

func TestPicturesAndReport(t *testing.T) {
	dir := t.TempDir()
	o := options{n: 300, frames: 20, warmup: 5, seed: 1, kind: "swarm", workers: 1}
	o.view = viewOptions{
		svg: filepath.Join(dir, "f.svg"), png: filepath.Join(dir, "f.png"), at: 3, size: 300,
		report: filepath.Join(dir, "r.html"),
	}
	if err := run(o, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(o.view.svg)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	ids := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("-svg wrote no XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "data-id" {
					ids++
				}
			}
		}
	}
	if ids != 300 {
		t.Errorf("-svg pictured %d bodies, want 300", ids)
	}
	f, err := os.Open(o.view.png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 300 || b.Dy() < 285 || b.Dy() > 315 {
		t.Errorf("-png picture is %v, want 300 wide and about as tall for the square swarm", b)
	}
	rep, err := os.ReadFile(o.view.report)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(rep), "<svg"); n != 3 || !strings.Contains(string(rep), "data:image/png;base64,") {
		t.Errorf("-report page has %d plots and picture %v, want 3 and true", n, strings.Contains(string(rep), "data:image/png"))
	}
	// A frame past the run is an error.
	o.view.at = 1000
	if err := run(o, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-at 1000") {
		t.Errorf("-at 1000 of a 25-frame run: %v, want an error naming -at", err)
	}
}
