package npm

import (
	"regexp"
	"strings"
)

// jsFile is what pkgdocs reads from one JavaScript source file: the
// declarations that carry a JSDoc comment, the files of the same package it
// loads, and how it exports what it declares. Nothing in it is evaluated.
type jsFile struct {
	decls    []jsDecl
	requires []string          // relative specifiers of require() and import/export … from, in order
	exported map[string]bool   // identifiers the module exports (module.exports = x, exports.y = x, export)
	assigned map[string]string // identifier -> "obj.prop" it is assigned to (createDebug.enable = enable)
}

// jsDecl is one declaration directly below a JSDoc comment.
type jsDecl struct {
	targets  []string // names as written, main one first ("res.set", "res.header"); one for declarations
	params   string   // the parameter list with its parentheses, "" when not callable
	kind     string   // function, method, class, property
	doc      string   // the comment, /** */ included
	exported bool     // written with export, exports.x or module.exports.x
}

// Bounds of the JavaScript scanner.
const (
	maxJSDecls     = 2000 // declarations kept per file
	maxJSHead      = 512  // bytes after a comment looked at for its declaration
	maxJSParams    = 300  // bytes of a parameter list
	maxJSDocLength = 8 << 10
)

var (
	jsIdent      = `[A-Za-z_$][\w$]*`
	jsFuncRE     = regexp.MustCompile(`^(export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(` + jsIdent + `)\s*\(`)
	jsClassRE    = regexp.MustCompile(`^(export\s+)?(?:default\s+)?class\s+(` + jsIdent + `)`)
	jsVarRE      = regexp.MustCompile(`^(export\s+)?(?:const|let|var)\s+(` + jsIdent + `)\s*=\s*`)
	jsTargetRE   = regexp.MustCompile(`^(` + jsIdent + `(?:\s*\.\s*` + jsIdent + `)*)\s*=\s*`)
	jsMemberRE   = regexp.MustCompile(`^(?:static\s+)?(?:async\s+)?((?:get|set)\s+)?\*?\s*(` + jsIdent + `)\s*\(`)
	jsFieldRE    = regexp.MustCompile(`^(?:static\s+)?(` + jsIdent + `)\s*(?:=|;|$)`)
	jsDefPropRE  = regexp.MustCompile(`^(?:Object\.defineProperty|defineGetter)\(\s*(` + jsIdent + `(?:\.` + jsIdent + `)*)\s*,\s*['"]([\w$]+)['"]`)
	jsFuncValRE  = regexp.MustCompile(`^(?:async\s+)?function\s*\*?\s*(?:` + jsIdent + `)?\s*\(`)
	jsArrowOneRE = regexp.MustCompile(`^(?:async\s+)?(` + jsIdent + `)\s*=>`)
	jsRequireRE  = regexp.MustCompile(`^require\(\s*['"]([^'"\n]+)['"]\s*\)`)
	jsLoadRE     = regexp.MustCompile(`(?:\brequire\(\s*|\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}/[^'"\n]*)['"]`)
	jsModExpRE   = regexp.MustCompile(`^(?:(?:var|let|const)\s+(` + jsIdent + `)\s*=\s*)?(?:exports\s*=\s*)?module\.exports\s*=\s*(?:exports\s*=\s*)?(` + jsIdent + `|require\(\s*['"][^'"\n]+['"]\s*\))?`)
	jsNamedExpRE = regexp.MustCompile(`^(?:module\.)?exports\.(` + jsIdent + `)\s*=\s*(` + jsIdent + `)\s*;?\s*$`)
	jsPropRE     = regexp.MustCompile(`^(` + jsIdent + `)\.(` + jsIdent + `)\s*=\s*(` + jsIdent + `)\s*;?\s*$`)
	jsESMExpRE   = regexp.MustCompile(`^export\s+(?:default\s+(` + jsIdent + `)\s*;?[ \t]*$|\{([^}]*)\})`)
)

// jsKeywords cannot name a class member or be a declaration's value.
var jsKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true,
	"return": true, "with": true, "do": true, "else": true, "try": true, "throw": true, "new": true, "typeof": true}

// regexKeywords are the words after which a '/' starts a regular
// expression rather than a division.
var regexKeywords = map[string]bool{"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true,
	"of": true, "new": true, "delete": true, "void": true, "throw": true, "yield": true, "await": true, "instanceof": true}

// scanJS reads one JavaScript file. It skips strings, template literals,
// regular expression literals and comments, tracks braces to know when it is
// inside a class body, and reads the declaration below each JSDoc comment.
func scanJS(src string) *jsFile {
	f := &jsFile{exported: map[string]bool{}, assigned: map[string]string{}}
	f.moduleExports(src)
	type class struct {
		name  string
		depth int
	}
	var classes []class
	pendingClass, wantClass := "", false
	depth := 0
	last, lastWord := byte(0), "" // last significant byte; the word it ended, if any
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(src)
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := len(src)
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				end = i + 2 + j + 2
			}
			if strings.HasPrefix(src[i:], "/**") && !strings.HasPrefix(src[i:], "/**/") && len(f.decls) < maxJSDecls {
				owner := ""
				if n := len(classes); n > 0 && classes[n-1].depth == depth {
					owner = classes[n-1].name
				}
				f.declAfter(src[i:end], src[end:], owner)
			}
			i = end
			continue
		case c == '\'' || c == '"':
			i, last, lastWord = skipString(src, i), 'a', ""
			continue
		case c == '`':
			i, last, lastWord = skipTemplate(src, i), 'a', ""
			continue
		case c == '/' && regexAllowed(last, lastWord):
			i, last, lastWord = skipRegex(src, i), 'a', ""
			continue
		case c == '{':
			depth++
			if wantClass {
				classes = append(classes, class{pendingClass, depth})
				wantClass = false
			}
		case c == '}':
			if n := len(classes); n > 0 && classes[n-1].depth == depth {
				classes = classes[:n-1]
			}
			depth = max(depth-1, 0)
		case isJSIdentByte(c):
			j := i
			for j < len(src) && isJSIdentByte(src[j]) {
				j++
			}
			word := src[i:j]
			switch {
			case word == "class" && last != '.':
				wantClass, pendingClass = true, ""
			case wantClass && pendingClass == "" && lastWord == "class" && word != "extends":
				pendingClass = word
			}
			i, last, lastWord = j, 'a', word
			continue
		}
		if !isSpace(c) {
			if wantClass && lastWord == "class" && c != '{' {
				wantClass = false // a property named class ({class: x}, el.class)
			}
			last, lastWord = c, ""
		}
		i++
	}
	return f
}

func isJSIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// regexAllowed reports whether a '/' after the last significant byte (and
// the word it ended) starts a regular expression literal.
func regexAllowed(last byte, word string) bool {
	switch last {
	case 0, '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^':
		return true
	case 'a':
		return regexKeywords[word]
	}
	return false
}

// skipRegex returns the index just past the regular expression literal
// starting at src[i], its flags included; a line break ends it early.
func skipRegex(src string, i int) int {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
		case c == '\n':
			return j
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			j++
			for j < len(src) && isJSIdentByte(src[j]) {
				j++
			}
			return j
		}
	}
	return len(src)
}

// moduleExports records what the file exports and loads, from the
// statements that say so (whether or not they carry a comment). It looks
// at one line at a time, and runs a pattern only on the lines holding its
// literal text.
func (f *jsFile) moduleExports(src string) {
	for len(src) > 0 {
		line := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		t := strings.TrimLeft(line, " \t")
		if len(t) > 1000 {
			t = t[:1000] // minified code: its JSDoc is gone anyway
		}
		if len(f.requires) < 200 && (strings.Contains(t, "require(") || strings.Contains(t, "from") || strings.Contains(t, "import")) {
			for _, m := range jsLoadRE.FindAllStringSubmatch(t, 20) {
				f.requires = append(f.requires, m[1])
			}
		}
		switch {
		case strings.HasPrefix(t, "exports.") || strings.HasPrefix(t, "module.exports."):
			if m := jsNamedExpRE.FindStringSubmatch(t); m != nil {
				f.exported[m[2]] = true
			}
		case strings.HasPrefix(t, "export ") || strings.HasPrefix(t, "export{") || strings.HasPrefix(t, "export\t"):
			f.esmExports(t)
		case strings.Contains(t, "module.exports"):
			if m := jsModExpRE.FindStringSubmatch(t); m != nil {
				if m[1] != "" {
					f.exported[m[1]] = true // var app = exports = module.exports = {}
				}
				if m[2] != "" && !strings.HasPrefix(m[2], "require(") {
					f.exported[m[2]] = true
				}
			}
		case strings.IndexByte(t, '=') > 0 && strings.IndexByte(t, '.') > 0 && len(f.assigned) < 500:
			if m := jsPropRE.FindStringSubmatch(t); m != nil && m[1] != "exports" && m[1] != "module" && m[3] != m[1] {
				if _, dup := f.assigned[m[3]]; !dup {
					f.assigned[m[3]] = m[1] + "." + m[2] // createDebug.enable = enable
				}
			}
		}
	}
}

// esmExports records "export default x" and "export { a, b as c }".
func (f *jsFile) esmExports(t string) {
	m := jsESMExpRE.FindStringSubmatch(t)
	if m == nil {
		return
	}
	if m[1] != "" {
		f.exported[m[1]] = true
	}
	for _, part := range strings.Split(m[2], ",") {
		if name, _, _ := strings.Cut(strings.TrimSpace(part), " "); name != "" {
			f.exported[name] = true
		}
	}
}

// declAfter reads the declaration that follows a JSDoc comment; owner is
// the class whose body the comment is in, if any.
func (f *jsFile) declAfter(doc, rest, owner string) {
	if len(doc) > maxJSDocLength {
		return
	}
	rest = skipBlankAndLineComments(rest)
	head := rest[:min(len(rest), maxJSHead)]
	d := jsDecl{doc: doc}
	switch {
	case owner != "":
		if m := jsMemberRE.FindStringSubmatch(head); m != nil && !jsKeywords[m[2]] {
			d.targets, d.kind, d.params = []string{owner + "." + m[2]}, "method", params(head, len(m[0])-1)
			if m[1] != "" {
				d.kind, d.params = "property", "" // a getter or setter: read and written as a property
			}
		} else if m := jsFieldRE.FindStringSubmatch(head); m != nil && !jsKeywords[m[1]] {
			d.targets, d.kind = []string{owner + "." + m[1]}, "property"
		}
	case jsFuncRE.MatchString(head):
		m := jsFuncRE.FindStringSubmatch(head)
		d.targets, d.kind, d.params, d.exported = []string{m[2]}, "function", params(head, len(m[0])-1), m[1] != ""
	case jsClassRE.MatchString(head):
		m := jsClassRE.FindStringSubmatch(head)
		d.targets, d.kind, d.exported = []string{m[2]}, "class", m[1] != ""
	case jsVarRE.MatchString(head):
		m := jsVarRE.FindStringSubmatch(head)
		d.targets, d.exported = []string{m[2]}, m[1] != ""
		d.value(head[len(m[0]):])
	case jsDefPropRE.MatchString(head):
		m := jsDefPropRE.FindStringSubmatch(head)
		d.targets, d.kind = []string{m[1] + "." + m[2]}, "property"
	default:
		v := head
		for len(d.targets) < 4 {
			m := jsTargetRE.FindStringSubmatch(v)
			if m == nil || strings.HasPrefix(v[len(m[0]):], "=") || strings.HasPrefix(v[len(m[0]):], ">") {
				break
			}
			d.targets = append(d.targets, strings.Join(strings.Fields(m[1]), ""))
			v = v[len(m[0]):]
		}
		if len(d.targets) == 0 {
			return
		}
		d.value(v)
	}
	if len(d.targets) > 0 {
		f.decls = append(f.decls, d)
	}
}

// value reads what a declaration is assigned: a function (with its
// parameters), a require() of another file, or anything else (a property).
func (d *jsDecl) value(v string) {
	switch {
	case jsFuncValRE.MatchString(v):
		d.kind, d.params = "function", params(v, len(jsFuncValRE.FindString(v))-1)
	case jsArrowOneRE.MatchString(v):
		m := jsArrowOneRE.FindStringSubmatch(v)
		d.kind, d.params = "function", "("+m[1]+")"
	case jsRequireRE.MatchString(v):
		d.kind = "property" // exports.json = require("./json"): completed by json's own comment
	case strings.HasPrefix(strings.TrimPrefix(v, "async "), "("):
		open := len(v) - len(strings.TrimPrefix(v, "async "))
		p := params(v, open)
		if after := strings.TrimLeft(v[min(open+len(p), len(v)):], " \t\r\n"); p != "" && strings.HasPrefix(after, "=>") {
			d.kind, d.params = "function", p
			return
		}
		d.kind = "property"
	case strings.HasPrefix(v, "class"):
		d.kind = "class"
	default:
		d.kind = "property"
	}
}

// params returns the balanced parameter list opening at s[open] ('('),
// whitespace collapsed, or "" when it does not close within the bound.
func params(s string, open int) string {
	if open < 0 || open >= len(s) || s[open] != '(' {
		return ""
	}
	depth := 0
	for j := open; j < len(s) && j-open < maxJSParams; j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return strings.Join(strings.Fields(s[open:j+1]), " ")
			}
		case '\'', '"':
			j = skipString(s, j) - 1
		case '`':
			j = skipTemplate(s, j) - 1
		}
	}
	return ""
}

// skipBlankAndLineComments skips white space and // comments (a lint
// directive between a comment and its declaration).
func skipBlankAndLineComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, "//") {
			return s
		}
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i:]
		} else {
			return ""
		}
	}
}
