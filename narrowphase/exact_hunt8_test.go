package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// h8RandChain returns a random chain: a walk of 3 to 9 points with
// straight runs, gentle bends and sharp ones, open or closed.
func h8RandChain(rng *rand.Rand) (shape.Shape, bool) {
	count := 3 + rng.IntN(7)
	pts := []shape.Vec2{exDyadV(rng, -2, 2)}
	heading := rng.Float64() * 2 * math.Pi
	for range count - 1 {
		switch rng.IntN(4) {
		case 0:
		case 1:
			heading += (rng.Float64()*2 - 1) * 0.1
		default:
			heading += (rng.Float64()*2 - 1) * 2.5
		}
		l := exDyad(rng, 0.5, 3)
		pts = append(pts, pts[len(pts)-1].Add(shape.V(l*math.Cos(heading), l*math.Sin(heading))))
	}
	closed := rng.IntN(3) == 0
	s, err := shape.NewChain(pts, closed)
	return s, err == nil
}

// TestExactOracleChainContactPoints checks the contact points of every
// part pair CollideParts reports between a chain and shapes of every
// convex kind and compounds, both orders, rotated and far from the
// origin, against the exact cores: each point ± N·depth/2 on both
// boundaries (ghost contacts replaced by a normal of the segment's cone
// included), and two points at the ends of the overlap where faces are
// parallel and the normal is the segment's own.
func TestExactOracleChainContactPoints(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 801))
	n := exCases(400)
	pairs, ghosts := 0, 0
	for c := range n {
		chain, ok := h8RandChain(rng)
		if !ok {
			continue
		}
		cp, _ := chain.ChainPoints()
		var b shape.Shape
		if rng.IntN(4) == 0 {
			b = exRandCompound(rng)
		} else {
			b = exRandFacingShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
		}
		base := exBases[rng.IntN(len(exBases)-1)]
		frame := shape.Transform{Pos: shape.V(base, -base).Add(exDyadV(rng, -2, 2)), Rot: exRandRot(rng)}
		near := cp[rng.IntN(len(cp))].Add(exDyadV(rng, -1.5, 1.5))
		tb := shape.Transform{Pos: frame.Apply(near), Rot: exRandRot(rng)}
		if rng.IntN(3) == 0 {
			tb.Rot = frame.Rot
		}
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := chain, frame, b, tb
			if swap {
				x, tx, y, ty = b, tb, chain, frame
			}
			desc := fmt.Sprintf("case %d: chain %v: %s", c, cp, exDescribe(x, tx, y, ty))
			px, py := exParts(x, tx), exParts(y, ty)
			tol := 1e-9 * exLocalScale(x, tx, y, ty)
			wtol := 1e-9 * exWorldScale(x, tx, y, ty)
			narrowphase.CollideParts(x, tx, y, ty, func(i, j int, m narrowphase.Manifold) bool {
				pairs++
				ca, cb := px[i], py[j]
				in, pen := exPen(exMinkowski(ca, cb))
				if !in && pen < -tol {
					t.Errorf("parts (%d, %d) reported, exact gap %.3g: %s", i, j, -pen, desc)
				}
				// A ghost's normal is replaced by the nearest of its
				// cone, bounded by a neighbour's normal. Its depth can
				// differ from the exact one by far less than tol (by
				// the square of the angle, at a vertex), so a normal
				// that is a neighbour's is a ghost's too.
				ci, ss := i, 1.0
				if swap {
					ci, ss = j, -1
				}
				ghost := math.Abs(m.Depth-pen) > tol || h8NeighbourNormal(chain, frame, ci, m.Normal.Scale(ss))
				if ghost {
					ghosts++
				}
				where := fmt.Sprintf("parts (%d, %d) exact depth %.17g, %s", i, j, pen, desc)
				if !ghost {
					exCheckManifoldPoints(t, m, ca, cb, tx.Pos, tol, wtol, where)
					return !t.Failed()
				}
				// A ghost replaced by a deeper normal of the cone: the
				// point is the other shape's deepest point along it,
				// raised halfway to the segment's support line (which
				// may pass beyond the segment's ends: the long segment
				// the cone stands for).
				seg, other, sign := ca, cb, 1.0
				if swap {
					seg, other, sign = cb, ca, -1
				}
				nn := m.Normal.Scale(sign) // from the segment toward the other shape
				hs := exSupport(exCore{pts: seg.pts, r: seg.r}, nn)
				for k := range m.Count {
					p := m.Points[k]
					top := p.Point.Add(nn.Scale(p.Depth / 2))
					if d := top.Dot(nn) - hs; math.Abs(d) > wtol {
						t.Errorf("ghost point %v + N·depth/2 is %.3g off the segment's support line: %s", p.Point, d, where)
					}
					if sd := exSignedDist(other, p.Point.Sub(nn.Scale(p.Depth/2))); math.Abs(sd) > wtol {
						t.Errorf("ghost point %v − N·depth/2 is %.3g from the other shape's boundary: %s", p.Point, sd, where)
					}
				}
				return !t.Failed()
			})
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d cases, %d part pairs, %d with a cone normal other than the exact one", n, pairs, ghosts)
}

// TestExactOracleChainNearlyCollinear compares chains whose points lie on
// a line of any direction, rounded to float64 (and, in a third of the
// cases, pushed off it by up to 1e-12 of a neighbouring piece: bends far below any
// corner a shape could catch on), with one long segment from the first
// point to the last, against random shapes of every convex kind and
// compounds, rotated and far from the origin: wherever the long segment's
// normal is its face normal, every contact of every piece has that normal
// (either side at an exact tie) and at most its depth, the deepest has its
// depth, and Collide of the chain is Collide of the long segment.
func TestExactOracleChainNearlyCollinear(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 802))
	n := exCases(2000)
	checked := 0
	for c := range n {
		a := shape.V(rng.Float64()*4-2, rng.Float64()*4-2)
		ang := rng.Float64() * 2 * math.Pi
		length := 2 + rng.Float64()*8
		dir := shape.V(math.Cos(ang), math.Sin(ang))
		count := 2 + rng.IntN(10)
		ts := []float64{0}
		for range count - 1 {
			ts = append(ts, rng.Float64())
		}
		ts = append(ts, 1)
		// Sorted, so the pieces run one way.
		for i := 1; i < len(ts); i++ {
			for j := i; j > 0 && ts[j] < ts[j-1]; j-- {
				ts[j], ts[j-1] = ts[j-1], ts[j]
			}
		}
		bend := rng.IntN(3) == 0
		pts := make([]shape.Vec2, len(ts))
		for i, s := range ts {
			pts[i] = a.Add(dir.Scale(s * length))
			if bend && i > 0 && i < len(ts)-1 {
				// Off the line by 1e-12 of the shorter neighbouring
				// piece: a turn of at most about 2e-12.
				h := 1e-12 * length * math.Min(ts[i]-ts[i-1], ts[i+1]-ts[i])
				pts[i] = pts[i].Add(shape.V(-dir.Y, dir.X).Scale((rng.Float64()*2 - 1) * h))
			}
		}
		chain, err := shape.NewChain(pts, false)
		if err != nil {
			continue
		}
		long, err := shape.NewSegment(pts[0], pts[len(pts)-1])
		if err != nil {
			continue
		}
		base := exBases[rng.IntN(len(exBases)-1)]
		frame := shape.Transform{Pos: shape.V(base, base).Add(exDyadV(rng, -2, 2)), Rot: exRandRot(rng)}
		var s shape.Shape
		if rng.IntN(4) == 0 {
			s = exRandCompound(rng)
		} else {
			k := exConvexKinds[rng.IntN(len(exConvexKinds))]
			if k == shape.KindSegment {
				k = shape.KindCapsule
			}
			s = exRandFacingShape(rng, k)
		}
		along := (rng.Float64()*1.2 - 0.1) * length
		off := (rng.Float64()*3 - 1.5)
		nrm := shape.V(-dir.Y, dir.X)
		tsx := shape.Transform{Pos: frame.Apply(pts[0].Add(dir.Scale(along)).Add(nrm.Scale(off))), Rot: exRandRot(rng)}
		if rng.IntN(3) == 0 {
			tsx.Rot = frame.Rot
		}
		scale := exLocalScale(long, frame, s, tsx)
		tol := 1e-9 * scale
		desc := fmt.Sprintf("case %d: chain %v at pos %v rot (%v, %v); long segment %v; shape %v at pos %v rot (%v, %v)",
			c, pts, frame.Pos, frame.Rot.Cos(), frame.Rot.Sin(), long, s, tsx.Pos, tsx.Rot.Cos(), tsx.Rot.Sin())
		face := frame.Rot.Apply(long.Normals()[0])
		// Part by part of s: the long segment against part j, and every
		// piece's contact with part j.
		got := map[int][]chainContact{}
		narrowphase.CollideParts(chain, frame, s, tsx, func(i, j int, m narrowphase.Manifold) bool {
			got[j] = append(got[j], chainContact{i, m})
			return true
		})
		for j := range s.PartCount() {
			pj, xj := s.Part(j, tsx)
			want, ok := narrowphase.Collide(long, frame, pj, xj)
			g := got[j]
			if !ok {
				for _, x := range g {
					if x.m.Depth > tol {
						t.Fatalf("part %d: the long segment does not collide, piece %d gives %+v: %s", j, x.seg, x.m, desc)
					}
				}
				continue
			}
			if want.Depth <= tol || math.Abs(want.Normal.Cross(face)) > 1e-12 {
				continue
			}
			if len(g) == 0 {
				t.Fatalf("part %d: no piece collides, the long segment gives %+v: %s", j, want, desc)
			}
			checked++
			deepest := 0.0
			for _, x := range g {
				deepest = math.Max(deepest, x.m.Depth)
				wn := want.Normal
				if x.m.Normal.Add(wn).Len() <= 1e-9 && math.Abs(x.m.Depth-want.Depth) <= tol {
					wn = wn.Neg() // a tie of the two sides
				}
				if x.m.Normal.Sub(wn).Len() > 1e-9 {
					t.Fatalf("part %d: piece %d normal %v depth %.17g; the long segment gives %v, %.17g: %s",
						j, x.seg, x.m.Normal, x.m.Depth, want.Normal, want.Depth, desc)
				}
				if x.m.Depth > want.Depth+tol {
					t.Fatalf("part %d: piece %d depth %.17g deeper than the long segment's %.17g: %s", j, x.seg, x.m.Depth, want.Depth, desc)
				}
			}
			if math.Abs(deepest-want.Depth) > tol {
				t.Fatalf("part %d: deepest piece %.17g, the long segment %.17g: %s", j, deepest, want.Depth, desc)
			}
		}
		if s.Kind().Convex() {
			want, okw := narrowphase.Collide(long, frame, s, tsx)
			m, ok := narrowphase.Collide(chain, frame, s, tsx)
			if okw && ok && want.Depth > tol && math.Abs(want.Normal.Cross(face)) <= 1e-12 {
				if (m.Normal.Sub(want.Normal).Len() > 1e-9 && m.Normal.Add(want.Normal).Len() > 1e-9) || math.Abs(m.Depth-want.Depth) > tol {
					t.Fatalf("Collide(chain) = %+v; the long segment %+v: %s", m, want, desc)
				}
			}
		}
	}
	t.Logf("%d cases, %d shape parts in face contact with the long segment", n, checked)
}

// h8RandFloatShape returns a random shape of any kind (compounds and
// chains too) with full float64 numbers rather than dyadic ones, often
// scaled down or up.
func h8RandFloatShape(rng *rand.Rand) shape.Shape {
	s := exRandAnyShape(rng)
	if rng.IntN(3) == 0 {
		return s
	}
	f := 0.3 + rng.Float64()*3
	v := func() shape.Vec2 { return shape.V((rng.Float64()*2-1)*f, (rng.Float64()*2-1)*f) }
	for {
		var r shape.Shape
		var err error
		switch s.Kind() {
		case shape.KindCircle:
			r, err = shape.NewOffsetCircle(v().Scale(0.3), 0.05+rng.Float64()*f)
		case shape.KindAABB:
			r, err = shape.NewAABB(0.05+rng.Float64()*f, 0.05+rng.Float64()*f)
		case shape.KindOBB:
			r, err = shape.NewOBB(0.05+rng.Float64()*f, 0.05+rng.Float64()*f)
		case shape.KindPolygon:
			pts := make([]shape.Vec2, 3+rng.IntN(6))
			for i := range pts {
				pts[i] = v()
			}
			r, err = shape.ConvexHull(pts)
		case shape.KindCapsule:
			r, err = shape.NewCapsule(v(), v(), 0.05+rng.Float64()*f*0.5)
		case shape.KindSegment:
			r, err = shape.NewSegment(v(), v())
		default:
			return s
		}
		if err == nil {
			return r
		}
	}
}

// TestExactOracleOverlapAtTouch places random pairs of every kind (float
// sizes, any rotation, far from the origin too) at the exact first touch
// of a motion, found by the exact oracle part pair by part pair, and then
// an ulp or a few of position either way: Overlap must agree with Collide,
// Collide(b, a) must be the exact flip of Collide(a, b), and a contact may
// only be reported where the exact shapes overlap or are within 1e-12 of
// the pair's size of it.
func TestExactOracleOverlapAtTouch(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 803))
	n := exCases(300)
	tried, contacts, wrongBool := 0, 0, 0
	for c := range n {
		a, b := h8RandFloatShape(rng), h8RandFloatShape(rng)
		if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
			continue
		}
		base := exBases[rng.IntN(len(exBases))]
		ta := shape.Transform{Pos: shape.V(base, -base).Add(shape.V(rng.Float64()*4-2, rng.Float64()*4-2)), Rot: exRandRot(rng)}
		ang := rng.Float64() * 2 * math.Pi
		dir := shape.V(math.Cos(ang), math.Sin(ang))
		reach := a.BoundingRadius() + b.BoundingRadius() + 1
		tb := shape.Transform{Pos: ta.Pos.Add(dir.Scale(reach)), Rot: exRandRot(rng)}
		// Cast a toward b along a line through b, a little off its centre.
		delta := dir.Scale(reach).Add(shape.V(rng.Float64()-0.5, rng.Float64()-0.5).Scale(reach * 0.5))
		pb := exParts(b, tb)
		frac, hit := exFirstTouch(a, ta, delta, b, tb)
		if !hit || frac == 0 {
			continue
		}
		tried++
		at := ta.Pos.Add(delta.Scale(frac))
		scale := exLocalScale(a, ta, b, tb)
		for k := -3; k <= 3; k++ {
			pos := at
			for range abs(k) {
				if k > 0 {
					pos = shape.V(math.Nextafter(pos.X, math.Inf(1)), math.Nextafter(pos.Y, math.Inf(1)))
				} else {
					pos = shape.V(math.Nextafter(pos.X, math.Inf(-1)), math.Nextafter(pos.Y, math.Inf(-1)))
				}
			}
			tx := shape.Transform{Pos: pos, Rot: ta.Rot}
			desc := fmt.Sprintf("case %d nudge %d: %s", c, k, exDescribe(a, tx, b, tb))
			m, ok := narrowphase.Collide(a, tx, b, tb)
			if ov := narrowphase.Overlap(a, tx, b, tb); ov != ok {
				t.Errorf("Overlap(a, b) = %v, Collide = %v (depth %.3g): %s", ov, ok, m.Depth, desc)
			}
			if ov := narrowphase.Overlap(b, tb, a, tx); ov != ok {
				t.Errorf("Overlap(b, a) = %v, Collide(a, b) = %v (depth %.3g): %s", ov, ok, m.Depth, desc)
			}
			mb, okb := narrowphase.Collide(b, tb, a, tx)
			if okb != ok || (ok && (mb.Normal != m.Normal.Neg() || mb.Depth != m.Depth || mb.Count != m.Count || mb.Points != m.Points)) {
				t.Errorf("Collide(b, a) = %+v, %v; Collide(a, b) = %+v, %v: not the flip: %s", mb, okb, m, ok, desc)
			}
			if !ok {
				continue
			}
			contacts++
			// The exact overlap: the deepest part pair.
			best := math.Inf(-1)
			for _, x := range exParts(a, tx) {
				for _, y := range pb {
					if len(x.pts) <= 2 && len(y.pts) <= 2 && x.r.Sign() == 0 && y.r.Sign() == 0 {
						continue
					}
					_, pen := exPen(exMinkowski(x, y))
					best = math.Max(best, pen)
				}
			}
			if best < -1e-12*scale {
				wrongBool++
				t.Errorf("Collide = %+v, but the exact shapes are %.3g apart: %s", m, -best, desc)
			}
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d cases, %d placed at a touch, %d contacts within a few ulps of it, %d apart", n, tried, contacts, wrongBool)
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

// h8NearParallel returns a random rotation a tiny angle (0, or 1e-15 to
// 1e-3 rad) from rot, or a half turn from it.
func h8NearParallel(rng *rand.Rand, rot shape.Rot) shape.Rot {
	eps := 0.0
	if rng.IntN(4) != 0 {
		eps = math.Pow(10, -3-12*rng.Float64())
		if rng.IntN(2) == 0 {
			eps = -eps
		}
	}
	if rng.IntN(2) == 0 {
		eps += math.Pi
	}
	return rot.Mul(shape.NewRot(eps))
}

// TestExactOracleNearParallelCores checks Collide (depth, normal, flip,
// Overlap) and its contact points against the exact oracle for capsules,
// segments, boxes and polygons whose cores or faces are parallel or a
// hair off parallel: capsule–capsule, capsule–segment, polygon–capsule,
// polygon–segment and box–capsule, overlapping by amounts from a
// rounding step to most of their size, side by side with their ends
// overlapping or not, far from the origin too.
func TestExactOracleNearParallelCores(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 804))
	n := exCases(3000)
	hits := 0
	for c := range n {
		// a: a capsule, a segment, a box or a polygon with a long bottom
		// face along its local x axis.
		la := 0.5 + rng.Float64()*4
		var a shape.Shape
		var err error
		switch rng.IntN(4) {
		case 0:
			a, err = shape.NewCapsule(shape.V(-la/2, 0), shape.V(la/2, 0), 0.1+rng.Float64())
		case 1:
			a, err = shape.NewOBB(la/2, 0.1+rng.Float64())
		case 2:
			h := 0.2 + rng.Float64()*2
			a, err = shape.NewPolygon([]shape.Vec2{{X: -la / 2, Y: -h / 2}, {X: la / 2, Y: -h / 2}, {X: la * (rng.Float64() - 0.5), Y: h / 2}})
		default:
			a, err = shape.NewSegment(shape.V(-la/2, 0), shape.V(la/2, 0))
		}
		if err != nil {
			continue
		}
		lb := 0.2 + rng.Float64()*4
		var b shape.Shape
		if a.Kind() == shape.KindSegment || rng.IntN(3) != 0 {
			b, err = shape.NewCapsule(shape.V(-lb/2, 0), shape.V(lb/2, 0), 0.05+rng.Float64())
		} else {
			b, err = shape.NewSegment(shape.V(-lb/2, 0), shape.V(lb/2, 0))
		}
		if err != nil {
			continue
		}
		base := exBases[rng.IntN(len(exBases)-1)]
		ta := shape.Transform{Pos: shape.V(base, base*0.5).Add(shape.V(rng.Float64(), rng.Float64())), Rot: shape.NewRot(rng.Float64() * 2 * math.Pi)}
		if rng.IntN(3) == 0 {
			ta.Rot = exRandRot(rng)
		}
		// b beside a's bottom face (or either side of a capsule or
		// segment), parallel or nearly, its surface at a random overlap.
		rb := b.Radius()
		var reachA float64
		switch a.Kind() {
		case shape.KindCapsule:
			reachA = a.Radius()
		case shape.KindOBB:
			reachA = a.HalfExtents().Y
		case shape.KindPolygon:
			reachA = -a.Vertices()[0].Y
		}
		over := []float64{1e-12, 1e-9, 1e-6, 1e-3, 0.1, 0.5}[rng.IntN(6)] * (1 + rng.Float64())
		side := -1.0
		if a.Kind() != shape.KindPolygon && a.Kind() != shape.KindOBB && rng.IntN(2) == 0 {
			side = 1
		}
		local := shape.V((rng.Float64()*2-1)*(la+lb)/2, side*(reachA+rb-over))
		tb := shape.Transform{Pos: ta.Apply(local), Rot: h8NearParallel(rng, ta.Rot)}
		if exCheckCollide(t, a, ta, b, tb, 1e-9) {
			hits++
		}
		exCheckPoints(t, a, ta, b, tb, 1e-9)
		exCheckPoints(t, b, tb, a, ta, 1e-9)
		if t.Failed() {
			t.Logf("case %d", c)
			return
		}
	}
	t.Logf("%d cases, %d overlap", n, hits)
}

// TestExactOracleCastFloatShapes runs exCheckCompositeCast (the exact
// oracle part pair by part pair) on shapes of every kind, compounds and
// chains included, with full float64 sizes and vertices, any rotation,
// far from the origin too, and motions aimed anywhere near the other
// shape; a third of them start touching (placed by the exact first touch
// of another motion) and move on along, into or away from the touch.
func TestExactOracleCastFloatShapes(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 805))
	n := exCases(300)
	total, hits, touching := 0, 0, 0
	for range n {
		a, b := h8RandFloatShape(rng), h8RandFloatShape(rng)
		base := exBases[rng.IntN(len(exBases))]
		ta := shape.Transform{Pos: shape.V(-base, base).Add(shape.V(rng.Float64()*4-2, rng.Float64()*4-2)), Rot: shape.NewRot(rng.Float64() * 7)}
		tb := shape.Transform{Pos: ta.Pos.Add(shape.V(rng.Float64()*8-4, rng.Float64()*8-4)), Rot: shape.NewRot(rng.Float64() * 7)}
		aim := tb.Pos.Sub(ta.Pos)
		delta := aim.Scale(0.5 + 2*rng.Float64()).Add(shape.V(rng.Float64()*4-2, rng.Float64()*4-2))
		if rng.IntN(3) == 0 {
			// Start touching: a's first touch along another motion.
			d0 := aim.Scale(2)
			if frac, hit := exFirstTouch(a, ta, d0, b, tb); hit && frac > 0 {
				ta.Pos = ta.Pos.Add(d0.Scale(frac))
				touching++
				switch rng.IntN(3) {
				case 0: // on along the same line
					delta = d0.Scale(rng.Float64())
				case 1: // across it
					delta = shape.V(-d0.Y, d0.X).Scale(rng.Float64()*2 - 1)
				}
			}
		}
		for _, swap := range []bool{false, true} {
			x, tx, y, ty := a, ta, b, tb
			if swap {
				x, tx, y, ty = b, tb, a, ta
			}
			if exCheckCompositeCast(t, x, tx, delta, y, ty, 1e-9) {
				hits++
			}
			total++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d casts, %d hits, %d cases starting at a touch", total, hits, touching)
}

// TestExactOracleTOIFloatShapes runs the TimeOfImpact oracle (dense
// sampling and bisection on the exact gap) on shapes of every kind,
// compounds and chains included, with full float64 numbers, rotating
// and far from the origin.
func TestExactOracleTOIFloatShapes(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 806))
	n := exCases(60)
	samples := 150
	if testing.Short() {
		samples = 60
	}
	total, hits := 0, 0
	for range n {
		a, b := h8RandFloatShape(rng), h8RandFloatShape(rng)
		base := exBases[rng.IntN(len(exBases))]
		bv := shape.V(base, -base)
		sa := exRandSweep(rng, bv.Add(shape.V(rng.Float64()*8-4, rng.Float64()*8-4)), 8, 3)
		sb := exRandSweep(rng, bv.Add(shape.V(rng.Float64()*8-4, rng.Float64()*8-4)), 8, 3)
		if rng.IntN(3) == 0 {
			sb.P1, sb.A1 = sb.P0, sb.A0
		}
		for _, c := range []*toiCase{newTOICase(a, sa, b, sb), newTOICase(b, sb, a, sa)} {
			if c.check(t, samples) {
				hits++
			}
			total++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d sweeps, %d hits", total, hits)
}

// TestExactOracleEnterFloatShapes runs CastEnter's and CastSliding's
// exact checks (ceCheck) on shapes of every kind with full float64
// numbers, any rotation, far from the origin too; CastSliding's starts
// are placed touching by a first Cast half of the time.
func TestExactOracleEnterFloatShapes(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 807))
	n := exCases(200)
	hits, checked := 0, 0
	for c := range n {
		a, b := h8RandFloatShape(rng), h8RandFloatShape(rng)
		base := exBases[rng.IntN(len(exBases))]
		ta := shape.Transform{Pos: shape.V(base, base).Add(shape.V(rng.Float64()*4-2, rng.Float64()*4-2)), Rot: shape.NewRot(rng.Float64() * 7)}
		tb := shape.Transform{Pos: ta.Pos.Add(shape.V(rng.Float64()*8-4, rng.Float64()*8-4)), Rot: shape.NewRot(rng.Float64() * 7)}
		slide := c%2 == 1
		if slide && rng.IntN(2) == 0 {
			if h, ok := narrowphase.Cast(a, ta, tb.Pos.Sub(ta.Pos), b, tb); ok {
				ta.Pos = ta.Pos.Add(tb.Pos.Sub(ta.Pos).Scale(h.Fraction))
			}
		}
		if slide && narrowphase.Overlap(a, ta, b, tb) {
			continue
		}
		checked++
		aim := tb.Pos.Sub(ta.Pos)
		delta := aim.Scale(0.5 + 2*rng.Float64()).Add(shape.V(rng.Float64()*4-2, rng.Float64()*4-2))
		if rng.IntN(3) == 0 {
			delta = shape.V(-aim.Y, aim.X).Scale(rng.Float64()*2 - 1)
		}
		if ceCheck(t, a, ta, delta, b, tb, slide) {
			hits++
		}
		if t.Failed() {
			t.Logf("case %d", c)
			return
		}
	}
	t.Logf("%d casts, %d hit", checked, hits)
}

// h8PairGap returns the exact signed gap of part i of a and part j of b
// at time t of the case's sweeps (two walls never overlap: at least 0).
func h8PairGap(c *toiCase, i, j int, t float64) float64 {
	ta, tb := c.sa.At(t), c.sb.At(t)
	x, y := exParts(c.a, ta)[i], exParts(c.b, tb)[j]
	_, pen := exPen(exMinkowski(x, y))
	if len(x.pts) <= 2 && len(y.pts) <= 2 && x.r.Sign() == 0 && y.r.Sign() == 0 {
		pen = math.Min(pen, 0)
	}
	return -pen
}

// TestExactOracleTOIEnter checks TimeOfImpactEnter against dense
// sampling of the exact gap: on sweeps that start touching (placed by the
// exact first touch of a motion) and then move away, along, into or turn,
// and on random sweeps, for every kind, compounds and chains included,
// far from the origin too:
//   - TimeOfImpact is 0 where the pair touches exactly or overlaps at 0;
//   - no part pair overlaps deeper than 1e-9·size before the time given
//     (nor anywhere, when there is no hit);
//   - the pair named is within 1e-6·size of touching at that time;
//   - the pair named does not part: it overlaps (or stays within the
//     tolerance of touching) soon after, not clear of it from the next
//     thousandth of the motion on without ever overlapping.
func TestExactOracleTOIEnter(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 808))
	n := exCases(160)
	samples := 120
	if testing.Short() {
		samples = 60
	}
	total, hits, touching, startIn := 0, 0, 0, 0
	for cs := range n {
		var a, b shape.Shape
		if rng.IntN(2) == 0 {
			a, b = h8RandFloatShape(rng), h8RandFloatShape(rng)
		} else {
			a, b = exRandAnyShape(rng), exRandAnyShape(rng)
		}
		if a.Kind() == shape.KindChain && b.Kind() == shape.KindChain {
			continue
		}
		base := exBases[rng.IntN(len(exBases))]
		bv := shape.V(base, base)
		sb := exRandSweep(rng, bv.Add(exDyadV(rng, -4, 4)), 6, 2)
		if rng.IntN(2) == 0 {
			sb.P1, sb.A1 = sb.P0, sb.A0
		}
		sa := exRandSweep(rng, bv.Add(exDyadV(rng, -4, 4)), 6, 2)
		if rng.IntN(2) == 0 {
			// Start touching: a placed at its exact first touch along a
			// motion toward b (b at its start), then moved on from there.
			ta, tb := sa.At(0), sb.At(0)
			d0 := tb.Pos.Sub(ta.Pos).Scale(2)
			if frac, hit := exFirstTouch(a, ta, d0, b, tb); hit && frac > 0 {
				touching++
				p0 := ta.Pos.Add(d0.Scale(frac))
				var move shape.Vec2
				switch rng.IntN(4) {
				case 0: // away
					move = d0.Scale(-rng.Float64())
				case 1: // along
					move = shape.V(-d0.Y, d0.X).Scale(rng.Float64()*2 - 1)
				case 2: // into
					move = d0.Scale(rng.Float64() * 0.5)
				default: // away and back, by turning only
				}
				// The same start angle: the same rotation as ta's.
				a0 := sa.A0
				sa = narrowphase.Sweep{P0: p0, P1: p0.Add(move), A0: a0, A1: a0}
				if rng.IntN(2) == 0 {
					sa.A1 = a0 + (rng.Float64()*2-1)*1.5
				}
			}
		}
		for _, c := range []*toiCase{newTOICase(a, sa, b, sb), newTOICase(b, sb, a, sa)} {
			total++
			tt, pa, pb, hit := narrowphase.TimeOfImpactEnter(c.a, c.sa, c.b, c.sb)
			desc := fmt.Sprintf("case %d: %v", cs, c)
			// Touching (exactly) or overlapping at the start: TimeOfImpact
			// gives 0.
			if g := c.exactGap(0); g <= 0 {
				startIn++
				if t0, ok := narrowphase.TimeOfImpact(c.a, c.sa, c.b, c.sb); !ok || t0 != 0 {
					t.Fatalf("TimeOfImpact = %v, %v; the pair touches or overlaps at the start (gap %g): %s", t0, ok, g, desc)
				}
			}
			if math.IsNaN(tt) || tt < 0 || tt > 1 {
				t.Fatalf("TimeOfImpactEnter = %v: %s", tt, desc)
			}
			deep := -1e-9*c.size - c.grid
			tPen, pen := c.firstBelow(deep, samples)
			if !hit {
				if pen {
					t.Fatalf("TimeOfImpactEnter: no hit, but the pair overlaps by more than 1e-9·size at t = %v (gap %g): %s", tPen, c.exactGap(tPen), desc)
				}
				continue
			}
			hits++
			if pen && tt > tPen {
				t.Fatalf("TimeOfImpactEnter = %v (parts %d, %d), but the pair overlaps by more than 1e-9·size from t = %v (gap %g): %s", tt, pa, pb, tPen, c.exactGap(tPen), desc)
			}
			if pa < 0 || pa >= c.a.PartCount() || pb < 0 || pb >= c.b.PartCount() {
				t.Fatalf("TimeOfImpactEnter parts (%d, %d) out of range: %s", pa, pb, desc)
			}
			if g := h8PairGap(c, pa, pb, tt); g > 1e-6*c.size+c.grid {
				t.Fatalf("TimeOfImpactEnter = %v: parts (%d, %d) are %g apart there (size %g): %s", tt, pa, pb, g, c.size, desc)
			}
			// Does the pair named go on into overlap? Samples just after
			// the touch, then over the rest of the sweep.
			var ts []float64
			for tau := 1e-12; tau <= 1e-3; tau *= 4 {
				ts = append(ts, tt+tau)
			}
			for k := 1; k <= samples; k++ {
				ts = append(ts, tt+(1-tt)*float64(k)/float64(samples))
			}
			overlaps, clear := false, true
			for _, s := range ts {
				if s > 1 {
					continue
				}
				g := h8PairGap(c, pa, pb, s)
				if g < 0 {
					overlaps = true
					break
				}
				if s <= tt+1e-3 && g <= 1e-5*c.size+c.grid {
					clear = false
				}
			}
			if !overlaps && clear && tt+1e-3 < 1 {
				t.Errorf("TimeOfImpactEnter = %v names parts (%d, %d), which touch there but part (more than 1e-5·size apart from the next thousandth of the motion on) and never overlap: %s", tt, pa, pb, desc)
				return
			}
		}
	}
	t.Logf("%d sweeps, %d hits, %d placed at a touch, %d touching or overlapping at 0 by the exact gap", total, hits, 2*touching, startIn)
}

// TestExactOracleTOIFastSpin runs the TimeOfImpact and TimeOfImpactEnter
// oracles on fast spins (up to 60 radians a sweep) of long thin shapes
// (sticks, thin boxes, capsules, segments, compounds of them) past
// shapes of every kind, with samples dense enough for the spin (a few
// thousand over the sweep).
func TestExactOracleTOIFastSpin(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 809))
	n := exCases(60)
	samples := 3000
	if testing.Short() {
		samples = 1000
	}
	stick := func() shape.Shape {
		l := 1 + rng.Float64()*4
		w := []float64{1e-3, 1e-2, 0.1}[rng.IntN(3)]
		var s shape.Shape
		var err error
		switch rng.IntN(5) {
		case 0:
			s, err = shape.NewCapsule(shape.V(-l/2, 0), shape.V(l/2, 0), w)
		case 1:
			s, err = shape.NewSegment(shape.V(-l/2, 0.1), shape.V(l/2, -0.1))
		case 2:
			s, err = shape.NewOBB(l/2, w)
		case 3:
			s, err = shape.NewPolygon([]shape.Vec2{{X: -l / 2, Y: 0}, {X: l / 2, Y: -w}, {X: l / 2, Y: w}})
		default:
			a, _ := shape.NewCapsule(shape.V(0, 0), shape.V(l/2, 0), w)
			b, _ := shape.NewOBB(l/4, w)
			s, err = shape.NewCompound([]shape.Part{{Shape: a}, {Shape: b, Offset: shape.NewTransform(shape.V(-l/4, 0), 1)}})
		}
		if err != nil {
			panic(err)
		}
		return s
	}
	total, hits := 0, 0
	for cs := range n {
		a := stick()
		b := h8RandFloatShape(rng)
		base := exBases[rng.IntN(len(exBases)-1)]
		bv := shape.V(base, -base)
		p := bv.Add(shape.V(rng.Float64()*6-3, rng.Float64()*6-3))
		spin := (rng.Float64()*2 - 1) * 60
		sa := narrowphase.Sweep{P0: p, P1: p.Add(shape.V(rng.Float64()-0.5, rng.Float64()-0.5)), A0: rng.Float64() * 6, A1: 0}
		sa.A1 = sa.A0 + spin
		off := a.BoundingRadius() + b.BoundingRadius()*rng.Float64()
		ang := rng.Float64() * 2 * math.Pi
		q := p.Add(shape.V(math.Cos(ang), math.Sin(ang)).Scale(off))
		sb := narrowphase.Sweep{P0: q, P1: q, A0: rng.Float64(), A1: 0}
		sb.A1 = sb.A0
		for _, c := range []*toiCase{newTOICase(a, sa, b, sb), newTOICase(b, sb, a, sa)} {
			total++
			if c.check(t, samples) {
				hits++
			}
			if t.Failed() {
				t.Logf("case %d", cs)
				return
			}
			tt, _, _, hit := narrowphase.TimeOfImpactEnter(c.a, c.sa, c.b, c.sb)
			deep := -1e-9*c.size - c.grid
			if tPen, pen := c.firstBelow(deep, samples); pen && (!hit || tt > tPen) {
				t.Fatalf("case %d: TimeOfImpactEnter = %v, %v, but the pair overlaps by more than 1e-9·size from t = %v: %v", cs, tt, hit, tPen, c)
			}
		}
	}
	t.Logf("%d sweeps, %d hits", total, hits)
}

// TestExactOracleChainNeedles checks chains that turn straight back on
// themselves (needles: exact reversals on dyadic points, and turns within
// 1e-12 to 1e-6 rad of a half turn), open and closed (a closed chain of
// collinear points is a needle at both ends), against random shapes of
// every convex kind: the segments reporting a contact are those the exact
// oracle says overlap; each normal lies in the segment's cone (chainCone:
// at a needle's tip, the half-plane toward it, as at an open end); a
// contact whose normal leans toward a needle's tip or an open end is the
// lone segment's own (Collide of the segment, never replaced); none is
// shallower than the exact depth.
func TestExactOracleChainNeedles(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 810))
	n := exCases(600)
	contacts, tips := 0, 0
	for c := range n {
		pts := []shape.Vec2{exDyadV(rng, -2, 2)}
		dir := []shape.Vec2{{X: 1}, {Y: 1}, {X: 1, Y: 1}, {X: 3, Y: -4}, {X: -0.5, Y: 0.25}}[rng.IntN(5)]
		dir = dir.Scale(1 / math.Max(math.Abs(dir.X), math.Abs(dir.Y)))
		for range 2 + rng.IntN(5) {
			switch rng.IntN(4) {
			case 0: // straight back, exactly
				dir = dir.Neg()
			case 1: // back, off by a hair
				eps := math.Pow(10, -6-6*rng.Float64())
				if rng.IntN(2) == 0 {
					eps = -eps
				}
				dir = shape.NewRot(math.Pi + eps).Apply(dir)
			case 2: // a turn
				dir = shape.NewRot((rng.Float64()*2 - 1) * 2.5).Apply(dir)
			}
			pts = append(pts, pts[len(pts)-1].Add(dir.Scale(exDyad(rng, 0.5, 3))))
		}
		closed := rng.IntN(4) == 0
		chain, err := shape.NewChain(pts, closed)
		if err != nil {
			continue
		}
		cp, _ := chain.ChainPoints()
		base := exBases[rng.IntN(len(exBases)-1)]
		frame := shape.Transform{Pos: shape.V(base, -base), Rot: exRandRot(rng)}
		k := exConvexKinds[rng.IntN(len(exConvexKinds))]
		if k == shape.KindSegment {
			k = shape.KindCapsule
		}
		s := exRandShape(rng, k)
		near := cp[rng.IntN(len(cp))].Add(exDyadV(rng, -1.5, 1.5))
		tsx := shape.Transform{Pos: frame.Apply(near), Rot: exRandRot(rng)}
		desc := fmt.Sprintf("case %d: chain %v closed %v at pos %v rot (%v, %v); shape %v at pos %v rot (%v, %v)",
			c, cp, closed, frame.Pos, frame.Rot.Cos(), frame.Rot.Sin(), s, tsx.Pos, tsx.Rot.Cos(), tsx.Rot.Sin())
		got := map[int]narrowphase.Manifold{}
		narrowphase.CollideParts(chain, frame, s, tsx, func(pa, _ int, m narrowphase.Manifold) bool {
			got[pa] = m
			return true
		})
		sx := exPlace(s, tsx)
		scale := exWorldScale(chain, frame, s, tsx)
		segs := chain.PartCount()
		for i := range segs {
			seg, st := chain.Part(i, frame)
			in, pen := exPen(exMinkowski(exPlace(seg, st), sx))
			m, reported := got[i]
			if reported != in && math.Abs(pen) > 1e-9*scale {
				t.Fatalf("segment %d reported %v, exact overlap %v (depth %g): %s", i, reported, in, pen, desc)
			}
			if !reported {
				continue
			}
			contacts++
			u := frame.Rot.ApplyInv(m.Normal)
			if !chainCone(cp, closed, i, u, 1e-9) {
				t.Fatalf("segment %d normal %v (local %v) outside its normal cone: %s", i, m.Normal, u, desc)
			}
			if in && m.Depth < pen-1e-9*scale {
				t.Fatalf("segment %d depth %.17g below the exact depth %.17g: %s", i, m.Depth, pen, desc)
			}
			// Leaning toward an exposed end (open, or a needle's tip):
			// the lone segment's own contact.
			lone, _ := narrowphase.Collide(seg, st, s, tsx)
			p0, p1, _ := chain.ChainSegment(i)
			d := p1.Sub(p0).Normalize()
			ul := frame.Rot.ApplyInv(lone.Normal)
			along := ul.Dot(d)
			exposed := func(atP1 bool) bool {
				prev, next := chain.ChainLinks(i)
				nb := prev
				if atP1 {
					nb = next
				}
				if nb < 0 {
					return true
				}
				q0, q1, _ := chain.ChainSegment(nb)
				dn := q1.Sub(q0).Normalize()
				return math.Abs(d.Cross(dn)) <= 1e-9 && d.Dot(dn) < 0
			}
			if (along > 1e-6 && exposed(true)) || (along < -1e-6 && exposed(false)) {
				tips++
				if m.Normal.Sub(lone.Normal).Len() > 1e-9 || math.Abs(m.Depth-lone.Depth) > 1e-9*scale {
					t.Fatalf("segment %d: normal %v depth %.17g; leaning toward an exposed end, the lone segment gives %v, %.17g: %s",
						i, m.Normal, m.Depth, lone.Normal, lone.Depth, desc)
				}
			}
		}
	}
	t.Logf("%d cases, %d contacts, %d leaning toward an exposed end", n, contacts, tips)
}

// TestExactOracleTinyCores checks Collide, Overlap, the flip and the
// contact points against the exact oracle for capsules and segments
// whose axes are tiny (1e-15 to 1e-4 of their radius or of the other
// shape), thin polygons and boxes (1e-9 to 1e-4 thick) and circles, in
// every pair, rotated and far from the origin.
func TestExactOracleTinyCores(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 811))
	n := exCases(4000)
	tiny := func() float64 { return math.Pow(10, -15+11*rng.Float64()) }
	mk := func() shape.Shape {
		for {
			var s shape.Shape
			var err error
			c := shape.V(rng.Float64()-0.5, rng.Float64()-0.5)
			ang := rng.Float64() * 2 * math.Pi
			u := shape.V(math.Cos(ang), math.Sin(ang))
			switch rng.IntN(6) {
			case 0:
				l := tiny()
				s, err = shape.NewCapsule(c.Sub(u.Scale(l)), c.Add(u.Scale(l)), 0.2+rng.Float64())
			case 1:
				l := tiny()
				s, err = shape.NewSegment(c.Sub(u.Scale(l)), c.Add(u.Scale(l)))
			case 2:
				s, err = shape.NewOBB(0.2+rng.Float64(), tiny()*1e5)
			case 3:
				w := tiny() * 1e5
				s, err = shape.NewPolygon([]shape.Vec2{c.Sub(u), c.Add(u), c.Add(shape.V(-u.Y, u.X).Scale(w))})
			case 4:
				s, err = shape.NewCircle(0.1 + rng.Float64())
			default:
				s = exRandShape(rng, exConvexKinds[rng.IntN(len(exConvexKinds))])
			}
			if err == nil {
				return s
			}
		}
	}
	hits := 0
	for c := range n {
		a, b := mk(), mk()
		base := exBases[rng.IntN(len(exBases)-1)]
		ta := shape.Transform{Pos: shape.V(base, base).Add(shape.V(rng.Float64(), rng.Float64())), Rot: shape.NewRot(rng.Float64() * 7)}
		tb := shape.Transform{Pos: ta.Pos.Add(shape.V(rng.Float64()*3-1.5, rng.Float64()*3-1.5)), Rot: shape.NewRot(rng.Float64() * 7)}
		if exCheckCollide(t, a, ta, b, tb, 1e-9) {
			hits++
		}
		exCheckPoints(t, a, ta, b, tb, 1e-9)
		if t.Failed() {
			t.Logf("case %d", c)
			return
		}
	}
	t.Logf("%d cases, %d overlap", n, hits)
}

// h8ConeArcs returns the arcs (from, to, each less than a half turn, the
// side normal at one end) that make up the normal cone of segment i of
// the chain with points pts, on both sides, in the chain's frame, by the
// rule chainCone checks: the side normal, widened toward an open end or
// a needle's tip up to the end direction, and at a corner convex from
// that side up to the neighbour's side normal.
func h8ConeArcs(pts []shape.Vec2, closed bool, i int) [][2]shape.Vec2 {
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	p0, p1 := pts[i], pts[(i+1)%n]
	d := p1.Sub(p0).Normalize()
	var arcs [][2]shape.Vec2
	for _, side := range []float64{1, -1} {
		f := shape.V(-d.Y, d.X).Scale(side)
		lo, hi := f, f
		if !(closed || i > 0) {
			lo = d.Neg()
		} else {
			dp := p0.Sub(pts[(i-1+n)%n]).Normalize()
			if side*dp.Cross(d) < -1e-9 {
				lo = shape.V(-dp.Y, dp.X).Scale(side)
			}
			if math.Abs(dp.Cross(d)) <= 1e-9 && dp.Dot(d) < 0 {
				lo = d.Neg()
			}
		}
		if !(closed || i < segs-1) {
			hi = d
		} else {
			dn := pts[(i+2)%n].Sub(p1).Normalize()
			if side*d.Cross(dn) < -1e-9 {
				hi = shape.V(-dn.Y, dn.X).Scale(side)
			}
			if math.Abs(d.Cross(dn)) <= 1e-9 && d.Dot(dn) < 0 {
				hi = d
			}
		}
		arcs = append(arcs, [2]shape.Vec2{lo, f}, [2]shape.Vec2{f, hi})
	}
	return arcs
}

// TestExactOracleChainConeDepth checks the depth of every chain contact
// against the exact cores, by directions rather than by the code's
// candidates: the overlap along a unit u, from the segment toward the
// shape, is h_seg(u) + h_x(−u) (exact support functions), the distance
// the shape must move along u to clear the segment. Every contact's depth
// must be the overlap along its own normal, and no more than the overlap
// along any of 400 directions sampled over the segment's normal cone
// (h8ConeArcs, ends included): the contact is the least translation the
// cone allows, whether Collide's own (the least of all) or a ghost's
// replacement. Chains bend gently (1e-6 to 0.1 rad), sharply, straight
// back, or run straight; shapes of every convex kind, rotated, far away.
func TestExactOracleChainConeDepth(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 812))
	n := exCases(300)
	contacts, replaced := 0, 0
	for c := range n {
		pts := []shape.Vec2{exDyadV(rng, -2, 2)}
		heading := rng.Float64() * 2 * math.Pi
		for range 2 + rng.IntN(5) {
			switch rng.IntN(5) {
			case 0:
			case 1:
				heading += (rng.Float64()*2 - 1) * math.Pow(10, -6+5*rng.Float64())
			case 2:
				heading += math.Pi
			default:
				heading += (rng.Float64()*2 - 1) * 2.5
			}
			l := exDyad(rng, 0.25, 3)
			pts = append(pts, pts[len(pts)-1].Add(shape.V(l*math.Cos(heading), l*math.Sin(heading))))
		}
		closed := rng.IntN(4) == 0
		chain, err := shape.NewChain(pts, closed)
		if err != nil {
			continue
		}
		cp, _ := chain.ChainPoints()
		base := exBases[rng.IntN(len(exBases)-1)]
		frame := shape.Transform{Pos: shape.V(-base, base), Rot: exRandRot(rng)}
		k := exConvexKinds[rng.IntN(len(exConvexKinds))]
		if k == shape.KindSegment {
			k = shape.KindCapsule
		}
		s := exRandFacingShape(rng, k)
		near := cp[rng.IntN(len(cp))].Add(exDyadV(rng, -1.5, 1.5))
		tsx := shape.Transform{Pos: frame.Apply(near), Rot: exRandRot(rng)}
		if rng.IntN(3) == 0 {
			tsx.Rot = frame.Rot
		}
		desc := fmt.Sprintf("case %d: chain %v closed %v at pos %v rot (%v, %v); shape %v at pos %v rot (%v, %v)",
			c, cp, closed, frame.Pos, frame.Rot.Cos(), frame.Rot.Sin(), s, tsx.Pos, tsx.Rot.Cos(), tsx.Rot.Sin())
		sx := exPlace(s, tsx)
		tol := 1e-9 * exWorldScale(chain, frame, s, tsx)
		narrowphase.CollideParts(chain, frame, s, tsx, func(i, _ int, m narrowphase.Manifold) bool {
			contacts++
			seg, st := chain.Part(i, frame)
			sc := exPlace(seg, st)
			over := func(u shape.Vec2) float64 { return exSupport(sc, u) + exSupport(sx, u.Neg()) }
			if o := over(m.Normal); math.Abs(o-m.Depth) > tol {
				t.Errorf("segment %d: depth %.17g, but the overlap along its normal %v is %.17g: %s", i, m.Depth, m.Normal, o, desc)
				return false
			}
			if lone, _ := narrowphase.Collide(seg, st, s, tsx); lone.Normal != m.Normal {
				replaced++
			}
			for _, arc := range h8ConeArcs(cp, closed, i) {
				a0 := math.Atan2(arc[0].Y, arc[0].X)
				span := math.Atan2(arc[0].Cross(arc[1]), arc[0].Dot(arc[1]))
				for q := 0; q <= 100; q++ {
					u := frame.Rot.Apply(shape.NewRot(a0 + span*float64(q)/100).Apply(shape.V(1, 0)))
					if q == 0 {
						u = frame.Rot.Apply(arc[0])
					} else if q == 100 {
						u = frame.Rot.Apply(arc[1])
					}
					if o := over(u); m.Depth > o+tol {
						t.Errorf("segment %d: depth %.17g along %v, but the cone direction %v needs only %.17g: %s", i, m.Depth, m.Normal, u, o, desc)
						return false
					}
				}
			}
			return true
		})
		if t.Failed() {
			return
		}
	}
	t.Logf("%d cases, %d contacts, %d replaced by the cone", n, contacts, replaced)
}

// TestExactOracleCastFromTouchRounded places circles, capsules and
// segments against segments and capsules (whose Minkowski differences are
// a segment grown by the radii when the cores are a point and a segment,
// or parallel segments) at their exact first touch along a random motion,
// rotated, far from the origin too, and casts them on from there in random
// directions, into the touch, along it and away: Cast's fraction and
// normal against the exact oracle (exCheckCompositeCast: the normal must
// support the Minkowski difference at the touch, from b toward a), and
// CastEnter and CastSliding by ceCheck.
func TestExactOracleCastFromTouchRounded(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 813))
	n := exCases(500)
	mk := func(kinds []shape.Kind, axis shape.Vec2) shape.Shape {
		l := 0.3 + rng.Float64()*3
		c := shape.V(rng.Float64()-0.5, rng.Float64()-0.5)
		ax := axis
		if rng.IntN(2) == 0 {
			ang := rng.Float64() * 2 * math.Pi
			ax = shape.V(math.Cos(ang), math.Sin(ang))
		}
		for {
			var s shape.Shape
			var err error
			switch kinds[rng.IntN(len(kinds))] {
			case shape.KindCircle:
				s, err = shape.NewOffsetCircle(c, 0.05+rng.Float64())
			case shape.KindCapsule:
				s, err = shape.NewCapsule(c.Sub(ax.Scale(l/2)), c.Add(ax.Scale(l/2)), 0.05+rng.Float64())
			default:
				s, err = shape.NewSegment(c.Sub(ax.Scale(l/2)), c.Add(ax.Scale(l/2)))
			}
			if err == nil {
				return s
			}
		}
	}
	placed, hits := 0, 0
	for c := range n {
		ang := rng.Float64() * 2 * math.Pi
		axis := shape.V(math.Cos(ang), math.Sin(ang))
		a := mk([]shape.Kind{shape.KindCircle, shape.KindCapsule, shape.KindSegment}, axis)
		b := mk([]shape.Kind{shape.KindSegment, shape.KindCapsule}, axis)
		if a.Kind() == shape.KindSegment && b.Kind() == shape.KindSegment {
			continue
		}
		base := exBases[rng.IntN(len(exBases)-1)]
		rot := shape.NewRot(rng.Float64() * 7)
		ta := shape.Transform{Pos: shape.V(base, -base).Add(shape.V(rng.Float64(), rng.Float64())), Rot: rot}
		tb := shape.Transform{Pos: ta.Pos.Add(shape.V(rng.Float64()*6-3, rng.Float64()*6-3)), Rot: rot}
		if rng.IntN(3) == 0 {
			tb.Rot = shape.NewRot(rng.Float64() * 7)
		}
		d0 := tb.Pos.Sub(ta.Pos).Scale(2).Add(shape.V(rng.Float64()-0.5, rng.Float64()-0.5))
		o := exCast(exPlace(a, ta), d0, exPlace(b, tb))
		if !o.hit || o.frac == 0 {
			continue
		}
		ta.Pos = ta.Pos.Add(d0.Scale(o.frac))
		placed++
		for range 4 {
			dang := rng.Float64() * 2 * math.Pi
			delta := shape.V(math.Cos(dang), math.Sin(dang)).Scale(0.1 + 3*rng.Float64())
			if exCheckCompositeCast(t, a, ta, delta, b, tb, 1e-9) {
				hits++
			}
			if narrowphase.Overlap(a, ta, b, tb) {
				continue
			}
			ceCheck(t, a, ta, delta, b, tb, false)
			ceCheck(t, a, ta, delta, b, tb, true)
			if t.Failed() {
				t.Logf("case %d", c)
				return
			}
		}
	}
	t.Logf("%d pairs placed at a touch, %d casts hit", placed, hits)
}

// h8NeighbourNormal reports whether the world normal n, pointing from
// chain segment i toward the other shape, is (to 1e-15) the unit normal
// of a neighbour of segment i, either side, and not segment i's own.
func h8NeighbourNormal(chain shape.Shape, frame shape.Transform, i int, n shape.Vec2) bool {
	near := func(a, b shape.Vec2) bool { return a.Sub(b).Len() <= 1e-15 || a.Add(b).Len() <= 1e-15 }
	_, _, own := chain.ChainSegment(i)
	if near(frame.Rot.Apply(own), n) {
		return false
	}
	prev, next := chain.ChainLinks(i)
	for _, k := range []int{prev, next} {
		if k < 0 {
			continue
		}
		if _, _, nk := chain.ChainSegment(k); near(frame.Rot.Apply(nk), n) {
			return true
		}
	}
	return false
}
