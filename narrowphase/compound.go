package narrowphase

import "github.com/collide-go/collide/shape"

// CollideParts calls fn for every pair of parts of a (placed by ta) and b
// (placed by tb) that collide, in part order (a's part index, then b's),
// with the part indexes and the pair's manifold in world coordinates, until
// fn returns false. A simple shape is its own part 0. Two parts collide
// exactly when [Collide] of the parts, placed by their world transforms
// (the body's transform times the part's offset), says so; part pairs
// whose world boxes miss are skipped without a call. It allocates nothing.
func CollideParts(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform, fn func(pa, pb int, m Manifold) bool) {
	if !a.Valid() || !b.Valid() {
		return
	}
	na, nb := a.PartCount(), b.PartCount()
	for i := range na {
		sa, xa := a.Part(i, ta)
		boxA := sa.WorldAABB(xa)
		for j := range nb {
			sb, xb := b.Part(j, tb)
			if (na > 1 || nb > 1) && !boxA.Overlaps(sb.WorldAABB(xb)) {
				continue
			}
			if m, ok := Collide(sa, xa, sb, xb); ok && !fn(i, j, m) {
				return
			}
		}
	}
}

// collideComposite is Collide for a pair with a compound: the deepest
// manifold of any part pair, the first in part order among equals.
func collideComposite(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) (Manifold, bool) {
	var best Manifold
	found := false
	CollideParts(a, ta, b, tb, func(_, _ int, m Manifold) bool {
		if !found || m.Depth > best.Depth {
			best, found = m, true
		}
		return true
	})
	return best, found
}

// overlapComposite is Overlap for a pair with a compound: whether any part
// pair overlaps.
func overlapComposite(a shape.Shape, ta shape.Transform, b shape.Shape, tb shape.Transform) bool {
	na, nb := a.PartCount(), b.PartCount()
	for i := range na {
		sa, xa := a.Part(i, ta)
		boxA := sa.WorldAABB(xa)
		for j := range nb {
			sb, xb := b.Part(j, tb)
			if (na > 1 || nb > 1) && !boxA.Overlaps(sb.WorldAABB(xb)) {
				continue
			}
			if Overlap(sa, xa, sb, xb) {
				return true
			}
		}
	}
	return false
}
