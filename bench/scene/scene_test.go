package scene

import (
	"math"
	"testing"
)

func TestAdvanceReflection(t *testing.T) {
	const w = 10
	tests := []struct {
		name          string
		x, vx         float64 // before
		wantX, wantVX float64 // after one frame
	}{
		{"inside", 4, 1.5, 5.5, 1.5},
		{"crosses 0", 1, -3, 2, 3},
		{"crosses W", 9, 2.5, 8.5, -2.5},
		{"lands on 0", 1, -1, 0, -1},
		{"lands on W", 8, 2, 10, 2},
		{"just past 0", 0.25, -0.5, 0.25, 0.5},
		{"just past W", 9.75, 0.5, 9.75, -0.5},
		{"from 0 outward", 0, -0.125, 0.125, 0.125},
		{"from W outward", 10, 0.125, 9.875, -0.125},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The same case on x, on y, and on both at once.
			for axis := range 3 {
				b := Body{Kind: KindOBB, X: 5, Y: 5, Angle: 1, Omega: 0.25, A: 1, B: 1}
				wantX, wantVX, wantY, wantVY := 5.0, 0.0, 5.0, 0.0
				if axis != 1 {
					b.X, b.VX, wantX, wantVX = tt.x, tt.vx, tt.wantX, tt.wantVX
				}
				if axis != 0 {
					b.Y, b.VY, wantY, wantVY = tt.x, tt.vx, tt.wantX, tt.wantVX
				}
				s := &Scene{Name: "t", N: 1, World: w, Bodies: []Body{b}}
				s.Advance()
				got := s.Bodies[0]
				if got.X != wantX || got.VX != wantVX || got.Y != wantY || got.VY != wantVY {
					t.Errorf("axis %d: Advance(x=%v, vx=%v, y=%v, vy=%v, W=%v) = (x=%v, vx=%v, y=%v, vy=%v), want (%v, %v, %v, %v)",
						axis, b.X, b.VX, b.Y, b.VY, w, got.X, got.VX, got.Y, got.VY, wantX, wantVX, wantY, wantVY)
				}
				if got.Angle != 1.25 {
					t.Errorf("axis %d: Advance: angle = %v, want 1.25", axis, got.Angle)
				}
			}
		})
	}
}

func TestAdvanceOperationOrder(t *testing.T) {
	// 0.1 + 0.2 rounds up to 0.30000000000000004; the rule is x += vx
	// first, then 2W - x, which gives 2*0.3 - 0.30000000000000004.
	s := &Scene{Name: "t", N: 1, World: 0.3, Bodies: []Body{{X: 0.1, VX: 0.2, Y: 0.1}}}
	s.Advance()
	x := 0.1
	x += 0.2
	want := 2*0.3 - x
	if got := s.Bodies[0].X; math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("Advance: x = %v, want %v", got, want)
	}
	if got := s.Bodies[0].VX; got != -0.2 {
		t.Errorf("Advance: vx = %v, want -0.2", got)
	}
}

func TestAdvanceStatic(t *testing.T) {
	b := Body{Kind: KindCircle, X: 1, Y: 2, VX: -5, VY: 3, Angle: 0.5, Omega: 1, A: 1, Static: true}
	s := &Scene{Name: "t", N: 1, World: 10, Bodies: []Body{b}}
	s.Advance()
	if got := s.Bodies[0]; got.X != b.X || got.Y != b.Y || got.VX != b.VX || got.VY != b.VY || got.Angle != b.Angle {
		t.Errorf("Advance moved a static body: %+v, want %+v", got, b)
	}
}

func TestAdvanceStaysInWorld(t *testing.T) {
	s := Swarm(200, 3)
	frames := 2000
	if testing.Short() {
		frames = 200
	}
	for f := range frames {
		s.Advance()
		for i, b := range s.Bodies {
			if b.X < 0 || b.X > s.World || b.Y < 0 || b.Y > s.World {
				t.Fatalf("frame %d: body %d at (%v, %v), outside [0, %v]²", f, i, b.X, b.Y, s.World)
			}
		}
	}
}

func TestKindString(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{KindCircle, "circle"}, {KindAABB, "aabb"}, {KindOBB, "obb"}, {KindPolygon, "poly"}, {Kind(9), "Kind(9)"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(tt.k), got, tt.want)
		}
	}
}
