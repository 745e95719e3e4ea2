package npm

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// declPackage is a package of one declaration file with dependencies.
func declPackage(name, version, deps, decl string) []testutil.File {
	return []testutil.File{
		{Name: "package.json", Data: []byte(fmt.Sprintf(`{"name": %q, "version": %q, "types": "index.d.ts", "dependencies": {%s}}`, name, version, deps))},
		{Name: "index.d.ts", Data: []byte(decl)},
	}
}

// loggedRegistry serves pkgs through a proxy that records the registry
// paths asked for (tarballs are served by the registry itself).
func loggedRegistry(t *testing.T, pkgs map[string]map[string][]testutil.File) (*Source, func() []string) {
	inner := miniRegistry(t, pkgs)
	target, _ := url.Parse(inner.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var paths []string
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(outer.Close)
	return miniSource(outer), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), paths...)
	}
}

func symbolNamed(syms []model.Symbol, name string) *model.Symbol {
	for i := range syms {
		if syms[i].Name == name {
			return &syms[i]
		}
	}
	return nil
}

// followTypesPackages is the registry TestFollowTypes reads: web, whose
// App extends web-core's, which extends deep's, which extends deeper's,
// which extends deepest's; and @types/helper-lib, which web re-exports.
func followTypesPackages() map[string]map[string][]testutil.File {
	return map[string]map[string][]testutil.File{
		"web": {"1.0.0": declPackage("web", "1.0.0", `"web-core": "^1.0.0", "@types/helper-lib": "*"`, `
import * as core from "web-core";
export { Helper } from "helper-lib";
export { Extra } from "helper-lib/extra";
export { Secret } from "helper-lib/../web/secret";
export * from "undeclared-pkg";
/** The application. */
export interface App extends core.App {
    /** Own members win over inherited ones. */
    init(): void;
}
export declare function web(): App;
`)},
		"web-core": {
			"1.0.0": declPackage("web-core", "1.0.0", `"deep": "*"`, `
import { Base } from "deep";
export type Handler<T> = (...fns: Function[]) => T;
export interface Router {
    /** Adds middleware to the router. */
    use: Handler<this>;
}
export interface App<L extends Record<string, any> = Record<string, any>> extends Router, Base {
    /** Inherited init. */
    init(): void;
    listen(port: number): void;
}
`),
			"2.0.0": declPackage("web-core", "2.0.0", "", `export interface App { wrongMajor(): void }`),
		},
		"deep": {"3.1.0": declPackage("deep", "3.1.0", `"deeper": "*"`, `
import { X } from "deeper";
export interface Base extends X {
    /** Comes from two packages away. */
    deepMember(): void;
}
`)},
		"deeper": {"1.0.0": declPackage("deeper", "1.0.0", `"deepest": "*"`, `
import { Y } from "deepest";
export interface X extends Y {
    /** Comes from three packages away (vue's ref, from @vue/reactivity). */
    threeAway(): void;
}
`)},
		"deepest": {"1.0.0": declPackage("deepest", "1.0.0", "", `export interface Y { tooFar(): void }`)},
		"@types/helper-lib": {"2.0.0": append(declPackage("@types/helper-lib", "2.0.0", "", "/** Helps. */\nexport declare class Helper {\n    run(): void;\n}\n"),
			testutil.File{Name: "extra.d.ts", Data: []byte("/** A subpath export. */\nexport declare function Extra(): void;\n")})},
	}
}

// TestFollowTypes: an interface extending one imported from a dependency
// gets its members (and those it inherits, one package further), with the
// package each comes from; "export … from" a dependency is followed; a
// package that is not a declared dependency, or is four packages away, is
// never asked for.
func TestFollowTypes(t *testing.T) {
	src, requested := loggedRegistry(t, followTypesPackages())
	pkg, err := src.Describe(context.Background(), Request{Name: "web"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, sig, doc string
	}{
		{"App.use", "web-core@1.0.0", "use: Handler<this>\ntype Handler<T> = (...fns: Function[]) => T", "Adds middleware to the router."},
		{"App.listen", "web-core@1.0.0", "listen(port: number): void", ""},
		{"App.init", "", "init(): void", "Own members win over inherited ones."},
		{"App.deepMember", "deep@3.1.0", "deepMember(): void", "Comes from two packages away."},
		{"App.threeAway", "deeper@1.0.0", "threeAway(): void", "Comes from three packages away (vue's ref, from @vue/reactivity)."},
		{"Helper", "@types/helper-lib@2.0.0", "class Helper", "Helps."},
		{"Helper.run", "@types/helper-lib@2.0.0", "run(): void", ""},
		{"Extra", "@types/helper-lib@2.0.0", "function Extra(): void", "A subpath export."},
	}
	for _, tt := range tests {
		s := symbolNamed(pkg.Symbols, tt.name)
		if s == nil {
			t.Errorf("%s: missing from %v", tt.name, names(pkg.Symbols))
			continue
		}
		if s.Package != tt.from || !strings.Contains(s.Signature, tt.sig) || s.Doc != tt.doc {
			t.Errorf("%s = %+v, want from %q, signature %q, doc %q", tt.name, *s, tt.from, tt.sig, tt.doc)
		}
		if tt.from != "" && s.File != "index.d.ts" && s.File != "extra.d.ts" {
			t.Errorf("%s: file %q, want the path inside %s", tt.name, s.File, tt.from)
		}
	}
	for _, absent := range []string{"App.tooFar", "App.wrongMajor", "Secret"} {
		if symbolNamed(pkg.Symbols, absent) != nil {
			t.Errorf("%s should not be there", absent)
		}
	}
	if want := " + @types/helper-lib@2.0.0 + deep@3.1.0 + deeper@1.0.0 + web-core@1.0.0"; !strings.HasSuffix(pkg.Origin, want) {
		t.Errorf("origin %q, want it to end with %q", pkg.Origin, want)
	}
	for _, p := range requested() {
		if strings.Contains(p, "deepest") || strings.Contains(p, "undeclared") {
			t.Errorf("requested %s: not a dependency within reach", p)
		}
	}
	if notes := strings.Join(pkg.Notes, "\n"); strings.Contains(notes, "eclarations") || pkg.Partial {
		t.Errorf("notes %q, partial %v", notes, pkg.Partial)
	}
}

func names(syms []model.Symbol) []string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Name)
	}
	return out
}

// TestFollowTypesBounds: at most maxFollowed packages are read, the rest
// is said; a dependency that does not exist, ships no declarations or
// whose declarations are over maxFollowedFile is skipped quietly; a
// package never follows into itself.
func TestFollowTypesBounds(t *testing.T) {
	pkgs := map[string]map[string][]testutil.File{}
	var deps, decl []string
	for i := range maxFollowed + 2 {
		n := fmt.Sprintf("dep%d", i)
		deps = append(deps, fmt.Sprintf("%q: \"*\"", n))
		decl = append(decl, fmt.Sprintf("export * from %q;", n))
		pkgs[n] = map[string][]testutil.File{"1.0.0": declPackage(n, "1.0.0", `"many": "*"`, fmt.Sprintf("export * from \"many\";\nexport declare function f%d(): void;\n", i))}
	}
	// Sorted before the others, they are tried first and do not count.
	deps = append(deps, `"a-huge": "*"`, `"a-missing": "*"`, `"a-untyped": "*"`)
	decl = append(decl, `export * from "a-huge";`, `export * from "a-missing";`, `export * from "a-untyped";`, `export * from "many";`, "export declare function own(): void;")
	pkgs["a-huge"] = map[string][]testutil.File{"1.0.0": declPackage("a-huge", "1.0.0", "", strings.Repeat("export declare function huge(): void;\n", maxFollowedFile/30))}
	pkgs["many"] = map[string][]testutil.File{"1.0.0": declPackage("many", "1.0.0", strings.Join(deps, ", "), strings.Join(decl, "\n"))}
	pkgs["a-untyped"] = map[string][]testutil.File{"1.0.0": {{Name: "package.json", Data: []byte(`{"name": "a-untyped"}`)}}}
	src, _ := loggedRegistry(t, pkgs)
	pkg, err := src.Describe(context.Background(), Request{Name: "many"})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i := range maxFollowed + 2 {
		if symbolNamed(pkg.Symbols, fmt.Sprintf("f%d", i)) != nil {
			found++
		}
	}
	if found != maxFollowed || symbolNamed(pkg.Symbols, "own") == nil || symbolNamed(pkg.Symbols, "huge") != nil || strings.Contains(pkg.Origin, "a-huge") {
		t.Errorf("%d followed packages' symbols, want %d: %v", found, maxFollowed, names(pkg.Symbols))
	}
	notes := strings.Join(pkg.Notes, "\n")
	if !strings.Contains(notes, "in dep4, dep5 were not read: at most 4 other packages are followed") || strings.Contains(notes, "a-missing") || strings.Contains(notes, "a-untyped") || pkg.Partial {
		t.Errorf("notes %q, partial %v", notes, pkg.Partial)
	}
}

// TestFollowExpressTypes: the recorded @types/express extends the
// interfaces of @types/express-serve-static-core, where app.use is
// declared; its members are found by name, with their origin.
func TestFollowExpressTypes(t *testing.T) {
	src, _ := recordedSource(t)
	pkg, err := src.Describe(context.Background(), Request{Name: "express"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pkg.Origin, "@types/express@5.0.6 + @types/express-serve-static-core@5.1.3") {
		t.Errorf("origin %q", pkg.Origin)
	}
	for _, tt := range []struct{ name, sig, doc string }{
		{"express.Application.use", "use: ApplicationRequestHandler<this>\ntype ApplicationRequestHandler<T> =", ""},
		{"express.IRouter.use", "use: IRouterHandler<this> & IRouterMatcher<this>", ""},
		{"express.Router.param", "param(name: string, handler: RequestParamHandler): this", "app.param('user_id'"},
		{"express.Application.engine", "engine(", "Register the given template engine callback"},
	} {
		s := symbolNamed(pkg.Symbols, tt.name)
		if s == nil {
			t.Errorf("%s missing", tt.name)
			continue
		}
		if s.Package != "@types/express-serve-static-core@5.1.3" || !s.Hidden || !strings.Contains(s.Signature, tt.sig) || !strings.Contains(s.Doc, tt.doc) {
			t.Errorf("%s = %+v", tt.name, *s)
		}
	}
	// re-exports of a dependency: @tanstack/react-query re-exports
	// @tanstack/query-core, where QueryClient is declared.
	pkg, err = src.Describe(context.Background(), Request{Name: "@tanstack/react-query"})
	if err != nil {
		t.Fatal(err)
	}
	if s := symbolNamed(pkg.Symbols, "QueryClient"); s == nil || !strings.HasPrefix(s.Package, "@tanstack/query-core@") || s.Kind != "class" {
		t.Errorf("QueryClient = %+v", s)
	}
}

func TestHeritage(t *testing.T) {
	for _, tt := range []struct{ decl, want string }{
		{"interface A extends B {}", "B"},
		{"export interface Application<\n    LocalsObj extends Record<string, any> = Record<string, any>,\n> extends EventEmitter, IRouter, Express.Application {\n  x: 1\n}", "EventEmitter,IRouter,Express.Application"},
		{"interface A<T extends (x: number) => string> extends B<T>, c.D<Map<string, T>> { }", "B,c.D"},
		{"interface A { extends: string }", ""},
		{"interface A<T", ""},
		{"interface A extends", ""},
	} {
		if got := strings.Join(heritage(tt.decl), ","); got != tt.want {
			t.Errorf("heritage(%q) = %q, want %q", tt.decl, got, tt.want)
		}
	}
}

func FuzzHeritage(f *testing.F) {
	f.Add("interface A<T extends B<C>> extends D<E>, f.G {")
	f.Add("interface A extends B<(x) => y>, C")
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range heritage(s) {
			if name == "" || strings.ContainsAny(name, "<{,") {
				t.Fatalf("heritage(%q) gave %q", s, name)
			}
		}
	})
}

// TestFollowInstalledTypes: with the package installed under the project,
// the packages its declarations lead into are read from node_modules too,
// offline, and never from the registry.
func TestFollowInstalledTypes(t *testing.T) {
	var hits atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	defer reg.Close()
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "package-lock.json"), []byte(`{"packages": {}}`), 0o644)
	install := func(name string, files []testutil.File) {
		for _, f := range files {
			p := filepath.Join(project, "node_modules", filepath.FromSlash(name), filepath.FromSlash(f.Name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, f.Data, 0o644)
		}
	}
	install("web", declPackage("web", "1.0.0", `"web-core": "^1.0.0", "not-installed": "*"`,
		"import * as core from \"web-core\";\nexport * from \"not-installed\";\nexport interface App extends core.App {}\n"))
	install("web-core", declPackage("web-core", "1.4.0", "", "export interface App {\n    /** Adds middleware. */\n    use(fn: Function): this;\n}\n"))
	cfg := FromValues(map[string]string{"registry": reg.URL + "/"})
	src := &Source{Client: fetch.New(nil), Config: func(string) (*Config, error) { return cfg, nil }, Offline: true}
	pkg, err := src.Describe(context.Background(), Request{Name: "web", ProjectPath: project})
	if err != nil {
		t.Fatal(err)
	}
	if s := symbolNamed(pkg.Symbols, "App.use"); s == nil || s.Package != "web-core@1.4.0" || s.Doc != "Adds middleware." {
		t.Errorf("App.use = %+v", s)
	}
	if !strings.HasSuffix(pkg.Origin, " + installed web-core@1.4.0") || strings.Contains(strings.Join(pkg.Notes, " "), "eclarations") || hits.Load() != 0 {
		t.Errorf("origin %q, notes %q, %d registry requests", pkg.Origin, pkg.Notes, hits.Load())
	}
}
