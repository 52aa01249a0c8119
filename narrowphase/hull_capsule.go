package narrowphase

import (
	"math"
	"math/bits"

	"github.com/collide-go/collide/shape"
)

// hullCapsule collides a box (an AABB by its effective transform, or an
// OBB) or polygon a with a capsule or segment b, in a's frame, where a's
// normals are precomputed: the pair routine of all three kinds with a
// capsule or segment, one call deep.
//
// The Minkowski difference of a's hull and b's core segment has for face
// normals a's normals and the core's two side normals, so the separating
// axis test over those is exact for the cores (Ericson, Real-Time
// Collision Detection, §5.2.1): with the largest separation s ≤ 0 the
// cores overlap and the depth is r − s along that axis (r is b's radius);
// with s ≥ r they are apart by at least r and do not collide. Between the
// two the cores are apart by their distance d, the least over b's ends
// against a's edges and a's vertices against b's core, and the depth is
// r − d. Contact points clip the incident feature to the reference face.
func hullCapsule(a *shape.Shape, ta shape.Transform, b *shape.Shape, tb shape.Transform, out *Manifold) bool {
	// A box's corners sit in this frame; a polygon lends its slices.
	var corners [4]shape.Vec2
	var h hull
	h.setPolygon(a)
	if h.verts == nil {
		cornersInto(&corners, a)
		h.verts, h.normals = corners[:], boxNormals[:]
		ta = a.EffectiveTransform(ta)
	}
	rel := ta.MulInv(tb)
	vb0, vb1, nb := b.SegmentFrame()
	q0, q1 := rel.Apply(vb0), rel.Apply(vb1)
	m0 := rel.Rot.Apply(nb) // the core's right side normal
	r := b.Radius()

	// One pass over a's vertices and their faces tests both kinds of
	// axis. a's faces: B's core must move by pen = n·v_i − min(n·q) along
	// n_i to clear it; the separation is −pen. The core's two sides: a lies
	// beyond side m by min over a of m·(v − q0).
	verts := h.verts
	normals := h.normals[:len(verts)] // one length: no bounds checks below
	bestSep, face, refIsA := math.Inf(-1), 0, true
	lo, hi := math.Inf(1), math.Inf(-1)
	var xsBuf [shape.MaxPolygonVertices]float64
	xs := xsBuf[:len(verts)] // m0·(v_i − q0), kept for the core's side below
	// Plain comparisons, not math.Min: every value here is finite.
	for i, v := range verts {
		n := normals[i]
		s0, s1 := n.Dot(q0), n.Dot(q1)
		if s1 < s0 {
			s0 = s1
		}
		if s := s0 - n.Dot(v); s > bestSep {
			bestSep, face = s, i
		}
		x := m0.Dot(v.Sub(q0))
		xs[i] = x
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	if bestSep >= r {
		return false
	}
	side := m0 // the side facing a, as B's outward normal
	sepB := lo
	if -hi > lo {
		side, sepB = m0.Neg(), -hi
	}
	if sepB >= r {
		return false
	}
	// As for polygons, a's face stays the reference unless b's is better
	// by more than rounding.
	if sepB > bestSep && -sepB < -bestSep*(1-refFaceTol) {
		bestSep, refIsA = sepB, false
	}

	var n shape.Vec2 // from a to b
	var depth float64
	if bestSep <= 0 {
		depth = r - bestSep
		if !(depth > 0) {
			return false // a segment touching a's surface
		}
		if refIsA {
			n = h.normals[face]
		} else {
			n = side.Neg()
		}
	} else {
		// Apart: the nearest features.
		d2, feat := math.Inf(1), hcFeature{}
		// The feature pairs: an end of the core and a vertex of a, an end
		// in front of the inside of a face, a vertex beside the inside of
		// the core. An end outside a and nearest a vertex is in front of at
		// least one face at that vertex (the end minus the vertex is a
		// non-negative mix of their normals); the other vertices are
		// skipped. A tolerance of rounding size keeps an end that touches
		// a vertex or face from slipping through.
		nv := len(verts)
		// Bit i of front0 (front1): q0 (q1) is not behind face i. The
		// tolerance is relative to the numbers n_i·(q − v_i) is made of,
		// with no absolute term, which on a hull smaller than it would put
		// every end in front of every face.
		a0 := math.Abs(q0.X) + math.Abs(q0.Y)
		a1 := math.Abs(q1.X) + math.Abs(q1.Y)
		var front0, front1 uint32
		bit := uint32(1) // 1 << i, without a shift by a variable
		for i, v := range verts {
			n := normals[i]
			av := math.Abs(v.X) + math.Abs(v.Y)
			if !(n.Dot(q0.Sub(v)) < -touchTol*(a0+av)) {
				front0 |= bit
			}
			if !(n.Dot(q1.Sub(v)) < -touchTol*(a1+av)) {
				front1 |= bit
			}
			bit <<= 1
		}
		all := uint32(1)<<nv - 1
		for k, q := range [2]shape.Vec2{q0, q1} {
			front := front0
			if k == 1 {
				front = front1
			}
			// Vertex i is visited when q is in front of face i or of the
			// face before it, in ascending order as a plain loop would
			// (ties keep the first).
			for visit := (front | front<<1 | front>>(nv-1)) & all; visit != 0; visit &= visit - 1 {
				i := bits.TrailingZeros32(visit)
				v := verts[i]
				w := q.Sub(v)
				if dd := w.LenSq(); dd < d2 {
					d2, feat = dd, hcFeature{kind: hcVertexVertex, i: i, k: k}
				}
				if front&(visit&-visit) == 0 { // visit's lowest bit is i
					continue // behind face i
				}
				// The face's span is closed: an end exactly in front of
				// its vertex ties with that vertex, and the face wins the
				// tie, so that a core parallel to the face gets its two
				// points.
				e := verts[next(i, nv)].Sub(v)
				if u := w.Dot(e); u >= 0 && u <= e.LenSq() {
					si := normals[i].Dot(w) // as in the front pass
					if si < 0 {
						si = 0 // behind by rounding only: touching
					}
					if dd := float64(si * si); dd < d2 || (dd == d2 && feat.kind == hcVertexVertex) {
						d2, feat = dd, hcFeature{kind: hcEndOnFace, i: i, k: k}
					}
				}
			}
		}
		e := q1.Sub(q0)
		ee := e.LenSq()
		for i, v := range verts {
			// The side distance first: it is at hand and rules out most
			// vertices.
			s := xs[i]
			if dd := float64(s * s); dd < d2 || (dd == d2 && feat.kind == hcVertexVertex) {
				if u := v.Sub(q0).Dot(e); u >= 0 && u <= ee && ee > 0 {
					d2, feat = dd, hcFeature{kind: hcVertexOnCore, i: i}
				}
			}
		}
		d := math.Sqrt(d2)
		depth = r - d
		// The cores touch, up to rounding (or rounding left no feature pair
		// in front of each other): no direction between their nearest
		// points can be trusted; the largest separation's axis holds.
		scale := math.Abs(q0.X) + math.Abs(q0.Y) + math.Abs(q1.X) + math.Abs(q1.Y) + math.Abs(h.verts[0].X) + math.Abs(h.verts[0].Y)
		if feat.kind == hcVertexVertex || feat.kind == hcVertexOnCore {
			v := h.verts[feat.i]
			scale += math.Abs(v.X) + math.Abs(v.Y)
		}
		if math.IsInf(d2, 1) || d <= coreTouchTol*scale {
			feat.kind = hcTouch
			depth = r - max(bestSep, 0)
		}
		if !(depth > 0) {
			return false
		}
		switch feat.kind {
		case hcTouch:
			if refIsA {
				n = h.normals[face]
			} else {
				n = side.Neg()
			}
		case hcEndOnFace:
			n, face, refIsA = h.normals[feat.i], feat.i, true
		case hcVertexOnCore:
			n, refIsA = m0.Neg(), false
			if xs[feat.i] < 0 {
				n = m0
			}
			side = n.Neg()
		default:
			// A vertex of a and an end of b's core.
			v := h.verts[feat.i]
			q := [2]shape.Vec2{q0, q1}[feat.k]
			n = q.Sub(v).Scale(1 / d)
			p := v.Add(q.Sub(n.Scale(r))).Scale(0.5)
			out.single(n, p, depth)
			out.toWorld(ta)
			return true
		}
	}
	n = shape.Vec2{X: n.X + 0, Y: n.Y + 0}
	m := out
	*m = Manifold{Normal: n, Depth: depth}
	if refIsA {
		v1, v2 := h.verts[face], h.verts[next(face, len(h.verts))]
		clipSegments(m, v1, v2, n, q0, q1, n.Neg(), r, r)
	} else {
		// b's side is the reference; a's incident edge is the one most
		// anti-parallel to it.
		k, best := 0, normals[0].Dot(side)
		for j := 1; j < len(normals); j++ {
			if dd := normals[j].Dot(side); dd < best {
				best, k = dd, j
			}
		}
		w1, w2 := verts[k], verts[next(k, len(verts))]
		clipSegments(m, q0, q1, side, w1, w2, side.Neg(), r, 0)
	}
	m.toWorld(ta)
	return true
}

// hcFeature names the nearest features of a hull and a core segment that
// are apart: an end of the core against a face of the hull, a vertex of
// the hull against the core's side, or vertex against end.
type hcFeature struct {
	kind int
	i, k int // hull vertex or face; core end
}

const (
	hcVertexVertex = iota
	hcEndOnFace
	hcVertexOnCore
	hcTouch // the cores touch: no feature pair gives a direction
)

func hullCapsuleOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (float64, bool) {
	var m Manifold
	ok := hullCapsule(&a, ta, &b, tb, &m)
	return m.Depth, ok
}
