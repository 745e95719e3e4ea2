package jsonschema

import "unicode/utf8"

// number applies the numeric keywords to number node i.
func (v *validator) number(n *node, i uint32) bool {
	ok := true
	t := &v.t
	if l := n.minimum; l != nil && t.cmpLimit(i, l) < 0 {
		if v.quiet > 0 || !v.report(n, i, "minimum", v.msg().s("must be >= ").lim(l).s(" (got ").num(i).s(")")) {
			return false
		}
		ok = false
	}
	if l := n.exclusiveMinimum; l != nil && t.cmpLimit(i, l) <= 0 {
		if v.quiet > 0 || !v.report(n, i, "exclusiveMinimum", v.msg().s("must be > ").lim(l).s(" (got ").num(i).s(")")) {
			return false
		}
		ok = false
	}
	if l := n.maximum; l != nil && t.cmpLimit(i, l) > 0 {
		if v.quiet > 0 || !v.report(n, i, "maximum", v.msg().s("must be <= ").lim(l).s(" (got ").num(i).s(")")) {
			return false
		}
		ok = false
	}
	if l := n.exclusiveMaximum; l != nil && t.cmpLimit(i, l) >= 0 {
		if v.quiet > 0 || !v.report(n, i, "exclusiveMaximum", v.msg().s("must be < ").lim(l).s(" (got ").num(i).s(")")) {
			return false
		}
		ok = false
	}
	if l := n.multipleOf; l != nil && !t.multipleOf(i, l) {
		if v.quiet > 0 || !v.report(n, i, "multipleOf", v.msg().s("must be a multiple of ").lim(l).s(" (got ").num(i).s(")")) {
			return false
		}
		ok = false
	}
	return ok
}

// str applies the string keywords to string node i.
func (v *validator) str(n *node, i uint32) bool {
	ok := true
	s := v.t.text(i)
	// Lengths count code points: between len(s)/4 and len(s).
	if (n.minLength >= 0 && len(s)/4 < n.minLength) || (n.maxLength >= 0 && len(s) > n.maxLength) {
		count := utf8.RuneCount(s)
		if n.minLength >= 0 && count < n.minLength {
			if v.quiet > 0 || !v.report(n, i, "minLength", v.msg().s("must be at least ").count(n.minLength, "character").s(" long (got ").d(count).s(")")) {
				return false
			}
			ok = false
		}
		if n.maxLength >= 0 && count > n.maxLength {
			if v.quiet > 0 || !v.report(n, i, "maxLength", v.msg().s("must be at most ").count(n.maxLength, "character").s(" long (got ").d(count).s(")")) {
				return false
			}
			ok = false
		}
	}
	if n.pattern != nil && !n.pattern.match(s) {
		if v.quiet > 0 || !v.report(n, i, "pattern", v.msg().s("must match the pattern ").q(n.pattern.src)) {
			return false
		}
		ok = false
	}
	if n.formatCheck != nil && !n.formatCheck(string(s)) {
		if v.quiet > 0 || !v.report(n, i, "format", v.msg().s("must be a valid ").s(n.format).s(" (got ").json(i).s(")")) {
			return false
		}
		ok = false
	}
	if n.contentCheck != nil && !n.contentCheck(string(s)) {
		kw := "contentMediaType"
		if n.schema.ContentMediaType == "" {
			kw = "contentEncoding"
		}
		if v.quiet > 0 || !v.report(n, i, kw, v.msg().s("must be valid ").s(contentName(n.schema)).s(" content")) {
			return false
		}
		ok = false
	}
	return ok
}

func contentName(s *Schema) string {
	switch {
	case s.ContentEncoding != "" && s.ContentMediaType != "":
		return s.ContentEncoding + "-encoded " + s.ContentMediaType
	case s.ContentEncoding != "":
		return s.ContentEncoding
	}
	return s.ContentMediaType
}
