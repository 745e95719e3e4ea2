package jsonschema

import "strconv"

// msgBuf builds an error message without allocating; report copies it.
type msgBuf struct {
	b []byte
	t *tape
}

// msg returns the validator's message buffer, emptied.
func (v *validator) msg() *msgBuf {
	v.mb.b = v.mb.b[:0]
	v.mb.t = &v.t
	return &v.mb
}

// s appends text.
func (m *msgBuf) s(x string) *msgBuf { m.b = append(m.b, x...); return m }

// lim appends a numeric keyword's value.
func (m *msgBuf) lim(l *numLimit) *msgBuf { m.b = l.appendText(m.b); return m }

// d appends an integer.
func (m *msgBuf) d(x int) *msgBuf { m.b = strconv.AppendInt(m.b, int64(x), 10); return m }

// count appends "1 item", "2 items", "3 properties".
func (m *msgBuf) count(n int, word string) *msgBuf {
	m.b = strconv.AppendInt(m.b, int64(n), 10)
	m.b = append(m.b, ' ')
	switch {
	case n == 1:
		m.b = append(m.b, word...)
	case word[len(word)-1] == 'y':
		m.b = append(m.b, word[:len(word)-1]...)
		m.b = append(m.b, "ies"...)
	default:
		m.b = append(m.b, word...)
		m.b = append(m.b, 's')
	}
	return m
}

// q appends a string as JSON.
func (m *msgBuf) q(x string) *msgBuf { m.b = appendQuoted(m.b, x); return m }

// qb appends bytes as a JSON string.
func (m *msgBuf) qb(x []byte) *msgBuf { m.b = appendQuoted(m.b, x); return m }

// num appends the text of number node i.
func (m *msgBuf) num(i uint32) *msgBuf {
	nd := &m.t.nodes[i]
	switch {
	case nd.flags&flagNoText == 0:
		m.b = append(m.b, m.t.text(i)...)
	case nd.flags&flagI64 != 0:
		m.b = strconv.AppendInt(m.b, nd.i, 10)
	default:
		m.b = strconv.AppendFloat(m.b, nd.f, 'g', -1, 64)
	}
	return m
}

// json appends node i as JSON, shortened if long.
func (m *msgBuf) json(i uint32) *msgBuf {
	start := len(m.b)
	m.b = m.t.appendJSON(m.b, i)
	if len(m.b)-start > 64 {
		m.b = append(m.b[:start+60], "..."...)
	}
	return m
}

// types appends a list of types: "null or string".
func (m *msgBuf) types(types typeSet) *msgBuf {
	first := true
	for _, t := range typeNames {
		if types&t.bit != 0 {
			if !first {
				m.b = append(m.b, " or "...)
			}
			m.b = append(m.b, t.name...)
			first = false
		}
	}
	return m
}

// report records a failure of keyword kw of schema n at node i, with the
// message in m, unless the error limit is reached; it reports whether
// evaluation may continue. The Detail's strings share one allocation.
func (v *validator) report(n *node, i uint32, kw string, m *msgBuf) bool {
	limit := v.rs.maxErrors
	if limit > 0 && len(v.errs) >= limit {
		v.truncated, v.stop = true, true
		return false
	}
	buf := v.appendInstancePath(v.ebuf[:0])
	instEnd := len(buf)
	buf = v.appendKeywordPath(buf)
	if kw != "" {
		buf = append(append(buf, '/'), kw...)
	}
	kwEnd := len(buf)
	buf = append(append(buf, n.res.uri...), '#')
	buf = n.appendLocation(buf)
	if kw != "" {
		buf = append(append(buf, '/'), kw...)
	}
	absEnd := len(buf)
	buf = append(buf, m.b...)
	v.ebuf = buf
	s := string(buf)
	if v.errs == nil {
		v.errs = make([]Detail, 0, 4)
	}
	v.errs = append(v.errs, Detail{
		InstanceLocation:        s[:instEnd],
		KeywordLocation:         s[instEnd:kwEnd],
		AbsoluteKeywordLocation: s[kwEnd:absEnd],
		Keyword:                 kw,
		Message:                 s[absEnd:],
	})
	return true
}

// appendInstancePath appends the instance path as a JSON Pointer.
func (v *validator) appendInstancePath(b []byte) []byte {
	for _, p := range v.ipath {
		b = append(b, '/')
		if p >= 0 {
			b = appendPointerToken(b, v.t.text(uint32(p)))
		} else {
			b = strconv.AppendInt(b, -p-1, 10)
		}
	}
	return b
}

// appendKeywordPath appends the keyword path as a JSON Pointer.
func (v *validator) appendKeywordPath(b []byte) []byte {
	for _, s := range v.kpath {
		b = append(append(b, '/'), s.kw...)
		switch {
		case s.idx >= 0:
			b = strconv.AppendInt(append(b, '/'), int64(s.idx), 10)
		case s.key != "" || isKeyedKeyword(s.kw):
			b = appendPointerToken(append(b, '/'), s.key)
		}
	}
	return b
}

// appendPointerToken appends a JSON Pointer reference token, escaped.
func appendPointerToken[S string | []byte](b []byte, tok S) []byte {
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendLocation appends the JSON Pointer of n within its resource.
func (n *node) appendLocation(b []byte) []byte {
	if n.parent == nil || n == n.res.root {
		return b
	}
	b = n.parent.appendLocation(b)
	b = append(append(b, '/'), n.kw...)
	switch {
	case n.idx >= 0:
		b = strconv.AppendInt(append(b, '/'), int64(n.idx), 10)
	case n.key != "" || isKeyedKeyword(n.kw) || n.kw == "$defs" || n.kw == "definitions":
		b = appendPointerToken(append(b, '/'), n.key)
	}
	return b
}
