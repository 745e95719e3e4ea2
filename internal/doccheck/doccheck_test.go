package doccheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDocs checks that every Go block in docs/ and README.md is the text of
// a region of a source file, and that those source files compile (go vet
// builds each of their packages, tests included).
func TestDocs(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sources, errs := Check(root, "docs", "README.md")
	for _, err := range errs {
		t.Error(err)
	}
	if len(sources) == 0 {
		t.Fatal("no Go blocks found in docs/ or README.md")
	}
	// Group the packages by module and vet each module's packages at once.
	byModule := map[string][]string{}
	for _, s := range sources {
		dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(s)))
		mod := moduleRoot(t, dir)
		rel, _ := filepath.Rel(mod, dir)
		pkg := "./" + filepath.ToSlash(rel)
		if !slices.Contains(byModule[mod], pkg) {
			byModule[mod] = append(byModule[mod], pkg)
		}
	}
	if testing.Short() {
		t.Skip("-short: sources not compiled")
	}
	for mod, pkgs := range byModule {
		cmd := exec.Command("go", append([]string{"vet"}, pkgs...)...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go vet %s in %s: %v\n%s", strings.Join(pkgs, " "), mod, err, out)
		}
	}
}

// moduleRoot returns the nearest directory at or above dir with a go.mod.
func moduleRoot(t *testing.T, dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", dir)
		}
	}
}

func TestRegion(t *testing.T) {
	src := "package p\n\nfunc f() {\n\t// docs:region body\n\tx := 1\n\n\tif x > 0 {\n\t\tx++\n\t}\n\t// docs:endregion\n}\n"
	tests := []struct {
		name, region, want, err string
	}{
		{name: "region is dedented", region: "body", want: "x := 1\n\nif x > 0 {\n\tx++\n}"},
		{name: "whole file", region: "", want: strings.TrimSuffix(src, "\n")},
		{name: "missing region", region: "nope", err: `no region "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Region([]byte(src), tt.region)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := Region([]byte("// docs:region a\nx\n"), "a"); err == nil {
		t.Error("unterminated region accepted")
	}
}

func TestBlocks(t *testing.T) {
	dir := t.TempDir()
	md := "# T\n\n<!-- code: a/b.go region=r -->\n```go\nx := 1\n```\n\n```sh\nls\n```\n\n```go\nbare\n```\n"
	path := filepath.Join(dir, "t.md")
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := Blocks(path, "t.md")
	if err == nil || !strings.Contains(err.Error(), "t.md:12: Go block without") {
		t.Errorf("unmarked block: err = %v", err)
	}
	if len(blocks) != 1 || blocks[0].Source != "a/b.go" || blocks[0].Region != "r" || blocks[0].Text != "x := 1" || blocks[0].Line != 4 {
		t.Errorf("blocks = %+v", blocks)
	}
}

func FuzzRegion(f *testing.F) {
	f.Add([]byte("// docs:region a\n\tx\n  y\n// docs:endregion\n"), "a")
	f.Add([]byte("\t// docs:region a\n\n\t\tz\n\t// docs:endregion\n"), "a")
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		got, err := Region(src, name)
		if err == nil && name != "" && strings.Contains(got, "// docs:endregion") {
			t.Fatalf("region %q contains its end marker: %q", name, got)
		}
	})
}

func FuzzBlocks(f *testing.F) {
	f.Add("<!-- code: a.go -->\n```go\nx\n```\n")
	f.Add("```go\n")
	f.Fuzz(func(t *testing.T, md string) {
		path := filepath.Join(t.TempDir(), "f.md")
		if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
		blocks, _ := Blocks(path, "f.md")
		for _, b := range blocks {
			if b.Source == "" {
				t.Fatalf("block without source: %+v", b)
			}
		}
	})
}
