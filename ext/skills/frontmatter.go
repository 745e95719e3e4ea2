package skills

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrFrontmatter reports a SKILL.md whose frontmatter is missing or cannot
// be read.
var ErrFrontmatter = errors.New("skills: bad SKILL.md frontmatter")

// maxFrontmatterBytes bounds the frontmatter block of a SKILL.md.
const maxFrontmatterBytes = 64 << 10

// maxFrontmatterDepth bounds the nesting of frontmatter values.
const maxFrontmatterDepth = 16

// ParseFrontmatter returns the YAML frontmatter at the start of a SKILL.md
// (between two "---" lines) as the JSON-shaped object a skill entry
// carries: maps as map[string]any, sequences as []any, numbers as float64,
// and booleans, null and strings as themselves.
//
// It reads the YAML that frontmatter uses: block and flow mappings and
// sequences, plain, quoted and block (| and >) scalars, and comments.
// Anchors, aliases, tags and several documents are refused with an error
// wrapping ErrFrontmatter, as are duplicate keys.
func ParseFrontmatter(doc []byte) (map[string]any, error) {
	block, err := frontmatterBlock(doc)
	if err != nil {
		return nil, err
	}
	p := &yamlParser{}
	for _, raw := range strings.Split(block, "\n") {
		p.lines = append(p.lines, strings.TrimRight(raw, " \t\r"))
	}
	p.skipBlank()
	if p.done() {
		return map[string]any{}, nil
	}
	v, err := p.value(p.indent(), 0)
	if err != nil {
		return nil, err
	}
	p.skipBlank()
	if !p.done() {
		return nil, p.errorf("unexpected text %q", strings.TrimSpace(p.lines[p.i]))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: the frontmatter is not a mapping", ErrFrontmatter)
	}
	return m, nil
}

// frontmatterBlock returns the text between the opening and closing "---"
// lines of doc.
func frontmatterBlock(doc []byte) (string, error) {
	doc = bytes.TrimPrefix(doc, []byte("\ufeff"))
	if !utf8.Valid(doc) {
		return "", fmt.Errorf("%w: not UTF-8", ErrFrontmatter)
	}
	s := strings.ReplaceAll(string(doc), "\r\n", "\n")
	first, rest, ok := strings.Cut(s, "\n")
	if !ok || strings.TrimRight(first, " \t") != "---" {
		return "", fmt.Errorf("%w: SKILL.md does not start with a --- line", ErrFrontmatter)
	}
	for off := 0; off < len(rest); {
		end := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if strings.TrimRight(line, " \t") == "---" {
			if off > maxFrontmatterBytes {
				return "", fmt.Errorf("%w: longer than %d bytes", ErrFrontmatter, maxFrontmatterBytes)
			}
			return rest[:off], nil
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return "", fmt.Errorf("%w: no closing --- line", ErrFrontmatter)
}

// yamlParser reads a block of YAML line by line.
type yamlParser struct {
	lines []string
	i     int
}

func (p *yamlParser) done() bool { return p.i >= len(p.lines) }

func (p *yamlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrFrontmatter, p.i+1, fmt.Sprintf(format, args...))
}

// skipBlank skips empty and comment-only lines.
func (p *yamlParser) skipBlank() {
	for !p.done() {
		t := strings.TrimSpace(p.lines[p.i])
		if t != "" && !strings.HasPrefix(t, "#") {
			return
		}
		p.i++
	}
}

// indent returns the indentation of the current line.
func (p *yamlParser) indent() int {
	line := p.lines[p.i]
	return len(line) - len(strings.TrimLeft(line, " "))
}

// checkTabs refuses a line indented with tabs, which YAML forbids.
func (p *yamlParser) checkTabs() error {
	if strings.HasPrefix(strings.TrimLeft(p.lines[p.i], " "), "\t") {
		return p.errorf("tab in indentation")
	}
	return nil
}

// value reads the block value whose lines start at indent.
func (p *yamlParser) value(indent, depth int) (any, error) {
	if depth > maxFrontmatterDepth {
		return nil, p.errorf("nested deeper than %d", maxFrontmatterDepth)
	}
	if strings.Contains(p.lines[p.i][:indent], "\t") {
		return nil, p.errorf("tab in indentation")
	}
	text := p.lines[p.i][indent:]
	if text == "-" || strings.HasPrefix(text, "- ") {
		return p.sequence(indent, depth)
	}
	if _, _, ok := splitKey(text); ok {
		return p.mapping(indent, depth)
	}
	p.i++
	return p.scalarWithContinuation(text, indent-1)
}

// mapping reads a block mapping at indent.
func (p *yamlParser) mapping(indent, depth int) (map[string]any, error) {
	m := make(map[string]any)
	for {
		p.skipBlank()
		if p.done() {
			return m, nil
		}
		if err := p.checkTabs(); err != nil {
			return nil, err
		}
		if p.indent() < indent {
			return m, nil
		}
		if p.indent() > indent {
			return nil, p.errorf("unexpected indentation")
		}
		text := p.lines[p.i][indent:]
		key, rest, ok := splitKey(text)
		if !ok {
			return nil, p.errorf("expected key: value, got %q", text)
		}
		k, err := scalarKey(key)
		if err != nil {
			return nil, p.errorf("%v", err)
		}
		if _, dup := m[k]; dup {
			return nil, p.errorf("duplicate key %q", k)
		}
		p.i++
		v, err := p.after(rest, indent, depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
}

// sequence reads a block sequence at indent.
func (p *yamlParser) sequence(indent, depth int) ([]any, error) {
	seq := []any{}
	for {
		p.skipBlank()
		if p.done() || p.indent() != indent {
			if !p.done() && p.indent() > indent {
				return nil, p.errorf("unexpected indentation")
			}
			return seq, nil
		}
		text := p.lines[p.i][indent:]
		if text != "-" && !strings.HasPrefix(text, "- ") {
			return seq, nil
		}
		item := strings.TrimLeft(strings.TrimPrefix(text, "-"), " ")
		if _, _, ok := splitKey(item); ok && !strings.HasPrefix(item, "{") {
			// A compact mapping: "- key: value" and its following keys.
			inner := indent + len(text) - len(item)
			p.lines[p.i] = strings.Repeat(" ", inner) + item
			v, err := p.mapping(inner, depth+1)
			if err != nil {
				return nil, err
			}
			seq = append(seq, v)
			continue
		}
		p.i++
		v, err := p.after(item, indent, depth)
		if err != nil {
			return nil, err
		}
		seq = append(seq, v)
	}
}

// after reads the value that follows "key:" or "-" with rest on the same
// line, for a node at indent.
func (p *yamlParser) after(rest string, indent, depth int) (any, error) {
	rest = stripComment(rest)
	switch {
	case rest == "":
		p.skipBlank()
		if p.done() {
			return nil, nil
		}
		next := p.indent()
		seqHere := next == indent && (p.lines[p.i][indent:] == "-" || strings.HasPrefix(p.lines[p.i][indent:], "- "))
		if next <= indent && !seqHere {
			return nil, nil
		}
		return p.value(next, depth+1)
	case rest[0] == '|' || rest[0] == '>':
		return p.blockScalar(rest, indent)
	}
	return p.scalarWithContinuation(rest, indent)
}

// scalarWithContinuation reads a scalar starting with first, folding the
// following lines indented more than indent into it (a multi-line plain or
// quoted scalar).
func (p *yamlParser) scalarWithContinuation(first string, indent int) (any, error) {
	text := first
	for !p.done() {
		line := p.lines[p.i]
		t := strings.TrimSpace(line)
		if t == "" || p.indent() <= indent {
			break
		}
		if _, _, isKey := splitKey(t); isKey && first[0] != '"' && first[0] != '\'' {
			break
		}
		text += " " + t
		p.i++
	}
	return parseScalar(text)
}

// blockScalar reads a literal (|) or folded (>) block scalar.
func (p *yamlParser) blockScalar(header string, indent int) (any, error) {
	style, chomp := header[0], byte(0)
	for _, c := range []byte(strings.TrimSpace(header[1:])) {
		switch c {
		case '-', '+':
			chomp = c
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		default:
			return nil, p.errorf("bad block scalar header %q", header)
		}
	}
	var lines []string
	blockIndent := -1
	for !p.done() {
		line := p.lines[p.i]
		if strings.TrimSpace(line) == "" {
			lines = append(lines, "")
			p.i++
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		if n <= indent {
			break
		}
		if blockIndent < 0 {
			blockIndent = n
		}
		if n < blockIndent {
			break
		}
		lines = append(lines, line[blockIndent:])
		p.i++
	}
	trailing := 0
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
		trailing++
	}
	var s string
	if style == '|' {
		s = strings.Join(lines, "\n")
	} else {
		s = foldLines(lines)
	}
	switch {
	case len(lines) == 0:
		return "", nil
	case chomp == '-':
	case chomp == '+':
		s += strings.Repeat("\n", trailing+1)
	default:
		s += "\n"
	}
	return s, nil
}

// foldLines joins the lines of a folded block scalar: lines join with a
// space, empty lines become newlines, and more-indented lines keep theirs.
func foldLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			switch {
			case l == "":
				b.WriteByte('\n')
			case prev == "":
			case strings.HasPrefix(l, " ") || strings.HasPrefix(prev, " "):
				b.WriteByte('\n')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// splitKey splits "key: rest" (or "key:" alone), with key plain or quoted.
func splitKey(text string) (key, rest string, ok bool) {
	if text == "" || text[0] == '-' && (len(text) == 1 || text[1] == ' ') || text[0] == '[' || text[0] == '{' || text[0] == '#' {
		return "", "", false
	}
	if text[0] == '"' || text[0] == '\'' {
		end := quotedEnd(text)
		if end < 0 || end+1 >= len(text) || text[end+1] != ':' {
			return "", "", false
		}
		if end+2 < len(text) && text[end+2] != ' ' {
			return "", "", false
		}
		return text[:end+1], strings.TrimLeft(text[end+2:], " "), true
	}
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ') {
			return strings.TrimRight(text[:i], " "), strings.TrimLeft(text[i+1:], " "), true
		}
		if text[i] == '#' && i > 0 && text[i-1] == ' ' {
			return "", "", false
		}
	}
	return "", "", false
}

// quotedEnd returns the index of the quote closing the quoted scalar at
// the start of s, or -1.
func quotedEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// stripComment removes a trailing comment from a plain value.
func stripComment(s string) string {
	if s == "" || s[0] == '"' || s[0] == '\'' {
		return s
	}
	if strings.HasPrefix(s, "#") {
		return ""
	}
	if i := strings.Index(s, " #"); i >= 0 {
		return strings.TrimRight(s[:i], " ")
	}
	return s
}

// scalarKey returns a mapping key as a string.
func scalarKey(key string) (string, error) {
	v, err := parseScalar(key)
	if err != nil {
		return "", err
	}
	switch k := v.(type) {
	case string:
		return k, nil
	case nil:
		return "", errors.New("empty key")
	default:
		return strings.TrimSpace(key), nil
	}
}

// parseScalar parses an inline value: a quoted or plain scalar, or a flow
// sequence or mapping.
func parseScalar(s string) (any, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	switch s[0] {
	case '&', '*', '!':
		return nil, fmt.Errorf("%w: anchors, aliases and tags are not supported (%q)", ErrFrontmatter, s)
	case '[', '{':
		f := &flowParser{s: s}
		v, err := f.value(0)
		if err != nil {
			return nil, err
		}
		if f.skipSpace(); f.i < len(f.s) && !strings.HasPrefix(f.s[f.i:], "#") {
			return nil, fmt.Errorf("%w: text after a flow collection in %q", ErrFrontmatter, s)
		}
		return v, nil
	case '"', '\'':
		end := quotedEnd(s)
		if end < 0 {
			return nil, fmt.Errorf("%w: unterminated quoted scalar %q", ErrFrontmatter, s)
		}
		if rest := strings.TrimSpace(s[end+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
			return nil, fmt.Errorf("%w: text after a quoted scalar in %q", ErrFrontmatter, s)
		}
		return unquote(s[:end+1])
	}
	return plainValue(stripComment(s)), nil
}

// unquote decodes a single- or double-quoted scalar.
func unquote(q string) (string, error) {
	body := q[1 : len(q)-1]
	if q[0] == '\'' {
		return strings.ReplaceAll(body, "''", "'"), nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", fmt.Errorf("%w: bad escape in %s", ErrFrontmatter, q)
		}
		switch e := body[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '"', '\\', '/', ' ':
			b.WriteByte(e)
		case 'u', 'U', 'x':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+n > len(body) {
				return "", fmt.Errorf("%w: bad escape in %s", ErrFrontmatter, q)
			}
			r, err := strconv.ParseUint(body[i+1:i+1+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return "", fmt.Errorf("%w: bad escape in %s", ErrFrontmatter, q)
			}
			b.WriteRune(rune(r))
			i += n
		default:
			return "", fmt.Errorf("%w: unknown escape \\%c in %s", ErrFrontmatter, e, q)
		}
	}
	return b.String(), nil
}

// plainValue types a plain scalar by the YAML 1.2 core schema.
func plainValue(s string) any {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return s // not representable in JSON: kept as text
	}
	if n, ok := yamlNumber(s); ok {
		return n
	}
	return s
}

// yamlNumber parses a core-schema integer or float.
func yamlNumber(s string) (float64, bool) {
	body := strings.TrimLeft(s, "+-")
	if body == "" || !(body[0] >= '0' && body[0] <= '9' || body[0] == '.') {
		return 0, false
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0o") {
		base := map[byte]int{'x': 16, 'o': 8}[s[1]]
		n, err := strconv.ParseInt(s[2:], base, 64)
		return float64(n), err == nil
	}
	for _, c := range body {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// flowParser reads a flow collection ([a, b], {k: v}).
type flowParser struct {
	s string
	i int
}

func (f *flowParser) skipSpace() {
	for f.i < len(f.s) && (f.s[f.i] == ' ' || f.s[f.i] == '\t') {
		f.i++
	}
}

func (f *flowParser) value(depth int) (any, error) {
	if depth > maxFrontmatterDepth {
		return nil, fmt.Errorf("%w: flow collection nested too deep", ErrFrontmatter)
	}
	f.skipSpace()
	if f.i >= len(f.s) {
		return nil, fmt.Errorf("%w: unterminated flow collection %q", ErrFrontmatter, f.s)
	}
	switch f.s[f.i] {
	case '[':
		return f.collection(']', depth)
	case '{':
		return f.collection('}', depth)
	case '"', '\'':
		end := quotedEnd(f.s[f.i:])
		if end < 0 {
			return nil, fmt.Errorf("%w: unterminated quoted scalar in %q", ErrFrontmatter, f.s)
		}
		q := f.s[f.i : f.i+end+1]
		f.i += end + 1
		return unquote(q)
	}
	start := f.i
	for f.i < len(f.s) && !strings.ContainsRune(",]}", rune(f.s[f.i])) &&
		!(f.s[f.i] == ':' && (f.i+1 == len(f.s) || f.s[f.i+1] == ' ')) {
		f.i++
	}
	return plainValue(strings.TrimSpace(f.s[start:f.i])), nil
}

// collection reads the members of a flow sequence or mapping up to close.
func (f *flowParser) collection(close byte, depth int) (any, error) {
	f.i++ // the opening bracket
	seq, m := []any{}, map[string]any{}
	for {
		f.skipSpace()
		if f.i < len(f.s) && f.s[f.i] == close {
			f.i++
			if close == ']' {
				return seq, nil
			}
			return m, nil
		}
		v, err := f.value(depth + 1)
		if err != nil {
			return nil, err
		}
		f.skipSpace()
		if close == '}' {
			if f.i >= len(f.s) || f.s[f.i] != ':' {
				return nil, fmt.Errorf("%w: expected ':' in %q", ErrFrontmatter, f.s)
			}
			f.i++
			k, ok := v.(string)
			if !ok {
				k = fmt.Sprint(v)
			}
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("%w: duplicate key %q", ErrFrontmatter, k)
			}
			if m[k], err = f.value(depth + 1); err != nil {
				return nil, err
			}
			f.skipSpace()
		} else {
			seq = append(seq, v)
		}
		if f.i >= len(f.s) {
			return nil, fmt.Errorf("%w: unterminated flow collection %q", ErrFrontmatter, f.s)
		}
		switch f.s[f.i] {
		case ',':
			f.i++
		case close:
		default:
			return nil, fmt.Errorf("%w: unexpected %q in %q", ErrFrontmatter, f.s[f.i], f.s)
		}
	}
}
