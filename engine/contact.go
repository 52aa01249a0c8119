package engine

import (
	"slices"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// contact is how the world stores a Contact: 96 bytes instead of 128, for
// the contacts of a step (in one buffer with those of the step before
// while the narrow phase runs; see sink) are a good part of a big world's
// heap. Contacts, Began and Ended build the Contact as
// they yield it.
//
// A swept contact's depth is always 0 and any other contact's TOI is 0
// (Step makes no other, and the snapshot decoder refuses other), so one
// field holds whichever of the two can be non-zero. The part indexes are
// at most shape.MaxChainPoints, below 1<<24, which leaves pb's top byte
// for the point count and the flags.
type contact struct {
	a, b   BodyID
	normal shape.Vec2
	depth  float64 // the manifold's depth, or a swept contact's TOI
	points [2]narrowphase.ContactPoint
	pa     uint32 // PartA
	pb     uint32 // PartB in the low 24 bits, ctTwo, ctSensor and ctSwept above
}

// Bits of contact.pb above the part index.
const (
	ctPartMask uint32 = 1<<24 - 1
	ctTwo      uint32 = 1 << 24 // two points, else one
	ctSensor   uint32 = 1 << 25
	ctSwept    uint32 = 1 << 26
)

// makeContact returns the stored form of a contact of a and b with
// manifold m (Count 1 or 2), parts pa and pb, not swept.
func makeContact(a, b BodyID, m *narrowphase.Manifold, pa, pb int, sensor bool) contact {
	var c contact
	c.set(a, b, m, pa, pb, sensor)
	return c
}

// set makes c the stored form of a contact of a and b with manifold m
// (Count 1 or 2), parts pa and pb, not swept, writing every field.
func (c *contact) set(a, b BodyID, m *narrowphase.Manifold, pa, pb int, sensor bool) {
	c.a, c.b = a, b
	c.normal, c.depth, c.points = m.Normal, m.Depth, m.Points
	c.pa, c.pb = uint32(pa), uint32(pb)|ctBits(m.Count, sensor)
}

// A sink receives the contacts the narrow phase writes, in pair order,
// each written in place through grow1 rather than built and copied in.
//
// A worker's sink (w nil) only collects them. The world's sink also diffs
// them with the previous step's contacts as it goes, filling began and
// ended: the previous contacts wait at the end of the same array, and are
// consumed front to back as the new list grows toward them, so one buffer
// holds both steps' contacts where two would hold them side by side. The
// ended ones stay in that array too: each is moved down into the places
// the diff has consumed, so the array reads, front to back, the written
// contacts, free places, the ended contacts and the previous contacts not
// yet diffed, with free places between the last two where previous
// contacts went on. The world's Ended list is that part of the array, and
// needs no buffer of its own (in a room of a hundred bodies, the 1.6 KB a
// separate buffer held).
type sink struct {
	all    []contact // all[:n] written, all[e0:e1] ended, all[lim:] the previous contacts not yet diffed
	n      int
	e0, e1 int
	lim    int
	nj     int    // the written contacts from all[nj] on are not yet diffed
	w      *World // whose began and ended the diff fills; nil for a worker
}

// start makes s the world's sink for a step whose previous contacts are
// prev: they are moved to the end of their array, which the new contacts
// fill from the front.
func (s *sink) start(w *World, prev []contact) {
	all := prev[:cap(prev)]
	lim := len(all) - len(prev)
	copy(all[lim:], prev)
	*s = sink{all: all, e0: lim, e1: lim, lim: lim, w: w}
}

// collect makes s a worker's sink writing into buf's array.
func (s *sink) collect(buf []contact) {
	all := buf[:cap(buf)]
	*s = sink{all: all, e0: len(all), e1: len(all), lim: len(all)}
}

// list returns the contacts written.
func (s *sink) list() []contact { return s.all[:s.n] }

// grow1 makes s's list one contact longer and returns a pointer to that
// last contact, of slot key key (pairKey), whose fields the caller must
// all write.
func (s *sink) grow1(key uint64) *contact {
	if s.n == s.e0 {
		s.makeRoom(key)
	}
	s.n++
	return &s.all[s.n-1]
}

// makeRoom frees one place after the written contacts before a contact of
// slot key key is written: by diffing what comes before that key, which
// consumes previous contacts, then by moving the ended contacts up against
// the previous ones left, else by moving both to the end of a larger
// array.
func (s *sink) makeRoom(key uint64) {
	if s.w != nil && key > 0 {
		s.settle(key - 1)
		if s.n < s.e0 {
			return
		}
	}
	if s.e1 < s.lim {
		k := s.e1 - s.e0
		copy(s.all[s.lim-k:s.lim], s.all[s.e0:s.e1])
		s.e0, s.e1 = s.lim-k, s.lim
		if s.n < s.e0 {
			return
		}
	}
	// The array grows as append grows a slice, the written contacts
	// staying at the front and the rest moving to the new end.
	k := len(s.all)
	all := slices.Grow(s.all, 1)
	all = all[:cap(all)]
	d := len(all) - k
	copy(all[s.e0+d:], all[s.e0:k])
	s.all, s.e0, s.e1, s.lim = all, s.e0+d, s.e1+d, s.lim+d
}

// end moves the previous contact at all[i], which the diff has consumed,
// to the end of the ended contacts.
func (s *sink) end(i int) {
	s.all[s.e1] = s.all[i]
	s.e1++
}

// settle diffs the written contacts and the previous ones of slot keys up
// to bound, which must be complete on both sides: it appends to the
// world's began the indexes of the new ones, and to the ended contacts the
// previous ones, that are not on the other side, and points the world's
// ended list at them. Equal slots with different ids mean a body was
// removed and its slot reused: the old contact ended and the new one
// began.
func (s *sink) settle(bound uint64) {
	w := s.w
	all, cur := s.all, s.all[:s.n]
	i, j := s.lim, s.nj
	for i < len(all) && j < len(cur) {
		p, q := &all[i], &cur[j]
		kp, kq := slotKey(p), slotKey(q)
		if min(kp, kq) > bound {
			break // the smaller of the two is beyond bound, and all after it
		}
		switch {
		case kp < kq || kp == kq && (p.pa < q.pa || p.pa == q.pa && p.partB() < q.partB()):
			s.end(i)
			i++
		case kp > kq || p.pa != q.pa || p.partB() != q.partB():
			w.began = append(w.began, int32(j))
			j++
		default:
			if p.a != q.a || p.b != q.b {
				s.end(i)
				w.began = append(w.began, int32(j))
			}
			i++
			j++
		}
	}
	if j == len(cur) {
		for ; i < len(all) && slotKey(&all[i]) <= bound; i++ {
			s.end(i)
		}
	}
	if i == len(all) {
		for ; j < len(cur) && slotKey(&cur[j]) <= bound; j++ {
			w.began = append(w.began, int32(j))
		}
	}
	s.lim, s.nj = i, j
	w.ended = s.all[s.e0:s.e1:s.e1]
}

// ctBits returns the bits of contact.pb for a manifold of count points
// (1 or 2) and the sensor flag.
func ctBits(count int, sensor bool) uint32 {
	f := uint32(count-1) << 24
	if sensor {
		f |= ctSensor
	}
	return f
}

func (c *contact) partB() uint32 { return c.pb & ctPartMask }
func (c *contact) count() int    { return 1 + int(c.pb>>24&1) }
func (c *contact) sensor() bool  { return c.pb&ctSensor != 0 }
func (c *contact) swept() bool   { return c.pb&ctSwept != 0 }

// manifold returns c's manifold.
func (c *contact) manifold() narrowphase.Manifold {
	m := narrowphase.Manifold{Normal: c.normal, Depth: c.depth, Points: c.points, Count: c.count()}
	if c.swept() {
		m.Depth = 0
	}
	return m
}

// toi returns c's TOI: 0 unless it is swept.
func (c *contact) toi() float64 {
	if c.swept() {
		return c.depth
	}
	return 0
}

// export returns c as a Contact. Contacts, Began and Ended call it for
// every contact they yield, so it writes each field once, with no
// temporary manifold, and reads the bits itself rather than through the
// accessors: that keeps it within the compiler's inlining budget (cost 79
// of 80) for callers of the engine's iterators.
func (c *contact) export() (ct Contact) {
	ct.A, ct.B = c.a, c.b
	ct.Manifold.Normal, ct.Manifold.Points = c.normal, c.points
	ct.Manifold.Count = 1 + int(c.pb>>24&1)
	ct.PartA, ct.PartB = int(c.pa), int(c.pb&ctPartMask)
	ct.Sensor, ct.Swept = c.pb&ctSensor != 0, c.pb&ctSwept != 0
	if ct.Swept {
		ct.TOI = c.depth
	} else {
		ct.Manifold.Depth = c.depth
	}
	return ct
}
