package engine

import (
	"time"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// minParallelPairs and minParallelBodies are the counts below which the
// narrow phase and the box updates stay on the caller's goroutine: waking a
// worker costs microseconds, and at a thousand bodies the split measured
// slower than one goroutine (BenchmarkStep/n=1000).
//
// minParallelQueries is the same for the broad phase's queries, counted in
// proxies that left their fat box: each query costs about half a
// microsecond, so fewer are worth splitting.
const (
	minParallelPairs   = 4096
	minParallelBodies  = 4096
	minParallelQueries = 512
)

// Step brings the world up to date: it refreshes the moved bodies' proxies,
// finds candidate pairs, runs the narrow phase and records which contacts
// began and ended. A steady-state Step allocates nothing.
func (w *World) Step() {
	t0 := time.Now()
	b := &w.b
	moved := 0
	if w.pool != nil && len(b.moved) >= w.parBodies {
		// The moved bodies' boxes are independent of each other, so they
		// are computed in parallel; the tree updates that follow are not.
		// The moved list holds each slot once, so no two workers write the
		// same body.
		if cap(w.disps) < len(b.moved) {
			w.disps = make([]shape.Vec2, len(b.moved), 2*len(b.moved))
		}
		disps := w.disps[:len(b.moved)]
		w.pool.bounds(w, b.moved, disps)
		for i, s := range b.moved {
			b.hot[s].flags &^= flagMoved
			if b.hot[s].flags&flagAlive != 0 {
				w.tree.Update(s, b.hot[s].tight, disps[i])
				moved++
			}
		}
	} else {
		for _, s := range b.moved {
			b.hot[s].flags &^= flagMoved
			if b.hot[s].flags&flagAlive != 0 {
				w.tree.Update(s, b.hot[s].tight, w.refreshBox(s))
				moved++
			}
		}
	}
	b.moved = b.moved[:0]
	t1 := time.Now()

	w.tree.UpdatePairs()
	pairs := w.tree.Pairs()
	t2 := time.Now()

	w.prev, w.contacts = w.contacts, w.prev[:0]
	if w.pool == nil || len(pairs) < w.parPairs {
		w.contacts = w.narrow(pairs, w.contacts)
	} else {
		w.contacts = w.pool.run(w, pairs, w.contacts)
	}
	t3 := time.Now()

	w.diffContacts()
	t4 := time.Now()

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

// bounds refreshes the tight boxes of the live bodies among moved and
// writes their displacements to disps, index for index.
func (w *World) bounds(moved []int32, disps []shape.Vec2) {
	for i, s := range moved {
		if w.b.hot[s].flags&flagAlive != 0 {
			disps[i] = w.refreshBox(s)
		}
	}
}

// refreshBox recomputes body s's tight box and returns how far the box's
// centre moved. That shift stands for the body's displacement since the
// last step (the broad phase stretches fat boxes along it), so no
// displacement is stored per body.
func (w *World) refreshBox(s int32) shape.Vec2 {
	h := &w.b.hot[s]
	t := w.b.shapes[s].WorldAABB(w.b.xf[s])
	d := t.Center().Sub(h.tight.Center())
	h.tight = t
	return d
}

// narrow runs the narrow phase on pairs and appends the contacts to out, in
// pair order.
func (w *World) narrow(pairs []broadphase.Pair, out []Contact) []Contact {
	b := &w.b
	for _, p := range pairs {
		a, c := p.A, p.B
		fa, fc := b.hot[a].flags, b.hot[c].flags
		// The broad phase's filter (pairFilter) already turned away static
		// pairs and pairs the bits forbid, and SetFilter makes it look
		// again, so only the boxes are left to check.
		if !b.hot[a].tight.Overlaps(b.hot[c].tight) {
			continue
		}
		m, ok := narrowphase.Collide(b.shapes[a], b.xf[a], b.shapes[c], b.xf[c])
		if !ok {
			continue
		}
		out = append(out, Contact{
			A:        makeID(a, b.hot[a].gen),
			B:        makeID(c, b.hot[c].gen),
			Manifold: m,
			Sensor:   (fa|fc)&flagSensor != 0,
		})
	}
	return out
}

// accepts is Filter.Accepts for stored filters, which are never zero.
func accepts(f, g Filter) bool { return f.Category&g.Mask != 0 && g.Category&f.Mask != 0 }

// diffContacts fills began and ended by merging the previous and current
// contact lists, both ordered by slot pair. Equal slots with different ids
// mean a body was removed and its slot reused: the old contact ended and the
// new one began.
func (w *World) diffContacts() {
	w.began, w.ended = w.began[:0], w.ended[:0]
	prev, cur := w.prev, w.contacts
	i, j := 0, 0
	for i < len(prev) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(prev) && slotKey(prev[i]) < slotKey(cur[j])):
			w.ended = append(w.ended, int32(i))
			i++
		case i == len(prev) || slotKey(cur[j]) < slotKey(prev[i]):
			w.began = append(w.began, int32(j))
			j++
		default:
			if prev[i].A != cur[j].A || prev[i].B != cur[j].B {
				w.ended = append(w.ended, int32(i))
				w.began = append(w.began, int32(j))
			}
			i++
			j++
		}
	}
}

func slotKey(c Contact) uint64 { return uint64(uint32(c.A))<<32 | uint64(uint32(c.B)) }
