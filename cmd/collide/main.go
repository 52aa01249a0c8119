// Command collide runs the main job: a scene of moving bodies stepped for
// many frames, then a summary of frame times and contact figures.
//
//	go run ./cmd/collide                          # 10,000-body swarm, 600 frames
//	go run ./cmd/collide -scene swarm-10000.csv -json
//
// With -scene it reads the shared swarm CSV format, so other engines can run
// the very same scene; -json prints one JSON object with contacts_total and
// depth_sum, the cross-engine checksums. Progress goes to stderr when it is
// a terminal.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"time"

	"github.com/collide-go/collide"
	"github.com/collide-go/collide/bench/scene"
)

type options struct {
	n, frames, warmup, workers int
	bullets                    int
	seed                       uint64
	kind, file                 string
	json                       bool
	cpuprofile, memprofile     string
	tracefile                  string
	view                       viewOptions // pictures, live view, report (view.go)
}

// Summary is what a run prints.
type Summary struct {
	Scene           string  `json:"scene"`
	Bodies          int     `json:"bodies"`
	Frames          int     `json:"frames"`
	Warmup          int     `json:"warmup"`
	Workers         int     `json:"workers"`
	FrameMeanMs     float64 `json:"frame_mean_ms"`
	FrameP50Ms      float64 `json:"frame_p50_ms"`
	FrameP99Ms      float64 `json:"frame_p99_ms"`
	FrameMaxMs      float64 `json:"frame_max_ms"`
	ContactsPerFrm  float64 `json:"contacts_per_frame"`
	PairsPerFrame   float64 `json:"pairs_per_frame"`
	ReinsertsPerFrm float64 `json:"reinserts_per_frame"`
	AllocsPerFrame  float64 `json:"allocs_per_frame"`
	PeakHeapMB      float64 `json:"peak_heap_mb"`
	ContactsTotal   int     `json:"contacts_total"`
	DepthSum        float64 `json:"depth_sum"`
	Bullets         int     `json:"bullets,omitempty"`
	SweptPerFrame   float64 `json:"swept_per_frame,omitempty"`
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 10000, "number of bodies in a built-in scene")
	flag.IntVar(&o.frames, "frames", 600, "frames to measure")
	flag.IntVar(&o.warmup, "warmup", 10, "frames stepped before measuring")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of a built-in scene")
	flag.IntVar(&o.workers, "workers", 0, "narrow-phase goroutines (0: GOMAXPROCS)")
	flag.IntVar(&o.bullets, "bullets", 0, "add this many bullet bodies (radius 0.1, 3 to 40 units a frame) swept by Step")
	flag.StringVar(&o.kind, "scene-kind", "swarm", "built-in scene: swarm, arena or shapes (the swarm with capsules and concave bodies)")
	flag.StringVar(&o.file, "scene", "", "read the scene from this swarm-format CSV file instead")
	flag.BoolVar(&o.json, "json", false, "print one JSON object")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the measured frames to this file")
	flag.StringVar(&o.memprofile, "memprofile", "", "write a heap profile at the end to this file")
	flag.StringVar(&o.tracefile, "trace", "", "write an execution trace of the measured frames to this file")
	o.view.register(flag.CommandLine)
	flag.Parse()
	if err := run(o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "collide:", err)
		os.Exit(1)
	}
}

func loadScene(o options) (*scene.Scene, error) {
	if o.file != "" {
		f, err := os.Open(o.file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return scene.ReadCSV(f)
	}
	if o.n <= 0 {
		return nil, fmt.Errorf("-n must be positive, got %d", o.n)
	}
	switch o.kind {
	case "swarm":
		return scene.Swarm(o.n, o.seed), nil
	case "arena":
		return scene.Arena(o.n, o.seed), nil
	case "shapes":
		return scene.Shapes(o.n, o.seed), nil
	}
	return nil, fmt.Errorf("unknown -scene-kind %q (want swarm, arena or shapes)", o.kind)
}

func run(o options, stdout, stderr io.Writer) error {
	if o.frames <= 0 || o.warmup < 0 || o.bullets < 0 {
		return errors.New("-frames must be positive, -warmup and -bullets non-negative")
	}
	sc, err := loadScene(o)
	if err != nil {
		return err
	}
	w := collide.NewWorld(collide.Config{Workers: o.workers})
	defer w.Close()
	ids, err := scene.Load(w, sc)
	if err != nil {
		return err
	}
	progress := isTerminal(stderr)
	bl, err := addBullets(w, o.bullets, sc.World, o.seed)
	if err != nil {
		return err
	}

	// Frame 0 is the scene as loaded; each later frame advances the motion
	// first. Warm-up frames are stepped the same way, unmeasured.
	frame := func() (time.Duration, error) {
		sc.Advance()
		start := time.Now()
		if err := scene.Sync(w, sc, ids); err != nil {
			return 0, err
		}
		if err := bl.advance(w); err != nil {
			return 0, err
		}
		w.Step()
		return time.Since(start), nil
	}
	w.Step()
	vw := newViewer(o.view)
	vw.frame(w, 0, 0, false)
	for i := range o.warmup {
		d, err := frame()
		if err != nil {
			return err
		}
		vw.frame(w, 1+i, d, false)
		if progress && i%50 == 0 {
			fmt.Fprintf(stderr, "\rwarm-up %d/%d", i, o.warmup)
		}
	}

	if o.view.serve != "" {
		return vw.serve(w, frame, stderr)
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if o.tracefile != "" {
		f, err := os.Create(o.tracefile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}

	times := make([]float64, 0, o.frames)
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	s := Summary{Scene: sc.Name, Bodies: len(sc.Bodies), Frames: o.frames, Warmup: o.warmup, Workers: o.workers, Bullets: o.bullets}
	swept := 0
	if s.Workers <= 0 {
		s.Workers = runtime.GOMAXPROCS(0)
	}
	var pairs, reinserts int
	for i := range o.frames {
		d, err := frame()
		if err != nil {
			return err
		}
		times = append(times, float64(d.Nanoseconds())/1e6)
		vw.frame(w, 1+o.warmup+i, d, true)
		st := w.Stats()
		pairs += st.Pairs
		reinserts += st.Reinserted
		for c := range w.Contacts() {
			s.ContactsTotal++
			s.DepthSum += c.Manifold.Depth
			if c.Swept {
				swept++
			}
		}
		metrics.Read(heap)
		peak = max(peak, heap[0].Value.Uint64())
		if progress && i%20 == 0 {
			fmt.Fprintf(stderr, "\rframe %d/%d  %.2f ms  ", i, o.frames, times[len(times)-1])
		}
	}
	runtime.ReadMemStats(&ms1)
	if progress {
		fmt.Fprint(stderr, "\r\033[K")
	}
	f := float64(o.frames)
	sorted := slices.Sorted(slices.Values(times))
	s.FrameMeanMs = mean(times)
	s.FrameP50Ms, s.FrameP99Ms = quantile(sorted, 0.5), quantile(sorted, 0.99)
	for _, t := range times {
		s.FrameMaxMs = max(s.FrameMaxMs, t)
	}
	s.ContactsPerFrm = float64(s.ContactsTotal) / f
	s.PairsPerFrame = float64(pairs) / f
	s.ReinsertsPerFrm = float64(reinserts) / f
	s.SweptPerFrame = float64(swept) / f
	// The harness's own per-frame work (metrics.Read, the range loop)
	// allocates nothing, so this is the engine's.
	s.AllocsPerFrame = float64(ms1.Mallocs-ms0.Mallocs) / f
	s.PeakHeapMB = float64(peak) / (1 << 20)

	if o.memprofile != "" {
		mf, err := os.Create(o.memprofile)
		if err != nil {
			return err
		}
		defer mf.Close()
		if err := pprof.WriteHeapProfile(mf); err != nil {
			return err
		}
	}
	if err := vw.finish(w, s); err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		return enc.Encode(s)
	}
	fmt.Fprintf(stdout, "scene          %s, %d bodies, %d workers\n", s.Scene, s.Bodies, s.Workers)
	fmt.Fprintf(stdout, "frames         %d measured after %d warm-up\n", s.Frames, s.Warmup)
	fmt.Fprintf(stdout, "frame time ms  mean %.3f  p50 %.3f  p99 %.3f  max %.3f\n", s.FrameMeanMs, s.FrameP50Ms, s.FrameP99Ms, s.FrameMaxMs)
	fmt.Fprintf(stdout, "per frame      %.1f contacts  %.1f candidate pairs  %.1f re-inserts  %.2f allocations\n", s.ContactsPerFrm, s.PairsPerFrame, s.ReinsertsPerFrm, s.AllocsPerFrame)
	if s.Bullets > 0 {
		fmt.Fprintf(stdout, "bullets        %d  %.1f swept contacts per frame\n", s.Bullets, s.SweptPerFrame)
	}
	fmt.Fprintf(stdout, "peak heap      %.1f MiB\n", s.PeakHeapMB)
	fmt.Fprintf(stdout, "checksums      contacts_total %d  depth_sum %.4f\n", s.ContactsTotal, s.DepthSum)
	return nil
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// mean returns the arithmetic mean of v, which must not be empty.
func mean(v []float64) float64 {
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

// quantile returns the q-quantile of the sorted, non-empty v, interpolated
// linearly between the closest ranks (Hyndman and Fan's method 7, the one
// R and NumPy use by default).
func quantile(sorted []float64, q float64) float64 {
	h := float64(float64(len(sorted)-1) * q) // explicit: no fused multiply-add on arm64
	lo := int(math.Floor(h))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + float64((h-float64(lo))*(sorted[hi]-sorted[lo]))
}

// bullets are the main job's fast bodies: circles of radius 0.1 moving 3 to
// 40 units a frame in straight lines, bouncing off the world's edges,
// colliding with the scene's bodies (category 2, mask 1) and not with each
// other.
type bullets struct {
	ids      []collide.BodyID
	pos, vel []collide.Vec2
	world    float64
}

func addBullets(w *collide.World, n int, world float64, seed uint64) (*bullets, error) {
	bl := &bullets{world: world}
	if n == 0 {
		return bl, nil
	}
	ball, err := collide.NewCircle(0.1)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0xb011e7))
	for range n {
		p := collide.V(world*r.Float64(), world*r.Float64())
		sn, cs := collide.SinCos(2 * math.Pi * r.Float64())
		speed := 3 + float64(37*r.Float64()) // explicit: no fused multiply-add on arm64
		id, err := w.Add(collide.BodyDef{Shape: ball, Position: p, Bullet: true, Filter: collide.Filter{Category: 2, Mask: 1}})
		if err != nil {
			return nil, err
		}
		bl.ids = append(bl.ids, id)
		bl.pos = append(bl.pos, p)
		bl.vel = append(bl.vel, collide.V(float64(speed*cs), float64(speed*sn)))
	}
	return bl, nil
}

// advance moves every bullet by its velocity, reflecting it at the edges.
func (bl *bullets) advance(w *collide.World) error {
	for i, id := range bl.ids {
		p := bl.pos[i].Add(bl.vel[i])
		if p.X < 0 || p.X > bl.world {
			bl.vel[i].X = -bl.vel[i].X
		}
		if p.Y < 0 || p.Y > bl.world {
			bl.vel[i].Y = -bl.vel[i].Y
		}
		bl.pos[i] = bl.pos[i].Add(bl.vel[i])
		if err := w.SetTransform(id, bl.pos[i], 0); err != nil {
			return err
		}
	}
	return nil
}
