package rust

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

const kvLock = "version = 3\n\n[[package]]\nname = \"kvstore\"\nversion = \"0.3.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"

// localLayout is one way a crate is on disk.
type localLayout struct {
	name    string
	lock    bool
	layout  func(t *testing.T, project, home string)
	version string // "" when nothing local is read
	origin  string // the start of the answer's origin
	why     string // in the error when nothing is read
}

// writeFiles writes files under dir.
func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// crateAtVersion is crate with its Cargo.toml saying version v.
func crateAtVersion(crate map[string][]byte, v string) map[string][]byte {
	out := map[string][]byte{}
	for n, d := range crate {
		out[n] = d
	}
	out["Cargo.toml"] = []byte(strings.Replace(string(crate["Cargo.toml"]), `version = "0.3.1"`, `version = "`+v+`"`, 1))
	return out
}

// localLayouts are the layouts TestLocalLayouts reads.
func localLayouts(crate map[string][]byte) []localLayout {
	write := writeFiles
	withVersion := func(v string) map[string][]byte { return crateAtVersion(crate, v) }
	return []localLayout{
		{"registry sources", true, func(t *testing.T, project, home string) {
			write(t, filepath.Join(home, "registry", "src", "index.crates.io-6f17d22bba15001f", "kvstore-0.3.1"), crate)
		}, "0.3.1", "local Cargo registry sources", ""},
		{"a symbolic link in the registry sources", true, func(t *testing.T, project, home string) {
			real := filepath.Join(t.TempDir(), "kvstore-0.3.1")
			write(t, real, crate)
			idx := filepath.Join(home, "registry", "src", "index")
			os.MkdirAll(idx, 0o755)
			if err := os.Symlink(real, filepath.Join(idx, "kvstore-0.3.1")); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		}, "0.3.1", "local Cargo registry sources", ""},
		{"cargo vendor", true, func(t *testing.T, project, home string) {
			write(t, filepath.Join(project, "vendor", "kvstore"), crate)
			write(t, project, map[string][]byte{".cargo/config.toml": []byte("[source.crates-io]\nreplace-with = \"vendored-sources\"\n\n[source.vendored-sources]\ndirectory = \"vendor\"\n")})
		}, "0.3.1", "directory source vendor (.cargo/config.toml)", ""},
		{"Debian's directory source", true, func(t *testing.T, project, home string) {
			write(t, filepath.Join(filepath.Dir(home), "debian", "registry", "kvstore-0.3.1"), crate)
			write(t, home, map[string][]byte{"config.toml": []byte("[source.crates-io]\nreplace-with = \"debian-packages\"\n[source.debian-packages]\ndirectory = \"debian/registry\"\n")})
		}, "0.3.1", "directory source", ""},
		{"a directory source without a lock file: its highest version", false, func(t *testing.T, project, home string) {
			for _, v := range []string{"0.2.0", "0.3.1", "0.10.0-rc.1"} {
				write(t, filepath.Join(project, "registry", "kvstore-"+v), withVersion(v))
			}
			write(t, project, map[string][]byte{".cargo/config.toml": []byte("[source.crates-io]\nreplace-with = \"d\"\n[source.d]\ndirectory = \"registry\"\n")})
		}, "0.3.1", "directory source", ""},
		{"a local registry", true, func(t *testing.T, project, home string) {
			var files []testutil.File
			for n, d := range crate {
				files = append(files, testutil.File{Name: n, Data: d})
			}
			write(t, project, map[string][]byte{
				"reg/kvstore-0.3.1.crate": testutil.TarGz(t, "kvstore-0.3.1/", files),
				".cargo/config.toml":      []byte("[source.crates-io]\nreplace-with = \"r\"\n[source.r]\nlocal-registry = \"reg\"\n"),
			})
		}, "0.3.1", "local registry", ""},
		{"a vendored copy of another version", true, func(t *testing.T, project, home string) {
			write(t, filepath.Join(project, "vendor", "kvstore"), withVersion("0.3.0"))
		}, "", "", "holds kvstore 0.3.0, not the 0.3.1 pinned"},
		{"a Debian directory source with other versions", true, func(t *testing.T, project, home string) {
			for _, v := range []string{"0.2.0", "0.4.0"} {
				write(t, filepath.Join(project, "registry", "kvstore-"+v), withVersion(v))
			}
			write(t, project, map[string][]byte{".cargo/config.toml": []byte("[source.crates-io]\nreplace-with = \"d\"\n[source.d]\ndirectory = \"registry\"\n")})
		}, "", "", "holds kvstore 0.2.0, 0.4.0, not the 0.3.1 pinned"},
		{"a copy without sources", true, func(t *testing.T, project, home string) {
			write(t, filepath.Join(home, "registry", "src", "index", "kvstore-0.3.1"), map[string][]byte{"Cargo.toml": crate["Cargo.toml"]})
		}, "", "", "could not be read: no .rs files under src/"},
	}
}

// TestLocalLayouts: the ways a project's crates are on disk (Cargo's
// registry sources, a symbolic link to a crate, cargo vendor's directory
// source, Debian's directory source named by the Cargo home's
// configuration, a local registry of .crate archives) are read with no
// request to crates.io; a copy that cannot be used says why.
func TestLocalLayouts(t *testing.T) {
	crate := crateFiles(t)
	write := writeFiles
	tests := localLayouts(crate)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); http.NotFound(w, r) }))
			defer srv.Close()
			root := t.TempDir()
			project, home := filepath.Join(root, "project"), filepath.Join(root, "cargo-home")
			os.MkdirAll(project, 0o755)
			os.MkdirAll(home, 0o755)
			if tt.lock {
				write(t, project, map[string][]byte{"Cargo.lock": []byte(kvLock)})
			}
			tt.layout(t, project, home)
			src := &Source{Client: fetch.New(&fetch.Options{Retries: -1}), APIURL: srv.URL, DownloadURL: srv.URL, DocsURL: "off", CargoHome: home}
			pkg, err := src.Describe(context.Background(), Request{Name: "kvstore", ProjectPath: project})
			if tt.version == "" {
				if err == nil || !strings.Contains(err.Error(), tt.why) || !errors.Is(err, ErrNotFound) {
					t.Fatalf("err = %v, want one saying %q", err, tt.why)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			origin := strings.ReplaceAll(tt.origin, "PROJECT", project)
			if pkg.Version != tt.version || pkg.Registry != "local" || !strings.HasPrefix(pkg.Origin, origin) || len(pkg.Symbols) == 0 {
				t.Fatalf("%s@%s from %s (%s), %d symbols; want %s from %s", pkg.Name, pkg.Version, pkg.Registry, pkg.Origin, len(pkg.Symbols), tt.version, origin)
			}
			if hits.Load() != 0 {
				t.Fatalf("%d upstream requests", hits.Load())
			}
		})
	}
}
