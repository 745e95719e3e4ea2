package npm

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// SplitSpecifier splits an import specifier into the package it names and
// the subpath after the name: "@scope/pkg/client/index.js" is "@scope/pkg"
// and "client/index.js", "pkg" is "pkg" and "".
func SplitSpecifier(spec string) (name, subpath string) {
	first := strings.IndexByte(spec, '/')
	if first < 0 {
		return spec, ""
	}
	if !strings.HasPrefix(spec, "@") {
		return spec[:first], spec[first+1:]
	}
	second := strings.IndexByte(spec[first+1:], '/')
	if second < 0 {
		return spec, ""
	}
	end := first + 1 + second
	return spec[:end], spec[end+1:]
}

var subpathRE = regexp.MustCompile(`^[A-Za-z0-9._~@+-]+(/[A-Za-z0-9._~@+-]+)*$`)

// validSubpath checks the subpath of an import specifier: path segments of
// the characters package files are named with, none of them "." or "..".
func validSubpath(sub string) error {
	if len(sub) > 512 || !subpathRE.MatchString(sub) {
		return fmt.Errorf("%w: subpath %q", ErrInvalidName, sub)
	}
	for _, seg := range strings.Split(sub, "/") {
		if seg == "." || seg == ".." {
			return fmt.Errorf("%w: subpath %q", ErrInvalidName, sub)
		}
	}
	return nil
}

// exportsMap returns package.json's exports when it maps subpaths ("./x"
// keys), or nil when it names the main entry only (or is absent).
func exportsMap(exports json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(exports, &m) != nil {
		return nil
	}
	for k := range m {
		if strings.HasPrefix(k, ".") {
			return m
		}
	}
	return nil
}

// exportTarget returns the exports value for "./"+sub as Node resolves it:
// the exact key, else the pattern ("./x/*") with the longest prefix, its
// stem substituted into every target. A null target is not exported.
func exportTarget(m map[string]any, sub string) (any, bool) {
	key := "./" + sub
	if v, ok := m[key]; ok {
		return v, v != nil
	}
	best, bestPrefix := "", -1
	for k := range m {
		prefix, suffix, star := strings.Cut(k, "*")
		if !star || strings.Contains(suffix, "*") || !strings.HasPrefix(key, prefix) || !strings.HasSuffix(key, suffix) || len(key) < len(prefix)+len(suffix) {
			continue
		}
		if len(prefix) > bestPrefix || len(prefix) == bestPrefix && k > best {
			best, bestPrefix = k, len(prefix)
		}
	}
	if bestPrefix < 0 || m[best] == nil {
		return nil, false
	}
	prefix, suffix, _ := strings.Cut(best, "*")
	return substituteStem(m[best], key[len(prefix):len(key)-len(suffix)], 0), true
}

// substituteStem replaces * by stem in every string of an exports value.
func substituteStem(v any, stem string, depth int) any {
	if depth > 6 {
		return nil
	}
	switch v := v.(type) {
	case string:
		return strings.ReplaceAll(v, "*", stem)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, sub := range v {
			out[k] = substituteStem(sub, stem, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, sub := range v {
			out[i] = substituteStem(sub, stem, depth+1)
		}
		return out
	}
	return v
}

// targetDeclaration returns the declaration file of an exports target
// that the tree holds: its "types" condition (a pattern's "*.d.ts" with a
// stem that kept its ".js" is read as TypeScript does, without it), else
// the declaration beside its JavaScript file; "" when there is none.
func targetDeclaration(tree *archive.Tree, target any) string {
	clean := func(p string) string { return strings.TrimPrefix(path.Clean(p), "./") }
	if t := findTypes(target, 0); t != "" {
		c := clean(t)
		if tree.Has(c) {
			return c
		}
		for _, ext := range []struct{ js, dts string }{{".js.d.ts", ".d.ts"}, {".mjs.d.mts", ".d.mts"}, {".cjs.d.cts", ".d.cts"}, {".mjs.d.ts", ".d.mts"}, {".cjs.d.ts", ".d.cts"}} {
			if base, ok := strings.CutSuffix(c, ext.js); ok && tree.Has(base+ext.dts) {
				return base + ext.dts
			}
		}
	}
	if t := findTarget(target, 0); t != "" {
		if d := declarationFor(clean(t)); d != "" && tree.Has(d) {
			return d
		}
	}
	return ""
}

// subpathEntry returns the declaration file for the package's subpath sub,
// "" when none is found, or an error wrapping ErrNotFound when the
// package's exports map does not export sub. (Without an exports map any
// file of the package can be imported; the tree holds its declarations
// only, so a missing one says nothing about the module.)
func subpathEntry(tree *archive.Tree, pj packageJSON, sub string) (string, error) {
	if m := exportsMap(pj.Exports); m != nil {
		target, ok := exportTarget(m, sub)
		if !ok {
			msg := fmt.Sprintf("%s does not export ./%s", pj.Name, sub)
			if subs := subpathList(tree, pj); len(subs) > 0 {
				msg += "; its subpaths with declarations are " + strings.Join(subs, ", ")
			}
			return "", fmt.Errorf("%w: %s", ErrNotFound, msg)
		}
		return targetDeclaration(tree, target), nil
	}
	stem := strings.TrimSuffix(sub, path.Ext(sub))
	for _, c := range []string{sub, declarationFor(sub), sub + ".d.ts", stem + ".d.ts", sub + "/index.d.ts"} {
		if c != "" && strings.Contains(c, ".d.") && tree.Has(c) {
			return c, nil
		}
	}
	return "", nil
}

// subpathNote starts the note of a main entry without declarations whose
// subpaths have some; the subpaths follow it.
const subpathNote = "The package's own main entry declares nothing; it exports declarations at these subpaths, each documented when asked for by its import specifier: "

// hasSubpathNote reports that pkg's main entry sends the reader to its
// subpaths, which have declarations: a missing @types package is no news.
func hasSubpathNote(pkg *model.Package) bool {
	for _, n := range pkg.Notes {
		if strings.HasPrefix(n, subpathNote) {
			return true
		}
	}
	return false
}

// maxSubpaths bounds the subpaths subpathList names.
const maxSubpaths = 40

// subpathList returns the specifiers ("name/sub") of the subpaths the
// exports map names exactly (no patterns) whose declarations the tree
// holds, sorted.
func subpathList(tree *archive.Tree, pj packageJSON) []string {
	m := exportsMap(pj.Exports)
	var out []string
	for k, v := range m {
		sub, ok := strings.CutPrefix(k, "./")
		if !ok || strings.Contains(k, "*") || sub == "package.json" || v == nil || validSubpath(sub) != nil {
			continue
		}
		if targetDeclaration(tree, v) != "" {
			out = append(out, pj.Name+"/"+sub)
		}
	}
	sort.Strings(out)
	if len(out) > maxSubpaths {
		out = append(out[:maxSubpaths], "…")
	}
	return out
}
