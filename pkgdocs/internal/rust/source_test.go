package rust

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// fakeCrates plays crates.io (/api/v1/...), the static download host
// (/crates/...) and docs.rs (/crate/...) on one server.
type fakeCrates struct {
	*httptest.Server
	docsDown atomic.Bool // docs.rs answers 503
}

func newFakeCrates(t *testing.T) *fakeCrates {
	tgz := testutil.TarGz(t, "kvstore-0.3.1/", testutil.TxtarFile(t, "../../testdata/rust/kvstore.txtar"))
	sum := sha256.Sum256(tgz)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(readFixture(t))
	zw.Close()
	crate := fmt.Sprintf(`{"crate": {"name": "kvstore", "description": "A tiny typed key-value store", "repository": "https://github.com/example/kvstore",
		"default_version": "0.3.1", "max_stable_version": "0.3.1", "max_version": "0.4.0-beta.1"},
	  "versions": [
		{"num": "0.4.0-beta.1", "yanked": false, "checksum": "00"},
		{"num": "0.3.1", "yanked": false, "checksum": %q, "license": "MIT OR Apache-2.0", "rust_version": "1.70", "features": {"default": ["std"], "std": [], "serde": ["dep:serde"]}},
		{"num": "0.2.1", "yanked": true, "checksum": "00"},
		{"num": "0.2.0", "yanked": false, "checksum": %q},
		{"num": "0.1.0", "yanked": true, "checksum": %q}]}`, hex.EncodeToString(sum[:]), hex.EncodeToString(sum[:]), hex.EncodeToString(sum[:]))
	f := &fakeCrates{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/api/v1/crates" && r.URL.Query().Get("q") != "":
			w.Write([]byte(`{"crates": [{"name": "kvstore"}, {"name": "kv-log"}], "meta": {"total": 2}}`))
		case p == "/api/v1/crates/kvstore":
			w.Write([]byte(crate))
		case p == "/crates/kvstore/kvstore-0.3.1.crate":
			w.Write(tgz)
		case p == "/crates/kvstore/kvstore-0.2.0.crate", p == "/crates/kvstore/kvstore-0.2.1.crate", p == "/crates/kvstore/kvstore-0.1.0.crate":
			w.Write(tgz) // same bytes: 0.2.0 has no rustdoc JSON, 0.2.1 a wrong checksum
		case strings.HasPrefix(p, "/crate/"):
			if f.docsDown.Load() {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			if p == "/crate/kvstore/0.3.1/json.gz" {
				w.Write(gz.Bytes())
				return
			}
			http.NotFound(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeCrates) source() *Source {
	return &Source{
		Client: fetch.New(&fetch.Options{Retries: -1, BaseBackoff: time.Millisecond}),
		APIURL: f.URL, DownloadURL: f.URL, DocsURL: f.URL,
	}
}

func TestDescribeCrateWithRustdocJSON(t *testing.T) {
	f := newFakeCrates(t)
	pkg, err := f.source().Describe(context.Background(), Request{Name: "kvstore"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "0.3.1" || pkg.ResolvedFrom != "latest (crates.io default version)" || pkg.Synopsis != "A tiny typed key-value store" {
		t.Errorf("provenance: %s from %q, synopsis %q", pkg.Version, pkg.ResolvedFrom, pkg.Synopsis)
	}
	wantOrigin := "README.md + rustdoc JSON (" + strings.TrimPrefix(f.URL, "http://") + ", format 57) + examples/"
	if pkg.Origin != wantOrigin {
		t.Errorf("origin = %q, want %q", pkg.Origin, wantOrigin)
	}
	var titles []string
	for _, s := range pkg.Sections {
		titles = append(titles, s.File+":"+s.Title())
	}
	want := "README.md:(introduction)|README.md:Installation|README.md:Usage|crate docs:Crate documentation|crate docs:Examples|:Project links"
	if got := strings.Join(titles, "|"); got != want {
		t.Errorf("sections = %s\nwant       %s", got, want)
	}
	for _, s := range pkg.Sections {
		if strings.Contains(s.Markdown, "# use kvstore::Store;") {
			t.Errorf("rustdoc hidden line kept in %s", s.Title())
		}
	}
	if len(pkg.Symbols) != 17 || pkg.Symbols[8].Name != "Store::new" {
		t.Errorf("symbols: %s", names(pkg.Symbols))
	}
	if len(pkg.Examples) != 1 || pkg.Examples[0].Doc != "Store and read one value." || strings.HasPrefix(pkg.Examples[0].Code, "//!") {
		t.Errorf("examples: %+v", pkg.Examples)
	}
	notes := strings.Join(pkg.Notes, "\n")
	for _, want := range []string{"Cargo features: default = [std]; serde; std.", "Needs Rust 1.70 or newer.", "License: MIT OR Apache-2.0."} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if pkg.Install != "```sh\ncargo add kvstore@0.3.1\n```" || pkg.Partial {
		t.Errorf("install %q, partial %v", pkg.Install, pkg.Partial)
	}
}

func TestDescribeCrateFallsBackToSourceScan(t *testing.T) {
	f := newFakeCrates(t)
	pkg, err := f.source().Describe(context.Background(), Request{Name: "kvstore", Version: "0.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pkg.Origin, "source scan of src/lib.rs") || !strings.Contains(strings.Join(pkg.Notes, " "), "docs.rs has no rustdoc JSON") || pkg.Partial {
		t.Errorf("origin %q, notes %q, partial %v", pkg.Origin, pkg.Notes, pkg.Partial)
	}
	if syms := symbolMap(pkg.Symbols); syms["Store::get"].Signature != "pub fn get(&self, key: &K) -> Option<&V>" {
		t.Errorf("scanned symbols: %s", names(pkg.Symbols))
	}
	// docs.rs down: still an answer, marked partial so caches keep it briefly.
	f.docsDown.Store(true)
	pkg, err = f.source().Describe(context.Background(), Request{Name: "kvstore", Version: "0.3.1"})
	if err != nil || !pkg.Partial || !strings.Contains(pkg.Origin, "source scan") {
		t.Fatalf("docs.rs down: partial=%v origin=%q err=%v", pkg != nil && pkg.Partial, pkg.Origin, err)
	}
}

func TestCrateVersionResolution(t *testing.T) {
	f := newFakeCrates(t)
	proj := t.TempDir()
	sub := filepath.Join(proj, "crates", "app")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(proj, "Cargo.lock"), []byte("[[package]]\nname = \"kvstore\"\nversion = \"0.2.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"), 0o644)
	tests := []struct {
		req          Request
		version, how string
	}{
		{Request{Name: "kvstore", Version: "0.3.1"}, "0.3.1", "explicit"},
		{Request{Name: "kvstore", Version: "0.2"}, "0.2.0", "requirement 0.2"},
		{Request{Name: "kvstore", Version: ">=0.1, <0.4"}, "0.3.1", "requirement >=0.1, <0.4"},
		{Request{Name: "kvstore", ProjectPath: sub}, "0.2.0", "Cargo.lock"},
		{Request{Name: "kvstore", Version: "latest", ProjectPath: sub}, "0.3.1", "latest (crates.io default version)"},
	}
	for _, tt := range tests {
		pkg, err := f.source().Describe(context.Background(), tt.req)
		if err != nil {
			t.Errorf("%+v: %v", tt.req, err)
			continue
		}
		if pkg.Version != tt.version || pkg.ResolvedFrom != tt.how {
			t.Errorf("%+v: got %s from %q, want %s from %q", tt.req, pkg.Version, pkg.ResolvedFrom, tt.version, tt.how)
		}
	}
}

func TestDescribeCrateErrors(t *testing.T) {
	f := newFakeCrates(t)
	tests := []struct {
		name    string
		req     Request
		wantErr error
		wantMsg string
	}{
		{"unknown crate", Request{Name: "kvstor"}, ErrNotFound, `crate "kvstor" not found`},
		{"did you mean", Request{Name: "kvstor"}, ErrNotFound, "did you mean kvstore?"},
		{"unknown version", Request{Name: "kvstore", Version: "0.2.5"}, ErrVersionNotFound, "nearest: 0.3.1, 0.2.0"},
		{"unmatched requirement", Request{Name: "kvstore", Version: "^9"}, ErrVersionNotFound, "no release of kvstore matches"},
		{"bad name", Request{Name: "../etc"}, ErrInvalidName, "invalid crate name"},
		{"missing archive", Request{Name: "kvstore", Version: "0.4.0-beta.1"}, fetch.ErrNotFound, "downloading the crate archive"},
		{"checksum mismatch", Request{Name: "kvstore", Version: "0.2.1"}, ErrChecksum, "kvstore 0.2.1"},
	}
	for _, tt := range tests {
		_, err := f.source().Describe(context.Background(), tt.req)
		if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("%s: err = %v, want %v containing %q", tt.name, err, tt.wantErr, tt.wantMsg)
		}
	}
}

// TestYankedCrate: a yanked release says so on the answer's first line.
func TestYankedCrate(t *testing.T) {
	f := newFakeCrates(t)
	pkg, err := f.source().Describe(context.Background(), Request{Name: "kvstore", Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pkg.Deprecated, "0.1.0 is yanked on crates.io") {
		t.Fatalf("Deprecated = %q", pkg.Deprecated)
	}
	pkg, err = f.source().Describe(context.Background(), Request{Name: "kvstore", Version: "0.3.1"})
	if err != nil || pkg.Deprecated != "" {
		t.Fatalf("0.3.1: %v, Deprecated = %q", err, pkg.Deprecated)
	}
}
