package engine

import (
	"sync"

	"github.com/collide-go/collide/broadphase"
)

// pool runs the parallel parts of a step (the broad phase's queries and the
// narrow phase) on goroutines that live as long as the world. Work is cut
// into one contiguous chunk per worker; for the narrow phase each worker
// appends to its own buffer and the buffers are concatenated in chunk order,
// so the contact list is the same for any worker count.
type pool struct {
	jobs   chan job
	bufs   [][]Contact
	wg     sync.WaitGroup
	n      int
	closed bool
}

// job is one worker's chunk: pairs for the narrow phase, or a range of a
// parallel loop.
type job struct {
	w     *World
	pairs []broadphase.Pair
	buf   *[]Contact
	// fn, when set, is a range of a parallel loop (the broad phase's
	// queries): fn(worker, lo, hi).
	fn             func(worker, lo, hi int)
	worker, lo, hi int
	wg             *sync.WaitGroup
}

func newPool(n int) *pool {
	p := &pool{jobs: make(chan job), bufs: make([][]Contact, n), n: n}
	for range n - 1 {
		go worker(p.jobs)
	}
	return p
}

func worker(jobs <-chan job) {
	for j := range jobs {
		if j.fn != nil {
			j.fn(j.worker, j.lo, j.hi)
		} else {
			*j.buf = j.w.narrow(j.pairs, (*j.buf)[:0])
		}
		j.wg.Done()
	}
}

// run splits pairs among the workers and the caller, waits, and appends the
// merged contacts to out.
func (p *pool) run(w *World, pairs []broadphase.Pair, out []Contact) []Contact {
	chunk := (len(pairs) + p.n - 1) / p.n
	p.wg.Add(p.n - 1)
	for i := 1; i < p.n; i++ {
		lo, hi := min(i*chunk, len(pairs)), min((i+1)*chunk, len(pairs))
		p.jobs <- job{w: w, pairs: pairs[lo:hi], buf: &p.bufs[i], wg: &p.wg}
	}
	out = w.narrow(pairs[:min(chunk, len(pairs))], out)
	p.wg.Wait()
	for i := 1; i < p.n; i++ {
		out = append(out, p.bufs[i]...)
	}
	return out
}

// parallelFor runs fn over [0, n) in one contiguous range per worker, the
// caller taking the first, and returns when all are done. It is the broad
// phase's SetParallel hook.
func (p *pool) parallelFor(n int, fn func(worker, lo, hi int)) {
	chunk := (n + p.n - 1) / p.n
	p.wg.Add(p.n - 1)
	for i := 1; i < p.n; i++ {
		p.jobs <- job{fn: fn, worker: i, lo: min(i*chunk, n), hi: min((i+1)*chunk, n), wg: &p.wg}
	}
	fn(0, 0, min(chunk, n))
	p.wg.Wait()
}

func (p *pool) close() {
	if !p.closed {
		p.closed = true
		close(p.jobs)
	}
}
