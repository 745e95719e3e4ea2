package rust

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCargoLockAboveTheRepositoryIsNotRead(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "crates", "x")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, "Cargo.lock"), []byte("version = 3\n"), 0o644)
	if f := nearestFile(deep, "Cargo.lock"); f != "" {
		t.Fatalf("nearestFile = %q; the Cargo.lock above the repository root is not read", f)
	}
	want := filepath.Join(repo, "Cargo.lock")
	os.WriteFile(want, []byte("version = 3\n"), 0o644)
	if f := nearestFile(deep, "Cargo.lock"); f != want {
		t.Fatalf("nearestFile = %q, want %q", f, want)
	}
}
