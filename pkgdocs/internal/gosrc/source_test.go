package gosrc

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// fakeProxy serves example.com/demo at v1.0.0, v1.1.0 and v1.2.0-pre with
// no @latest endpoint (like the proxy this machine reaches).
type fakeProxy struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
	override map[string]int // path -> status
}

func newFakeProxy(t *testing.T) *fakeProxy {
	files := testutil.TxtarFile(t, "../../testdata/go/demo.txtar")
	fp := &fakeProxy{override: map[string]int{}}
	zips := map[string][]byte{}
	for _, v := range []string{"v1.0.0", "v1.1.0", "v1.2.0-pre"} {
		zips[v] = testutil.Zip(t, "example.com/demo@"+v+"/", files)
	}
	fp.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fp.mu.Lock()
		fp.requests = append(fp.requests, r.URL.Path)
		code, overridden := fp.override[r.URL.Path]
		fp.mu.Unlock()
		if overridden {
			w.WriteHeader(code)
			return
		}
		mod, file, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/@v/")
		if !ok || mod != "example.com/demo" {
			http.NotFound(w, r)
			return
		}
		switch {
		case file == "list":
			w.Write([]byte("v1.0.0\nv1.2.0-pre\nv1.1.0\n"))
		case strings.HasSuffix(file, ".info"):
			v := strings.TrimSuffix(file, ".info")
			if _, ok := zips[v]; !ok {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(`{"Version":"` + v + `","Time":"2026-01-01T00:00:00Z"}`))
		case strings.HasSuffix(file, ".zip"):
			z, ok := zips[strings.TrimSuffix(file, ".zip")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(z)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(fp.Close)
	return fp
}

func newSource(goproxy string) *Source {
	c := fetch.New(&fetch.Options{BaseBackoff: 1})
	return &Source{Proxy: NewProxy(c, ProxyConfig{GOPROXY: goproxy})}
}

func TestDescribeFromProxy(t *testing.T) {
	fp := newFakeProxy(t)
	s := newSource(fp.URL)
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/demo/sub"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "v1.1.0" || pkg.ResolvedFrom != "latest in @v/list" {
		t.Errorf("version %s from %q; want the highest release v1.1.0 from @v/list", pkg.Version, pkg.ResolvedFrom)
	}
	if pkg.Synopsis != "Package sub cuts strings." || pkg.Ecosystem != model.Go || !strings.Contains(pkg.SourceURL, "/example.com/demo/@v/v1.1.0.zip") {
		t.Errorf("provenance: %+v", pkg)
	}
	var names []string
	for _, s := range pkg.Symbols {
		names = append(names, s.Kind+" "+s.Name)
	}
	want := "const MaxParts|func Cut|func CutPrefix|type Reader|func NewReader|method Reader.Read"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("symbols = %s\nwant      %s", got, want)
	}
	for _, s := range pkg.Symbols {
		if s.Name == "Reader" && (strings.Contains(s.Signature, "secret") || !strings.Contains(s.Signature, "// N counts reads.")) {
			t.Errorf("Reader signature should keep exported field docs and hide unexported fields:\n%s", s.Signature)
		}
		if s.Name == "Cut" && strings.Contains(s.Signature, "for i") {
			t.Errorf("function body leaked into the signature: %s", s.Signature)
		}
	}
	if len(pkg.Examples) != 1 || pkg.Examples[0].Name != "ExampleCut" || pkg.Examples[0].Output != "key value true\n" {
		t.Errorf("examples = %+v", pkg.Examples)
	}
	if len(pkg.Sections) == 0 || !strings.Contains(pkg.Sections[len(pkg.Sections)-1].Markdown, "## Usage") {
		t.Errorf("package doc sections = %+v", pkg.Sections)
	}
}

func TestBuildConstraints(t *testing.T) {
	fp := newFakeProxy(t)
	s := newSource(fp.URL)
	has := func(goos string) bool {
		pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/demo/sub", Version: "v1.0.0", Target: Target{GOOS: goos}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range pkg.Symbols {
			if s.Name == "WindowsOnly" {
				return true
			}
		}
		return false
	}
	if has("linux") || !has("windows") {
		t.Error("sub_windows.go must count for GOOS=windows only")
	}
}

func TestDescribeErrors(t *testing.T) {
	fp := newFakeProxy(t)
	tests := []struct {
		name    string
		req     Request
		setup   func()
		wantErr error
		wantMsg string
	}{
		{"unknown package in a known module", Request{ImportPath: "example.com/demo/sbu"}, nil, ErrNotFound, "did you mean example.com/demo/sub"},
		{"unknown version", Request{ImportPath: "example.com/demo/sub", Version: "v1.9.0"}, nil, ErrVersionUnknown, "nearest: v1.2.0-pre, v1.1.0, v1.0.0"},
		{"unknown module", Request{ImportPath: "example.org/nothing"}, nil, ErrNotFound, "no module provides package example.org/nothing"},
		{"invalid path", Request{ImportPath: "example.com/../x"}, nil, nil, "invalid import path"},
		{"upstream 500", Request{ImportPath: "example.com/demo", Version: "v1.0.0"}, func() {
			fp.override["/example.com/demo/@v/v1.0.0.zip"] = 500
		}, fetch.ErrUpstream, "500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup()
			}
			_, err := newSource(fp.URL).Describe(context.Background(), tt.req)
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("err = %v, want %v containing %q", err, tt.wantErr, tt.wantMsg)
			}
		})
	}
}

func TestGOPROXYFallback(t *testing.T) {
	fp := newFakeProxy(t)
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }))
	defer dead.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	tests := []struct {
		goproxy string
		ok      bool
	}{
		{missing.URL + "," + fp.URL, true}, // comma: fall through on 404
		{dead.URL + "," + fp.URL, false},   // comma: stop on 500
		{dead.URL + "|" + fp.URL, true},    // pipe: fall through on any error
		{"off", false},
		{"direct", false},
	}
	for _, tt := range tests {
		_, err := newSource(tt.goproxy).Describe(context.Background(), Request{ImportPath: "example.com/demo", Version: "v1.0.0"})
		if (err == nil) != tt.ok {
			t.Errorf("GOPROXY=%s: err = %v, want ok=%v", tt.goproxy, err, tt.ok)
		}
	}
}

func TestModuleCacheAsOfflineSource(t *testing.T) {
	files := testutil.TxtarFile(t, "../../testdata/go/demo.txtar")
	dir := t.TempDir()
	dl := filepath.Join(dir, "cache", "download", "example.com", "demo", "@v")
	os.MkdirAll(dl, 0o755)
	os.WriteFile(filepath.Join(dl, "list"), []byte("v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(dl, "v1.0.0.info"), []byte(`{"Version":"v1.0.0"}`), 0o644)
	os.WriteFile(filepath.Join(dl, "v1.0.0.zip"), testutil.Zip(t, "example.com/demo@v1.0.0/", files), 0o644)
	s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOPROXY: "off", GOMODCACHE: dir})}
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/demo/sub"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "v1.0.0" || pkg.Registry != "local module cache" {
		t.Errorf("got %s from %s", pkg.Version, pkg.Registry)
	}
}

func TestProjectGoModPinsVersion(t *testing.T) {
	fp := newFakeProxy(t)
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module example.com/app\n\ngo 1.22\n\nrequire example.com/demo v1.0.0\n"), 0o644)
	os.MkdirAll(filepath.Join(proj, "cmd", "x"), 0o755)
	os.WriteFile(filepath.Join(proj, "lib.go"), []byte("// Package app is local.\npackage app\n\n// Local is here.\nfunc Local() {}\n"), 0o644)
	s := newSource(fp.URL)
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/demo/sub", ProjectPath: filepath.Join(proj, "cmd", "x")})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "v1.0.0" || pkg.ResolvedFrom != "go.mod" {
		t.Errorf("version %s from %s, want v1.0.0 from go.mod", pkg.Version, pkg.ResolvedFrom)
	}
	local, err := s.Describe(context.Background(), Request{ImportPath: "example.com/app", ProjectPath: proj})
	if err != nil || local.Version != "local" || len(local.Symbols) != 1 {
		t.Fatalf("main-module package: %+v, %v", local, err)
	}
}

func TestZipSlipRejected(t *testing.T) {
	evil := testutil.Zip(t, "", []testutil.File{{Name: "example.com/demo@v1.0.0/../../../etc/x.go", Data: []byte("package x")}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, ".info"):
			w.Write([]byte(`{"Version":"v1.0.0"}`))
		case strings.HasSuffix(r.URL.Path, ".zip"):
			w.Write(evil)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	_, err := newSource(srv.URL).Describe(context.Background(), Request{ImportPath: "example.com/demo", Version: "v1.0.0"})
	if err == nil || !strings.Contains(err.Error(), "escapes the archive root") {
		t.Fatalf("err = %v, want a zip-slip error", err)
	}
}

func TestStandardLibrary(t *testing.T) {
	pkg, err := (&Source{}).Describe(context.Background(), Request{ImportPath: "strings"})
	if err != nil {
		t.Fatalf("the standard library is read from GOROOT: %v", err)
	}
	found := false
	for _, s := range pkg.Symbols {
		if s.Name == "Cut" && strings.HasPrefix(s.Signature, "func Cut(s, sep string)") {
			found = true
		}
	}
	if !found || !strings.HasPrefix(pkg.Version, "go") {
		t.Errorf("strings: version %s, Cut found %v", pkg.Version, found)
	}
}

// TestModuleCacheBeforeNetwork: a pinned version already in the module
// cache is read from there, with no request to the proxy; offline, the
// proxy is never asked.
func TestModuleCacheBeforeNetwork(t *testing.T) {
	files := testutil.TxtarFile(t, "../../testdata/go/demo.txtar")
	dir := t.TempDir()
	dl := filepath.Join(dir, "cache", "download", "example.com", "demo", "@v")
	os.MkdirAll(dl, 0o755)
	os.WriteFile(filepath.Join(dl, "list"), []byte("v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(dl, "v1.0.0.info"), []byte(`{"Version":"v1.0.0"}`), 0o644)
	os.WriteFile(filepath.Join(dl, "v1.0.0.zip"), testutil.Zip(t, "example.com/demo@v1.0.0/", files), 0o644)
	fp := newFakeProxy(t)
	s := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOPROXY: fp.URL, GOMODCACHE: dir})}
	pkg, err := s.Describe(context.Background(), Request{ImportPath: "example.com/demo/sub", Version: "v1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	fp.mu.Lock()
	reqs := append([]string(nil), fp.requests...)
	fp.mu.Unlock()
	for _, r := range reqs {
		if strings.Contains(r, "example.com/demo/@v/v1.0.0") {
			t.Errorf("pinned version fetched from the proxy: %s", r)
		}
	}
	if pkg.Registry != "local module cache" {
		t.Errorf("provenance %q, want the local module cache", pkg.Registry)
	}
	off := &Source{Proxy: NewProxy(fetch.New(nil), ProxyConfig{GOPROXY: fp.URL, GOMODCACHE: dir, Offline: true})}
	before := len(reqs)
	if pkg, err := off.Describe(context.Background(), Request{ImportPath: "example.com/demo/sub"}); err != nil || pkg.Version != "v1.0.0" {
		t.Fatalf("offline: %v", err)
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if len(fp.requests) != before {
		t.Errorf("offline mode asked the proxy: %q", fp.requests[before:])
	}
}
