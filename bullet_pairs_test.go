package collide_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide"
)

var bulletPairSeed = flag.Uint64("bulletpairseed", 0, "seed of TestBulletCirclesAgainstClosedForm (0: a random one)")

// TestBulletsCrossingMidStepBug: the pair of two bullets was swept only
// when the lower slot's bullet had moved and the higher one's box where it
// ended met the lower one's path. Two bullets whose paths cross in the
// middle of a step, and a bullet passing through a bullet that stood
// still, were never contacts.
func TestBulletsCrossingMidStepBug(t *testing.T) {
	ball := must[collide.Shape](t)(collide.NewCircle(0.1))
	for _, c := range []struct {
		name           string
		a0, a1, b0, b1 collide.Vec2 // the lower slot's motion, the higher's
		toi            float64
	}{
		// Centres meet at the origin at t = 0.5; the circles touch when
		// √2·|20t − 10| = 0.2.
		{"crossing", collide.V(-10, 0), collide.V(10, 0), collide.V(0, -10), collide.V(0, 10), 0.5 - 0.2/(20*math.Sqrt2)},
		// The higher slot passes through the lower, which stays.
		{"lower still", collide.V(0, 0), collide.V(0, 0), collide.V(-10, 0), collide.V(10, 0), (10 - 0.2) / 20},
		// The lower slot passes through the higher, which stays.
		{"higher still", collide.V(-10, 0), collide.V(10, 0), collide.V(0, 0), collide.V(0, 0), (10 - 0.2) / 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, workers := range []int{1, 4} {
				w := collide.NewWorld(collide.Config{Workers: workers})
				a := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: c.a0, Bullet: true}))
				b := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: ball, Position: c.b0, Bullet: true}))
				w.Step()
				if err := w.SetTransform(a, c.a1, 0); err != nil {
					t.Fatal(err)
				}
				if err := w.SetTransform(b, c.b1, 0); err != nil {
					t.Fatal(err)
				}
				w.Step()
				var got []collide.Contact
				for ct := range w.Contacts() {
					got = append(got, ct)
				}
				if len(got) != 1 {
					t.Fatalf("workers %d: %d contacts, want 1 swept contact", workers, len(got))
				}
				ct := got[0]
				if ct.A != a || ct.B != b || !ct.Swept || math.Abs(ct.TOI-c.toi) > 1e-12 {
					t.Fatalf("workers %d: contact %v–%v swept %v TOI %v, want %v–%v swept at %v", workers, ct.A, ct.B, ct.Swept, ct.TOI, a, b, c.toi)
				}
				began := 0
				for range w.Began() {
					began++
				}
				if began != 1 {
					t.Fatalf("workers %d: %d Began, want 1", workers, began)
				}
				w.Close()
			}
		})
	}
}

// TestBulletCirclesAgainstClosedForm moves circles, most of them bullets,
// at 0 to 60 units a step (some standing still, some teleported), near the
// origin and at 1e6, with 1 to 3 workers, and checks
// every Step's contacts against a closed form that does not use the
// engine's casts: two circles overlap at the end when their centres are
// closer than the radii's sum; otherwise, when either is a bullet that
// moved, the centres' distance along the two linear motions (a bullet
// from its place at the previous Step, any other body where it is now) is
// a quadratic in t whose least value says whether they touched on the way
// and whose first root is the TOI.
func TestBulletCirclesAgainstClosedForm(t *testing.T) {
	seed := *bulletPairSeed
	if seed == 0 {
		seed = randomSeed()
	}
	t.Logf("seed %d (-bulletpairseed to repeat)", seed)
	r := rand.New(rand.NewPCG(seed, 77))
	steps := 150
	if testing.Short() {
		steps = 40
	}
	type body struct {
		id       collide.BodyID
		rad      float64
		bullet   bool
		static   bool
		pos, old collide.Vec2
	}
	for _, c := range []struct {
		workers int
		base    float64
	}{{1, 0}, {3, 0}, {2, 1e6}} {
		workers, base := c.workers, c.base
		w := collide.NewWorld(collide.Config{Workers: workers})
		bodies := make([]body, 80)
		for i := range bodies {
			b := &bodies[i]
			b.rad = 0.05 + 2*r.Float64()*r.Float64()
			b.bullet = r.IntN(3) != 0
			b.pos = collide.V(base+100*r.Float64(), base-100*r.Float64())
			kind := collide.Dynamic
			if !b.bullet && r.IntN(2) == 0 {
				kind, b.static = collide.Static, true
			}
			s := must[collide.Shape](t)(collide.NewCircle(b.rad))
			b.id = must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: s, Position: b.pos, Bullet: b.bullet, Kind: kind}))
		}
		w.Step()
		checked, swept := 0, 0
		for step := range steps {
			for i := range bodies {
				b := &bodies[i]
				b.old = b.pos
				switch r.IntN(6) {
				case 0: // stays
				case 1: // a teleport
					b.pos = collide.V(base+100*r.Float64(), base-100*r.Float64())
				default:
					sp := 60 * r.Float64() * r.Float64()
					s, c := math.Sincos(2 * math.Pi * r.Float64())
					b.pos = b.pos.Add(collide.V(c*sp, s*sp))
				}
				if err := w.SetTransform(b.id, b.pos, 0); err != nil {
					t.Fatal(err)
				}
			}
			w.Step()
			got := map[[2]collide.BodyID]collide.Contact{}
			for c := range w.Contacts() {
				got[[2]collide.BodyID{c.A, c.B}] = c
			}
			want := 0
			for i := range bodies {
				for j := i + 1; j < len(bodies); j++ {
					x, y := &bodies[i], &bodies[j]
					if x.static && y.static {
						continue // static bodies never collide with each other
					}
					key := [2]collide.BodyID{x.id, y.id}
					c, found := got[key]
					sum := x.rad + y.rad
					// Relative motion of y seen from x, from t = 0 to 1.
					x0, y0 := x.pos, y.pos
					if x.bullet {
						x0 = x.old
					}
					if y.bullet {
						y0 = y.old
					}
					p0 := y0.Sub(x0)
					p1 := y.pos.Sub(x.pos)
					end := p1.Len()
					tol := 1e-9 * (1 + sum + p0.Len() + end)
					if math.Abs(end-sum) < tol {
						continue // touching at the end, within rounding: either answer
					}
					if end < sum {
						want++
						if !found || c.Swept {
							t.Fatalf("step %d: %v and %v overlap at the end (%v < %v): contact %v, swept %v", step, x.id, y.id, end, sum, found, c.Swept)
						}
						continue
					}
					if (!x.bullet || x.old == x.pos) && (!y.bullet || y.old == y.pos) {
						if found {
							t.Fatalf("step %d: %v and %v apart and no bullet moved: contact %+v", step, x.id, y.id, c)
						}
						continue
					}
					// |p0 + t·d|² = sum² on [0, 1].
					d := p1.Sub(p0)
					qa, qb, qc := d.Dot(d), 2*p0.Dot(d), p0.Dot(p0)-sum*sum
					tMin := 0.0
					if qa > 0 {
						tMin = math.Min(1, math.Max(0, -qb/(2*qa)))
					}
					least := p0.Add(d.Scale(tMin)).Len()
					if math.Abs(least-sum) < tol {
						continue // grazing within rounding
					}
					if least > sum {
						if found {
							t.Fatalf("step %d: %v and %v pass %v apart (radii %v): contact %+v", step, x.id, y.id, least, sum, c)
						}
						continue
					}
					want++
					toi := 0.0
					if qc > 0 {
						toi = (-qb - math.Sqrt(qb*qb-4*qa*qc)) / (2 * qa)
					}
					if !found || !c.Swept {
						t.Fatalf("step %d: %v (bullet %v, %v→%v) and %v (bullet %v, %v→%v) touch at t=%v on the way: contact %v %+v",
							step, x.id, x.bullet, x.old, x.pos, y.id, y.bullet, y.old, y.pos, toi, found, c)
					}
					if math.Abs(c.TOI-toi) > 1e-6 {
						t.Fatalf("step %d: %v and %v: TOI %v, want %v", step, x.id, y.id, c.TOI, toi)
					}
					swept++
				}
			}
			checked += want
			if len(got) < want {
				t.Fatalf("step %d: %d contacts, want at least %d", step, len(got), want)
			}
		}
		if swept == 0 {
			t.Fatalf("workers %d: no swept contact in %d steps: the test checks nothing of bullets", workers, steps)
		}
		t.Logf("workers %d, at %g: %d contacts checked, %d of them swept", workers, base, checked, swept)
		w.Close()
	}
}

// TestBulletSweptContactNamesParts: a swept contact names the parts that
// touch first, as a discrete one does: the segment of a chain wall a bullet
// crossed, and the part of a compound bullet that reached the wall first,
// against a brute force over lone segments and lone parts with Cast.
func TestBulletSweptContactNamesParts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	ball := must[collide.Shape](t)(collide.NewCircle(0.15))
	dot := must[collide.Shape](t)(collide.NewCircle(0.2))
	parts := []collide.Part{
		{Shape: dot, Offset: collide.NewTransform(collide.V(-1, 0.3), 0)},
		{Shape: dot, Offset: collide.NewTransform(collide.V(1, -0.2), 0)},
		{Shape: dot, Offset: collide.NewTransform(collide.V(0, 1.1), 0)},
	}
	dumbbell := must[collide.Shape](t)(collide.NewCompound(parts))
	checked := [2]int{}
	for trial := range 400 {
		pts := make([]collide.Vec2, 30)
		for i := range pts {
			pts[i] = collide.V(float64(i)*0.7, 3*r.Float64())
		}
		chain := must[collide.Shape](t)(collide.NewChain(pts, false))
		compound := trial%2 == 1
		w := collide.NewWorld(collide.Config{Workers: 1 + trial%3})
		wall := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: chain, Kind: collide.Static}))
		s := ball
		if compound {
			s = dumbbell
		}
		from := collide.V(20*r.Float64(), -4-4*r.Float64())
		to := collide.V(20*r.Float64(), 7+4*r.Float64())
		bullet := must[collide.BodyID](t)(w.Add(collide.BodyDef{Shape: s, Position: from, Bullet: true}))
		w.Step()
		if err := w.SetTransform(bullet, to, 0); err != nil {
			t.Fatal(err)
		}
		w.Step()
		// The brute force: each lone segment against each lone part.
		best, second, bestSeg, bestPart := math.Inf(1), math.Inf(1), -1, -1
		own := []collide.Part{{Shape: s}}
		if compound {
			own = parts
		}
		for j, p := range own {
			for i := range len(pts) - 1 {
				seg := must[collide.Shape](t)(collide.NewSegment(pts[i], pts[i+1]))
				h, ok := collide.Cast(p.Shape, collide.NewTransform(from.Add(p.Offset.Pos), 0), to.Sub(from), seg, collide.Transform{})
				if !ok {
					continue
				}
				switch {
				case h.Fraction < best:
					second, best, bestSeg, bestPart = best, h.Fraction, i, j
				case h.Fraction < second:
					second = h.Fraction
				}
			}
		}
		var got []collide.Contact
		for c := range w.Contacts() {
			got = append(got, c)
		}
		w.Close()
		if bestSeg < 0 {
			if len(got) != 0 {
				t.Fatalf("trial %d: the bullet passes the chain, yet contacts %+v", trial, got)
			}
			continue
		}
		if len(got) != 1 || !got[0].Swept {
			t.Fatalf("trial %d: the bullet crosses segment %d at %v: contacts %+v, want one swept", trial, bestSeg, best, got)
		}
		if second-best < 1e-9 {
			continue // two parts touch at once, to rounding: either may be named
		}
		c := got[0]
		if c.A != wall || c.PartA != bestSeg || c.PartB != max(bestPart, 0)*btoi(compound) || math.Abs(c.TOI-best) > 1e-9 {
			t.Fatalf("trial %d: contact %v/%d–%v/%d at %v, want the wall's segment %d and the bullet's part %d at %v",
				trial, c.A, c.PartA, c.B, c.PartB, c.TOI, bestSeg, bestPart, best)
		}
		checked[btoi(compound)]++
	}
	if checked[0] < 100 || checked[1] < 100 {
		t.Fatalf("checked %d crossings of a circle and %d of a compound: too few", checked[0], checked[1])
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
