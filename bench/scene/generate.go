package scene

import (
	"github.com/collide-go/collide"
	"math"
	"math/rand/v2"
	"slices"
)

// Streams of the PCG generator, so that Swarm and Arena with the same seed
// draw different numbers.
const (
	swarmStream  = 0x73776172_6d000001 // "swarm"
	arenaStream  = 0x6172656e_61000001 // "arena"
	shapesStream = 0x73686170_65000001 // "shape"
)

// WorldSize returns the side of the square world of an n-body scene,
// 20·√n, the rule of the shared swarm generator: about 400 square units a
// body.
func WorldSize(n int) float64 {
	return float64(20 * math.Sqrt(float64(n))) // rounded: callers must not fuse it
}

// Swarm returns the swarm scene of n bodies drawn from seed, named "swarm".
//
// The distributions are those of shared/scenario/gen.py: body i has kind
// i%4 (circle, aabb, obb, poly); its position is uniform in [0, W]² with
// W = [WorldSize](n); its speed is uniform in [0.5, 3) and its heading in
// [0, 2π). A circle's radius and a box's half extents are uniform in
// [2, 6). An obb and a polygon have an angle uniform in [0, 2π) and a spin
// uniform in [-0.05, 0.05). A polygon is the convex hull of 3 to 8 points at
// random angles on a circle of radius uniform in [2, 6), with a triangle as
// the fallback for a degenerate draw. The numbers come from math/rand/v2's
// PCG seeded with seed, so they are not Python's: a Go swarm and a gen.py
// swarm with the same n and seed are different scenes of the same kind.
func Swarm(n int, seed uint64) *Scene {
	n = max(n, 0)
	r := rand.New(rand.NewPCG(seed, swarmStream))
	w := WorldSize(n)
	s := &Scene{Name: "swarm", N: n, World: w, Seed: seed, Bodies: make([]Body, n)}
	for i := range s.Bodies {
		s.Bodies[i] = swarmBody(r, Kind(i%4), w)
	}
	return s
}

// Shapes returns the swarm of n bodies drawn from seed with the newer
// kinds mixed in, named "shapes": body i has kind i%6 (circle, aabb, obb,
// poly, capsule, concave), drawn as Swarm draws the first four; a capsule's
// core half length is uniform in [2, 5) and its radius in [1, 2.5); a
// concave body is a star of 5 to 8 points whose outer radius is uniform in
// [3, 6) and inner radius 0.35 to 0.6 of it (a concave outline of 10 to 16
// vertices). Both turn like the polygons.
func Shapes(n int, seed uint64) *Scene {
	n = max(n, 0)
	r := rand.New(rand.NewPCG(seed, shapesStream))
	w := WorldSize(n)
	s := &Scene{Name: "shapes", N: n, World: w, Seed: seed, Bodies: make([]Body, n)}
	for i := range s.Bodies {
		k := Kind(i % 6)
		b := swarmBody(r, min(k, KindPolygon), w)
		switch k {
		case KindCapsule:
			b.Kind, b.Verts = k, nil
			b.A, b.B = uniform(r, 2, 5), uniform(r, 1, 2.5)
			b.Angle, b.Omega = uniform(r, 0, 2*math.Pi), uniform(r, -0.05, 0.05)
		case KindConcave:
			b.Kind = k
			b.Verts = star(r)
			b.Angle, b.Omega = uniform(r, 0, 2*math.Pi), uniform(r, -0.05, 0.05)
		}
		s.Bodies[i] = b
	}
	return s
}

// star draws a concave star outline, counter-clockwise.
func star(r *rand.Rand) [][2]float64 {
	k := 5 + r.IntN(4)
	outer := uniform(r, 3, 6)
	inner := float64(outer * uniform(r, 0.35, 0.6))
	pts := make([][2]float64, 2*k)
	for i := range pts {
		rad := outer
		if i%2 == 1 {
			rad = inner
		}
		sn, cs := collide.SinCos(float64(math.Pi*float64(i)) / float64(k))
		pts[i] = [2]float64{float64(rad * cs), float64(rad * sn)}
	}
	return pts
}

// swarmBody draws one moving body of kind k in the order gen.py draws it.
func swarmBody(r *rand.Rand, k Kind, w float64) Body {
	b := Body{Kind: k}
	b.X, b.Y = uniform(r, 0, w), uniform(r, 0, w)
	speed, heading := uniform(r, 0.5, 3), uniform(r, 0, 2*math.Pi)
	sn, cs := collide.SinCos(heading) // math's differs on arm64
	b.VX, b.VY = float64(speed*cs), float64(speed*sn)
	switch k {
	case KindCircle:
		b.A = uniform(r, 2, 6)
	case KindAABB:
		b.A, b.B = uniform(r, 2, 6), uniform(r, 2, 6)
	case KindOBB:
		b.A, b.B = uniform(r, 2, 6), uniform(r, 2, 6)
		b.Angle, b.Omega = uniform(r, 0, 2*math.Pi), uniform(r, -0.05, 0.05)
	case KindPolygon:
		b.Verts = randomPolygon(r, 1)
		b.Angle, b.Omega = uniform(r, 0, 2*math.Pi), uniform(r, -0.05, 0.05)
	}
	return b
}

// uniform returns a number uniform in [lo, hi), as Python's
// random.uniform computes it.
func uniform(r *rand.Rand, lo, hi float64) float64 {
	return lo + float64((hi-lo)*r.Float64())
}

// randomPolygon draws gen.py's polygon: the convex hull of 3 to 8 points at
// sorted random angles on a circle of radius scale·U(2, 6), or a triangle
// on that circle if the hull degenerates.
func randomPolygon(r *rand.Rand, scale float64) [][2]float64 {
	k := 3 + r.IntN(6)
	rad := float64(scale * uniform(r, 2, 6))
	angles := make([]float64, k)
	for i := range angles {
		angles[i] = uniform(r, 0, 2*math.Pi)
	}
	slices.Sort(angles)
	pts := make([][2]float64, k)
	for i, t := range angles {
		sn, cs := collide.SinCos(t)
		pts[i] = [2]float64{float64(rad * cs), float64(rad * sn)}
	}
	verts := hull(pts)
	if len(verts) < 3 {
		h := float64(rad * 0.866)
		verts = [][2]float64{{rad, 0}, {-rad / 2, h}, {-rad / 2, -h}}
	}
	return verts
}

// hull returns the convex hull of pts, counter-clockwise, without
// collinear points (a turn with cross product <= 1e-9 is dropped), by
// Andrew's monotone chain exactly as gen.py writes it. pts is sorted in
// place.
func hull(pts [][2]float64) [][2]float64 {
	slices.SortFunc(pts, func(a, b [2]float64) int {
		if c := cmpFloat(a[0], b[0]); c != 0 {
			return c
		}
		return cmpFloat(a[1], b[1])
	})
	pts = slices.Compact(pts)
	if len(pts) < 3 {
		return pts
	}
	lower := make([][2]float64, 0, len(pts))
	for _, p := range pts {
		for len(lower) >= 2 && cross(lower[len(lower)-2], lower[len(lower)-1], p) <= 1e-9 {
			lower = lower[:len(lower)-1]
		}
		lower = append(lower, p)
	}
	upper := make([][2]float64, 0, len(pts))
	for i := len(pts) - 1; i >= 0; i-- {
		p := pts[i]
		for len(upper) >= 2 && cross(upper[len(upper)-2], upper[len(upper)-1], p) <= 1e-9 {
			upper = upper[:len(upper)-1]
		}
		upper = append(upper, p)
	}
	return append(lower[:len(lower)-1], upper[:len(upper)-1]...)
}

// cmpFloat orders finite numbers.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cross returns (a-o)×(b-o). The products are rounded explicitly so that no
// fused multiply-add makes arm64 disagree with amd64.
func cross(o, a, b [2]float64) float64 {
	return float64((a[0]-o[0])*(b[1]-o[1])) - float64((a[1]-o[1])*(b[0]-o[0]))
}

// Layout of the arena, in world units.
const (
	wallThick   = 1.0 // full thickness of every wall
	arenaMargin = 1.5 // clearance of crates and wall ends from grid lines
	crateRadius = 6.0 // largest bounding radius of an unscaled crate
	wallsPer    = 50  // one interior wall per this many grid bodies
	wallTries   = 20  // placements tried per interior wall
)

// Arena returns an arena scene of n bodies drawn from seed, named "arena",
// in a world of side [WorldSize](n).
//
// The first n - n/5 bodies are static (80% when 5 divides n):
//   - up to four walls along the borders: thin AABBs of thickness 1 inside
//     the world (bottom and top span the full width; left and right stop
//     short of them);
//   - interior walls, about one per 50 of the remaining static bodies:
//     thin AABBs along the lines of a g×g grid, 1 to max(1, g/4) cells
//     long, that neither cross nor overlap each other;
//   - crates, one per grid cell at most, cycling aabb, circle, obb (at a
//     random fixed angle), poly, each inside its cell clear of the grid
//     lines (scaled down if a cell is small).
//
// So no two static bodies touch. The last n/5 bodies move exactly like
// [Swarm] bodies (kind i%4 among them, the same distributions). Static
// bodies have zero velocity and spin.
func Arena(n int, seed uint64) *Scene {
	n = max(n, 0)
	r := rand.New(rand.NewPCG(seed, arenaStream))
	w := WorldSize(n)
	moving := n / 5
	static := n - moving
	s := &Scene{Name: "arena", N: n, World: w, Seed: seed, Bodies: make([]Body, 0, n)}

	border := [4]Body{
		box(w/2, wallThick/2, w/2, wallThick/2),
		box(w/2, w-wallThick/2, w/2, wallThick/2),
		box(wallThick/2, w/2, wallThick/2, float64(w/2)-arenaMargin),
		box(w-wallThick/2, w/2, wallThick/2, float64(w/2)-arenaMargin),
	}
	nb := min(static, len(border))
	s.Bodies = append(s.Bodies, border[:nb]...)

	rest := static - nb
	if rest > 0 {
		g := int(math.Ceil(math.Sqrt(float64(rest))))
		for g*g < rest { // guard against Sqrt rounding down
			g++
		}
		c := w / float64(g)
		walls := interiorWalls(r, g, c, rest/wallsPer)
		s.Bodies = append(s.Bodies, walls...)
		crates := rest - len(walls)
		scale := min(1, (float64(c/2)-arenaMargin)/crateRadius)
		cells := r.Perm(g * g)[:crates]
		for j, cell := range cells {
			s.Bodies = append(s.Bodies, crate(r, j, cell%g, cell/g, c, scale))
		}
	}
	for i := range moving {
		s.Bodies = append(s.Bodies, swarmBody(r, Kind(i%4), w))
	}
	return s
}

// box returns a static AABB centred at (x, y) with half extents a, b.
func box(x, y, a, b float64) Body {
	return Body{Kind: KindAABB, X: x, Y: y, A: a, B: b, Static: true}
}

// interiorWalls places up to want walls along the inner lines of a g×g grid
// of cell size c. A wall runs from grid vertex j to j+L on its line, pulled
// in by arenaMargin at both ends. Two walls are kept apart by refusing a
// wall that reuses a grid edge (collinear overlap) or passes through a
// vertex that another wall passes through (a crossing); meeting at a wall's
// end leaves a gap of arenaMargin - wallThick/2.
func interiorWalls(r *rand.Rand, g int, c float64, want int) []Body {
	if g < 2 || want == 0 {
		return nil
	}
	edges := make([]bool, 2*(g-1)*g)     // [vertical? 0 : 1][line-1][j]
	through := make([]bool, (g+1)*(g+1)) // vertices a wall passes through
	var walls []Body
	for range want {
		for range wallTries {
			vertical := r.IntN(2) == 0
			line := 1 + r.IntN(g-1)
			l := 1 + r.IntN(max(1, g/4))
			j := r.IntN(g - l + 1)
			o := 0
			if !vertical {
				o = (g - 1) * g
			}
			edge := func(k int) *bool { return &edges[o+(line-1)*g+k] }
			vertex := func(k int) *bool {
				if vertical {
					return &through[k*(g+1)+line]
				}
				return &through[line*(g+1)+k]
			}
			free := true
			for k := j; k < j+l && free; k++ {
				free = !*edge(k)
			}
			for k := j + 1; k < j+l && free; k++ {
				free = !*vertex(k)
			}
			if !free {
				continue
			}
			for k := j; k < j+l; k++ {
				*edge(k) = true
			}
			for k := j + 1; k < j+l; k++ {
				*vertex(k) = true
			}
			along := float64(float64(j)*c) + float64(float64(float64(l)*c)/2)
			across := float64(float64(line) * c)
			half := float64(float64(float64(l)*c)/2) - arenaMargin
			if vertical {
				walls = append(walls, box(across, along, wallThick/2, half))
			} else {
				walls = append(walls, box(along, across, half, wallThick/2))
			}
			break
		}
	}
	return walls
}

// crate draws the j-th crate, in cell (cx, cy) of size c, sizes multiplied
// by scale so that its bounding circle clears the cell's borders by
// arenaMargin.
func crate(r *rand.Rand, j, cx, cy int, c, scale float64) Body {
	b := Body{Static: true}
	var rad float64 // bounding radius
	switch j % 4 {
	case 0:
		b.Kind = KindAABB
		b.A, b.B = float64(scale*uniform(r, 1.5, 4.2)), float64(scale*uniform(r, 1.5, 4.2))
		rad = length(b.A, b.B)
	case 1:
		b.Kind = KindCircle
		b.A = float64(scale * uniform(r, 2, 6))
		rad = b.A
	case 2:
		b.Kind = KindOBB
		b.A, b.B = float64(scale*uniform(r, 1.5, 4.2)), float64(scale*uniform(r, 1.5, 4.2))
		b.Angle = uniform(r, 0, 2*math.Pi)
		rad = length(b.A, b.B)
	case 3:
		b.Kind = KindPolygon
		b.Verts = randomPolygon(r, scale)
		for _, v := range b.Verts {
			rad = max(rad, length(v[0], v[1]))
		}
		b.Angle = uniform(r, 0, 2*math.Pi)
	}
	lo := arenaMargin + rad
	free := max(0, c-2*lo)
	b.X = float64(float64(cx)*c) + lo + float64(free*r.Float64())
	b.Y = float64(float64(cy)*c) + lo + float64(free*r.Float64())
	return b
}

// length returns √(x²+y²). Unlike math.Hypot, which is assembly on amd64,
// it gives the same bits on every architecture.
func length(x, y float64) float64 {
	return math.Sqrt(float64(x*x) + float64(y*y))
}
