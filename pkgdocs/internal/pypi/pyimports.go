package pypi

import (
	"regexp"
	"strings"
)

var (
	fromImportRE = regexp.MustCompile(`^from\s+(\.*(?:[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)?)\s+import\s+(.+)$`)
	importRE     = regexp.MustCompile(`^import\s+(.+)$`)
	identRE      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	dottedRE     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	tableRE      = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]+)?=\s*(?:dict\()?\{(.*)\}\)?$`)
	getattrIfRE  = regexp.MustCompile(`^(?:el)?if\s+[A-Za-z_][A-Za-z0-9_]*\s*==\s*(?:'([A-Za-z_][A-Za-z0-9_]*)'|"([A-Za-z_][A-Za-z0-9_]*)")\s*:`)
	getattrInRE  = regexp.MustCompile(`^(?:el)?if\s+[A-Za-z_][A-Za-z0-9_]*\s+in\s+([\[({].*[\])}])\s*:`)
)

// controlKeywords start compound statements: "else: x = 1" is no variable.
var controlKeywords = map[string]bool{
	"if": true, "elif": true, "else": true, "try": true, "except": true, "finally": true, "with": true,
	"while": true, "for": true, "match": true, "case": true, "lambda": true, "async": true, "not": true,
}

// parseImport reads "from m import a, b as c", "from m import (a, b)",
// "from m import *" and "import a.b as c, d".
func parseImport(text string) ([]PyImport, bool) {
	if !strings.HasPrefix(text, "from") && !strings.HasPrefix(text, "import") {
		return nil, false
	}
	if sub := fromImportRE.FindStringSubmatch(text); sub != nil {
		mod := strings.Join(strings.Fields(sub[1]), "")
		names := strings.TrimSpace(sub[2])
		names = strings.TrimSuffix(strings.TrimPrefix(names, "("), ")")
		var out []PyImport
		for _, part := range strings.Split(names, ",") {
			f := strings.Fields(part)
			switch {
			case len(f) == 1 && f[0] == "*":
				out = append(out, PyImport{Module: mod, Name: "*"})
			case len(f) == 1 && identRE.MatchString(f[0]):
				out = append(out, PyImport{Module: mod, Name: f[0], As: f[0]})
			case len(f) == 3 && f[1] == "as" && identRE.MatchString(f[0]) && identRE.MatchString(f[2]):
				out = append(out, PyImport{Module: mod, Name: f[0], As: f[2], Reexport: f[0] == f[2]})
			}
		}
		return out, true
	}
	if sub := importRE.FindStringSubmatch(text); sub != nil {
		var out []PyImport
		for _, part := range strings.Split(sub[1], ",") {
			f := strings.Fields(part)
			switch {
			case len(f) == 1 && dottedRE.MatchString(f[0]):
				top, _, _ := strings.Cut(f[0], ".")
				out = append(out, PyImport{Module: top, As: top})
			case len(f) == 3 && f[1] == "as" && dottedRE.MatchString(f[0]) && identRE.MatchString(f[2]):
				out = append(out, PyImport{Module: f[0], As: f[2]})
			}
		}
		return out, true
	}
	return nil, false
}

// lazyScan collects what a module-level __getattr__ may provide: import
// tables (dict literals of the module) and "if name == 'X': from m import
// Y" branches of its body. Tables count only when the module has a
// __getattr__.
type lazyScan struct {
	hasGetattr bool
	tables     []PyImport
	branches   []PyImport
	pending    string          // the name the current __getattr__ branch provides
	pendingIn  map[string]bool // the names an "if name in (...)" branch provides
	dynamicAll bool            // __all__ is built from other modules' __all__
}

// maxLazy bounds the lazy names read from one module.
const maxLazy = 2000

// table reads a dict literal that may map names to the modules they are
// imported from: {'Name': 'pkg.mod'}, {'Name': (package, '.mod')},
// {'Name': ('.mod', 'Attr')}, {'name': (package, '__module__')} (a
// submodule), or {'mod': ['Name', ...]} (lazy_loader's submod_attrs).
func (z *lazyScan) table(text string) {
	if !strings.Contains(text, "{") {
		return
	}
	sub := tableRE.FindStringSubmatch(text)
	if sub == nil {
		return
	}
	for _, entry := range splitTopLevel(sub[2], ',') {
		kv := splitTopLevel(entry, ':')
		if len(kv) != 2 || len(z.tables) >= maxLazy {
			continue
		}
		keys := stringLiterals(kv[0])
		if len(keys) != 1 || strings.TrimSpace(kv[0])[0] != '\'' && strings.TrimSpace(kv[0])[0] != '"' {
			continue
		}
		key, value := keys[0], strings.TrimSpace(kv[1])
		lits := stringLiterals(value)
		if strings.HasPrefix(value, "[") && isModulePath(key) {
			for _, n := range lits {
				if identRE.MatchString(n) {
					z.tables = append(z.tables, PyImport{Module: relativeIfBare(key), Name: n, As: n})
				}
			}
			continue
		}
		if !identRE.MatchString(key) {
			continue
		}
		if mod, attr := tableEntry(key, lits); mod != "" {
			z.tables = append(z.tables, PyImport{Module: mod, Name: attr, As: key})
		}
	}
}

// tableEntry reads the string literals of one lazy-table value: a module
// path ('pkg.mod', '.mod', a bare 'mod' taken as a sibling), a package
// and a module relative to it as importlib.import_module takes them
// (('pydantic_core', '.'), (__spec__.parent, '.main'), where only '.main'
// is a literal), '__module__' for a submodule named like the key, and an
// attribute name after the module when it differs from the key.
func tableEntry(key string, lits []string) (mod, attr string) {
	attr = key
	for i, l := range lits {
		switch {
		case l == "__module__":
			return ".", key
		case mod == "" && isModulePath(l):
			mod = l
			if i+1 < len(lits) && strings.HasPrefix(lits[i+1], ".") && !strings.HasPrefix(l, ".") {
				// (package, relative module)
				if rel := strings.TrimPrefix(lits[i+1], "."); rel != "" {
					mod = l + "." + rel
				}
				return mod, attr
			}
		case mod != "" && identRE.MatchString(l):
			attr = l
		}
	}
	if mod == "" {
		return "", ""
	}
	return relativeIfBare(mod), attr
}

// relativeIfBare keeps a module path as written; a bare name with no dots
// ("main") is taken as a sibling module (".main"), as lazy tables mean it.
func relativeIfBare(mod string) string {
	if !strings.Contains(mod, ".") {
		return "." + mod
	}
	return mod
}

// isModulePath reports a relative or dotted module path.
func isModulePath(s string) bool {
	rest := strings.TrimLeft(s, ".")
	if rest == "" {
		return s != ""
	}
	return dottedRE.MatchString(rest)
}

// getattrLine reads one line of a module-level __getattr__ body: "if
// name == 'X':" (or "in ('X', 'Y')") followed by the import of what it
// returns.
func (z *lazyScan) getattrLine(text string) {
	if !strings.HasPrefix(text, "if") && !strings.HasPrefix(text, "elif") && !strings.HasPrefix(text, "from") && !strings.HasPrefix(text, "import") {
		return
	}
	if sub := getattrIfRE.FindStringSubmatch(text); sub != nil {
		z.pending, z.pendingIn = sub[1]+sub[2], nil
		return
	}
	if sub := getattrInRE.FindStringSubmatch(text); sub != nil {
		z.pending, z.pendingIn = "", map[string]bool{}
		for _, n := range stringLiterals(sub[1]) {
			z.pendingIn[n] = true
		}
		return
	}
	imps, ok := parseImport(text)
	if !ok {
		return
	}
	for _, im := range imps {
		if im.Name == "" || im.Name == "*" || len(z.branches) >= maxLazy {
			continue
		}
		switch {
		case z.pending != "":
			z.branches = append(z.branches, PyImport{Module: im.Module, Name: im.Name, As: z.pending})
			z.pending = ""
			return
		case z.pendingIn[im.As]:
			z.branches = append(z.branches, PyImport{Module: im.Module, Name: im.Name, As: im.As})
		}
	}
}

// result returns the lazy names, or nil when the module has no
// __getattr__ to provide them.
func (z *lazyScan) result() []PyImport {
	if !z.hasGetattr {
		return nil
	}
	return append(z.tables, z.branches...)
}

// splitTopLevel splits s at sep outside brackets and strings.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '"':
			i = skipPyString(s, i, "") - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
