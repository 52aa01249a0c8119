package scene

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ErrFormat is wrapped by every [ParseError]: the input is not a scene file.
var ErrFormat = errors.New("scene: malformed csv")

// ErrInvalid is wrapped by the errors of [WriteCSV] for a scene that the
// format cannot represent.
var ErrInvalid = errors.New("scene: invalid scene")

// ParseError reports where [ReadCSV] found malformed input. Its message
// reads `scene: line 17, field vx: invalid number "abc"`; errors.Is(err,
// ErrFormat) holds.
type ParseError struct {
	// Line is the 1-based line number; the header is line 1.
	Line int
	// Field names the offending field: a header key (name, n, world, seed,
	// static) or header for a malformed header, a body column (kind, x, y,
	// vx, vy, angle, omega, a, b, nverts, x0, y0, x1, ...) or line for a
	// line that is too long.
	Field string
	// Msg says what is wrong.
	Msg string
}

// Error returns `scene: line L, field F: msg`.
func (e *ParseError) Error() string {
	return fmt.Sprintf("scene: line %d, field %s: %s", e.Line, e.Field, e.Msg)
}

// Unwrap returns ErrFormat.
func (e *ParseError) Unwrap() error { return ErrFormat }

// maxLine is the longest line ReadCSV accepts, far above any polygon the
// engine can hold.
const maxLine = 1 << 20

// bodyColumns names the fixed columns of a body line.
var bodyColumns = [...]string{"kind", "x", "y", "vx", "vy", "angle", "omega", "a", "b", "nverts"}

// fixedColumns is the number of columns before the vertices.
const fixedColumns = len(bodyColumns)

// column returns the name of the 0-based column i of a body line.
func column(i int) string {
	if i < fixedColumns {
		return bodyColumns[i]
	}
	if (i-fixedColumns)%2 == 0 {
		return "x" + strconv.Itoa((i-fixedColumns)/2)
	}
	return "y" + strconv.Itoa((i-fixedColumns)/2)
}

// span is an inclusive range of body indexes from the static header key.
type span struct{ lo, hi int }

// header is the parsed first line.
type header struct {
	name   string
	n      int
	world  float64
	seed   uint64
	static []span
}

// ReadCSV reads a scene in the shared swarm CSV format (see the package
// doc). Numbers are read with strconv.ParseFloat(s, 64), so they are exactly
// the numbers written; fields are not trimmed.
//
// Line 1 is the header `# NAME key=value ...`. The keys n (the body count)
// and world (the world's side, >= 0) are required; seed (an unsigned
// integer) defaults to 0; static (index ranges, such as 0-799,805, of static
// bodies, whose vx, vy and omega must be 0) is optional; other keys are
// ignored. Every further non-blank line is one body; a trailing '\r' is
// dropped. A circle, aabb or obb line has nverts = 0 and exactly 10 fields;
// a poly line has nverts >= 3 and 10 + 2·nverts fields.
//
// ReadCSV checks the format only: sizes, polygon convexity and vertex order
// are the world's to validate. Malformed input yields a *[ParseError] naming
// the line and the field; an error of r is returned with the line number
// added. ReadCSV never panics.
func ReadCSV(r io.Reader) (*Scene, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	next := func() (string, error) {
		line++
		if sc.Scan() {
			return strings.TrimSuffix(sc.Text(), "\r"), nil
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			return "", &ParseError{line, "line", fmt.Sprintf("longer than %d bytes", maxLine)}
		} else if err != nil {
			return "", fmt.Errorf("scene: line %d: %w", line, err)
		}
		return "", io.EOF
	}

	text, err := next()
	if err == io.EOF {
		return nil, &ParseError{1, "header", "missing header line"}
	} else if err != nil {
		return nil, err
	}
	h, err := parseHeader(text)
	if err != nil {
		return nil, err
	}
	s := &Scene{Name: h.name, N: h.n, World: h.world, Seed: h.seed}
	s.Bodies = make([]Body, 0, min(h.n, 1<<12))
	var lines []int // line number of each body
	for {
		text, err := next()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		b, err := parseBody(text, line)
		if err != nil {
			return nil, err
		}
		s.Bodies = append(s.Bodies, b)
		lines = append(lines, line)
	}
	if len(s.Bodies) != h.n {
		return nil, &ParseError{1, "n", fmt.Sprintf("header says n=%d, file has %d bodies", h.n, len(s.Bodies))}
	}
	for _, sp := range h.static {
		if sp.hi >= h.n {
			return nil, &ParseError{1, "static", fmt.Sprintf("index %d out of range [0, %d)", sp.hi, h.n)}
		}
		for i := sp.lo; i <= sp.hi; i++ {
			b := &s.Bodies[i]
			for _, f := range [...]struct {
				name string
				v    *float64
			}{{"vx", &b.VX}, {"vy", &b.VY}, {"omega", &b.Omega}} {
				if *f.v != 0 {
					return nil, &ParseError{lines[i], f.name, fmt.Sprintf("static body %d moves: %s", i, strconv.FormatFloat(*f.v, 'g', -1, 64))}
				}
				*f.v = 0 // also turns -0 into 0, as WriteCSV writes it
			}
			b.Static = true
		}
	}
	return s, nil
}

// parseHeader parses line 1.
func parseHeader(text string) (header, error) {
	var h header
	bad := func(field, format string, args ...any) (header, error) {
		return header{}, &ParseError{1, field, fmt.Sprintf(format, args...)}
	}
	rest, ok := strings.CutPrefix(text, "#")
	if !ok {
		return bad("header", "want '# NAME n=N world=W ...', got %s", quote(text))
	}
	tokens := strings.Fields(rest)
	if len(tokens) == 0 || strings.Contains(tokens[0], "=") {
		return bad("name", "missing scene name after '#'")
	}
	h.name = tokens[0]
	seen := map[string]bool{}
	for _, tok := range tokens[1:] {
		key, val, ok := strings.Cut(tok, "=")
		if !ok || key == "" {
			return bad("header", "token %s is not key=value", quote(tok))
		}
		if seen[key] {
			return bad(key, "repeated key")
		}
		seen[key] = true
		var err error
		switch key {
		case "n":
			h.n, err = strconv.Atoi(val)
			if err != nil || h.n < 0 {
				return bad(key, "invalid body count %s", quote(val))
			}
		case "world":
			var msg string
			h.world, msg = parseFloat(val)
			if msg == "" && h.world < 0 {
				msg = "world size must be >= 0, got " + quote(val)
			}
			if msg != "" {
				return bad(key, "%s", msg)
			}
		case "seed":
			h.seed, err = strconv.ParseUint(val, 10, 64)
			if err != nil {
				return bad(key, "invalid seed %s", quote(val))
			}
		case "static":
			h.static, err = parseSpans(val)
			if err != nil {
				return bad(key, "%v", err)
			}
		}
	}
	for _, key := range [...]string{"n", "world"} {
		if !seen[key] {
			return bad(key, "missing key %s=", key)
		}
	}
	return h, nil
}

// parseSpans parses ascending, disjoint index ranges: 0-799,805,900-901.
func parseSpans(val string) ([]span, error) {
	var spans []span
	prev := -1
	for item := range strings.SplitSeq(val, ",") {
		a, b, isRange := strings.Cut(item, "-")
		lo, err := strconv.Atoi(a)
		hi := lo
		if err == nil && isRange {
			hi, err = strconv.Atoi(b)
		}
		if err != nil || lo < 0 || hi < lo {
			return nil, fmt.Errorf("invalid index range %s", quote(item))
		}
		if lo <= prev {
			return nil, fmt.Errorf("index range %s is not after index %d", quote(item), prev)
		}
		spans = append(spans, span{lo, hi})
		prev = hi
	}
	return spans, nil
}

// parseBody parses one body line.
func parseBody(text string, line int) (Body, error) {
	f := strings.Split(text, ",")
	bad := func(col int, format string, args ...any) (Body, error) {
		return Body{}, &ParseError{line, column(col), fmt.Sprintf(format, args...)}
	}
	var b Body
	kind := -1
	for k, name := range kindNames {
		if f[0] == name {
			kind = k
		}
	}
	if kind < 0 {
		return bad(0, "unknown kind %s (want circle, aabb, obb or poly)", quote(f[0]))
	}
	b.Kind = Kind(kind)
	if len(f) < fixedColumns {
		return bad(len(f), "missing: the line has %d fields, a body needs at least %d", len(f), fixedColumns)
	}
	for i, p := range [...]*float64{&b.X, &b.Y, &b.VX, &b.VY, &b.Angle, &b.Omega, &b.A, &b.B} {
		var msg string
		if *p, msg = parseFloat(f[1+i]); msg != "" {
			return bad(1+i, "%s", msg)
		}
	}
	const nv = fixedColumns - 1
	nverts, err := strconv.Atoi(f[nv])
	switch {
	case err != nil:
		return bad(nv, "invalid integer %s", quote(f[nv]))
	case b.Kind.hasVerts() && nverts < 3:
		return bad(nv, "%v needs at least 3 vertices, got %d", b.Kind, nverts)
	case !b.Kind.hasVerts() && nverts != 0:
		return bad(nv, "%v has no vertices, want 0, got %d", b.Kind, nverts)
	}
	have := len(f) - fixedColumns
	if nverts > have/2 {
		return bad(len(f), "missing: nverts=%d, the line has only %d vertex fields", nverts, have)
	}
	if want := fixedColumns + 2*nverts; len(f) > want {
		return bad(want, "unexpected: nverts=%d needs %d fields, the line has %d", nverts, want, len(f))
	}
	if nverts > 0 {
		b.Verts = make([][2]float64, nverts)
		for i := range 2 * nverts {
			col := fixedColumns + i
			var msg string
			if b.Verts[i/2][i%2], msg = parseFloat(f[col]); msg != "" {
				return bad(col, "%s", msg)
			}
		}
	}
	return b, nil
}

// parseFloat parses a finite float64, or returns why it cannot.
func parseFloat(s string) (float64, string) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, "number out of range " + quote(s)
	case err != nil:
		return 0, "invalid number " + quote(s)
	case math.IsInf(v, 0) || math.IsNaN(v):
		return 0, "non-finite number " + quote(s)
	}
	return v, ""
}

// quote quotes s for an error message, cut to a readable length.
func quote(s string) string {
	const most = 64
	if len(s) > most {
		return strconv.Quote(s[:most]) + "..."
	}
	return strconv.Quote(s)
}

// WriteCSV writes s in the shared swarm CSV format (see the package doc) so
// that [ReadCSV] reads back a bit-identical scene. Numbers are written with
// strconv.FormatFloat(v, 'g', -1, 64).
//
// The header is `# NAME n=N world=W seed=S`, followed by static=RANGES when
// some body is static. A static body's vx, vy and omega are written as 0
// whatever they hold (Advance ignores them). A polygon's Verts are written
// as they are, without a convexity check.
//
// WriteCSV returns an error wrapping [ErrInvalid], before writing anything,
// if s cannot be represented: a Name that is empty or holds a space or '=',
// N other than len(Bodies), a World that is negative or not finite, an
// unknown kind, a non-finite number, a polygon with fewer than 3 vertices,
// or vertices on another kind. Errors of w are returned as they are.
func WriteCSV(w io.Writer, s *Scene) error {
	if err := s.check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 512)
	buf = fmt.Appendf(buf, "# %s n=%d world=%s seed=%d", s.Name, s.N, strconv.FormatFloat(s.World, 'g', -1, 64), s.Seed)
	buf = appendSpans(buf, s.Bodies)
	buf = append(buf, '\n')
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		vx, vy, omega := b.VX, b.VY, b.Omega
		if b.Static {
			vx, vy, omega = 0, 0, 0
		}
		buf = append(buf[:0], kindNames[b.Kind]...)
		for _, v := range [...]float64{b.X, b.Y, vx, vy, b.Angle, omega, b.A, b.B} {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(len(b.Verts)), 10)
		for _, v := range b.Verts {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v[0], 'g', -1, 64)
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v[1], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendSpans appends " static=RANGES" listing the static bodies, or
// nothing if there are none.
func appendSpans(buf []byte, bodies []Body) []byte {
	sep := " static="
	for i := 0; i < len(bodies); i++ {
		if !bodies[i].Static {
			continue
		}
		j := i
		for j+1 < len(bodies) && bodies[j+1].Static {
			j++
		}
		buf = append(buf, sep...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		if j > i {
			buf = append(buf, '-')
			buf = strconv.AppendInt(buf, int64(j), 10)
		}
		sep = ","
		i = j
	}
	return buf
}

// check reports why WriteCSV cannot write s.
func (s *Scene) check() error {
	if s.Name == "" || strings.Contains(s.Name, "=") || strings.ContainsFunc(s.Name, unicode.IsSpace) {
		return fmt.Errorf("%w: name %q is empty or holds a space or '='", ErrInvalid, s.Name)
	}
	if s.N != len(s.Bodies) {
		return fmt.Errorf("%w: N = %d, but there are %d bodies", ErrInvalid, s.N, len(s.Bodies))
	}
	if !finite(s.World) || s.World < 0 {
		return fmt.Errorf("%w: world size %v is not finite and >= 0", ErrInvalid, s.World)
	}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Kind >= kindCount {
			return fmt.Errorf("%w: body %d: unknown %v", ErrInvalid, i, b.Kind)
		}
		for j, v := range [...]float64{b.X, b.Y, b.VX, b.VY, b.Angle, b.Omega, b.A, b.B} {
			if !finite(v) {
				return fmt.Errorf("%w: body %d: %s = %v", ErrInvalid, i, column(1+j), v)
			}
		}
		switch {
		case b.Kind.hasVerts() && len(b.Verts) < 3:
			return fmt.Errorf("%w: body %d: %v has %d vertices, want at least 3", ErrInvalid, i, b.Kind, len(b.Verts))
		case !b.Kind.hasVerts() && len(b.Verts) != 0:
			return fmt.Errorf("%w: body %d: %v has %d vertices, want none", ErrInvalid, i, b.Kind, len(b.Verts))
		}
		for j, v := range b.Verts {
			if !finite(v[0]) || !finite(v[1]) {
				return fmt.Errorf("%w: body %d: vertex %d = %v", ErrInvalid, i, j, v)
			}
		}
	}
	return nil
}

// finite reports whether v is neither infinite nor NaN.
func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
