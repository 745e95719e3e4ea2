package npm

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Bounds on reading a package's JavaScript sources.
const (
	maxJSFiles    = 40        // files read per package
	maxJSFileSize = 256 << 10 // larger files (bundles) are skipped
	maxJSBytes    = 2 << 20   // bytes read per package
	maxJSDepth    = 6         // require() hops from the entry point
	maxJSSymbols  = 1000
)

// jsSource is a package's documented JavaScript API: the JSDoc comments of
// what its entry point and the files it loads declare and export.
type jsSource struct {
	Symbols []model.Symbol
	Files   []string // files read, in the order they were reached
}

// readJSAPI reads the package's JavaScript from its entry point (package.json
// exports ".", then main, then index.js) and the files of the same package
// it loads, breadth first within the bounds, and returns the documented
// declarations it exports, with signatures built from the source
// ("app.use(fn)"). Comments tagged @private, @api private, @internal or
// @ignore are skipped. Nothing is evaluated, and no path leads out of the
// package.
func readJSAPI(tree *archive.Tree, pj packageJSON) jsSource {
	var out jsSource
	entry := jsEntry(tree, pj)
	if entry == "" {
		return out
	}
	type item struct {
		file  string
		depth int
	}
	queue, seen, bytes := []item{{entry, 0}}, map[string]bool{entry: true}, 0
	index := map[string]int{}
	for len(queue) > 0 && len(out.Files) < maxJSFiles {
		it := queue[0]
		queue = queue[1:]
		data, ok := tree.Get(it.file)
		if !ok || len(data) > maxJSFileSize || bytes+len(data) > maxJSBytes {
			continue
		}
		bytes += len(data)
		out.Files = append(out.Files, it.file)
		f := scanJS(string(data))
		for _, d := range f.decls {
			// res.set = res.header = function header(field, val): two names.
			for _, target := range d.targets {
				if sym, ok := jsSymbol(f, d, target, it.file); ok && len(out.Symbols) < maxJSSymbols {
					addJSSymbol(&out.Symbols, index, sym)
				}
			}
		}
		if it.depth >= maxJSDepth {
			continue
		}
		for _, spec := range f.requires {
			if next := resolveJS(tree, it.file, spec); next != "" && !seen[next] {
				seen[next] = true
				queue = append(queue, item{next, it.depth + 1})
			}
		}
	}
	return out
}

// addJSSymbol adds sym, or completes the symbol of the same name already
// read: "exports.json = require('./json')" documented in one file and
// "function json(options)" in another are one function.
func addJSSymbol(syms *[]model.Symbol, index map[string]int, sym model.Symbol) {
	i, ok := index[sym.Name]
	if !ok {
		index[sym.Name] = len(*syms)
		*syms = append(*syms, sym)
		return
	}
	old := &(*syms)[i]
	if strings.HasSuffix(sym.Signature, ")") && !strings.HasSuffix(old.Signature, ")") {
		old.Signature, old.Kind, old.File = sym.Signature, sym.Kind, sym.File
		if sym.Doc != "" {
			old.Doc = sym.Doc
		}
	}
}

// jsSymbol turns a declaration, under one of its names, into a symbol, or
// reports false when it is private or not part of what the file exports.
func jsSymbol(f *jsFile, d jsDecl, target, file string) (model.Symbol, bool) {
	doc, public, private := jsDocText(d.doc)
	name := jsName(target)
	exported := d.exported
	switch {
	case name == "module.exports" || name == "exports":
		return model.Symbol{}, false // "Module exports." on the default export
	case strings.HasPrefix(name, "exports."):
		name, exported = strings.TrimPrefix(name, "exports."), true
	}
	if !strings.Contains(name, ".") {
		if to, ok := f.assigned[name]; ok {
			name = to // createDebug.enable = enable
			exported = true
		}
	}
	owner, last := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		owner, last = name[:i], name[i+1:]
	}
	root, _, _ := strings.Cut(name, ".")
	if private || doc == "" || !public && strings.HasPrefix(last, "_") {
		return model.Symbol{}, false
	}
	if !public && !exported && !f.exported[root] && !(owner != "" && d.kind == "method") {
		return model.Symbol{}, false
	}
	kind := d.kind
	if kind == "function" && owner != "" {
		kind = "method"
	}
	sig := name + d.params
	switch kind {
	case "class":
		sig = "class " + name
	case "property":
		if d.params == "" {
			sig = name
		}
	}
	sym := model.Symbol{Name: name, Kind: kind, Signature: sig, Doc: doc, File: file}
	return sym, true
}

// jsName normalizes an assignment target: "module.exports.x" is
// "exports.x", "Foo.prototype.bar" is "Foo.bar".
func jsName(t string) string {
	t = strings.Replace(t, ".prototype.", ".", 1)
	if rest, ok := strings.CutPrefix(t, "module."); ok && (rest == "exports" || strings.HasPrefix(rest, "exports.")) {
		t = rest
	}
	return t
}

// jsDocText turns a JSDoc comment into markdown, reporting whether it marks
// the declaration public (@public, @api public, @access public) or private
// (@private, @api private, @access private, @internal, @ignore, @hidden).
// The visibility tags are dropped; @param, @returns and @example stay.
func jsDocText(c string) (doc string, public, private bool) {
	var keep []string
	for _, l := range strings.Split(c, "\n") {
		t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "/*"))
		switch strings.Join(strings.Fields(t), " ") {
		case "@public", "@api public", "@access public":
			public = true
			continue
		case "@private", "@api private", "@access private", "@internal", "@ignore", "@hidden", "@protected", "@api protected":
			private = true
			continue
		}
		if strings.HasPrefix(t, "@private ") || strings.HasPrefix(t, "@internal ") {
			private = true
		}
		keep = append(keep, l)
	}
	return cleanJSDoc(strings.Join(keep, "\n")), public, private
}

// jsEntry returns the package's JavaScript entry point: the CommonJS or
// default branch of exports["."], then main, then index.js.
func jsEntry(tree *archive.Tree, pj packageJSON) string {
	var cands []string
	if len(pj.Exports) > 0 {
		var root any
		if json.Unmarshal(pj.Exports, &root) == nil {
			if m, ok := root.(map[string]any); ok {
				if dot, ok := m["."]; ok {
					root = dot
				}
			}
			cands = append(cands, jsCondition(root, 0))
		}
	}
	cands = append(cands, pj.Main, "index.js")
	for _, c := range cands {
		if c == "" {
			continue
		}
		if f := resolveJS(tree, "", "./"+strings.TrimPrefix(c, "./")); f != "" {
			return f
		}
	}
	return ""
}

// jsCondition picks a JavaScript file from an exports value: require,
// node, default, then import.
func jsCondition(v any, depth int) string {
	if depth > 6 {
		return ""
	}
	switch v := v.(type) {
	case string:
		if !strings.HasSuffix(v, ".d.ts") && !strings.HasSuffix(v, ".d.cts") && !strings.HasSuffix(v, ".d.mts") {
			return v
		}
	case map[string]any:
		for _, k := range []string{"require", "node", "default", "import"} {
			if sub, ok := v[k]; ok {
				if s := jsCondition(sub, depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// resolveJS resolves a relative specifier from file to a JavaScript file
// of the package: as written, then with .js, .cjs or .mjs, then as a
// directory's index.js. Specifiers leading out of the package, into
// node_modules or to anything but JavaScript resolve to "".
func resolveJS(tree *archive.Tree, from, spec string) string {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return ""
	}
	p := path.Join(path.Dir(from), spec)
	if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || strings.Contains("/"+p+"/", "/node_modules/") {
		return ""
	}
	cands := []string{p + ".js", p + ".cjs", p + ".mjs", p + "/index.js"}
	switch path.Ext(p) {
	case ".js", ".cjs", ".mjs":
		cands = append([]string{p}, cands...)
	}
	for _, c := range cands {
		if tree.Has(c) {
			return c
		}
	}
	return ""
}
