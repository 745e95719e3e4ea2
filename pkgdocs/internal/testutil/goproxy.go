package testutil

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/tools/txtar"
)

// GoFixture is one recorded Go module version: the module's @v/list, the
// version's go.mod, and the zip files pkgdocs reads (the documented
// package's directory, go.mod, README).
type GoFixture struct {
	Module, Version string
	List            []string
	Files           []File // paths relative to the module root
}

type goFixtureHeader struct {
	Module  string   `json:"module"`
	Version string   `json:"version"`
	List    []string `json:"list"`
}

// FormatGoFixture renders a fixture as txtar.
func FormatGoFixture(f GoFixture) ([]byte, error) {
	h, err := json.Marshal(goFixtureHeader{f.Module, f.Version, f.List})
	if err != nil {
		return nil, err
	}
	ar := &txtar.Archive{Comment: append(h, '\n')}
	for _, file := range f.Files {
		data := file.Data
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		ar.Files = append(ar.Files, txtar.File{Name: file.Name, Data: data})
	}
	return txtar.Format(ar), nil
}

// ReadGoFixture parses a recorded Go fixture.
func ReadGoFixture(t testing.TB, file string) GoFixture {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	var h goFixtureHeader
	if err := json.Unmarshal(ar.Comment, &h); err != nil {
		t.Fatalf("%s: header: %v", file, err)
	}
	f := GoFixture{Module: h.Module, Version: h.Version, List: h.List}
	for _, af := range ar.Files {
		f.Files = append(f.Files, File{Name: af.Name, Data: af.Data})
	}
	return f
}

// GoProxy is a fake module proxy serving recorded fixtures: @v/list,
// .info, .mod and .zip (built from the fixture files); no @latest, like
// the proxy this project's machines reach.
type GoProxy struct {
	*httptest.Server
	Requests atomic.Int64
	mods     map[string]GoFixture
	zips     map[string][]byte
}

// NewGoProxy serves every *.txtar Go fixture in dir.
func NewGoProxy(t testing.TB, dir string) *GoProxy {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	p := &GoProxy{mods: map[string]GoFixture{}, zips: map[string][]byte{}}
	for _, path := range paths {
		f := ReadGoFixture(t, path)
		p.mods[f.Module] = f
		p.zips[f.Module] = Zip(t, f.Module+"@"+f.Version+"/", f.Files)
	}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *GoProxy) serve(w http.ResponseWriter, r *http.Request) {
	p.Requests.Add(1)
	esc, file, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/@v/")
	mod, err := module.UnescapePath(esc)
	f, known := p.mods[mod]
	if !ok || err != nil || !known {
		http.NotFound(w, r)
		return
	}
	if file == "list" {
		w.Write([]byte(strings.Join(f.List, "\n") + "\n"))
		return
	}
	ext := filepath.Ext(file)
	v, err := module.UnescapeVersion(strings.TrimSuffix(file, ext))
	if err != nil || v != f.Version {
		http.NotFound(w, r)
		return
	}
	switch ext {
	case ".info":
		w.Write([]byte(`{"Version":"` + v + `","Time":"2026-01-01T00:00:00Z"}`))
	case ".mod":
		for _, file := range f.Files {
			if file.Name == "go.mod" {
				w.Write(file.Data)
				return
			}
		}
		w.Write([]byte("module " + mod + "\n"))
	case ".zip":
		w.Write(p.zips[mod])
	default:
		http.NotFound(w, r)
	}
}
