package npm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func widgetTree(t *testing.T) *archive.Tree {
	files := map[string][]byte{}
	for _, f := range testutil.TxtarFile(t, "../../testdata/npm/widget.txtar") {
		files[f.Name] = f.Data
	}
	return archive.FromFiles(files)
}

func TestScannerFollowsReexports(t *testing.T) {
	tree := widgetTree(t)
	syms := (&Scanner{Read: tree.Get}).Scan("dist/index.d.ts")
	var got []string
	for _, s := range syms {
		if !s.Hidden {
			got = append(got, s.Kind+" "+s.Name)
		}
	}
	want := "interface WidgetOptions|function createWidget|class Widget|property Widget.size|method Widget.render|type Size|const VERSION|namespace util|function util.clamp"
	if strings.Join(got, "|") != want {
		t.Fatalf("symbols = %s\nwant      %s", strings.Join(got, "|"), want)
	}
	for _, s := range syms {
		if s.Name == "createWidget" && !strings.HasPrefix(s.Doc, "Creates a widget.") {
			t.Errorf("JSDoc lost: %q", s.Doc)
		}
		if s.Name == "Size" && !strings.Contains(s.Signature, "'huge'") {
			t.Errorf("multi-line type cut: %q", s.Signature)
		}
	}
}

func TestTypesEntryPrefersExportsTypes(t *testing.T) {
	tree := widgetTree(t)
	data, _ := tree.Get("package.json")
	_ = data
	pkg := Extract(tree, "")
	if !strings.Contains(pkg.Origin, "dist/index.d.ts") {
		t.Fatalf("origin = %s", pkg.Origin)
	}
}

func TestSplitStatementsIgnoresStringsAndComments(t *testing.T) {
	src := "export declare const a: \"x;y\";\n// export function hidden(): void;\nexport declare const b = `t${ {a:1}.a }`;\n/* export const c = 1; */\nexport type D = { k: string }\nexport declare function e(): void\n"
	var got []string
	for _, st := range splitStatements(src) {
		got = append(got, st.text)
	}
	if len(got) != 4 || !strings.HasPrefix(got[3], "export declare function e") {
		t.Fatalf("statements = %q", got)
	}
}

func FuzzDTSScanner(f *testing.F) {
	tree := []string{
		"export * from './a';\nexport declare function f(x: string): void;",
		"export { a as b } from \"./a\"\nexport default class X {}",
		"declare namespace N { const x: `${string}` }\nexport = N;",
		"/** doc */ export interface I { (a: number): string; [k: string]: any }",
		"/// <reference path=\"./a.d.ts\" />\nexport = _;\ndeclare const _: _.S;\ndeclare namespace _ { interface S {} }",
		"declare module \"../index\" { interface S { /** d */ f<T>(x: T): T; g: number } }",
		"declare module \"node:fs\" { function readFile(p: string): void; }\ndeclare module \"fs\" { export * from \"node:fs\"; }",
		"import { a as b, type C } from './a.js';\nexport { b, C as D };\ndeclare global { var g: string }",
		"export declare class K { private x; constructor(a: string); get v(): number; m(): void; m(a: string): void; #p: number; static s?: string }",
	}
	for _, s := range tree {
		f.Add(s, "export declare const z: number;")
	}
	// "dep" names another package, whose declarations are a.d.ts.
	f.Add("import * as c from 'dep';\nimport { K as L } from \"dep\";\nexport interface I extends c.J, L<T> {}", "export interface J extends K { x(): void; h: H<this> }\ninterface K extends J { y: number }\ntype H<T> = () => T;")
	f.Fuzz(func(t *testing.T, entry, other string) {
		files := map[string][]byte{"index.d.ts": []byte(entry), "a.d.ts": []byte(other)}
		external := func(from, spec string) string {
			if spec == "dep" {
				return "a.d.ts"
			}
			return ""
		}
		syms := (&Scanner{Read: func(n string) ([]byte, bool) { b, ok := files[n]; return b, ok }, External: external, MaxSymbols: 500}).Scan("index.d.ts")
		if len(syms) > 500 {
			t.Fatalf("symbol cap ignored: %d", len(syms))
		}
	})
}

func TestScannerFollowsImportRequire(t *testing.T) {
	files := map[string][]byte{
		"index.d.ts":               []byte("import semverSatisfies = require(\"./functions/satisfies\");\nimport unused = require(\"./functions/unused\");\nexport import Inline = require(\"./inline\");\nexport { semverSatisfies as satisfies };\nexport const SEMVER_SPEC_VERSION: \"2.0.0\";\n"),
		"functions/satisfies.d.ts": []byte("/** Checks a range. */\ndeclare function satisfies(version: string, range: string): boolean;\nexport = satisfies;\n"),
		"functions/unused.d.ts":    []byte("declare function unused(): void;\nexport = unused;\n"),
		"inline.d.ts":              []byte("declare class Inline {}\nexport = Inline;\n"),
	}
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { b, ok := files[n]; return b, ok }}).Scan("index.d.ts")
	var got []string
	for _, s := range syms {
		got = append(got, s.Kind+" "+s.Name+" "+s.Doc)
	}
	want := "function satisfies Checks a range.|class Inline |const SEMVER_SPEC_VERSION "
	if strings.Join(got, "|") != want {
		t.Fatalf("symbols = %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestScannerShapes(t *testing.T) {
	files := map[string][]byte{
		"index.d.ts": []byte(`/// <reference path="./aug.d.ts" />
import { inner as renamed, type Opts } from "./impl.mjs";
export { renamed, Opts as Options };
export * from "./more.ts";
export declare class Client {
  /** Connects. */
  connect(url: string): Promise<void>;
  connect(url: URL): Promise<void>;
  private secret;
  readonly id: string;
}
declare global { /** A global. */ var VERSION: string }
`),
		"impl.d.mts": []byte("/** Inner. */\nexport declare function inner(): void;\nexport interface Opts { a: 1 }\nexport declare function hidden(): void;\n"),
		"more.d.ts":  []byte("export declare const more = 1;\n"),
		"aug.d.ts":   []byte("declare module \"http\" { /** Serves. */ function createServer(): Server; }\n"),
	}
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { b, ok := files[n]; return b, ok }}).Scan("index.d.ts")
	var got []string
	for _, s := range syms {
		if !s.Hidden {
			got = append(got, s.Kind+" "+s.Name+" "+firstLine(s.Doc))
		}
	}
	want := []string{
		"function renamed Inner.", "interface Options ", "const more ", "class Client ", "method Client.connect Connects.",
		"property Client.id ", "const VERSION A global.", "module http ", "function http.createServer Serves.",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range syms {
		if s.Name == "Client.connect" && strings.Count(s.Signature, "\n") != 1 {
			t.Errorf("overloads not merged: %q", s.Signature)
		}
	}
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func TestResolveDTS(t *testing.T) {
	files := map[string]bool{"a.d.ts": true, "b.d.cts": true, "c.d.mts": true, "dir/index.d.ts": true, "e.d.ts": true}
	read := func(n string) ([]byte, bool) { return nil, files[n] }
	tests := []struct{ spec, want string }{
		{"./a.js", "a.d.ts"}, {"./a.ts", "a.d.ts"}, {"./a", "a.d.ts"}, {"./a.d.ts", "a.d.ts"},
		{"./b.cjs", "b.d.cts"}, {"./b.cts", "b.d.cts"}, {"./c.mjs", "c.d.mts"}, {"./c.mts", "c.d.mts"},
		{"./dir", "dir/index.d.ts"}, {"./dir/index.js", "dir/index.d.ts"}, {"./e.jsx", "e.d.ts"}, {"./e.tsx", "e.d.ts"},
		{"lodash", ""}, {"./missing.js", ""},
	}
	for _, tt := range tests {
		if got := resolveDTS("index.d.ts", tt.spec, read); got != tt.want {
			t.Errorf("resolveDTS(%q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

// TestTypesEntryBesideJavaScript: with no "types" anywhere, the entry is
// the declaration file TypeScript reads beside the JavaScript file the
// exports map or main names (x.cjs: x.d.cts, x.mjs: x.d.mts, x.js: x.d.ts).
func TestTypesEntryBesideJavaScript(t *testing.T) {
	tests := []struct {
		name, pkgJSON string
		files         []string
		want          string
	}{
		{"exports cjs", `{"exports": {".": "./lib/version.cjs", "./unstable/sync": "./dist/api/sync/api.js"}}`,
			[]string{"lib/version.cjs", "lib/version.d.cts", "dist/api/sync/api.d.ts"}, "lib/version.d.cts"},
		{"exports conditions", `{"exports": {".": {"import": "./esm/index.mjs", "require": "./cjs/index.cjs"}}}`,
			[]string{"esm/index.mjs", "esm/index.d.mts", "cjs/index.d.cts"}, "esm/index.d.mts"},
		{"exports fallbacks", `{"exports": {".": [{"require": "./a.cjs"}, "./b.js"]}}`,
			[]string{"a.cjs", "a.d.cts"}, "a.d.cts"},
		{"main mjs", `{"main": "dist/main.mjs"}`, []string{"dist/main.mjs", "dist/main.d.mts"}, "dist/main.d.mts"},
		{"main js", `{"main": "./dist/main.js"}`, []string{"dist/main.js", "dist/main.d.ts"}, "dist/main.d.ts"},
		{"none", `{"exports": "./index.cjs"}`, []string{"index.cjs"}, ""},
	}
	for _, tt := range tests {
		files := map[string][]byte{"package.json": []byte(tt.pkgJSON)}
		for _, f := range tt.files {
			files[f] = []byte("export declare const x: number;\n")
		}
		var pj packageJSON
		if err := json.Unmarshal(files["package.json"], &pj); err != nil {
			t.Fatal(err)
		}
		got, _ := typesEntry(archive.FromFiles(files), pj.Types, pj.Typings, pj.Main, pj.Exports)
		if got != tt.want {
			t.Errorf("%s: entry %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestTypesEntryVersionedCondition: a "types@>=5.5" condition that the
// current TypeScript satisfies wins over the plain "types" beside it,
// which packages keep for older compilers (jotai 3); one it does not
// satisfy is passed over.
func TestTypesEntryVersionedCondition(t *testing.T) {
	files := map[string][]byte{
		"dist/index.d.ts": []byte("export declare const atom: number;\n"),
		"dist/old.d.ts":   []byte("export {};\n"),
	}
	tree := archive.FromFiles(files)
	for _, tt := range []struct{ exports, want string }{
		{`{".": {"types@>=5.5": "./dist/index.d.ts", "types": "./dist/old.d.ts", "default": "./dist/index.js"}}`, "dist/index.d.ts"},
		{`{".": {"types@>=99": "./dist/index.d.ts", "types": "./dist/old.d.ts"}}`, "dist/old.d.ts"},
	} {
		if got, _ := typesEntry(tree, "", "", "", []byte(tt.exports)); got != tt.want {
			t.Errorf("exports %s: entry %q, want %q", tt.exports, got, tt.want)
		}
	}
}
