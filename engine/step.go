package engine

import (
	"time"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// minParallelPairs and minParallelBodies are the counts below which the
// narrow phase and the box updates stay on the caller's goroutine: handing
// work to the pool costs a few microseconds.
const (
	minParallelPairs  = 256
	minParallelBodies = 512
)

// Step brings the world up to date: it refreshes the moved bodies' proxies,
// finds candidate pairs, runs the narrow phase and records which contacts
// began and ended. A steady-state Step allocates nothing.
func (w *World) Step() {
	t0 := time.Now()
	b := &w.b
	// The moved bodies' boxes are independent of each other, so they are
	// computed in parallel; the tree updates that follow are not.
	if cap(w.tights) < len(b.moved) {
		w.tights = make([]shape.AABB, len(b.moved), 2*len(b.moved))
	}
	tights := w.tights[:len(b.moved)]
	if w.pool != nil && len(b.moved) >= minParallelBodies {
		w.pool.bounds(w, b.moved, tights)
	} else {
		w.bounds(b.moved, tights)
	}
	moved := 0
	for i, s := range b.moved {
		if b.hot[s].flags&flagAlive == 0 {
			continue
		}
		b.hot[s].flags &^= flagMoved
		// The box's shift stands for the body's displacement since the
		// last step (the broad phase stretches fat boxes along it), so no
		// per-body displacement is stored.
		tight := tights[i]
		disp := tight.Center().Sub(b.hot[s].tight.Center())
		b.hot[s].tight = tight
		w.tree.Update(s, tight, disp)
		moved++
	}
	b.moved = b.moved[:0]
	t1 := time.Now()

	w.tree.UpdatePairs()
	pairs := w.tree.Pairs()
	t2 := time.Now()

	w.prev, w.contacts = w.contacts, w.prev[:0]
	if w.pool == nil || len(pairs) < minParallelPairs {
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

// bounds computes the tight boxes of the live bodies among moved into
// tights, index for index.
func (w *World) bounds(moved []int32, tights []shape.AABB) {
	b := &w.b
	for i, s := range moved {
		if b.hot[s].flags&flagAlive != 0 {
			tights[i] = b.shapes[s].WorldAABB(b.xf[s])
		}
	}
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
