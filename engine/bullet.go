package engine

import (
	"slices"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// bulletSet holds the bullets, by slot in increasing order, with where each
// was at the previous Step. Only bullets are here: other bodies pay nothing.
//
// A bullet's broad-phase proxy holds the box of its whole motion since the
// previous Step (bulletPrev.swept), not only of where it is, so the pair
// set holds every body it may have touched on the way, another bullet's
// motion included, and the narrow phase sweeps those pairs that are not
// contacts where the bodies are now (sweepPair). The sweeps run with the
// rest of the narrow phase, on the workers, and come out in pair order.
type bulletSet struct {
	slots []int32
	prev  []bulletPrev // index for index with slots
	// at maps a bullet's slot to its index in slots; entries of other
	// slots are stale or absent, and entry checks them.
	at []int32
}

// bulletPrev is a bullet's place at the previous Step, with the rotation
// of its angle (what NewTransform makes of it), kept so that a sweep
// computes no sine and cosine, and the boxes of its motion since then.
type bulletPrev struct {
	pos   shape.Vec2
	angle float64
	rot   shape.Rot
	// from is the box of the bullet's shape at pos; swept holds it and
	// the bullet's box where it is now, and their path when it turned.
	// proxyBox sets both whenever the bullet moves or changes shape, and
	// prevOf when pos does.
	from, swept shape.AABB
}

// prevOf returns the bulletPrev of body s as it stands: no motion yet.
func (w *World) prevOf(s int32) bulletPrev {
	t := w.b.tightOf(s)
	return bulletPrev{pos: w.b.xf[s].Pos, angle: w.b.angle[s], rot: w.b.xf[s].Rot, from: t, swept: t}
}

func (w *World) addBullet(s int32) {
	if w.bullets == nil {
		w.bullets = &bulletSet{} // at the first bullet: most worlds have none
	}
	bs := w.bullets
	i, _ := slices.BinarySearch(bs.slots, s)
	bs.slots = slices.Insert(bs.slots, i, s)
	bs.prev = slices.Insert(bs.prev, i, w.prevOf(s))
	bs.reindex(i)
}

func (w *World) removeBullet(s int32) {
	bs := w.bullets
	if bs == nil {
		return
	}
	if i, ok := slices.BinarySearch(bs.slots, s); ok {
		bs.slots = slices.Delete(bs.slots, i, i+1)
		bs.prev = slices.Delete(bs.prev, i, i+1)
		bs.reindex(i)
	}
}

// reindex brings at up to date for the bullets from index i on.
func (bs *bulletSet) reindex(i int) {
	if n := len(bs.slots); n > 0 {
		if need := int(bs.slots[n-1]) + 1; need > len(bs.at) {
			bs.at = append(bs.at, make([]int32, need-len(bs.at))...)
		}
	}
	for j := i; j < len(bs.slots); j++ {
		bs.at[bs.slots[j]] = int32(j)
	}
}

// entry returns bullet s's entry, or nil for a body that is not a bullet.
func (bs *bulletSet) entry(s int32) *bulletPrev {
	if bs == nil || int(s) >= len(bs.at) {
		return nil
	}
	if i := bs.at[s]; i >= 0 && int(i) < len(bs.slots) && bs.slots[i] == s {
		return &bs.prev[i]
	}
	return nil
}

// proxyBox returns the box body s of b's proxy holds, t being its box
// where it is: t itself, or for a bullet the box of its motion since the
// previous Step (linear position, linear angle), which it records in the
// bullet's entry with the box at its previous place.
func proxyBox(b *bodies, bs *bulletSet, s int32, t shape.AABB) shape.AABB {
	if b.hot[s].flags&flagBullet == 0 {
		return t
	}
	p := bs.entry(s)
	if p == nil {
		return t
	}
	p.from, p.swept = t, t
	cur := b.xf[s]
	if p.pos == cur.Pos && p.angle == b.angle[s] {
		return t
	}
	from := b.shapes[s].WorldAABB(shape.Transform{Pos: p.pos, Rot: p.rot})
	box := from.Union(t)
	if p.angle != b.angle[s] && b.shapes[s].Kind() != shape.KindAABB {
		// Turning, it may reach beyond both end boxes: bound the path of
		// its origin by the shape's bounding radius.
		r := b.shapes[s].BoundingRadius()
		path := shape.AABB{Min: p.pos.Min(cur.Pos), Max: p.pos.Max(cur.Pos)}
		box = box.Union(path.Expand(r))
	}
	if !from.IsFinite() || !box.IsFinite() {
		// Only a motion across the float range overflows: Cast and
		// TimeOfImpact find no touch on such a motion.
		return t
	}
	p.from, p.swept = from, box
	return box
}

// recordBullets records the bullets' places for the next Step's sweeps.
func (w *World) recordBullets() {
	bs := w.bullets
	if bs == nil {
		return
	}
	for i, s := range bs.slots {
		bs.prev[i] = w.prevOf(s)
	}
}

// sweepPair writes to out the swept contact of slots a < c, a pair of
// the narrow phase with at least one bullet that is not a contact where
// the two are now: where the bullet's motion since the previous Step
// first touches the other body (at its current place, or swept too if it
// is a bullet) on the way to overlapping it, if it does, naming the parts
// that touch (a touch without overlap is not a contact). The pair of two
// bullets is swept from the lower slot. It only reads the world, so the
// workers run it.
func (w *World) sweepPair(a, c int32, out *sink) {
	b := &w.b
	s, k := a, c
	if b.hot[a].flags&flagBullet == 0 {
		s, k = c, a
	}
	p := w.bullets.entry(s)
	if p == nil {
		return
	}
	// The boxes of the two motions must meet, which turns most pairs
	// away before anything else is read.
	var q *bulletPrev
	var kBox shape.AABB
	if b.hot[k].flags&flagBullet != 0 {
		q = w.bullets.entry(k)
	}
	if q != nil {
		kBox = q.swept
	} else {
		// The rounded box first: it meets the path's box whenever the
		// box does, and most pairs end here without the exact box.
		if !b.tight[k].overlapsAABB(p.swept) {
			return
		}
		kBox = b.tightOf(k)
	}
	if !p.swept.Overlaps(kBox) {
		return
	}
	cur, kxf := b.xf[s], b.xf[k]
	sMoved := p.pos != cur.Pos || p.angle != b.angle[s]
	kMoved := q != nil && (q.pos != kxf.Pos || q.angle != b.angle[k])
	if !sMoved && !kMoved {
		return // neither moved: the discrete contacts are all
	}
	from := shape.Transform{Pos: p.pos, Rot: p.rot}
	kFrom := kxf
	if q != nil {
		kFrom = shape.Transform{Pos: q.pos, Rot: q.rot}
	}
	var t float64
	var h narrowphase.CastHit
	var partS, partK int // the parts that touch first
	if from.Rot == cur.Rot && p.angle == b.angle[s] && kFrom.Rot == kxf.Rot && (q == nil || q.angle == b.angle[k]) {
		// Translations: the exact cast of the relative motion, k held at
		// its start (at time t it has moved by t times its own motion),
		// if the path of the bullet's box meets k's box there.
		dk := kxf.Pos.Sub(kFrom.Pos)
		d := cur.Pos.Sub(from.Pos).Sub(dk)
		kStart := kBox
		if q != nil {
			kStart = q.from
		}
		if !p.from.MeetsAlong(d, kStart) {
			return
		}
		hit, pa, ok := narrowphase.CastEnter(b.shapes[s], from, d, b.shapes[k], kFrom)
		if !ok {
			return
		}
		t, h, partS, partK = hit.Fraction, hit, pa, hit.Part
		if dk != (shape.Vec2{}) {
			h.Point = h.Point.Add(dk.Scale(t))
		}
	} else {
		sa := narrowphase.Sweep{P0: from.Pos, P1: cur.Pos, A0: p.angle, A1: b.angle[s]}
		sb := narrowphase.Sweep{P0: kxf.Pos, P1: kxf.Pos, A0: b.angle[k], A1: b.angle[k]}
		if q != nil {
			sb.P0, sb.A0 = q.pos, q.angle
		}
		toi, pa, pb, ok := narrowphase.TimeOfImpactEnter(b.shapes[s], sa, b.shapes[k], sb)
		if !ok {
			return
		}
		t, partS, partK = toi, pa, pb
		// The touch's point and normal: a cast of the touching parts over
		// what is left of the translation from the places at the time of
		// impact, else from the bullet's centre against its motion.
		ta, tb := sa.At(t), sb.At(t)
		shA, xa := b.shapes[s].Part(partS, ta)
		shB, xb := b.shapes[k].Part(partK, tb)
		if hit, ok := narrowphase.Cast(shA, xa, cur.Pos.Sub(ta.Pos).Sub(kxf.Pos.Sub(tb.Pos)), shB, xb); ok && hit.Fraction == 0 {
			h = hit
		} else {
			h = narrowphase.CastHit{Point: ta.Pos, Normal: from.Pos.Sub(cur.Pos).Normalize()}
		}
	}
	// h.Normal points from k toward the bullet; a contact's from A to B.
	n := h.Normal
	partA, partB := partK, partS
	if s < k {
		n = n.Neg()
		partA, partB = partS, partK
	}
	// Its manifold is the touch: one point, depth 0, so the depth field
	// holds the TOI (see contact).
	ct := contact{a: makeID(a, b.hot[a].gen), b: makeID(c, b.hot[c].gen), normal: n, depth: t, pa: uint32(partA), pb: uint32(partB) | ctSwept}
	ct.points[0] = narrowphase.ContactPoint{Point: h.Point}
	if (b.hot[s].flags|b.hot[k].flags)&flagSensor != 0 {
		ct.pb |= ctSensor
	}
	*out.grow1(pairKey(a, c)) = ct
}
