package uritemplate

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Character classes of the text an expression can expand to, by operator
// (inside a regexp bracket expression). Percent-encoded triplets are
// allowed everywhere.
const (
	classUnreserved = `A-Za-z0-9\-._~`
	classReserved   = `:/?#\[\]@!$&'()*+,;=`
	classQueryExtra = `!$'()*+:;@/?`
)

// contentClass returns the characters an unnamed expression of op may
// produce after its first character.
func contentClass(op *operator) string {
	switch op {
	case opReserved, opFragment:
		return classUnreserved + classReserved
	case opSimple, opLabel:
		return classUnreserved + `,=`
	}
	return classUnreserved + regexp.QuoteMeta(string(op.sep)) + `,=`
}

const pctTriplet = `%[0-9A-Fa-f]{2}`

// pattern returns the regular expression of the URIs the template can
// expand to, with one capturing group per expression.
func (t *Template) pattern() string {
	var sb strings.Builder
	sb.WriteString(`\A`)
	for _, p := range t.parts {
		if p.expr == nil {
			sb.WriteString(regexp.QuoteMeta(p.literal))
			continue
		}
		op := p.expr.op
		if op.named {
			sb.WriteString(p.expr.namedPattern())
			continue
		}
		chars := `(?:[` + contentClass(op) + `]|` + pctTriplet + `)`
		switch op {
		case opSimple:
			sb.WriteString(`(` + chars + `+)`)
		case opReserved:
			sb.WriteString(`(` + chars + `+?)`)
		case opFragment:
			sb.WriteString(`(` + regexp.QuoteMeta(op.first) + chars + `*?)?`)
		default:
			sb.WriteString(`(` + regexp.QuoteMeta(op.first) + chars + `*)?`)
		}
	}
	sb.WriteString(`\z`)
	return sb.String()
}

// namedPattern returns the pattern of a named expression: name=value items
// separated by the operator's separator, where a name is one of the
// expression's variables (any name, if one of them is exploded). Matching
// names rather than any text lets "{?q}{&page}" split "?q=1&page=2".
func (e *expression) namedPattern() string {
	op := e.op
	name := `(?:[` + classUnreserved + `]|` + pctTriplet + `)+`
	if !e.hasExplode() {
		alts := make([]string, len(e.specs))
		for i, s := range e.specs {
			alts[i] = regexp.QuoteMeta(s.name)
		}
		name = `(?:` + strings.Join(alts, `|`) + `)`
	}
	values := classUnreserved + `,`
	if op != opParam {
		// Query values also accept the other characters RFC 3986 allows
		// in a query, so that URIs built by hand (with '+' or ':', say)
		// still match.
		values += classQueryExtra
	}
	item := name + `(?:=(?:[` + values + `]|` + pctTriplet + `)*)?`
	sep := regexp.QuoteMeta(string(op.sep))
	return `(` + regexp.QuoteMeta(op.first) + item + `(?:` + sep + item + `)*)?`
}

func (e *expression) hasExplode() bool {
	for _, s := range e.specs {
		if s.explode {
			return true
		}
	}
	return false
}

// Match reports whether uri is an expansion of the template and, if so,
// returns the values of the variables it defines, percent-decoded.
//
// Expansion loses information, so matching must choose (RFC 6570 §1.4):
//   - A simple ({x}) or reserved ({+x}) expression must match at least one
//     character, so "users/{id}" does not match "users/". A reserved or
//     fragment expression matches as little as it can, so "{+path}{?q}"
//     leaves a query to {?q}.
//   - In an expression with several variables, the parts are assigned in
//     order, and variables left without a part are undefined; the last
//     unexploded variable takes whatever is left. Named expressions
//     ({;x}, {?x}, {&x}) are matched by name, in any order; a name the
//     expression does not have makes the match fail, unless an exploded
//     variable can take it as a pair.
//   - An unexploded value that contains a raw comma is a list (a comma in
//     a string would have been encoded), except in reserved and fragment
//     expressions, where commas are allowed and the value is a string.
//   - Exploded items are an associative array if every one has the form
//     name=value, and a list otherwise.
//   - A value longer than its prefix modifier allows, a value that is not
//     valid UTF-8 once decoded, and a variable that appears twice with
//     different values (other than a prefix and its full value) make the
//     match fail.
func (t *Template) Match(uri string) (map[string]Value, bool) {
	m := t.re.FindStringSubmatchIndex(uri)
	if m == nil {
		return nil, false
	}
	st := &matchState{vals: make(map[string]Value), prefix: make(map[string]int)}
	g := 1
	for _, p := range t.parts {
		if p.expr == nil {
			continue
		}
		start, end := m[2*g], m[2*g+1]
		g++
		if start < 0 || start == end {
			continue
		}
		if !p.expr.match(uri[start:end], st) {
			return nil, false
		}
	}
	return st.vals, true
}

// match decodes the text one expression matched into vals.
func (e *expression) match(text string, st *matchState) bool {
	op := e.op
	if !strings.HasPrefix(text, op.first) {
		return false
	}
	text = text[len(op.first):]
	parts := strings.Split(text, string(op.sep))
	if op.named {
		return e.matchNamed(parts, st)
	}
	return e.matchPositional(parts, st)
}

// matchPositional assigns the parts of an unnamed expression to its
// variables in order.
func (e *expression) matchPositional(parts []string, st *matchState) bool {
	op := e.op
	for i, spec := range e.specs {
		if len(parts) == 0 {
			return true // the rest are undefined
		}
		rest := len(e.specs) - i - 1
		var v Value
		var ok bool
		switch {
		case spec.explode:
			n := max(len(parts)-rest, 1)
			v, ok = explodedValue(parts[:n], op.allowReserved)
			parts = parts[n:]
		case rest == 0:
			v, ok = plainValue(strings.Join(parts, string(op.sep)), op.allowReserved)
			parts = nil
		default:
			v, ok = plainValue(parts[0], op.allowReserved)
			parts = parts[1:]
		}
		if !ok || !st.assign(spec, v) {
			return false
		}
	}
	return len(parts) == 0
}

// matchNamed assigns the name=value parts of a named expression to its
// variables by name.
func (e *expression) matchNamed(parts []string, st *matchState) bool {
	var exploded *varspec
	for i := range e.specs {
		if e.specs[i].explode {
			exploded = &e.specs[i]
		}
	}
	var pairs []string // parts for the exploded variable, as name, value
	done := make(map[string]bool, len(e.specs))
	for _, part := range parts {
		name, raw, _ := strings.Cut(part, "=")
		spec := e.spec(name)
		if spec == nil || spec.explode {
			if exploded == nil {
				return false
			}
			pairs = append(pairs, name, raw)
			continue
		}
		if done[name] {
			return false
		}
		done[name] = true
		v, ok := plainValue(raw, false)
		if !ok || !st.assign(*spec, v) {
			return false
		}
	}
	if exploded == nil || pairs == nil {
		return true
	}
	v, ok := namedExplodedValue(exploded.name, pairs)
	return ok && st.assign(*exploded, v)
}

// spec returns the variable of the expression with the given name, or nil.
func (e *expression) spec(name string) *varspec {
	for i := range e.specs {
		if e.specs[i].name == name {
			return &e.specs[i]
		}
	}
	return nil
}

// plainValue decodes the text of an unexploded variable: a list if it has
// raw commas (outside reserved expansion), a string otherwise.
func plainValue(raw string, allowReserved bool) (Value, bool) {
	if !allowReserved && strings.Contains(raw, ",") {
		items, ok := decodeAll(strings.Split(raw, ","))
		return List(items...), ok
	}
	s, ok := decode(raw)
	return String(s), ok
}

// explodedValue decodes the items of an exploded variable of an unnamed
// expression.
func explodedValue(items []string, allowReserved bool) (Value, bool) {
	pairs := make([]string, 0, 2*len(items))
	for _, item := range items {
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			list, ok := decodeAll(items)
			return List(list...), ok
		}
		pairs = append(pairs, name, val)
	}
	decoded, ok := decodeAll(pairs)
	return Value{kind: KindAssoc, items: decoded}, ok
}

// namedExplodedValue decodes the name/value pairs of an exploded variable
// of a named expression: a list if every name is the variable's own, an
// associative array otherwise.
func namedExplodedValue(varName string, pairs []string) (Value, bool) {
	list := true
	for i := 0; i < len(pairs); i += 2 {
		list = list && pairs[i] == varName
	}
	if list {
		items := make([]string, 0, len(pairs)/2)
		for i := 1; i < len(pairs); i += 2 {
			items = append(items, pairs[i])
		}
		decoded, ok := decodeAll(items)
		return List(decoded...), ok
	}
	decoded, ok := decodeAll(pairs)
	return Value{kind: KindAssoc, items: decoded}, ok
}

// matchState collects the values of a match. prefix records, for a
// variable whose value so far comes only from occurrences with a prefix
// modifier, the longest such prefix length.
type matchState struct {
	vals   map[string]Value
	prefix map[string]int
}

// assign records the value of a variable, checking its prefix modifier
// and agreement with earlier occurrences of the same variable.
func (st *matchState) assign(spec varspec, v Value) bool {
	n := spec.prefix
	if v.kind != KindString {
		n = 0 // a prefix modifier does not apply to composite values
	}
	if n > 0 && utf8.RuneCountInString(v.str) > n {
		return false
	}
	old, seen := st.vals[spec.name]
	if !seen {
		st.vals[spec.name] = v
		st.prefix[spec.name] = n
		return true
	}
	oldN := st.prefix[spec.name]
	if oldN == 0 && n == 0 {
		return old.Equal(v)
	}
	if old.kind != KindString || v.kind != KindString {
		return false
	}
	// At least one side is a prefix: they must agree on the shorter one.
	cut := n
	if oldN > 0 && (n == 0 || oldN < n) {
		cut = oldN
	}
	if prefixOf(old.str, cut) != prefixOf(v.str, cut) {
		return false
	}
	if oldN > 0 && (n == 0 || n > oldN) {
		st.vals[spec.name] = v
		st.prefix[spec.name] = n
	}
	return true
}

// decodeAll percent-decodes every string.
func decodeAll(ss []string) ([]string, bool) {
	out := make([]string, len(ss))
	for i, s := range ss {
		d, ok := decode(s)
		if !ok {
			return nil, false
		}
		out[i] = d
	}
	return out, true
}

// decode percent-decodes s, which the pattern guarantees has only
// well-formed triplets. It fails if the result is not valid UTF-8.
func decode(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b), utf8.Valid(b)
}

func unhex(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
