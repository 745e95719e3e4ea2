package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// diskSchema is part of every key, so that a format change never reads old
// entries.
const diskSchema = "v1"

// Disk is a content-addressed on-disk cache for immutable artefacts. Entries
// are written to a temporary file and renamed, so a crash never leaves a
// half-written entry. When the total size passes MaxBytes, the least
// recently used files (by modification time) are removed.
type Disk struct {
	dir      string
	maxBytes int64
	mu       sync.Mutex // serialises eviction
}

// OpenDisk creates dir if needed and returns a cache rooted there.
// maxBytes <= 0 means 1 GiB.
func OpenDisk(dir string, maxBytes int64) (*Disk, error) {
	if maxBytes <= 0 {
		maxBytes = 1 << 30
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Disk{dir: dir, maxBytes: maxBytes}, nil
}

func (d *Disk) path(key string) string {
	sum := sha256.Sum256([]byte(diskSchema + "\x00" + key))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(d.dir, "sha256", h[:2], h)
}

// Get returns the bytes stored under key.
func (d *Disk) Get(key string) ([]byte, bool) {
	p := d.path(key)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // mark as recently used
	return data, true
}

// Put stores data under key.
func (d *Disk) Put(key string, data []byte) error {
	p := d.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache: %w", err)
	}
	return d.evict()
}

func (d *Disk) evict() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	err := filepath.WalkDir(filepath.Join(d.dir, "sha256"), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.IsDir() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return nil
		}
		files = append(files, file{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if total <= d.maxBytes {
		return nil
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= d.maxBytes {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
	return nil
}
