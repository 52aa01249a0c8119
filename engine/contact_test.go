package engine

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"unsafe"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestContactStoredBitForBit: a contact comes back from its stored form
// field for field, bit for bit, for every field a Step can set: one or two
// points, parts up to MaxChainPoints, sensor, swept with a TOI (−0 too).
func TestContactStoredBitForBit(t *testing.T) {
	if n := unsafe.Sizeof(contact{}); n != 96 {
		t.Errorf("contact is %d bytes, want 96", n)
	}
	two := narrowphase.Manifold{
		Normal: shape.V(0.6, -0.8), Depth: 0.25, Count: 2,
		Points: [2]narrowphase.ContactPoint{{Point: shape.V(1, 2), Depth: 0.25}, {Point: shape.V(-3, 4e300), Depth: 5e-324}},
	}
	one := two
	one.Count = 1
	touch := narrowphase.Manifold{Normal: shape.V(-1, 0), Count: 1, Points: [2]narrowphase.ContactPoint{{Point: shape.V(7, 8)}}}
	tests := []struct {
		name string
		c    Contact
	}{
		{"two points", Contact{A: makeID(1, 1), B: makeID(2, 3), Manifold: two}},
		{"one point, junk in the second", Contact{A: makeID(1, 1), B: makeID(2, 3), Manifold: one}},
		{"sensor parts", Contact{A: makeID(0, 9), B: makeID(1<<30, math.MaxUint32), Manifold: two, PartA: shape.MaxChainPoints, PartB: shape.MaxChainPoints - 1, Sensor: true}},
		{"swept", Contact{A: makeID(4, 1), B: makeID(5, 1), Manifold: touch, PartB: 3, Swept: true, TOI: 0.375}},
		{"swept at -0", Contact{A: makeID(4, 1), B: makeID(5, 1), Manifold: touch, Swept: true, TOI: math.Copysign(0, -1), Sensor: true}},
		{"swept with two points", Contact{A: makeID(4, 1), B: makeID(5, 1), Manifold: narrowphase.Manifold{Normal: two.Normal, Points: two.Points, Count: 2}, Swept: true, TOI: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			s := makeContact(c.A, c.B, &c.Manifold, c.PartA, c.PartB, c.Sensor)
			if c.Swept {
				s.depth = c.TOI
				s.pb |= ctSwept
			}
			got := s.export()
			if !sameContactBits(got, c) {
				t.Errorf("stored and exported: %+v, want %+v", got, c)
			}
		})
	}
}

// sameContactBits reports whether two contacts are equal bit for bit.
func sameContactBits(x, y Contact) bool {
	return x.A == y.A && x.B == y.B && x.PartA == y.PartA && x.PartB == y.PartB && x.Sensor == y.Sensor &&
		x.Swept == y.Swept && bitsEq(x.TOI, y.TOI) && sameManifold(x.Manifold, y.Manifold)
}

// TestSnapshotRefusesDepthAndTOI: a contact whose depth and TOI are both
// non-zero is one no Step makes, and the world keeps only one of the two,
// so the decoder refuses it rather than lose the other.
func TestSnapshotRefusesDepthAndTOI(t *testing.T) {
	ball, _ := shape.NewCircle(1)
	w := NewWorld(Config{Workers: 1})
	_, _ = w.Add(BodyDef{Shape: ball})
	bullet, _ := w.Add(BodyDef{Shape: ball, Position: shape.V(-10, 0), Bullet: true})
	_, _ = w.Add(BodyDef{Shape: ball, Position: shape.V(0, 20)})
	d, _ := w.Add(BodyDef{Shape: ball, Position: shape.V(0, 21.5)})
	w.Step()
	_ = w.SetTransform(bullet, shape.V(10, 0), 0) // through the first: a swept contact
	w.Step()
	_ = w.Move(d, shape.V(0, 0.01)) // moved after the Step: its contact is encoded in full
	var swept, plain bool
	for i := range w.contacts {
		swept = swept || w.contacts[i].swept()
		plain = plain || !w.contacts[i].swept()
	}
	if !swept || !plain {
		t.Fatalf("swept contact %v, plain contact %v: the scene proves nothing", swept, plain)
	}
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := NewWorld(Config{}).UnmarshalBinary(data); err != nil {
		t.Fatalf("the world's own bytes refused: %v", err)
	}
	const depthAt, toiAt = 1 + 8 + 8 + 4 + 4 + 2*8, contactSize - 8
	tried := 0
	for i := range w.contacts {
		c := &w.contacts[i]
		enc := appendContact(nil, c)
		at := bytes.Index(data, enc)
		if at < 0 {
			continue // encoded to be computed again
		}
		off := toiAt
		if c.swept() {
			off = depthAt
		}
		bad := bytes.Clone(data)
		copy(bad[at+off:], appendF64(nil, 0.5))
		if err := NewWorld(Config{}).UnmarshalBinary(bad); !errors.Is(err, ErrSnapshot) {
			t.Errorf("contact %d (swept %v) with depth and TOI both set: err %v, want ErrSnapshot", i, c.swept(), err)
		}
		tried++
	}
	if tried == 0 {
		t.Fatal("no contact encoded in full: the test proves nothing")
	}
}
