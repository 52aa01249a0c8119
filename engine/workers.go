package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/collide-go/collide/broadphase"
)

// pool runs the parallel parts of a step (the broad phase's queries and the
// narrow phase) on the process's shared worker goroutines.
//
// A parallel run cuts its work into chunks, many more than workers. The
// caller takes chunks from the front, one at a time; every worker that
// picked up the run takes them from the back, until the two ends meet. A
// worker that wakes late, or runs slower (another world's step, a busy
// core), then costs the run only the chunk it is in, where cutting the work
// into one fixed share per worker made the caller wait for the whole of
// the late share: on the 10k swarm with two workers, about a third of the
// narrow phase.
//
// For the narrow phase the caller writes its chunks straight to the
// world's contacts, in order, and each worker to its own buffer, noting
// where each chunk's contacts lie; the workers' chunks are copied after
// the caller's in chunk order. The contact list is therefore the same for
// any worker count, whichever goroutine ran each chunk.
type pool struct {
	jobs  chan job // the shared workers' queue, taken at the first parallel step
	bufs  [][]contact
	spans []span // where each chunk a worker ran left its contacts
	n     int
	least int // items a chunk but the last at least: minChunk, or 1 where tests lowered the sizes

	// claim holds the current run's number (epoch) in its top 32 bits and
	// its chunks not yet taken, [lo, hi), in the two 16-bit halves below.
	// A job for another run finds its number gone and takes nothing, so
	// a worker that wakes after its run ended does no harm.
	claim atomic.Uint64
	// fin counts the chunks the workers finished in the current run, and
	// target is how many they took, once the caller has found none left
	// (-1 until then). The worker whose chunk brings fin to target sends
	// on done, which the caller sleeps on when a short spin did not see
	// the end: a caller that spun would keep a processor a late worker
	// needs.
	fin    atomic.Int64
	target atomic.Int64
	done   chan struct{}
	epoch  uint32
	// stepping is set while the world's Step runs: workers stay awake
	// for its next run only then.
	stepping atomic.Bool
}

// span is where a worker's chunk left its contacts: bufs[w][lo:hi].
type span struct{ w, lo, hi int32 }

// Chunks of a parallel run: at most chunksPerWorker for each worker, and
// at least minChunk items in each but the last, so that taking a chunk
// (one compare-and-swap) stays a small part of its work.
const (
	chunksPerWorker = 16
	minChunk        = 64
	chunkMask       = 1<<16 - 1
)

// job is one worker's part in a run: taking chunks from the back of run
// epoch of pool p until none is left. For the narrow phase the chunks are
// of pairs; else fn(worker, lo, hi) runs each chunk of [0, total).
type job struct {
	p      *pool
	w      *World
	pairs  []broadphase.Pair
	fn     func(worker, lo, hi int)
	worker int
	epoch  uint32
	size   int // items a chunk
	total  int // items in all
}

// shared holds the worker goroutines every world's pool sends its jobs
// to: as many as the largest Workers − 1 any world has asked for, started
// when a step first needs them, and never more, however many worlds there
// are. A server with a thousand rooms therefore runs at most GOMAXPROCS − 1
// of them for zero Configs, and an idle world costs nothing: the workers
// sleep on the queue, each after looking for the step's next job for up
// to stayAwake past its last one.
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
		shared.jobs = make(chan job, runtime.GOMAXPROCS(0))
	}
	for shared.n < want {
		go worker(shared.jobs)
		shared.n++
	}
	return shared.jobs
}

func newPool(n int) *pool {
	return &pool{bufs: make([][]contact, n), spans: make([]span, 0, n*chunksPerWorker), n: n, least: minChunk, done: make(chan struct{}, 1)}
}

func worker(jobs <-chan job) {
	for j := range jobs {
		j.do()
		// A step's runs come in quick succession (the broad phase's
		// queries, then the narrow phase): while the step goes on, stay
		// awake for its next run a moment, for waking a sleeping
		// goroutine costs the step far more than a chunk. Not past the
		// step (the caller's own work between steps would share a busy
		// machine with the spin), and at most GOMAXPROCS − 1 workers at
		// once, so that they never crowd out the goroutines stepping the
		// worlds.
		if spinners.Add(1) > int32(runtime.GOMAXPROCS(0)-1) {
			spinners.Add(-1)
			continue
		}
		p := j.p
		for t0 := time.Now(); p.stepping.Load() && time.Since(t0) < stayAwake; {
			select {
			case j, ok := <-jobs:
				if !ok {
					spinners.Add(-1)
					return
				}
				j.do()
				p, t0 = j.p, time.Now()
				continue
			default:
			}
			runtime.Gosched()
		}
		spinners.Add(-1)
	}
}

// spinners counts the workers looking for their next job.
var spinners atomic.Int32

// stayAwake is how long a worker looks for the step's next job before it
// sleeps.
const stayAwake = 300 * time.Microsecond

// begin starts a run over total items: it numbers the run, cuts the items
// into chunks, queues a job for each worker beyond the caller (while
// there is more than one chunk and room in the queue), and returns the
// chunk size and count. The caller then takes its chunks with front.
func (p *pool) begin(w *World, pairs []broadphase.Pair, fn func(worker, lo, hi int), total int) (size, chunks int) {
	size = 1
	if total > 0 {
		chunks = max(1, min(p.n*chunksPerWorker, total/p.least, chunkMask))
		size = (total + chunks - 1) / chunks
		chunks = (total + size - 1) / size // no empty chunk at the end
	}
	if fn == nil {
		// The workers write the narrow phase's spans: sized before any
		// job is out.
		if cap(p.spans) < chunks {
			p.spans = make([]span, chunks)
		}
		p.spans = p.spans[:chunks]
	}
	p.epoch++
	p.target.Store(-1)
	p.fin.Store(0)
	p.claim.Store(uint64(p.epoch)<<32 | uint64(chunks))
	if p.jobs == nil {
		p.jobs = sharedJobs(p.n - 1)
	}
	// No more helpers than there are other processors to run them.
	for i := 1; i < min(p.n, chunks, runtime.GOMAXPROCS(0)); i++ {
		// Queue the job without waiting: whichever shared worker is free
		// first takes it. When all are busy (with other worlds' steps,
		// say) it waits in the queue while the caller takes the chunks,
		// and takes nothing if its run is over by then; when the queue
		// is full it is dropped. A step never waits for a worker.
		select {
		case p.jobs <- job{p: p, w: w, pairs: pairs, fn: fn, worker: i, epoch: p.epoch, size: size, total: total}:
		default:
		}
	}
	return size, chunks
}

// front takes the first chunk left of the current run for the caller, or
// returns -1 when none is left.
func (p *pool) front() int {
	for {
		c := p.claim.Load()
		lo, hi := int(c>>16&chunkMask), int(c&chunkMask)
		if lo >= hi {
			return -1
		}
		if p.claim.CompareAndSwap(c, c+1<<16) {
			return lo
		}
	}
}

// back takes the last chunk left of run epoch for a worker, or returns -1
// when none is left or the run is over.
func (p *pool) back(epoch uint32) int {
	for {
		c := p.claim.Load()
		lo, hi := int(c>>16&chunkMask), int(c&chunkMask)
		if uint32(c>>32) != epoch || lo >= hi {
			return -1
		}
		if p.claim.CompareAndSwap(c, c-1) {
			return hi - 1
		}
	}
}

// wait returns, once the caller has found no chunk left, the first chunk
// the workers took, after they have finished every chunk they took.
func (p *pool) wait(chunks int) int {
	first := int(p.claim.Load() >> 16 & chunkMask)
	t := int64(chunks - first)
	p.target.Store(t)
	var t0 time.Time
	for spin := 0; p.fin.Load() != t; spin++ {
		if spin == 0 {
			t0 = time.Now()
		}
		if time.Since(t0) < waitSpin {
			runtime.Gosched() // the workers are in their last chunks
			continue
		}
		// A token may be left from an earlier run whose caller saw the
		// end first; fin tells.
		<-p.done
	}
	return first
}

// waitSpin is how long the caller yields, waiting for the workers' last
// chunks, before it sleeps: longer than a chunk takes, for a sleeping
// caller is woken late (about 40 µs to wake a goroutine here, and up to
// 300 µs before it runs).
const waitSpin = 200 * time.Microsecond

// finish counts a chunk a worker finished, and wakes the caller if it was
// the last one and the caller is waiting.
func (p *pool) finish() {
	if f := p.fin.Add(1); f == p.target.Load() {
		select {
		case p.done <- struct{}{}:
		default: // a token is there already: the caller rechecks fin
		}
	}
}

// do takes chunks of its run from the back until none is left.
func (j *job) do() {
	p := j.p
	if j.fn != nil {
		for c := p.back(j.epoch); c >= 0; c = p.back(j.epoch) {
			j.fn(j.worker, c*j.size, min((c+1)*j.size, j.total))
			p.finish()
		}
		return
	}
	var s sink
	took := false
	for c := p.back(j.epoch); c >= 0; c = p.back(j.epoch) {
		if !took {
			// Only a worker that took a chunk may touch its buffer: a job
			// of a run already over takes none.
			s.collect(p.bufs[j.worker])
			took = true
		}
		start := s.n
		j.w.narrow(j.pairs[c*j.size:min((c+1)*j.size, j.total)], &s)
		p.bufs[j.worker] = s.all // it may have grown
		p.spans[c] = span{int32(j.worker), int32(start), int32(s.n)}
		p.finish()
	}
}

// run runs the narrow phase on pairs, split among the caller and the
// workers, and writes the contacts to out in pair order.
func (p *pool) run(w *World, pairs []broadphase.Pair, out *sink) {
	size, chunks := p.begin(w, pairs, nil, len(pairs))
	for c := p.front(); c >= 0; c = p.front() {
		w.narrow(pairs[c*size:min((c+1)*size, len(pairs))], out)
	}
	for c := p.wait(chunks); c < chunks; c++ {
		sp := p.spans[c]
		buf := p.bufs[sp.w][sp.lo:sp.hi]
		for k := range buf {
			ct := &buf[k]
			*out.grow1(slotKey(ct)) = *ct
		}
	}
}

// parallelFor runs fn over [0, n) in chunks, the caller's from the front
// as worker 0 and the workers' from the back, and returns when all are
// done. A worker may run several chunks, one after another. It is the
// broad phase's SetParallel hook.
func (p *pool) parallelFor(n int, fn func(worker, lo, hi int)) {
	size, chunks := p.begin(nil, nil, fn, n)
	for c := p.front(); c >= 0; c = p.front() {
		fn(0, c*size, min((c+1)*size, n))
	}
	p.wait(chunks)
}
