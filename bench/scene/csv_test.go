package scene

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// roundTrip writes s and reads it back.
func roundTrip(t *testing.T, s *Scene) *Scene {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatalf("WriteCSV(%s n=%d) = %v", s.Name, s.N, err)
	}
	got, err := ReadCSV(&buf)
	if err != nil {
		t.Fatalf("ReadCSV(WriteCSV(%s n=%d)) = %v", s.Name, s.N, err)
	}
	return got
}

func TestCSVRoundTrip(t *testing.T) {
	awkward := &Scene{Name: "awkward", N: 4, World: 0.1, Seed: math.MaxUint64, Bodies: []Body{
		{Kind: KindCircle, X: math.Copysign(0, -1), Y: 5e-324, VX: -math.MaxFloat64, VY: 1.0 / 3, A: math.SmallestNonzeroFloat64},
		{Kind: KindAABB, X: 0.1 + 0.2, Y: 1e21, VX: 123456789012345680, VY: -1e-7, Angle: math.Pi, Omega: -math.Pi, A: 2, B: math.Nextafter(2, 3)},
		{Kind: KindOBB, X: 1, Y: 2, Angle: 7, Static: true, A: 1, B: 1},
		{Kind: KindPolygon, X: 3, Y: 4, VX: 0.5, Verts: [][2]float64{{0, 0}, {1, math.Copysign(0, -1)}, {0.1, 1e-300}}},
	}}
	tests := []struct {
		name string
		s    *Scene
	}{
		{"swarm n=1000", Swarm(1000, 9)},
		{"arena n=1000", Arena(1000, 9)},
		{"empty", Swarm(0, 0)},
		{"awkward numbers", awkward},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := diffScenes(roundTrip(t, tt.s), tt.s); d != "" {
				t.Errorf("ReadCSV(WriteCSV(s)) != s: %s", d)
			}
		})
	}
}

func TestCSVStaticHeader(t *testing.T) {
	s := &Scene{Name: "mix", N: 6, World: 50, Bodies: []Body{
		{Kind: KindCircle, A: 1, Static: true, VX: 3, VY: -2, Omega: 1},
		{Kind: KindCircle, A: 1, Static: true},
		{Kind: KindCircle, A: 1, VX: 1},
		{Kind: KindCircle, A: 1, Static: true},
		{Kind: KindCircle, A: 1},
		{Kind: KindCircle, A: 1, Static: true},
	}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatalf("WriteCSV = %v", err)
	}
	text := buf.String()
	header, rest, _ := strings.Cut(text, "\n")
	if want := "# mix n=6 world=50 seed=0 static=0-1,3,5"; header != want {
		t.Errorf("WriteCSV header = %q, want %q", header, want)
	}
	if first, _, _ := strings.Cut(rest, "\n"); first != "circle,0,0,0,0,0,0,1,0,0" {
		t.Errorf("WriteCSV static body line = %q, want its vx, vy, omega written as 0", first)
	}
	got, err := ReadCSV(strings.NewReader(text))
	if err != nil {
		t.Fatalf("ReadCSV = %v", err)
	}
	for i, b := range got.Bodies {
		if b.Static != s.Bodies[i].Static {
			t.Errorf("ReadCSV: body %d Static = %v, want %v", i, b.Static, s.Bodies[i].Static)
		}
	}
	if got.Bodies[0].VX != 0 || got.Bodies[2].VX != 1 {
		t.Errorf("ReadCSV: vx of bodies 0, 2 = %v, %v, want 0, 1", got.Bodies[0].VX, got.Bodies[2].VX)
	}
}

func TestReadCSVGenPy(t *testing.T) {
	// testdata/swarm-40.csv is `python3 shared/scenario/gen.py 40 7`.
	data, err := os.ReadFile("testdata/swarm-40.csv")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadCSV(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ReadCSV(swarm-40.csv) = %v", err)
	}
	if s.Name != "swarm" || s.N != 40 || len(s.Bodies) != 40 || s.Seed != 7 || s.World != WorldSize(40) {
		t.Fatalf("ReadCSV(swarm-40.csv) header = (%q, N=%d, %d bodies, seed %d, world %v), want (swarm, 40, 40, 7, %v)",
			s.Name, s.N, len(s.Bodies), s.Seed, s.World, WorldSize(40))
	}
	// The numbers of the first line and of the first polygon, as Python wrote them.
	first := Body{Kind: KindCircle, X: 40.96196471449879, Y: 19.081078910252277, VX: 1.910781063194719, VY: 0.9351336601438562, A: 4.143528017226757}
	if d := diffScenes(&Scene{Bodies: s.Bodies[:1]}, &Scene{Bodies: []Body{first}}); d != "" {
		t.Errorf("ReadCSV(swarm-40.csv): %s", d)
	}
	if p := s.Bodies[3]; len(p.Verts) != 5 || p.Verts[0] != [2]float64{-3.5570770312693685, -0.9296603123159455} || p.Omega != -0.03121289732128565 {
		t.Errorf("ReadCSV(swarm-40.csv).Bodies[3] = %+v, want 5 vertices from (-3.5570770312693685, -0.9296603123159455), omega -0.03121289732128565", p)
	}
	for i, b := range s.Bodies {
		if want := Kind(i % 4); b.Kind != want {
			t.Errorf("ReadCSV(swarm-40.csv).Bodies[%d].Kind = %v, want %v", i, b.Kind, want)
		}
		if err := checkSwarmBody(b, s.World); err != "" {
			t.Errorf("ReadCSV(swarm-40.csv).Bodies[%d]: %s", i, err)
		}
	}
	if d := diffScenes(roundTrip(t, s), s); d != "" {
		t.Errorf("ReadCSV(WriteCSV(swarm-40)) != swarm-40: %s", d)
	}
}

func TestReadCSVAccepts(t *testing.T) {
	const body = "circle,1,2,0,0,0,0,1,0,0\n"
	tests := []struct {
		name, in string
	}{
		{"unknown header keys", "# swarm n=1 engine=box2d world=10 seed=3 note=x\n" + body},
		{"no seed", "# swarm n=1 world=10\n" + body},
		{"other name", "# arena n=1 world=10 seed=1\n" + body},
		{"no space after #", "#swarm n=1 world=10\n" + body},
		{"CRLF", "# swarm n=1 world=10 seed=1\r\n" + strings.TrimSuffix(body, "\n") + "\r\n"},
		{"blank lines", "# swarm n=1 world=10 seed=1\n\n" + body + "\n  \n"},
		{"no final newline", "# swarm n=1 world=10 seed=1\n" + strings.TrimSuffix(body, "\n")},
		{"python floats", "# swarm n=1 world=1e+22 seed=1\ncircle,1e-05,2.0,-0.0,0.0,0.0,0.0,1.5e+300,0.0,0\n"},
		{"empty scene", "# swarm n=0 world=10 seed=1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ReadCSV(strings.NewReader(tt.in)); err != nil {
				t.Errorf("ReadCSV(%q) = %v, want no error", tt.in, err)
			}
		})
	}
}

func TestReadCSVMalformed(t *testing.T) {
	const hdr = "# swarm n=1 world=10 seed=1\n"
	tests := []struct {
		name, in string
		want     string // the whole error message
	}{
		{"empty input", "", "scene: line 1, field header: missing header line"},
		{"no #", "swarm n=1 world=10\n", `scene: line 1, field header: want '# NAME n=N world=W ...', got "swarm n=1 world=10"`},
		{"no name", "# n=1 world=10\n", "scene: line 1, field name: missing scene name after '#'"},
		{"bare #", "#\n", "scene: line 1, field name: missing scene name after '#'"},
		{"token without =", "# swarm n=1 world=10 fast\n", `scene: line 1, field header: token "fast" is not key=value`},
		{"empty key", "# swarm n=1 =3 world=10\n", `scene: line 1, field header: token "=3" is not key=value`},
		{"no n", "# swarm world=10\n", "scene: line 1, field n: missing key n="},
		{"no world", "# swarm n=0 seed=1\n", "scene: line 1, field world: missing key world="},
		{"bad n", "# swarm n=ten world=10\n", `scene: line 1, field n: invalid body count "ten"`},
		{"negative n", "# swarm n=-1 world=10\n", `scene: line 1, field n: invalid body count "-1"`},
		{"bad world", "# swarm n=1 world=big\n", `scene: line 1, field world: invalid number "big"`},
		{"negative world", "# swarm n=1 world=-1\n", `scene: line 1, field world: world size must be >= 0, got "-1"`},
		{"infinite world", "# swarm n=1 world=inf\n", `scene: line 1, field world: non-finite number "inf"`},
		{"huge world", "# swarm n=1 world=1e999\n", `scene: line 1, field world: number out of range "1e999"`},
		{"bad seed", "# swarm n=1 world=10 seed=-1\n", `scene: line 1, field seed: invalid seed "-1"`},
		{"repeated key", "# swarm n=1 world=10 n=1\n", "scene: line 1, field n: repeated key"},
		{"bad static", "# swarm n=1 world=10 static=a\n", `scene: line 1, field static: invalid index range "a"`},
		{"reversed static", "# swarm n=1 world=10 static=3-1\n", `scene: line 1, field static: invalid index range "3-1"`},
		{"unordered static", "# swarm n=9 world=10 static=3,1\n", `scene: line 1, field static: index range "1" is not after index 3`},
		{"static out of range", "# swarm n=1 world=10 static=0-1\ncircle,1,2,0,0,0,0,1,0,0\n", "scene: line 1, field static: index 1 out of range [0, 1)"},
		{"moving static body", "# swarm n=1 world=10 static=0\n\ncircle,1,2,0,0.5,0,0,1,0,0\n", "scene: line 3, field vy: static body 0 moves: 0.5"},
		{"unknown kind", hdr + "box,1,2,0,0,0,0,1,1,0\n", `scene: line 2, field kind: unknown kind "box" (want circle, aabb, obb or poly)`},
		{"short line", hdr + "circle,1,2,3\n", "scene: line 2, field vy: missing: the line has 4 fields, a body needs at least 10"},
		{"bad vx", hdr + "circle,1,2,abc,0,0,0,1,0,0\n", `scene: line 2, field vx: invalid number "abc"`},
		{"empty field", hdr + "circle,1,2,0,0,0,0,,0,0\n", `scene: line 2, field a: invalid number ""`},
		{"padded number", hdr + "circle,1, 2,0,0,0,0,1,0,0\n", `scene: line 2, field y: invalid number " 2"`},
		{"nan omega", hdr + "obb,1,2,0,0,0,NaN,1,1,0\n", `scene: line 2, field omega: non-finite number "NaN"`},
		{"inf b", hdr + "obb,1,2,0,0,0,0,1,-Inf,0\n", `scene: line 2, field b: non-finite number "-Inf"`},
		{"bad nverts", hdr + "poly,1,2,0,0,0,0,0,0,3.0,0,0,1,0,0,1\n", `scene: line 2, field nverts: invalid integer "3.0"`},
		{"poly nverts 2", hdr + "poly,1,2,0,0,0,0,0,0,2,0,0,1,0\n", "scene: line 2, field nverts: poly needs at least 3 vertices, got 2"},
		{"poly nverts -1", hdr + "poly,1,2,0,0,0,0,0,0,-1\n", "scene: line 2, field nverts: poly needs at least 3 vertices, got -1"},
		{"circle with verts", hdr + "circle,1,2,0,0,0,0,1,0,3,0,0,1,0,0,1\n", "scene: line 2, field nverts: circle has no vertices, want 0, got 3"},
		{"too few vertex fields", hdr + "poly,1,2,0,0,0,0,0,0,3,0,0,1,0,0\n", "scene: line 2, field y2: missing: nverts=3, the line has only 5 vertex fields"},
		{"huge nverts", hdr + "poly,1,2,0,0,0,0,0,0,9223372036854775807,0,0\n", "scene: line 2, field x1: missing: nverts=9223372036854775807, the line has only 2 vertex fields"},
		{"too many vertex fields", hdr + "poly,1,2,0,0,0,0,0,0,3,0,0,1,0,0,1,7\n", "scene: line 2, field x3: unexpected: nverts=3 needs 16 fields, the line has 17"},
		{"extra field", hdr + "aabb,1,2,0,0,0,0,1,1,0,5\n", "scene: line 2, field x0: unexpected: nverts=0 needs 10 fields, the line has 11"},
		{"bad vertex", hdr + "poly,1,2,0,0,0,0,0,0,3,0,0,1,0,0,x\n", `scene: line 2, field y2: invalid number "x"`},
		{"too few bodies", "# swarm n=2 world=10\n\ncircle,1,2,0,0,0,0,1,0,0\n", "scene: line 1, field n: header says n=2, file has 1 bodies"},
		{"too many bodies", hdr + "circle,1,2,0,0,0,0,1,0,0\ncircle,1,2,0,0,0,0,1,0,0\n", "scene: line 1, field n: header says n=1, file has 2 bodies"},
		{"second header", hdr + "# swarm n=1 world=10\n", `scene: line 2, field kind: unknown kind "# swarm n=1 world=10" (want circle, aabb, obb or poly)`},
		{"line too long", hdr + "circle," + strings.Repeat("1", maxLine) + "\n", "scene: line 2, field line: longer than 1048576 bytes"},
		{"long garbage is cut", hdr + strings.Repeat("z", 100) + ",1\n", `scene: line 2, field kind: unknown kind "` + strings.Repeat("z", 64) + `"... (want circle, aabb, obb or poly)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadCSV(strings.NewReader(tt.in))
			if err == nil {
				t.Fatalf("ReadCSV(%.80q) = %+v, nil; want error %q", tt.in, s, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("ReadCSV(%.80q) error = %q, want %q", tt.in, err, tt.want)
			}
			var pe *ParseError
			if !errors.Is(err, ErrFormat) || !errors.As(err, &pe) {
				t.Errorf("ReadCSV(%.80q) error %q is not a *ParseError wrapping ErrFormat", tt.in, err)
			}
		})
	}
}

// failingReader returns some data, then an error.
type failingReader struct{ data string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadCSVReaderError(t *testing.T) {
	_, err := ReadCSV(&failingReader{"# swarm n=1 world=10\n"})
	if want := "scene: line 2: disk on fire"; err == nil || err.Error() != want {
		t.Errorf("ReadCSV(failing reader) error = %v, want %q", err, want)
	}
	if errors.Is(err, ErrFormat) {
		t.Errorf("ReadCSV(failing reader) error %q wraps ErrFormat, want a plain read error", err)
	}
}

func TestWriteCSVInvalid(t *testing.T) {
	ok := func() *Scene {
		return &Scene{Name: "t", N: 1, World: 10, Bodies: []Body{{Kind: KindPolygon, Verts: [][2]float64{{0, 0}, {1, 0}, {0, 1}}}}}
	}
	tests := []struct {
		name   string
		modify func(s *Scene)
		want   string
	}{
		{"empty name", func(s *Scene) { s.Name = "" }, `scene: invalid scene: name "" is empty or holds a space or '='`},
		{"spaced name", func(s *Scene) { s.Name = "a b" }, `scene: invalid scene: name "a b" is empty or holds a space or '='`},
		{"name with =", func(s *Scene) { s.Name = "n=3" }, `scene: invalid scene: name "n=3" is empty or holds a space or '='`},
		{"wrong N", func(s *Scene) { s.N = 2 }, "scene: invalid scene: N = 2, but there are 1 bodies"},
		{"negative world", func(s *Scene) { s.World = -1 }, "scene: invalid scene: world size -1 is not finite and >= 0"},
		{"nan world", func(s *Scene) { s.World = math.NaN() }, "scene: invalid scene: world size NaN is not finite and >= 0"},
		{"bad kind", func(s *Scene) { s.Bodies[0].Kind = 7 }, "scene: invalid scene: body 0: unknown Kind(7)"},
		{"inf x", func(s *Scene) { s.Bodies[0].X = math.Inf(1) }, "scene: invalid scene: body 0: x = +Inf"},
		{"nan omega", func(s *Scene) { s.Bodies[0].Omega = math.NaN() }, "scene: invalid scene: body 0: omega = NaN"},
		{"two vertices", func(s *Scene) { s.Bodies[0].Verts = s.Bodies[0].Verts[:2] }, "scene: invalid scene: body 0: poly has 2 vertices, want at least 3"},
		{"nan vertex", func(s *Scene) { s.Bodies[0].Verts[1][1] = math.NaN() }, "scene: invalid scene: body 0: vertex 1 = [1 NaN]"},
		{"circle with vertices", func(s *Scene) { s.Bodies[0].Kind = KindCircle }, "scene: invalid scene: body 0: circle has 3 vertices, want none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok()
			tt.modify(s)
			var buf bytes.Buffer
			err := WriteCSV(&buf, s)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("WriteCSV(%s) error = %v, want %q", tt.name, err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("WriteCSV(%s) error %q does not wrap ErrInvalid", tt.name, err)
			}
			if buf.Len() != 0 {
				t.Errorf("WriteCSV(%s) wrote %d bytes before failing, want 0", tt.name, buf.Len())
			}
		})
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, ok()); err != nil {
		t.Errorf("WriteCSV(valid scene) = %v", err)
	}
}

// FuzzReadCSV checks that ReadCSV never panics, that it fails only with a
// *ParseError, and that whatever it accepts WriteCSV writes and ReadCSV
// reads back bit for bit.
func FuzzReadCSV(f *testing.F) {
	data, err := os.ReadFile("testdata/swarm-40.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("# arena n=2 world=30 seed=1 static=0\naabb,1,2,0,0,0,0,1,1,0\npoly,3,4,1,-1,0.5,0.01,0,0,3,0,0,1,0,0,1\n"))
	f.Add([]byte("# swarm n=1 world=10\ncircle,1,2,abc,0,0,0,1,0,0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadCSV(bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrFormat) {
				t.Fatalf("ReadCSV error %q (%T) is not a *ParseError", err, err)
			}
			if pe.Line < 1 || pe.Field == "" {
				t.Fatalf("ReadCSV error %q names no line or field", err)
			}
			return
		}
		if s.N != len(s.Bodies) {
			t.Fatalf("ReadCSV: N = %d, %d bodies", s.N, len(s.Bodies))
		}
		if d := diffScenes(roundTrip(t, s), s); d != "" {
			t.Fatalf("ReadCSV(WriteCSV(ReadCSV(data))) != ReadCSV(data): %s", d)
		}
	})
}
