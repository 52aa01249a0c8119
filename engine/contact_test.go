package engine

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
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

// TestSinkDiffsAsItWrites: the world's sink, which diffs the new contacts
// with the previous ones while it writes them into the array the previous
// ones wait at the end of, gives the began and ended a set difference
// gives, keyed by ids and parts, on random lists: few or many contacts,
// lists sharing most contacts or none, slots reused under new ids, arrays
// with no room to spare or plenty, and the merged buffers of workers.
func TestSinkDiffsAsItWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t, 17), 17))
	type ident struct {
		a, b   BodyID
		pa, pb uint32
	}
	idOf := func(c *contact) ident { return ident{c.a, c.b, c.pa, c.partB()} }
	// list draws a sorted list of contacts: slot pairs from a small
	// range, up to three part pairs each, generations 1 or 2.
	list := func(n, slots int) []contact {
		var cs []contact
		for range n {
			a := int32(r.IntN(slots))
			c := a + 1 + int32(r.IntN(slots))
			ga, gc := uint32(1+r.IntN(2)), uint32(1+r.IntN(2))
			c0 := contact{a: makeID(a, ga), b: makeID(c, gc), pa: uint32(r.IntN(3)), pb: uint32(r.IntN(3)), depth: r.Float64()}
			cs = append(cs, c0)
		}
		slices.SortStableFunc(cs, func(x, y contact) int { return compareContacts(&x, &y) })
		// One contact per slot pair and part pair, as a step makes.
		return slices.CompactFunc(cs, func(x, y contact) bool { return compareContacts(&x, &y) == 0 })
	}
	for trial := range 3000 {
		slots := 2 + r.IntN(40)
		prev := list(r.IntN(60), slots)
		var cur []contact
		switch r.IntN(3) {
		case 0:
			cur = list(r.IntN(60), slots)
		case 1: // mostly the same contacts, some with new ids
			for _, c := range prev {
				if r.IntN(5) == 0 {
					continue
				}
				if r.IntN(8) == 0 {
					c.a = makeID(c.a.slot(), c.a.gen()+1)
				}
				cur = append(cur, c)
			}
			cur = append(cur, list(r.IntN(10), slots)...)
			slices.SortStableFunc(cur, func(x, y contact) int { return compareContacts(&x, &y) })
			cur = slices.CompactFunc(cur, func(x, y contact) bool { return compareContacts(&x, &y) == 0 })
		default: // nothing shared but the slot range
			cur = list(r.IntN(60), slots+40)
		}
		w := &World{}
		buf := make([]contact, len(prev), len(prev)+r.IntN(8)*r.IntN(8))
		copy(buf, prev)
		var s sink
		s.start(w, buf)
		if workers := r.IntN(3); workers == 0 {
			for i := range cur {
				*s.grow1(slotKey(&cur[i])) = cur[i]
			}
		} else {
			// The caller's chunk goes straight in, a worker's is copied
			// in after it, as pool.run does.
			cut := r.IntN(len(cur) + 1)
			for i := range cur[:cut] {
				*s.grow1(slotKey(&cur[i])) = cur[i]
			}
			var ws sink
			for i := range cur[cut:] {
				*ws.grow1(slotKey(&cur[cut+i])) = cur[cut+i]
			}
			for _, c := range ws.list() {
				*s.grow1(slotKey(&c)) = c
			}
		}
		s.settle(math.MaxUint64)
		got := s.list()
		if !slices.Equal(got, cur) {
			t.Fatalf("trial %d: the sink's list differs from what was written", trial)
		}
		inPrev, inCur := map[ident]bool{}, map[ident]bool{}
		for i := range prev {
			inPrev[idOf(&prev[i])] = true
		}
		for i := range cur {
			inCur[idOf(&cur[i])] = true
		}
		var wantBegan []int32
		for i := range cur {
			if !inPrev[idOf(&cur[i])] {
				wantBegan = append(wantBegan, int32(i))
			}
		}
		var wantEnded []contact
		for i := range prev {
			if !inCur[idOf(&prev[i])] {
				wantEnded = append(wantEnded, prev[i])
			}
		}
		if !slices.Equal(w.began, wantBegan) {
			t.Fatalf("trial %d: began %v, want %v", trial, w.began, wantBegan)
		}
		if !slices.Equal(w.ended, wantEnded) {
			t.Fatalf("trial %d: ended %d contacts, want %d (or different ones)", trial, len(w.ended), len(wantEnded))
		}
	}
}
