package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
)

// bruteCount steps the scene's motion and counts, frame by frame, every pair
// of bodies whose shapes overlap, by running the narrow phase on all pairs,
// so the broad phase plays no part.
func bruteCount(t *testing.T, sc *scene.Scene, warmup, frames int) (int, float64) {
	t.Helper()
	shapes := make([]collide.Shape, len(sc.Bodies))
	for i := range sc.Bodies {
		s, err := sc.Bodies[i].Shape()
		if err != nil {
			t.Fatal(err)
		}
		shapes[i] = s
	}
	count, depth := 0, 0.0
	for f := 0; f <= warmup+frames; f++ {
		if f > 0 {
			sc.Advance()
		}
		if f <= warmup {
			continue
		}
		for i := range sc.Bodies {
			bi := &sc.Bodies[i]
			ti := collide.NewTransform(collide.V(bi.X, bi.Y), bi.Angle)
			for j := i + 1; j < len(sc.Bodies); j++ {
				bj := &sc.Bodies[j]
				if bi.Static && bj.Static {
					continue
				}
				if m, ok := collide.Collide(shapes[i], ti, shapes[j], collide.NewTransform(collide.V(bj.X, bj.Y), bj.Angle)); ok {
					count++
					depth += m.Depth
				}
			}
		}
	}
	return count, depth
}

func TestJSONMatchesBruteForce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "swarm.csv")
	sc := scene.Swarm(600, 4)
	var buf bytes.Buffer
	if err := scene.WriteCSV(&buf, sc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run(options{file: file, frames: 30, warmup: 5, workers: 2, json: true}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	ref, _ := scene.ReadCSV(bytes.NewReader(buf.Bytes()))
	wantCount, wantDepth := bruteCount(t, ref, 5, 30)
	if wantCount == 0 {
		t.Fatal("the scene has no contacts; the test proves nothing")
	}
	if s.ContactsTotal != wantCount {
		t.Errorf("contacts_total = %d, brute force %d", s.ContactsTotal, wantCount)
	}
	if d := s.DepthSum - wantDepth; d > 1e-9*wantDepth || d < -1e-9*wantDepth {
		t.Errorf("depth_sum = %.9f, brute force %.9f", s.DepthSum, wantDepth)
	}
	// Allocation counts are the engine's tests' business: five warm-up
	// frames are not a steady state.
	if s.Frames != 30 || s.Bodies != 600 || s.Warmup != 5 || s.Workers != 2 {
		t.Errorf("summary %+v: want 30 frames, 600 bodies, 5 warm-up, 2 workers", s)
	}
}

func TestMalformedSceneIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.csv")
	body := "# swarm n=2 world=100 seed=1\ncircle,1,2,0.5,0.5,0,0,3,0,0\ncircle,1,2,abc,0.5,0,0,3,0,0\n"
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := run(options{file: file, frames: 5}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "vx") {
		t.Fatalf("run(bad file) = %v, want an error naming line 3 and field vx", err)
	}
}

func TestTextSummary(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(options{n: 400, frames: 20, warmup: 2, seed: 1, kind: "arena"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"frame time ms", "p99", "contacts", "candidate pairs", "allocations", "peak heap", "contacts_total"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr is not a terminal but got progress output %q", errOut.String())
	}
}

// TestQuantileMatchesMethod7 checks the frame-time percentiles against
// values worked by hand with Hyndman and Fan's method 7.
func TestQuantileMatchesMethod7(t *testing.T) {
	v := []float64{1, 2, 4, 8, 16}
	for _, tc := range []struct{ q, want float64 }{
		{0, 1}, {0.25, 2}, {0.5, 4}, {0.6, 5.6}, {0.99, 15.68}, {1, 16},
	} {
		if got := quantile(v, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("quantile(%v, %v) = %v, want %v", v, tc.q, got, tc.want)
		}
	}
	if got := quantile([]float64{7}, 0.99); got != 7 {
		t.Errorf("quantile of one value = %v, want 7", got)
	}
	if got := mean(v); got != 6.2 {
		t.Errorf("mean(%v) = %v, want 6.2", v, got)
	}
}

// TestBulletsOption: -bullets adds swept bodies; the summary counts their
// swept contacts, and a negative count is refused.
func TestBulletsOption(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(options{kind: "swarm", n: 2000, seed: 1, bullets: 200, frames: 20, warmup: 2, workers: 1, json: true}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Bullets != 200 || !(s.SweptPerFrame > 0) {
		t.Errorf("summary %+v: want 200 bullets and swept contacts", s)
	}
	if err := run(options{kind: "swarm", n: 10, bullets: -1, frames: 1}, &out, &errOut); err == nil {
		t.Error("-bullets -1 accepted")
	}
}
