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
	// The core describes frames to a Drawer and never renders them: image
	// and HTTP code lives in view (STYLE §4).
	core := []string{"shape", "narrowphase", "broadphase", "engine", "."}
	forbidden := []string{"net/http", "image", "html", "golang.org/x/image"}
	for dir, ok := range allowed {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		for _, imp := range pkg.Imports {
			if slices.Contains(core, dir) {
				for _, f := range forbidden {
					if imp == f || strings.HasPrefix(imp, f+"/") {
						t.Errorf("core package %s imports %s: rendering belongs in view", path.Clean(dir), imp)
					}
				}
			}
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
