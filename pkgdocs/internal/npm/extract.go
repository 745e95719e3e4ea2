package npm

import (
	"bytes"
	"encoding/json"
	"path"

	"github.com/Masterminds/semver/v3"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/readme"
)

// Extract reads README, docs/, examples/ and the TypeScript declarations
// from an unpacked package tree. description is used when package.json has
// none.
func Extract(tree *archive.Tree, description string) *model.Package {
	pkg, _ := extract(tree, description)
	return pkg
}

// packageJSON is the part of package.json pkgdocs reads.
type packageJSON struct {
	Name             string                     `json:"name"`
	Description      string                     `json:"description"`
	Types            string                     `json:"types"`
	Typings          string                     `json:"typings"`
	Main             string                     `json:"main"`
	Exports          json.RawMessage            `json:"exports"`
	TypesVersions    json.RawMessage            `json:"typesVersions"`
	Deprecated       json.RawMessage            `json:"deprecated"`
	Dependencies     map[string]string          `json:"dependencies"`
	PeerDependencies map[string]string          `json:"peerDependencies"`
	Other            map[string]json.RawMessage `json:"-"`
}

// extract is Extract, also returning the package's declarations (nil when
// it ships no TypeScript declarations), from which dependency packages
// can be followed.
func extract(tree *archive.Tree, description string) (*model.Package, *typeSet) {
	pkg, ts, _ := extractSubpath(tree, description, "")
	return pkg, ts
}

// extractSubpath is extract for the module the package exports at subpath
// ("" for its main entry): the README and examples are the package's, the
// declarations the module's. A main entry without declarations whose
// subpaths have some gets a note naming them. The error wraps ErrNotFound
// when the package has no module at subpath.
func extractSubpath(tree *archive.Tree, description, subpath string) (*model.Package, *typeSet, error) {
	pkg := &model.Package{}
	var pj packageJSON
	if data, ok := tree.Get("package.json"); ok {
		_ = json.Unmarshal(data, &pj) // a broken package.json still has a README
	}
	pkg.Synopsis = firstSet(pj.Description, description)
	origin := []string{}
	if name, data, ok := tree.Find(func(n string) bool {
		return !strings.Contains(n, "/") && strings.HasPrefix(strings.ToLower(n), "readme")
	}); ok {
		pkg.Sections = append(pkg.Sections, readme.Sections(data, name)...)
		if notice := readmeDeprecation(data); notice != "" {
			pkg.Deprecated = notice + " (README)"
		}
		origin = append(origin, name)
	} else {
		pkg.Notes = append(pkg.Notes, "The package tarball has no README.")
	}
	docs := 0
	for _, n := range tree.Names() {
		lower := strings.ToLower(n)
		if (strings.HasPrefix(lower, "docs/") || strings.HasPrefix(lower, "doc/")) && docs < 30 {
			if data, ok := tree.Get(n); ok {
				for _, s := range readme.Sections(data, n) {
					if s.Priority == model.PriorityOverview {
						s.Priority = model.PriorityRest
					}
					pkg.Sections = append(pkg.Sections, s)
				}
				docs++
			}
		}
	}
	if docs > 0 {
		origin = append(origin, "docs/")
	}
	pkg.Examples = examples(tree)
	if len(pkg.Examples) > 0 {
		origin = append(origin, "examples/")
	}
	var ts *typeSet
	var entry string
	fromExports := true
	if subpath == "" {
		entry, fromExports = typesEntry(tree, pj.Types, pj.Typings, pj.Main, pj.Exports)
	} else {
		var err error
		if entry, err = subpathEntry(tree, pj, subpath); err != nil {
			return nil, nil, err
		}
	}
	if entry != "" {
		if !fromExports {
			entry = applyTypesVersions(entry, orderedTypesVersions(pj.TypesVersions), tree.Has)
		}
		ts = newTypeSet(tree, pj, entry)
		pkg.Symbols = ts.scan()
		origin = append(origin, entry)
	}
	if subpath == "" && len(pkg.Symbols) == 0 {
		// A main entry that declares nothing (or is missing): name the
		// subpaths that do.
		if subs := subpathList(tree, pj); len(subs) > 0 {
			pkg.Notes = append(pkg.Notes, subpathNote+strings.Join(subs, ", "))
		}
	}
	pkg.Origin = "tarball " + strings.Join(origin, " + ")
	return pkg, ts, nil
}

// selfResolver resolves specifiers naming the package itself ("name" or
// "name/sub") through its exports map, subpath patterns included, to the
// declaration file the tree holds.
func selfResolver(tree *archive.Tree, name string, exports json.RawMessage) func(string) string {
	m := exportsMap(exports)
	if name == "" || m == nil {
		return nil
	}
	return func(spec string) string {
		sub, ok := strings.CutPrefix(spec, name)
		if !ok || sub != "" && sub[0] != '/' {
			return ""
		}
		var target any
		if sub == "" {
			target, ok = m["."], m["."] != nil
		} else {
			target, ok = exportTarget(m, sub[1:])
		}
		if !ok {
			return ""
		}
		return targetDeclaration(tree, target)
	}
}

// defaultName is the identifier a package's "export =" value is known by:
// "express" for express and @types/express, "react-query" for
// @tanstack/react-query.
func defaultName(name string) string {
	name = strings.TrimPrefix(name, "@types/")
	if _, rest, ok := strings.Cut(name, "__"); ok {
		name = rest
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// typeScriptVersion is the compiler version typesVersions ranges are
// matched against: a current one.
var typeScriptVersion = semver.MustParse("5.9.0")

// typesVersion is one range of package.json's typesVersions with its
// path mappings, in file order (order decides which applies).
type typesVersion struct {
	Range string
	Paths []pathMapping
}

type pathMapping struct {
	Pattern string
	Targets []string
}

// orderedTypesVersions decodes typesVersions keeping the order of its
// keys, which JSON objects decoded into maps lose.
func orderedTypesVersions(raw json.RawMessage) []typesVersion {
	var out []typesVersion
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		r, ok := k.(string)
		if err != nil || !ok {
			return out
		}
		tv := typesVersion{Range: r}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return out
		}
		for dec.More() {
			k, err := dec.Token()
			pat, ok := k.(string)
			if err != nil || !ok {
				return out
			}
			var targets []string
			if err := dec.Decode(&targets); err != nil {
				return out
			}
			tv.Paths = append(tv.Paths, pathMapping{pat, targets})
		}
		if _, err := dec.Token(); err != nil {
			return out
		}
		out = append(out, tv)
	}
	return out
}

// applyTypesVersions maps a declaration entry through package.json's
// typesVersions as the TypeScript compiler does: the first range that
// matches the compiler's version, then the first path pattern that matches
// (with * substituted), if the file it names exists.
func applyTypesVersions(entry string, tvs []typesVersion, has func(string) bool) string {
	for _, tv := range tvs {
		if tv.Range != "*" {
			c, err := semver.NewConstraint(tv.Range)
			if err != nil || !c.Check(typeScriptVersion) {
				continue
			}
		}
		for _, pm := range tv.Paths {
			prefix, suffix, star := strings.Cut(pm.Pattern, "*")
			if !star && pm.Pattern != entry || star && !(strings.HasPrefix(entry, prefix) && strings.HasSuffix(entry, suffix)) {
				continue
			}
			for _, t := range pm.Targets {
				mapped := strings.TrimPrefix(path.Clean(t), "./")
				if star {
					mapped = strings.Replace(mapped, "*", strings.TrimSuffix(strings.TrimPrefix(entry, prefix), suffix), 1)
				}
				if has(mapped) {
					return mapped
				}
				if has(mapped + ".d.ts") {
					return mapped + ".d.ts"
				}
			}
		}
		return entry
	}
	return entry
}

// examples returns small example sources, smallest first, at most ten.
func examples(tree *archive.Tree) []model.Example {
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, n := range tree.Names() {
		lower := strings.ToLower(n)
		if !(strings.HasPrefix(lower, "examples/") || strings.HasPrefix(lower, "example/")) || strings.Contains(lower, "node_modules/") {
			continue
		}
		ext := path.Ext(lower)
		if ext != ".js" && ext != ".ts" && ext != ".mjs" && ext != ".cjs" && ext != ".tsx" && ext != ".jsx" {
			continue
		}
		if data, ok := tree.Get(n); ok && len(data) <= 8<<10 {
			files = append(files, file{n, data})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return len(files[i].data) < len(files[j].data) })
	var out []model.Example
	for i := 0; i < len(files) && i < 10; i++ {
		lang := "js"
		if strings.Contains(path.Ext(files[i].name), "ts") {
			lang = "ts"
		}
		out = append(out, model.Example{Name: files[i].name, Code: string(files[i].data), Lang: lang})
	}
	return out
}

// typesEntry finds the declaration entry point: the "types" condition of
// exports["."], then types/typings, then index.d.ts, then main's .d.ts.
func typesEntry(tree *archive.Tree, types, typings, main string, exports json.RawMessage) (entry string, fromExports bool) {
	has := func(p string) bool { _, ok := tree.Get(p); return ok }
	clean := func(p string) string { return strings.TrimPrefix(path.Clean(p), "./") }
	if len(exports) > 0 {
		var root any
		if json.Unmarshal(exports, &root) == nil {
			if m, ok := root.(map[string]any); ok {
				if dot, ok := m["."]; ok {
					root = dot
				}
			}
			// Its "types", else the declaration file beside its
			// JavaScript target (subpath.go).
			if d := targetDeclaration(tree, root); d != "" {
				return d, true
			}
		}
	}
	for _, p := range []string{types, typings} {
		if p != "" {
			p = clean(p)
			if has(p) {
				return p, false
			}
			if has(p + ".d.ts") {
				return p + ".d.ts", false
			}
		}
	}
	if has("index.d.ts") {
		return "index.d.ts", false
	}
	if main != "" {
		m := clean(main)
		for _, d := range []string{declarationFor(m), strings.TrimSuffix(m, path.Ext(m)) + ".d.ts"} {
			if d != "" && has(d) {
				return d, false
			}
		}
	}
	return "", false
}

// declarationFor returns the declaration file TypeScript looks for beside
// a JavaScript file (x.js: x.d.ts, x.mjs: x.d.mts, x.cjs: x.d.cts), or ""
// for a path that is not one.
func declarationFor(js string) string {
	for _, ext := range []struct{ js, dts string }{{".js", ".d.ts"}, {".mjs", ".d.mts"}, {".cjs", ".d.cts"}, {".jsx", ".d.ts"}} {
		if base, ok := strings.CutSuffix(js, ext.js); ok && base != "" {
			return base + ext.dts
		}
	}
	return ""
}

// findTarget returns the JavaScript file an exports value resolves to,
// with the conditions findTypes prefers.
func findTarget(v any, depth int) string {
	if depth > 6 {
		return ""
	}
	switch v := v.(type) {
	case string:
		if declarationFor(v) != "" {
			return v
		}
	case map[string]any:
		for _, k := range []string{"import", "default", "node", "require"} {
			if sub, ok := v[k]; ok {
				if s := findTarget(sub, depth+1); s != "" {
					return s
				}
			}
		}
	case []any: // fallbacks: the first that resolves
		for _, sub := range v {
			if s := findTarget(sub, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

// findTypes looks for a "types" condition in an exports value, preferring
// import, then default, node and require branches.
func findTypes(v any, depth int) string {
	if depth > 6 {
		return ""
	}
	switch v := v.(type) {
	case string:
		if strings.HasSuffix(v, ".d.ts") || strings.HasSuffix(v, ".d.cts") || strings.HasSuffix(v, ".d.mts") {
			return v
		}
	case map[string]any:
		// "types@>=5.5": a types condition for some TypeScript versions,
		// listed before the plain one, which then serves older compilers.
		var ranged []string
		for k := range v {
			if r, ok := strings.CutPrefix(k, "types@"); ok {
				if c, err := semver.NewConstraint(r); err == nil && c.Check(typeScriptVersion) {
					ranged = append(ranged, k)
				}
			}
		}
		sort.Strings(ranged)
		for _, k := range ranged {
			if s := findTypes(v[k], depth+1); s != "" {
				return s
			}
		}
		if t, ok := v["types"]; ok {
			if s := findTypes(t, depth+1); s != "" {
				return s
			}
		}
		for _, k := range []string{"import", "default", "node", "require"} {
			if sub, ok := v[k]; ok {
				if s := findTypes(sub, depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}
