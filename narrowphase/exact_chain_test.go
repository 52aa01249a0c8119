package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// This file checks chains against the contract of NewChain and
// CollideParts with oracles that do not go through the chain code:
//
//   - a chain of collinear pieces (uneven lengths, tiny pieces, lines of
//     several directions) against one long segment over the same line:
//     wherever the long segment's normal is its face normal, every contact
//     of every piece has that normal and the long segment's depth, for
//     shapes of every convex kind at any angle, resting shallow or sunk
//     deep, on either side, near the ends and far from the origin;
//   - every contact's normal lies in its segment's normal cone, built here
//     from the points: the side normal, widened toward an open end up to
//     the end direction, and at a linked corner up to the neighbour's side
//     normal when the corner is convex from that side (more than a
//     quarter turn from the side normal at a sharp corner), up to the end
//     direction where the chain turns straight back (a needle's tip);
//   - the segments that report a contact are exactly those that overlap
//     the shape by the exact oracle.

// chainCone reports whether the unit u lies in the normal cone of segment
// i of the chain with points pts (closed or not), on either side, to tol.
func chainCone(pts []shape.Vec2, closed bool, i int, u shape.Vec2, tol float64) bool {
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	p0, p1 := pts[i], pts[(i+1)%n]
	d := p1.Sub(p0).Normalize()
	for _, side := range []float64{1, -1} {
		f := shape.V(-d.Y, d.X).Scale(side) // left for +1
		// The bound toward p0 (direction −d) and toward p1 (+d).
		lo, hi := f, f
		prevOK := closed || i > 0
		nextOK := closed || i < segs-1
		if !prevOK {
			lo = d.Neg()
		} else {
			q0 := pts[(i-1+n)%n]
			dp := p0.Sub(q0).Normalize()
			// Convex from side f: the chain turns away from f at p0.
			if side*dp.Cross(d) < -tol {
				lo = shape.V(-dp.Y, dp.X).Scale(side)
			}
			// Turning straight back (a needle's tip: convex from both
			// sides, though the cross product is 0 there as on a
			// straight run): as exposed as an open end.
			if math.Abs(dp.Cross(d)) <= tol && dp.Dot(d) < 0 {
				lo = d.Neg()
			}
		}
		if !nextOK {
			hi = d
		} else {
			q1 := pts[(i+2)%n]
			dn := q1.Sub(p1).Normalize()
			if side*d.Cross(dn) < -tol {
				hi = shape.V(-dn.Y, dn.X).Scale(side)
			}
			if math.Abs(d.Cross(dn)) <= tol && d.Dot(dn) < 0 {
				hi = d // a needle's tip, as above
			}
		}
		// u between lo and hi through f (each half less than a half turn).
		inHalf := func(a, b shape.Vec2) bool { // the cone from a to b containing f
			if a.Cross(b) >= 0 {
				return a.Cross(u) >= -tol && u.Cross(b) >= -tol
			}
			return a.Cross(u) <= tol && u.Cross(b) <= tol
		}
		if inHalf(lo, f) || inHalf(f, hi) {
			return true
		}
	}
	return false
}

// TestExactOracleChainCollinear compares every contact of random shapes
// with chains of collinear pieces against one long segment over the line.
func TestExactOracleChainCollinear(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 21))
	n := exCases(1500)
	checked, ties := 0, 0
	for c := range n {
		// The line: from a through a + L·dir, dir of dyadic slope or axis.
		dirs := []shape.Vec2{{X: 1}, {Y: 1}, {X: -1}, {X: 1, Y: 1}, {X: 3, Y: -4}, {X: 0.5, Y: 0.125}}
		dir := dirs[rng.IntN(len(dirs))]
		count := 2 + rng.IntN(10)
		var ts []float64 // parameters of the points along the line
		x := 0.0
		for range count + 1 {
			ts = append(ts, x)
			switch rng.IntN(6) {
			case 0:
				x += 1.0 / 1024 // a tiny piece
			case 1:
				x += 1.0 / (1 << 20)
			default:
				x += exDyad(rng, 0.25, 3)
			}
		}
		pts := make([]shape.Vec2, len(ts))
		for i, s := range ts {
			pts[i] = dir.Scale(s)
		}
		chain, err := shape.NewChain(pts, false)
		if err != nil {
			t.Fatalf("NewChain: %v", err)
		}
		long, _ := shape.NewSegment(pts[0], pts[len(pts)-1])
		base := exBases[rng.IntN(len(exBases)-1)] // not 1e12: a piece of 2^-20 is below its grid
		frame := shape.Transform{Pos: shape.V(base, base), Rot: exRandRot(rng)}
		k := exConvexKinds[rng.IntN(len(exConvexKinds))]
		if k == shape.KindSegment {
			k = shape.KindCapsule // segments never collide with segments
		}
		s := exRandShape(rng, k)
		// Anywhere along the line, ends included, a little off it.
		along := (rng.Float64()*1.2 - 0.1) * x
		off := exDyad(rng, -1.5, 1.5)
		normal := shape.V(-dir.Y, dir.X).Normalize()
		local := dir.Scale(along).Add(normal.Scale(off))
		tsx := shape.Transform{Pos: frame.Apply(local), Rot: exRandRot(rng)}
		want, ok := narrowphase.Collide(long, frame, s, tsx)
		got := chainContacts(chain, frame, s, tsx)
		if ok && want.Depth <= 1e-9*exLocalScale(long, frame, s, tsx) {
			continue
		}
		if !ok {
			if len(got) != 0 {
				// The long segment and its pieces are the same set: the
				// pieces may only overlap where it does, up to rounding.
				for _, g := range got {
					if g.m.Depth > 1e-9*exLocalScale(long, frame, s, tsx) {
						t.Fatalf("case %d: the long segment does not collide, segment %d gives %+v\n\tchain %v at %v\n\tshape %v at %v",
							c, g.seg, g.m, pts, frame, s, tsx)
					}
				}
			}
			continue
		}
		if len(got) == 0 {
			t.Fatalf("case %d: no chain contact, the long segment gives %+v\n\tchain %v at %v\n\tshape %v at %v",
				c, want, pts, frame, s, tsx)
		}
		scale := exLocalScale(long, frame, s, tsx)
		// The promise holds where the long segment's own normal is its
		// face normal: where it is a shape's face pushing sideways past
		// an end, the inner pieces keep to their face normals (their
		// cones have no other direction) and give other answers. Contacts
		// within rounding of touching are left to the exact tests.
		face := frame.Rot.Apply(normal)
		if math.Abs(want.Normal.Cross(face)) > 1e-12 || want.Depth <= 1e-9*scale {
			continue
		}
		checked++
		deepest := 0.0
		for _, g := range got {
			deepest = math.Max(deepest, g.m.Depth)
			wn := want.Normal
			if g.m.Normal.Add(wn).Len() <= 1e-9 && math.Abs(g.m.Depth-want.Depth) <= 1e-9*scale {
				// An exact tie between the two sides (the shape sunk
				// equally far from both): either face normal is the MTV.
				ties++
				wn = wn.Neg()
			}
			if g.m.Normal.Sub(wn).Len() > 1e-9 {
				t.Errorf("case %d: segment %d normal %v depth %.17g; the long segment gives %v, %.17g\n\tchain %v (pieces %v) at pos %v rot (%v, %v)\n\tshape %v at pos %v rot (%v, %v)",
					c, g.seg, g.m.Normal, g.m.Depth, want.Normal, want.Depth, pts, ts, frame.Pos, frame.Rot.Cos(), frame.Rot.Sin(), s, tsx.Pos, tsx.Rot.Cos(), tsx.Rot.Sin())
				return
			}
			if g.m.Depth > want.Depth+1e-9*scale {
				t.Errorf("case %d: segment %d depth %.17g deeper than the long segment's %.17g\n\tchain %v at %v\n\tshape %v at %v",
					c, g.seg, g.m.Depth, want.Depth, pts, frame, s, tsx)
				return
			}
		}
		if math.Abs(deepest-want.Depth) > 1e-9*scale {
			t.Errorf("case %d: deepest chain contact %.17g, the long segment's depth %.17g\n\tchain %v at %v\n\tshape %v at %v",
				c, deepest, want.Depth, pts, frame, s, tsx)
			return
		}
		if m, ok := narrowphase.Collide(chain, frame, s, tsx); !ok || (m.Normal.Sub(want.Normal).Len() > 1e-9 && m.Normal.Add(want.Normal).Len() > 1e-9) || math.Abs(m.Depth-want.Depth) > 1e-9*scale {
			t.Errorf("case %d: Collide(chain) = %+v, %v; the long segment %+v", c, m, ok, want)
			return
		}
	}
	t.Logf("%d of %d cases in contact with the long segment's face, %d contacts at a tie of the two sides", checked, n, ties)
}

// TestExactOracleChainCone checks random chains (open and closed, gentle
// and sharp bends, collinear runs) against random shapes: the segments
// that report a contact are those the exact oracle says overlap, and each
// normal lies in its segment's normal cone.
func TestExactOracleChainCone(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 22))
	n := exCases(300)
	contacts := 0
	for c := range n {
		count := 3 + rng.IntN(6)
		pts := []shape.Vec2{exDyadV(rng, -2, 2)}
		heading := rng.Float64() * 2 * math.Pi
		for range count - 1 {
			switch rng.IntN(4) {
			case 0: // straight on
			case 1: // a gentle bend
				heading += (rng.Float64()*2 - 1) * 0.1
			default:
				heading += (rng.Float64()*2 - 1) * 2.5
			}
			l := exDyad(rng, 0.5, 3)
			pts = append(pts, pts[len(pts)-1].Add(shape.V(l*math.Cos(heading), l*math.Sin(heading))))
		}
		closed := rng.IntN(3) == 0
		chain, err := shape.NewChain(pts, closed)
		if err != nil {
			continue
		}
		cp, _ := chain.ChainPoints()
		base := exBases[rng.IntN(len(exBases))]
		frame := shape.Transform{Pos: shape.V(base, -base), Rot: exRandRot(rng)}
		k := exConvexKinds[rng.IntN(len(exConvexKinds))]
		if k == shape.KindSegment {
			k = shape.KindCircle
		}
		s := exRandShape(rng, k)
		near := cp[rng.IntN(len(cp))].Add(exDyadV(rng, -1.5, 1.5))
		tsx := shape.Transform{Pos: frame.Apply(near), Rot: exRandRot(rng)}
		desc := fmt.Sprintf("chain %v closed %v at pos %v rot (%v, %v); shape %v at pos %v rot (%v, %v)",
			cp, closed, frame.Pos, frame.Rot.Cos(), frame.Rot.Sin(), s, tsx.Pos, tsx.Rot.Cos(), tsx.Rot.Sin())
		got := map[int]narrowphase.Manifold{}
		narrowphase.CollideParts(chain, frame, s, tsx, func(pa, _ int, m narrowphase.Manifold) bool {
			got[pa] = m
			return true
		})
		sx := exPlace(s, tsx)
		scale := exWorldScale(chain, frame, s, tsx)
		for i := range chain.PartCount() {
			seg, st := chain.Part(i, frame)
			in, pen := exPen(exMinkowski(exPlace(seg, st), sx))
			m, reported := got[i]
			if reported != in && math.Abs(pen) > 1e-9*scale {
				t.Fatalf("case %d: segment %d reported %v, exact overlap %v (depth %g): %s", c, i, reported, in, pen, desc)
			}
			if !reported {
				continue
			}
			contacts++
			if math.Abs(m.Normal.Len()-1) > 1e-12 {
				t.Fatalf("case %d: segment %d normal %v is not a unit vector: %s", c, i, m.Normal, desc)
			}
			if !(m.Depth > 0) {
				t.Fatalf("case %d: segment %d depth %v: %s", c, i, m.Depth, desc)
			}
			u := frame.Rot.ApplyInv(m.Normal)
			if !chainCone(cp, closed, i, u, 1e-9) {
				t.Fatalf("case %d: segment %d normal %v (local %v) outside its normal cone: %s", c, i, m.Normal, u, desc)
			}
			// Never shallower than the exact lone-segment depth.
			if in && m.Depth < pen-1e-9*scale {
				t.Fatalf("case %d: segment %d depth %.17g below the exact depth %.17g: %s", c, i, m.Depth, pen, desc)
			}
		}
	}
	t.Logf("%d cases, %d contacts", n, contacts)
}
