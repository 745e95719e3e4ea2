package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesListed checks that every program in examples/ has a line in
// examples/README.md and a test that runs it.
func TestExamplesListed(t *testing.T) {
	root := filepath.Join("..", "..", "examples")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	programs := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || name == "internal" || name == "migrate" {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, name, "main.go")); err != nil {
			continue
		}
		programs++
		if !strings.Contains(string(readme), "| ["+name+"]("+name+") |") {
			t.Errorf("examples/%s has no line in examples/README.md", name)
		}
		tests, _ := filepath.Glob(filepath.Join(root, name, "*_test.go"))
		if len(tests) == 0 {
			t.Errorf("examples/%s has no test", name)
		}
	}
	if programs == 0 {
		t.Fatal("no example programs found")
	}
}
