package narrowphase_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/narrowphase"
	"github.com/collide-go/collide/shape"
)

// TestMTVLeavesOverlapPushOutClears is the push-out bug: moving a ball by
// the exact MTV out of a wall left it 5.7e-15 deep, a contact again.
func TestMTVLeavesOverlapPushOutClears(t *testing.T) {
	ball, wall := npCircle(t, 0.5), npAABB(t, 5, 0.1)
	wx := shape.NewTransform(shape.V(306.0263755525278, 205.25976488989696), 0)
	p := shape.V(305.87970620406844, 204.8299071893968)
	m, ok := narrowphase.Collide(ball, shape.NewTransform(p, 0), wall, wx)
	if !ok {
		t.Fatal("no contact: the test would prove nothing")
	}
	d, ok := narrowphase.PushOut(ball, shape.NewTransform(p, 0), wall, wx)
	if !ok {
		t.Fatal("PushOut reports no overlap")
	}
	if m2, still := narrowphase.Collide(ball, shape.NewTransform(p.Add(d), 0), wall, wx); still {
		t.Errorf("after PushOut by %v the pair is still a contact of depth %g", d, m2.Depth)
	}
	if l := d.Len(); !(l >= m.Depth && l-m.Depth <= 1e-12) {
		t.Errorf("|PushOut| = %v for depth %v: want the depth plus a few ulps", l, m.Depth)
	}
	// Apart: nothing to do.
	if d, ok := narrowphase.PushOut(ball, shape.NewTransform(shape.V(0, 0), 0), wall, wx); ok || d != (shape.Vec2{}) {
		t.Errorf("PushOut of a pair apart = %v, %v; want zero, false", d, ok)
	}
}

// TestPushOutClearsEveryKindPair pushes random overlapping pairs of every
// kind pair apart at coordinates from 1 to 1e7, thin walls and containment
// included. After the push Collide must report no contact, and the oracle
// (support functions of independently placed geometry) must see at most a
// rounding step of overlap; the push must be the MTV plus a margin of a few
// ulps. It logs how often the plain MTV leaves the pair in contact.
func TestPushOutClearsEveryKindPair(t *testing.T) {
	seed := npSeed(t)
	npLogSeed(t, seed)
	rng := rand.New(rand.NewPCG(seed, 0x9005))
	rounds := 150
	if testing.Short() {
		rounds = 30
	}
	var pairs, mtvStuck int
	for _, far := range []float64{0, 300, 1e4, 1e7} {
		for _, ka := range npKinds {
			for _, kb := range npKinds {
				for range rounds {
					a, ta, b, tb := npRandomPair(t, rng, ka, kb)
					if rng.IntN(4) == 0 { // a long thin wall
						b = npOBB(t, 5*rng.Float64()+1, 0.01+0.1*rng.Float64())
					}
					off := shape.V(far*(1+rng.Float64()), far*(1+rng.Float64()))
					ta.Pos, tb.Pos = ta.Pos.Add(off), tb.Pos.Add(off)
					m, ok := narrowphase.Collide(a, ta, b, tb)
					if !ok {
						continue
					}
					pairs++
					raw := ta
					raw.Pos = ta.Pos.Sub(m.MTV())
					if _, hit := narrowphase.Collide(a, raw, b, tb); hit {
						mtvStuck++
					}
					d, ok := narrowphase.PushOut(a, ta, b, tb)
					if !ok {
						t.Fatalf("PushOut(%v at %v, %v at %v) reports no overlap; Collide depth %g", a, ta, b, tb, m.Depth)
					}
					moved := ta
					moved.Pos = ta.Pos.Add(d)
					if m2, hit := narrowphase.Collide(a, moved, b, tb); hit {
						t.Fatalf("PushOut(%v at %v, %v at %v) = %v leaves depth %g", a, ta, b, tb, d, m2.Depth)
					}
					scale := 1 + math.Abs(ta.Pos.X) + math.Abs(ta.Pos.Y) + a.BoundingRadius() + b.BoundingRadius()
					if o := exactOracle(npPlace(a, moved), npPlace(b, tb)); o.Depth > 1e-12*scale {
						t.Fatalf("PushOut(%v at %v, %v at %v): the oracle still sees depth %g", a, ta, b, tb, o.Depth)
					}
					if l := d.Len(); !(l >= m.Depth*(1-1e-15)) || l-m.Depth > 1e-9*scale {
						t.Fatalf("|PushOut| = %v for depth %v at scale %v", l, m.Depth, scale)
					}
					if dot := d.Dot(m.Normal); !(dot < 0) || math.Abs(d.Cross(m.Normal)) > 1e-12*d.Len() {
						t.Fatalf("PushOut = %v is not along the negated normal %v", d, m.Normal)
					}
				}
			}
		}
	}
	if pairs < 1000 {
		t.Fatalf("only %d overlapping pairs: the test proves little", pairs)
	}
	t.Logf("%d overlapping pairs: moving by the plain MTV left %d (%.1f%%) in contact; PushOut cleared all", pairs, mtvStuck, 100*float64(mtvStuck)/float64(pairs))
}

func BenchmarkPushOut(b *testing.B) {
	ball, wall := npCircle(b, 0.5), npAABB(b, 5, 0.1)
	wx := shape.NewTransform(shape.V(306.0263755525278, 205.25976488989696), 0)
	ta := shape.NewTransform(shape.V(305.87970620406844, 204.8299071893968), 0)
	b.ReportAllocs()
	for b.Loop() {
		narrowphase.PushOut(ball, ta, wall, wx)
	}
}

// A ball pushed out of a wall is clear of it at the next Collide.
func ExamplePushOut() {
	ball, _ := shape.NewCircle(0.5)
	wall, _ := shape.NewAABB(5, 0.1)
	wx := shape.NewTransform(shape.V(306.0263755525278, 205.25976488989696), 0)
	p := shape.V(305.87970620406844, 204.8299071893968)
	m, _ := narrowphase.Collide(ball, shape.NewTransform(p, 0), wall, wx)
	d, _ := narrowphase.PushOut(ball, shape.NewTransform(p, 0), wall, wx)
	_, still := narrowphase.Collide(ball, shape.NewTransform(p.Add(d), 0), wall, wx)
	fmt.Printf("depth %.3f, pushed %.3f down, still in contact: %v\n", m.Depth, -d.Y, still)
	// Output: depth 0.170, pushed 0.170 down, still in contact: false
}
