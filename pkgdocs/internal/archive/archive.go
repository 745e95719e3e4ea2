// Package archive reads package archives (zip, tar.gz) into memory safely:
// entry paths are checked for traversal (zip-slip), links are skipped, and
// entry count, per-file and total sizes are bounded.
package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// Sentinel errors.
var (
	ErrUnsafePath = errors.New("archive entry escapes the archive root")
	ErrTooLarge   = errors.New("archive exceeds size limits")
	ErrCorrupt    = errors.New("archive is corrupt or truncated")
)

// Limits bounds what an archive may hold. Zero fields take defaults.
type Limits struct {
	MaxEntries  int   // default 20000
	MaxFileSize int64 // largest kept file; default 8 MiB (bigger kept files are skipped, not fatal)
	MaxTotal    int64 // total bytes of kept files; default 200 MiB
}

func (l Limits) withDefaults() Limits {
	if l.MaxEntries == 0 {
		l.MaxEntries = 20000
	}
	if l.MaxFileSize == 0 {
		l.MaxFileSize = 8 << 20
	}
	if l.MaxTotal == 0 {
		l.MaxTotal = 200 << 20
	}
	return l
}

// Tree is an archive read into memory: the names of all regular files and
// the contents of the kept ones, with the root prefix removed.
type Tree struct {
	files   map[string][]byte // kept files
	names   []string          // all regular files, sorted
	Skipped []string          // kept-by-filter files dropped for size
}

// Get returns a kept file's contents.
func (t *Tree) Get(name string) ([]byte, bool) {
	b, ok := t.files[name]
	return b, ok
}

// Names returns every regular file in the archive, sorted.
func (t *Tree) Names() []string { return t.names }

// Has reports whether the archive holds the file name (kept or not).
func (t *Tree) Has(name string) bool {
	i := sort.SearchStrings(t.names, name)
	return i < len(t.names) && t.names[i] == name
}

// HasDir reports whether some file lives under dir ("" is the root).
func (t *Tree) HasDir(dir string) bool {
	if dir == "" || dir == "." {
		return len(t.names) > 0
	}
	prefix := dir + "/"
	i := sort.SearchStrings(t.names, prefix)
	return i < len(t.names) && strings.HasPrefix(t.names[i], prefix)
}

// Find returns the first kept file whose name matches pred, in name order.
func (t *Tree) Find(pred func(string) bool) (string, []byte, bool) {
	for _, n := range t.names {
		if b, ok := t.files[n]; ok && pred(n) {
			return n, b, true
		}
	}
	return "", nil, false
}

// Options controls reading.
type Options struct {
	// Prefix is removed from every entry name; entries outside it are
	// ignored. For Go module zips it is "module@version/".
	Prefix string
	// StripFirst removes the first path element (npm's "package/", a
	// tarball's "repo-tag/") instead of a fixed prefix.
	StripFirst bool
	// Keep selects which files' contents to read; nil keeps all.
	Keep   func(name string) bool
	Limits Limits
	// Progress, if not nil, is told of each kept file as it is read.
	Progress *progress.Reporter
}

// clean validates an entry name and applies the prefix options. It returns
// "" for entries to ignore.
func clean(name string, o *Options) (string, error) {
	if strings.Contains(name, "\\") || strings.HasPrefix(name, "/") || strings.Contains(name, "\x00") {
		return "", fmt.Errorf("%w: %q", ErrUnsafePath, name)
	}
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return "", fmt.Errorf("%w: %q", ErrUnsafePath, name)
		}
	}
	name = path.Clean(name)
	if o.StripFirst {
		_, rest, ok := strings.Cut(name, "/")
		if !ok {
			return "", nil
		}
		name = rest
	} else if o.Prefix != "" {
		if !strings.HasPrefix(name, o.Prefix) {
			return "", nil
		}
		name = strings.TrimPrefix(name, o.Prefix)
	}
	if name == "" || name == "." {
		return "", nil
	}
	return name, nil
}

type builder struct {
	t     *Tree
	o     Options
	total int64
	count int
}

func newBuilder(o Options) *builder {
	o.Limits = o.Limits.withDefaults()
	return &builder{t: &Tree{files: map[string][]byte{}}, o: o}
}

// add registers one regular file; open is called only for kept files.
func (b *builder) add(rawName string, size int64, open func() (io.Reader, error)) error {
	b.count++
	if b.count > b.o.Limits.MaxEntries {
		return fmt.Errorf("%w: more than %d entries", ErrTooLarge, b.o.Limits.MaxEntries)
	}
	name, err := clean(rawName, &b.o)
	if err != nil || name == "" {
		return err
	}
	b.t.names = append(b.t.names, name)
	if b.o.Keep != nil && !b.o.Keep(name) {
		return nil
	}
	if size > b.o.Limits.MaxFileSize {
		b.t.Skipped = append(b.t.Skipped, name)
		return nil
	}
	r, err := open()
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	data, err := io.ReadAll(io.LimitReader(r, b.o.Limits.MaxFileSize+1))
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	if int64(len(data)) > b.o.Limits.MaxFileSize {
		b.t.Skipped = append(b.t.Skipped, name)
		return nil
	}
	b.total += int64(len(data))
	if b.total > b.o.Limits.MaxTotal {
		return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, b.o.Limits.MaxTotal)
	}
	b.t.files[name] = data
	b.o.Progress.FileRead()
	return nil
}

func (b *builder) done() *Tree {
	sort.Strings(b.t.names)
	return b.t
}

// ReadZip reads a zip archive held in data.
func ReadZip(data []byte, o Options) (*Tree, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	b := newBuilder(o)
	for _, f := range zr.File {
		if f.Mode()&(1<<27|1<<31) != 0 || strings.HasSuffix(f.Name, "/") { // symlink or dir
			if strings.HasSuffix(f.Name, "/") {
				if _, err := clean(f.Name, &b.o); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := b.add(f.Name, int64(f.UncompressedSize64), func() (io.Reader, error) { return f.Open() }); err != nil {
			return nil, err
		}
	}
	return b.done(), nil
}

// ReadTarGz reads a gzip-compressed tar archive held in data.
func ReadTarGz(data []byte, o Options) (*Tree, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	b := newBuilder(o)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		switch h.Typeflag {
		case tar.TypeReg: // the reader reports old archives' '\x00' (TypeRegA) as TypeReg
		default:
			continue // directories, links, devices
		}
		if err := b.add(h.Name, h.Size, func() (io.Reader, error) { return tr, nil }); err != nil {
			return nil, err
		}
	}
	// Drain to surface truncation of the gzip stream itself.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return b.done(), nil
}

// FromFiles builds a Tree from files already in memory (a local directory,
// GOROOT). Every file is kept.
func FromFiles(files map[string][]byte) *Tree {
	t := &Tree{files: files}
	for n := range files {
		t.names = append(t.names, n)
	}
	sort.Strings(t.names)
	return t
}
