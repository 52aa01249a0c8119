package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// hullCapsule collides a box or polygon a with a capsule or segment b, in
// a's frame, where a's normals are precomputed.
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
func hullCapsule(h hull, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	rel := ta.MulInv(tb)
	vb0, vb1, nb := b.SegmentFrame()
	q0, q1 := rel.Apply(vb0), rel.Apply(vb1)
	m0 := rel.Rot.Apply(nb) // the core's right side normal
	r := b.Radius()

	// a's faces: B's core must move by pen = n·v_i − min(n·q) along n_i
	// to clear it; the separation is −pen.
	bestSep, face, refIsA := math.Inf(-1), 0, true
	// Plain comparisons, not math.Min: every value here is finite.
	for i, n := range h.normals {
		s0, s1 := n.Dot(q0), n.Dot(q1)
		if s1 < s0 {
			s0 = s1
		}
		if s := s0 - n.Dot(h.verts[i]); s > bestSep {
			bestSep, face = s, i
		}
	}
	if bestSep >= r {
		return Manifold{}, false
	}
	// The core's two sides: a lies beyond side m by min over a of
	// m·(v − q0).
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range h.verts {
		x := m0.Dot(v.Sub(q0))
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	side := m0 // the side facing a, as B's outward normal
	sepB := lo
	if -hi > lo {
		side, sepB = m0.Neg(), -hi
	}
	if sepB >= r {
		return Manifold{}, false
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
			return Manifold{}, false // a segment touching a's surface
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
		nv := len(h.verts)
		var sep [shape.MaxPolygonVertices]float64
		for k, q := range [2]shape.Vec2{q0, q1} {
			tol := -touchTol * (math.Abs(q.X) + math.Abs(q.Y) + math.Abs(h.verts[0].X) + math.Abs(h.verts[0].Y) + 1)
			for i, v := range h.verts {
				sep[i] = h.normals[i].Dot(q.Sub(v))
			}
			ip := nv - 1 // the face before vertex i
			for i, v := range h.verts {
				si, sp := sep[i], sep[ip]
				ip = i
				if si < tol && sp < tol {
					continue // behind both faces at vertex i
				}
				w := q.Sub(v)
				if dd := w.LenSq(); dd < d2 {
					d2, feat = dd, hcFeature{kind: hcVertexVertex, i: i, k: k}
				}
				if si < tol {
					continue // behind face i
				}
				e := h.verts[next(i, nv)].Sub(v)
				if u := w.Dot(e); u > 0 && u < e.LenSq() {
					if si < 0 {
						si = 0 // behind by rounding only: touching
					}
					if dd := float64(si * si); dd < d2 {
						d2, feat = dd, hcFeature{kind: hcEndOnFace, i: i, k: k}
					}
				}
			}
		}
		e := q1.Sub(q0)
		ee := e.LenSq()
		for i, v := range h.verts {
			w := v.Sub(q0)
			if u := w.Dot(e); u > 0 && u < ee {
				s := m0.Dot(w)
				if dd := float64(s * s); dd < d2 {
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
		if math.IsInf(d2, 1) || d <= touchTol*scale {
			feat.kind = hcTouch
			depth = r - max(bestSep, 0)
		}
		if !(depth > 0) {
			return Manifold{}, false
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
			if m0.Dot(h.verts[feat.i].Sub(q0)) < 0 {
				n = m0
			}
			side = n.Neg()
		default:
			// A vertex of a and an end of b's core.
			v := h.verts[feat.i]
			q := [2]shape.Vec2{q0, q1}[feat.k]
			n = q.Sub(v).Scale(1 / d)
			p := v.Add(q.Sub(n.Scale(r))).Scale(0.5)
			return toWorld(single(n, p, depth), ta), true
		}
	}
	n = shape.Vec2{X: n.X + 0, Y: n.Y + 0}
	m := Manifold{Normal: n, Depth: depth}
	if refIsA {
		v1, v2 := h.verts[face], h.verts[next(face, len(h.verts))]
		clipSegments(&m, v1, v2, n, q0, q1, n.Neg(), r, r)
	} else {
		// b's side is the reference; a's incident edge is the one most
		// anti-parallel to it.
		k, best := 0, math.Inf(1)
		for j, nn := range h.normals {
			if dd := nn.Dot(side); dd < best {
				best, k = dd, j
			}
		}
		w1, w2 := h.verts[k], h.verts[next(k, len(h.verts))]
		clipSegments(&m, q0, q1, side, w1, w2, side.Neg(), r, 0)
	}
	return toWorld(m, ta), true
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

// polygonCapsule collides a polygon with a capsule or segment.
func polygonCapsule(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	return hullCapsule(polygonHull(a), ta, b, tb)
}

func polygonCapsuleOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	_, ok := polygonCapsule(a, ta, b, tb)
	return ok
}

// boxCapsule collides a box (an AABB by its effective transform, or an OBB)
// with a capsule or segment.
func boxCapsule(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	ca := a.Corners()
	return hullCapsule(hull{ca[:], boxNormals[:]}, a.EffectiveTransform(ta), b, tb)
}

func boxCapsuleOverlap(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	_, ok := boxCapsule(a, ta, b, tb)
	return ok
}
