package testutil

import (
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/tools/txtar"
)

// NPMFixture is one recorded npm package version: its version document
// (the registry's JSON minus "dist", which the fake registry fills in) and
// the tarball files pkgdocs reads, trimmed to those its answers need.
type NPMFixture struct {
	Name, Version string
	Latest        bool            // the version the "latest" dist-tag names
	Doc           json.RawMessage // version document without dist
	Files         []File
}

// npmFixtureHeader is the txtar comment of a recorded npm fixture.
type npmFixtureHeader struct {
	Name    string          `json:"name"`
	Version string          `json:"version"`
	Latest  bool            `json:"latest"`
	Doc     json.RawMessage `json:"doc"`
}

// ReadNPMFixture parses a recorded fixture file.
func ReadNPMFixture(t testing.TB, file string) NPMFixture {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	var h npmFixtureHeader
	if err := json.Unmarshal(ar.Comment, &h); err != nil {
		t.Fatalf("%s: header: %v", file, err)
	}
	f := NPMFixture{Name: h.Name, Version: h.Version, Latest: h.Latest, Doc: h.Doc}
	for _, af := range ar.Files {
		f.Files = append(f.Files, File{Name: af.Name, Data: af.Data})
	}
	return f
}

// FormatNPMFixture renders a fixture as txtar.
func FormatNPMFixture(f NPMFixture) ([]byte, error) {
	h, err := json.Marshal(npmFixtureHeader{Name: f.Name, Version: f.Version, Latest: f.Latest, Doc: f.Doc})
	if err != nil {
		return nil, err
	}
	ar := &txtar.Archive{Comment: append(h, '\n')}
	sort.Slice(f.Files, func(i, j int) bool { return f.Files[i].Name < f.Files[j].Name })
	for _, file := range f.Files {
		data := file.Data
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		ar.Files = append(ar.Files, txtar.File{Name: file.Name, Data: data})
	}
	return txtar.Format(ar), nil
}

// NPMRegistry is a fake npm registry serving recorded fixtures: version
// documents (/name/version and /name/latest), packuments (/name) and
// tarballs built from the fixture files, with integrity.
type NPMRegistry struct {
	*httptest.Server
	Requests atomic.Int64 // requests served so far

	t        testing.TB
	mu       sync.Mutex
	byName   map[string][]NPMFixture
	fixtures map[string]NPMFixture // by name@version
	tarballs map[string][]byte     // built on first use: most tests ask for a few packages
}

// NewNPMRegistry serves every *.txtar fixture in dir.
func NewNPMRegistry(t testing.TB, dir string) *NPMRegistry {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	r := &NPMRegistry{t: t, byName: map[string][]NPMFixture{}, fixtures: map[string]NPMFixture{}, tarballs: map[string][]byte{}}
	for _, p := range paths {
		f := ReadNPMFixture(t, p)
		r.byName[f.Name] = append(r.byName[f.Name], f)
		r.fixtures[f.Name+"@"+f.Version] = f
	}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *NPMRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.Requests.Add(1)
	p, err := url.PathUnescape(strings.TrimPrefix(req.URL.EscapedPath(), "/"))
	if err != nil {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	if rest, ok := strings.CutPrefix(p, "-/tarball/"); ok {
		if tgz, ok := r.tarball(strings.TrimSuffix(rest, ".tgz")); ok {
			w.Write(tgz)
			return
		}
		http.NotFound(w, req)
		return
	}
	name, version := p, ""
	if i := strings.LastIndexByte(p, '/'); i > 0 && !(strings.HasPrefix(p, "@") && strings.Count(p, "/") == 1) {
		name, version = p[:i], p[i+1:]
	}
	fixtures := r.byName[name]
	if len(fixtures) == 0 {
		http.Error(w, `{"error":"Not found"}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if version == "" {
		versions := map[string]json.RawMessage{}
		latest := fixtures[0].Version
		for _, f := range fixtures {
			versions[f.Version] = r.doc(f)
			if f.Latest {
				latest = f.Version
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"name": name, "dist-tags": map[string]string{"latest": latest}, "versions": versions})
		return
	}
	for _, f := range fixtures {
		if f.Version == version || version == "latest" && (f.Latest || len(fixtures) == 1) {
			w.Write(r.doc(f))
			return
		}
	}
	http.Error(w, `{"error":"version not found"}`, http.StatusNotFound)
}

// tarball returns the tarball of the fixture name@version, built once.
func (r *NPMRegistry) tarball(key string) ([]byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if tgz, ok := r.tarballs[key]; ok {
		return tgz, true
	}
	f, ok := r.fixtures[key]
	if !ok {
		return nil, false
	}
	tgz := TarGz(r.t, "package/", f.Files)
	r.tarballs[key] = tgz
	return tgz, true
}

// doc is a fixture's version document with dist pointing at this server.
func (r *NPMRegistry) doc(f NPMFixture) json.RawMessage {
	var doc map[string]any
	if json.Unmarshal(f.Doc, &doc) != nil || doc == nil {
		doc = map[string]any{}
	}
	tgz, _ := r.tarball(f.Name + "@" + f.Version)
	sum := sha512.Sum512(tgz)
	doc["name"], doc["version"] = f.Name, f.Version
	doc["dist"] = map[string]string{
		"tarball":   r.URL + "/-/tarball/" + url.PathEscape(f.Name+"@"+f.Version) + ".tgz",
		"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum[:]),
	}
	out, _ := json.Marshal(doc)
	return out
}
