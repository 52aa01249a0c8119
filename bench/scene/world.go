package scene

import (
	"fmt"

	"github.com/collide-go/collide"
)

// Shape returns the collide shape of b. Polygon vertices are used as given
// (NewPolygon drops only vertices that duplicate a neighbour, or lie on the
// line through their neighbours, to within 1e-12 of the polygon's size).
func (b *Body) Shape() (collide.Shape, error) {
	switch b.Kind {
	case KindCircle:
		return collide.NewCircle(b.A)
	case KindAABB:
		return collide.NewAABB(b.A, b.B)
	case KindOBB:
		return collide.NewOBB(b.A, b.B)
	case KindPolygon, KindConcave:
		vs := make([]collide.Vec2, len(b.Verts))
		for i, v := range b.Verts {
			vs[i] = collide.V(v[0], v[1])
		}
		if b.Kind == KindConcave {
			return collide.NewConcavePolygon(vs)
		}
		return collide.NewPolygon(vs)
	case KindCapsule:
		return collide.NewCapsule(collide.V(-b.A, 0), collide.V(b.A, 0), b.B)
	}
	return collide.Shape{}, fmt.Errorf("scene: unknown body kind %d", b.Kind)
}

// Load adds every body of s to w, in scene order, and returns their ids.
func Load(w *collide.World, s *Scene) ([]collide.BodyID, error) {
	ids := make([]collide.BodyID, len(s.Bodies))
	for i := range s.Bodies {
		b := &s.Bodies[i]
		sh, err := b.Shape()
		if err != nil {
			return nil, fmt.Errorf("scene: body %d: %w", i, err)
		}
		kind := collide.Dynamic
		if b.Static {
			kind = collide.Static
		}
		ids[i], err = w.Add(collide.BodyDef{Shape: sh, Position: collide.V(b.X, b.Y), Angle: b.Angle, Kind: kind})
		if err != nil {
			return nil, fmt.Errorf("scene: body %d: %w", i, err)
		}
	}
	return ids, nil
}

// Sync sets the transform of every moving body of s in w, after Advance.
func Sync(w *collide.World, s *Scene, ids []collide.BodyID) error {
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Static {
			continue
		}
		if err := w.SetTransform(ids[i], collide.V(b.X, b.Y), b.Angle); err != nil {
			return fmt.Errorf("scene: body %d: %w", i, err)
		}
	}
	return nil
}
