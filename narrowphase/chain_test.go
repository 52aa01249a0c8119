package narrowphase_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

func npChain(t testing.TB, closed bool, pts ...shape.Vec2) shape.Shape {
	t.Helper()
	s, err := shape.NewChain(pts, closed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// npInCone reports whether the unit u lies in the cone from a to b (less
// than a half turn), to 1e-9.
func npInCone(a, b, u shape.Vec2) bool {
	if a.Cross(b) >= 0 {
		return a.Cross(u) >= -1e-9 && u.Cross(b) >= -1e-9
	}
	return a.Cross(u) <= 1e-9 && u.Cross(b) <= 1e-9
}

// chainContacts collects CollideParts' contacts of a chain with a shape.
type chainContact struct {
	seg int
	m   narrowphase.Manifold
}

func chainContacts(c shape.Shape, tc shape.Transform, s shape.Shape, ts shape.Transform) []chainContact {
	var out []chainContact
	narrowphase.CollideParts(c, tc, s, ts, func(pa, _ int, m narrowphase.Manifold) bool {
		out = append(out, chainContact{pa, m})
		return true
	})
	return out
}

// TestChainCollinearNoGhost slides shapes along a chain of collinear
// segments of uneven lengths, turned and far from the origin: at every
// step every contact has exactly the normal and depth that one long
// segment in its place gives, and there is at least one.
func TestChainCollinearNoGhost(t *testing.T) {
	var pts []shape.Vec2
	for x := -10.0; x < 10; x += 0.37 + 0.2*math.Sin(7*x) {
		pts = append(pts, xy(x, 0))
	}
	pts = append(pts, xy(10, 0))
	chain := npChain(t, false, pts...)
	long := npSegment(t, xy(-10, 0), xy(10, 0))
	movers := []struct {
		name  string
		s     shape.Shape
		angle float64
		y     float64 // height of the body's origin above the line
	}{
		{"circle", npCircle(t, 0.5), 0, 0.3},
		{"box", npOBB(t, 0.6, 0.4), 0, 0.25},
		{"tilted box", npOBB(t, 0.6, 0.4), 0.2, 0.45},
		{"capsule", npCapsule(t, xy(-0.5, 0), xy(0.5, 0), 0.3), 0, 0.1},
		{"capsule below", npCapsule(t, xy(-0.5, 0), xy(0.5, 0), 0.3), 0.1, -0.2},
	}
	for _, frame := range []shape.Transform{shape.Identity, npAt(3e5, -2e5, 0.7)} {
		for _, mv := range movers {
			for x := -8.0; x <= 8; x += 0.0137 {
				ts := frame.Mul(npAt(x, mv.y, mv.angle))
				want, ok := narrowphase.Collide(long, frame, mv.s, ts)
				if !ok {
					t.Fatalf("%s at x=%g: no contact with the long segment", mv.name, x)
				}
				got := chainContacts(chain, frame, mv.s, ts)
				if len(got) == 0 {
					t.Fatalf("%s at x=%g: no chain contact, long segment gives %+v", mv.name, x, want)
				}
				tol := 1e-9 * (1 + math.Abs(frame.Pos.X) + math.Abs(frame.Pos.Y))
				for _, c := range got {
					if c.m.Normal.Sub(want.Normal).Len() > 1e-9 || math.Abs(c.m.Depth-want.Depth) > tol {
						t.Fatalf("%s at x=%g: segment %d gives normal %v depth %.17g; one long segment gives %v, %.17g",
							mv.name, x, c.seg, c.m.Normal, c.m.Depth, want.Normal, want.Depth)
					}
				}
				if m, ok := narrowphase.Collide(chain, frame, mv.s, ts); !ok || m.Normal.Sub(want.Normal).Len() > 1e-9 || math.Abs(m.Depth-want.Depth) > tol {
					t.Fatalf("%s at x=%g: Collide(chain) = %+v, %v; long segment %+v", mv.name, x, m, ok, want)
				}
			}
		}
	}
}

// TestChainCircleSlidesAcrossVertexNoBump: a circle sliding across a
// chain's internal vertex of a gentle concave bend only ever gets its
// segments' face normals (no vertex normal that would bump it), and
// across a gentle convex bend normals within the cone of the two faces.
func TestChainCircleSlidesAcrossVertexNoBump(t *testing.T) {
	for _, tc := range []struct {
		name string
		bend float64 // slope of the second segment: > 0 turns up (concave from above)
	}{{"concave", 0.05}, {"convex", -0.05}} {
		chain := npChain(t, false, xy(-5, 0), xy(0, 0), xy(5, 5*tc.bend))
		n0 := xy(0, 1)
		n1 := xy(-tc.bend, 1).Normalize()
		c := npCircle(t, 0.5)
		for x := -3.0; x <= 3; x += 0.001 {
			// Keep the circle 0.4 above the polyline under it.
			y := 0.4
			if x > 0 {
				y += x * tc.bend
			}
			got := chainContacts(chain, shape.Identity, c, npAt(x, y, 0))
			if len(got) == 0 {
				t.Fatalf("%s at x=%g: no contact", tc.name, x)
			}
			for _, g := range got {
				n := g.m.Normal // from the chain toward the circle
				switch tc.name {
				case "concave":
					face := []shape.Vec2{n0, n1}[g.seg]
					if n.Sub(face).Len() > 1e-9 {
						t.Fatalf("concave at x=%g: segment %d normal %v, want its face normal %v", x, g.seg, n, face)
					}
				case "convex":
					if !npInCone(n0, n1, n) {
						t.Fatalf("convex at x=%g: segment %d normal %v outside the cone of %v and %v", x, g.seg, n, n0, n1)
					}
				}
			}
		}
	}
}

// TestChainBoxOverConvexCorner slides a box over the apex of a roof-shaped
// chain: every contact normal lies within the cone of the two face
// normals.
func TestChainBoxOverConvexCorner(t *testing.T) {
	chain := npChain(t, false, xy(-4, -2), xy(0, 0), xy(4, -2))
	nl, nr := xy(-1, 2).Normalize(), xy(1, 2).Normalize()
	box := npOBB(t, 0.5, 0.3)
	// The box rides the roof, its bottom 0.01 below the highest roof point
	// under it.
	for x := -1.5; x <= 1.5; x += 0.003 {
		top := 0.0
		if x-0.5 > 0 {
			top = -(x - 0.5) / 2
		} else if x+0.5 < 0 {
			top = (x + 0.5) / 2
		}
		ts := npAt(x, top-0.01+0.3, 0)
		got := chainContacts(chain, shape.Identity, box, ts)
		if len(got) == 0 {
			t.Fatalf("x=%g: no contact", x)
		}
		for _, g := range got {
			n := g.m.Normal
			if !npInCone(nl, nr, n) {
				t.Fatalf("x=%g: segment %d normal %v outside the cone of %v and %v", x, g.seg, n, nl, nr)
			}
		}
	}
}

// TestChainEndSegments: the open ends of a chain behave as a lone
// segment's ends (round vertex normals); a closed chain has no ends.
func TestChainEndSegments(t *testing.T) {
	open := npChain(t, false, xy(0, 0), xy(2, 0), xy(4, 0))
	c := npCircle(t, 0.5)
	m, ok := narrowphase.Collide(open, shape.Identity, c, npAt(4.3, 0.3, 0))
	if !ok {
		t.Fatal("no contact beyond the open end")
	}
	want := xy(0.3, 0.3).Normalize()
	if m.Normal.Sub(want).Len() > 1e-12 || math.Abs(m.Depth-(0.5-0.3*math.Sqrt2)) > 1e-12 {
		t.Fatalf("beyond the open end: %+v, want normal %v depth %g", m, want, 0.5-0.3*math.Sqrt2)
	}
	m, ok = narrowphase.Collide(open, shape.Identity, c, npAt(-0.3, -0.3, 0))
	if !ok || m.Normal.Sub(xy(-0.3, -0.3).Normalize()).Len() > 1e-12 {
		t.Fatalf("before the first point: %+v %v", m, ok)
	}
	// A closed square: a circle at a corner, outside, gets the corner's
	// vertex normal from exactly one segment.
	sq := npChain(t, true, xy(0, 0), xy(2, 0), xy(2, 2), xy(0, 2))
	got := chainContacts(sq, shape.Identity, c, npAt(2.3, 2.3, 0))
	if len(got) == 0 {
		t.Fatal("closed corner: no contact")
	}
	for _, g := range got {
		if g.m.Normal.Sub(xy(1, 1).Normalize()).Len() > 1e-12 {
			t.Fatalf("closed corner: %+v, want contacts along (1,1)", got)
		}
	}
}

// TestChainAgainstLoneSegments checks CollideParts on random chains and
// shapes against a brute-force scan of the segments, each collided alone:
// every contact it reports is exactly the lone segment's; every segment it
// leaves out is a ghost whose neighbour reports a contact; and a shape
// overlapping any segment gets a contact. PartsNear finds every segment
// whose box meets a query box.
func TestChainAgainstLoneSegments(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 41))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for c := range n {
		pts := make([]shape.Vec2, 2+rng.IntN(12))
		x, y := 0.0, 0.0
		for i := range pts {
			pts[i] = xy(x, y)
			x += 0.3 + rng.Float64()
			y += rng.NormFloat64() * 0.5
			if rng.IntN(4) == 0 {
				y = pts[max(i-1, 0)].Y // collinear runs
			}
		}
		closed := len(pts) >= 3 && rng.IntN(3) == 0
		ch := npChain(t, closed, pts...)
		tc := npAt(rng.Float64()*100, rng.Float64()*100, npRandomAngle(rng))
		k := npKinds[rng.IntN(len(npKinds))]
		s := npRandomShape(t, rng, k)
		local := xy(x*rng.Float64(), rng.NormFloat64())
		ts := shape.Transform{Pos: tc.Apply(local), Rot: shape.NewRot(npRandomAngle(rng))}

		got := map[int]narrowphase.Manifold{}
		narrowphase.CollideParts(ch, tc, s, ts, func(pa, pb int, m narrowphase.Manifold) bool {
			if pb != 0 {
				t.Fatalf("case %d: part %d of a simple shape", c, pb)
			}
			if _, dup := got[pa]; dup {
				t.Fatalf("case %d: segment %d reported twice", c, pa)
			}
			got[pa] = m
			return true
		})
		anyHit := false
		for i := range ch.PartCount() {
			seg, st := ch.Part(i, tc)
			want, hit := narrowphase.Collide(seg, st, s, ts)
			anyHit = anyHit || hit
			m, reported := got[i]
			switch {
			case reported != hit:
				t.Fatalf("case %d: segment %d reported %v, but a lone segment collides: %v", c, i, reported, hit)
			case reported && m != want:
				// A ghost normal replaced by one of the segment's cone: never
				// shallower than the lone segment's, and moving the shape by
				// it clears the segment.
				if m.Depth < want.Depth*(1-1e-9) {
					t.Fatalf("case %d: segment %d depth %.17g below the lone segment's %.17g", c, i, m.Depth, want.Depth)
				}
				moved := npMoved(ts, m.Normal.Scale(m.Depth*1.001+1e-12))
				if _, still := narrowphase.Collide(seg, st, s, moved); still {
					t.Fatalf("case %d: segment %d: moving the shape by %v·%g does not clear it\n%s", c, i, m.Normal, m.Depth, npDescribe(seg, st, s, ts))
				}
			}
		}
		if anyHit && len(got) == 0 {
			t.Fatalf("case %d: the shape overlaps the chain but has no contact", c)
		}
		if ov := narrowphase.Overlap(ch, tc, s, ts); ov != anyHit {
			t.Fatalf("case %d: Overlap = %v, want %v", c, ov, anyHit)
		}
		// The box tree against a scan.
		q := shape.AABBFromPoints(xy(x*rng.Float64(), rng.NormFloat64()*2), xy(x*rng.Float64(), rng.NormFloat64()*2))
		found := map[int]bool{}
		ch.PartsNear(q, func(i int) bool { found[i] = true; return true })
		for i := range ch.PartCount() {
			seg, _ := ch.Part(i, shape.Identity)
			if seg.WorldAABB(shape.Identity).Overlaps(q) && !found[i] {
				t.Fatalf("case %d: PartsNear(%v) misses segment %d", c, q, i)
			}
		}
	}
}

// TestLongChainQueriesStayLocal builds a chain of 100,000 points and checks
// that a shape near one segment collides with the same answer as against
// that segment alone, through the box tree.
func TestLongChainQueriesStayLocal(t *testing.T) {
	const n = 100_000
	pts := make([]shape.Vec2, n)
	for i := range pts {
		pts[i] = xy(float64(i)*0.5, math.Sin(float64(i)*0.01))
	}
	ch := npChain(t, false, pts...)
	if ch.PartCount() != n-1 {
		t.Fatalf("PartCount = %d, want %d", ch.PartCount(), n-1)
	}
	c := npCircle(t, 0.3)
	for _, i := range []int{0, 1, 777, 54321, n - 2} {
		p := pts[i].Add(pts[i+1]).Scale(0.5)
		ts := npAt(p.X, p.Y+0.2, 0)
		got := chainContacts(ch, shape.Identity, c, ts)
		if len(got) == 0 {
			t.Fatalf("near segment %d: no contact", i)
		}
		seg, st := ch.Part(i, shape.Identity)
		want, _ := narrowphase.Collide(seg, st, c, ts)
		found := false
		for _, g := range got {
			found = found || (g.seg == i && g.m == want)
		}
		if !found {
			t.Fatalf("near segment %d: contacts %+v, want segment %d's %+v", i, got, i, want)
		}
		h, ok := narrowphase.RayCast(ch, shape.Identity, xy(p.X, p.Y+5), xy(0, -1), 10)
		if !ok || h.Part != i || math.Abs(h.Distance-5) > 1e-9 {
			t.Fatalf("ray down onto segment %d: %+v %v", i, h, ok)
		}
		if d := narrowphase.Distance(ch, shape.Identity, xy(p.X, p.Y+2)); math.Abs(d-2) > 1e-3 {
			t.Fatalf("distance above segment %d = %g, want about 2", i, d)
		}
	}
}

// TestChainCompoundBothOrders collides chains with compounds and concave
// polygons both ways round: CollideParts(chain, x) reports the very
// contacts of CollideParts(x, chain), normals negated and part indexes
// swapped, each in the order of its first shape's parts (segments first,
// or x's parts first), and every reported part pair is one that the
// parts, placed alone, collide in.
func TestChainCompoundBothOrders(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 17))
	type contact struct {
		seg, part int
		m         narrowphase.Manifold
	}
	pairs := 0
	for range 3000 {
		n := 3 + rng.IntN(10)
		pts := make([]shape.Vec2, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			r := 2 + 2*rng.Float64()
			pts[i] = shape.V(r*math.Cos(a), r*math.Sin(a))
		}
		c := npChain(t, rng.IntN(2) == 0, pts...)
		x := exRandCompound(rng)
		tc := shape.NewTransform(shape.V(rng.Float64(), rng.Float64()), rng.Float64()*6)
		tx := shape.NewTransform(pts[rng.IntN(n)].Add(shape.V(2*rng.Float64()-1, 2*rng.Float64()-1)), rng.Float64()*6)
		var ab, ba []contact
		narrowphase.CollideParts(c, tc, x, tx, func(pa, pb int, m narrowphase.Manifold) bool {
			ab = append(ab, contact{pa, pb, m})
			return true
		})
		narrowphase.CollideParts(x, tx, c, tc, func(pa, pb int, m narrowphase.Manifold) bool {
			ba = append(ba, contact{pb, pa, m.Flip()})
			return true
		})
		if len(ab) != len(ba) {
			t.Fatalf("CollideParts(chain, %v) gives %d contacts, the other way round %d", x.Kind(), len(ab), len(ba))
		}
		for i, k := range ab {
			if i > 0 && (k.seg < ab[i-1].seg || (k.seg == ab[i-1].seg && k.part <= ab[i-1].part)) {
				t.Fatalf("CollideParts(chain, %v): contact %d (segment %d, part %d) after (%d, %d)", x.Kind(), i, k.seg, k.part, ab[i-1].seg, ab[i-1].part)
			}
			if s, p := ba[i].part, ba[i].seg; i > 0 && (s < ba[i-1].part || (s == ba[i-1].part && p <= ba[i-1].seg)) {
				t.Fatalf("CollideParts(%v, chain): contact %d (part %d, segment %d) out of order", x.Kind(), i, s, p)
			}
			found := false
			for _, l := range ba {
				if l.seg == k.seg && l.part == k.part {
					found = true
					if l.m != k.m {
						t.Fatalf("CollideParts(chain, %v) segment %d part %d = %+v, the other way round flipped %+v", x.Kind(), k.seg, k.part, k.m, l.m)
					}
				}
			}
			if !found {
				t.Fatalf("CollideParts(chain, %v) segment %d part %d has no contact the other way round", x.Kind(), k.seg, k.part)
			}
			seg, _ := c.Part(k.seg, tc)
			ps, pt := x.Part(k.part, tx)
			if _, ok := narrowphase.Collide(seg, tc, ps, pt); !ok && k.m.Depth > 1e-9 {
				t.Fatalf("CollideParts(chain, %v) reports segment %d with part %d, depth %g; alone they do not collide", x.Kind(), k.seg, k.part, k.m.Depth)
			}
			pairs++
		}
	}
	if pairs < 1000 {
		t.Fatalf("only %d contacts: the test hardly collides", pairs)
	}
}
