package npm

import (
	"context"
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
	"testing"

	"github.com/Masterminds/semver/v3"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// miniRegistry serves packages given as name -> version -> files; the
// latest dist-tag is the highest version.
func miniRegistry(t *testing.T, pkgs map[string]map[string][]testutil.File) *httptest.Server {
	var srv *httptest.Server
	type built struct {
		tgz       []byte
		integrity string
	}
	tarballs := map[string]built{}
	for name, versions := range pkgs {
		for v, files := range versions {
			tgz := testutil.TarGz(t, "package/", files)
			sum := sha512.Sum512(tgz)
			tarballs[name+"@"+v] = built{tgz, "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}
		}
	}
	vdoc := func(name, v string) map[string]any {
		doc := map[string]any{"name": name, "version": v, "dist": map[string]any{
			"tarball": srv.URL + "/tarballs/" + url.PathEscape(name+"@"+v) + ".tgz", "integrity": tarballs[name+"@"+v].integrity}}
		for _, f := range pkgs[name][v] { // the registry copies the description
			var pj struct{ Description string }
			if f.Name == "package.json" && json.Unmarshal(f.Data, &pj) == nil && pj.Description != "" {
				doc["description"] = pj.Description
			}
		}
		return doc
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := url.PathUnescape(r.URL.EscapedPath())
		if rest, ok := strings.CutPrefix(p, "/tarballs/"); ok {
			b, ok := tarballs[strings.TrimSuffix(rest, ".tgz")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(b.tgz)
			return
		}
		p = strings.TrimPrefix(p, "/")
		name, version := p, ""
		if i := strings.LastIndexByte(p, '/'); i > 0 && (!strings.HasPrefix(p, "@") || strings.Count(p, "/") == 2) {
			name, version = p[:i], p[i+1:]
		}
		versions, ok := pkgs[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		var all []*semver.Version
		for v := range versions {
			all = append(all, semver.MustParse(v))
		}
		sort.Sort(semver.Collection(all))
		latest := all[len(all)-1].Original()
		if version == "latest" {
			version = latest
		}
		if version != "" {
			if _, ok := versions[version]; !ok {
				http.NotFound(w, r)
				return
			}
			json.NewEncoder(w).Encode(vdoc(name, version))
			return
		}
		vs := map[string]any{}
		for v := range versions {
			vs[v] = vdoc(name, v)
		}
		json.NewEncoder(w).Encode(map[string]any{"name": name, "dist-tags": map[string]string{"latest": latest}, "versions": vs})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func miniSource(srv *httptest.Server) *Source {
	return &Source{Client: fetch.New(&fetch.Options{Retries: -1, BaseBackoff: 1}), Config: func(string) (*Config, error) {
		return FromValues(map[string]string{"registry": srv.URL}), nil
	}}
}

func plainFiles(version string) []testutil.File {
	return []testutil.File{
		{Name: "package.json", Data: []byte(`{"name": "@acme/plain", "version": "` + version + `", "main": "index.js"}`)},
		{Name: "README.md", Data: []byte("# plain\n\nNo types here.\n")},
		{Name: "index.js", Data: []byte("module.exports = function plain() {}\n")},
	}
}

func typesFiles(decl string) []testutil.File {
	return []testutil.File{
		{Name: "package.json", Data: []byte(`{"name": "@types/acme__plain", "types": "index.d.ts"}`)},
		{Name: "index.d.ts", Data: []byte(decl)},
	}
}

func TestTypesFallback(t *testing.T) {
	srv := miniRegistry(t, map[string]map[string][]testutil.File{
		"@acme/plain": {"1.3.4": plainFiles("1.3.4"), "3.0.0": plainFiles("3.0.0")},
		"@types/acme__plain": {
			"1.2.5": typesFiles("export declare function old(): void;\n"),
			"1.3.0": typesFiles("/** Makes it plain. */\nexport declare function plain(x: string): string;\n"),
			"2.0.0": typesFiles("export declare function two(): void;\n"),
		},
		"left-pad":       {"1.0.0": {{Name: "package.json", Data: []byte(`{"name": "left-pad"}`)}}},
		"stubbed":        {"7.0.0": {{Name: "package.json", Data: []byte(`{"name": "stubbed"}`)}}},
		"@types/stubbed": {"2.0.0": {{Name: "package.json", Data: []byte(`{"name": "@types/stubbed", "description": "Stub TypeScript definitions entry for stubbed, which provides its own types definitions"}`)}}},
	})
	src := miniSource(srv)
	pkg, err := src.Describe(context.Background(), Request{Name: "@acme/plain", Version: "1.3.4"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Symbols) != 1 || pkg.Symbols[0].Name != "plain" || pkg.Symbols[0].Doc != "Makes it plain." {
		t.Fatalf("symbols = %+v", pkg.Symbols)
	}
	if !strings.HasSuffix(pkg.Origin, " + @types/acme__plain@1.3.0") || !strings.Contains(strings.Join(pkg.Notes, " "), "DefinitelyTyped") {
		t.Errorf("origin %q, notes %q", pkg.Origin, pkg.Notes)
	}
	// No @types release with major 3: the latest one.
	pkg, err = src.Describe(context.Background(), Request{Name: "@acme/plain", Version: "3.0.0"})
	if err != nil || len(pkg.Symbols) != 1 || pkg.Symbols[0].Name != "two" {
		t.Fatalf("major 3: %+v, %v", pkg, err)
	}
	pkg, err = src.Describe(context.Background(), Request{Name: "left-pad"})
	if err != nil || len(pkg.Symbols) != 0 || !strings.Contains(strings.Join(pkg.Notes, " "), "@types/left-pad does not exist") || pkg.Partial {
		t.Fatalf("no @types: %+v, %v", pkg, err)
	}
	// An @types stub, not marked deprecated, holds nothing to read.
	pkg, err = src.Describe(context.Background(), Request{Name: "stubbed"})
	if err != nil || len(pkg.Symbols) != 0 || strings.Contains(pkg.Origin, "@types") || !strings.Contains(strings.Join(pkg.Notes, " "), "@types/stubbed@2.0.0 is a stub") {
		t.Fatalf("stub: origin %q, notes %q, %v", pkg.Origin, pkg.Notes, err)
	}
	if got := TypesPackage("@babel/core"); got != "@types/babel__core" {
		t.Errorf("TypesPackage = %q", got)
	}
}

func TestProjectLockfiles(t *testing.T) {
	srv := miniRegistry(t, map[string]map[string][]testutil.File{
		"@acme/plain": {"1.0.0": plainFiles("1.0.0"), "1.1.0": plainFiles("1.1.0"), "1.2.0": plainFiles("1.2.0"), "1.3.4": plainFiles("1.3.4")},
	})
	src := miniSource(srv)
	write := func(dir, name, data string) {
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	pnpm := filepath.Join(root, "pnpm")
	write(pnpm, "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      '@acme/plain':\n        specifier: ^1.0.0\n        version: 1.0.0\n  packages/web:\n    dependencies:\n      '@acme/plain':\n        specifier: ~1.1.0\n        version: 1.1.0(react@18.0.0)\n")
	write(filepath.Join(pnpm, "packages", "web"), "package.json", `{"name": "web"}`)
	yarn := filepath.Join(root, "yarn")
	write(yarn, "package.json", `{"dependencies": {"@acme/plain": "^1.2.0"}}`)
	write(yarn, "yarn.lock", "# yarn lockfile v1\n\n\"@acme/plain@^1.0.0\":\n  version \"1.0.0\"\n\n\"@acme/plain@^1.2.0\":\n  version \"1.2.0\"\n")
	installed := filepath.Join(root, "installed")
	write(installed, "package-lock.json", `{"lockfileVersion": 3, "packages": {"node_modules/@acme/plain": {"version": "1.0.0"}}}`)
	write(filepath.Join(installed, "node_modules", "@acme", "plain"), "package.json", `{"name": "@acme/plain", "version": "1.3.4"}`)
	tests := []struct{ project, version, how string }{
		{pnpm, "1.0.0", "pnpm-lock.yaml"},
		{filepath.Join(pnpm, "packages", "web"), "1.1.0", "pnpm-lock.yaml"}, // the workspace importer
		{yarn, "1.2.0", "yarn.lock"},                                        // the entry for package.json's range
		{installed, "1.3.4", "installed node_modules"},                      // what is installed wins
	}
	for _, tt := range tests {
		pkg, err := src.Describe(context.Background(), Request{Name: "@acme/plain", ProjectPath: tt.project})
		if err != nil {
			t.Errorf("%s: %v", tt.project, err)
			continue
		}
		if pkg.Version != tt.version || pkg.ResolvedFrom != tt.how {
			t.Errorf("%s: %s from %q, want %s from %q", filepath.Base(tt.project), pkg.Version, pkg.ResolvedFrom, tt.version, tt.how)
		}
	}
}
