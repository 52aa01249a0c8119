package engine

import (
	"math"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// MaxSlides is how many surfaces MoveAndSlide slides along in one move: a
// corridor's two walls and a floor, with one to spare.
const MaxSlides = 4

// MoveResult is where MoveAndSlide left a character and what it touched.
type MoveResult struct {
	// Position is where the shape's origin ended.
	Position shape.Vec2
	// Blocked is set when a body stopped or deflected the motion: the
	// shape did not move by the whole delta.
	Blocked bool
	// Hits are the surfaces met, in order (Hits[:Count]): the body, the
	// fraction of the motion left at that leg, the point and the normal
	// (from the body toward the character; Normal.Y > 0 is a floor when +Y
	// is up).
	Hits  [MaxSlides]ShapeHit
	Count int
	// Pushed is the translation the final depenetration added (nonzero
	// only when the character started wedged into bodies).
	Pushed shape.Vec2
}

// MoveAndSlide moves a character shape s, placed by t, by delta, sliding
// along the bodies passing filter f that it meets: a cast, a move to the
// touch, and the remaining motion clipped against the plane of the hit (and
// against the planes met before it, so that a corner stops it instead of
// pushing it through), up to MaxSlides times. Against one flat wall the
// result is exactly the analytic slide: to the wall, then along it by the
// tangential part of what is left. Surfaces the shape only touches, or
// moves along or away from, do not stop it; on a compound or chain that
// holds part by part, so sliding along one part never passes through
// another (narrowphase.CastSliding). It never passes through a body
// and ends overlapping none (beyond rounding): a shape that starts wedged
// into bodies is first pushed out of all of them with Depenetrate. The
// world is not changed; move the character's body to Position yourself.
func (w *World) MoveAndSlide(s shape.Shape, t shape.Transform, delta shape.Vec2, f Filter) (MoveResult, error) {
	if err := checkCast(s, t, delta); err != nil {
		return MoveResult{}, err
	}
	var res MoveResult
	q := newQuery(f)
	// The bodies within reach of the whole move, gathered once: the box of
	// the shape grown by the motion's length (and a margin for rounding)
	// holds every leg's swept box, so the legs' casts and the checks for
	// overlaps at the start and the end read this list instead of
	// searching the tree each time, unless a push-out takes the shape out
	// of it (or it holds too many bodies): then they search the tree.
	var near nearSet
	w.gatherNear(reachBox(s.WorldAABB(t), delta.Len()), q, &near)
	var push shape.Vec2
	if w.pushesOutNear(s, t, q, &near) {
		push = w.depenetrate(s, t, q) // checkCast above holds Depenetrate's checks
	}
	res.Pushed = push
	pos := t.Pos.Add(push)
	rem := delta
	var planes [MaxSlides]shape.Vec2
	np := 0
	grazes := 0 // touches passed by tilting the motion (below)
	for np < MaxSlides && rem != (shape.Vec2{}) {
		xf := shape.Transform{Pos: pos, Rot: t.Rot}
		h, ok := w.firstCast(s, xf, rem, q, true, &near)
		if !ok || h.Fraction >= 1 {
			break // a touch at the end of the motion neither stops nor deflects it
		}
		if h.Fraction > 0 && grazes < MaxSlides && h.Normal.Dot(rem) >= -slideTol*rem.Len() {
			// The motion meets a surface that it moves along (within
			// slideTol), as a rule the wall it just slid along: the motion
			// clipped against the wall's normal goes into the wall by an
			// angle of rounding size, and the cast meets it again. Such a
			// touch neither stops nor deflects the motion (firstCast's rule
			// for touches at the start). Tilting the motion off the surface
			// by slideTol (a gap of 1e-12 of the motion at most) passes it;
			// moving to the touch and casting on from there does not, as
			// rounding can leave a gap there that the motion closes again.
			grazes++
			rem = rem.Add(h.Normal.Scale(float64(slideTol*rem.Len()) - h.Normal.Dot(rem)))
			continue
		}
		res.Blocked = true
		res.Hits[res.Count] = h
		res.Count++
		pos = pos.Add(rem.Scale(h.Fraction))
		rem = rem.Scale(1 - h.Fraction)
		planes[np] = h.Normal
		np++
		l := rem.Len()
		if rem = clipPlanes(rem, planes[:np]); rem.Len() <= slideTol*l {
			// Straight into the surface (within slideTol): what the clip
			// leaves is rounding, in any direction, and into the surface
			// it would be a new hit at 0.
			rem = shape.Vec2{}
		}
	}
	if rem != (shape.Vec2{}) {
		if np == MaxSlides {
			rem = shape.Vec2{} // out of slides: stop at the last touch
		}
		pos = pos.Add(rem)
	}
	// Rounding can leave the shape a few ulps into a surface; clear it
	// (where Depenetrate's checks pass: t's rotation and s passed them).
	if end := (shape.Transform{Pos: pos, Rot: t.Rot}); pos.IsFinite() && s.WorldAABB(end).IsFinite() && w.pushesOutNear(s, end, q, &near) {
		pos = pos.Add(w.depenetrate(s, end, q))
	}
	res.Position = pos
	return res, nil
}

// clipPlanes removes from v its part into each plane (normals n, pointing
// out of the surfaces), last plane first; where two planes meet at a
// crease it keeps only the motion along the crease, and nothing if that
// too goes into one of them.
func clipPlanes(v shape.Vec2, planes []shape.Vec2) shape.Vec2 {
	last := planes[len(planes)-1]
	if d := v.Dot(last); d < 0 {
		v = v.Sub(last.Scale(d))
	}
	for _, p := range planes[:len(planes)-1] {
		if v.Dot(p) < -1e-12*v.Len() {
			// Into an earlier plane: slide along the crease of the two.
			crease := shape.Vec2{X: -last.Y, Y: last.X}
			v = crease.Scale(v.Dot(crease))
			for _, q := range planes {
				if v.Dot(q) < -1e-12*v.Len() {
					return shape.Vec2{}
				}
			}
			return v
		}
	}
	return v
}

// depenIters bounds Depenetrate's rounds: a round ends in a verified
// escape unless a move uncovers new overlaps (a wall behind the first).
const depenIters = 8

// maxDepenContacts is how many overlapped bodies one round solves together;
// the deepest are kept.
const maxDepenContacts = 8

// depenDirs is how many evenly spread directions Depenetrate tries besides
// the contact normals and the corners they make.
const depenDirs = 64

// depenUnits are the depenDirs directions, as unit vectors.
var depenUnits = func() (u [depenDirs]shape.Vec2) {
	for k := range u {
		sn, cs := shape.SinCos(2 * math.Pi * float64(k) / depenDirs)
		u[k] = shape.Vec2{X: cs, Y: sn}
	}
	return u
}()

// depenChord[m] is the distance between unit directions m apart.
var depenChord = func() (c [depenDirs]float64) {
	for m := range c {
		c[m] = depenUnits[m].Sub(depenUnits[0]).Len()
	}
	return c
}()

// depenOrder is the order in which Depenetrate tries the directions:
// bit-reversed, coarse to fine.
var depenOrder = func() (o [depenDirs]int) {
	for k := range o {
		for b := 1; b < depenDirs; b <<= 1 {
			o[k] <<= 1
			if k&b != 0 {
				o[k] |= 1
			}
		}
	}
	return o
}()

// shorter reports whether a candidate escape of squared length l, idx-th
// in Depenetrate's order, beats one of squared length ref, refIdx-th.
func shorter(l float64, idx int, ref float64, refIdx int) bool {
	return l < ref || (l == ref && idx < refIdx)
}

// depenProbe is the margin, relative to the coordinates and the length of
// the exit casts, by which exitAlong's probe must be inside a body: far
// above the rounding of a cast (a few ulps), so that a probe this deep
// proves that the cast ends beyond it.
const depenProbe = 1e-9

// Depenetrate returns a short translation that moves shape s placed by t
// out of every body passing filter f that it overlaps, all at once: a
// player wedged where two walls meet is pushed out of both (summing the two
// MTVs pushes too far or not far enough). The zero vector means the shape
// overlaps nothing.
//
// Each round gathers the bodies the shape overlaps and tries escapes: each
// contact's PushOut, the corner where two contacts' half-planes meet (exact
// for a wedge between flat walls), the corner of a PushOut with the
// half-plane of the body it runs into (a wedge between a wall and a body
// only touched), and, along the contact normals and 64 evenly spread
// directions, the shortest move that leaves every overlapped body (found
// by casting the shape back from far along the direction: where it first
// touches a body, or for a compound or chain the parts it overlaps, is
// where it leaves it). The shortest escape that overlaps nothing at all
// wins. If none does (a move out of one wall into another), the exits
// along the normals and the directions are tried again, each going on
// along its direction past the bodies it lands in; if still none does,
// the shortest is taken and the next round starts from there.
func (w *World) Depenetrate(s shape.Shape, t shape.Transform, f Filter) (shape.Vec2, error) {
	if err := checkCast(s, t, shape.Vec2{}); err != nil {
		return shape.Vec2{}, err
	}
	return w.depenetrate(s, t, newQuery(f)), nil
}

// depenetrate is Depenetrate on checked input.
func (w *World) depenetrate(s shape.Shape, t shape.Transform, q query) shape.Vec2 {
	r := -1.0 // s.BoundingRadius(), once needed
	total := shape.Vec2{}
	for range depenIters {
		xf := shape.Transform{Pos: t.Pos.Add(total), Rot: t.Rot}
		var ov depenSet
		w.overlaps(s, xf, q, &ov)
		if ov.n == 0 {
			return total
		}
		ov.sort(w)
		// Any escape leaves every overlapped body, so it is at least as long
		// as the longest single push-out when that push-out is the
		// shortest way out of its body: if it clears them all, nothing
		// shorter can, and the search is over (see pushIsShortest).
		longest := 0
		for i := 1; i < ov.n; i++ {
			if ov.push[i].LenSq() > ov.push[longest].LenSq() {
				longest = i
			}
		}
		if x := ov.push[longest]; w.pushIsShortest(s, xf, ov.slot[longest], x) &&
			!w.overlapsAny(s, shape.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}, q) {
			return total.Add(x)
		}
		// The shortest escape wins, the first in the order below among
		// equal lengths (idx numbers them in that order): the contact
		// candidates, then the directions. The directions are tried
		// coarse to fine (in bit-reversed order), so that a short escape
		// is known early and exitAlong can skip most of the others.
		if r < 0 {
			r = s.BoundingRadius()
		}
		// The candidates' overlap tests read the bodies near xf from a
		// list gathered once (those far out query the tree).
		var near nearSet
		w.gatherNear(s.WorldAABB(xf).Expand(float64(2*math.Sqrt(ov.push[longest].LenSq()))+r), q, &near)
		var best, fallback shape.Vec2
		bestLen, fallLen := math.Inf(1), math.Inf(1)
		bestIdx, fallIdx := math.MaxInt, math.MaxInt
		// free says that x is known to overlap nothing (exitAlong checked).
		try := func(x shape.Vec2, idx int, free bool) {
			l := x.LenSq()
			if !(l < math.Inf(1)) || !x.IsFinite() || !shorter(l, idx, bestLen, bestIdx) {
				return
			}
			if shorter(l, idx, fallLen, fallIdx) {
				fallback, fallLen, fallIdx = x, l, idx
			}
			if free || !w.overlapsAnyNear(s, shape.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}, q, &near) {
				best, bestLen, bestIdx = x, l, idx
			}
		}
		// The probes' margin (see exitAlong), for every direction: reach
		// bounds exitAlong's far.
		reach := 0.0
		for i := range ov.n {
			box := w.b.tightOf(ov.slot[i])
			for _, c := range [2]shape.Vec2{box.Min, box.Max} {
				reach = max(reach, math.Abs(c.X-xf.Pos.X), math.Abs(c.Y-xf.Pos.Y))
			}
		}
		eta := float64(depenProbe * (math.Abs(xf.Pos.X) + math.Abs(xf.Pos.Y) + 2*reach + 2*r + 1 + ov.mag + r))
		// Where no candidate overlaps nothing, the exits along the
		// contact normals and the directions are tried again, going on
		// along each past the bodies it lands in (exitAlong's march): a
		// fallback only leaves the bodies the shape is in now, and the
		// next round forgets them, so between two bars it went from one
		// into the other and back (TestDepenetrateBetweenTwoBarsBug). The
		// march costs casts, which a round that finds a free escape
		// without it does not pay.
		for march := range 2 {
			idx := 0
			for i := range ov.n {
				if march == 0 { // the push-outs and corners do not march
					try(ov.push[i], idx, false)
					if x, ok := w.cornerInto(s, xf, ov.push[i], q, &near); ok {
						try(x, idx+1, false)
					}
				}
				idx += 2
				for j := i + 1; j < ov.n; j++ {
					if x, ok := corner(ov.push[i], ov.push[j]); ok && march == 0 {
						try(x, idx, false)
					}
					idx++
				}
				if x, ok, free, _ := w.exitAlong(s, r, xf, ov.push[i].Normalize(), &ov, q, &near, march == 1, bestLen, bestIdx, idx, eta); ok {
					try(x, idx, free)
				}
				idx++
			}
			// A probe deeper than eta by d' (a lower bound on the depth,
			// which a translation can only shrink by its length) proves
			// the same of the probes at the same length along the
			// directions within d' of it, whatever the best is later: it
			// only gets shorter.
			rounded := s.Kind() == shape.KindCircle || s.Kind() == shape.KindCapsule
			var skip [depenDirs]bool
			for _, k := range depenOrder {
				if skip[k] {
					continue
				}
				t := math.Sqrt(bestLen) + eta // exitAlong's probe length
				x, ok, free, depth := w.exitAlong(s, r, xf, depenUnits[k], &ov, q, &near, march == 1, bestLen, bestIdx, idx+k, eta)
				if ok {
					try(x, idx+k, free)
					continue
				}
				if !rounded || depth == 0 {
					continue
				}
				// The shape's radius bounds the depth below where the
				// depth Collide gives may exceed the true one (cores that
				// cross).
				spare := min(depth, s.Radius()) - 2*eta
				for m := 1; m < depenDirs/2 && float64(t*depenChord[m]) <= spare; m++ {
					skip[(k+m)%depenDirs], skip[(k+depenDirs-m)%depenDirs] = true, true
				}
			}
			if !math.IsInf(bestLen, 1) {
				break
			}
		}
		if !math.IsInf(bestLen, 1) {
			return total.Add(best)
		}
		if math.IsInf(fallLen, 1) {
			return total
		}
		total = total.Add(fallback)
	}
	return total
}

// depenSet is the bodies a shape overlaps, with the PushOut out of each.
type depenSet struct {
	slot [maxDepenContacts]int32
	push [maxDepenContacts]shape.Vec2
	n    int
	// deep lists the indexes deepest push first (sort fills it and mag).
	deep [maxDepenContacts]int
	// mag bounds the magnitude of the bodies' coordinates: positions and
	// boxes.
	mag float64
}

// sort fills ov.deep and ov.mag.
func (ov *depenSet) sort(w *World) {
	ov.mag = 0
	for i := range ov.n {
		j := i
		for ; j > 0 && ov.push[ov.deep[j-1]].LenSq() < ov.push[i].LenSq(); j-- {
			ov.deep[j] = ov.deep[j-1]
		}
		ov.deep[j] = i
		k := ov.slot[i]
		box, p := w.b.tightOf(k), w.b.xf[k].Pos
		ov.mag = max(ov.mag, math.Abs(box.Min.X)+math.Abs(box.Min.Y)+math.Abs(box.Max.X)+math.Abs(box.Max.Y)+math.Abs(p.X)+math.Abs(p.Y))
	}
}

// overlaps fills ov with the bodies passing q that shape s placed by xf
// overlaps, the deepest if there are more than it holds (equal pushes by
// slot, the lower kept), in slot order: Depenetrate breaks ties between
// equal escapes by this order, which must not depend on the order in
// which the broad phase lists the bodies (that follows the history of
// inserts, which a restored world does not share).
func (w *World) overlaps(s shape.Shape, xf shape.Transform, q query, ov *depenSet) {
	b := &w.b
	box := s.WorldAABB(xf)
	w.tree.Query(box, func(k int32) bool {
		if !w.accept(k, q) || !b.tight[k].overlapsAABB(box) {
			return true
		}
		d, ok := narrowphase.PushOut(s, xf, b.shapes[k], b.xf[k])
		if !ok {
			return true
		}
		if ov.n < maxDepenContacts {
			ov.slot[ov.n], ov.push[ov.n] = k, d
			ov.n++
			return true
		}
		j := 0 // the shallowest, the higher slot among equals
		for i := range ov.n {
			if l, lj := ov.push[i].LenSq(), ov.push[j].LenSq(); l < lj || (l == lj && ov.slot[i] > ov.slot[j]) {
				j = i
			}
		}
		if l, lj := d.LenSq(), ov.push[j].LenSq(); l > lj || (l == lj && k < ov.slot[j]) {
			ov.slot[j], ov.push[j] = k, d
		}
		return true
	})
	for i := 1; i < ov.n; i++ { // insertion sort by slot: at most maxDepenContacts
		k, d := ov.slot[i], ov.push[i]
		j := i
		for ; j > 0 && ov.slot[j-1] > k; j-- {
			ov.slot[j], ov.push[j] = ov.slot[j-1], ov.push[j-1]
		}
		ov.slot[j], ov.push[j] = k, d
	}
}

// reachBox returns box grown by l, the length of a motion, and by a
// margin for the rounding of the places along it (a billionth of the
// box's coordinates and of l): it holds the box wherever a move of length
// l takes it, in one leg or several.
func reachBox(box shape.AABB, l float64) shape.AABB {
	m := math.Abs(box.Min.X) + math.Abs(box.Min.Y) + math.Abs(box.Max.X) + math.Abs(box.Max.Y)
	return box.Expand(l + float64(1e-9*(1+m+l))) // explicit: no fused multiply-add on arm64
}

// pushesOutNear reports whether depenetrate(s, xf, q) may push: whether
// some body passing q has a push-out from shape s placed by xf, exactly
// as overlaps finds them (so that a false answer means depenetrate would
// return zero), reading the bodies from ns when the shape's box lies in
// ns.box. It answers true where it cannot tell without the tree.
func (w *World) pushesOutNear(s shape.Shape, xf shape.Transform, q query, ns *nearSet) bool {
	box := s.WorldAABB(xf)
	if !ns.ok || !ns.box.ContainsAABB(box) {
		return true
	}
	b := &w.b
	for _, k := range ns.slot[:ns.n] {
		if b.tight[k].overlapsAABB(box) {
			if _, ok := narrowphase.PushOut(s, xf, b.shapes[k], b.xf[k]); ok {
				return true
			}
		}
	}
	return false
}

// overlapsAny reports whether shape s placed by xf overlaps a body passing q.
func (w *World) overlapsAny(s shape.Shape, xf shape.Transform, q query) bool {
	b := &w.b
	box := s.WorldAABB(xf)
	hit := false
	w.tree.Query(box, func(k int32) bool {
		if w.accept(k, q) && b.tight[k].overlapsAABB(box) && narrowphase.Overlap(s, xf, b.shapes[k], b.xf[k]) {
			hit = true
			return false
		}
		return true
	})
	return hit
}

// maxNear is how many bodies a nearSet holds.
const maxNear = 64

// nearSet is the bodies passing a query whose tight boxes meet box (if
// ok; more than maxNear leave it not ok).
type nearSet struct {
	box  shape.AABB
	slot [maxNear]int32
	n    int
	ok   bool
}

// gatherNear fills ns with the bodies passing q whose tight boxes meet box.
func (w *World) gatherNear(box shape.AABB, q query, ns *nearSet) {
	ns.box, ns.n, ns.ok = box, 0, true
	w.tree.Query(box, func(k int32) bool {
		if !w.accept(k, q) || !w.b.tight[k].overlapsAABB(box) {
			return true
		}
		if ns.n == maxNear {
			ns.ok = false
			return false
		}
		ns.slot[ns.n] = k
		ns.n++
		return true
	})
}

// overlapsAnyNear is overlapsAny(s, xf, q) reading the bodies from ns
// when the shape's box lies in ns.box: every body whose tight box meets
// the shape's then meets ns.box, so ns holds it.
func (w *World) overlapsAnyNear(s shape.Shape, xf shape.Transform, q query, ns *nearSet) bool {
	box := s.WorldAABB(xf)
	if !ns.ok || !ns.box.ContainsAABB(box) {
		return w.overlapsAny(s, xf, q)
	}
	b := &w.b
	for _, k := range ns.slot[:ns.n] {
		if b.tight[k].overlapsAABB(box) && narrowphase.Overlap(s, xf, b.shapes[k], b.xf[k]) {
			return true
		}
	}
	return false
}

// corner returns the shortest x with x·n̂ ≥ |p| for both pushes p (each a
// half-plane the shape must reach), where their boundary lines meet.
func corner(p1, p2 shape.Vec2) (shape.Vec2, bool) {
	d1, d2 := p1.Len(), p2.Len()
	n1, n2 := p1.Scale(1/d1), p2.Scale(1/d2)
	den := n1.Cross(n2)
	if math.Abs(den) < 1e-9 {
		return shape.Vec2{}, false
	}
	// Solve n1·x = d1, n2·x = d2.
	x := shape.Vec2{X: (float64(d1*n2.Y) - float64(d2*n1.Y)) / den, Y: (float64(d2*n1.X) - float64(d1*n2.X)) / den}
	return x, x.IsFinite()
}

// pushIsShortest reports whether x, PushOut's push of shape s placed by
// xf out of the body in slot k, is the shortest move out of that body, to
// rounding. For a convex shape and a convex body it is: the push is the
// MTV plus a few ulps. Out of a compound or a chain it may not be: PushOut
// grows its push along the deepest part's normal until no part touches,
// through a wall that meets that part at a corner if need be (out of a
// room). Any way out must clear each part s overlaps by that part's own
// depth, so a push no longer than the deepest of those (plus rounding) is
// still the shortest: the common case of a character grazing one segment
// of a level's chain. A compound shape s is left to the full search.
func (w *World) pushIsShortest(s shape.Shape, xf shape.Transform, k int32, x shape.Vec2) bool {
	if !s.Kind().Convex() {
		return false
	}
	body, bxf := w.b.shapes[k], w.b.xf[k]
	if body.Kind().Convex() {
		return true
	}
	depth := 0.0
	body.PartsNear(shape.LocalBox(bxf, s.WorldAABB(xf)), func(j int) bool {
		ps, pxf := body.Part(j, bxf)
		if m, ok := narrowphase.Collide(s, xf, ps, pxf); ok {
			depth = max(depth, m.Depth)
		}
		return true
	})
	// PushOut's margin is 4 machine epsilons of this scale (its own),
	// doubled where that did not clear: 16 allow two doublings.
	scale := max(math.Abs(xf.Pos.X), math.Abs(xf.Pos.Y), math.Abs(bxf.Pos.X), math.Abs(bxf.Pos.Y)) + max(s.BoundingRadius(), body.BoundingRadius()) + depth
	return depth > 0 && x.Len() <= depth+float64(16*0x1p-52*scale)
}

// cornerInto returns the corner (see corner) of push p, a half-plane the
// shape s placed by xf must reach, with the half-plane of the body that
// s moved by p overlaps (the lowest slot of those passing q, so that the
// answer does not depend on the broad phase's history), if there is one:
// a shape wedged between a wall it overlaps by rounding and a body it only
// touches (in a corner narrower than the directions Depenetrate tries, a
// degree wide) is pushed into that body by p, and out of both by their
// corner.
func (w *World) cornerInto(s shape.Shape, xf shape.Transform, p shape.Vec2, q query, ns *nearSet) (shape.Vec2, bool) {
	moved := shape.Transform{Pos: xf.Pos.Add(p), Rot: xf.Rot}
	b := &w.b
	box := s.WorldAABB(moved)
	k := int32(-1)
	visit := func(j int32) {
		if (k < 0 || j < k) && b.tight[j].overlapsAABB(box) && narrowphase.Overlap(s, moved, b.shapes[j], b.xf[j]) {
			k = j
		}
	}
	if ns.ok && ns.box.ContainsAABB(box) {
		for _, j := range ns.slot[:ns.n] {
			visit(j)
		}
	} else {
		w.tree.Query(box, func(j int32) bool {
			if w.accept(j, q) {
				visit(j)
			}
			return true
		})
	}
	if k < 0 {
		return shape.Vec2{}, false
	}
	d, ok := narrowphase.PushOut(s, moved, b.shapes[k], b.xf[k])
	if !ok {
		return shape.Vec2{}, false
	}
	// The body's half-plane, n·x ≥ |d| + n·p, as a push from xf.
	n := d.Normalize()
	if off := d.Len() + n.Dot(p); off > 0 {
		return corner(p, n.Scale(off))
	}
	return shape.Vec2{}, false
}

// exitAlong returns the shortest move along the unit u that takes shape s
// placed by xf out of every body in ov, plus PushOut's kind of margin: for
// each body, the shape is cast back from far along u, and where it first
// touches the body is where, moving out along u, it leaves it. For a
// compound or chain body the casts are against the parts the shape
// overlaps where it is, each convex: a chain around the shape (a room) is
// left through the wall it is in, not through the room's far wall, which
// the cast against the whole body touches first. Where that exit still
// overlaps the body (moving out of one piece of a concave body into
// another), the cast against the whole body answers, beyond it.
//
// With march set, where that move lands in other bodies passing q (out of
// two bars into the floor below them), it goes on along u past them too
// (see depenMarch), and free reports that the move it returns overlaps no
// body passing q (read from ns where it holds them).
//
// With limit finite it may instead report false, when the move (idx-th in
// Depenetrate's order) cannot beat Depenetrate's best so far, of squared
// length limit, limitIdx-th: when the shape moved along u by a little more than √limit is
// still inside a body (one of the parts it overlaps where it is) by more
// than rounding (then the cast back from far touches it before it gets
// there), or when the bodies cast so far, deepest first, or met on the
// way, already hold it out that far.
func (w *World) exitAlong(s shape.Shape, r float64, xf shape.Transform, u shape.Vec2, ov *depenSet, q query, ns *nearSet, march bool, limit float64, limitIdx, idx int, eta float64) (x shape.Vec2, ok, free bool, depth float64) {
	b := &w.b
	// Far enough along u that the shape (within its bounding radius of
	// xf.Pos) is beyond every body's box: cast back from there. The box,
	// not the body's bounding radius, which for a chain or compound far
	// from its body's origin reaches much farther than the body.
	far := 0.0
	for i := range ov.n {
		box := b.tightOf(ov.slot[i])
		for _, c := range [4]shape.Vec2{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}} {
			far = max(far, u.Dot(c.Sub(xf.Pos)))
		}
	}
	far += 2*r + 1
	scale := math.Abs(xf.Pos.X) + math.Abs(xf.Pos.Y) + far
	margin := float64(4 * 0x1p-52 * scale)
	bounded := !math.IsInf(limit, 1)
	if bounded {
		probe := shape.Transform{Pos: xf.Pos.Add(u.Scale(math.Sqrt(limit) + eta)), Rot: xf.Rot}
		for _, i := range ov.deep[:ov.n] {
			if d := w.deepIn(s, xf, probe, ov.slot[i], eta); d > 0 {
				return shape.Vec2{}, false, false, d
			}
		}
	}
	start := shape.Transform{Pos: xf.Pos.Add(u.Scale(far)), Rot: xf.Rot}
	back := u.Scale(-far)
	exit := 0.0
	for _, i := range ov.deep[:ov.n] {
		k := ov.slot[i]
		body, bxf := b.shapes[k], b.xf[k]
		e, ok := 0.0, false
		if !body.Kind().Convex() || !s.Kind().Convex() {
			e, ok = exitParts(s, xf, start, back, far, body, bxf)
			if ok && narrowphase.Overlap(s, shape.Transform{Pos: xf.Pos.Add(u.Scale(e + margin)), Rot: xf.Rot}, body, bxf) {
				ok = false // into another piece of the body: beyond it
			}
		}
		if !ok {
			h, hit := narrowphase.Cast(s, start, back, body, bxf)
			if !hit {
				return shape.Vec2{X: math.Inf(1)}, true, false, 0 // cannot happen: it overlaps at the end
			}
			e = float64(far * (1 - h.Fraction))
		}
		// The largest exit, whatever the order of the bodies: the move
		// only grows as bodies are added.
		exit = max(exit, e)
		if bounded && !shorter(u.Scale(exit+margin).LenSq(), idx, limit, limitIdx) {
			return shape.Vec2{}, false, false, 0
		}
	}
	x = u.Scale(exit + margin)
	if !march {
		return x, true, false, 0
	}
	for range depenMarch {
		e, m, met := w.exitMet(s, r, xf, shape.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}, u, q, ns)
		if !met {
			return x, true, true, 0
		}
		if !(e > exit) {
			break // met by rounding only (its cast misses): not known free
		}
		exit, margin = e, max(margin, m)
		x = u.Scale(exit + margin)
		if bounded && !shorter(x.LenSq(), idx, limit, limitIdx) {
			return shape.Vec2{}, false, false, 0
		}
	}
	return x, true, false, 0
}

// depenMarch bounds how many times exitAlong moves on along its direction
// past the bodies its move lands in: each time past every body it
// overlaps there, for good (a convex body is left once along a line; a
// compound or chain part by part), so this many rounds pass a pile of
// bodies; a move that still lands in one is left to the overlap test (and
// may be the fallback for Depenetrate's next round).
const depenMarch = 8

// exitMet returns the largest distance along the unit u at which shape s,
// moving out from xf, leaves a body passing q that it overlaps placed by
// at (a place along u from xf), with the margin exitAlong adds to it, and
// whether it overlaps any; it reads the bodies from ns when the shape's
// box lies in ns.box, as overlapsAnyNear does.
func (w *World) exitMet(s shape.Shape, r float64, xf, at shape.Transform, u shape.Vec2, q query, ns *nearSet) (exit, margin float64, met bool) {
	b := &w.b
	box := s.WorldAABB(at)
	visit := func(k int32) {
		if b.tight[k].overlapsAABB(box) && narrowphase.Overlap(s, at, b.shapes[k], b.xf[k]) {
			e, m := w.exitBody(s, r, xf, at, u, k)
			exit, margin, met = max(exit, e), max(margin, m), true
		}
	}
	if ns.ok && ns.box.ContainsAABB(box) {
		for _, k := range ns.slot[:ns.n] {
			visit(k)
		}
		return exit, margin, met
	}
	w.tree.Query(box, func(k int32) bool {
		if w.accept(k, q) {
			visit(k)
		}
		return true
	})
	return exit, margin, met
}

// exitBody returns the distance along the unit u at which shape s, moving
// out from xf, leaves the body in slot k for good (for a compound or
// chain, the parts of it that s placed by at overlaps), cast back from far
// along u as in exitAlong, and the margin exitAlong adds at that scale; 0
// where the casts miss (an overlap of rounding size).
func (w *World) exitBody(s shape.Shape, r float64, xf, at shape.Transform, u shape.Vec2, k int32) (exit, margin float64) {
	b := &w.b
	body, bxf := b.shapes[k], b.xf[k]
	box := b.tightOf(k)
	far := 0.0
	for _, c := range [4]shape.Vec2{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}} {
		far = max(far, u.Dot(c.Sub(xf.Pos)))
	}
	far += 2*r + 1
	margin = float64(4 * 0x1p-52 * (math.Abs(xf.Pos.X) + math.Abs(xf.Pos.Y) + far))
	start := shape.Transform{Pos: xf.Pos.Add(u.Scale(far)), Rot: xf.Rot}
	back := u.Scale(-far)
	if !body.Kind().Convex() || !s.Kind().Convex() {
		if e, ok := exitParts(s, at, start, back, far, body, bxf); ok {
			return e, margin
		}
	}
	if h, hit := narrowphase.Cast(s, start, back, body, bxf); hit {
		return float64(far * (1 - h.Fraction)), margin
	}
	return 0, margin
}

// exitParts returns the distance along the motion back (from start, far
// out along it) at which shape s, moving out of xf, leaves the last of
// the parts of body (placed by bxf) that it overlaps at xf (it is called
// for bodies s overlaps); for a compound or chain s, part by part of s too: the
// parts of s that overlap the body (or its parts) at xf, each cast on its
// own. Each pair is convex, so its cast back from far touches where it
// leaves, while a cast of the whole of s touches where its last part
// leaves: with two discs across a bar, the one beyond the bar crosses it
// later, and the cast found that, not the free place where the disc in
// the bar has just left it (TestDepenetrateTwoDiscsAcrossBarBug). A part
// the cast back misses is one the shape reaches into by less than the
// cast's rounding (a part it was slid against): it counts as left at
// once, and the margin exitAlong adds clears it (which exitAlong checks).
// So does a body the shape overlaps (as Collide finds it) by rounding
// only, none of whose parts it overlaps placed as here (an ulp off the
// places Collide decides with exactly: the product of a compound's
// transform and its part's offset): 0 and true, not a cast of the whole
// body, which from inside a room hits its far wall
// (TestDepenetrateCompoundInCornerByRoundingBug).
func exitParts(s shape.Shape, xf, start shape.Transform, back shape.Vec2, far float64, body shape.Shape, bxf shape.Transform) (float64, bool) {
	if !s.Kind().Convex() {
		// Its parts are placed near the origin, moved with the body by
		// -xf.Pos, as narrowphase places a compound's: placed in world
		// coordinates far out they would be off by an ulp of them, more
		// than the overlap of a shape slid into a corner.
		bxf.Pos = bxf.Pos.Sub(xf.Pos)
		xf.Pos, start.Pos = shape.Vec2{}, back.Neg()
	}
	exit, found := 0.0, false
	for i := range s.PartCount() {
		cs, cxf := s.Part(i, xf)
		_, sxf := s.Part(i, start)
		pair := func(ps shape.Shape, pxf shape.Transform) {
			if !narrowphase.Overlap(cs, cxf, ps, pxf) {
				return
			}
			found = true
			if h, ok := narrowphase.Cast(cs, sxf, back, ps, pxf); ok {
				exit = max(exit, float64(far*(1-h.Fraction)))
			}
		}
		if body.Kind().Convex() {
			pair(body, bxf)
			continue
		}
		body.PartsNear(shape.LocalBox(bxf, cs.WorldAABB(cxf)), func(j int) bool {
			pair(body.Part(j, bxf))
			return true
		})
	}
	if !found {
		return 0, true
	}
	return exit, true
}

// deepIn returns the depth by which shape s placed by probe overlaps the
// body in slot k, if more than eta, else 0; for a compound or chain body,
// or a compound s, the depth of a pair of parts that overlap where s is
// placed by xf (the pairs exitParts leaves: convex, so a probe along a
// line from xf deep in one leaves it farther along that line).
func (w *World) deepIn(s shape.Shape, xf, probe shape.Transform, k int32, eta float64) float64 {
	body, bxf := w.b.shapes[k], w.b.xf[k]
	if body.Kind().Convex() && s.Kind().Convex() {
		if m, ok := narrowphase.Collide(s, probe, body, bxf); ok && m.Depth > eta {
			return m.Depth
		}
		return 0
	}
	if s.Kind() == shape.KindChain && !body.Kind().Convex() {
		return 0 // a chain character overlaps no chain
	}
	// Part by part: the depth Collide gives for a chain is smoothed
	// against its neighbours' normals. A compound's parts near the
	// origin, as in exitParts.
	if !s.Kind().Convex() {
		bxf.Pos, probe.Pos = bxf.Pos.Sub(xf.Pos), probe.Pos.Sub(xf.Pos)
		xf.Pos = shape.Vec2{}
	}
	depth := 0.0
	for i := range s.PartCount() {
		cs, cxf := s.Part(i, xf)
		_, pxf := s.Part(i, probe)
		pair := func(ps shape.Shape, bpxf shape.Transform) bool {
			if m, ok := narrowphase.Collide(cs, pxf, ps, bpxf); ok && m.Depth > eta && narrowphase.Overlap(cs, cxf, ps, bpxf) {
				depth = m.Depth
			}
			return depth == 0
		}
		if body.Kind().Convex() {
			pair(body, bxf)
		} else {
			body.PartsNear(shape.LocalBox(bxf, cs.WorldAABB(pxf)), func(j int) bool {
				return pair(body.Part(j, bxf))
			})
		}
		if depth > 0 {
			return depth
		}
	}
	return 0
}
