package pypi

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLockFileAboveTheRepositoryIsNotRead(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "src", "app")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, "requirements.txt"), []byte("requests==2.0.0\n"), 0o644)
	if v, from := lockedVersion(deep, "requests"); v != "" {
		t.Fatalf("lock file above the repository root read: %s from %s", v, from)
	}
	os.WriteFile(filepath.Join(repo, "requirements.txt"), []byte("requests==2.31.0\n"), 0o644)
	if v, from := lockedVersion(deep, "requests"); v != "2.31.0" || from != "requirements.txt" {
		t.Fatalf("lockedVersion = %q from %q, want 2.31.0 from requirements.txt", v, from)
	}
}
