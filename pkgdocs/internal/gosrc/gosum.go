package gosrc

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// ErrChecksumMismatch reports a module zip whose content does not hash to
// the h1: checksum the project's go.sum records for it.
var ErrChecksumMismatch = errors.New("checksum mismatch")

// maxGoSum bounds the go.sum read next to a project's go.mod.
const maxGoSum = 16 << 20

// goSumHash returns the h1: hash that the go.sum beside gomod records for
// the zip of mod@version, or "" when there is none. The module proxy
// publishes no checksums and the checksum database is not consulted, so a
// project's go.sum is the only trusted hash pkgdocs has for a module zip.
func goSumHash(gomod, mod, version string) string {
	f, err := os.Open(filepath.Join(filepath.Dir(gomod), "go.sum"))
	if err != nil {
		return ""
	}
	defer f.Close()
	return lookupGoSum(io.LimitReader(f, maxGoSum), mod, version)
}

// lookupGoSum returns the h1: hash of mod@version's zip in go.sum content
// r ("<module> <version> h1:<base64>" lines; "/go.mod" lines are for the
// go.mod alone and are skipped), or "". Malformed lines are ignored.
func lookupGoSum(r io.Reader, mod, version string) string {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == mod && fields[1] == version && strings.HasPrefix(fields[2], "h1:") {
			return fields[2]
		}
	}
	return ""
}

// verifyZip checks that the module zip data hashes to want (the go.sum h1:
// form, as the go command computes it over the zip's files).
func verifyZip(data []byte, want string) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("reading the module zip to check its checksum: %w", err)
	}
	files := make([]string, 0, len(zr.File))
	byName := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		files = append(files, f.Name)
		byName[f.Name] = f
	}
	got, err := dirhash.Hash1(files, func(name string) (io.ReadCloser, error) {
		f, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("%s: not in the zip", name)
		}
		return f.Open()
	})
	if err != nil {
		return fmt.Errorf("hashing the module zip: %w", err)
	}
	if got != want {
		return fmt.Errorf("module zip hashes to %s, go.sum records %s: %w", got, want, ErrChecksumMismatch)
	}
	return nil
}
