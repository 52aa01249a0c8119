package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// bulletSet holds the bullets, by slot in increasing order, with where each
// was at the previous Step. Only bullets are here: other bodies pay nothing.
type bulletSet struct {
	slots []int32
	prev  []bulletPrev // index for index with slots
	sw    *bulletSweep // the sweep's scratch, made at the first bullet's Step
}

// bulletSweep is the scratch of the sweep in progress: the swept contacts
// found, and the bullet being swept, for visit.
type bulletSweep struct {
	found []Contact // the swept contacts of this Step
	// The bullet being swept, for visit, a method value made once so that
	// the tree query allocates nothing.
	s          int32
	from       shape.Transform
	fromAngle  float64
	box        shape.AABB
	n0         int
	visit      func(k int32) bool
	visitSweep func(k int32, limit float64) float64
	// The translating bullet's path: its box's centre, unit direction,
	// length and half extents.
	origin, dir, half shape.Vec2
	l                 float64
	// The bullets' swept boxes and their indexes sorted by the boxes'
	// lower x edge, for sweepBulletPairs.
	boxes []shape.AABB
	order []int32
}

// bulletPrev is a bullet's place at the previous Step, with the rotation
// of its angle (what NewTransform makes of it), kept so that a sweep
// computes no sine and cosine.
type bulletPrev struct {
	pos   shape.Vec2
	angle float64
	rot   shape.Rot
}

// prevOf returns the bulletPrev of body s as it stands.
func (w *World) prevOf(s int32) bulletPrev {
	return bulletPrev{pos: w.b.xf[s].Pos, angle: w.b.angle[s], rot: w.b.xf[s].Rot}
}

func (w *World) addBullet(s int32) {
	if w.bullets == nil {
		w.bullets = &bulletSet{} // at the first bullet: most worlds have none
	}
	bs := w.bullets
	i, _ := slices.BinarySearch(bs.slots, s)
	bs.slots = slices.Insert(bs.slots, i, s)
	bs.prev = slices.Insert(bs.prev, i, w.prevOf(s))
}

func (w *World) removeBullet(s int32) {
	bs := w.bullets
	if bs == nil {
		return
	}
	if i, ok := slices.BinarySearch(bs.slots, s); ok {
		bs.slots = slices.Delete(bs.slots, i, i+1)
		bs.prev = slices.Delete(bs.prev, i, i+1)
	}
}

// sweepBullets adds to the contacts the bodies each bullet touched on its
// way from its previous place to its current one that are not contacts
// already, then records the bullets' places for the next Step. Bullets are
// taken in slot order on the caller's goroutine, so the result is the same
// for any worker count.
func (w *World) sweepBullets() {
	bs := w.bullets
	if bs == nil || len(bs.slots) == 0 {
		return
	}
	if bs.sw == nil {
		bs.sw = &bulletSweep{}
	}
	sw := bs.sw
	b := &w.b
	n0 := len(w.contacts)
	for i, s := range bs.slots {
		p := bs.prev[i]
		cur := b.xf[s]
		if p.pos == cur.Pos && p.angle == b.angle[s] {
			continue // did not move: the discrete contacts are all
		}
		sw.s, sw.from, sw.fromAngle, sw.n0 = s, shape.Transform{Pos: p.pos, Rot: p.rot}, p.angle, n0
		sw.box = w.sweptBox(s, p)
		if sw.visit == nil {
			sw.visit, sw.visitSweep = w.visitBullet, w.visitBulletSweep
		}
		if d := cur.Pos.Sub(p.pos); p.angle == b.angle[s] && d.Len() > 0 && !math.IsInf(d.Len(), 0) {
			// Translating: walk the tree along the path with the bullet's
			// box (as CastShape does) instead of searching the whole
			// swept box.
			fb := b.shapes[s].WorldAABB(sw.from)
			l := d.Len()
			sw.origin, sw.dir, sw.l, sw.half = fb.Center(), d.Scale(1/l), l, fb.HalfExtents()
			w.tree.Sweep(sw.origin, sw.dir, l, sw.half, sw.visitSweep)
		} else {
			w.tree.Query(sw.box, sw.visit)
		}
	}
	w.sweepBulletPairs(n0)
	if f := sw.found; len(f) > 0 {
		// The discrete contacts are sorted already: sort the few swept
		// ones and merge them in from the back.
		slices.SortFunc(f, func(x, y Contact) int {
			kx, ky := slotKey(&x), slotKey(&y)
			switch {
			case kx < ky:
				return -1
			case kx > ky:
				return 1
			}
			return 0
		})
		i, j := len(w.contacts)-1, len(f)-1
		w.contacts = slices.Grow(w.contacts, len(f))[:len(w.contacts)+len(f)]
		for k := len(w.contacts) - 1; j >= 0; k-- {
			if i >= 0 && slotKey(&w.contacts[i]) > slotKey(&f[j]) {
				w.contacts[k] = w.contacts[i]
				i--
			} else {
				w.contacts[k] = f[j]
				j--
			}
		}
		sw.found = f[:0]
	}
	for i, s := range bs.slots {
		bs.prev[i] = w.prevOf(s)
	}
}

// visitBullet considers body k for the bullet being swept.
func (w *World) visitBullet(k int32) bool {
	b, sw := &w.b, w.bullets.sw
	s := sw.s
	if k == s || !b.hot[k].tight.Overlaps(sw.box) || !w.pairFilter(s, k) {
		return true
	}
	if b.hot[k].flags&flagBullet != 0 {
		return true // two bullets: sweepBulletPairs
	}
	// A discrete contact needs the two boxes to overlap where they are
	// now: the search for one is skipped for the many bodies the bullet
	// only passed.
	if b.hot[k].tight.Overlaps(b.hot[s].tight) && w.hasContact(s, k, sw.n0) {
		return true
	}
	if c, ok := w.sweepPair(s, sw.from, sw.fromAngle, k); ok {
		sw.found = append(sw.found, c)
	}
	return true
}

// visitBulletSweep is visitBullet for the tree's Sweep: every body on the
// path is considered, so the limit stays.
func (w *World) visitBulletSweep(k int32, limit float64) float64 {
	// The tree met k's fat box; skip it unless the path meets its tight
	// box too (grown by the bullet's half extents), before any cast.
	sw := w.bullets.sw
	t := w.b.hot[k].tight
	if !t.Overlaps(sw.box) {
		return limit // visitBullet would skip it too
	}
	g := shape.AABB{Min: t.Min.Sub(sw.half), Max: t.Max.Add(sw.half)}
	if pathMeets(g, sw.origin, sw.dir, sw.l) {
		w.visitBullet(k)
	}
	return limit
}

// pathMeets reports whether the segment origin + s·dir, 0 ≤ s ≤ l, meets
// box g (a slab test, erring towards a meeting on rounding).
func pathMeets(g shape.AABB, origin, dir shape.Vec2, l float64) bool {
	lo, hi := 0.0, l
	for _, ax := range [2][3]float64{{g.Min.X, g.Max.X, 0}, {g.Min.Y, g.Max.Y, 1}} {
		o, d := origin.X, dir.X
		if ax[2] == 1 {
			o, d = origin.Y, dir.Y
		}
		if d == 0 {
			if o < ax[0] || o > ax[1] {
				return false
			}
			continue
		}
		a, c := (ax[0]-o)/d, (ax[1]-o)/d
		if a > c {
			a, c = c, a
		}
		lo, hi = max(lo, a), min(hi, c)
	}
	slack := float64(1e-9 * (1 + l))
	return lo <= hi+slack
}

// hasContact reports whether slots s and k are a contact among the first n
// contacts (the discrete ones, sorted by slot pair).
func (w *World) hasContact(s, k int32, n int) bool {
	a, c := min(s, k), max(s, k)
	key := uint64(uint32(a))<<32 | uint64(uint32(c))
	_, ok := slices.BinarySearchFunc(w.contacts[:n], key, func(x Contact, key uint64) int {
		if kx := slotKey(&x); kx < key {
			return -1
		} else if kx > key {
			return 1
		}
		return 0
	})
	return ok
}

// sweptBox returns the box bullet s covers on its way from p to where it
// is now.
func (w *World) sweptBox(s int32, p bulletPrev) shape.AABB {
	b := &w.b
	cur := b.xf[s]
	box := b.shapes[s].WorldAABB(shape.Transform{Pos: p.pos, Rot: p.rot}).Union(b.hot[s].tight)
	if p.angle != b.angle[s] && b.shapes[s].Kind() != shape.KindAABB {
		// Turning, it may reach beyond both end boxes: bound the path
		// of its origin by the shape's bounding radius.
		r := b.shapes[s].BoundingRadius()
		path := shape.AABB{Min: p.pos.Min(cur.Pos), Max: p.pos.Max(cur.Pos)}
		box = box.Union(path.Expand(r))
	}
	return box
}

// sweepBulletPairs sweeps the pairs of two bullets, at least one of which
// moved, against each other, both moving: a bullet's own sweep cannot find
// them, since the other one may have been anywhere on its way (two
// bullets crossing), or may not have moved at all. The swept boxes are
// sorted by their lower x edge and scanned (sort and sweep).
func (w *World) sweepBulletPairs(n0 int) {
	bs, b := w.bullets, &w.b
	if len(bs.slots) < 2 {
		return
	}
	sw := bs.sw
	sw.boxes, sw.order = sw.boxes[:0], sw.order[:0]
	for i, s := range bs.slots {
		sw.boxes = append(sw.boxes, w.sweptBox(s, bs.prev[i]))
		sw.order = append(sw.order, int32(i))
	}
	slices.SortFunc(sw.order, sw.byMinX)
	moved := func(i int32) bool {
		s := bs.slots[i]
		return bs.prev[i].pos != b.xf[s].Pos || bs.prev[i].angle != b.angle[s]
	}
	for x, i := range sw.order {
		bi := sw.boxes[i]
		for _, j := range sw.order[x+1:] {
			bj := sw.boxes[j]
			if bj.Min.X > bi.Max.X {
				break
			}
			if !bi.Overlaps(bj) {
				continue
			}
			mi, mj := moved(i), moved(j)
			if !mi && !mj {
				continue // neither moved: the discrete contacts are all
			}
			s, k := bs.slots[i], bs.slots[j]
			if !w.pairFilter(s, k) {
				continue
			}
			if b.hot[k].tight.Overlaps(b.hot[s].tight) && w.hasContact(s, k, n0) {
				continue
			}
			// Sweep from the one that moved, the lower slot if both did.
			from := i
			if !mi || mj && k < s {
				s, k, from = k, s, j
			}
			p := bs.prev[from]
			if c, ok := w.sweepPair(s, shape.Transform{Pos: p.pos, Rot: p.rot}, p.angle, k); ok {
				sw.found = append(sw.found, c)
			}
		}
	}
}

// byMinX orders bullet indexes by the lower x edge of their swept boxes,
// then by index, for sweepBulletPairs.
func (sw *bulletSweep) byMinX(x, y int32) int {
	if c := cmp.Compare(sw.boxes[x].Min.X, sw.boxes[y].Min.X); c != 0 {
		return c
	}
	return cmp.Compare(x, y)
}

// sweepPair sweeps bullet s from transform from to its current one against
// body k (at its current place, or swept too if it is a bullet) and returns
// the contact at the first touch after which they overlap, if any, naming
// the parts that touch.
func (w *World) sweepPair(s int32, from shape.Transform, fromAngle float64, k int32) (Contact, bool) {
	b := &w.b
	cur := b.xf[s]
	var t float64
	var h narrowphase.CastHit
	var ps, pk int
	kxf := b.xf[k]
	kFrom, kFromAngle := kxf, b.angle[k]
	if b.hot[k].flags&flagBullet != 0 {
		if i, ok := slices.BinarySearch(w.bullets.slots, k); ok { // k is a bullet: the set exists
			p := w.bullets.prev[i]
			kFrom, kFromAngle = shape.Transform{Pos: p.pos, Rot: p.rot}, p.angle
		}
	}
	if from.Rot == cur.Rot && kFrom.Rot == kxf.Rot {
		// Translations: the exact cast of the relative motion, k held at
		// its start; at time t it has moved by t times its own motion.
		dk := kxf.Pos.Sub(kFrom.Pos)
		hit, pa, ok := narrowphase.CastEnter(b.shapes[s], from, cur.Pos.Sub(from.Pos).Sub(dk), b.shapes[k], kFrom)
		if !ok {
			return Contact{}, false
		}
		t, h, ps, pk = hit.Fraction, hit, pa, hit.Part
		if dk != (shape.Vec2{}) {
			h.Point = h.Point.Add(dk.Scale(t))
		}
	} else {
		sa := narrowphase.Sweep{P0: from.Pos, P1: cur.Pos, A0: fromAngle, A1: b.angle[s]}
		sb := narrowphase.Sweep{P0: kFrom.Pos, P1: kxf.Pos, A0: kFromAngle, A1: b.angle[k]}
		toi, pa, pb, ok := narrowphase.TimeOfImpactEnter(b.shapes[s], sa, b.shapes[k], sb)
		if !ok {
			return Contact{}, false
		}
		t, ps, pk = toi, pa, pb
		// The touch's point and normal: a cast of the touching parts over
		// what is left of the translation from the places at the time of
		// impact, else from the bullet's centre against its motion.
		ta, tb := sa.At(t), sb.At(t)
		shA, xa := b.shapes[s].Part(ps, ta)
		shB, xb := b.shapes[k].Part(pk, tb)
		if hit, ok := narrowphase.Cast(shA, xa, cur.Pos.Sub(ta.Pos).Sub(kxf.Pos.Sub(tb.Pos)), shB, xb); ok && hit.Fraction == 0 {
			h = hit
		} else {
			h = narrowphase.CastHit{Point: ta.Pos, Normal: from.Pos.Sub(cur.Pos).Normalize()}
		}
	}
	// h.Normal points from k toward the bullet; a contact's from A to B.
	n := h.Normal
	a, c := s, k
	pa, pc := ps, pk
	if k < s {
		a, c = k, s
		pa, pc = pk, ps
	} else {
		n = n.Neg()
	}
	m := narrowphase.Manifold{Normal: n, Count: 1}
	m.Points[0] = narrowphase.ContactPoint{Point: h.Point}
	return Contact{
		A: makeID(a, b.hot[a].gen), B: makeID(c, b.hot[c].gen), Manifold: m,
		PartA: pa, PartB: pc,
		Sensor: (b.hot[s].flags|b.hot[k].flags)&flagSensor != 0,
		Swept:  true, TOI: t,
	}, true
}
