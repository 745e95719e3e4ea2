package importcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNoModuleImportsAnothersInternals is the repository's check: no module
// (auth, redis, otel, cmd/gomcp, pkgdocs, bench, examples, conformance)
// imports an internal package of another, in particular the root's
// github.com/gomcp/sdk/internal/....
func TestNoModuleImportsAnothersInternals(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mods, err := Modules(root)
	if err != nil {
		t.Fatal(err)
	}
	// The walk must find the repository's modules, or it checks nothing.
	for _, want := range []string{"github.com/gomcp/sdk", "github.com/gomcp/sdk/auth", "github.com/gomcp/sdk/cmd/gomcp"} {
		if !slices.ContainsFunc(mods, func(m Module) bool { return m.Path == want }) {
			t.Fatalf("Modules(%s) = %v, missing %s", root, mods, want)
		}
	}
	vs, err := Check(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Errorf("%v: use the root's public API (for JSON, github.com/gomcp/sdk/strictjson)", v)
	}
}

// TestCheck runs the check over small repositories written for it.
func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // Violation.String() of each, in order
	}{
		{
			name: "a sub-module importing the root's internal package",
			files: map[string]string{
				"go.mod":              "module example.com/r\n",
				"internal/x/x.go":     "package x\n",
				"sub/go.mod":          "module example.com/r/sub\n",
				"sub/sub.go":          "package sub\n\nimport _ \"example.com/r/internal/x\"\n",
				"sub/sub_test.go":     "package sub\n\nimport (\n\t\"testing\"\n\t_ \"example.com/r/internal/x\"\n)\n",
				"sub/windows_only.go": "//go:build windows\n\npackage sub\n\nimport _ \"example.com/r/internal\"\n",
			},
			want: []string{
				"sub/sub.go:3: module example.com/r/sub imports example.com/r/internal/x, internal to module example.com/r",
				"sub/sub_test.go:5: module example.com/r/sub imports example.com/r/internal/x, internal to module example.com/r",
				"sub/windows_only.go:5: module example.com/r/sub imports example.com/r/internal, internal to module example.com/r",
			},
		},
		{
			name: "a nested module importing its parent module's internal package",
			files: map[string]string{
				"go.mod":               "module example.com/r\n",
				"otel/go.mod":          "module example.com/r/otel\n",
				"otel/internal/y/y.go": "package y\n",
				"otel/example/go.mod":  "module example.com/r/otel/example\n",
				"otel/example/main.go": "package main\n\nimport _ \"example.com/r/otel/internal/y\"\n\nfunc main() {}\n",
			},
			want: []string{
				"otel/example/main.go:3: module example.com/r/otel/example imports example.com/r/otel/internal/y, internal to module example.com/r/otel",
			},
		},
		{
			name: "each module importing its own internal packages and others' public ones",
			files: map[string]string{
				"go.mod":              "module example.com/r\n",
				"internal/x/x.go":     "package x\n",
				"mcp/mcp.go":          "package mcp\n\nimport _ \"example.com/r/internal/x\"\n",
				"sub/go.mod":          "module example.com/r/sub\n",
				"sub/internal/z/z.go": "package z\n",
				"sub/sub.go":          "package sub\n\nimport (\n\t_ \"example.com/r/mcp\"\n\t_ \"example.com/r/sub/internal/z\"\n\t_ \"golang.org/x/tools/internal/gocommand\"\n)\n",
				"sub/testdata/bad.go": "package bad\n\nimport _ \"example.com/r/internal/x\"\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tt.files {
				path := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			vs, err := Check(root)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.String())
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Check found\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

func TestCheckBadGoMod(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(root); err == nil || !strings.Contains(err.Error(), "no module directive") {
		t.Fatalf("Check of a go.mod without a module line: err = %v", err)
	}
}
