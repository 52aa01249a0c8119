package collide_test

import (
	"fmt"

	"github.com/collide-go/collide"
)

// census is a Drawer that counts the bodies and contact points it is shown.
type census struct{ bodies, points int }

func (c *census) Layer(collide.Layer)                                        {}
func (c *census) Body(collide.BodyInfo)                                      { c.bodies++ }
func (c *census) Polygon([]collide.Vec2, collide.Style)                      {}
func (c *census) Circle(collide.Vec2, float64, collide.Style)                {}
func (c *census) Segment(collide.Vec2, collide.Vec2, float64, collide.Style) {}
func (c *census) Point(collide.Vec2, collide.Color)                          { c.points++ }
func (c *census) Arrow(collide.Vec2, collide.Vec2, collide.Color)            {}
func (c *census) Box(collide.AABB, collide.Color)                            {}
func (c *census) Text(collide.Vec2, string, collide.Color)                   {}

// A debug renderer on its own goroutine: the loop copies the frame after
// Step (a plain copy of the bodies' state) and steps on while the renderer
// draws the copy, which shows the world as it was at the copy.
func ExampleWorld_CopyScene() {
	w := collide.NewWorld(collide.Config{Workers: 1})
	defer w.Close()
	ball, _ := collide.NewCircle(1)
	a, _ := w.Add(collide.BodyDef{Shape: ball, Position: collide.V(0, 0)})
	_, _ = w.Add(collide.BodyDef{Shape: ball, Position: collide.V(1.5, 0)})
	w.Step()

	var sc collide.Scene
	w.CopyScene(&sc, collide.DrawOptions{Contacts: true})
	drawn := make(chan census)
	go func() {
		var c census
		sc.Draw(&c)
		drawn <- c
	}()
	// The loop goes on: the copy keeps the contact of the frame it copied.
	_ = w.Move(a, collide.V(-5, 0))
	w.Step()
	c := <-drawn
	fmt.Printf("copied frame: %d bodies, %d contact points; the world now has %d contacts\n", c.bodies, c.points, w.ContactCount())
	// Output:
	// copied frame: 2 bodies, 1 contact points; the world now has 0 contacts
}
