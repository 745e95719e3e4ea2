package pypi

import (
	"regexp"
	"strings"
)

// PyModule is what ScanPython finds in one module (.py or .pyi): its
// docstring, public definitions and __all__, read without running Python.
type PyModule struct {
	Doc  string
	Defs []PyDef
	All  []string // names in a literal __all__; nil when the module has none or builds it from other modules
	// Imports are the module-level imports and simple aliases ("X = Y",
	// Module ""), in source order, conditional ones included.
	Imports []PyImport
	// Lazy are the names a module __getattr__ provides: entries of an
	// import table it reads (pydantic's _dynamic_imports) and the
	// "if name == 'X': from m import Y" branches of its body.
	Lazy []PyImport
}

// PyImport is one name a module binds from elsewhere: "from Module
// import Name as As". Name is "*" for a star import and "" for "import
// Module as As"; Module is "" for an alias of one of the module's own
// names ("As = Name").
type PyImport struct {
	Module string
	Name   string
	As     string
	// Reexport marks "from m import x as x", the explicit re-export form
	// type checkers honour.
	Reexport bool
}

// PyDef is one definition. Name is qualified within the module
// ("Session", "Session.get"). Top-level names starting with "_" are kept
// (a package may re-export them or inherit from them); readers drop them.
type PyDef struct {
	Name      string
	Kind      string // function, class, method, property, const, var, assign (a plain module assignment)
	Signature string
	Doc       string
}

// logicalLine is one Python logical line: physical lines joined across
// brackets, backslashes and multi-line strings; comments removed.
type logicalLine struct {
	indent int
	text   string
}

// maxDefs bounds the definitions read from one module.
const maxDefs = 1000

// ScanPython reads the top-level functions and classes of a module, the
// methods, properties and annotated attributes of its public classes, its
// ALL_CAPS constants, docstrings, and __all__. Names starting with "_" are
// private, except __init__ and __call__.
func ScanPython(src []byte) *PyModule {
	lines := logicalLines(string(src))
	m := &PyModule{}
	var stack []scanFrame
	var decorators []string
	index := map[string]int{} // qualified name -> Defs index, for overloads
	var lazy lazyScan
	for i, l := range lines {
		for len(stack) > 0 && stack[len(stack)-1].indent >= l.indent {
			stack = stack[:len(stack)-1]
		}
		if i == 0 && l.indent == 0 && isStringLiteral(l.text) {
			m.Doc = docstring(l.text)
			continue
		}
		var top *scanFrame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		text := l.text
		if strings.HasPrefix(text, "@") {
			decorators = append(decorators, strings.TrimSpace(text[1:]))
			continue
		}
		decos := decorators
		decorators = nil
		kw, name, rest := defHeader(text)
		if kw == "" {
			m.statement(top, text, index, &lazy)
			continue
		}
		qual := name
		visible := isPublicName(name) || kw != "class" && (name == "__init__" || name == "__call__")
		switch {
		case top == nil:
			visible = true // private ones too: see PyDef
		case top.class:
			qual = top.name + "." + name
			visible = visible && top.public
		default:
			visible = false // nested in a function
		}
		if kw == "class" {
			stack = append(stack, scanFrame{indent: l.indent, class: true, name: qual, public: visible})
		} else {
			f := scanFrame{indent: l.indent, getattr: top == nil && name == "__getattr__"}
			if top != nil && top.class && top.public && name == "__init__" {
				f.initOf = top.name
			}
			stack = append(stack, f)
			if top == nil && name == "__getattr__" {
				lazy.hasGetattr = true
			}
		}
		if !visible || len(m.Defs) >= maxDefs {
			continue
		}
		doc := ""
		if body := bodyAfterColon(rest); body != "" {
			if isStringLiteral(body) {
				doc = docstring(body)
			}
		} else if i+1 < len(lines) && lines[i+1].indent > l.indent && isStringLiteral(lines[i+1].text) {
			doc = docstring(lines[i+1].text)
		}
		m.addDef(index, defFor(kw, qual, top != nil && top.class, header(text), decos, doc))
	}
	m.Lazy = lazy.result()
	if lazy.dynamicAll {
		m.All = nil // built from other modules' lists: unknown, the public names stand
	}
	return m
}

// scanFrame is a def or class whose body the scanner is in.
type scanFrame struct {
	indent  int
	class   bool
	name    string // qualified class name
	public  bool
	getattr bool   // the body of a module-level __getattr__
	initOf  string // the class whose __init__ this is
}

// statement reads a line that is not a def or class header, by where it
// is: the module, a module __getattr__, a class's __init__, a class body.
func (m *PyModule) statement(top *scanFrame, text string, index map[string]int, lazy *lazyScan) {
	switch {
	case top == nil:
		m.moduleStatement(text, lazy)
	case top.getattr:
		lazy.getattrLine(text)
	case len(m.Defs) >= maxDefs:
	case top.initOf != "":
		m.instanceAttribute(index, top.initOf, text)
	case top.class && top.public:
		m.classAttribute(top.name, text)
	}
}

// defFor builds the definition of a def or class header.
func defFor(kw, qual string, inClass bool, sig string, decos []string, doc string) PyDef {
	d := PyDef{Name: qual, Signature: sig, Doc: doc}
	switch {
	case kw == "class":
		d.Kind = "class"
	case inClass:
		d.Kind = "method"
	default:
		d.Kind = "function"
	}
	for _, dec := range decos {
		switch name, _, _ := strings.Cut(dec, "("); name {
		case "property", "functools.cached_property", "cached_property":
			d.Kind = "property"
			d.Signature = "@" + name + " " + d.Signature
		case "classmethod", "staticmethod", "abstractmethod", "abc.abstractmethod":
			d.Signature = "@" + name + " " + d.Signature
		case "overload", "typing.overload", "typing_extensions.overload":
			d.Kind += "+overload"
		default:
			if strings.HasSuffix(name, ".setter") || strings.HasSuffix(name, ".deleter") {
				d.Kind = "skip"
			}
		}
	}
	return d
}

// addDef records d, folding overloads into one definition with one
// signature per line and skipping redefinitions (setters, if/else twins).
func (m *PyModule) addDef(index map[string]int, d PyDef) {
	if d.Kind == "skip" {
		return
	}
	overload := strings.HasSuffix(d.Kind, "+overload")
	d.Kind = strings.TrimSuffix(d.Kind, "+overload")
	if at, ok := index[d.Name]; ok {
		prev := &m.Defs[at]
		if overload && strings.Count(prev.Signature, "\n") < 5 {
			prev.Signature += "\n" + d.Signature
		}
		if prev.Doc == "" {
			prev.Doc = d.Doc
		}
		return
	}
	index[d.Name] = len(m.Defs)
	m.Defs = append(m.Defs, d)
}

var (
	constRE    = regexp.MustCompile(`^([A-Z][A-Z0-9_]*)\s*(:[^=]+)?=`)
	attrRE     = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)\s*:\s*[^=]`)
	selfAttrRE = regexp.MustCompile(`^self\.([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([^=]+))?=([^=].*)$`)
	allStartRE = regexp.MustCompile(`^__all__\s*(\+=|=|:[^=]*=|\.extend\()`)
	defRE      = regexp.MustCompile(`^(async\s+def|def|class)\s+([A-Za-z_][A-Za-z0-9_]*)`)
	aliasRE    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$`)
	// assignRE is a plain module assignment ("gettz = __get_gettz()"),
	// exported only when __all__ or a star import names it.
	assignRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*=[^=]`)
	// moduleVarRE is an annotated module variable: "request: Request = ...".
	moduleVarRE = regexp.MustCompile(`^([a-z][A-Za-z0-9_]*)\s*:\s*[^=]+=`)
)

var pyKeywords = map[string]bool{"None": true, "True": true, "False": true, "NotImplemented": true, "Ellipsis": true}

// moduleStatement reads __all__, imports, aliases, annotated variables,
// ALL_CAPS constants and dict literals that may be lazy-import tables.
func (m *PyModule) moduleStatement(text string, lazy *lazyScan) {
	if imps, ok := parseImport(text); ok {
		m.Imports = append(m.Imports, imps...)
		return
	}
	if allStartRE.MatchString(text) {
		if m.All == nil {
			m.All = []string{}
		}
		m.All = append(m.All, stringLiterals(text)...)
		if strings.Contains(text[len("__all__"):], "__all__") {
			lazy.dynamicAll = true // "__all__ = other.__all__": not a literal list
		}
		return
	}
	if !strings.ContainsRune(text, '=') {
		return // every other form assigns
	}
	if sub := constRE.FindStringSubmatch(text); sub != nil && len(m.Defs) < maxDefs {
		m.Defs = append(m.Defs, PyDef{Name: sub[1], Kind: "const", Signature: clip(text, 120)})
		return
	}
	if sub := aliasRE.FindStringSubmatch(text); sub != nil && !pyKeywords[sub[2]] {
		m.Imports = append(m.Imports, PyImport{Name: sub[2], As: sub[1]})
		return
	}
	if sub := moduleVarRE.FindStringSubmatch(text); sub != nil && isPublicName(sub[1]) && !controlKeywords[sub[1]] && len(m.Defs) < maxDefs {
		m.Defs = append(m.Defs, PyDef{Name: sub[1], Kind: "var", Signature: clip(text, 120)})
		return
	}
	lazy.table(text)
	if sub := assignRE.FindStringSubmatch(text); sub != nil && isPublicName(sub[1]) && !controlKeywords[sub[1]] && len(m.Defs) < maxDefs {
		m.Defs = append(m.Defs, PyDef{Name: sub[1], Kind: "assign", Signature: clip(text, 120)})
	}
}

// classAttribute records an annotated class attribute (dataclass fields,
// model fields: "name: type = default") or an ALL_CAPS class constant
// (enum members).
func (m *PyModule) classAttribute(class, text string) {
	sub := attrRE.FindStringSubmatch(text)
	if sub == nil {
		sub = constRE.FindStringSubmatch(text) // RED = 1: an enum member or class constant
	}
	if sub == nil || !isPublicName(sub[1]) {
		return
	}
	m.Defs = append(m.Defs, PyDef{Name: class + "." + sub[1], Kind: "property", Signature: clip(text, 120)})
}

// instanceAttribute records a public attribute a class's __init__ sets
// ("self.config = self.make_config()"), unless the class declares it.
func (m *PyModule) instanceAttribute(index map[string]int, class, text string) {
	sub := selfAttrRE.FindStringSubmatch(text)
	if sub == nil || !isPublicName(sub[1]) {
		return
	}
	name := class + "." + sub[1]
	if _, ok := index[name]; ok {
		return
	}
	sig := sub[1] + " = " + strings.TrimSpace(sub[3])
	if t := strings.TrimSpace(sub[2]); t != "" {
		sig = sub[1] + ": " + t
	}
	index[name] = len(m.Defs)
	m.Defs = append(m.Defs, PyDef{Name: name, Kind: "property", Signature: clip(sig, 120)})
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + " …"
}

func isPublicName(name string) bool { return name != "" && name[0] != '_' }

// defHeader recognises "def", "async def" and "class" lines.
func defHeader(text string) (kw, name, rest string) {
	if !strings.HasPrefix(text, "def") && !strings.HasPrefix(text, "class") && !strings.HasPrefix(text, "async") {
		return "", "", ""
	}
	sub := defRE.FindStringSubmatchIndex(text)
	if sub == nil {
		return "", "", ""
	}
	kw = text[sub[2]:sub[3]]
	if strings.HasPrefix(kw, "async") {
		kw = "def"
	}
	return kw, text[sub[4]:sub[5]], text[sub[5]:]
}

// headerSpaces drops the spaces that joining a multi-line header leaves
// inside brackets.
var headerSpaces = strings.NewReplacer("( ", "(", " )", ")", ", )", ")", "[ ", "[", " ]", "]")

// header returns a def or class line up to the colon that opens its body,
// whitespace collapsed.
func header(text string) string {
	end := headerColon(text)
	h := strings.Join(strings.Fields(text[:end]), " ")
	return headerSpaces.Replace(h)
}

// headerColon finds the colon ending a def/class header: the first ':' at
// bracket depth 0 outside strings.
func headerColon(text string) int {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\'' || c == '"':
			i = skipPyString(text, i, "") - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ':' && depth == 0:
			return i
		}
	}
	return len(text)
}

// bodyAfterColon returns a one-line body ("def f(): return 1"), or "".
func bodyAfterColon(rest string) string {
	i := headerColon(rest)
	if i >= len(rest) {
		return ""
	}
	return strings.TrimSpace(rest[i+1:])
}

// stringLiterals returns the contents of the simple string literals in s.
func stringLiterals(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\'' || c == '"' {
			end := skipPyString(s, i, "")
			out = append(out, stringBody(s[i:end]))
			i = end - 1
		}
	}
	return out
}

// isStringLiteral reports whether a logical line is only a string literal
// (a docstring), possibly prefixed (r, u, R, U).
func isStringLiteral(text string) bool {
	t := strings.TrimLeft(text, "rRuU")
	if len(text)-len(t) > 1 || t == "" || (t[0] != '\'' && t[0] != '"') {
		return false
	}
	return skipPyString(t, 0, "") == len(strings.TrimRight(t, " \t"))
}

// docstring returns a docstring's text, cleaned like inspect.cleandoc.
func docstring(lit string) string {
	body := stringBody(strings.TrimLeft(lit, "rRuU"))
	lines := strings.Split(strings.ReplaceAll(body, "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if indent > 0 && len(lines[i]) >= indent {
			lines[i] = lines[i][indent:]
		} else {
			lines[i] = strings.TrimLeft(lines[i], " ")
		}
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// stringBody strips the quotes of a string literal (prefix already gone).
func stringBody(lit string) string {
	lit = strings.TrimRight(lit, " \t")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(lit, q) {
			body := strings.TrimPrefix(lit, q)
			return strings.TrimSuffix(body, q)
		}
	}
	return lit
}

// skipPyString returns the index after the string literal whose opening
// quote is at i. prefix holds its prefix letters (for raw strings and
// f-strings, whose {expressions} may hold quotes of their own).
func skipPyString(src string, i int, prefix string) int {
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], q+q+q) {
		q = q + q + q
	}
	fstr := strings.ContainsAny(prefix, "fF")
	stops := "\\\n" + q[:1]
	if fstr {
		stops += "{"
	}
	j := i + len(q)
	for j < len(src) {
		k := strings.IndexAny(src[j:], stops)
		if k < 0 {
			return len(src)
		}
		j += k
		switch c := src[j]; {
		case c == '\\':
			j += 2 // an escape; a raw string still cannot end in an escaped quote
			continue
		case fstr && c == '{' && j+1 < len(src) && src[j+1] == '{':
			j += 2
			continue
		case fstr && c == '{':
			j = skipFExpr(src, j+1)
			continue
		case c == '\n' && len(q) == 1:
			return j // unterminated
		case strings.HasPrefix(src[j:], q):
			return j + len(q)
		}
		j++
	}
	return len(src)
}

// skipFExpr skips an f-string replacement field up to its closing brace.
func skipFExpr(src string, i int) int {
	depth := 1
	for i < len(src) {
		switch c := src[i]; {
		case c == '\'' || c == '"':
			i = skipPyString(src, i, "")
			continue
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(src)
}

// logicalLines splits Python source into logical lines.
func logicalLines(src string) []logicalLine {
	var out []logicalLine
	var b strings.Builder
	depth, indent := 0, 0
	atStart := true
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			out = append(out, logicalLine{indent: indent, text: t})
		}
		b.Reset()
		atStart = true
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if atStart {
			n := 0
			for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') {
				if src[i] == '\t' {
					n = (n/8 + 1) * 8
				} else {
					n++
				}
				i++
			}
			if i >= len(src) {
				break
			}
			indent, atStart, c = n, false, src[i]
		}
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			b.WriteByte(' ')
			i++
			if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
		case c == '\'' || c == '"':
			prefix := stringPrefix(src, i)
			end := skipPyString(src, i, prefix)
			b.WriteString(src[i:end])
			i = end - 1
		case c == '(' || c == '[' || c == '{':
			depth++
			b.WriteByte(c)
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			b.WriteByte(c)
		case c == '\n':
			if depth > 0 {
				b.WriteByte(' ')
			} else {
				flush()
			}
		case c == '\r':
		default:
			// A run of ordinary characters is copied at once.
			end := len(src)
			if k := strings.IndexAny(src[i+1:], lineSpecials); k >= 0 {
				end = i + 1 + k
			}
			b.WriteString(src[i:end])
			i = end - 1
		}
	}
	flush()
	return out
}

// lineSpecials are the characters logicalLines treats apart.
const lineSpecials = "#\\'\"([{)]}\n\r"

// stringPrefix returns the letters (r, b, u, f) directly before a quote.
func stringPrefix(src string, i int) string {
	j := i
	for j > 0 && i-j < 2 && strings.IndexByte("rRbBuUfF", src[j-1]) >= 0 {
		j--
	}
	if j > 0 && (isIdentByte(src[j-1])) {
		return "" // part of an identifier, not a prefix
	}
	return src[j:i]
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
