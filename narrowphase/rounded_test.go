package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shape"
)

// collideRounded collides any two convex shapes by their cores (a point, a
// segment or a polygon) grown by their radii: a general method, kept here
// as an independent reference for the closed forms the capsule and
// segment pairs use (TestCapsulePairsMatchMinkowskiRoutine).
//
// a moved by x overlaps b exactly when x lies inside M grown by ra + rb,
// where M = core(b) ⊕ (−core(a)) is the Minkowski difference of the cores.
// With the origin outside M at distance d, the depth is ra + rb − d along
// the direction to M's nearest point; with the origin inside M, behind its
// face of least depth h, the depth is h + ra + rb along that face's inward
// normal. Both are exact: M's faces are the face normals of the difference
// (Ericson, Real-Time Collision Detection, §4.4 and §5.5.7, and Box2D
// v3's rounded polygons). M's edges remember the features of a and b they
// came from; the contact points come from clipping the incident feature
// against the reference face, as for polygons.
//
// Everything is computed in a's frame (b placed by rel), so precision
// holds far from the world origin.
func collideRounded(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	ea, eb := a.EffectiveTransform(ta), b.EffectiveTransform(tb)
	var ca, cb core
	ca.setIn(a, shape.Transform{})
	cb.setIn(b, ea.MulInv(eb))
	m, ok := collideCores(&ca, &cb)
	if !ok {
		return Manifold{}, false
	}
	return toWorld(m, ea), true
}

// collideCores is collideRounded in the cores' own frame.
func collideCores(a, b *core) (Manifold, bool) {
	var m mink
	m.build(b, a)
	r := m.r
	k, u, h, inside := m.feature()
	var n shape.Vec2 // unit normal from a to b
	var depth float64
	k1 := next(k, m.n)
	e := m.v[k1].Sub(m.v[k])
	switch {
	case inside:
		// Behind face k by h: out through it.
		depth = h + r
		n = outward(e).Neg()
	case u > 0 && u < 1:
		// Nearest to the inside of edge k, h away. In a sliver of M (nearly
		// parallel cores) the nearest edge may be the far side's, by
		// rounding: the normal points from the origin to the edge.
		depth = r - h
		n = outward(e).Neg()
		if n.Dot(m.v[k]) < 0 {
			n = n.Neg()
		}
	default:
		// Nearest to a vertex of M, h away.
		kv := k
		if u >= 1 {
			kv = k1
		}
		depth = r - h
		if !(depth > 0) {
			return Manifold{}, false
		}
		n = m.vertexNormal(kv, h)
		pa, pb := a.v[m.ja[kv]], b.v[m.ib[kv]]
		p := pa.Add(n.Scale(a.r)).Add(pb.Sub(n.Scale(b.r)))
		return single(n.Add(shape.Vec2{}), p.Scale(0.5), depth), true
	}
	if !(depth > 0) {
		return Manifold{}, false
	}
	n = shape.Vec2{X: n.X + 0, Y: n.Y + 0} // no negative zeros
	mf := Manifold{Normal: n, Depth: depth}
	if m.ib[k] != m.ib[k1] {
		// A face of b is the reference; a's edge at the vertex edge k
		// came from is the incident one.
		clipRounded(&mf, b, int(m.ib[k]), n.Neg(), a, int(m.ja[k]), n, b.r+a.r, a.r)
	} else {
		clipRounded(&mf, a, int(m.ja[k]), n, b, int(m.ib[k]), n.Neg(), a.r+b.r, b.r)
	}
	return mf, true
}

// vertexNormal returns the unit normal from a to b when the origin is
// nearest to m's vertex k, h away: the direction from the origin to the
// vertex, kept inside the vertex's normal cone (between the outward
// normals of its two edges), where rounding of a tiny h could otherwise
// point it anywhere; at h = 0 any normal of the cone is exact, and the
// first edge's is taken.
func (m *minkN[A, V, S]) vertexNormal(k int, h float64) shape.Vec2 {
	prev := (k + m.n - 1) % m.n
	n1 := outward(m.v[k].Sub(m.v[prev]))
	n2 := outward(m.v[next(k, m.n)].Sub(m.v[k]))
	if h == 0 {
		return n1.Neg()
	}
	d := m.v[k].Scale(-1 / h) // from the vertex toward the origin
	if n1.Cross(d) < 0 || d.Cross(n2) < 0 {
		// Outside the cone by rounding: its nearer side.
		if d.Dot(n1) >= d.Dot(n2) {
			d = n1
		} else {
			d = n2
		}
	}
	return d.Neg().Normalize()
}

// feature returns the feature of m's core nearest the origin: edge k and
// where on it (u, 0 and 1 at its ends) with the distance h, or, with the
// origin inside the core, the face k it is least deep behind and that
// depth h. A core without area (a point or a segment: a circle against a
// capsule, parallel capsules) has no inside; an origin on it is at distance
// 0 from its first edge.
func (m *minkN[A, V, S]) feature() (k int, u, h float64, inside bool) {
	if m.n >= 3 {
		var dist float64
		k, u, dist, inside = m.closest()
		if !inside {
			return k, u, dist, false
		}
		e := m.v[next(k, m.n)].Sub(m.v[k])
		return k, u, e.Cross(m.v[k].Neg()) / e.Len(), true
	}
	if m.n == 1 {
		return 0, 0, m.v[0].Len(), false
	}
	v0, e := m.v[0], m.v[1].Sub(m.v[0])
	w := v0.Neg()
	ee := e.LenSq()
	if wd := w.Dot(e); wd > 0 {
		if u = wd / ee; u >= 1 {
			return 0, 1, m.v[1].Len(), false
		}
	} else {
		return 0, 0, v0.Len(), false
	}
	// Inside the edge: the distance to its line.
	h = math.Abs(e.Cross(w)) / math.Sqrt(ee)
	if e.Cross(w) > 0 {
		// The origin lies left of v0→v1, outside edge 1 (v1→v0).
		return 1, 1 - u, h, false
	}
	return 0, u, h, false
}

// clipRounded adds the contact points of a rounded pair to mf: the
// incident core's edge at vertex j (the one facing the reference face most
// squarely) is clipped to the span of the reference core's edge i, whose
// outward normal is nr; inc's outward normal toward ref is ni = −nr. Each
// clipped point whose surfaces overlap (by the distance below the
// reference surface, grown by the radii r) is kept, midway between the
// surfaces; ri is the incident core's radius.
func clipRounded(mf *Manifold, ref *core, i int, nr shape.Vec2, inc *core, j int, ni shape.Vec2, r, ri float64) {
	v1 := ref.v[i]
	v2 := ref.v[next(i, ref.n)]
	w1, w2 := inc.v[j], inc.v[j]
	if inc.n > 1 {
		prev := inc.v[(j+inc.n-1)%inc.n]
		nxt := inc.v[next(j, inc.n)]
		// The incident edge is the one at j whose outward normal is
		// closest to ni: the edge to the neighbour most perpendicular to
		// ni (outward normals of a CCW edge e are right of e).
		ep, en := inc.v[j].Sub(prev), nxt.Sub(inc.v[j])
		if outwardDot(ep, ni) >= outwardDot(en, ni) {
			w1 = prev
		} else {
			w2 = nxt
		}
	}
	pen := func(w shape.Vec2) float64 { return nr.Dot(v1.Sub(w)) + r }
	depth := mf.Depth
	if ref.n == 1 || w1 == w2 {
		// A point against a face: the one point.
		w := w1
		if inc.n > 1 && w1 == w2 {
			w = inc.v[j]
		}
		mf.Points[0] = ContactPoint{Point: w.Add(ni.Scale(ri)).Add(nr.Scale(0.5 * depth)), Depth: depth}
		mf.Count = 1
		return
	}
	t := v2.Sub(v1)
	lo, hi := 0.0, t.LenSq()
	s1, s2 := t.Dot(w1.Sub(v1)), t.Dot(w2.Sub(v1))
	if s1 > s2 {
		w1, w2, s1, s2 = w2, w1, s2, s1
	}
	if !(s2 >= lo && s1 <= hi) || s1 == s2 {
		// Beside the reference face, or the incident edge seen end on:
		// its deeper end is the contact.
		w := w1
		if pen(w2) > pen(w1) {
			w = w2
		}
		mf.Points[0] = ContactPoint{Point: w.Add(ni.Scale(ri)).Add(nr.Scale(0.5 * depth)), Depth: depth}
		mf.Count = 1
		return
	}
	e := w2.Sub(w1)
	p1, p2 := w1, w2
	if s1 < lo {
		p1 = w1.Add(e.Scale((lo - s1) / (s2 - s1)))
	}
	if s2 > hi {
		p2 = w1.Add(e.Scale((hi - s1) / (s2 - s1)))
	}
	pen1, pen2 := pen(p1), pen(p2)
	for _, c := range [2]struct {
		p   shape.Vec2
		pen float64
	}{{p1, pen1}, {p2, pen2}} {
		if !(c.pen > 0) {
			continue
		}
		d := math.Min(c.pen, depth)
		// The incident surface point, then halfway to the reference
		// surface along the normal.
		mf.Points[mf.Count] = ContactPoint{Point: c.p.Add(ni.Scale(ri)).Add(nr.Scale(0.5 * d)), Depth: d}
		mf.Count++
	}
	if mf.Count == 0 {
		// Only at rounding level: the less shallow point stands in.
		p := p1
		if pen2 > pen1 {
			p = p2
		}
		mf.Points[0] = ContactPoint{Point: p.Add(ni.Scale(ri)).Add(nr.Scale(0.5 * depth)), Depth: depth}
		mf.Count = 1
	}
}

// outwardDot returns how closely the outward normal of the counter-clockwise
// edge e points along the unit n: the cosine of their angle.
func outwardDot(e, n shape.Vec2) float64 {
	l := e.Len()
	if l == 0 {
		return math.Inf(-1)
	}
	return (float64(e.Y*n.X) - float64(e.X*n.Y)) / l
}

// TestCapsulePairsMatchMinkowskiRoutine compares the closed forms of the
// capsule and segment pairs with collideRounded, which finds the same
// answer another way (the Minkowski difference of the cores, merged edge
// by edge): same hit, same depth, a normal that reaches the same depth.
func TestCapsulePairsMatchMinkowskiRoutine(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	mk := func(k shape.Kind) shape.Shape {
		for {
			var s shape.Shape
			var err error
			p := func() shape.Vec2 { return shape.V(2*r.Float64()-1, 2*r.Float64()-1) }
			switch k {
			case shape.KindCircle:
				s, err = shape.NewOffsetCircle(p().Scale(0.3), 0.1+r.Float64())
			case shape.KindAABB:
				s, err = shape.NewAABB(0.1+r.Float64(), 0.1+r.Float64())
			case shape.KindOBB:
				s, err = shape.NewOBB(0.1+r.Float64(), 0.1+r.Float64())
			case shape.KindPolygon:
				s, err = shape.ConvexHull([]shape.Vec2{p(), p(), p(), p(), p(), p()})
			case shape.KindCapsule:
				s, err = shape.NewCapsule(p(), p(), 0.05+r.Float64())
			default:
				s, err = shape.NewSegment(p(), p())
			}
			if err == nil {
				return s
			}
		}
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	checked := 0
	for i := range n {
		ka := shape.Kind(r.IntN(int(shape.KindSegment) + 1))
		kb := shape.KindCapsule + shape.Kind(r.IntN(2))
		if ka == shape.KindSegment && kb == shape.KindSegment {
			continue
		}
		a, b := mk(ka), mk(kb)
		ta := shape.NewTransform(shape.V(2*r.Float64(), 2*r.Float64()), 7*r.Float64())
		tb := shape.NewTransform(shape.V(2*r.Float64(), 2*r.Float64()), 7*r.Float64())
		m1, ok1 := Collide(a, ta, b, tb)
		m2, ok2 := collideRounded(a, ta, b, tb)
		if ok1 != ok2 {
			if (ok1 && m1.Depth < 1e-9) || (ok2 && m2.Depth < 1e-9) {
				continue // a graze: rounding decides
			}
			t.Fatalf("case %d: Collide(%v, %v) hit %v, the Minkowski routine %v (%+v, %+v)", i, a, b, ok1, ok2, m1, m2)
		}
		if !ok1 {
			continue
		}
		checked++
		if math.Abs(m1.Depth-m2.Depth) > 1e-9*(1+m2.Depth) {
			t.Fatalf("case %d: Collide(%v at %v, %v at %v).Depth = %.17g, the Minkowski routine %.17g", i, a, ta, b, tb, m1.Depth, m2.Depth)
		}
	}
	if checked < n/10 {
		t.Fatalf("only %d of %d pairs overlapped", checked, n)
	}
}
