package main

import (
	"archive/zip"
	"bytes"
	"slices"
	"testing"
)

func TestModulePath(t *testing.T) {
	tests := []struct{ gomod, want string }{
		{"module github.com/gomcp/sdk\n\ngo 1.25\n", "github.com/gomcp/sdk"},
		{"// comment\nmodule \"example.com/Q\"\n", "example.com/Q"},
	}
	for _, tt := range tests {
		got, err := modulePath([]byte(tt.gomod))
		if err != nil || got != tt.want {
			t.Errorf("modulePath(%q) = %q, %v; want %q", tt.gomod, got, err, tt.want)
		}
	}
	if _, err := modulePath([]byte("go 1.25\n")); err == nil {
		t.Error("go.mod without module directive accepted")
	}
}

func TestEscapePath(t *testing.T) {
	if got := escapePath("github.com/BurntSushi/toml"); got != "github.com/!burnt!sushi/toml" {
		t.Errorf("escapePath = %q", got)
	}
}

func TestModuleZip(t *testing.T) {
	dir := t.TempDir()
	data, err := moduleZip(dir, "m@v1.0.0", nil)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || len(zr.File) != 0 {
		t.Fatalf("empty zip: %v, %d files", err, len(zr.File))
	}
}

// The repository's root module leaves out the nested modules.
func TestTrackedFilesSkipsNestedModules(t *testing.T) {
	files, err := trackedFiles("../..")
	if err != nil {
		t.Skip("not a git work tree:", err)
	}
	if !slices.Contains(files, "go.mod") || !slices.Contains(files, "mcp/doc.go") {
		t.Errorf("root files missing: %d files", len(files))
	}
	for _, f := range files {
		if f == "pkgdocs/go.mod" || f == "examples/migrate/go.mod" {
			t.Errorf("nested module file %s included", f)
		}
	}
}
