package engine

import (
	"iter"
	"runtime"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
)

// Config sets up a World. The zero Config is a working world.
type Config struct {
	// Workers is how many goroutines share a large Step's narrow phase and
	// pair search, the caller's among them: 0 means GOMAXPROCS, 1 means the
	// caller's alone. The others are the process's shared workers (as many
	// as the largest Workers − 1 of any world, started when a step first
	// needs them), so a thousand worlds do not start a thousand goroutines;
	// a step whose helpers are busy with other worlds runs the work itself,
	// and no more than GOMAXPROCS − 1 helpers join a step.
	// Steps below a few thousand candidate pairs never use them. A server
	// stepping many small rooms on its own goroutines should use Workers 1.
	Workers int
	// Margin grows each body's box in the broad phase, in world units, so
	// that small moves do not touch the tree; 0 means the broad phase's
	// default.
	Margin float64
	// MotionFrames stretches each box along the body's last displacement by
	// that many frames; 0 means the broad phase's default.
	MotionFrames float64
}

// Contact is an overlapping pair of bodies after a Step. A is the body in the
// lower storage slot. The manifold's normal points from A to B.
type Contact struct {
	A, B     BodyID               // the two bodies, A in the lower storage slot
	Manifold narrowphase.Manifold // normal from A to B, depth, points
	// PartA and PartB name the parts of compound shapes that touch (their
	// indexes in Shape.Parts()); 0 for a simple shape. Two compound bodies
	// have one contact per overlapping part pair, each beginning and
	// ending on its own.
	PartA, PartB int
	// Sensor is set when either body is a sensor.
	Sensor bool
	// Swept is set for a contact a bullet made on its way through the last
	// Step's motion (see BodyDef.Bullet) that is not an overlap at its end:
	// TOI is the fraction of the bullet's motion (of both bullets', for two)
	// at which the overlap began, the manifold is the touch then (Depth 0,
	// one point), and PartA and PartB name the parts that touched first.
	Swept bool
	TOI   float64
}

// Other returns the body of c that is not id: B when id is A, A otherwise.
func (c Contact) Other(id BodyID) BodyID {
	if id == c.A {
		return c.B
	}
	return c.A
}

// From returns c as seen from body id: A is id and the normal points from
// id to the other body (the manifold flipped when id is B). Moving id by
// the negated MTV pushes it out. For an id in neither end, c comes back
// unchanged.
func (c Contact) From(id BodyID) Contact {
	if id == c.B && id != c.A {
		c.A, c.B = c.B, c.A
		c.PartA, c.PartB = c.PartB, c.PartA
		c.Manifold = c.Manifold.Flip()
	}
	return c
}

// Stats holds the counters and phase times of the last Step.
type Stats struct {
	Bodies     int // live bodies
	Moved      int // bodies moved since the previous step
	Reinserted int // proxies that left their fat box and were re-inserted
	Pairs      int // candidate pairs from the broad phase
	Contacts   int // contacts found
	Began      int // contacts that began this step
	Ended      int // contacts that ended this step
	// Phase times in nanoseconds.
	UpdateNs, PairsNs, NarrowNs, EventsNs int64
}

// World is a collision world: bodies, the broad phase and the last step's
// contacts.
//
// Concurrency: Add, Remove, SetTransform, Move, SetFilter, the other
// setters and Step need exclusive access. Queries, Body, Contacts, Began, Ended and Stats write
// nothing, so any number of goroutines may call them at once while no
// mutation or Step runs. Nothing locks internally.
type World struct {
	cfg  Config
	b    bodies
	tree *broadphase.Tree

	contacts []contact  // stored compactly; see contact
	ended    []contact  // the contacts of the step before that ended
	began    []int32    // indexes into contacts
	bullets  *bulletSet // nil until the first bullet
	stats    Stats

	pool *pool
	// Work sizes from which Step uses the pool; tests lower them so that
	// small scenes exercise the parallel paths.
	parPairs, parQueries int32
	closed               bool // Close was called: steps stay on the caller
	snap                 *snapCache
	spare                *restoreBufs // nil until the first restore
	// slotsAt is the number of slots at the last Step, and steady the
	// Steps in a row it has not changed, up to trimSteps (see trimSlots).
	slotsAt, steady int32
	// catState publishes the category index to queries, which run side
	// by side: catNone, catBuilding while the first Nearest that it serves
	// builds it, catBuilt once b.cats is kept (see catIndex).
	catState uint32
}

// NewWorld returns an empty world.
func NewWorld(cfg Config) *World {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	w := &World{cfg: cfg}
	w.parPairs, w.parQueries = minParallelPairs, minParallelQueries
	return w
}

// bp returns the broad phase, making it at the first body: a world that
// never holds one (a room made ahead of its match) carries none, and its
// queries and steps read the nil tree as empty.
func (w *World) bp() *broadphase.Tree {
	if w.tree == nil {
		w.attachTree(broadphase.NewTree(broadphase.Config{Margin: w.cfg.Margin, MotionFrames: w.cfg.MotionFrames}))
	}
	return w.tree
}

// attachTree makes t the world's broad phase, with the world's pair
// filter and, when it has a pool, its parallel hook.
func (w *World) attachTree(t *broadphase.Tree) {
	w.tree = t
	t.SetFilter(w.pairFilter)
	if w.pool != nil {
		t.SetParallel(w.pool.n, int(w.parQueries), w.pool.parallelFor)
	}
}

// usePool gives the world its pool (and the broad phase its parallel hook)
// when it is configured for more than one worker and has none yet: at the
// first Step big enough to share, so that small worlds never carry one.
func (w *World) usePool() {
	if w.pool == nil && w.cfg.Workers > 1 && !w.closed {
		w.pool = newPool(w.cfg.Workers)
		w.pool.least = w.chunkLeast()
		if w.tree != nil {
			w.tree.SetParallel(w.pool.n, int(w.parQueries), w.pool.parallelFor)
		}
	}
}

// chunkLeast returns the fewest items a chunk of a parallel run holds:
// minChunk, or 1 where tests lowered the work sizes, so that their small
// scenes spread over the workers too.
func (w *World) chunkLeast() int {
	if w.parPairs < minParallelPairs || w.parQueries < minParallelQueries {
		return 1
	}
	return minChunk
}

// setParallelFrom sets the work sizes from which Step uses the pool: pairs
// for the narrow phase, re-inserted proxies for the broad phase's queries.
// Tests lower them so that small scenes take the parallel paths.
func (w *World) setParallelFrom(pairs, queries int) {
	w.parPairs, w.parQueries = int32(pairs), int32(queries)
	switch {
	case w.pool != nil:
		w.pool.least = w.chunkLeast()
		if w.tree != nil {
			w.tree.SetParallel(w.pool.n, queries, w.pool.parallelFor)
		}
	case pairs < minParallelPairs:
		w.usePool() // a test lowered the sizes: the pool at once
	}
}

// Close makes the world step on the caller's goroutine alone from now on.
// The world stays usable. Close is optional: a world owns no goroutine (the
// workers are shared by all worlds), so an unreachable world is simply
// collected.
func (w *World) Close() {
	w.closed = true
	if w.pool != nil {
		if w.tree != nil {
			w.tree.SetParallel(0, 0, nil)
		}
		w.pool = nil
	}
}

// Workers returns the worker count the world was configured with (after
// Close, the world steps on the caller's goroutine alone).
func (w *World) Workers() int { return w.cfg.Workers }

// Contacts yields the contacts of the last Step, ordered by the bodies'
// storage slots. The sequence is valid until the next Step. Mutating the
// world while ranging over it (Move to push a body out, Remove, any setter)
// is allowed: the contacts stay the last Step's, as they were.
//
// The iterator is a function literal so that, once Contacts is inlined, the
// compiler sees through the range loop and nothing escapes: ranging over it
// allocates nothing.
func (w *World) Contacts() iter.Seq[Contact] {
	return func(yield func(Contact) bool) {
		for i := range w.contacts {
			if !yield(w.contacts[i].export()) {
				return
			}
		}
	}
}

// Began yields the contacts of the last Step that were not contacts in the
// step before it. Valid until the next Step; mutations while ranging are
// allowed, as for Contacts.
func (w *World) Began() iter.Seq[Contact] {
	return func(yield func(Contact) bool) {
		for _, i := range w.began {
			if !yield(w.contacts[i].export()) {
				return
			}
		}
	}
}

// Ended yields the contacts of the step before the last that are no longer
// contacts, as they were then. A body removed since then is still readable
// with Body (Removed set) until the next Step, so its user value tells who
// left. Valid until the next Step; mutations while ranging are allowed, as
// for Contacts.
func (w *World) Ended() iter.Seq[Contact] {
	return func(yield func(Contact) bool) {
		for i := range w.ended {
			if !yield(w.ended[i].export()) {
				return
			}
		}
	}
}

// ContactCount returns the number of contacts of the last Step.
func (w *World) ContactCount() int { return len(w.contacts) }

// Stats returns the counters and phase times of the last Step.
func (w *World) Stats() Stats { return w.stats }
