// Package scene builds, reads and writes the benchmark scenes that
// cmd/collide and bench/ share, and moves their bodies frame by frame.
//
// A [Scene] is plain data: a square world of side [Scene.World] and a list
// of [Body] values, each a circle, an axis-aligned box, an oriented box or a
// convex polygon with a position, a velocity and a spin. Nothing in a scene
// collides: [Scene.Advance] applies the engine-neutral motion rule of the
// shared swarm format (move, reflect off the world's walls, turn), so every
// correct engine reports the same contacts on the same scene, frame by frame.
//
// Two generators exist. [Swarm] draws the workload of the shared generator
// (shared/scenario/gen.py): a quarter of each kind, all moving. [Arena] draws
// a mostly static level: walls and crates that never move, with a fifth of
// the bodies moving like swarm bodies. Both are deterministic per seed,
// including across amd64 and arm64: every product is rounded explicitly, so
// no fused multiply-add changes a bit, sines and cosines come from
// collide.SinCos (math.Sincos is fused differently on arm64), and the only
// other math function is Sqrt, which is exact everywhere.
//
// [ReadCSV] and [WriteCSV] speak the shared CSV format:
//
//	# swarm n=N world=W seed=S
//	kind,x,y,vx,vy,angle,omega,a,b,nverts,x0,y0,x1,y1,...
//
// where kind is circle (radius a), aabb (half extents a, b; never rotates),
// obb (half extents a, b, rotated by angle) or poly (nverts >= 3 convex
// counter-clockwise local vertices). Numbers are written with
// strconv.FormatFloat(v, 'g', -1, 64) and read with strconv.ParseFloat, so a
// written scene reads back bit for bit.
//
// The shared format has no static flag. This package adds an optional header
// key, static=RANGES, listing the indexes of the static bodies as
// comma-separated ranges (static=0-799,805). Readers that ignore unknown
// header keys still see static bodies stand still, because [WriteCSV]
// writes their vx, vy and omega as 0.
//
// Units are world units and radians per frame; angles are counter-clockwise.
// The package checks the format, not the geometry: sizes and polygon
// convexity are validated by the world when the bodies are added to it.
//
// Scenes are not safe for concurrent mutation; concurrent reads are fine.
package scene
