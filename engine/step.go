package engine

import (
	"cmp"
	"context"
	"math"
	"runtime/trace"
	"time"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
)

// minParallelPairs is the pair count below which the narrow phase stays on
// the caller's goroutine: waking a worker costs microseconds, and at a
// thousand bodies the split measured slower than one goroutine
// (BenchmarkStep/n=1000).
//
// minParallelQueries is the same for the broad phase's queries, counted in
// proxies that left their fat box: each query costs about half a
// microsecond, so fewer are worth splitting.
const (
	minParallelPairs   = 4096
	minParallelQueries = 512
)

// Step finds the contacts of the world as it stands: it lets the broad
// phase find new candidate pairs for the proxies that moved (their boxes
// were refreshed when they moved), runs the narrow phase and records which
// contacts began and ended. A steady-state Step allocates nothing.
//
// Under `go test -trace` (or runtime/trace) each phase is a trace region:
// collide.update, collide.pairs, collide.narrow and collide.events.
func (w *World) Step() {
	tracing := trace.IsEnabled()
	var reg *trace.Region
	if tracing {
		reg = trace.StartRegion(context.Background(), "collide.update")
	}
	t0 := time.Now()
	b := &w.b
	b.reap()
	moved := 0
	hot := b.hot
	for _, s := range b.moved {
		h := &hot[s]
		f := h.flags
		h.flags = f &^ flagMoved
		if f&flagAlive != 0 {
			moved++
		}
	}
	b.moved = b.moved[:0]
	t1 := time.Now()
	if tracing {
		reg.End()
		reg = trace.StartRegion(context.Background(), "collide.pairs")
	}

	if w.pool == nil && (moved >= int(w.parQueries) || b.count >= int(w.parPairs)/4) {
		w.usePool() // a world big enough to share the work gets its pool
	}
	if w.pool != nil {
		w.pool.stepping.Store(true)
	}
	w.tree.UpdatePairs()
	pairs := w.tree.Pairs()
	t2 := time.Now()
	if tracing {
		reg.End()
		reg = trace.StartRegion(context.Background(), "collide.narrow")
	}

	// The narrow phase diffs its contacts with the last step's as it
	// writes them (see sink), so the events take only what is left.
	w.began, w.ended = w.began[:0], w.ended[:0]
	var s sink
	s.start(w, w.contacts)
	if w.pool == nil || len(pairs) < int(w.parPairs) {
		w.narrow(pairs, &s)
	} else {
		w.pool.run(w, pairs, &s)
	}
	if w.pool != nil {
		w.pool.stepping.Store(false) // no parallel run is left
	}
	w.recordBullets()
	t3 := time.Now()
	if tracing {
		reg.End()
		reg = trace.StartRegion(context.Background(), "collide.events")
	}

	s.settle(math.MaxUint64)
	w.contacts = s.list()
	t4 := time.Now()
	if tracing {
		reg.End()
	}

	w.trimSlots()
	ts := w.tree.Stats()
	w.stats = Stats{
		Bodies:     b.count,
		Moved:      moved,
		Reinserted: ts.Reinserted,
		Pairs:      len(pairs),
		Contacts:   len(w.contacts),
		Began:      len(w.began),
		Ended:      len(w.ended),
		UpdateNs:   t1.Sub(t0).Nanoseconds(),
		PairsNs:    t2.Sub(t1).Nanoseconds(),
		NarrowNs:   t3.Sub(t2).Nanoseconds(),
		EventsNs:   t4.Sub(t3).Nanoseconds(),
	}
}

// narrow runs the narrow phase on pairs and writes the contacts to out, in
// pair order.
func (w *World) narrow(pairs []broadphase.Pair, out *sink) {
	b := &w.b
	hot, tight := b.hot, b.tight
	// Most pairs fail the box test below; without bullets in the world
	// they need not look at the flags.
	bullets := w.bullets != nil && len(w.bullets.slots) > 0
	for i := 0; i < len(pairs); i++ {
		// The broad phase's filter (pairFilter) already turned away static
		// pairs and pairs the bits forbid, and SetFilter makes it look
		// again, so only the boxes are left to check. A pair with a
		// bullet that is no contact where the two are now is swept.
		if !bullets {
			// Straight to the next pair whose boxes meet, in a loop
			// that keeps everything in registers.
			if i = nextOverlap(pairs, tight, i); i == len(pairs) {
				break
			}
		} else if a, c := pairs[i].A, pairs[i].B; !tight[a].overlaps(tight[c]) {
			if (hot[a].flags|hot[c].flags)&flagBullet != 0 {
				w.sweepPair(a, c, out)
			}
			continue
		}
		a, c := pairs[i].A, pairs[i].B
		ha, hc := &hot[a], &hot[c]
		fa, fc := ha.flags, hc.flags
		sa, sc := b.shapes[a], b.shapes[c]
		if !sa.Kind().Convex() || !sc.Kind().Convex() {
			// One contact per overlapping part pair, in part order.
			n := out.n
			idA, idC, sensor := makeID(a, ha.gen), makeID(c, hc.gen), (fa|fc)&flagSensor != 0
			narrowphase.CollideParts(sa, b.xf[a], sc, b.xf[c], func(pa, pc int, m narrowphase.Manifold) bool {
				out.grow1(pairKey(a, c)).set(idA, idC, &m, pa, pc, sensor)
				return true
			})
			if out.n == n && (fa|fc)&flagBullet != 0 {
				w.sweepPair(a, c, out)
			}
			continue
		}
		m, ok := narrowphase.Collide(sa, b.xf[a], sc, b.xf[c])
		if !ok {
			if (fa|fc)&flagBullet != 0 {
				w.sweepPair(a, c, out)
			}
			continue
		}
		out.grow1(pairKey(a, c)).set(makeID(a, ha.gen), makeID(c, hc.gen), &m, 0, 0, (fa|fc)&flagSensor != 0)
	}
}

// nextOverlap returns the index of the first pair from i on whose rounded
// boxes overlap, or len(pairs).
func nextOverlap(pairs []broadphase.Pair, tight []box32, i int) int {
	for ; i < len(pairs); i++ {
		if p := pairs[i]; tight[p.A].overlaps(tight[p.B]) {
			break
		}
	}
	return i
}

// accepts is Filter.Accepts for stored filters, which are never zero.
func accepts(f, g filterBits) bool { return f.cat&g.mask != 0 && g.cat&f.mask != 0 }

// pairKey returns the slot key of slots a < c.
func pairKey(a, c int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(c)) }

// slotKey returns a contact's slot pair as one key. It and compareContacts
// take pointers: a contact is 96 bytes, copied at each call otherwise.
func slotKey(c *contact) uint64 { return uint64(uint32(c.a))<<32 | uint64(uint32(c.b)) }

// compareContacts orders contacts by slot pair, then part pair (the order
// Step produces them in): -1 if x comes before y, +1 if after, 0 if they
// share both.
func compareContacts(x, y *contact) int {
	kx, ky := slotKey(x), slotKey(y)
	switch {
	case kx < ky:
		return -1
	case kx > ky:
		return 1
	case x.pa != y.pa:
		return cmp.Compare(x.pa, y.pa)
	}
	return cmp.Compare(x.partB(), y.partB())
}

// Slot trimming. Bodies added one at a time grow the slot arrays (the
// world's and the broad phase's) by append, which leaves up to a quarter
// of each spare, and more in a small world: about 14 bytes a body of a
// 100,000-body world. A world whose slot count has not changed for
// trimSteps Steps in a row cuts each array that has more than a
// thirty-second spare to its length plus a sixty-fourth, once: a room that
// has loaded its level and players gives the room back, and one that
// keeps adding bodies, whose arrays would grow again at once, is left
// alone. Slots are never given back (a removed body's slot is reused), so
// a steady world holds the same slots however many bodies come and go.
const trimSteps = 32

// trimSlots applies the rule above at the end of a Step.
func (w *World) trimSlots() {
	n := int32(len(w.b.hot))
	switch {
	case n != w.slotsAt:
		w.slotsAt, w.steady = n, 0
	case w.steady < trimSteps:
		if w.steady++; w.steady == trimSteps {
			w.b.trim()
			if w.tree != nil {
				w.tree.Trim()
			}
		}
	}
}
