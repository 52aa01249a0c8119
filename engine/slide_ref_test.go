package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// The reference: MoveAndSlide and Depenetrate as they were before the
// direction search was pruned (commit 12f5568), kept verbatim (renamed)
// so that TestDepenetrateMatchesReference can require the same bits.

// refDepenSet is depenSet as it was.
type refDepenSet struct {
	slot [maxDepenContacts]int32
	push [maxDepenContacts]shape.Vec2
	n    int
}

// Reference, verbatim but for names.
func (w *World) refMoveAndSlide(s shape.Shape, t shape.Transform, delta shape.Vec2, f Filter) (MoveResult, error) {
	if err := checkCast(s, t, delta); err != nil {
		return MoveResult{}, err
	}
	var res MoveResult
	push, err := w.refDepenetrate(s, t, f)
	if err != nil {
		return MoveResult{}, err
	}
	res.Pushed = push
	pos := t.Pos.Add(push)
	rem := delta
	var planes [MaxSlides]shape.Vec2
	np := 0
	grazes := 0 // touches passed by tilting the motion (below)
	for np < MaxSlides && rem != (shape.Vec2{}) {
		xf := shape.Transform{Pos: pos, Rot: t.Rot}
		h, ok := w.firstCast(s, xf, rem, newQuery(f), true, nil)
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
	// Rounding can leave the shape a few ulps into a surface; clear it.
	if d, err := w.refDepenetrate(s, shape.Transform{Pos: pos, Rot: t.Rot}, f); err == nil {
		pos = pos.Add(d)
	}
	res.Position = pos
	return res, nil
}

// Reference, verbatim but for names.
func (w *World) refDepenetrate(s shape.Shape, t shape.Transform, f Filter) (shape.Vec2, error) {
	if err := checkCast(s, t, shape.Vec2{}); err != nil {
		return shape.Vec2{}, err
	}
	q := newQuery(f)
	total := shape.Vec2{}
	for range depenIters {
		xf := shape.Transform{Pos: t.Pos.Add(total), Rot: t.Rot}
		var ov refDepenSet
		w.refOverlaps(s, xf, q, &ov)
		if ov.n == 0 {
			return total, nil
		}
		// Any escape leaves every overlapped body, so it is at least as long
		// as the longest single push-out: if that push-out clears them all,
		// nothing shorter can, and the search is over. (Only where the
		// push-out is the shortest way out of its body, which
		// pushIsShortest decides; see TestDepenetrateInsideChainRoomBug.)
		longest := 0
		for i := 1; i < ov.n; i++ {
			if ov.push[i].LenSq() > ov.push[longest].LenSq() {
				longest = i
			}
		}
		if x := ov.push[longest]; w.pushIsShortest(s, xf, ov.slot[longest], x) &&
			!w.refOverlapsAny(s, shape.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}, q) {
			return total.Add(x), nil
		}
		var best, fallback shape.Vec2
		bestLen, fallLen := math.Inf(1), math.Inf(1)
		try := func(x shape.Vec2) {
			l := x.LenSq()
			if !(l < bestLen) || !x.IsFinite() {
				return
			}
			if l < fallLen {
				fallback, fallLen = x, l
			}
			if !w.refOverlapsAny(s, shape.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}, q) {
				best, bestLen = x, l
			}
		}
		for i := range ov.n {
			try(ov.push[i])
			if x, ok := w.refCornerInto(s, xf, ov.push[i], q); ok {
				try(x)
			}
			for j := i + 1; j < ov.n; j++ {
				if x, ok := corner(ov.push[i], ov.push[j]); ok {
					try(x)
				}
			}
			try(w.refExitAlong(s, xf, ov.push[i].Normalize(), &ov, q, false))
		}
		for k := range depenDirs {
			sn, cs := shape.SinCos(2 * math.Pi * float64(k) / depenDirs)
			try(w.refExitAlong(s, xf, shape.Vec2{X: cs, Y: sn}, &ov, q, false))
		}
		// Added with TestDepenetrateBetweenTwoBarsBug's fix: where nothing
		// is free, the exits again, marching past the bodies they land in.
		if math.IsInf(bestLen, 1) {
			for i := range ov.n {
				try(w.refExitAlong(s, xf, ov.push[i].Normalize(), &ov, q, true))
			}
			for k := range depenDirs {
				sn, cs := shape.SinCos(2 * math.Pi * float64(k) / depenDirs)
				try(w.refExitAlong(s, xf, shape.Vec2{X: cs, Y: sn}, &ov, q, true))
			}
		}
		if !math.IsInf(bestLen, 1) {
			return total.Add(best), nil
		}
		if math.IsInf(fallLen, 1) {
			return total, nil
		}
		total = total.Add(fallback)
	}
	return total, nil
}

// Reference, verbatim but for names.
func (w *World) refOverlaps(s shape.Shape, xf shape.Transform, q query, ov *refDepenSet) {
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
		j := 0
		for i := range ov.n {
			if ov.push[i].LenSq() < ov.push[j].LenSq() {
				j = i
			}
		}
		if d.LenSq() > ov.push[j].LenSq() {
			ov.slot[j], ov.push[j] = k, d
		}
		return true
	})
	// In slot order, as overlaps leaves them: refCornerInto's candidates
	// (unlike corner's, which is symmetric) depend on which push comes
	// first when two are equally short.
	for i := 1; i < ov.n; i++ {
		k, d := ov.slot[i], ov.push[i]
		j := i
		for ; j > 0 && ov.slot[j-1] > k; j-- {
			ov.slot[j], ov.push[j] = ov.slot[j-1], ov.push[j-1]
		}
		ov.slot[j], ov.push[j] = k, d
	}
}

// Reference, verbatim but for names.
func (w *World) refOverlapsAny(s shape.Shape, xf shape.Transform, q query) bool {
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

// refCornerInto is cornerInto searching the tree (added with it, for
// TestMoveAndSlideStaysInRoom's wedges narrower than the directions).
func (w *World) refCornerInto(s shape.Shape, xf shape.Transform, p shape.Vec2, q query) (shape.Vec2, bool) {
	moved := shape.Transform{Pos: xf.Pos.Add(p), Rot: xf.Rot}
	b := &w.b
	k := int32(-1)
	w.tree.Query(s.WorldAABB(moved), func(j int32) bool {
		if w.accept(j, q) && (k < 0 || j < k) && narrowphase.Overlap(s, moved, b.shapes[j], b.xf[j]) {
			k = j
		}
		return true
	})
	if k < 0 {
		return shape.Vec2{}, false
	}
	d, ok := narrowphase.PushOut(s, moved, b.shapes[k], b.xf[k])
	if !ok {
		return shape.Vec2{}, false
	}
	n := d.Normalize()
	if off := d.Len() + n.Dot(p); off > 0 {
		return corner(p, n.Scale(off))
	}
	return shape.Vec2{}, false
}

// Reference, verbatim but for names (and the march below), for convex
// characters: the ones TestDepenetrateMatchesReference moves (compound
// characters leave bodies part by part since
// TestDepenetrateTwoDiscsAcrossBarBug).
func (w *World) refExitAlong(s shape.Shape, xf shape.Transform, u shape.Vec2, ov *refDepenSet, q query, march bool) shape.Vec2 {
	b := &w.b
	// Far enough along u that the shape (within its bounding radius of
	// xf.Pos) is beyond every body's box: cast back from there. The box,
	// not the body's bounding radius, which for a chain or compound far
	// from its body's origin reaches much farther than the body.
	far := 0.0
	r := s.BoundingRadius()
	for i := range ov.n {
		box := b.tightOf(ov.slot[i])
		for _, c := range [4]shape.Vec2{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}} {
			far = max(far, u.Dot(c.Sub(xf.Pos)))
		}
	}
	far += 2*r + 1
	start := shape.Transform{Pos: xf.Pos.Add(u.Scale(far)), Rot: xf.Rot}
	back := u.Scale(-far)
	scale := math.Abs(xf.Pos.X) + math.Abs(xf.Pos.Y) + far
	margin := float64(4 * 0x1p-52 * scale)
	exit := 0.0
	for i := range ov.n {
		k := ov.slot[i]
		body, bxf := b.shapes[k], b.xf[k]
		// A compound or chain body is left through the parts the shape
		// overlaps, unless that lands in another of its parts (see
		// TestDepenetrateInsideChainRoomBug).
		e, ok := 0.0, false
		if !body.Kind().Convex() {
			for j := range body.PartCount() {
				ps, pxf := body.Part(j, bxf)
				if !narrowphase.Overlap(s, xf, ps, pxf) {
					continue
				}
				if h, hit := narrowphase.Cast(s, start, back, ps, pxf); hit {
					e = max(e, float64(far*(1-h.Fraction)))
				}
			}
			// Added with TestDepenetrateCompoundInCornerByRoundingBug's
			// fix: a body overlapped by rounding only, no part of it
			// overlapped one by one, is left at once (e = 0).
			ok = !narrowphase.Overlap(s, shape.Transform{Pos: xf.Pos.Add(u.Scale(e + margin)), Rot: xf.Rot}, body, bxf)
		}
		if !ok {
			h, hit := narrowphase.Cast(s, start, back, body, bxf)
			if !hit {
				return shape.Vec2{X: math.Inf(1)} // cannot happen: it overlaps at the end
			}
			e = float64(far * (1 - h.Fraction))
		}
		exit = max(exit, e)
	}
	// Added with TestDepenetrateBetweenTwoBarsBug's fix: on along u past
	// every body the move lands in (those passing q, from the tree), up to
	// depenMarch times.
	x := u.Scale(exit + margin)
	for n := 0; march && n < depenMarch; n++ {
		at := shape.Transform{Pos: xf.Pos.Add(x), Rot: xf.Rot}
		e, met := 0.0, false
		w.tree.Query(s.WorldAABB(at), func(k int32) bool {
			body, bxf := b.shapes[k], b.xf[k]
			if !w.accept(k, q) || !narrowphase.Overlap(s, at, body, bxf) {
				return true
			}
			met = true
			box := b.tightOf(k)
			far := 0.0
			for _, c := range [4]shape.Vec2{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}} {
				far = max(far, u.Dot(c.Sub(xf.Pos)))
			}
			far += 2*r + 1
			margin = max(margin, float64(4*0x1p-52*(math.Abs(xf.Pos.X)+math.Abs(xf.Pos.Y)+far)))
			start := shape.Transform{Pos: xf.Pos.Add(u.Scale(far)), Rot: xf.Rot}
			back := u.Scale(-far)
			parts := false
			if !body.Kind().Convex() {
				for j := range body.PartCount() {
					ps, pxf := body.Part(j, bxf)
					if !narrowphase.Overlap(s, at, ps, pxf) {
						continue
					}
					parts = true
					if h, hit := narrowphase.Cast(s, start, back, ps, pxf); hit {
						e = max(e, float64(far*(1-h.Fraction)))
					}
				}
			}
			if !parts && body.Kind().Convex() { // a composite overlapped by rounding only is left at once (see above)
				if h, hit := narrowphase.Cast(s, start, back, body, bxf); hit {
					e = max(e, float64(far*(1-h.Fraction)))
				}
			}
			return true
		})
		if !met || !(e > exit) {
			break
		}
		exit = e
		x = u.Scale(exit + margin)
	}
	return x
}

// slideLevel builds a level like BenchmarkMoveAndSlideLevel's, small:
// open wall chains around a square of side sz, closed rocks of 20 to 80
// segments, and convex and compound bodies of every kind (some sensors,
// some turned by multiples of π/2) laid over them, all offset by origin.
func slideLevel(t *testing.T, r *rand.Rand, sz float64, origin shape.Vec2) *World {
	w := NewWorld(Config{Workers: 1})
	add := func(def BodyDef) {
		def.Position = def.Position.Add(origin)
		if _, err := w.Add(def); err != nil {
			t.Fatal(err)
		}
	}
	corners := []shape.Vec2{shape.V(0, 0), shape.V(sz, 0), shape.V(sz, sz), shape.V(0, sz), shape.V(0, 0)}
	for i := range 4 {
		a, b := corners[i], corners[i+1]
		k := int(math.Ceil(b.Sub(a).Len() / 2))
		pts := make([]shape.Vec2, k+1)
		for j := range pts {
			pts[j] = a.Add(b.Sub(a).Scale(float64(j) / float64(k)))
		}
		s, err := shape.NewChain(pts, false)
		if err != nil {
			t.Fatal(err)
		}
		add(BodyDef{Shape: s, Kind: Static})
	}
	for range int(sz * sz / 400) {
		c := shape.V(uni(r, 0, sz), uni(r, 0, sz))
		rad := uni(r, 2, 8)
		n := 20 + r.IntN(61)
		pts := make([]shape.Vec2, n)
		for j := range pts {
			a := 2 * math.Pi * float64(j) / float64(n)
			rr := rad * (1 + 0.15*math.Sin(5*a+rad))
			pts[j] = c.Add(shape.V(rr*math.Cos(a), rr*math.Sin(a)))
		}
		s, err := shape.NewChain(pts, true)
		if err != nil {
			t.Fatal(err)
		}
		add(BodyDef{Shape: s, Kind: Static})
	}
	kinds := []shape.Kind{shape.KindCircle, shape.KindAABB, shape.KindOBB, shape.KindPolygon, shape.KindCapsule, shape.KindSegment, shape.KindCompound}
	for range int(sz * sz / 30) {
		s := randomShape(t, r, kinds[r.IntN(len(kinds))])
		a := uni(r, 0, 2*math.Pi)
		if r.IntN(4) == 0 {
			a = float64(r.IntN(4)) * math.Pi / 2
		}
		add(BodyDef{Shape: s, Position: shape.V(uni(r, 0, sz), uni(r, 0, sz)), Angle: a, Sensor: r.IntN(10) == 0})
	}
	w.Step()
	return w
}

// TestDepenetrateMatchesReference replays random moves through levels of
// chains and bodies of every kind with characters of several kinds, many
// starting wedged, and requires MoveAndSlide and Depenetrate to return
// exactly (bit for bit) what the reference routines return (which search
// the tree at every leg, where MoveAndSlide reads the bodies it gathered
// within reach of the move, unless there are too many).
func TestDepenetrateMatchesReference(t *testing.T) {
	seed := testSeed(t, 77)
	levels, moves := 4, 1500
	if testing.Short() {
		levels, moves = 2, 300
	}
	capsule, _ := shape.NewCapsule(shape.V(0, -0.5), shape.V(0, 0.5), 0.4)
	circle, _ := shape.NewCircle(0.6)
	box, _ := shape.NewAABB(0.5, 0.8)
	obb, _ := shape.NewOBB(0.7, 0.3)
	tri, _ := shape.ConvexHull([]shape.Vec2{{X: -0.5, Y: -0.375}, {X: 0.5, Y: -0.375}, {X: 0.125, Y: 0.625}})
	chars := []shape.Shape{capsule, capsule, circle, box, obb, tri}
	pushed, searched, long := 0, 0, 0
	for lv := range levels {
		r := rand.New(rand.NewPCG(seed, uint64(lv)))
		origin := shape.Vec2{}
		if lv%2 == 1 {
			origin = shape.V(1e6, -1e6)
		}
		const sz = 60.0
		w := slideLevel(t, r, sz, origin)
		for mv := range moves {
			ch := chars[r.IntN(len(chars))]
			xf := shape.NewTransform(origin.Add(shape.V(uni(r, 0, sz), uni(r, 0, sz))), 0)
			if r.IntN(3) == 0 {
				xf = shape.NewTransform(xf.Pos, uni(r, 0, 2*math.Pi))
			}
			a := uni(r, 0, 2*math.Pi)
			l := 5.0
			if mv%8 == 7 {
				// Long enough that more bodies are within reach than
				// MoveAndSlide gathers: it then searches the tree.
				l = 40
				long++
			}
			delta := shape.V(l*math.Cos(a), l*math.Sin(a))
			var f Filter
			if r.IntN(4) == 0 {
				f.SkipSensors = true
			}
			got, err1 := w.MoveAndSlide(ch, xf, delta, f)
			want, err2 := w.refMoveAndSlide(ch, xf, delta, f)
			if got != want || (err1 == nil) != (err2 == nil) {
				t.Fatalf("level %d move %d: MoveAndSlide(%v at %v, by %v) = %+v, %v; the reference gives %+v, %v", lv, mv, ch, xf, delta, got, err1, want, err2)
			}
			d1, err1 := w.Depenetrate(ch, xf, f)
			d2, err2 := w.refDepenetrate(ch, xf, f)
			if d1 != d2 || (err1 == nil) != (err2 == nil) {
				t.Fatalf("level %d move %d: Depenetrate(%v at %v) = %v, %v; the reference gives %v, %v", lv, mv, ch, xf, d1, err1, d2, err2)
			}
			if d2 != (shape.Vec2{}) {
				pushed++
				var ov refDepenSet
				w.refOverlaps(ch, xf, newQuery(f), &ov)
				longest := 0
				for i := 1; i < ov.n; i++ {
					if ov.push[i].LenSq() > ov.push[longest].LenSq() {
						longest = i
					}
				}
				if ov.n > 0 && (!w.pushIsShortest(ch, xf, ov.slot[longest], ov.push[longest]) || w.refOverlapsAny(ch, shape.Transform{Pos: xf.Pos.Add(ov.push[longest]), Rot: xf.Rot}, newQuery(f))) {
					searched++ // the direction search runs
				}
			}
		}
	}
	t.Logf("%d wedged starts, %d searched in all directions, %d long moves", pushed, searched, long)
	if searched < levels*moves/20 {
		t.Errorf("only %d of %d starts searched in all directions: the levels test too little", searched, levels*moves)
	}
}
