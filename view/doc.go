// Package view turns a collide world into pictures: SVG and PNG images of a
// frame, a live view in the browser served by the game server itself (an
// http.Handler mounted next to net/http/pprof), and a one-page HTML report
// of a run's frame times.
//
// It is a package of its own so that image and HTTP code stays out of the
// core: shape, narrowphase, broadphase, engine and the root package never
// import net/http or image. The world describes a frame to a collide.Drawer
// (World.Draw); this package's [Frame] records that description, and the
// writers and the handler work on the recording only, never on the World.
//
// # Frames and coordinates
//
// A [Frame] holds what World.Draw and the Draw helpers sent, in world units
// with y up, plus the Step's stats and a copy of each drawn body's id, kind,
// filter and user value. [Capture] draws a world into a Frame; Frames are
// reused ([Frame.Reset]), so capturing a warmed Frame allocates little.
// A [Viewport] maps a window of the world onto an image of W×H pixels, y
// down: [Fit] frames the whole world, [Around] a window around a point.
//
// # The live view
//
// [Handler] serves a self-contained page (pan and zoom, pause and single
// step, hover for a body's id, kind, filter and user value, toggles for
// contacts, MTVs and boxes, a frame-time sparkline) and streams frames to it
// as length-prefixed binary messages that the page reads with fetch. The
// game loop calls [Handler.Publish] after
// Step; Publish never blocks: it returns at once when nobody watches,
// captures at most MaxFPS frames a second (on the loop, a plain copy of
// the world's state with [collide.World.CopyScene]; the drawing and the
// encoding run on another goroutine), and drops a client whose send
// buffer is full instead of waiting for it. In steady state a published
// frame allocates nothing: frames, the encoder's scratch and the encoded
// messages (one a frame, shared by its clients) are recycled.
//
// The page shows the whole game state: mount the handler only on an
// internal port, as with pprof, and set a token.
//
// # Concurrency
//
// Publish must be called from the goroutine that owns the world (after
// Step, before the next mutation); it copies what it needs, so the
// handler's goroutines never touch the world. Everything else here works on
// Frames, which are not safe for concurrent mutation.
package view
