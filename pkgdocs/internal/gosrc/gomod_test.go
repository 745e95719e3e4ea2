package gosrc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGoModAboveTheRepositoryIsNotRead(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "cmd", "x")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module outside\n"), 0o644)
	if f, _, err := findGoMod(deep); err != nil || f != "" {
		t.Fatalf("findGoMod = %q, %v; want no go.mod (the one above the repository root is not read)", f, err)
	}
	want := filepath.Join(repo, "go.mod")
	os.WriteFile(want, []byte("module example.com/repo\n"), 0o644)
	if f, _, err := findGoMod(deep); err != nil || f != want {
		t.Fatalf("findGoMod = %q, %v; want %q", f, err, want)
	}
}
