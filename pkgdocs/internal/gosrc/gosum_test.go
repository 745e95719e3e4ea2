package gosrc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// demoZipHash is the h1: hash of example.com/demo@v1.0.0 as the go command
// computes it (dirhash.HashZip over the zip on disk).
func demoZipHash(t *testing.T) string {
	t.Helper()
	files := testutil.TxtarFile(t, "../../testdata/go/demo.txtar")
	zf := filepath.Join(t.TempDir(), "v1.0.0.zip")
	if err := os.WriteFile(zf, testutil.Zip(t, "example.com/demo@v1.0.0/", files), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := dirhash.HashZip(zf, dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A module zip resolved from the project's go.mod is checked against the
// h1: hash its go.sum records: a match is said in the provenance, a
// mismatch is an error and nothing is documented from the zip.
func TestModuleZipVerifiedAgainstGoSum(t *testing.T) {
	good := demoZipHash(t)
	bad := "h1:" + strings.Repeat("A", 43) + "="
	tests := []struct {
		name     string
		gosum    string
		wantErr  error
		verified bool
	}{
		{"matching go.sum line", "example.com/demo v1.0.0 " + good + "\nexample.com/demo v1.0.0/go.mod h1:xyz=\n", nil, true},
		{"no line for the module", "example.com/other v1.0.0 " + bad + "\n", nil, false},
		{"only the go.mod line", "example.com/demo v1.0.0/go.mod " + bad + "\n", nil, false},
		{"mismatching go.sum line", "example.com/demo v1.0.0 " + bad + "\n", ErrChecksumMismatch, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fp := newFakeProxy(t)
			proj := t.TempDir()
			os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module example.com/app\n\ngo 1.22\n\nrequire example.com/demo v1.0.0\n"), 0o644)
			os.WriteFile(filepath.Join(proj, "go.sum"), []byte(tt.gosum), 0o644)
			pkg, err := newSource(fp.URL).Describe(context.Background(), Request{ImportPath: "example.com/demo/sub", ProjectPath: proj})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Describe = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(pkg.Origin, "checksum matches go.sum"); got != tt.verified {
				t.Errorf("origin %q: verified = %v, want %v", pkg.Origin, got, tt.verified)
			}
		})
	}
}

func TestVerifyZipRejectsGarbage(t *testing.T) {
	if err := verifyZip([]byte("not a zip"), "h1:x"); err == nil {
		t.Fatal("a body that is not a zip passed")
	}
}

func FuzzGoSum(f *testing.F) {
	f.Add([]byte("example.com/demo v1.0.0 h1:abc=\nexample.com/demo v1.0.0/go.mod h1:def=\n"), "example.com/demo", "v1.0.0")
	f.Add([]byte("garbage\n\n\x00 h1:"), "x", "v1")
	f.Add([]byte(strings.Repeat("a", 70000)), "a", "v")
	f.Fuzz(func(t *testing.T, data []byte, mod, version string) {
		h := lookupGoSum(bytes.NewReader(data), mod, version)
		if h != "" && (!strings.HasPrefix(h, "h1:") || !bytes.Contains(data, []byte(h))) {
			t.Fatalf("lookupGoSum returned %q, not an h1: hash from the input", h)
		}
	})
}
