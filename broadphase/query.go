package broadphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// rayBatch is how many candidates RayCast sorts at once. It lives on the
// stack; a chunk with more candidates is visited in several sorted batches.
const rayBatch = 32

// rayMaxChunks bounds how many pieces RayCast cuts a long ray into.
const rayMaxChunks = 256

// Query calls fn with every proxy whose fat box overlaps box (boundaries
// included), in no particular order, until fn returns false. It only reads
// the tree.
func (t *Tree) Query(box shape.AABB, fn func(id int32) bool) {
	if t == nil {
		return
	}
	stopped := false
	wide := t.tr.wide || t.st.wide
	visit := func(mn, mx rect32, id int32) bool {
		if id == sentinel || (wide && clamped(mn, mx) && !t.fat.at(id).Overlaps(box)) {
			return true
		}
		stopped = !fn(id)
		return !stopped
	}
	t.tr.Search(arr(box.Min), arr(box.Max), visit, &stopped)
	if !stopped {
		t.st.Search(arr(box.Min), arr(box.Max), visit, &stopped)
	}
}

// RayCast calls fn with every proxy whose fat box the segment
// origin + d·dir, 0 <= d <= maxDist, enters (or starts in), roughly in order
// of entry distance. dir must be a unit vector; maxDist may be +Inf. A box
// whose computed entry lies past maxDist by no more than its rounding
// (rayReach) is visited too: fn, with its exact test, decides.
//
// fn gets the current maximum distance and returns the new one: a first-hit
// search returns the distance of a hit closer than the current maximum to
// clip the ray, and the input to keep going; a negative (or NaN) result
// stops the cast, and a result larger than the input is ignored. A result
// of 0 clips the ray to its origin: proxies the origin lies in are still
// visited (a ray that starts inside several bodies, or a zero-length ray).
// Proxies whose fat box the clipped segment no longer reaches are skipped.
//
// The segment is walked in chunks: each chunk searches the tree with the
// chunk's bounding box, slab-tests the fat boxes it finds and visits, sorted
// by entry distance, those the ray enters within the chunk. A fat box is
// visited by exactly one chunk, so a first-hit search stops early without
// missing a candidate. RayCast only reads the tree and does not allocate.
func (t *Tree) RayCast(origin, dir shape.Vec2, maxDist float64, fn func(id int32, maxDist float64) float64) {
	if t == nil {
		return
	}
	t.Sweep(origin, dir, maxDist, shape.Vec2{}, fn)
}

// Sweep is RayCast against every fat box grown by half on each side (half.X
// left and right, half.Y below and above): it visits the proxies that a box
// of half extents half, centred on the ray and moving along it, meets or
// starts in, roughly in order of that distance, with RayCast's clipping
// rules. A shape cast sweeps its own box this way (Box2D's b2ShapeCast walks
// its tree with the same grown ray). half must be finite and non-negative.
func (t *Tree) Sweep(origin, dir shape.Vec2, maxDist float64, half shape.Vec2, fn func(id int32, maxDist float64) float64) {
	if t == nil || t.live == 0 || !(maxDist >= 0) || !origin.IsFinite() || !dir.IsFinite() || dir.LenSq() == 0 {
		return
	}
	grow := func(b shape.AABB) shape.AABB {
		return shape.AABB{Min: b.Min.Sub(half), Max: b.Max.Add(half)}
	}
	bounds := grow(t.bounds())
	bounds = bounds.Expand(rayEps(origin, math.Abs(bounds.Min.X)+math.Abs(bounds.Min.Y)+math.Abs(bounds.Max.X)+math.Abs(bounds.Max.Y)))
	lo, hi, ok := slab(bounds, origin, dir, 0, maxDist)
	if !ok {
		return
	}
	// Chunks a few proxies long keep each search box small, whatever the
	// ray's slope.
	step := max(2*t.extSum/float64(t.live), (hi-lo)/rayMaxChunks)

	wide := t.tr.wide || t.st.wide
	var buf [rayBatch]rayCand
	n := 0
	stop := false
	flush := func() {
		sortRayCands(buf[:n])
		for _, c := range buf[:n] {
			if c.t > rayReach(maxDist) {
				break
			}
			m := fn(c.id, maxDist)
			if !(m >= 0) {
				stop = true
				break
			}
			maxDist = min(maxDist, m)
		}
		n = 0
	}
	for cs := lo; ; {
		ce := cs + step
		last := false
		if !(ce < hi) || !(ce > cs) {
			ce, last = hi, true
		}
		first := cs == lo
		a, b := origin.Add(dir.Scale(cs)), origin.Add(dir.Scale(ce))
		box := grow(shape.AABB{Min: a.Min(b), Max: a.Max(b)}.Expand(rayEps(origin, ce)))
		visit := func(mn, mx rect32, id int32) bool {
			if id == sentinel {
				return true
			}
			fat := shape.AABB{Min: vec32(mn), Max: vec32(mx)} // the fat box, but where clamped
			if wide && clamped(mn, mx) {
				fat = t.fat.at(id)
			}
			te, _, ok := slab(grow(fat), origin, dir, 0, rayReach(maxDist))
			if !ok || (!first && te < cs) || (!last && te >= ce) {
				return true
			}
			if n == len(buf) {
				flush()
				if stop {
					return false
				}
			}
			buf[n] = rayCand{t: te, id: id}
			n++
			return true
		}
		t.tr.Search(arr(box.Min), arr(box.Max), visit, &stop)
		if !stop {
			t.st.Search(arr(box.Min), arr(box.Max), visit, &stop)
		}
		if stop {
			return
		}
		flush()
		if stop || last || ce > rayReach(maxDist) {
			return
		}
		cs = ce
	}
}

// rayCand is a proxy the ray enters at distance t.
type rayCand struct {
	t  float64
	id int32
}

// sortRayCands sorts c by distance, then id, by insertion: batches are
// small and often nearly sorted already.
func sortRayCands(c []rayCand) {
	for i := 1; i < len(c); i++ {
		x := c[i]
		j := i
		for ; j > 0 && (c[j-1].t > x.t || (c[j-1].t == x.t && c[j-1].id > x.id)); j-- {
			c[j] = c[j-1]
		}
		c[j] = x
	}
}

// rayReach returns how far past maxDist a fat box's entry may be computed
// and still be visited: the slab test rounds an entry d by a few ulps of d
// (the box's coordinates less the origin's, over a direction component),
// which from a far origin is more than the narrow phase's rounding of a
// hit at maxDist (an ulp of 1e12 is 1.2e-4), so a box whose body the ray
// enters at exactly maxDist could come out beginning after it. The narrow
// phase then decides, with maxDist itself.
func rayReach(maxDist float64) float64 {
	return maxDist + float64(0x1p-48*maxDist)
}

// rayEps is the slack added around a chunk's search box, so that rounding in
// origin + d·dir never hides a fat box the ray enters in that chunk. Points
// on the ray up to distance d are no larger than |origin| + d.
func rayEps(origin shape.Vec2, d float64) float64 {
	return float64(1e-9 * (1 + math.Abs(origin.X) + math.Abs(origin.Y) + d)) // no FMA with the caller on arm64
}

// slab clips the parameter interval [lo, hi] of the ray origin + t·dir to
// box b (Kay and Kajiya's slab test; Ericson, Real-Time Collision
// Detection, 5.3.3) and reports whether anything is left. An axis the ray
// is parallel to either keeps or empties the interval. A NaN from a
// subnormal direction component leaves the interval alone, which errs on
// the side of a hit.
func slab(b shape.AABB, origin, dir shape.Vec2, lo, hi float64) (float64, float64, bool) {
	lo, hi, ok := slabAxis(b.Min.X, b.Max.X, origin.X, dir.X, lo, hi)
	if !ok {
		return lo, hi, false
	}
	return slabAxis(b.Min.Y, b.Max.Y, origin.Y, dir.Y, lo, hi)
}

func slabAxis(mn, mx, o, d, lo, hi float64) (float64, float64, bool) {
	if d == 0 {
		return lo, hi, mn <= o && o <= mx
	}
	inv := 1 / d
	ta, tb := (mn-o)*inv, (mx-o)*inv
	if ta > tb {
		ta, tb = tb, ta
	}
	if ta > lo {
		lo = ta
	}
	if tb < hi {
		hi = tb
	}
	return lo, hi, lo <= hi
}

// vec returns the rtree point p as a vector.
func vec(p [2]float64) shape.Vec2 { return shape.Vec2{X: p[0], Y: p[1]} }
