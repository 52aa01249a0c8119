package narrowphase

import (
	"math"

	"github.com/collide-go/collide/shape"
)

// This file places touchApart's shapes: each point of a convex core in
// floats, in double-doubles and exactly (an expansion), as the
// transforms' numbers describe it.

// xcore is a convex shape's core as touchApart reads it: its outline's
// local points (a point for a circle, two for a capsule or segment), its
// radius, its placement (v goes to pos + rot·(off.Pos + off.Rot·v),
// relative to the origin o), the points placed in floats, w, whose terms
// mag bounds, and, once needed (placed), the placement in double-doubles.
type xcore struct {
	poly   []shape.Vec2  // a polygon's vertices, shared
	few    [4]shape.Vec2 // the points of the other kinds
	w      [shape.MaxPolygonVertices]shape.Vec2
	dR     [2][2]dd // the placement in double-doubles (ddPlace)
	dT     [2]dd
	placed bool
	n      int
	r      float64
	t, off shape.Transform
	o      shape.Vec2
	mag    float64
}

// set places convex shape s by t times off, relative to o.
func (k *xcore) set(s shape.Shape, t, off shape.Transform, o shape.Vec2) {
	k.t, k.off, k.o = s.EffectiveTransform(t), off, o
	switch s.Kind() {
	case shape.KindCircle:
		k.few[0], k.n, k.r = s.Center(), 1, s.Radius()
	case shape.KindAABB, shape.KindOBB:
		cornersInto(&k.few, &s)
		k.n = 4
	case shape.KindPolygon:
		k.poly = s.Vertices()
		k.n = len(k.poly)
	default:
		k.few[0], k.few[1] = s.Segment()
		k.n, k.r = 2, s.Radius()
	}
	d := k.t.Pos.Sub(o)
	c, sn := k.t.Rot.Cos(), k.t.Rot.Sin()
	moved := off != shape.Identity
	reach := 0.0
	for i := range k.n {
		v := k.local(i)
		reach = max(reach, math.Abs(v.X)+math.Abs(v.Y))
		if moved {
			v = off.Apply(v)
		}
		k.w[i] = shape.Vec2{X: (float64(c*v.X) - float64(sn*v.Y)) + d.X, Y: (float64(sn*v.X) + float64(c*v.Y)) + d.Y}
	}
	k.mag = math.Abs(d.X) + math.Abs(d.Y) + float64(2*(math.Abs(off.Pos.X)+math.Abs(off.Pos.Y))) + float64(3*reach)
}

// local returns local point i.
func (k *xcore) local(i int) shape.Vec2 {
	if k.poly != nil {
		return k.poly[i]
	}
	return k.few[i]
}

// coordTerms calls fn with the terms whose sum is coordinate X (or Y,
// with y) of point i, each a product a·b·c of floats (the position's
// difference from the origin split by twoSum, then the rotations'
// cosines and sines times the offset and the local point):
// x = p + c·(ox + co·vx − so·vy) − s·(oy + so·vx + co·vy), and y alike
// with c, s turned to s, −c.
func (k *xcore) coordTerms(i int, y bool, fn func(a, b, c float64)) {
	v, op := k.local(i), k.off.Pos
	c, s := k.t.Rot.Cos(), k.t.Rot.Sin()
	co, so := k.off.Rot.Cos(), k.off.Rot.Sin()
	p, o := k.t.Pos.X, k.o.X
	if y {
		p, o = k.t.Pos.Y, k.o.Y
		c, s = s, -c
	}
	h, l := twoSum(p, -o)
	fn(l, 1, 1)
	fn(h, 1, 1)
	fn(c, op.X, 1)
	fn(-s, op.Y, 1)
	fn(c, co, v.X)
	fn(-c, so, v.Y)
	fn(-s, so, v.X)
	fn(-s, co, v.Y)
}

// addCoord adds sg (±1) times coordinate X (or Y, with y) of point i,
// exactly, to z.
func (k *xcore) addCoord(z *xnum, i int, y bool, sg float64) {
	k.coordTerms(i, y, func(a, b, c float64) {
		if b == 1 && c == 1 {
			z.add(sg * a) // the position's terms: no product to range-check
			return
		}
		z.addProd3(sg*a, b, c)
	})
}

// ddCoord returns coordinate X (or Y, with y) of point i as a
// double-double, within 2⁻⁹⁸·mag of it: T + R·v, with R (the body's
// rotation times the offset's) and T (the position's difference from the
// origin plus the body's rotation times the offset's position) set once
// per core in double-doubles (ddPlace), each product and sum within a
// few ε² of its operands.
func (k *xcore) ddCoord(i int, y bool) dd {
	if !k.placed {
		k.ddPlace()
	}
	v, j := k.local(i), b2u(y)
	return ddAdd(k.dT[j], ddAdd(ddMulF(k.dR[j][0], v.X), ddMulF(k.dR[j][1], v.Y)))
}

// ddPlace sets k.dR and k.dT, the placement in double-doubles: rows
// (c·co − s·so, −c·so − s·co) and (s·co + c·so, c·co − s·so), and
// p − o + (c·ox − s·oy, s·ox + c·oy); without an offset, (c, −s),
// (s, c) and p − o.
func (k *xcore) ddPlace() {
	c, s := k.t.Rot.Cos(), k.t.Rot.Sin()
	h, l := twoSum(k.t.Pos.X, -k.o.X)
	k.dT[0] = dd{h, l}
	h, l = twoSum(k.t.Pos.Y, -k.o.Y)
	k.dT[1] = dd{h, l}
	k.placed = true
	if k.off == shape.Identity {
		k.dR = [2][2]dd{{{c, 0}, {-s, 0}}, {{s, 0}, {c, 0}}}
		return
	}
	co, so := k.off.Rot.Cos(), k.off.Rot.Sin()
	cc, ss, cs, sc := ddProd(c, co), ddProd(s, so), ddProd(c, so), ddProd(s, co)
	k.dR[0] = [2]dd{ddSub(cc, ss), ddNeg(ddAdd(cs, sc))}
	k.dR[1] = [2]dd{ddAdd(sc, cs), ddSub(cc, ss)}
	op := k.off.Pos
	k.dT[0] = ddAdd(k.dT[0], ddAdd(ddProd(c, op.X), ddProd(-s, op.Y)))
	k.dT[1] = ddAdd(k.dT[1], ddAdd(ddProd(s, op.X), ddProd(c, op.Y)))
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint {
	if b {
		return 1
	}
	return 0
}

// tpt names point i of core k.
type tpt struct {
	k *xcore
	i int
}

// f returns the point in floats.
func (p tpt) f() shape.Vec2 { return p.k.w[p.i] }

// ddDiff returns p − q in double-doubles, X and Y.
func ddDiff(p, q tpt) (dx, dy dd) {
	return ddSub(p.k.ddCoord(p.i, false), q.k.ddCoord(q.i, false)), ddSub(p.k.ddCoord(p.i, true), q.k.ddCoord(q.i, true))
}

// diff sets z to coordinate X (or Y, with y) of p minus that of q,
// exactly.
func diff(z *xnum, p, q tpt, y bool) {
	p.k.addCoord(z, p.i, y, 1)
	q.k.addCoord(z, q.i, y, -1)
	z.compress()
}
