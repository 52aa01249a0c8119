package engine

import (
	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// contact is how the world stores a Contact: 96 bytes instead of 128, for
// two buffers of them (this step's and the step before's) are a good part
// of a big world's heap. Contacts, Began and Ended build the Contact as
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

// grow1 returns out one contact longer and a pointer to that last contact,
// whose fields the caller must all write: the narrow phase writes each
// contact in place rather than build it and copy it in.
func grow1(out []contact) ([]contact, *contact) {
	if len(out) == cap(out) {
		out = append(out, contact{})[:len(out)]
	}
	out = out[:len(out)+1]
	return out, &out[len(out)-1]
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
