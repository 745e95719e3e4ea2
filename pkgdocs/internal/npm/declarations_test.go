package npm

import (
	"context"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// recordedSource is a Source reading the recorded registry fixtures.
func recordedSource(t *testing.T) (*Source, *testutil.NPMRegistry) {
	t.Helper()
	reg := testutil.NewNPMRegistry(t, "../../testdata/npm/registry")
	cfg := FromValues(map[string]string{"registry": reg.URL + "/"})
	return &Source{Client: fetch.New(nil), Config: func(string) (*Config, error) { return cfg, nil }}, reg
}

// TestRealDeclarations reads the declarations real packages ship, each a
// shape the TypeScript compiler resolves and a simple scanner misses.
func TestRealDeclarations(t *testing.T) {
	src, _ := recordedSource(t)
	tests := []struct {
		pkg, symbol, kind string
		sig, doc          string // substrings the signature and JSDoc must hold
		origin            string // substring of the provenance
	}{
		// export = _ (a const typed by an interface) whose members come
		// from "declare module '../index'" augmentations in files named by
		// triple-slash references, in @types/lodash.
		{"lodash", "debounce", "function", "debounce<T extends (...args: any) => any>(func: T, wait?: number, options?: DebounceSettings): DebouncedFunc<T>", "Creates a debounced function", "@types/lodash@"},
		// export = React; export as namespace React; declare namespace React {...}
		{"react", "useEffect", "function", "function useEffect(effect: EffectCallback, deps?: DependencyList): void", "Accepts a function that contains imperative", "@types/react@"},
		// bundler output: import {...} from "./x.js" then export {...}
		{"@tanstack/react-query", "useQuery", "function", "function useQuery<", "", "build/modern/index.d.ts"},
		{"@tanstack/react-query", "UseQueryOptions", "interface", "interface UseQueryOptions<", "The options accepted by `useQuery`", ""},
		// export * from "./format.ts"; own types, never the deprecated @types stub
		{"date-fns", "format", "function", "function format(", "Format the date.", "index.d.ts"},
		// ambient declare module "node:fs" reached through triple-slash references
		{"@types/node", "readFile", "function", "readFile(\n", "Asynchronously reads the entire contents of a file.", ""},
		// class members with overloads
		{"commander", "Command.option", "method", "option<T>(", "Define option with `flags`", ""},
		// export = e, a function merged with a namespace
		{"express", "express.json", "const", "var json: typeof bodyParser.json", "built-in middleware function in Express", "@types/express@"},
		{"express", "express", "function", "function e(): core.Express", "Creates an Express application.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.symbol, func(t *testing.T) {
			pkg, err := src.Describe(context.Background(), Request{Name: tt.pkg})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(pkg.Origin, tt.origin) {
				t.Errorf("origin %q lacks %q", pkg.Origin, tt.origin)
			}
			var hit *model.Symbol
			for i, s := range pkg.Symbols {
				if s.Name == tt.symbol || strings.HasSuffix(s.Name, "."+tt.symbol) && tt.pkg == "@types/node" {
					hit = &pkg.Symbols[i]
					break
				}
			}
			if hit == nil {
				t.Fatalf("no symbol %s among %d", tt.symbol, len(pkg.Symbols))
			}
			if hit.Kind != tt.kind || !strings.Contains(hit.Signature, tt.sig) || !strings.Contains(hit.Doc, tt.doc) {
				t.Errorf("%s %s:\n%s\ndoc: %.300s", hit.Kind, hit.Name, hit.Signature, hit.Doc)
			}
		})
	}
}

// TestOwnTypesOverStub: date-fns ships its own declarations, and the
// deprecated @types/date-fns stub is never used.
func TestOwnTypesOverStub(t *testing.T) {
	src, _ := recordedSource(t)
	pkg, err := src.Describe(context.Background(), Request{Name: "date-fns"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(pkg.Origin, "@types") || len(pkg.Symbols) < 200 {
		t.Fatalf("origin %s, %d symbols", pkg.Origin, len(pkg.Symbols))
	}
	// A package without declarations whose @types package is a
	// deprecated stub gets a note, not the stub.
	p := &model.Package{}
	cfg, _ := src.Config("")
	src.typesFallback(context.Background(), cfg, "date-fns", "2.30.0", "", p)
	if len(p.Symbols) != 0 || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "deprecated") {
		t.Fatalf("stub used: %d symbols, notes %q", len(p.Symbols), p.Notes)
	}
}

// TestDeprecatedPackage: the version document's "deprecated" message
// reaches the package description.
func TestDeprecatedPackage(t *testing.T) {
	src, _ := recordedSource(t)
	pkg, err := src.Describe(context.Background(), Request{Name: "@types/date-fns"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pkg.Deprecated, "date-fns provides its own type definitions") {
		t.Fatalf("Deprecated = %q", pkg.Deprecated)
	}
}

func TestTypesVersions(t *testing.T) {
	has := func(p string) bool { return p == "ts5.6/index.d.ts" || p == "ts4.8/index.d.ts" || p == "index.d.ts" }
	tests := []struct {
		tv   string
		want string
	}{
		{``, "index.d.ts"},
		{`{"<=5.6": {"*": ["ts5.6/*"]}}`, "index.d.ts"},
		{`{">=4.8": {"*": ["ts4.8/*"]}}`, "ts4.8/index.d.ts"},
		{`{"*": {"index.d.ts": ["ts5.6/index.d.ts"]}}`, "ts5.6/index.d.ts"},
		{`{"*": {"*": ["missing/*"]}}`, "index.d.ts"},
		// The first matching range wins, in file order (zustand).
		{`{">=4.5": {"*": ["*"]}, "*": {"*": ["ts4.8/index.d.ts"]}}`, "index.d.ts"},
		{`{"<4.5": {"*": ["*"]}, "*": {"*": ["ts4.8/index.d.ts"]}}`, "ts4.8/index.d.ts"},
	}
	for _, tt := range tests {
		if got := applyTypesVersions("index.d.ts", orderedTypesVersions([]byte(tt.tv)), has); got != tt.want {
			t.Errorf("applyTypesVersions(%v) = %q, want %q", tt.tv, got, tt.want)
		}
	}
}

func FuzzTypesVersions(f *testing.F) {
	f.Add(`{">=4.5": {"esm/*": ["esm/*"], "*": ["*"]}, "*": {"*": ["ts4.8/*"]}}`, "index.d.ts")
	f.Add(`{"<=5.6": {"*": ["ts5.6/*"]}}`, "a/b.d.ts")
	f.Add(`[1, 2]`, "")
	f.Fuzz(func(t *testing.T, raw, entry string) {
		tvs := orderedTypesVersions([]byte(raw))
		out := applyTypesVersions(entry, tvs, func(p string) bool { return len(p) < 40 })
		if out != entry && len(out) >= 40 && len(out) != len(entry)+len(".d.ts") {
			t.Fatalf("mapped to a file that does not exist: %q", out)
		}
	})
}
