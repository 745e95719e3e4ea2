package uritemplate

import "unicode/utf8"

// Expand expands the template with the given variable values (RFC 6570
// §3). Variables missing from vars are undefined.
func (t *Template) Expand(vars map[string]Value) string {
	var b []byte
	for _, p := range t.parts {
		if p.expr == nil {
			b = append(b, p.literal...)
			continue
		}
		b = p.expr.expand(b, vars)
	}
	return string(b)
}

// expand appends the expansion of one expression (RFC 6570 §3.2.1 and
// Appendix A).
func (e *expression) expand(b []byte, vars map[string]Value) []byte {
	op := e.op
	first := true
	for _, spec := range e.specs {
		v, ok := vars[spec.name]
		if !ok || !v.defined() {
			continue
		}
		if first {
			b = append(b, op.first...)
			first = false
		} else {
			b = append(b, op.sep)
		}
		switch {
		case v.kind == KindString:
			b = op.appendString(b, spec, v.str)
		case !spec.explode:
			b = op.appendComposite(b, spec, v)
		case v.kind == KindList:
			b = op.appendExplodedList(b, spec, v.items)
		default:
			b = op.appendExplodedAssoc(b, v.items)
		}
	}
	return b
}

func (op *operator) appendString(b []byte, spec varspec, s string) []byte {
	if op.named {
		b = append(b, spec.name...)
		if s == "" {
			return append(b, op.ifEmpty...)
		}
		b = append(b, '=')
	}
	if spec.prefix > 0 {
		s = prefixOf(s, spec.prefix)
	}
	return appendEncoded(b, s, op.allowReserved)
}

// appendComposite appends a list or associative array that is not
// exploded: its items joined by commas. A prefix modifier does not apply
// to composite values.
func (op *operator) appendComposite(b []byte, spec varspec, v Value) []byte {
	if op.named {
		b = append(b, spec.name...)
		b = append(b, '=')
	}
	for i, item := range v.items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEncoded(b, item, op.allowReserved)
	}
	return b
}

func (op *operator) appendExplodedList(b []byte, spec varspec, items []string) []byte {
	for i, item := range items {
		if i > 0 {
			b = append(b, op.sep)
		}
		if op.named {
			b = append(b, spec.name...)
			if item == "" {
				b = append(b, op.ifEmpty...)
				continue
			}
			b = append(b, '=')
		}
		b = appendEncoded(b, item, op.allowReserved)
	}
	return b
}

func (op *operator) appendExplodedAssoc(b []byte, items []string) []byte {
	for i := 0; i+1 < len(items); i += 2 {
		if i > 0 {
			b = append(b, op.sep)
		}
		b = appendEncoded(b, items[i], op.allowReserved)
		if op.named && items[i+1] == "" {
			b = append(b, op.ifEmpty...)
			continue
		}
		b = append(b, '=')
		b = appendEncoded(b, items[i+1], op.allowReserved)
	}
	return b
}

// prefixOf returns the first n characters (code points) of s.
func prefixOf(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

const upperHex = "0123456789ABCDEF"

// appendEncoded appends s with every character outside the allowed set
// percent-encoded as UTF-8. Unreserved characters are always allowed; with
// allowReserved, reserved characters and existing percent-encoded triplets
// are too.
func appendEncoded(b []byte, s string, allowReserved bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c), allowReserved && isReserved(c):
			b = append(b, c)
		case allowReserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, s[i:i+3]...)
			i += 2
		default:
			b = appendPctByte(b, c)
		}
	}
	return b
}

func appendPctByte(b []byte, c byte) []byte {
	return append(b, '%', upperHex[c>>4], upperHex[c&15])
}
