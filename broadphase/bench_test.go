package broadphase

import (
	"fmt"
	"testing"
	"time"
)

// warmUpFrames is long enough for the bodies, which all start with fresh fat
// boxes, to stop leaving them in step.
const warmUpFrames = 600

// BenchmarkUpdatePairs measures one swarm frame in steady state: Update of
// every body plus UpdatePairs, with the default Config.
func BenchmarkUpdatePairs(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchSwarm(b, n, Config{}) })
	}
}

// BenchmarkUpdatePairsTuning is the sweep the defaults were chosen from.
func BenchmarkUpdatePairsTuning(b *testing.B) {
	for _, frames := range []float64{-1, 4, 8, 12} {
		for _, margin := range []float64{0.1, 0.25, 1} {
			b.Run(fmt.Sprintf("n=10000/frames=%g/margin=%g", frames, margin), func(b *testing.B) {
				benchSwarm(b, 10000, Config{Margin: margin, MotionFrames: frames})
			})
		}
	}
}

func benchSwarm(b *testing.B, n int, cfg Config) {
	s := newSwarm(n, 1)
	t := NewTree(cfg)
	s.insert(t)
	for range warmUpFrames {
		s.step(t)
		t.UpdatePairs()
	}
	var h, hr frameHist
	reinserts, pairs, frames := 0, 0, 0
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		s.step(t)
		t.UpdatePairs()
		h.add(time.Since(start))
		st := t.Stats()
		hr.add(time.Duration(st.Reinserted) * histBucket)
		reinserts += st.Reinserted
		pairs += st.Pairs
		frames++
	}
	b.ReportMetric(float64(reinserts)/float64(frames), "reinserts/op")
	b.ReportMetric(float64(pairs)/float64(frames), "pairs/op")
	b.ReportMetric(float64(h.quantile(0.99)), "p99-ns/op")
	b.ReportMetric(float64(hr.quantile(0.99)/histBucket), "p99-reinserts/op")
}

// frameHist is a histogram of frame times in 2 µs buckets, so that the
// timed loop does not allocate.
type frameHist struct {
	n      int
	bucket [10000]int
}

const histBucket = 2 * time.Microsecond

func (h *frameHist) add(d time.Duration) {
	i := min(int(d/histBucket), len(h.bucket)-1)
	h.bucket[i]++
	h.n++
}

// quantile returns the upper edge of the bucket holding quantile q.
func (h *frameHist) quantile(q float64) time.Duration {
	want := int(q * float64(h.n))
	sum := 0
	for i, c := range h.bucket {
		sum += c
		if sum > want {
			return time.Duration(i+1) * histBucket
		}
	}
	return time.Duration(len(h.bucket)) * histBucket
}
