package collide_test

import (
	"go/build"
	"path"
	"slices"
	"strings"
	"testing"
)

// TestImportArrows keeps the package dependency arrows of STYLE §1 from
// rotting: each package may import only the standard library and the listed
// packages of this module or outside it.
func TestImportArrows(t *testing.T) {
	const mod = "github.com/collide-go/collide"
	allowed := map[string][]string{
		"shape":       {},
		"narrowphase": {"shape"},
		"broadphase":  {"shape", "github.com/tidwall/rtree"},
		"engine":      {"shape", "narrowphase", "broadphase"},
		".":           {"shape", "narrowphase", "engine"},
		"bench/scene": {"."},
		"bench":       {".", "bench/scene"},
		"cmd/collide": {".", "bench/scene", "view"},
		"view":        {".", "golang.org/x/image/vector"},
	}
	for dir, ok := range allowed {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		for _, imp := range pkg.Imports {
			if !strings.Contains(strings.Split(imp, "/")[0], ".") {
				continue // standard library
			}
			name := imp
			if imp == mod {
				name = "."
			} else if rest, found := strings.CutPrefix(imp, mod+"/"); found {
				name = rest
			}
			if !slices.Contains(ok, name) {
				t.Errorf("package %s imports %s; allowed: standard library and %v", path.Clean(dir), imp, ok)
			}
		}
	}
}
