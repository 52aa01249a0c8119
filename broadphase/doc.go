// Package broadphase finds the candidate pairs of the collision engine: the
// pairs of proxies (one per body, named by a small int32 id the caller
// chooses, its body slot) whose boxes overlap, so that the narrow phase only
// looks at those. [Tree] keeps the proxies in an R-tree
// (github.com/tidwall/rtree, which no exported name reveals) and the pairs in
// a persistent sorted set. Static proxies ([Tree.InsertStatic]) live in an
// R-tree of their own, as in Box2D: moving proxies re-insert without wading
// through long walls, and static proxies never look for each other, since
// two static proxies are never paired; [BruteForce] does the same by scanning, as the
// reference for tests. Boxes are [shape.AABB] values in world units.
//
// # Flat, then tiles
//
// Each of the two is a tiled index (tiled.go). While the tree's proxy ids
// stay below 256 (a room of a few hundred bodies) both are flat: no R-tree,
// only the proxies' ids sorted by the left edge of their fat boxes (a
// sweep-and-prune list, 4 bytes a proxy, kept sorted as boxes move by
// shifting an id a few places), and a search is a binary search for the
// left edges within its box grown left by the widest box, then a scan of
// that run. A 100-body room then holds no R-tree node (three of 64
// entries, which a search would test nearly whole), its re-inserts cost
// nothing, and its steps allocate nothing. Past 256 ids both indexes get
// their R-trees, for good: ids are never given back, and a column of boxes
// sharing their left edges would make every flat search scan them all.
//
// From then on: below 512 proxies, one R-tree; from there the plane is cut into square tiles, each with an
// R-tree of its own holding the proxies whose fat box's centre lies in the
// tile, and a proxy wider or taller than half a tile lives in one more tree
// of its own. The side is chosen for about 16 proxies a tile over the area
// the proxies cover (and at least three times their mean width plus
// height), and chosen again whenever the count has doubled or halved since.
// A proxy in a tile lies within the tile grown by a quarter side, so a
// search visits only the tiles its box grown by that much reaches, found by
// an open-addressed hash of cell coordinates, and skips those whose tree's
// bounds it misses. tidwall/rtree's nodes hold 64 entries and a search tests
// every entry of every node it enters: a search among 10,000 proxies in one
// tree tests about 120 boxes to find one or two, against a few dozen in a
// tile's tree. Cell coordinates clamp at ±2³⁰, so far coordinates share the
// edge tiles and stay exact. A tile's tree keeps an entry at its centre
// (skipped by every search), and so does the big tree once tiled: an empty
// tidwall tree drops its root node and allocates a new one at the next
// insertion, which proxies moving back and forth would do every frame.
//
// The R-trees hold their rectangles in float32 (rect32.go): a leaf of 64
// rectangles takes 1 KiB instead of 2 KiB. Fat boxes are rounded outward
// to float32 values when made, so a tree holds each one exactly; search
// boxes are rounded outward too, and coordinates beyond float32's range
// are clamped to it, which never turns an overlap into a miss. Where a
// clamped rectangle could be larger than its box, searches that report
// exact overlaps test the fat box itself.
//
// # Fat boxes
//
// The tree indexes each proxy by a fat box that contains its tight box (the
// body's world AABB) with room to spare, so that a moving body stays inside
// it for several frames and costs nothing in between. [Tree.Update] checks
// containment and re-inserts the proxy only when the tight box leaves the
// fat box. The new fat box is stretched along the motion: the union of the
// tight box and the tight box moved by MotionFrames times the last
// displacement, grown by Margin on every side ([Config]). A body moving at
// steady speed then re-inserts about once every MotionFrames frames whatever
// its speed, while a fixed margin smaller than one frame's motion would
// re-insert it every frame. The stretch is bounded by a few times the box's
// own size, so a teleport does not leave a fat box spanning the jump, and
// varies by ±25% from one re-insert to the next so that bodies created
// together do not keep re-inserting in the same frames.
//
// The defaults ([DefaultMargin] 0.25, [DefaultMotionFrames] 8) come from
// BenchmarkUpdatePairsTuning: a swarm of 10,000 boxes of half extents 2 to 6
// moving at 0.5 to 3 units per frame. Without stretching every body
// re-inserts every frame (6.5 ms a frame, 3,600 candidate pairs); stretching
// by 8 frames re-inserts about 1,150 a frame (1.1 ms, 15,000 pairs); 12
// frames saves another third of the re-inserts (0.87 ms) for 57% more
// pairs, which the narrow phase pays for. The margin matters little once
// boxes stretch. The R-tree still allocates a node when one splits, about
// once every five frames at that size; nothing else in Update or
// UpdatePairs allocates once the tree's buffers have grown to the scene.
//
// # Pairs
//
// Only proxies that moved (were inserted, re-inserted or touched) query the
// tree at [Tree.UpdatePairs]; when both ends of a pair moved, the lower id
// records it. The candidates are sorted and merged into the pair set:
//
//   - a pair found for the first time goes through the filter
//     ([Tree.SetFilter]) and joins the set if accepted;
//   - a pair found again stays, asking the filter again only if an end was
//     inserted or touched since the last UpdatePairs;
//   - a pair with a removed end leaves, and so does a pair with an end that
//     moved and did not find the other: their fat boxes no longer overlap;
//   - a pair of two proxies that did not move stays, since neither fat box
//     changed.
//
// After UpdatePairs the set holds exactly the pairs of live proxies, not both
// static, whose fat boxes overlap (touching counts) and that the filter
// accepts, so it holds
// every pair whose tight boxes overlap. [Tree.Pairs] returns it sorted by
// [Pair.Key] with A < B, the same for any history of insertions, and the
// filter is called in key order too.
//
// A flat tree keeps no candidate buffer: each UpdatePairs borrows its
// candidates and the array it merges into from a process-wide free list
// and copies the merged set back into an array of its own (scratch.go),
// so that a thousand rooms stepped on a few goroutines hold a few sets of
// scratch between them.
//
// # Concurrency
//
// A Tree is not safe for concurrent mutation: Insert, Remove, Update, Touch,
// UpdatePairs and SetFilter need exclusive access. Different trees may be
// mutated at the same time: the scratch free list is shared safely. Query, RayCast, Bounds,
// Pairs, FatAABB, Len and Stats only read, so any number of goroutines may
// call them at once while nothing mutates. They take no lock and allocate
// nothing.
package broadphase
