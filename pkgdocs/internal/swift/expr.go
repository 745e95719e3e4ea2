package swift

import "strings"

// exprKind classifies a parsed Package.swift expression.
type exprKind int

const (
	exOther  exprKind = iota
	exIdent           // name, .member, a.b.c
	exString          // string literal
	exCall            // callee(args)
	exArray           // [a, b]
	exBinary          // left op right
)

// expr is a Package.swift expression: just enough structure to read the
// Package(...) initializer; everything else is kept as source text.
type expr struct {
	kind        exprKind
	name        string // identifier or callee text
	str         string // string value
	args        []arg  // call arguments
	elems       []*expr
	op          string
	left, right *expr
	from, to    int // token range, for rendering as text
}

type arg struct {
	label string
	val   *expr
}

// parser reads expressions from Swift tokens.
type parser struct {
	toks  []token
	src   string
	i     int
	depth int
}

const maxExprDepth = 200

func (p *parser) peek() *token {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *parser) at(text string) bool {
	t := p.peek()
	return t != nil && t.kind != tString && t.text == text
}

// text renders tokens [from, to) as source, single-spaced.
func (p *parser) text(from, to int) string {
	var b strings.Builder
	for k := from; k < to && k < len(p.toks); k++ {
		t := p.toks[k]
		if t.kind == tDoc {
			continue
		}
		if t.space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.src[t.start:t.end])
	}
	return b.String()
}

// skipDirectives skips #if/#elseif conditions and #else/#endif lines: both
// branches of a conditional are read.
func (p *parser) skipDirectives() {
	for t := p.peek(); t != nil && t.kind == tIdent; t = p.peek() {
		switch t.text {
		case "#if", "#elseif":
			p.i++
			for t := p.peek(); t != nil && !t.nl; t = p.peek() {
				p.i++
			}
		case "#else", "#endif":
			p.i++
		default:
			return
		}
	}
}

// parseExpr parses a binary expression.
func (p *parser) parseExpr() *expr {
	p.depth++
	defer func() { p.depth-- }()
	from := p.i
	left := p.parsePostfix()
	for {
		p.skipDirectives()
		t := p.peek()
		if t == nil || t.kind != tPunct || p.depth > maxExprDepth {
			return left
		}
		op := p.operator()
		if op == "" {
			return left
		}
		right := p.parsePostfix()
		left = &expr{kind: exBinary, op: op, left: left, right: right, from: from, to: p.i}
	}
}

// operator consumes a binary operator (+, ..<, ..., ??, ==, &&, ||, -, ...)
// and returns it, or returns "" without consuming anything.
func (p *parser) operator() string {
	start := p.i
	var b strings.Builder
	for t := p.peek(); t != nil && t.kind == tPunct && strings.Contains("+-*/%<>=!&|^?.~", t.text); t = p.peek() {
		if b.Len() > 0 && t.space {
			break
		}
		b.WriteString(t.text)
		p.i++
	}
	op := b.String()
	switch op {
	case "+", "-", "*", "/", "..<", "...", "??", "==", "!=", "&&", "||", "<", ">", "<=", ">=":
		return op
	}
	p.i = start
	return ""
}

// parsePostfix parses a primary expression followed by member accesses,
// calls, subscripts and trailing closures.
func (p *parser) parsePostfix() *expr {
	from := p.i
	e := p.parsePrimary()
	for {
		t := p.peek()
		if t == nil || p.depth > maxExprDepth {
			return e
		}
		switch {
		case t.kind == tPunct && t.text == "." && !t.nl && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tIdent:
			p.i += 2
			if e.kind == exIdent {
				e = &expr{kind: exIdent, name: e.name + "." + p.toks[p.i-1].text, from: from, to: p.i}
			} else {
				e = &expr{kind: exIdent, name: p.text(from, p.i), from: from, to: p.i}
			}
		case t.kind == tPunct && t.text == "(" && !t.nl:
			p.i++
			args := p.parseArgs(")")
			e = &expr{kind: exCall, name: e.name, args: args, from: from, to: p.i}
		case t.kind == tPunct && t.text == "[" && !t.nl && !t.space:
			p.i++
			p.parseArgs("]")
			e = &expr{kind: exOther, from: from, to: p.i}
		case t.kind == tPunct && t.text == "{" && !t.nl && e.kind != exOther:
			p.skipBalanced()
			e = &expr{kind: exOther, from: from, to: p.i}
		case t.kind == tPunct && (t.text == "!" || t.text == "?") && !t.space:
			p.i++
		default:
			return e
		}
	}
}

func (p *parser) parsePrimary() *expr {
	p.skipDirectives()
	from := p.i
	t := p.peek()
	if t == nil {
		return &expr{from: from, to: from}
	}
	switch {
	case t.kind == tString:
		p.i++
		return &expr{kind: exString, str: stringValue(t.text), from: from, to: p.i}
	case t.kind == tIdent:
		p.i++
		return &expr{kind: exIdent, name: t.text, from: from, to: p.i}
	case t.kind == tPunct && t.text == "." && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tIdent:
		p.i += 2
		return &expr{kind: exIdent, name: "." + p.toks[p.i-1].text, from: from, to: p.i}
	case t.kind == tPunct && t.text == "[":
		p.i++
		args := p.parseArgs("]")
		e := &expr{kind: exArray, from: from}
		for _, a := range args {
			e.elems = append(e.elems, a.val)
		}
		e.to = p.i
		return e
	case t.kind == tPunct && t.text == "(":
		p.i++
		args := p.parseArgs(")")
		if len(args) == 1 && args[0].label == "" {
			return args[0].val
		}
		return &expr{kind: exOther, from: from, to: p.i}
	case t.kind == tPunct && t.text == "{":
		p.skipBalanced()
		return &expr{kind: exOther, from: from, to: p.i}
	case t.kind == tPunct && (t.text == "-" || t.text == "!"):
		p.i++
		inner := p.parsePostfix()
		return &expr{kind: exOther, from: from, to: inner.to}
	}
	p.i++
	return &expr{kind: exOther, from: from, to: p.i}
}

// parseArgs parses "label: expr, expr, ..." up to the closing token, which
// it consumes. Dictionary entries "k: v" keep only the value.
func (p *parser) parseArgs(closing string) []arg {
	var args []arg
	for {
		p.skipDirectives()
		t := p.peek()
		if t == nil {
			return args
		}
		if t.kind == tPunct && t.text == closing {
			p.i++
			return args
		}
		if t.kind == tPunct && t.text == "," {
			p.i++
			continue
		}
		if p.depth > maxExprDepth {
			p.skipTo(closing)
			return args
		}
		label := ""
		if t.kind == tIdent && p.i+1 < len(p.toks) && p.toks[p.i+1].text == ":" && p.toks[p.i+1].kind == tPunct {
			label = t.text
			p.i += 2
		}
		before := p.i
		val := p.parseExpr()
		if t := p.peek(); t != nil && t.kind == tPunct && t.text == ":" { // dictionary entry
			p.i++
			val = p.parseExpr()
		}
		args = append(args, arg{label: label, val: val})
		if p.i == before { // no progress: skip the offending token
			p.i++
		}
	}
}

// skipBalanced skips a bracketed group starting at the current token.
func (p *parser) skipBalanced() {
	depth := 0
	for t := p.peek(); t != nil; t = p.peek() {
		p.i++
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth <= 0 {
				return
			}
		}
	}
}

// skipTo skips to just after the closing token at the current depth.
func (p *parser) skipTo(closing string) {
	depth := 0
	for t := p.peek(); t != nil; t = p.peek() {
		p.i++
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 && t.text == closing {
				return
			}
			depth--
		}
	}
}
