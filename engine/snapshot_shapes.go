package engine

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/collide-go/collide/shape"
)

// The snapshot encoding of the kinds after the polygon, after the kind
// byte:
//
//	capsule   p0.x p0.y p1.x p1.y radius (float64s)
//	segment   p0.x p0.y p1.x p1.y
//	compound  u32 part count, then per part: its shape (kind byte and
//	          fields, a circle, OBB, polygon, capsule or segment), its
//	          offset's position x, y and rotation cos−1, sin (float64s)
//	chain     u8 closed, u32 point count, then the points' x, y
//
// The decoder rebuilds each shape with its constructor and refuses bytes
// the constructor would not give back unchanged.

// appendShapeExt appends a capsule, segment, compound or chain's fields.
func appendShapeExt(dst []byte, sh shape.Shape) []byte {
	le := binary.LittleEndian
	switch sh.Kind() {
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := sh.Segment()
		dst = appendF64(appendF64(appendF64(appendF64(dst, p0.X), p0.Y), p1.X), p1.Y)
		if sh.Kind() == shape.KindCapsule {
			dst = appendF64(dst, sh.Radius())
		}
	case shape.KindCompound:
		parts := sh.Parts()
		dst = le.AppendUint32(dst, uint32(len(parts)))
		for _, p := range parts {
			dst = appendShape(dst, p.Shape)
			o := p.Offset
			dst = appendF64(appendF64(dst, o.Pos.X), o.Pos.Y)
			dst = appendF64(appendF64(dst, o.Rot.CosMinusOne()), o.Rot.Sin())
		}
	case shape.KindChain:
		pts, closed := sh.ChainPoints()
		dst = append(dst, b2u(closed))
		dst = le.AppendUint32(dst, uint32(len(pts)))
		for _, p := range pts {
			dst = appendF64(appendF64(dst, p.X), p.Y)
		}
	}
	return dst
}

// shapeExt reads the fields of a capsule, segment, compound or chain.
func (r *reader) shapeExt(kind shape.Kind) (shape.Shape, error) {
	switch kind {
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := shape.V(r.f64(), r.f64()), shape.V(r.f64(), r.f64())
		if kind == shape.KindSegment {
			if r.err != nil {
				return shape.Shape{}, nil
			}
			return shape.NewSegment(p0, p1)
		}
		rad := r.f64()
		if r.err != nil {
			return shape.Shape{}, nil
		}
		return shape.NewCapsule(p0, p1, rad)
	case shape.KindCompound:
		// A part is at least a kind byte, two floats and an offset.
		n := r.count("compound parts", 1+2*8+4*8)
		if r.err != nil {
			return shape.Shape{}, nil
		}
		parts := make([]shape.Part, n)
		for i := range parts {
			// Parts are simple shapes: refuse a nested composite before
			// reading it, so that crafted bytes cannot nest deeply.
			if len(r.p) > 0 && !shape.Kind(r.p[0]).Convex() {
				r.fail("compound part %d of kind %d", i, r.p[0])
				return shape.Shape{}, nil
			}
			ps := r.shape()
			pos := shape.V(r.f64(), r.f64())
			rot := shape.RotFromCosMinusOneSin(r.f64(), r.f64())
			if r.err != nil {
				return shape.Shape{}, nil
			}
			parts[i] = shape.Part{Shape: ps, Offset: shape.Transform{Pos: pos, Rot: rot}}
		}
		return shape.NewCompound(parts)
	case shape.KindChain:
		closed := r.u8()
		n := r.count("chain points", 16)
		if r.err != nil {
			return shape.Shape{}, nil
		}
		if closed > 1 {
			r.fail("chain closed flag %d", closed)
			return shape.Shape{}, nil
		}
		pts := make([]shape.Vec2, n)
		for i := range pts {
			pts[i] = shape.V(r.f64(), r.f64())
		}
		if r.err != nil {
			return shape.Shape{}, nil
		}
		sh, err := shape.NewChain(pts, closed == 1)
		if got, _ := sh.ChainPoints(); err == nil && !slices.Equal(got, pts) {
			err = errors.New("chain points not as NewChain leaves them")
		}
		return sh, err
	}
	r.fail("unknown shape kind %d", kind)
	return shape.Shape{}, nil
}

// shapeExt hashes a capsule, segment, compound or chain's fields, as
// appendShapeExt encodes them.
func (h *fnvHash) shapeExt(sh shape.Shape) {
	switch sh.Kind() {
	case shape.KindCapsule, shape.KindSegment:
		p0, p1 := sh.Segment()
		h.f64(p0.X)
		h.f64(p0.Y)
		h.f64(p1.X)
		h.f64(p1.Y)
		h.f64(sh.Radius())
	case shape.KindCompound:
		h.word(uint64(len(sh.Parts())))
		for _, p := range sh.Parts() {
			h.shape(p.Shape)
			h.f64(p.Offset.Pos.X)
			h.f64(p.Offset.Pos.Y)
			h.f64(p.Offset.Rot.CosMinusOne())
			h.f64(p.Offset.Rot.Sin())
		}
	case shape.KindChain:
		pts, closed := sh.ChainPoints()
		h.word(uint64(len(pts))<<1 | uint64(b2u(closed)))
		for _, p := range pts {
			h.f64(p.X)
			h.f64(p.Y)
		}
	}
}
