package engine

import (
	"sync"

	"github.com/collide-go/collide/broadphase"
)

// pool runs the parallel parts of a step (the broad phase's queries and the
// narrow phase) on the process's shared worker goroutines. Work is cut into
// one contiguous chunk per worker; for the narrow phase each worker appends
// to its own buffer and the buffers are concatenated in chunk order, so the
// contact list is the same for any worker count, whichever goroutine ran
// each chunk.
type pool struct {
	jobs chan job // the shared workers' queue, taken at the first parallel step
	bufs [][]contact
	wg   sync.WaitGroup
	n    int
}

// job is one worker's chunk: pairs for the narrow phase, or a range of a
// parallel loop.
type job struct {
	w     *World
	pairs []broadphase.Pair
	buf   *[]contact
	// fn, when set, is a range of a parallel loop (the broad phase's
	// queries): fn(worker, lo, hi).
	fn             func(worker, lo, hi int)
	worker, lo, hi int
	wg             *sync.WaitGroup
}

// shared holds the worker goroutines every world's pool sends its chunks
// to: as many as the largest Workers − 1 any world has asked for, started
// when a step first needs them, and never more, however many worlds there
// are. A server with a thousand rooms therefore runs at most GOMAXPROCS − 1
// of them for zero Configs, and an idle world costs nothing: the workers
// sleep on the queue.
var shared struct {
	mu   sync.Mutex
	jobs chan job
	n    int
}

// sharedJobs returns the shared queue, with at least want workers on it.
func sharedJobs(want int) chan job {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.jobs == nil {
		shared.jobs = make(chan job)
	}
	for shared.n < want {
		go worker(shared.jobs)
		shared.n++
	}
	return shared.jobs
}

func newPool(n int) *pool {
	return &pool{bufs: make([][]contact, n), n: n}
}

func worker(jobs <-chan job) {
	for j := range jobs {
		j.do()
	}
}

// do runs the job and marks it done.
func (j *job) do() {
	if j.fn != nil {
		j.fn(j.worker, j.lo, j.hi)
	} else {
		s := sink{all: (*j.buf)[:cap(*j.buf)]}
		s.lim = len(s.all)
		j.w.narrow(j.pairs, &s)
		*j.buf = s.list()
	}
	j.wg.Done()
}

// send hands j to an idle shared worker, or runs it on the caller's
// goroutine when all are busy (with other worlds' steps, say): a step
// never waits for a worker to come free.
func (p *pool) send(j job) {
	if p.jobs == nil {
		p.jobs = sharedJobs(p.n - 1)
	}
	select {
	case p.jobs <- j:
	default:
		j.do()
	}
}

// run splits pairs among the workers and the caller, waits, and writes the
// merged contacts to out.
func (p *pool) run(w *World, pairs []broadphase.Pair, out *sink) {
	chunk := (len(pairs) + p.n - 1) / p.n
	p.wg.Add(p.n - 1)
	for i := 1; i < p.n; i++ {
		lo, hi := min(i*chunk, len(pairs)), min((i+1)*chunk, len(pairs))
		p.send(job{w: w, pairs: pairs[lo:hi], buf: &p.bufs[i], wg: &p.wg})
	}
	w.narrow(pairs[:min(chunk, len(pairs))], out)
	p.wg.Wait()
	for i := 1; i < p.n; i++ {
		buf := p.bufs[i]
		for k := range buf {
			c := &buf[k]
			*out.grow1(slotKey(c)) = *c
		}
	}
}

// parallelFor runs fn over [0, n) in one contiguous range per worker, the
// caller taking the first, and returns when all are done. It is the broad
// phase's SetParallel hook.
func (p *pool) parallelFor(n int, fn func(worker, lo, hi int)) {
	chunk := (n + p.n - 1) / p.n
	p.wg.Add(p.n - 1)
	for i := 1; i < p.n; i++ {
		p.send(job{fn: fn, worker: i, lo: min(i*chunk, n), hi: min((i+1)*chunk, n), wg: &p.wg})
	}
	fn(0, 0, min(chunk, n))
	p.wg.Wait()
}
