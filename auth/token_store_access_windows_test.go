package auth

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFileTokenStoreAccess checks the store on Windows, where Go reports
// every writable file as 0666 and a read-only one as 0444: the file Save
// writes, one written by another program and a read-only one all load,
// since the mode bits say nothing there about other users (see
// checkTokenFileAccess).
func TestFileTokenStoreAccess(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved.json")
	if err := NewFileTokenStore(saved).Save(ctx, "k", &Token{AccessToken: "at", TokenType: "Bearer"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		mode os.FileMode // 0: left as written
	}{
		{"written by Save", saved, 0},
		{"written by another program", filepath.Join(dir, "other.json"), 0o644},
		{"read-only", filepath.Join(dir, "readonly.json"), 0o400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.path != saved {
				if err := os.WriteFile(tt.path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(tt.path, tt.mode); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(tt.path, 0o600) })
			}
			fi, err := os.Stat(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm()&0o077 == 0 {
				t.Fatalf("mode %v: Windows reported owner-only bits, which this test assumes it never does", fi.Mode().Perm())
			}
			tok, err := NewFileTokenStore(tt.path).Load(ctx, "k")
			if err != nil || tok == nil || tok.AccessToken != "at" {
				t.Errorf("Load = %+v, %v; want the token", tok, err)
			}
		})
	}
}
