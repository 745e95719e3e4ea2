package npm

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAncestorsStayInTheProject(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b", "c")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	got := ancestors(deep)
	want := []string{deep, filepath.Join(repo, "a", "b"), filepath.Join(repo, "a"), repo}
	if len(got) != len(want) {
		t.Fatalf("ancestors = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ancestors = %q, want %q", got, want)
		}
	}
	for _, d := range ancestors("/") {
		t.Errorf("the filesystem root is never searched: %q", d)
	}
	// Without a repository, at most maxAncestors levels and never /.
	long := root
	for range 12 {
		long = filepath.Join(long, "d")
	}
	os.MkdirAll(long, 0o755)
	if got := ancestors(long); len(got) != maxAncestors || got[len(got)-1] == "/" {
		t.Fatalf("ancestors of a deep directory: %d, last %q", len(got), got[len(got)-1])
	}
	// A lock file above the repository root is not used.
	os.WriteFile(filepath.Join(root, "package-lock.json"), []byte(`{"packages": {"node_modules/x": {"version": "1.0.0"}}}`), 0o644)
	if v := resolveProject(deep, "x"); v.version != "" {
		v, from := v.version, v.from
		t.Fatalf("lock file above the repository read: %s from %s", v, from)
	}
}
