package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"slices"
	"unsafe"

	"github.com/collide-go/collide/broadphase"
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// ErrSnapshot reports bytes UnmarshalBinary cannot restore: not a snapshot,
// a version it does not know, or a snapshot that is truncated or
// inconsistent.
var ErrSnapshot = errors.New("engine: invalid snapshot")

// The snapshot format, version 3. All numbers are little-endian; floats are
// IEEE 754 bits, so the bytes are the same on every CPU.
//
//	header    "CLDW", version u16 (3), reserved u16 (0)
//	config    margin f64, motion frames f64 (as configured)
//	shapes    count u32, then per shape: kind u8 and its numbers
//	          (circle: centre x, y and radius; box: half extents; polygon:
//	          vertex count u8 and the vertices), each distinct shape once,
//	          in order of first use by slot
//	slots     count u32, then per slot: flags u8, generation u32, and for a
//	          live or removed body: shape index uvarint, position x, y f64,
//	          angle f64, and, if flag bit 7 is set, category u32 and mask
//	          u32 (clear: DefaultFilter)
//	lists     free, dying, dead and moved slots: each a count u32 and u32s
//	bullets   count u32, then per bullet: slot u32, previous x, y, angle
//	contacts  the last Step's contacts: count u32, then per contact a tag
//	          u8. Tag 0 or 2: slots A, B u32 of two convex bodies that have
//	          not moved since the Step; the decoder computes the manifold
//	          again (it is the same function of the same numbers), and
//	          tag 2 marks a sensor contact. Tag 1: ids A, B u64, parts A, B
//	          u32, normal x, y, depth, point count u8, two points (x, y,
//	          depth), sensor u8, swept u8, TOI f64
//	ended     the Ended contacts (the step before's contacts that are no
//	          longer contacts; the rest of that step is never read again):
//	          count u32, then each as a tag 1 contact
//	began     count u32 and u32 indexes into contacts
//
// The broad phase is not in the bytes: a restore rebuilds it from the
// bodies' boxes, or brings the world's own tree up to date when most of its
// proxies already fit (a rollback to a recent frame). Its fat boxes decide
// only which pairs the narrow phase tests, never an answer.
//
// User values are not encoded.
const (
	snapMagic   = "CLDW"
	snapVersion = 3
)

// Slot flags in a snapshot: the body flags, and snapFilter for a body
// whose filter is not DefaultFilter.
const (
	snapFlags  = flagAlive | flagStatic | flagSensor | flagMoved | flagRemoved | flagBullet
	snapFilter = 1 << 7
)

// Contact tags in a snapshot.
const (
	tagAgain       = 0 // computed again by the decoder
	tagFull        = 1 // every field in the bytes
	tagAgainSensor = 2 // computed again, a sensor contact
)

// contactSize is the bytes of one encoded tag 1 contact, tag included.
const contactSize = 1 + 8 + 8 + 4 + 4 + 3*8 + 1 + 2*3*8 + 1 + 1 + 8

// snapCache keeps the shape table of the world's last snapshot, written or
// read: while no body gains a shape (b.epoch unchanged), the next
// AppendBinary copies it instead of looking up every body's shape again,
// and a restore whose table is byte for byte the same reuses its shapes
// instead of building each one again. Only a world that snapshots has one.
type snapCache struct {
	epoch     uint64        // b.epoch the table is for; 0: none
	slotShape []uint32      // per slot, its shape's index in the table
	table     []byte        // the encoded shapes, in order of first use
	offs      []uint32      // shape k is table[offs[k]:offs[k+1]]
	shapes    []shape.Shape // shape k
	buckets   []int32       // scratch: open-addressed shape indexes, -1 for none
	key       []byte        // scratch: one encoded shape
}

// shapeTable brings w's snapshot cache up to date with the bodies' shapes.
func (w *World) shapeTable() *snapCache {
	b := &w.b
	if b.epoch == 0 {
		b.epoch = 1
	}
	c := w.snap
	if c == nil {
		c = &snapCache{}
		w.snap = c
	}
	if c.epoch == b.epoch && len(c.slotShape) == len(b.hot) {
		return c
	}
	c.epoch = 0
	c.slotShape = slices.Grow(c.slotShape[:0], len(b.hot))[:len(b.hot)]
	c.table, c.offs, c.shapes = c.table[:0], append(c.offs[:0], 0), c.shapes[:0]
	nb := 64
	for nb < 2*len(b.hot) {
		nb *= 2
	}
	c.buckets = slices.Grow(c.buckets[:0], nb)[:nb]
	for i := range c.buckets {
		c.buckets[i] = -1
	}
	mask := uint64(nb - 1)
	var last shape.Shape
	lastK := uint32(0)
	for s := range b.hot {
		c.slotShape[s] = 0
		if b.hot[s].flags&(flagAlive|flagRemoved) == 0 {
			continue
		}
		sh := b.shapes[s]
		if len(c.shapes) > 0 && sh.Identical(last) {
			c.slotShape[s] = lastK // the same value as the slot before: a crowd of one shape
			continue
		}
		c.key = appendShape(c.key[:0], sh)
		i := maphash.Bytes(snapSeed, c.key) & mask
		for {
			k := c.buckets[i]
			if k < 0 {
				k = int32(len(c.shapes))
				c.buckets[i] = k
				c.table = append(c.table, c.key...)
				c.offs = append(c.offs, uint32(len(c.table)))
				c.shapes = append(c.shapes, sh)
				break
			}
			if bytes.Equal(c.table[c.offs[k]:c.offs[k+1]], c.key) {
				break
			}
			i = (i + 1) & mask
		}
		lastK, last = uint32(c.buckets[i]), sh
		c.slotShape[s] = lastK
	}
	c.epoch = b.epoch
	return c
}

// snapSeed seeds the shape table's hash; the table's order does not depend
// on it.
var snapSeed = maphash.MakeSeed()

// AppendBinary appends the world's state to dst (see MarshalBinary). Into
// a buffer with room for it, it allocates nothing once the world has taken
// a snapshot before.
func (w *World) AppendBinary(dst []byte) ([]byte, error) {
	le := binary.LittleEndian
	b := &w.b
	dst = append(dst, snapMagic...)
	dst = le.AppendUint16(dst, snapVersion)
	dst = le.AppendUint16(dst, 0)
	dst = appendF64(dst, w.cfg.Margin)
	dst = appendF64(dst, w.cfg.MotionFrames)

	c := w.shapeTable()
	dst = le.AppendUint32(dst, uint32(len(c.shapes)))
	dst = append(dst, c.table...)

	dst = le.AppendUint32(dst, uint32(len(b.hot)))
	def := DefaultFilter.bits()
	for s := range b.hot {
		h := &b.hot[s]
		// At most a flag byte, a generation, a shape index, three floats
		// and a filter.
		dst = slices.Grow(dst, 1+4+binary.MaxVarintLen32+3*8+8)
		flags := h.flags
		if flags&(flagAlive|flagRemoved) == 0 {
			dst = append(dst, flags)
			dst = le.AppendUint32(dst, h.gen)
			continue
		}
		f := b.filter[s]
		if f != def {
			flags |= snapFilter
		}
		dst = append(dst, flags)
		dst = le.AppendUint32(dst, h.gen)
		dst = binary.AppendUvarint(dst, uint64(c.slotShape[s]))
		dst = appendF64(dst, b.xf[s].Pos.X)
		dst = appendF64(dst, b.xf[s].Pos.Y)
		dst = appendF64(dst, b.angle[s])
		if f != def {
			dst = le.AppendUint32(dst, f.cat)
			dst = le.AppendUint32(dst, f.mask)
		}
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
	dst = le.AppendUint32(dst, uint32(len(w.contacts)))
	for i := range w.contacts {
		ct := &w.contacts[i]
		if tag, ok := w.againTag(ct); ok {
			dst = append(dst, tag)
			dst = le.AppendUint32(dst, uint32(ct.a.slot()))
			dst = le.AppendUint32(dst, uint32(ct.b.slot()))
			continue
		}
		dst = appendContact(dst, ct)
	}
	dst = le.AppendUint32(dst, uint32(len(w.ended)))
	for i := range w.ended {
		dst = appendContact(dst, &w.ended[i])
	}
	dst = appendSlots(dst, w.began)
	return dst, nil
}

// againTag reports whether the decoder can compute contact c again from the
// bodies as they are, and its tag if so: a contact of two convex bodies,
// not swept, neither of them moved or given a new shape since the Step,
// so that Collide on their shapes and transforms gives it bit for bit.
func (w *World) againTag(c *contact) (uint8, bool) {
	b := &w.b
	sa, sc := c.a.slot(), c.b.slot()
	fa, fc := b.hot[sa].flags, b.hot[sc].flags
	// unmoved's test, written out: this runs for every contact of every
	// snapshot.
	if c.swept() || c.pa != 0 || c.partB() != 0 || (fa|fc)&flagMoved != 0 ||
		c.a != makeID(sa, b.hot[sa].gen) || c.b != makeID(sc, b.hot[sc].gen) ||
		!b.shapes[sa].Kind().Convex() || !b.shapes[sc].Kind().Convex() {
		return 0, false
	}
	if c.sensor() {
		return tagAgainSensor, true
	}
	return tagAgain, true
}

// unmoved reports whether contact c is one of whole shapes, not swept, of
// two bodies that have not moved or been given a new shape since the Step:
// againTag's test but for the convexity.
func (w *World) unmoved(c *contact) bool {
	b := &w.b
	sa, sc := c.a.slot(), c.b.slot()
	fa, fc := b.hot[sa].flags, b.hot[sc].flags
	return !c.swept() && c.pa == 0 && c.partB() == 0 && (fa|fc)&flagMoved == 0 &&
		c.a == makeID(sa, b.hot[sa].gen) && c.b == makeID(sc, b.hot[sc].gen)
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
	for _, l := range [][]int32{b.free, b.dying, b.dead, b.moved, w.began} {
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
	h.word(uint64(len(w.contacts)))
	for i := range w.contacts {
		h.contact(&w.contacts[i])
	}
	h.word(uint64(len(w.ended)))
	for i := range w.ended {
		h.contact(&w.ended[i])
	}
	return uint64(h)
}

// contact hashes a contact's fields.
func (h *fnvHash) contact(c *contact) {
	m := c.manifold()
	h.word(uint64(c.a))
	h.word(uint64(c.b))
	h.word(uint64(c.pa)<<32 | uint64(c.partB()))
	h.f64(m.Normal.X)
	h.f64(m.Normal.Y)
	h.f64(m.Depth)
	h.word(uint64(m.Count)<<16 | uint64(b2u(c.sensor()))<<8 | uint64(b2u(c.swept())))
	for _, p := range m.Points {
		h.f64(p.Point.X)
		h.f64(p.Point.Y)
		h.f64(p.Depth)
	}
	h.f64(c.toi())
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

func appendContact(dst []byte, c *contact) []byte {
	le := binary.LittleEndian
	m := c.manifold()
	dst = append(dst, tagFull)
	dst = le.AppendUint64(dst, uint64(c.a))
	dst = le.AppendUint64(dst, uint64(c.b))
	dst = le.AppendUint32(dst, c.pa)
	dst = le.AppendUint32(dst, c.partB())
	dst = appendF64(dst, m.Normal.X)
	dst = appendF64(dst, m.Normal.Y)
	dst = appendF64(dst, m.Depth)
	dst = append(dst, byte(m.Count))
	for _, p := range m.Points {
		dst = appendF64(appendF64(appendF64(dst, p.Point.X), p.Point.Y), p.Depth)
	}
	dst = append(dst, b2u(c.sensor()), b2u(c.swept()))
	return appendF64(dst, c.toi())
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

// fail records the first error and drops the bytes left, so that every
// later read fails at its length check.
func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrSnapshot}, args...)...)
	}
	r.p = nil
}

// take returns the next n (> 0) bytes, or nil after an error (which left
// no bytes to take).
func (r *reader) take(n int) []byte {
	if n > len(r.p) {
		if r.err == nil {
			r.fail("truncated: %d bytes wanted, %d left", n, len(r.p))
		}
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

// uvarint reads an unsigned varint. One and two bytes (a shape index below
// 16384) are read here, as binary.Uvarint reads them.
func (r *reader) uvarint() uint64 {
	p := r.p
	if len(p) > 0 && p[0] < 0x80 {
		r.p = p[1:]
		return uint64(p[0])
	}
	if len(p) > 1 && p[1] < 0x80 {
		r.p = p[2:]
		return uint64(p[0]&0x7f) | uint64(p[1])<<7
	}
	return r.longUvarint()
}

func (r *reader) longUvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.p)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.p = r.p[n:]
	return x
}

// f64 reads a finite float.
func (r *reader) f64() float64 {
	x := r.u64()
	if !finiteBits(x) {
		r.fail("number %v is not finite", math.Float64frombits(x))
		return 0
	}
	return math.Float64frombits(x)
}

// finiteBits reports whether the float with IEEE 754 bits x is finite.
func finiteBits(x uint64) bool { return x&(0x7ff<<52) != 0x7ff<<52 }

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

// slotList reads a list of distinct slots below n into dst's array. seen
// is scratch of at least n entries, all false, and is left so.
func (r *reader) slotList(what string, n int, seen []bool, dst []int32) []int32 {
	k := r.count(what, 4)
	if r.err != nil {
		return nil
	}
	l := grown(dst, k)
	for i := range l {
		s := r.u32()
		if r.err == nil && (int(s) >= n || seen[s]) {
			r.fail("%s: slot %d out of range or repeated", what, s)
		}
		if r.err != nil {
			l = l[:i]
			break
		}
		l[i] = int32(s)
		seen[s] = true
	}
	for _, s := range l {
		seen[s] = false
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

// contacts reads a contact list into dst's array. With again, tags 0 and 2
// are allowed and their manifolds are computed from b, whose slots are all
// read, or taken from reuse, which must then be set.
func (r *reader) contacts(what string, b *bodies, again bool, dst []contact, reuse *contactReuse) []contact {
	minSize := contactSize
	if again {
		minSize = 1 + 4 + 4
	}
	k := r.count(what, minSize)
	if r.err != nil {
		return nil
	}
	cs := grown(dst, k)
	for i := range cs {
		c := &cs[i]
		tag := r.u8()
		switch {
		case r.err != nil:
		case tag == tagFull:
			r.fullContact(c)
		case again && (tag == tagAgain || tag == tagAgainSensor):
			r.againContact(c, b, tag == tagAgainSensor, reuse)
		default:
			r.fail("%s: contact %d has tag %d", what, i, tag)
		}
		if r.err == nil && i > 0 && compareContacts(&cs[i-1], c) >= 0 {
			r.fail("%s: contact %d out of order", what, i)
		}
		if r.err != nil {
			return nil
		}
	}
	return cs
}

// fullContact reads a tag 1 contact's fields.
// A swept contact must have depth 0 and any other TOI 0, as Step makes
// them: the world keeps one of the two (see contact).
func (r *reader) fullContact(c *contact) {
	c.a, c.b = BodyID(r.u64()), BodyID(r.u64())
	pa, pb := r.u32(), r.u32()
	c.normal = shape.V(r.f64(), r.f64())
	depth := r.f64()
	count := r.u8()
	for j := range c.points {
		c.points[j] = narrowphase.ContactPoint{Point: shape.V(r.f64(), r.f64()), Depth: r.f64()}
	}
	sensor, swept := r.u8(), r.u8()
	toi := r.f64()
	if r.err == nil && (count < 1 || count > 2 || sensor > 1 || swept > 1 || c.a.slot() >= c.b.slot() ||
		pa > shape.MaxChainPoints || pb > shape.MaxChainPoints) {
		r.fail("contact %v–%v malformed", c.a, c.b)
		return
	}
	c.pa, c.pb, c.depth = pa, pb, depth
	zero := toi // bit for bit, as Step leaves it
	if swept == 1 {
		c.pb |= ctSwept
		c.depth, zero = toi, depth
	}
	if count == 2 {
		c.pb |= ctTwo
	}
	if sensor == 1 {
		c.pb |= ctSensor
	}
	if r.err == nil && math.Float64bits(zero) != 0 {
		r.fail("contact %v–%v: depth %v with TOI %v (swept %d), where Step leaves one of them 0", c.a, c.b, depth, toi, swept)
	}
}

// againContact reads a tag 0 or 2 contact's slots and computes its manifold
// from the bodies in b, as Step did, or takes it from reuse (which also
// knows which of b's bodies are convex).
func (r *reader) againContact(c *contact, b *bodies, sensor bool, reuse *contactReuse) {
	sa, sc := r.u32(), r.u32()
	if r.err != nil {
		return
	}
	n := uint32(len(b.hot))
	if sa >= sc || sc >= n {
		r.fail("contact slots %d, %d", sa, sc)
		return
	}
	fa, fc := b.hot[sa].flags, b.hot[sc].flags
	if fa&(flagAlive|flagRemoved) == 0 || fc&(flagAlive|flagRemoved) == 0 || (fa|fc)&flagMoved != 0 ||
		reuse.slot[sa]&reuse.slot[sc]&slotConvex == 0 {
		r.fail("contact slots %d, %d: not two convex bodies still where they were", sa, sc)
		return
	}
	m, ok := reuse.manifold(sa, sc)
	if !ok {
		m, ok = narrowphase.Collide(b.shapes[sa], b.xf[sa], b.shapes[sc], b.xf[sc])
	}
	if !ok {
		r.fail("contact slots %d, %d: the bodies do not touch", sa, sc)
		return
	}
	*c = makeContact(makeID(int32(sa), b.hot[sa].gen), makeID(int32(sc), b.hot[sc].gen), &m, 0, 0, sensor)
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
//
// The world keeps the buffers of the state a restore replaces and decodes
// the next restore into them (a rollback loop allocates next to nothing,
// for about as much memory again as its bodies and contacts take), and a
// body whose shape, position and angle are bit for bit what the world
// holds in its slot keeps its transform, box and contacts' manifolds
// rather than computing them again.
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

	nsh := r.count("shapes", 1+16)
	if r.err != nil {
		return r.err
	}
	sp := w.spare
	if sp == nil {
		sp = &restoreBufs{}
	}
	cache := sp.cache
	if cache == nil {
		cache = &snapCache{}
	}
	cache.shapes = grown(cache.shapes, nsh)
	cache.offs = append(cache.offs[:0], 0)
	tableStart := len(data) - len(r.p)
	old := w.snap
	j := 0 // the next shape of the old table to try
	if old != nil && len(old.shapes) == nsh && bytes.HasPrefix(r.p, old.table) {
		// The whole table is the world's own (a rollback that added no
		// shape): the entries are self-delimiting, so these nsh entries
		// are the old table's.
		copy(cache.shapes, old.shapes)
		cache.offs = append(cache.offs[:0], old.offs...)
		r.take(len(old.table))
		j = nsh
	}
	for i := j; i < nsh; i++ {
		// A rollback restores the shapes the world already has: an entry
		// byte for byte the same as the old table's next one (the encoding
		// is self-delimiting) is that shape, and is not built again.
		if old != nil {
			if k, ok := old.match(r.p, j); ok {
				cache.shapes[i] = old.shapes[k]
				r.take(int(old.offs[k+1] - old.offs[k]))
				cache.offs = append(cache.offs, uint32(len(data)-len(r.p)-tableStart))
				j = k + 1
				continue
			}
		}
		cache.shapes[i] = r.shape()
		if r.err != nil {
			return r.err
		}
		cache.offs = append(cache.offs, uint32(len(data)-len(r.p)-tableStart))
	}
	shapes := cache.shapes
	table := data[tableStart : len(data)-len(r.p)] // copied once everything is checked
	n := r.count("slots", 5)
	if r.err != nil {
		return r.err
	}
	// Decode into the buffers of the state the last restore replaced: every
	// element is written below.
	b := bodies{
		hot: grown(sp.b.hot, n), tight: grown(sp.b.tight, n), filter: grown(sp.b.filter, n), shapes: grown(sp.b.shapes, n),
		xf: grown(sp.b.xf, n), angle: grown(sp.b.angle, n),
	}
	// The category index is the world's own (snapshots do not hold it):
	// kept if the world kept one.
	if w.b.cats.on {
		b.cats = catIndex{lists: sp.b.cats.lists, multi: sp.b.cats.multi[:0], pos: grown(sp.b.cats.pos, n), on: true}
	}
	if b.cats.lists != nil {
		for i := range b.cats.lists {
			b.cats.lists[i] = b.cats.lists[i][:0]
		}
	}
	cache.slotShape = grown(cache.slotShape, n)
	// A body whose shape, position and angle are bit for bit those of the
	// world's body in its slot (a static body, or a rollback to the frame
	// the world is at) takes that body's transform and box instead of
	// computing them again: they are the same function of the same
	// numbers. slot records which (slotSame), and which bodies are convex
	// (slotConvex), for the contacts.
	ob := &w.b
	slot := grown(sp.slot, n)
	le := binary.LittleEndian
	def := DefaultFilter.bits()
	used := 0              // shapes in use so far: the table is in order of first use
	moved, bullets := 0, 0 // slots flagged moved, live bullets
	for s := range n {
		h := &b.hot[s]
		slot[s] = 0
		hdr := r.take(5)
		if hdr == nil {
			return r.err
		}
		flags := hdr[0]
		*h = hotBody{gen: le.Uint32(hdr[1:]), flags: flags &^ snapFilter}
		alive, removed := h.flags&flagAlive != 0, h.flags&flagRemoved != 0
		if h.flags&flagMoved != 0 {
			moved++
		}
		if flags&^(snapFlags|snapFilter) != 0 || (alive && removed) || ((alive || removed) && h.gen == 0) {
			r.fail("slot %d: flags %#x, generation %d", s, flags, h.gen)
			return r.err
		}
		if !alive && !removed {
			if flags&^flagMoved != 0 {
				r.fail("slot %d: an empty slot with flags %#x", s, flags)
				return r.err
			}
			b.shapes[s], b.filter[s], b.xf[s], b.angle[s], b.tight[s] = shape.Shape{}, filterBits{}, shape.Transform{}, 0, box32{}
			if b.cats.on {
				b.cats.pos[s] = 0
			}
			cache.slotShape[s] = 0
			continue
		}
		k := r.uvarint()
		m := 3 * 8
		if flags&snapFilter != 0 {
			m += 8
		}
		rec := r.take(m)
		if rec == nil {
			return r.err
		}
		xb, yb, ab := le.Uint64(rec), le.Uint64(rec[8:]), le.Uint64(rec[16:])
		if !finiteBits(xb) || !finiteBits(yb) || !finiteBits(ab) {
			r.fail("slot %d: a number is not finite", s)
			return r.err
		}
		f := def
		if flags&snapFilter != 0 {
			f = filterBits{cat: le.Uint32(rec[24:]), mask: le.Uint32(rec[28:])}
		}
		if k > uint64(used) || k >= uint64(len(shapes)) || f.cat == 0 || (flags&snapFilter != 0 && f == def) {
			r.fail("slot %d: shape %d of %d (%d used before), category %#x", s, k, len(shapes), used, f.cat)
			return r.err
		}
		if k == uint64(used) {
			used++
		}
		sh := shapes[k]
		cache.slotShape[s] = uint32(k)
		b.shapes[s], b.filter[s], b.angle[s] = sh, f, math.Float64frombits(ab)
		if b.cats.on {
			b.cats.pos[s] = 0
		}
		if s < len(ob.hot) && ob.hot[s].flags&(flagAlive|flagRemoved) != 0 &&
			math.Float64bits(ob.xf[s].Pos.X) == xb && math.Float64bits(ob.xf[s].Pos.Y) == yb &&
			math.Float64bits(ob.angle[s]) == ab && ob.shapes[s].Identical(sh) {
			b.xf[s], b.tight[s], slot[s] = ob.xf[s], ob.tight[s], slotSame
		} else {
			b.xf[s] = shape.NewTransform(shape.V(math.Float64frombits(xb), math.Float64frombits(yb)), b.angle[s])
			t := sh.WorldAABB(b.xf[s])
			if !t.IsFinite() {
				r.fail("slot %d: box %v overflows", s, t)
				return r.err
			}
			b.tight[s] = round32(t)
		}
		if sh.Kind().Convex() {
			slot[s] |= slotConvex
		}
		if alive {
			b.count++
			b.cats.add(int32(s), f.cat)
			if h.flags&flagBullet != 0 {
				bullets++
			}
		}
	}
	if used != len(shapes) {
		r.fail("%d shapes, %d used", len(shapes), used)
		return r.err
	}
	seen := grown(sp.seen, n)
	clear(seen)
	b.free = r.slotList("free slots", n, seen, sp.b.free)
	b.dying = r.slotList("dying slots", n, seen, sp.b.dying)
	b.dead = r.slotList("dead slots", n, seen, sp.b.dead)
	b.moved = r.slotList("moved slots", n, seen, sp.b.moved)
	if r.err != nil {
		return r.err
	}
	listed := grown(sp.listed, n) // 1 free, 2 dying or dead
	clear(listed)
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
		p.rot = shape.NewTransform(p.pos, p.angle).Rot
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
	if bullets != len(bs.slots) {
		r.fail("%d live bullets, %d listed", bullets, len(bs.slots))
		return r.err
	}
	bs.reindex(0)
	for _, s := range bs.slots {
		proxyBox(&b, &bs, s, b.tightOf(s)) // the boxes of its motion
	}

	reuse := &contactReuse{w: w, slot: slot}
	contacts := r.contacts("contacts", &b, true, sp.contacts, reuse)
	ended := r.contacts("ended contacts", &b, false, sp.ended, nil)
	if r.err != nil {
		return r.err
	}
	seen = grown(seen, len(contacts))
	clear(seen)
	began := r.slotList("began", len(contacts), seen, sp.began)
	if r.err != nil {
		return r.err
	}
	if len(r.p) != 0 {
		r.fail("%d bytes after the end", len(r.p))
		return r.err
	}

	// Everything checked: swap the new state in. The state it replaces
	// keeps its buffers for the next restore.
	b.epoch = w.b.epoch + 1
	if b.epoch == 0 {
		b.epoch = 1
	}
	cache.table = append(cache.table[:0], table...)
	cache.epoch = b.epoch
	fit := grown(sp.fit, n)
	tree := w.restoreTree(&b, &bs, cfg, fit)
	w.cfg = cfg
	*sp = restoreBufs{
		b: w.b, cache: w.snap, contacts: w.contacts, began: w.began, ended: w.ended,
		seen: seen, listed: listed, slot: slot, fit: fit,
	}
	if inArray(w.ended, w.contacts) {
		// A step leaves its ended contacts in its contacts' array (see
		// sink): one spare, not two that would be decoded over each other.
		sp.ended = nil
	}
	sp.b.user = nil
	if sp.b.shared {
		// A clone may read these still: never decode into them.
		sp.b.shapes, sp.b.filter, sp.b.shared = nil, nil, false
	}
	w.spare = sp
	w.b = b
	w.syncCatState()
	w.snap = cache
	w.attachTree(tree)
	w.bullets = nil
	if len(bs.slots) > 0 {
		w.bullets = &bs
	}
	w.contacts, w.began, w.ended = contacts, began, ended
	w.stats = Stats{}
	w.setParallelFrom(int(w.parPairs), int(w.parQueries))
	return nil
}

// restoreBufs holds the buffers of the state the last restore replaced:
// the next restore decodes into them, so that a world that rolls back
// again and again allocates nothing for its bodies, shapes and contacts.
// Only a world that has restored a snapshot has them.
type restoreBufs struct {
	b               bodies
	cache           *snapCache
	contacts, ended []contact
	began           []int32
	seen            []bool  // scratch for slotList
	listed          []uint8 // scratch: which list a slot is in
	slot            []uint8 // scratch: see contactReuse
	fit             []bool  // scratch: see restoreTree
}

// inArray reports whether s's first element lies in the array of t.
func inArray(s, t []contact) bool {
	if cap(s) == 0 || cap(t) == 0 {
		return false
	}
	t = t[:cap(t)]
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return uintptr(unsafe.Pointer(&t[0])) <= p && p <= uintptr(unsafe.Pointer(&t[len(t)-1]))
}

// grown returns s resized to n elements, reusing its array when it is big
// enough. The elements keep whatever they held: the caller writes each.
func grown[T any](s []T, n int) []T { return slices.Grow(s[:0], n)[:n] }

// Bits of contactReuse.slot.
const (
	slotSame   = 1 << iota // shape, position and angle as in the world
	slotConvex             // a body with a convex shape
)

// contactReuse lets the decoder take a contact's manifold from the world's
// current contacts instead of computing it again, when the world has that
// contact and would itself encode it as computed again (againTag: its
// manifold is Collide's answer for the bodies as they are), and both
// bodies have the same shapes and transforms, bit for bit, in the
// snapshot: Collide would give the same answer.
type contactReuse struct {
	w    *World  // the world before the restore
	slot []uint8 // per restored slot: slotSame (the same shape and transform as in w), slotConvex
	i    int     // the next of w's contacts to look at
}

// manifold returns the world's manifold for slots sa < sc of two convex
// bodies in the restored state, if it can be reused. Slots come in increasing pair order, so one pass over the
// world's contacts (also in that order) finds them.
func (cr *contactReuse) manifold(sa, sc uint32) (narrowphase.Manifold, bool) {
	if cr.slot[sa]&cr.slot[sc]&slotSame == 0 {
		return narrowphase.Manifold{}, false
	}
	cs := cr.w.contacts
	key := uint64(sa)<<32 | uint64(sc)
	for cr.i < len(cs) && slotKey(&cs[cr.i]) < key {
		cr.i++
	}
	if cr.i == len(cs) || slotKey(&cs[cr.i]) != key {
		return narrowphase.Manifold{}, false
	}
	// The world would encode c as computed again (againTag): convex is
	// implied, since the shapes are the restored ones, which the caller
	// checked.
	c := &cs[cr.i]
	if !cr.w.unmoved(c) {
		return narrowphase.Manifold{}, false
	}
	return c.manifold(), true
}

// match reports whether the encoded shapes in p start with shape j or j+1
// of c's table, and which.
func (c *snapCache) match(p []byte, j int) (int, bool) {
	for k := j; k < j+2 && k < len(c.shapes); k++ {
		if bytes.HasPrefix(p, c.table[c.offs[k]:c.offs[k+1]]) {
			return k, true
		}
	}
	return 0, false
}

// restoreTree returns the broad phase for the restored bodies b. When the
// world's own tree already holds most of them in fat boxes that still fit
// (a rollback to a recent frame), it is brought up to date in place: the
// proxies whose boxes fit stay, the others are updated, added or removed.
// Otherwise a new tree is built. Either way the tree indexes every live
// body, and its pair set is right after the next UpdatePairs.
// fit is scratch of len(b.hot) entries: which proxies fit as they are.
func (w *World) restoreTree(b *bodies, bs *bulletSet, cfg Config, fit []bool) *broadphase.Tree {
	t := w.tree
	fits := 0
	clear(fit)
	if cfg.Margin == w.cfg.Margin && cfg.MotionFrames == w.cfg.MotionFrames && t.Len() > 0 {
		for s := range b.hot {
			h := &b.hot[s]
			if h.flags&flagAlive == 0 {
				continue
			}
			// The rounded box tells for most bodies that are no bullet;
			// the exact box is computed for the rest.
			alive, static := t.Alive(int32(s))
			if !alive || static != (h.flags&flagStatic != 0) {
				continue
			}
			fat := t.FatAABB(int32(s))
			if (h.flags&flagBullet == 0 && b.tight[s].insideStrictly(fat)) || fat.ContainsAABB(proxyBox(b, bs, int32(s), b.tightOf(int32(s)))) {
				fits++
				fit[s] = true
			}
		}
	}
	if t == nil || 2*fits < b.count || 2*fits < t.Len() {
		t = broadphase.NewTree(broadphase.Config{Margin: cfg.Margin, MotionFrames: cfg.MotionFrames})
		t.Load(len(b.hot), func(s int32) (shape.AABB, bool, bool) {
			h := &b.hot[s]
			if h.flags&flagAlive == 0 {
				return shape.AABB{}, false, false
			}
			return proxyBox(b, bs, s, b.tightOf(s)), h.flags&flagStatic != 0, true
		})
		return t
	}
	for id := range t.IDs() {
		alive, static := t.Alive(int32(id))
		if alive && (id >= len(b.hot) || b.hot[id].flags&flagAlive == 0 || static != (b.hot[id].flags&flagStatic != 0)) {
			t.Remove(int32(id))
		}
	}
	old := &w.b
	for s := range b.hot {
		h := &b.hot[s]
		if h.flags&flagAlive == 0 {
			continue
		}
		id := int32(s)
		if alive, _ := t.Alive(id); !alive {
			if h.flags&flagStatic != 0 {
				t.InsertStatic(id, proxyBox(b, bs, id, b.tightOf(id)))
			} else {
				t.Insert(id, proxyBox(b, bs, id, b.tightOf(id)))
			}
			continue
		}
		if !fit[s] { // else Update would return at once
			t.Update(id, proxyBox(b, bs, id, b.tightOf(id)), shape.Vec2{})
		}
		// The pair filter reads the filter bits and the static flag; a
		// proxy kept in place whose bits changed has its pairs looked at
		// again.
		if s >= len(old.filter) || old.filter[s] != b.filter[s] {
			t.Touch(id)
		}
	}
	return t
}

// Clone returns a deep copy of the world that shares nothing mutable with
// it (shapes are immutable values and are shared), with its own workers:
// the same bodies, ids, user values, broad phase, pending moves, contacts
// and events, so that both give the same answers from here on. It needs
// exclusive access, like a mutation.
//
// The arrays of shapes and filters, which moves never write, are shared
// until either world writes one (Add, a body's slot freed, SetShape,
// SetFilter, a restore), which then copies it first: a rollback that clones
// every frame copies them only when bodies come, go or change.
func (w *World) Clone() *World {
	c := NewWorld(w.cfg)
	b := &w.b
	b.shared = true
	c.b = bodies{
		hot: slices.Clone(b.hot), tight: slices.Clone(b.tight), filter: b.filter, shapes: b.shapes, shared: true,
		xf: slices.Clone(b.xf), angle: slices.Clone(b.angle), user: maps.Clone(b.user),
		free: slices.Clone(b.free), moved: slices.Clone(b.moved), dying: slices.Clone(b.dying), dead: slices.Clone(b.dead),
		count: b.count, cats: b.cats.clone(), epoch: b.epoch,
	}
	c.syncCatState()
	if w.tree != nil {
		c.attachTree(w.tree.Clone())
	}
	c.setParallelFrom(int(w.parPairs), int(w.parQueries))
	if w.bullets != nil {
		c.bullets = &bulletSet{slots: slices.Clone(w.bullets.slots), prev: slices.Clone(w.bullets.prev), at: slices.Clone(w.bullets.at)}
	}
	c.contacts, c.ended = slices.Clone(w.contacts), slices.Clone(w.ended)
	c.began = slices.Clone(w.began)
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
	d.multi, d.pos, d.on = slices.Clone(c.multi), slices.Clone(c.pos), c.on
	return d
}
