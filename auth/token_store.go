package auth

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gomcp/sdk/strictjson"
)

// TokenStore keeps tokens between uses, keyed by the MCP server URL, so a
// program does not have to authorize again each time it starts.
// Implementations must be safe for concurrent use.
type TokenStore interface {
	// Load returns the token stored under key, or nil and no error if
	// there is none.
	Load(ctx context.Context, key string) (*Token, error)
	// Save stores tok under key; a nil tok removes the entry.
	Save(ctx context.Context, key string, tok *Token) error
}

// MemoryTokenStore is a TokenStore in memory, for one process. The zero
// value is ready to use.
type MemoryTokenStore struct {
	mu     sync.Mutex
	tokens map[string]Token
}

var _ TokenStore = (*MemoryTokenStore)(nil)

// Load implements TokenStore.
func (s *MemoryTokenStore) Load(_ context.Context, key string) (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, ok := s.tokens[key]
	if !ok {
		return nil, nil
	}
	return &tok, nil
}

// Save implements TokenStore.
func (s *MemoryTokenStore) Save(_ context.Context, key string, tok *Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok == nil {
		delete(s.tokens, key)
		return nil
	}
	if s.tokens == nil {
		s.tokens = map[string]Token{}
	}
	s.tokens[key] = *tok
	return nil
}

// ErrInsecureTokenFile reports a token file that other users can read or
// write; FileTokenStore refuses to use it. Windows has no mode bits that
// say so, and there the store relies on the directory's ACL instead (see
// the module README).
var ErrInsecureTokenFile = errors.New("auth: token file is accessible to other users")

// FileTokenStore is a TokenStore in one JSON file, readable and writable
// by its owner only (mode 0600). Every save writes a temporary file in the
// same directory and renames it over the old one, so a crash never leaves a
// half-written file. It serializes access within a process; separate
// processes sharing one file may lose each other's updates.
type FileTokenStore struct {
	path string
	mu   sync.Mutex
}

var _ TokenStore = (*FileTokenStore)(nil)

// NewFileTokenStore returns a store kept in the file at path, which need
// not exist yet; its directory must.
func NewFileTokenStore(path string) *FileTokenStore {
	return &FileTokenStore{path: path}
}

// Load implements TokenStore.
func (s *FileTokenStore) Load(_ context.Context, key string) (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return nil, err
	}
	tok, ok := all[key]
	if !ok {
		return nil, nil
	}
	return &tok, nil
}

// Save implements TokenStore.
func (s *FileTokenStore) Save(_ context.Context, key string, tok *Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return err
	}
	if tok == nil {
		delete(all, key)
	} else {
		all[key] = *tok
	}
	data, err := strictjson.Marshal(all)
	if err != nil {
		return fmt.Errorf("auth: encoding tokens: %w", err)
	}
	return writeFileAtomic(s.path, data)
}

// read returns the file's tokens; a missing file holds none.
func (s *FileTokenStore) read() (map[string]Token, error) {
	all := map[string]Token{}
	fi, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: token file: %w", err)
	}
	if err := checkTokenFileAccess(s.path, fi); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return nil, fmt.Errorf("auth: token file: %w", err)
	}
	if len(data) == 0 {
		return all, nil
	}
	if err := strictjson.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("auth: token file %s: %w", s.path, err)
	}
	return all, nil
}

// writeFileAtomic writes data to a new 0600 file beside path, syncs it and
// renames it to path.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("auth: token file: %w", err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("auth: token file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("auth: token file: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("auth: token file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("auth: token file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("auth: token file: %w", err)
	}
	ok = true
	return nil
}
