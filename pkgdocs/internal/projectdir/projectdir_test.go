package projectdir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestAncestorsStopAtTheRepositoryRoot(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	want := []string{deep, filepath.Join(repo, "a"), repo}
	if got := Ancestors(deep); !slices.Equal(got, want) {
		t.Fatalf("Ancestors = %q, want %q", got, want)
	}
}

func TestAncestorsNeverReachTheFilesystemRoot(t *testing.T) {
	if got := Ancestors("/"); len(got) != 0 {
		t.Fatalf("Ancestors(/) = %q, want none", got)
	}
	long := t.TempDir()
	for range 12 {
		long = filepath.Join(long, "d")
	}
	os.MkdirAll(long, 0o755)
	got := Ancestors(long)
	if len(got) != MaxAncestors {
		t.Fatalf("Ancestors of a deep directory: %d, want %d", len(got), MaxAncestors)
	}
	for _, d := range got {
		if d == "/" {
			t.Fatal("the filesystem root is searched")
		}
	}
}

func TestAncestorsStopBelowHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	proj := filepath.Join(home, "proj")
	os.MkdirAll(proj, 0o755)
	if got, want := Ancestors(proj), []string{proj}; !slices.Equal(got, want) {
		t.Fatalf("Ancestors = %q, want %q (the home directory above the project is not searched)", got, want)
	}
	if got, want := Ancestors(home), []string{home}; !slices.Equal(got, want) {
		t.Fatalf("Ancestors(home) = %q, want %q", got, want)
	}
}

func TestNearest(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, "Cargo.lock"), []byte("above the repository"), 0o644)
	if got := Nearest(deep, "Cargo.lock"); got != "" {
		t.Fatalf("Nearest found %q above the repository root", got)
	}
	os.WriteFile(filepath.Join(repo, "Cargo.lock"), nil, 0o644)
	os.Mkdir(filepath.Join(deep, "Cargo.lock"), 0o755) // a directory is not a lock file
	if got, want := Nearest(deep, "Cargo.lock"), filepath.Join(repo, "Cargo.lock"); got != want {
		t.Fatalf("Nearest = %q, want %q", got, want)
	}
}
