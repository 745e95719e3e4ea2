package npm

import (
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// fakeRegistry serves @acme/widget 2.0.0 and 2.1.0 (latest). When token is
// set every request must carry "Bearer <token>". Tarballs may live on a
// separate host (tarballs server) to check credentials never travel there.
type fakeRegistry struct {
	reg, tarballs *httptest.Server
	token         string
	mu            sync.Mutex
	tarballAuth   []string
	corrupt       bool
}

func newFakeRegistry(t *testing.T, token string, foreignTarballs bool) *fakeRegistry {
	fr := &fakeRegistry{token: token}
	tgz := testutil.TarGz(t, "package/", testutil.TxtarFile(t, "../../testdata/npm/widget.txtar"))
	sum := sha512.Sum512(tgz)
	integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	serveTarball := func(w http.ResponseWriter, r *http.Request) {
		fr.mu.Lock()
		fr.tarballAuth = append(fr.tarballAuth, r.Header.Get("Authorization"))
		corrupt := fr.corrupt
		fr.mu.Unlock()
		if corrupt {
			w.Write(tgz[:len(tgz)-10])
			return
		}
		w.Write(tgz)
	}
	fr.tarballs = httptest.NewServer(http.HandlerFunc(serveTarball))
	t.Cleanup(fr.tarballs.Close)
	fr.reg = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		tarballBase := fr.reg.URL
		if foreignTarballs {
			// Same server machine, different host name: localhost vs 127.0.0.1.
			_, port, _ := net.SplitHostPort(fr.tarballs.Listener.Addr().String())
			tarballBase = "http://localhost:" + port
		}
		vdoc := func(v string) map[string]any {
			return map[string]any{
				"name": "@acme/widget", "version": v, "description": "Widgets for tests",
				"dist": map[string]any{"tarball": tarballBase + "/@acme/widget/-/widget-" + v + ".tgz", "integrity": integrity},
			}
		}
		p := r.URL.EscapedPath()
		switch {
		case strings.HasSuffix(p, ".tgz"):
			serveTarball(w, r)
		case p == "/@acme%2Fwidget" || p == "/@acme%2fwidget":
			json.NewEncoder(w).Encode(map[string]any{
				"name": "@acme/widget", "dist-tags": map[string]string{"latest": "2.1.0"},
				"versions": map[string]any{"2.0.0": vdoc("2.0.0"), "2.1.0": vdoc("2.1.0")},
			})
		case strings.HasPrefix(p, "/@acme%2Fwidget/") || strings.HasPrefix(p, "/@acme%2fwidget/"):
			v := p[strings.LastIndexByte(p, '/')+1:]
			if v == "latest" {
				v = "2.1.0"
			}
			if v != "2.0.0" && v != "2.1.0" {
				http.NotFound(w, r)
				return
			}
			json.NewEncoder(w).Encode(vdoc(v))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(fr.reg.Close)
	return fr
}

func (fr *fakeRegistry) source(values map[string]string) *Source {
	return &Source{Client: fetch.New(&fetch.Options{BaseBackoff: 1}), Config: func(string) (*Config, error) { return FromValues(values), nil }}
}

func TestDescribeFromRegistry(t *testing.T) {
	fr := newFakeRegistry(t, "", false)
	src := fr.source(map[string]string{"registry": fr.reg.URL})
	pkg, err := src.Describe(context.Background(), Request{Name: "@acme/widget"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "2.1.0" || pkg.ResolvedFrom != "dist-tag latest" || pkg.Synopsis != "Widgets for tests" {
		t.Errorf("provenance: %s from %s, synopsis %q", pkg.Version, pkg.ResolvedFrom, pkg.Synopsis)
	}
	var titles []string
	for _, s := range pkg.Sections {
		titles = append(titles, s.File+":"+s.Title())
	}
	want := "README.md:(introduction)|README.md:Install|README.md:Usage|README.md:API › createWidget(options)|docs/guide.md:(introduction)|docs/guide.md:Theming"
	if strings.Join(titles, "|") != want {
		t.Errorf("sections = %s\nwant       %s", strings.Join(titles, "|"), want)
	}
	listed := 0
	for _, s := range pkg.Symbols {
		if !s.Hidden {
			listed++
		}
	}
	if listed != 9 || len(pkg.Examples) != 1 || pkg.Examples[0].Name != "examples/basic.js" {
		t.Errorf("symbols %d, examples %+v", listed, pkg.Examples)
	}
	for _, tt := range []struct{ version, want, how string }{
		{"2.0.0", "2.0.0", "explicit"},
		{"^2.0.0", "2.1.0", "semver range ^2.0.0"},
		{"~2.0", "2.0.0", "semver range ~2.0"},
	} {
		pkg, err := src.Describe(context.Background(), Request{Name: "@acme/widget", Version: tt.version})
		if err != nil || pkg.Version != tt.want || pkg.ResolvedFrom != tt.how {
			t.Errorf("version %q: got %v (%v), want %s from %s", tt.version, pkg, err, tt.want, tt.how)
		}
	}
}

func TestDescribeErrorsNPM(t *testing.T) {
	fr := newFakeRegistry(t, "", false)
	src := fr.source(map[string]string{"registry": fr.reg.URL})
	tests := []struct {
		name, pkg, version string
		wantErr            error
		wantMsg            string
	}{
		{"unknown package", "nope-nothing", "", ErrNotFound, `npm package "nope-nothing" not found`},
		{"unknown version", "@acme/widget", "9.9.9", ErrVersionNotFound, "nearest: 2.1.0, 2.0.0"},
		{"unsatisfiable range", "@acme/widget", "^3", ErrVersionNotFound, "no version of @acme/widget satisfies"},
		{"invalid name", "../etc/passwd", "", ErrInvalidName, "invalid npm package name"},
	}
	for _, tt := range tests {
		_, err := src.Describe(context.Background(), Request{Name: tt.pkg, Version: tt.version})
		if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("%s: err = %v, want %v containing %q", tt.name, err, tt.wantErr, tt.wantMsg)
		}
	}
	fr.corrupt = true
	if _, err := src.Describe(context.Background(), Request{Name: "@acme/widget", Version: "2.0.0"}); !errors.Is(err, ErrIntegrity) {
		t.Errorf("truncated tarball: err = %v, want ErrIntegrity", err)
	}
}

func TestPrivateRegistryAuth(t *testing.T) {
	fr := newFakeRegistry(t, "s3cret", true)
	nerf := NerfDart(fr.reg.URL)
	// No credentials: the error names the key to set and no token.
	_, err := fr.source(map[string]string{"registry": fr.reg.URL}).Describe(context.Background(), Request{Name: "@acme/widget"})
	if !errors.Is(err, fetch.ErrUnauthorized) || !strings.Contains(err.Error(), nerf+":_authToken") {
		t.Fatalf("err = %v, want an auth error naming %s:_authToken", err, nerf)
	}
	// With the token: the registry gets exactly "Bearer s3cret"; the foreign
	// tarball host gets nothing.
	pkg, err := fr.source(map[string]string{"registry": fr.reg.URL, nerf + ":_authToken": "s3cret"}).Describe(context.Background(), Request{Name: "@acme/widget"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "2.1.0" {
		t.Errorf("version %s", pkg.Version)
	}
	if len(fr.tarballAuth) != 1 || fr.tarballAuth[0] != "" {
		t.Fatalf("tarball host received Authorization %q; the token must not leave the registry host", fr.tarballAuth)
	}
	// A wrong token: the error names the key used, never the value.
	_, err = fr.source(map[string]string{"registry": fr.reg.URL, nerf + ":_authToken": "wrong-token"}).Describe(context.Background(), Request{Name: "@acme/widget"})
	if err == nil || strings.Contains(err.Error(), "wrong-token") || !strings.Contains(err.Error(), nerf+":_authToken") {
		t.Fatalf("err = %v", err)
	}
}

func TestLockfilePinsVersion(t *testing.T) {
	fr := newFakeRegistry(t, "", false)
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "package-lock.json"), []byte(`{"lockfileVersion":3,"packages":{"node_modules/@acme/widget":{"version":"2.0.0"}}}`), 0o644)
	pkg, err := fr.source(map[string]string{"registry": fr.reg.URL}).Describe(context.Background(), Request{Name: "@acme/widget", ProjectPath: proj})
	if err != nil || pkg.Version != "2.0.0" || pkg.ResolvedFrom != "package-lock.json" {
		t.Fatalf("got %+v, %v; want 2.0.0 from package-lock.json", pkg, err)
	}
}
