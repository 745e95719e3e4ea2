//go:build !windows

package auth

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestFileTokenStoreAccess checks the mode check where modes mean access:
// Save writes a 0600 file, and Load takes a file only its owner can use
// and refuses one its group or other users can read or write.
func TestFileTokenStoreAccess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokens.json")
	s := NewFileTokenStore(path)
	if err := s.Save(ctx, "k", &Token{AccessToken: "at", TokenType: "Bearer"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("Save wrote mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	tests := []struct {
		mode    fs.FileMode
		refused bool
	}{
		{0o600, false},
		{0o400, false},
		{0o700, false},
		{0o640, true},
		{0o620, true},
		{0o604, true},
		{0o602, true},
		{0o644, true},
		{0o666, true},
	}
	for _, tt := range tests {
		if err := os.Chmod(path, tt.mode); err != nil {
			t.Fatal(err)
		}
		tok, err := s.Load(ctx, "k")
		if tt.refused {
			if !errors.Is(err, ErrInsecureTokenFile) {
				t.Errorf("Load of a %v file = %v, %v; want ErrInsecureTokenFile", tt.mode, tok, err)
			}
			continue
		}
		if err != nil || tok == nil || tok.AccessToken != "at" {
			t.Errorf("Load of a %v file = %+v, %v; want the token", tt.mode, tok, err)
		}
	}
}
