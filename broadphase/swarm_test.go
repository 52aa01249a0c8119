package broadphase

import (
	"math"
	"math/rand/v2"

	"github.com/collide-go/collide/shape"
)

// swarm is the synthetic scene of the benchmarks and the allocation tests:
// n boxes of half extents 2 to 6 in a square world of side 20·√n, each
// moving in a straight line at 0.5 to 3 units per frame and bouncing off
// the walls by reflection.
type swarm struct {
	w    float64
	pos  []shape.Vec2
	vel  []shape.Vec2
	half []shape.Vec2
}

func newSwarm(n int, seed uint64) *swarm {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	s := &swarm{w: 20 * math.Sqrt(float64(n))}
	for range n {
		s.pos = append(s.pos, shape.Vec2{X: r.Float64() * s.w, Y: r.Float64() * s.w})
		a := r.Float64() * 2 * math.Pi
		v := 0.5 + 2.5*r.Float64()
		s.vel = append(s.vel, shape.Vec2{X: v * math.Cos(a), Y: v * math.Sin(a)})
		s.half = append(s.half, shape.Vec2{X: 2 + 4*r.Float64(), Y: 2 + 4*r.Float64()})
	}
	return s
}

func (s *swarm) box(i int) shape.AABB { return shape.AABBFromCenter(s.pos[i], s.half[i]) }

// insert adds every body to t and finds the first pairs.
func (s *swarm) insert(t *Tree) {
	for i := range s.pos {
		t.Insert(int32(i), s.box(i))
	}
	t.UpdatePairs()
}

// step moves every body one frame and updates t, without UpdatePairs.
func (s *swarm) step(t *Tree) {
	for i := range s.pos {
		old := s.pos[i]
		p := old.Add(s.vel[i])
		if p.X < 0 || p.X > s.w {
			s.vel[i].X = -s.vel[i].X
			p.X = reflect(p.X, s.w)
		}
		if p.Y < 0 || p.Y > s.w {
			s.vel[i].Y = -s.vel[i].Y
			p.Y = reflect(p.Y, s.w)
		}
		s.pos[i] = p
		t.Update(int32(i), s.box(i), p.Sub(old))
	}
}

// reflect folds x back into [0, w] across the wall it crossed.
func reflect(x, w float64) float64 {
	if x < 0 {
		return -x
	}
	return 2*w - x
}

// boxes returns every body's tight box, indexed by proxy id.
func (s *swarm) boxes() []shape.AABB {
	out := make([]shape.AABB, len(s.pos))
	for i := range out {
		out[i] = s.box(i)
	}
	return out
}
