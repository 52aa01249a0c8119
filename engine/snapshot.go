package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// ErrSnapshot reports bytes UnmarshalBinary cannot restore: not a snapshot,
// a version it does not know, or a snapshot that is truncated or
// inconsistent.
var ErrSnapshot = errors.New("engine: invalid snapshot")

// The snapshot format, version 1. All numbers are little-endian; floats are
// IEEE 754 bits, so the bytes are the same on every CPU.
//
//	header    "CLDW", version u16 (1), reserved u16 (0)
//	config    margin f64, motion frames f64 (as configured)
//	shapes    count u32, then per shape: kind u8 and its numbers
//	          (circle: centre x, y and radius; box: half extents; polygon:
//	          vertex count u8 and the vertices), each distinct shape once
//	slots     count u32, then per slot: generation u32, flags u8, and for a
//	          live or removed body: shape index u32, position x, y f64,
//	          angle f64, category u32, mask u32
//	lists     free, dying, dead and moved slots: each a count u32 and u32s
//	bullets   count u32, then per bullet: slot u32, previous x, y, angle
//	contacts  the last Step's contacts, then the step before's: each a
//	          count u32 and per contact ids A, B u64, normal x, y, depth,
//	          point count u8, two points (x, y, depth), sensor u8, swept u8,
//	          TOI f64
//	events    began and ended: each a count u32 and u32 indexes
//
// User values are not encoded.
const (
	snapMagic   = "CLDW"
	snapVersion = 2
)

// Slot flags in a snapshot.
const snapFlags = flagAlive | flagStatic | flagSensor | flagMoved | flagRemoved | flagBullet

// contactSize is the bytes of one encoded contact.
const contactSize = 8 + 8 + 4 + 4 + 3*8 + 1 + 2*3*8 + 1 + 1 + 8

// AppendBinary appends the world's state to dst (see MarshalBinary).
func (w *World) AppendBinary(dst []byte) ([]byte, error) {
	le := binary.LittleEndian
	b := &w.b
	dst = append(dst, snapMagic...)
	dst = le.AppendUint16(dst, snapVersion)
	dst = le.AppendUint16(dst, 0)
	dst = appendF64(dst, w.cfg.Margin)
	dst = appendF64(dst, w.cfg.MotionFrames)

	// Shapes, each distinct one once (by content, so that a restored world,
	// whose bodies share the decoded shapes, encodes the same bytes), in
	// order of first use by slot.
	index := map[string]uint32{}
	slotShape := make([]uint32, len(b.hot))
	var table []byte
	var key []byte
	for s := range b.hot {
		if b.hot[s].flags&(flagAlive|flagRemoved) == 0 {
			continue
		}
		key = appendShape(key[:0], b.shapes[s])
		k, ok := index[string(key)]
		if !ok {
			k = uint32(len(index))
			index[string(key)] = k
			table = append(table, key...)
		}
		slotShape[s] = k
	}
	dst = le.AppendUint32(dst, uint32(len(index)))
	dst = append(dst, table...)

	dst = le.AppendUint32(dst, uint32(len(b.hot)))
	for s := range b.hot {
		h := &b.hot[s]
		dst = le.AppendUint32(dst, h.gen)
		dst = append(dst, h.flags)
		if h.flags&(flagAlive|flagRemoved) == 0 {
			continue
		}
		dst = le.AppendUint32(dst, slotShape[s])
		dst = appendF64(dst, b.xf[s].Pos.X)
		dst = appendF64(dst, b.xf[s].Pos.Y)
		dst = appendF64(dst, b.angle[s])
		dst = le.AppendUint32(dst, b.filter[s].cat)
		dst = le.AppendUint32(dst, b.filter[s].mask)
	}
	for _, l := range [][]int32{b.free, b.dying, b.dead, b.moved} {
		dst = appendSlots(dst, l)
	}
	bslots, bprev := w.bulletLists()
	dst = le.AppendUint32(dst, uint32(len(bslots)))
	for i, s := range bslots {
		p := bprev[i]
		dst = le.AppendUint32(dst, uint32(s))
		dst = appendF64(dst, p.pos.X)
		dst = appendF64(dst, p.pos.Y)
		dst = appendF64(dst, p.angle)
	}
	for _, cs := range [][]Contact{w.contacts, w.prev} {
		dst = le.AppendUint32(dst, uint32(len(cs)))
		for i := range cs {
			dst = appendContact(dst, &cs[i])
		}
	}
	for _, l := range [][]int32{w.began, w.ended} {
		dst = appendSlots(dst, l)
	}
	return dst, nil
}

// MarshalBinary returns the world's state: bodies and their ids (with
// generations and free slots, so that ids stay valid, stale ids stay stale
// and Add hands out the ids the original would), shapes, filters, kinds,
// sensors, bullets and where they were at the last Step, moves pending
// since it, and the last Step's contacts and events. User values are not
// encoded. The format is versioned and the same on every CPU; see the
// package documentation. It needs no more access than a query.
func (w *World) MarshalBinary() ([]byte, error) { return w.AppendBinary(nil) }

// StateHash returns a 64-bit hash of the state MarshalBinary encodes (FNV-1a
// over the same fields as little-endian words, each body's shape by its
// numbers): the same for any worker count and on every CPU, so lockstep
// peers and replays can compare it every frame. It allocates nothing.
func (w *World) StateHash() uint64 {
	h := fnvHash(fnvOffset)
	b := &w.b
	h.word(uint64(len(b.hot)))
	for s := range b.hot {
		hb := &b.hot[s]
		h.word(uint64(hb.gen)<<8 | uint64(hb.flags))
		if hb.flags&(flagAlive|flagRemoved) == 0 {
			continue
		}
		h.shape(b.shapes[s])
		h.f64(b.xf[s].Pos.X)
		h.f64(b.xf[s].Pos.Y)
		h.f64(b.angle[s])
		h.word(uint64(b.filter[s].cat)<<32 | uint64(b.filter[s].mask))
	}
	for _, l := range [][]int32{b.free, b.dying, b.dead, b.moved, w.began, w.ended} {
		h.word(uint64(len(l)))
		for _, x := range l {
			h.word(uint64(uint32(x)))
		}
	}
	bslots, bprev := w.bulletLists()
	for i, s := range bslots {
		p := bprev[i]
		h.word(uint64(s))
		h.f64(p.pos.X)
		h.f64(p.pos.Y)
		h.f64(p.angle)
	}
	for _, cs := range [][]Contact{w.contacts, w.prev} {
		h.word(uint64(len(cs)))
		for i := range cs {
			c := &cs[i]
			m := &c.Manifold
			h.word(uint64(c.A))
			h.word(uint64(c.B))
			h.word(uint64(uint32(c.PartA))<<32 | uint64(uint32(c.PartB)))
			h.f64(m.Normal.X)
			h.f64(m.Normal.Y)
			h.f64(m.Depth)
			h.word(uint64(m.Count)<<16 | uint64(b2u(c.Sensor))<<8 | uint64(b2u(c.Swept)))
			for _, p := range m.Points {
				h.f64(p.Point.X)
				h.f64(p.Point.Y)
				h.f64(p.Depth)
			}
			h.f64(c.TOI)
		}
	}
	return uint64(h)
}

// fnvHash is 64-bit FNV-1a, fed little-endian words.
type fnvHash uint64

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (h *fnvHash) word(x uint64) {
	v := *h
	for range 8 {
		v ^= fnvHash(x & 0xff)
		v *= fnvPrime
		x >>= 8
	}
	*h = v
}

func (h *fnvHash) f64(f float64) { h.word(math.Float64bits(f)) }

// shape hashes a shape's kind and numbers.
func (h *fnvHash) shape(sh shape.Shape) {
	h.word(uint64(sh.Kind()))
	switch sh.Kind() {
	case shape.KindCircle:
		h.f64(sh.Center().X)
		h.f64(sh.Center().Y)
		h.f64(sh.Radius())
	case shape.KindAABB, shape.KindOBB:
		h.f64(sh.HalfExtents().X)
		h.f64(sh.HalfExtents().Y)
	case shape.KindPolygon:
		for _, v := range sh.Vertices() {
			h.f64(v.X)
			h.f64(v.Y)
		}
	default:
		h.shapeExt(sh)
	}
}

func appendF64(dst []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
}

// bulletLists returns the world's bullets and their previous places (nil
// when it never had a bullet).
func (w *World) bulletLists() ([]int32, []bulletPrev) {
	if w.bullets == nil {
		return nil, nil
	}
	return w.bullets.slots, w.bullets.prev
}

func appendSlots(dst []byte, l []int32) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(l)))
	for _, s := range l {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(s))
	}
	return dst
}

func appendShape(dst []byte, sh shape.Shape) []byte {
	dst = append(dst, byte(sh.Kind()))
	switch sh.Kind() {
	case shape.KindCircle:
		c := sh.Center()
		dst = appendF64(appendF64(appendF64(dst, c.X), c.Y), sh.Radius())
	case shape.KindAABB, shape.KindOBB:
		h := sh.HalfExtents()
		dst = appendF64(appendF64(dst, h.X), h.Y)
	case shape.KindPolygon:
		vs := sh.Vertices()
		dst = append(dst, byte(len(vs)))
		for _, v := range vs {
			dst = appendF64(appendF64(dst, v.X), v.Y)
		}
	default:
		dst = appendShapeExt(dst, sh)
	}
	return dst
}

func appendContact(dst []byte, c *Contact) []byte {
	le := binary.LittleEndian
	m := &c.Manifold
	dst = le.AppendUint64(dst, uint64(c.A))
	dst = le.AppendUint64(dst, uint64(c.B))
	dst = le.AppendUint32(dst, uint32(c.PartA))
	dst = le.AppendUint32(dst, uint32(c.PartB))
	dst = appendF64(dst, m.Normal.X)
	dst = appendF64(dst, m.Normal.Y)
	dst = appendF64(dst, m.Depth)
	dst = append(dst, byte(m.Count))
	for _, p := range m.Points {
		dst = appendF64(appendF64(appendF64(dst, p.Point.X), p.Point.Y), p.Depth)
	}
	dst = append(dst, b2u(c.Sensor), b2u(c.Swept))
	return appendF64(dst, c.TOI)
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// reader reads a snapshot; the first error sticks.
type reader struct {
	p   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrSnapshot}, args...)...)
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.p) {
		r.fail("truncated: %d bytes wanted, %d left", n, len(r.p))
		return nil
	}
	b := r.p[:n]
	r.p = r.p[n:]
	return b
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// f64 reads a finite float.
func (r *reader) f64() float64 {
	f := math.Float64frombits(r.u64())
	if !shape.IsFinite(f) {
		r.fail("number %v is not finite", f)
		return 0
	}
	return f
}

// count reads an element count and checks that the bytes left could hold
// that many elements of at least min bytes each, so that nothing is
// allocated beyond what the input justifies.
func (r *reader) count(what string, min int) int {
	n := r.u32()
	if r.err == nil && uint64(n)*uint64(min) > uint64(len(r.p)) {
		r.fail("%d %s cannot fit in the %d bytes left", n, what, len(r.p))
		return 0
	}
	return int(n)
}

// slotList reads a list of distinct slots below n.
func (r *reader) slotList(what string, n int) []int32 {
	k := r.count(what, 4)
	if r.err != nil {
		return nil
	}
	l := make([]int32, k)
	seen := map[int32]bool{}
	for i := range l {
		s := r.u32()
		if r.err == nil && (int(s) >= n || seen[int32(s)]) {
			r.fail("%s: slot %d out of range or repeated", what, s)
		}
		l[i] = int32(s)
		seen[int32(s)] = true
	}
	return l
}

func (r *reader) shape() shape.Shape {
	kind := shape.Kind(r.u8())
	var sh shape.Shape
	var err error
	switch kind {
	case shape.KindCircle:
		x, y, rad := r.f64(), r.f64(), r.f64()
		if r.err != nil {
			return sh
		}
		sh, err = shape.NewOffsetCircle(shape.V(x, y), rad)
	case shape.KindAABB, shape.KindOBB:
		hw, hh := r.f64(), r.f64()
		if r.err != nil {
			return sh
		}
		if kind == shape.KindAABB {
			sh, err = shape.NewAABB(hw, hh)
		} else {
			sh, err = shape.NewOBB(hw, hh)
		}
	case shape.KindPolygon:
		n := int(r.u8())
		if n > shape.MaxPolygonVertices || n*16 > len(r.p) {
			r.fail("polygon of %d vertices", n)
			return sh
		}
		var vs [shape.MaxPolygonVertices]shape.Vec2
		for i := range n {
			vs[i] = shape.V(r.f64(), r.f64())
		}
		if r.err != nil {
			return sh
		}
		sh, err = shape.NewPolygon(vs[:n])
		if err == nil && !slices.Equal(sh.Vertices(), vs[:n]) {
			err = errors.New("polygon vertices not as NewPolygon leaves them")
		}
	default:
		sh, err = r.shapeExt(kind)
		if r.err != nil {
			return sh
		}
	}
	if err != nil {
		r.fail("shape: %v", err)
	}
	return sh
}

func (r *reader) contacts(what string) []Contact {
	k := r.count(what, contactSize)
	if r.err != nil {
		return nil
	}
	cs := make([]Contact, k)
	for i := range cs {
		c := &cs[i]
		c.A, c.B = BodyID(r.u64()), BodyID(r.u64())
		pa, pb := r.u32(), r.u32()
		c.PartA, c.PartB = int(pa), int(pb)
		m := &c.Manifold
		m.Normal = shape.V(r.f64(), r.f64())
		m.Depth = r.f64()
		m.Count = int(r.u8())
		for j := range m.Points {
			m.Points[j] = narrowphase.ContactPoint{Point: shape.V(r.f64(), r.f64()), Depth: r.f64()}
		}
		sensor, swept := r.u8(), r.u8()
		c.Sensor, c.Swept = sensor == 1, swept == 1
		c.TOI = r.f64()
		if r.err == nil && (m.Count < 1 || m.Count > 2 || sensor > 1 || swept > 1 || c.A.slot() >= c.B.slot() ||
			pa > shape.MaxChainPoints || pb > shape.MaxChainPoints || (i > 0 && !contactBefore(cs[i-1], *c))) {
			r.fail("%s: contact %d malformed or out of order", what, i)
		}
	}
	return cs
}

// UnmarshalBinary restores a state MarshalBinary encoded, in place: ids,
// shapes, filters, kinds, sensors, bullets, pending moves, the last Step's
// contacts and events; afterwards Add hands out the ids the original world
// would have. User values are not in the bytes: every restored body's is
// nil (set them again with SetUserData). The world keeps its own worker
// count. Stats read zero until the next Step. On any error (wrapping
// ErrSnapshot, or a shape sentinel for a shape the constructors refuse) the
// world is left unchanged; no input makes it panic, and it allocates no
// more than the input's length justifies.
func (w *World) UnmarshalBinary(data []byte) error {
	r := &reader{p: data}
	if string(r.take(4)) != snapMagic {
		r.fail("not a collide world snapshot")
		return r.err
	}
	if v := r.u16(); r.err == nil && v != snapVersion {
		r.fail("version %d, this build reads %d", v, snapVersion)
	}
	r.u16()
	cfg := w.cfg
	cfg.Margin, cfg.MotionFrames = r.f64(), r.f64()

	shapes := make([]shape.Shape, r.count("shapes", 1+16))
	for i := range shapes {
		shapes[i] = r.shape()
	}
	n := r.count("slots", 5)
	if r.err != nil {
		return r.err
	}
	var b bodies
	b.hot = make([]hotBody, n)
	b.filter = make([]filterBits, n)
	b.shapes = make([]shape.Shape, n)
	b.xf = make([]shape.Transform, n)
	b.angle = make([]float64, n)
	b.cats.pos = make([]int32, n)
	for s := range n {
		h := &b.hot[s]
		h.gen = r.u32()
		h.flags = r.u8()
		if r.err != nil {
			return r.err
		}
		alive, removed := h.flags&flagAlive != 0, h.flags&flagRemoved != 0
		if h.flags&^snapFlags != 0 || (alive && removed) || ((alive || removed) && h.gen == 0) {
			r.fail("slot %d: flags %#x, generation %d", s, h.flags, h.gen)
			return r.err
		}
		if !alive && !removed {
			if h.flags&^flagMoved != 0 {
				r.fail("slot %d: an empty slot with flags %#x", s, h.flags)
				return r.err
			}
			continue
		}
		k := r.u32()
		pos := shape.V(r.f64(), r.f64())
		angle := r.f64()
		f := filterBits{cat: r.u32(), mask: r.u32()}
		if r.err != nil {
			return r.err
		}
		if int(k) >= len(shapes) || f.cat == 0 {
			r.fail("slot %d: shape %d of %d, category %#x", s, k, len(shapes), f.cat)
			return r.err
		}
		b.shapes[s], b.filter[s], b.angle[s] = shapes[k], f, angle
		b.xf[s] = shape.NewTransform(pos, angle)
		h.tight = shapes[k].WorldAABB(b.xf[s])
		if !h.tight.IsFinite() {
			r.fail("slot %d: box %v overflows", s, h.tight)
			return r.err
		}
		if alive {
			b.count++
		}
	}
	b.free = r.slotList("free slots", n)
	b.dying = r.slotList("dying slots", n)
	b.dead = r.slotList("dead slots", n)
	b.moved = r.slotList("moved slots", n)
	if r.err != nil {
		return r.err
	}
	listed := make([]uint8, n) // 1 free, 2 dying or dead
	for _, s := range b.free {
		if b.hot[s].flags&(flagAlive|flagRemoved) != 0 || listed[s] != 0 {
			r.fail("free slot %d holds a body", s)
			return r.err
		}
		listed[s] = 1
	}
	for _, l := range [][]int32{b.dying, b.dead} {
		for _, s := range l {
			if b.hot[s].flags&flagRemoved == 0 || listed[s] != 0 {
				r.fail("slot %d listed as removed is not, or twice", s)
				return r.err
			}
			listed[s] = 2
		}
	}
	for s := range n {
		if (b.hot[s].flags&flagRemoved != 0) != (listed[s] == 2) {
			r.fail("removed slot %d in no list", s)
			return r.err
		}
	}
	for _, s := range b.moved {
		if b.hot[s].flags&flagMoved == 0 {
			r.fail("moved slot %d not flagged", s)
			return r.err
		}
	}
	moved := 0
	for s := range n {
		if b.hot[s].flags&flagMoved != 0 {
			moved++
		}
	}
	if moved != len(b.moved) {
		r.fail("%d slots flagged moved, %d listed", moved, len(b.moved))
		return r.err
	}

	var bs bulletSet
	nb := r.count("bullets", 4+24)
	bs.slots = make([]int32, 0, nb)
	bs.prev = make([]bulletPrev, 0, nb)
	for range nb {
		s := r.u32()
		p := bulletPrev{pos: shape.V(r.f64(), r.f64()), angle: r.f64()}
		if r.err != nil {
			return r.err
		}
		if int(s) >= n || b.hot[s].flags&flagBullet == 0 || b.hot[s].flags&flagAlive == 0 ||
			(len(bs.slots) > 0 && int32(s) <= bs.slots[len(bs.slots)-1]) {
			r.fail("bullet slot %d", s)
			return r.err
		}
		bs.slots = append(bs.slots, int32(s))
		bs.prev = append(bs.prev, p)
	}
	bullets := 0
	for s := range n {
		if b.hot[s].flags&(flagBullet|flagAlive) == flagBullet|flagAlive {
			bullets++
		}
	}
	if bullets != len(bs.slots) {
		r.fail("%d live bullets, %d listed", bullets, len(bs.slots))
		return r.err
	}

	contacts, prev := r.contacts("contacts"), r.contacts("previous contacts")
	began, ended := r.slotList("began", len(contacts)), r.slotList("ended", len(prev))
	if r.err != nil {
		return r.err
	}
	if len(r.p) != 0 {
		r.fail("%d bytes after the end", len(r.p))
		return r.err
	}

	// Everything checked: build the new state and swap it in.
	for s := range n {
		if b.hot[s].flags&flagAlive != 0 {
			b.cats.add(int32(s), b.filter[s].cat)
		}
	}
	tree := broadphase.NewTree(broadphase.Config{Margin: cfg.Margin, MotionFrames: cfg.MotionFrames})
	for s := range n {
		if b.hot[s].flags&flagAlive == 0 {
			continue
		}
		if b.hot[s].flags&flagStatic != 0 {
			tree.InsertStatic(int32(s), b.hot[s].tight)
		} else {
			tree.Insert(int32(s), b.hot[s].tight)
		}
	}
	w.cfg = cfg
	w.b = b
	w.tree = tree
	w.tree.SetFilter(w.pairFilter)
	w.bullets = nil
	if len(bs.slots) > 0 {
		w.bullets = &bs
	}
	w.contacts, w.prev, w.began, w.ended = contacts, prev, began, ended
	w.stats = Stats{}
	w.setParallelFrom(int(w.parPairs), int(w.parQueries))
	return nil
}

// Clone returns a deep copy of the world that shares nothing mutable with
// it (shapes are immutable values and are shared), with its own workers:
// the same bodies, ids, user values, broad phase, pending moves, contacts
// and events, so that both give the same answers from here on. It needs
// exclusive access, like a mutation.
func (w *World) Clone() *World {
	c := NewWorld(w.cfg)
	b := &w.b
	c.b = bodies{
		hot: slices.Clone(b.hot), filter: slices.Clone(b.filter), shapes: slices.Clone(b.shapes),
		xf: slices.Clone(b.xf), angle: slices.Clone(b.angle), user: maps.Clone(b.user),
		free: slices.Clone(b.free), moved: slices.Clone(b.moved), dying: slices.Clone(b.dying), dead: slices.Clone(b.dead),
		count: b.count, cats: b.cats.clone(),
	}
	c.tree = w.tree.Clone()
	c.tree.SetFilter(c.pairFilter)
	c.setParallelFrom(int(w.parPairs), int(w.parQueries))
	if w.bullets != nil {
		c.bullets = &bulletSet{slots: slices.Clone(w.bullets.slots), prev: slices.Clone(w.bullets.prev)}
	}
	c.contacts, c.prev = slices.Clone(w.contacts), slices.Clone(w.prev)
	c.began, c.ended = slices.Clone(w.began), slices.Clone(w.ended)
	c.stats = w.stats
	return c
}

func (c *catIndex) clone() catIndex {
	var d catIndex
	if c.lists != nil {
		d.lists = new([32][]int32)
		for i := range c.lists {
			d.lists[i] = slices.Clone(c.lists[i])
		}
	}
	d.multi, d.pos = slices.Clone(c.multi), slices.Clone(c.pos)
	return d
}
