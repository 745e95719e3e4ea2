package npm

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func TestSplitSpecifier(t *testing.T) {
	tests := []struct{ spec, name, sub string }{
		{"express", "express", ""},
		{"react-dom/client", "react-dom", "client"},
		{"@scope/pkg", "@scope/pkg", ""},
		{"@scope/pkg/client/index.js", "@scope/pkg", "client/index.js"},
		{"@scope", "@scope", ""},
		{"lodash/fp/map", "lodash", "fp/map"},
	}
	for _, tt := range tests {
		if name, sub := SplitSpecifier(tt.spec); name != tt.name || sub != tt.sub {
			t.Errorf("SplitSpecifier(%q) = %q, %q; want %q, %q", tt.spec, name, sub, tt.name, tt.sub)
		}
	}
}

func TestValidSubpath(t *testing.T) {
	for _, sub := range []string{"client", "client/index.js", "v4", "server/mcp.js", "a@b/c~d+e"} {
		if err := validSubpath(sub); err != nil {
			t.Errorf("validSubpath(%q) = %v", sub, err)
		}
	}
	for _, sub := range []string{"", "/abs", "a//b", "a/", "../x", "a/../b", "./a", "a/.", "a b", "a\\b", "a?x", "a#x", "a*", "%2e%2e", strings.Repeat("a", 513)} {
		if err := validSubpath(sub); !errors.Is(err, ErrInvalidName) {
			t.Errorf("validSubpath(%q) = %v, want ErrInvalidName", sub, err)
		}
	}
}

// subpathPackage is a package whose main entry declares nothing and whose
// API is in subpath exports, some through a pattern, like the MCP
// TypeScript SDK's.
var subpathPackage = []testutil.File{
	{Name: "package.json", Data: []byte(`{"name": "@acme/kit", "version": "1.0.0", "exports": {
		".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
		"./client": {"types": "./dist/client/index.d.ts", "import": "./dist/client/index.js"},
		"./server": {"import": "./dist/server/index.mjs"},
		"./internal/*": null,
		"./*": {"types": "./dist/*.d.ts", "import": "./dist/*"},
		"./extra/*": {"types": "./dist/extra/*.d.ts"},
		"./package.json": "./package.json"
	}}`)},
	{Name: "README.md", Data: []byte("# kit\n\nA kit.\n")},
	{Name: "dist/client/index.d.ts", Data: []byte("/** A client. */\nexport declare class Client {}\n")},
	{Name: "dist/server/index.d.mts", Data: []byte("/** Serves. */\nexport declare function serve(): void;\n")},
	{Name: "dist/transport/http.d.ts", Data: []byte("export declare class HTTPTransport {}\n")},
	{Name: "dist/extra/one.d.ts", Data: []byte("export declare const one: 1;\n")},
	{Name: "dist/internal/secret.d.ts", Data: []byte("export declare const secret: string;\n")},
}

func subpathTree() *archive.Tree {
	files := map[string][]byte{}
	for _, f := range subpathPackage {
		files[f.Name] = f.Data
	}
	return archive.FromFiles(files)
}

// TestSubpathEntry resolves subpaths through the exports map as
// TypeScript does: exact keys, then the pattern with the longest prefix
// (a ".js" kept in the stem read without it), declarations beside
// JavaScript targets, null targets not exported.
func TestSubpathEntry(t *testing.T) {
	tree := subpathTree()
	var pj packageJSON
	data, _ := tree.Get("package.json")
	if err := json.Unmarshal(data, &pj); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sub, want string
		notFound  bool
	}{
		{"client", "dist/client/index.d.ts", false},
		{"server", "dist/server/index.d.mts", false},
		{"transport/http.js", "dist/transport/http.d.ts", false},
		{"transport/http", "dist/transport/http.d.ts", false},
		{"extra/one", "dist/extra/one.d.ts", false},
		{"internal/secret", "", true},
		{"nothing/here", "", false},
	}
	for _, tt := range tests {
		got, err := subpathEntry(tree, pj, tt.sub)
		if got != tt.want || errors.Is(err, ErrNotFound) != tt.notFound {
			t.Errorf("subpathEntry(%q) = %q, %v; want %q (not found: %v)", tt.sub, got, err, tt.want, tt.notFound)
		}
	}
	if got, want := strings.Join(subpathList(tree, pj), " "), "@acme/kit/client @acme/kit/server"; got != want {
		t.Errorf("subpathList = %q, want %q", got, want)
	}
	// Without a pattern for it, a subpath is not exported, and the error
	// names those that are.
	pj.Exports = []byte(`{".": "./index.js", "./client": {"types": "./dist/client/index.d.ts"}}`)
	if _, err := subpathEntry(tree, pj, "server"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "@acme/kit/client") {
		t.Errorf("not exported: %v", err)
	}
	// Without an exports map, a subpath is a file of the package.
	pj.Exports = nil
	if got, err := subpathEntry(tree, pj, "dist/extra/one.js"); got != "dist/extra/one.d.ts" || err != nil {
		t.Errorf("no exports map: %q, %v", got, err)
	}
}

// TestDescribeSubpath documents one module of a package from the registry
// and from node_modules, names the subpaths of a main entry without
// declarations, and refuses a subpath the package does not export.
func TestDescribeSubpath(t *testing.T) {
	srv := miniRegistry(t, map[string]map[string][]testutil.File{"@acme/kit": {"1.0.0": subpathPackage}})
	src := miniSource(srv)
	ctx := context.Background()
	pkg, err := src.Describe(ctx, Request{Name: "@acme/kit/client"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "@acme/kit/client" || pkg.Version != "1.0.0" || len(pkg.Symbols) != 1 || pkg.Symbols[0].Name != "Client" ||
		!strings.Contains(pkg.Install, "npm install @acme/kit@1.0.0") || !strings.Contains(pkg.Origin, "dist/client/index.d.ts") {
		t.Fatalf("subpath: %s@%s from %s, %+v, install %q", pkg.Name, pkg.Version, pkg.Origin, pkg.Symbols, pkg.Install)
	}
	pkg, err = src.Describe(ctx, Request{Name: "@acme/kit"})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(pkg.Notes, " ")
	if len(pkg.Symbols) != 0 || !strings.Contains(notes, "@acme/kit/client, @acme/kit/server") || strings.Contains(notes, "@types") {
		t.Fatalf("main entry: %d symbols, notes %q", len(pkg.Symbols), pkg.Notes)
	}
	if _, err := src.Describe(ctx, Request{Name: "@acme/kit/internal/secret"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("not exported: %v", err)
	}
	if _, err := src.Describe(ctx, Request{Name: "@acme/kit/../x"}); !errors.Is(err, ErrInvalidName) {
		t.Fatalf("dot-dot subpath: %v", err)
	}

	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "package-lock.json"), []byte(`{"packages": {}}`), 0o644)
	for _, f := range subpathPackage {
		p := filepath.Join(project, "node_modules", "@acme", "kit", filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	offline := &Source{Client: fetch.New(nil), Config: src.Config, Offline: true}
	pkg, err = offline.Describe(ctx, Request{Name: "@acme/kit/server", ProjectPath: project})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Registry != "local" || len(pkg.Symbols) != 1 || pkg.Symbols[0].Name != "serve" {
		t.Fatalf("installed subpath: %s from %s, %+v", pkg.Name, pkg.Registry, pkg.Symbols)
	}
	if _, err := offline.Describe(ctx, Request{Name: "@acme/kit/internal/secret", ProjectPath: project}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("installed, not exported: %v", err)
	}
}

// FuzzSubpath: any specifier against any exports map resolves without a
// panic, and a subpath that resolves names a declaration file the package
// holds, never a path outside it.
func FuzzSubpath(f *testing.F) {
	f.Add("@acme/kit/client", `{"./client": {"types": "./dist/client/index.d.ts"}}`)
	f.Add("@acme/kit/transport/http.js", `{"./*": {"types": "./dist/*.d.ts", "import": "./dist/*"}}`)
	f.Add("kit/extra/one", `{"./extra/*": ["./dist/extra/*.js", {"require": "./x.cjs"}], "./internal/*": null}`)
	f.Add("kit/../../etc/passwd", `{"./*": "./*"}`)
	f.Add("kit/a*b", `{"./*b": {"types": "../*.d.ts"}}`)
	f.Fuzz(func(t *testing.T, spec, exports string) {
		name, sub := SplitSpecifier(spec)
		if !strings.HasPrefix(spec, name) {
			t.Fatalf("SplitSpecifier(%q) = %q, %q", spec, name, sub)
		}
		if sub == "" || validSubpath(sub) != nil {
			return
		}
		tree := subpathTree()
		pj := packageJSON{Name: name, Exports: []byte(exports)}
		entry, err := subpathEntry(tree, pj, sub)
		if err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatalf("subpathEntry(%q): %v", sub, err)
		}
		if entry != "" && (!tree.Has(entry) || strings.HasPrefix(entry, "../") || strings.HasPrefix(entry, "/")) {
			t.Fatalf("subpathEntry(%q) = %q", sub, entry)
		}
		_ = subpathList(tree, pj)
	})
}
