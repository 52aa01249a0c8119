package engine

import (
	"cmp"
	"context"
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
	w.tree.UpdatePairs()
	pairs := w.tree.Pairs()
	t2 := time.Now()
	if tracing {
		reg.End()
		reg = trace.StartRegion(context.Background(), "collide.narrow")
	}

	w.prev, w.contacts = w.contacts, w.prev[:0]
	if w.pool == nil || len(pairs) < int(w.parPairs) {
		w.contacts = w.narrow(pairs, w.contacts)
	} else {
		w.contacts = w.pool.run(w, pairs, w.contacts)
	}
	w.recordBullets()
	t3 := time.Now()
	if tracing {
		reg.End()
		reg = trace.StartRegion(context.Background(), "collide.events")
	}

	w.diffContacts()
	t4 := time.Now()
	if tracing {
		reg.End()
	}

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

// narrow runs the narrow phase on pairs and appends the contacts to out, in
// pair order.
func (w *World) narrow(pairs []broadphase.Pair, out []contact) []contact {
	b := &w.b
	hot, tight := b.hot, b.tight
	// Most pairs fail the box test below; without bullets in the world
	// they need not look at the flags.
	bullets := w.bullets != nil && len(w.bullets.slots) > 0
	for _, p := range pairs {
		a, c := p.A, p.B
		// The broad phase's filter (pairFilter) already turned away static
		// pairs and pairs the bits forbid, and SetFilter makes it look
		// again, so only the boxes are left to check. A pair with a
		// bullet that is no contact where the two are now is swept.
		if !tight[a].overlaps(tight[c]) {
			if bullets && (hot[a].flags|hot[c].flags)&flagBullet != 0 {
				out = w.sweepPair(a, c, out)
			}
			continue
		}
		ha, hc := &hot[a], &hot[c]
		fa, fc := ha.flags, hc.flags
		sa, sc := b.shapes[a], b.shapes[c]
		if !sa.Kind().Convex() || !sc.Kind().Convex() {
			// One contact per overlapping part pair, in part order.
			n := len(out)
			idA, idC, sensor := makeID(a, ha.gen), makeID(c, hc.gen), (fa|fc)&flagSensor != 0
			narrowphase.CollideParts(sa, b.xf[a], sc, b.xf[c], func(pa, pc int, m narrowphase.Manifold) bool {
				var ct *contact
				out, ct = grow1(out)
				ct.set(idA, idC, &m, pa, pc, sensor)
				return true
			})
			if len(out) == n && (fa|fc)&flagBullet != 0 {
				out = w.sweepPair(a, c, out)
			}
			continue
		}
		m, ok := narrowphase.Collide(sa, b.xf[a], sc, b.xf[c])
		if !ok {
			if (fa|fc)&flagBullet != 0 {
				out = w.sweepPair(a, c, out)
			}
			continue
		}
		var ct *contact
		out, ct = grow1(out)
		ct.set(makeID(a, ha.gen), makeID(c, hc.gen), &m, 0, 0, (fa|fc)&flagSensor != 0)
	}
	return out
}

// accepts is Filter.Accepts for stored filters, which are never zero.
func accepts(f, g filterBits) bool { return f.cat&g.mask != 0 && g.cat&f.mask != 0 }

// diffContacts fills began and ended by merging the previous and current
// contact lists, both ordered by slot pair, then part pair. Equal slots
// with different ids mean a body was removed and its slot reused: the old
// contact ended and the new one began.
func (w *World) diffContacts() {
	w.began, w.ended = w.began[:0], w.ended[:0]
	prev, cur := w.prev, w.contacts
	i, j := 0, 0
	for i < len(prev) && j < len(cur) {
		switch c := compareContacts(&prev[i], &cur[j]); {
		case c < 0:
			w.ended = append(w.ended, int32(i))
			i++
		case c > 0:
			w.began = append(w.began, int32(j))
			j++
		default:
			if prev[i].a != cur[j].a || prev[i].b != cur[j].b {
				w.ended = append(w.ended, int32(i))
				w.began = append(w.began, int32(j))
			}
			i++
			j++
		}
	}
	for ; i < len(prev); i++ {
		w.ended = append(w.ended, int32(i))
	}
	for ; j < len(cur); j++ {
		w.began = append(w.began, int32(j))
	}
}

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
