package pypi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func wheelZip(t testing.TB) []byte { return testutil.Zip(t, "", wheelFiles(t)) }

// sdistTgz lays the wheel's files out as an sdist: PKG-INFO, src/ layout,
// tests and setup.py.
func sdistTgz(t testing.TB) []byte {
	var files []testutil.File
	for _, f := range wheelFiles(t) {
		switch {
		case strings.HasSuffix(f.Name, "/METADATA"):
			files = append(files, testutil.File{Name: "PKG-INFO", Data: f.Data})
		case strings.HasPrefix(f.Name, "tinyhttp/"):
			files = append(files, testutil.File{Name: "src/" + f.Name, Data: f.Data})
		}
	}
	files = append(files, testutil.File{Name: "setup.py", Data: []byte("from setuptools import setup\nsetup()\n")},
		testutil.File{Name: "tests/test_x.py", Data: []byte("def test_x(): ...\n")})
	return testutil.TarGz(t, "tinyhttp-1.4.0/", files)
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func symbolNames(syms []model.Symbol) string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Kind+" "+s.Name)
	}
	return strings.Join(out, "\n")
}

// wantAPI is tinyhttp's API by the paths users write: what the package
// re-exports from tinyhttp.api and tinyhttp.sessions under tinyhttp.
const wantAPI = `module tinyhttp
function tinyhttp.get
function tinyhttp.post
class tinyhttp.Session
property tinyhttp.Session.timeout
method tinyhttp.Session.__init__
property tinyhttp.Session.base_url
method tinyhttp.Session.get
property tinyhttp.Session.closed
method tinyhttp.Session.from_env
method tinyhttp.Session.aclose
class tinyhttp.Session.Adapter
method tinyhttp.Session.Adapter.send
const tinyhttp.VERSION
module tinyhttp.api
module tinyhttp.models
class tinyhttp.models.Response
property tinyhttp.models.Response.status
method tinyhttp.models.Response.json
module tinyhttp.sessions`

func TestInspectWheelAndSdist(t *testing.T) {
	for name, data := range map[string][]byte{"tinyhttp-1.4.0-py3-none-any.whl": wheelZip(t), "tinyhttp-1.4.0.tar.gz": sdistTgz(t)} {
		tree, err := readDist(data, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		info := inspectDist(tree)
		if !info.hasMeta || info.meta.Summary != "HTTP for tiny humans." {
			t.Errorf("%s: metadata %+v", name, info.meta)
		}
		// The stub replaces models.py; private modules, tests, setup.py,
		// names outside __all__ and private classes are left out.
		if got := symbolNames(info.symbols); got != wantAPI {
			t.Errorf("%s: symbols:\n%s\nwant:\n%s", name, got, wantAPI)
		}
	}
}

// fakePyPI serves the JSON API and the files it lists.
func fakePyPI(t *testing.T) *httptest.Server {
	whl, sdist := wheelZip(t), sdistTgz(t)
	var srv *httptest.Server
	release := func(version string, files ...map[string]any) map[string]any {
		return map[string]any{
			"info": map[string]any{"name": "tinyhttp", "version": version, "summary": "HTTP for tiny humans.", "requires_python": ">=3.9",
				"description": "# tinyhttp\n\nHTTP for tiny humans.\n\n## Usage\n\nCall `get`.\n", "description_content_type": "text/markdown",
				"project_urls": map[string]string{"Source": "https://github.com/example/tinyhttp"}},
			"releases": map[string]any{"1.2.0": []any{}, "1.3.0": []any{}, "1.4.0": []any{}},
			"urls":     files,
		}
	}
	file := func(name, digest string) map[string]any {
		return map[string]any{"filename": name, "url": srv.URL + "/files/" + name, "digests": map[string]string{"sha256": digest}, "yanked": false}
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var doc any
		switch r.URL.Path {
		case "/pypi/tinyhttp/json", "/pypi/tinyhttp/1.4.0/json":
			doc = release("1.4.0", file("tinyhttp-1.4.0.tar.gz", sum(sdist)), file("tinyhttp-1.4.0-py3-none-any.whl", sum(whl)))
		case "/pypi/tinyhttp/1.3.0/json":
			d := release("1.3.0", file("tinyhttp-1.4.0.tar.gz", sum(sdist)))
			info := d["info"].(map[string]any)
			info["yanked"], info["yanked_reason"] = true, "broken build"
			doc = d
		case "/pypi/tinyhttp/1.2.0/json":
			doc = release("1.2.0", file("tinyhttp-1.4.0-py3-none-any.whl", strings.Repeat("0", 64)))
		case "/files/tinyhttp-1.4.0-py3-none-any.whl":
			w.Write(whl)
			return
		case "/files/tinyhttp-1.4.0.tar.gz":
			w.Write(sdist)
			return
		default:
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(doc)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func client() *fetch.Client {
	return fetch.New(&fetch.Options{Retries: -1, BaseBackoff: time.Millisecond})
}

func TestDescribeFromJSONAPI(t *testing.T) {
	srv := fakePyPI(t)
	src := &Source{Client: client(), IndexURL: srv.URL}
	pkg, err := src.Describe(context.Background(), Request{Name: "TinyHTTP"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "tinyhttp" || pkg.Version != "1.4.0" || pkg.ResolvedFrom != "latest release" || pkg.Origin != "PyPI JSON + tinyhttp-1.4.0-py3-none-any.whl (4 modules)" {
		t.Errorf("%s@%s from %q, origin %q", pkg.Name, pkg.Version, pkg.ResolvedFrom, pkg.Origin)
	}
	if got := symbolNames(pkg.Symbols); got != wantAPI {
		t.Errorf("symbols:\n%s", got)
	}
	pkg, err = src.Describe(context.Background(), Request{Name: "tinyhttp", Version: "1.3.0"})
	if err != nil || !strings.Contains(strings.Join(pkg.Notes, " "), "API read from the sdist") || len(pkg.Symbols) == 0 {
		t.Fatalf("sdist-only release: %v, notes %q", err, pkg.Notes)
	}
	if pkg.Deprecated != "This release is yanked on PyPI; prefer another version. Reason: broken build" {
		t.Errorf("yanked release: Deprecated = %q", pkg.Deprecated)
	}
	tests := []struct {
		version string
		want    error
		msg     string
	}{
		{"1.2.0", ErrChecksum, "tinyhttp-1.4.0-py3-none-any.whl"},
		{"9.9", ErrVersionNotFound, "nearest: 1.4.0, 1.3.0, 1.2.0"},
	}
	for _, tt := range tests {
		if _, err := src.Describe(context.Background(), Request{Name: "tinyhttp", Version: tt.version}); !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("version %s: err = %v, want %v containing %q", tt.version, err, tt.want, tt.msg)
		}
	}
	if _, err := src.Describe(context.Background(), Request{Name: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown package: %v", err)
	}
	if _, err := src.Describe(context.Background(), Request{Name: "bad name!"}); !errors.Is(err, ErrInvalidName) {
		t.Errorf("bad name: %v", err)
	}
}

func TestProjectLockPinsVersion(t *testing.T) {
	srv := fakePyPI(t)
	proj := t.TempDir()
	sub := filepath.Join(proj, "app")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(proj, "uv.lock"), []byte("version = 1\n\n[[package]]\nname = \"tinyhttp\"\nversion = \"1.3.0\"\n"), 0o644)
	pkg, err := (&Source{Client: client(), IndexURL: srv.URL}).Describe(context.Background(), Request{Name: "tinyhttp", ProjectPath: sub})
	if err != nil || pkg.Version != "1.3.0" || pkg.ResolvedFrom != "uv.lock" {
		t.Fatalf("got %v from %q, %v", pkg.Version, pkg.ResolvedFrom, err)
	}
}

// privateIndex is a simple index on one host requiring Basic auth, with a
// file on the same host and one on a foreign host.
type privateIndex struct {
	index, foreign *httptest.Server
	mu             sync.Mutex
	auth           map[string]string // path -> Authorization received
}

func newPrivateIndex(t *testing.T) *privateIndex {
	whl := wheelZip(t)
	p := &privateIndex{auth: map[string]string{}}
	record := func(r *http.Request) {
		p.mu.Lock()
		p.auth[r.URL.Path] = r.Header.Get("Authorization")
		p.mu.Unlock()
	}
	p.foreign = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.Write(whl)
	}))
	t.Cleanup(p.foreign.Close)
	p.index = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(r)
		if user, pass, ok := r.BasicAuth(); !ok || user != "alice" || pass != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/simple/tinyhttp/":
			if strings.Contains(r.Header.Get("Accept"), "vnd.pypi.simple.v1+json") {
				w.Header().Set("Content-Type", "application/vnd.pypi.simple.v1+json")
				fmt.Fprintf(w, `{"meta": {"api-version": "1.1"}, "name": "tinyhttp", "files": [
					{"filename": "tinyhttp-1.4.0-py3-none-any.whl", "url": "../../files/tinyhttp-1.4.0-py3-none-any.whl", "hashes": {"sha256": %q}},
					{"filename": "tinyhttp-1.5.0rc1.tar.gz", "url": "/files/tinyhttp-1.5.0rc1.tar.gz", "hashes": {}},
					{"filename": "tinyhttp-1.3.0-py3-none-any.whl", "url": "%s/cdn/tinyhttp-1.3.0-py3-none-any.whl", "hashes": {}, "yanked": "broken"},
					{"filename": "tinyhttp-1.3.0.tar.gz", "url": "%s/cdn/tinyhttp-1.3.0.tar.gz", "hashes": {}}]}`, sum(whl), p.foreign.URL, p.foreign.URL)
				return
			}
			fmt.Fprintf(w, `<!DOCTYPE html><html><body><h1>Links for tinyhttp</h1>
<a href="../../files/tinyhttp-1.4.0-py3-none-any.whl#sha256=%s" data-requires-python="&gt;=3.9">tinyhttp-1.4.0-py3-none-any.whl</a><br/>
<a href='%s/cdn/tinyhttp-1.3.0-py3-none-any.whl'>tinyhttp-1.3.0-py3-none-any.whl</a>
</body></html>`, sum(whl), p.foreign.URL)
		case "/files/tinyhttp-1.4.0-py3-none-any.whl":
			w.Write(whl)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(p.index.Close)
	return p
}

func (p *privateIndex) indexURL(user, pass string) string {
	return strings.Replace(p.index.URL, "http://", "http://"+user+":"+pass+"@", 1) + "/simple/"
}

func TestPrivateSimpleIndex(t *testing.T) {
	p := newPrivateIndex(t)
	src := &Source{Client: client(), SimpleIndexURL: p.indexURL("alice", "s3cret")}
	pkg, err := src.Describe(context.Background(), Request{Name: "tinyhttp"})
	if err != nil {
		t.Fatal(err)
	}
	// Latest final release (not the rc); metadata from the wheel itself.
	if pkg.Version != "1.4.0" || pkg.Synopsis != "HTTP for tiny humans." || symbolNames(pkg.Symbols) != wantAPI || len(pkg.Sections) == 0 {
		t.Fatalf("%s, synopsis %q, %d symbols, %d sections", pkg.Version, pkg.Synopsis, len(pkg.Symbols), len(pkg.Sections))
	}
	if strings.Contains(pkg.Install, "s3cret") || strings.Contains(pkg.Origin, "s3cret") || strings.Contains(pkg.SourceURL, "s3cret") {
		t.Fatalf("credentials leaked into the answer: %q %q %q", pkg.Install, pkg.Origin, pkg.SourceURL)
	}
	if got := p.auth["/files/tinyhttp-1.4.0-py3-none-any.whl"]; !strings.HasPrefix(got, "Basic ") {
		t.Errorf("same-host file got Authorization %q, want the index credentials", got)
	}
	// 1.3.0: the yanked wheel loses to the sdist; both live on a foreign
	// host, which must not receive the credentials.
	if _, err := src.Describe(context.Background(), Request{Name: "tinyhttp", Version: "1.3"}); err != nil {
		t.Fatal(err)
	}
	if got, ok := p.auth["/cdn/tinyhttp-1.3.0.tar.gz"]; !ok || got != "" {
		t.Fatalf("foreign file host got Authorization %q (requested: %v)", got, ok)
	}
	_, err = (&Source{Client: client(), SimpleIndexURL: p.indexURL("alice", "wrong-token")}).Describe(context.Background(), Request{Name: "tinyhttp"})
	if !errors.Is(err, fetch.ErrUnauthorized) || strings.Contains(err.Error(), "wrong-token") || !strings.Contains(err.Error(), "PIP_INDEX_URL") {
		t.Fatalf("bad credentials: %v", err)
	}
	_, err = src.Describe(context.Background(), Request{Name: "tinyhttp", Version: "2.0"})
	if !errors.Is(err, ErrVersionNotFound) || !strings.Contains(err.Error(), "nearest: 1.5.0rc1, 1.4.0, 1.3.0") || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("unknown version: %v", err)
	}
}

func TestSimpleIndexHTML(t *testing.T) {
	files := parseSimpleHTML([]byte(`<a href="../../files/a-1.0.tar.gz#sha256=abc" data-yanked="">a-1.0.tar.gz</a>
<a HREF=/x/a-2.0-py3-none-any.whl?x=1&amp;y=2><b>a-2.0-py3-none-any.whl</b></a><a>no href</a>`))
	want := []distFile{
		{Filename: "a-1.0.tar.gz", URL: "../../files/a-1.0.tar.gz#sha256=abc", Yanked: true},
		{Filename: "a-2.0-py3-none-any.whl", URL: "/x/a-2.0-py3-none-any.whl?x=1&y=2"},
	}
	if fmt.Sprint(files) != fmt.Sprint(want) {
		t.Fatalf("files = %+v", files)
	}
	for name, want := range map[string]string{
		"a-1.0.tar.gz": "1.0", "A_b-2.0rc1.tar.gz": "2.0rc1", "a_b-3.0-1-py3-none-any.whl": "3.0", "other-1.0.tar.gz": "",
	} {
		project := "a"
		if strings.HasPrefix(strings.ToLower(name), "a_b") {
			project = "a-b"
		}
		if got := fileVersion(name, project); got != want {
			t.Errorf("fileVersion(%s) = %q, want %q", name, got, want)
		}
	}
	if _, err := ParseIndexURL("ftp://u:p@x/"); err == nil || strings.Contains(err.Error(), ":p@") {
		t.Errorf("bad scheme: %v", err)
	}
}

func FuzzSimpleIndex(f *testing.F) {
	f.Add([]byte(`<a href="x-1.0.tar.gz">x-1.0.tar.gz</a>`))
	f.Add([]byte(`{"files": [{"filename": "x-1.0.tar.gz", "url": "x", "yanked": "why"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range parseSimpleHTML(data) {
			fileVersion(d.Filename, "x")
		}
		parseSimpleJSON(data)
	})
}
