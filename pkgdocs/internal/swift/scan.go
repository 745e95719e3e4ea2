package swift

import (
	"regexp"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Scanner lists the public and open declarations of Swift source files
// with their /// docs, without compiling them: types (with members named
// Type.member), extensions' members, protocol requirements, enum cases,
// top-level functions, properties and type aliases.
type Scanner struct {
	MaxSymbols int // default 3000
	Symbols    []model.Symbol
}

// scope is the body being scanned: a file, a type, a protocol or an
// extension.
type scope struct {
	owner         string // qualified type name; "" for a file
	visible       bool   // the enclosing declaration is public
	defaultPublic bool   // members are public unless marked otherwise (protocols, public extensions)
	enum          bool   // case declarations are members
	protocol      bool
}

// Scan adds the public declarations of one source file.
func (s *Scanner) Scan(src []byte, file string) {
	if s.MaxSymbols <= 0 {
		s.MaxSymbols = 3000
	}
	f := &swiftFile{s: s, src: string(src), toks: lex(string(src)), file: file}
	f.block(0, len(f.toks), scope{visible: true}, 0)
}

// Full reports whether the symbol limit was reached.
func (s *Scanner) Full() bool { return len(s.Symbols) >= s.MaxSymbols }

type swiftFile struct {
	s    *Scanner
	src  string
	toks []token
	file string
}

const maxNesting = 12

var modifiers = map[string]bool{
	"public": true, "open": true, "internal": true, "private": true, "fileprivate": true, "package": true,
	"static": true, "final": true, "override": true, "mutating": true, "nonmutating": true, "convenience": true,
	"required": true, "dynamic": true, "lazy": true, "weak": true, "unowned": true, "optional": true,
	"indirect": true, "nonisolated": true, "distributed": true, "prefix": true, "postfix": true, "infix": true,
	"consuming": true, "borrowing": true, "isolated": true,
}

var declKeywords = map[string]bool{
	"class": true, "struct": true, "enum": true, "protocol": true, "actor": true, "extension": true,
	"func": true, "init": true, "deinit": true, "subscript": true, "macro": true, "var": true, "let": true,
	"typealias": true, "associatedtype": true, "case": true, "import": true, "operator": true, "precedencegroup": true,
}

// head is what precedes a declaration keyword.
type head struct {
	docs       []string
	public     bool // public or open
	restricted bool // private, fileprivate, internal, package
	hidden     bool // @_spi, @_documentation(visibility: ...), unavailable
	deprecated string
	modStart   int // first modifier token, -1 if none
}

// block scans declarations in tokens [i, end).
func (f *swiftFile) block(i, end int, sc scope, depth int) {
	for i < end && !f.s.Full() {
		var h head
		i = f.head(i, end, &h)
		if i >= end {
			return
		}
		i = f.decl(i, end, &h, sc, depth)
	}
}

var availableRE = regexp.MustCompile(`\b(deprecated|unavailable|obsoleted)\b`)
var messageRE = regexp.MustCompile(`(?:message|renamed)\s*:\s*"([^"]*)"`)

// head collects docs, attributes, #if directives and modifiers.
func (f *swiftFile) head(i, end int, h *head) int {
	h.modStart = -1
	for i < end {
		t := f.toks[i]
		switch {
		case t.kind == tDoc:
			h.docs = append(h.docs, strings.TrimPrefix(t.text, " "))
			i++
		case t.kind == tIdent && (t.text == "#if" || t.text == "#elseif"):
			i++
			for i < end && !f.toks[i].nl {
				i++
			}
		case t.kind == tIdent && (t.text == "#else" || t.text == "#endif"):
			i++
		case t.kind == tIdent && strings.HasPrefix(t.text, "@"):
			i++
			attr := t.text
			if i < end && f.toks[i].text == "(" && !f.toks[i].space {
				close := f.matching(i, end)
				attr += f.text(i, close+1)
				i = close + 1
			}
			f.attribute(attr, h)
		case t.kind == tIdent && (modifiers[t.text] || t.text == "class" && i+1 < end && declKeywords[f.toks[i+1].text]):
			if h.modStart < 0 {
				h.modStart = i
			}
			switch t.text {
			case "public", "open":
				h.public = true
			case "private", "fileprivate", "internal", "package":
				if !(i+1 < end && f.toks[i+1].text == "(") { // private(set) restricts the setter only
					h.restricted = true
				}
			}
			i++
			if i < end && f.toks[i].text == "(" && !f.toks[i].space {
				i = f.matching(i, end) + 1
			}
		default:
			return i
		}
	}
	return end
}

func (f *swiftFile) attribute(attr string, h *head) {
	switch {
	case strings.HasPrefix(attr, "@_spi"), strings.HasPrefix(attr, "@_documentation"):
		h.hidden = true
	case strings.HasPrefix(attr, "@available"):
		switch availableRE.FindString(attr) {
		case "unavailable", "obsoleted":
			h.hidden = true
		case "deprecated":
			h.deprecated = "**Deprecated**"
			if m := messageRE.FindStringSubmatch(attr); m != nil {
				h.deprecated += ": " + m[1]
			}
		}
	}
}

// visible decides whether a declaration in sc with head h is public API.
func (h *head) visible(sc scope) bool {
	if h.hidden || !sc.visible {
		return false
	}
	return h.public || sc.defaultPublic && !h.restricted
}

// decl scans the declaration at i and returns the index after it.
func (f *swiftFile) decl(i, end int, h *head, sc scope, depth int) int {
	t := f.toks[i]
	if t.kind != tIdent || !declKeywords[t.text] {
		if t.kind == tPunct && (t.text == "{" || t.text == "(" || t.text == "[") {
			return f.matching(i, end) + 1
		}
		return i + 1
	}
	start := i
	if h.modStart >= 0 {
		start = h.modStart
	}
	switch t.text {
	case "import", "operator":
		return f.lineEnd(i+1, end)
	case "precedencegroup":
		stop := f.headerEnd(i+1, end, true)
		if stop < end && f.toks[stop].text == "{" {
			return f.matching(stop, end) + 1
		}
		return stop
	case "class", "struct", "enum", "protocol", "actor", "extension":
		return f.typeDecl(i, end, start, h, sc, depth)
	case "case":
		return f.caseDecl(i, end, h, sc)
	case "var", "let":
		return f.varDecl(i, end, start, h, sc)
	case "typealias", "associatedtype":
		stop := f.lineEnd(i+1, end)
		if i+1 < end && h.visible(sc) {
			kind := t.text
			if kind == "associatedtype" && sc.owner == "" {
				kind = "typealias"
			}
			f.emit(h, kind, f.qualify(sc, f.toks[i+1].text), f.text(start, stop), sc)
		}
		return stop
	}
	// func, init, deinit, subscript, macro
	stop := f.headerEnd(i+1, end, true)
	next := stop
	if stop < end && f.toks[stop].text == "{" {
		next = f.matching(stop, end) + 1
	}
	if t.text == "deinit" || !h.visible(sc) {
		return next
	}
	name := t.text
	if t.text == "func" || t.text == "macro" {
		name = f.funcName(i+1, stop)
	}
	kind := map[string]string{"func": "method", "init": "init", "subscript": "subscript", "macro": "macro"}[t.text]
	if sc.owner == "" && t.text == "func" {
		kind = "func"
	}
	if name != "" {
		f.emit(h, kind, f.qualify(sc, name), f.text(start, stop), sc)
	}
	return next
}

// funcName reads a function's name: an identifier or an operator.
func (f *swiftFile) funcName(i, stop int) string {
	if i >= stop {
		return ""
	}
	if f.toks[i].kind == tIdent {
		return f.toks[i].text
	}
	var b strings.Builder
	for ; i < stop && f.toks[i].kind == tPunct && f.toks[i].text != "(" && f.toks[i].text != "<"; i++ {
		b.WriteString(f.toks[i].text)
	}
	return b.String()
}

func (f *swiftFile) qualify(sc scope, name string) string {
	if sc.owner == "" {
		return name
	}
	return sc.owner + "." + name
}

func (f *swiftFile) emit(h *head, kind, name, sig string, sc scope) {
	doc := strings.TrimSpace(strings.Join(h.docs, "\n"))
	if h.deprecated != "" {
		doc = strings.TrimSpace(h.deprecated + "\n\n" + doc)
	}
	if len(f.s.Symbols) < f.s.MaxSymbols {
		sig = sigSpacing.Replace(strings.TrimSpace(sig))
		f.s.Symbols = append(f.s.Symbols, model.Symbol{Name: name, Kind: kind, Signature: sig, Doc: doc, File: f.file})
	}
}

// sigSpacing undoes the spaces that line breaks inside brackets leave.
var sigSpacing = strings.NewReplacer("( ", "(", " )", ")", "[ ", "[", " ]", "]", ", )", ")")

// typeDecl handles class, struct, enum, protocol, actor and extension.
func (f *swiftFile) typeDecl(i, end, start int, h *head, sc scope, depth int) int {
	kw := f.toks[i].text
	stop := f.headerEnd(i+1, end, true)
	next := stop
	close := stop
	if stop < end && f.toks[stop].text == "{" {
		close = f.matching(stop, end)
		next = close + 1
	}
	if depth >= maxNesting || stop >= end || f.toks[stop].text != "{" {
		return next
	}
	var name string
	for j := i + 1; j < stop; j++ { // Outer.Inner for extensions
		tj := f.toks[j]
		if tj.kind == tIdent && (name == "" || strings.HasSuffix(name, ".")) {
			name += tj.text
		} else if tj.text == "." && name != "" && !tj.space {
			name += "."
		} else {
			break
		}
	}
	name = strings.TrimSuffix(name, ".")
	if name == "" {
		return next
	}
	if kw == "extension" {
		inner := scope{owner: name, visible: sc.visible && !h.hidden && !h.restricted, defaultPublic: h.public}
		f.block(stop+1, close, inner, depth+1)
		return next
	}
	full := f.qualify(sc, name)
	if !h.visible(sc) {
		return next
	}
	f.emit(h, kw, full, f.text(start, stop), sc)
	inner := scope{owner: full, visible: true, defaultPublic: kw == "protocol", enum: kw == "enum", protocol: kw == "protocol"}
	f.block(stop+1, close, inner, depth+1)
	return next
}

// varDecl handles var and let: the signature stops before an initializer
// or an accessor block (protocol requirements keep { get set }).
func (f *swiftFile) varDecl(i, end, start int, h *head, sc scope) int {
	stop := f.headerEnd(i+1, end, false)
	sig := f.text(start, stop)
	next := stop
	if stop < end {
		switch f.toks[stop].text {
		case "=":
			next = f.lineEnd(stop+1, end)
			if next < end && f.toks[next].text == "{" && !f.toks[next].nl { // observers
				next = f.matching(next, end) + 1
			}
		case "{":
			close := f.matching(stop, end)
			if sc.protocol {
				sig += " " + f.text(stop, close+1)
			}
			next = close + 1
		}
	}
	if !h.visible(sc) || i+1 >= end || f.toks[i+1].kind != tIdent {
		return next
	}
	kind := "property"
	if sc.owner == "" {
		kind = map[string]string{"var": "var", "let": "const"}[f.toks[i].text]
	}
	f.emit(h, kind, f.qualify(sc, f.toks[i+1].text), sig, sc)
	return next
}

// caseDecl handles enum cases: one symbol per case.
func (f *swiftFile) caseDecl(i, end int, h *head, sc scope) int {
	stop := f.lineEnd(i+1, end)
	if !sc.enum || h.hidden || !sc.visible {
		return stop
	}
	from := i + 1
	for j := i + 1; j <= stop; j++ {
		if j < stop && f.toks[j].kind == tPunct && (f.toks[j].text == "(" || f.toks[j].text == "[") {
			j = f.matching(j, stop)
			continue
		}
		if j == stop || f.toks[j].text == "," {
			if from < j && f.toks[from].kind == tIdent {
				f.emit(h, "case", sc.owner+"."+f.toks[from].text, "case "+f.text(from, j), sc)
			}
			from = j + 1
		}
	}
	return stop
}

// matching returns the index of the bracket closing the one at i (or
// end-1 when unbalanced).
func (f *swiftFile) matching(i, end int) int {
	depth := 0
	for k := i; k < end; k++ {
		if f.toks[k].kind != tPunct {
			continue
		}
		switch f.toks[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return end - 1
}

// continues reports whether a line break before token k does not end the
// declaration (the previous line is unfinished or the next one continues).
func (f *swiftFile) continues(k int) bool {
	next := f.toks[k]
	switch next.text {
	case "-", ".", "&", ",", ")", "]", ">", "=", ":", "where", "throws", "rethrows", "async", "?", "+", "*", "/", "|":
		return next.kind != tString
	}
	if k > 0 {
		switch prev := f.toks[k-1]; prev.text {
		case ",", "(", "[", "<", ":", "&", "=", "-", "|":
			return prev.kind != tString
		}
	}
	return false
}

// headerEnd returns the index of the '{' opening a declaration's body, of
// its '=' (when stopAtBrace is false, for properties), or of the first
// token of the next line that does not continue the declaration.
func (f *swiftFile) headerEnd(i, end int, body bool) int {
	for k := i; k < end; k++ {
		t := f.toks[k]
		if t.nl && !f.continues(k) && !(body && t.text == "{") {
			return k
		}
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "{":
			return k
		case "=":
			if !body {
				return k
			}
		case "(", "[":
			k = f.matching(k, end)
		case "}":
			return k
		}
	}
	return end
}

// lineEnd returns the first token of the next line that does not continue
// the current statement, skipping bracketed groups.
func (f *swiftFile) lineEnd(i, end int) int {
	for k := i; k < end; k++ {
		t := f.toks[k]
		if t.nl && !f.continues(k) {
			return k
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				k = f.matching(k, end)
			case "}":
				return k
			}
		}
	}
	return end
}

// text renders tokens [i, j) single-spaced, without doc comments.
func (f *swiftFile) text(i, j int) string {
	var b strings.Builder
	for k := i; k < j && k < len(f.toks); k++ {
		t := f.toks[k]
		if t.kind == tDoc {
			continue
		}
		if t.space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.src[t.start:t.end])
	}
	return b.String()
}
