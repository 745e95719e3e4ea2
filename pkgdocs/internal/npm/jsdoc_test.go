package npm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// jsTree builds a package from file contents.
func jsTree(files map[string]string) *archive.Tree {
	m := map[string][]byte{}
	for k, v := range files {
		m[k] = []byte(v)
	}
	return archive.FromFiles(m)
}

func jsSymbols(t *testing.T, files map[string]string) map[string]model.Symbol {
	t.Helper()
	tree := jsTree(files)
	var pj packageJSON
	if data, ok := tree.Get("package.json"); ok {
		if err := json.Unmarshal(data, &pj); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]model.Symbol{}
	for _, s := range readJSAPI(tree, pj).Symbols {
		out[s.Name] = s
	}
	return out
}

// jsdocShapesSource is an express-like CommonJS file whose documented
// shapes (methods, functions, classes, getters, defineProperty, private
// members, comment look-alikes in strings) TestJSDocShapes reads.
const jsdocShapesSource = `'use strict'
var re = /\/**not a comment*\//g, s = "/** nor this */", tpl = ` + "`/** ${'nor'} this */`" + `
var app = exports = module.exports = {};

/**
 * Proxy to add middleware.
 *
 * @param {Function} fn
 * @public
 */
app.use = function use(fn) { return this }

/**
 * Set a header, or several.
 * @public
 */
app.set = app.header = function header(field, val) {}

/**
 * Initialize the server.
 * @private
 */
app.init = function init() {}

/**
 * Handle a request.
 * @api private
 */
app.handle = function handle(req, res, next) {}

/**
 * Internal helper.
 * @internal
 */
exports.helper = function () {}

/**
 * Parse a value.
 * @returns {number}
 */
exports.parse = (value, opts = {}) => 1

/** Format a value. */
exports.format = value => String(value)

/** Not exported, not public: left out. */
function hidden(a) {}

/** Exported under a property name. */
function enable(namespaces) {}
app.enable = enable;

/**
 * A widget.
 * @example
 *   new Widget('x').render()
 */
class Widget {
  /** Make a widget named name. */
  constructor(name) {}
  /** Render it. */
  render(opts) { if (x) { return /re{/ } }
  /** The widget's size. */
  get size() { return 1 }
  /** Private by name. */
  #secret() {}
}
module.exports.Widget = Widget

/** Count of widgets. */
Object.defineProperty(app, 'count', { get: function () { return 1 } })

/**
 * Return the protocol string.
 * @public
 */
defineGetter(app, 'protocol', function protocol () { return 'http' })

/** Shape of a thing, a prototype method. */
Widget.prototype.shape = function (kind) {}
`

// TestJSDocShapes reads each way JavaScript packages declare their API,
// each documented by a JSDoc comment directly above it.
func TestJSDocShapes(t *testing.T) {
	syms := jsSymbols(t, map[string]string{"package.json": `{"name":"w","main":"lib/index"}`, "lib/index.js": jsdocShapesSource})
	tests := []struct{ name, kind, sig, doc string }{
		{"app.use", "method", "app.use(fn)", "Proxy to add middleware."},
		{"app.set", "method", "app.set(field, val)", "Set a header, or several."},
		{"app.header", "method", "app.header(field, val)", "Set a header, or several."},
		{"parse", "function", "parse(value, opts = {})", "@returns {number}"},
		{"format", "function", "format(value)", "Format a value."},
		{"app.enable", "method", "app.enable(namespaces)", "Exported under a property name."},
		{"Widget", "class", "class Widget", "new Widget('x').render()"},
		{"Widget.render", "method", "Widget.render(opts)", "Render it."},
		{"Widget.size", "property", "Widget.size", "The widget's size."}, // a getter
		{"Widget.shape", "method", "Widget.shape(kind)", "Shape of a thing"},
		{"app.count", "property", "app.count", "Count of widgets."},
		{"app.protocol", "property", "app.protocol", "Return the protocol string."}, // express's defineGetter
	}
	for _, tt := range tests {
		s, ok := syms[tt.name]
		if !ok {
			t.Errorf("%s: not found", tt.name)
			continue
		}
		if s.Kind != tt.kind || s.Signature != tt.sig || !strings.Contains(s.Doc, tt.doc) || s.File != "lib/index.js" {
			t.Errorf("%s = %+v, want kind %s, signature %q, doc with %q", tt.name, s, tt.kind, tt.sig, tt.doc)
		}
		if strings.Contains(s.Doc, "@public") {
			t.Errorf("%s: visibility tag kept: %q", tt.name, s.Doc)
		}
	}
	for _, name := range []string{"app.init", "app.handle", "helper", "hidden", "Widget.#secret", "Widget.secret", "re", "s"} {
		if _, ok := syms[name]; ok {
			t.Errorf("%s: private or unexported, but listed", name)
		}
	}
}

// TestJSDocFollowsRequires reads the files the entry point loads, and
// only those inside the package.
func TestJSDocFollowsRequires(t *testing.T) {
	files := map[string]string{
		"package.json":                  `{"name":"p","exports":{".":{"types":"./x.d.ts","require":"./cjs/main.cjs","import":"./esm/main.mjs"}}}`,
		"cjs/main.cjs":                  "exports.json = require('./types/json')\nrequire('../../outside')\nrequire('./node_modules/dep')\nrequire('dep')",
		"cjs/types/json.js":             "module.exports = json\n/**\n * Create a JSON parser.\n * @public\n */\nfunction json (options) {}",
		"outside.js":                    "/** Outside. @public */\nfunction outside() {}",
		"cjs/node_modules/dep/index.js": "/** Dependency. @public */\nfunction dep() {}",
	}
	tree := jsTree(files)
	var pj packageJSON
	data, _ := tree.Get("package.json")
	_ = json.Unmarshal(data, &pj)
	js := readJSAPI(tree, pj)
	if strings.Join(js.Files, ",") != "cjs/main.cjs,cjs/types/json.js" {
		t.Errorf("files read = %v", js.Files)
	}
	if len(js.Symbols) != 1 || js.Symbols[0].Signature != "json(options)" {
		t.Errorf("symbols = %+v", js.Symbols)
	}
	for _, tt := range []struct{ from, spec, want string }{
		{"index.js", "./lib", "lib/index.js"},
		{"lib/a.js", "../index", "index.js"},
		{"lib/a.js", "../../etc/passwd", ""},
		{"index.js", "/etc/passwd", ""},
		{"index.js", "lib", ""},
		{"index.js", "./lib/index.d.ts", ""},
	} {
		tree := jsTree(map[string]string{"index.js": "", "lib/index.js": "", "lib/a.js": "", "lib/index.d.ts": ""})
		if got := resolveJS(tree, tt.from, tt.spec); got != tt.want {
			t.Errorf("resolveJS(%q, %q) = %q, want %q", tt.from, tt.spec, got, tt.want)
		}
	}
}

// TestJSDocBounds: files beyond the caps are not read.
func TestJSDocBounds(t *testing.T) {
	files := map[string]string{"index.js": ""}
	var req strings.Builder
	for i := 0; i < 2*maxJSFiles; i++ {
		name := "f" + strings.Repeat("x", i)
		fmtReq := "require('./" + name + "')\n"
		req.WriteString(fmtReq)
		files[name+".js"] = "/** F. @public */\nfunction " + name + "() {}"
	}
	files["index.js"] = req.String()
	files["big.js"] = "/** Big. @public */\nfunction big() {}\n" + strings.Repeat(" ", maxJSFileSize)
	files["index.js"] += "require('./big')\n"
	tree := jsTree(files)
	js := readJSAPI(tree, packageJSON{})
	if len(js.Files) != maxJSFiles {
		t.Errorf("read %d files, want the cap %d", len(js.Files), maxJSFiles)
	}
	for _, f := range js.Files {
		if f == "big.js" {
			t.Error("a file over the size cap was read")
		}
	}
}

// TestJSDocIsTheAPI: a package with no declarations anywhere is
// documented by its JavaScript.
func TestJSDocIsTheAPI(t *testing.T) {
	tree := jsTree(map[string]string{
		"package.json": `{"name":"logger","main":"index.js"}`,
		"index.js":     "module.exports = logger\n/**\n * Create a logger middleware.\n * @param {String} format\n * @public\n */\nfunction logger (format, options) {}\n",
	})
	pkg := &model.Package{Origin: "tarball"}
	addJSAPI(pkg, tree, "logger@1.0.0")
	if len(pkg.Symbols) != 1 || pkg.Symbols[0].Signature != "logger(format, options)" || !strings.Contains(pkg.Symbols[0].Doc, "@param {String} format") {
		t.Fatalf("symbols = %+v", pkg.Symbols)
	}
	if !strings.Contains(pkg.Origin, "JSDoc of index.js") || len(pkg.Notes) != 1 {
		t.Errorf("origin %q, notes %q", pkg.Origin, pkg.Notes)
	}
}

// TestJSDocMerge: declarations without JSDoc get the source's, with where
// it comes from; documented declarations keep theirs; both are found by
// the source's name.
func TestJSDocMerge(t *testing.T) {
	decl := []model.Symbol{
		{Name: "express.Application.use", Kind: "property", Signature: "use: ApplicationRequestHandler<this>"},
		{Name: "express.Response.status", Kind: "method", Signature: "status(code: StatusCode): this", Doc: "Set status `code`."},
		{Name: "express.Router.use", Kind: "property", Signature: "use: RouterHandler<this>"},
		{Name: "debug.Debug.enable", Kind: "property", Signature: "enable: (namespaces: string) => void"},
		{Name: "json", Kind: "function", Signature: "json(options?: OptionsJson): NextHandleFunction"},
		{Name: "WebSocket.close", Kind: "method", Signature: "close(code?: number): void"},
		{Name: "Server.close", Kind: "method", Signature: "close(cb?: (err?: Error) => void): void"},
	}
	js := []model.Symbol{
		{Name: "app.use", Signature: "app.use(fn)", Doc: "Proxy `Router#use()` to add middleware to the app router.\n\n@public", File: "lib/application.js"},
		{Name: "res.status", Signature: "res.status(code)", Doc: "Set the HTTP status code.", File: "lib/response.js"},
		{Name: "createDebug.enable", Signature: "createDebug.enable(namespaces)", Doc: "Enables a debug mode by namespaces.", File: "src/common.js"},
		{Name: "json", Signature: "json(options)", Doc: "Create a middleware to parse JSON bodies.", File: "lib/types/json.js"},
		// WebSocketServer is exported as Server: it ends with Server, and
		// is not WebSocket, whose name it starts with.
		{Name: "WebSocketServer.close", Signature: "WebSocketServer.close(cb)", Doc: "Stop the server.", File: "lib/websocket-server.js"},
		{Name: "WebSocket.close", Signature: "WebSocket.close(code, data)", Doc: "Start a closing handshake.", File: "lib/websocket.js"},
	}
	if n := mergeJSDocs(decl, js, "express@5.3.0"); n != 6 {
		t.Errorf("matched %d, want 6", n)
	}
	want := []struct {
		doc     string
		aliases string
	}{
		{"Proxy `Router#use()` to add middleware to the app router.\n*Documented in lib/application.js of express@5.3.0 as `app.use(fn)`.*\n\n@public", "app.use"},
		{"Set status `code`.", "res.status"},
		{"", ""}, // Router is not app
		{"Enables a debug mode by namespaces.\n*Documented in src/common.js of express@5.3.0 as `createDebug.enable(namespaces)`.*", "createDebug.enable"},
		{"Create a middleware to parse JSON bodies.\n*Documented in lib/types/json.js of express@5.3.0 as `json(options)`.*", ""},
		{"Start a closing handshake.\n*Documented in lib/websocket.js of express@5.3.0 as `WebSocket.close(code, data)`.*", ""},
		{"Stop the server.\n*Documented in lib/websocket-server.js of express@5.3.0 as `WebSocketServer.close(cb)`.*", "WebSocketServer.close"},
	}
	for i, w := range want {
		if decl[i].Doc != w.doc || strings.Join(decl[i].Aliases, ",") != w.aliases {
			t.Errorf("%s: doc %q aliases %v, want %q %q", decl[i].Name, decl[i].Doc, decl[i].Aliases, w.doc, w.aliases)
		}
	}
}

// TestJSDocRecorded reads the JavaScript of recorded packages: express's
// app.use documents @types' doc-less Application.use, debug's enable
// documents Debug.enable.
func TestJSDocRecorded(t *testing.T) {
	src, _ := recordedSource(t)
	for _, tt := range []struct{ pkg, symbol, alias, doc string }{
		{"express", "express.Application.use", "app.use", "*Documented in lib/application.js of express@5.3.0 as `app.use(fn)`.*"},
		{"express", "express.Response.header", "res.header", "Set header `field` to `val`"},
		{"debug", "debug.Debug.enable", "createDebug.enable", "Enables a debug mode by namespaces."},
	} {
		pkg, err := src.Describe(context.Background(), Request{Name: tt.pkg})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(pkg.Origin, "JSDoc of ") {
			t.Errorf("%s: origin %q does not say the JavaScript was read", tt.pkg, pkg.Origin)
		}
		found := false
		for _, s := range pkg.Symbols {
			if s.Name == tt.symbol {
				found = true
				if !contains(s.Aliases, tt.alias) || !strings.Contains(s.Doc, tt.doc) {
					t.Errorf("%s: aliases %v, doc %q", tt.symbol, s.Aliases, s.Doc)
				}
			}
		}
		if !found {
			t.Errorf("%s: no symbol %s", tt.pkg, tt.symbol)
		}
	}
}

func FuzzJSDocScanner(f *testing.F) {
	for _, s := range []string{
		"/** a */\napp.use = function use(fn) {}",
		"/** b */ exports.x = (a, {b, c} = {}) => a",
		"var re = /[/*]/; /** c */ function f(a) {}",
		"class A extends B { /** m */ static async *gen(x) {} /** g */ get v() {} }",
		"x = a / b / c; /** d */ module.exports.y = require('./y')",
		"`${`${'/**'}`}` /** e */ Object.defineProperty(o, 'p', {})",
		"/** f @private */ var a = b = c = function () {",
		"{class: 1} /** g */ foo.bar.baz = 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		js := scanJS(src)
		if len(js.decls) > maxJSDecls {
			t.Fatalf("declaration cap ignored: %d", len(js.decls))
		}
		for _, d := range js.decls {
			if len(d.targets) == 0 {
				t.Fatal("declaration without a name")
			}
			jsSymbol(js, d, d.targets[0], "index.js")
		}
		tree := jsTree(map[string]string{"index.js": src, "a.js": src})
		readJSAPI(tree, packageJSON{})
	})
}
