package jsonschema

import (
	"strings"
	"unicode/utf8"
)

// URI checks follow the RFC 3986 grammar (and RFC 3987 for IRIs, which
// also allow non-ASCII characters). They check syntax only.

func isURI(s string) bool          { return checkURI(s, false, true) }
func isURIReference(s string) bool { return checkURI(s, false, false) }
func isIRI(s string) bool          { return checkURI(s, true, true) }
func isIRIReference(s string) bool { return checkURI(s, true, false) }

// checkURI checks a URI (absolute, with a scheme, if absolute is set) or a
// URI reference; iri allows non-ASCII characters.
func checkURI(s string, iri, absolute bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	rest, fragment, hasFragment := strings.Cut(s, "#")
	if hasFragment && !uriChars(fragment, iri, "/?:@", false) {
		return false
	}
	rest, query, hasQuery := strings.Cut(rest, "?")
	if hasQuery && !uriChars(query, iri, "/?:@", true) {
		return false
	}
	hasScheme := false
	if i := strings.IndexByte(rest, ':'); i >= 0 && !strings.ContainsAny(rest[:i], "/") {
		if !isScheme(rest[:i]) {
			return false // a colon in the first segment of a relative path
		}
		hasScheme = true
		rest = rest[i+1:]
	}
	if absolute && !hasScheme {
		return false
	}
	if strings.HasPrefix(rest, "//") {
		auth, path, _ := strings.Cut(rest[2:], "/")
		if !checkAuthority(auth, iri) {
			return false
		}
		return uriChars(path, iri, "/:@", false)
	}
	return uriChars(rest, iri, "/:@", false)
}

func isScheme(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// checkAuthority checks [userinfo "@"] host [":" port].
func checkAuthority(auth string, iri bool) bool {
	if i := strings.IndexByte(auth, '@'); i >= 0 {
		if !uriChars(auth[:i], iri, ":", false) {
			return false
		}
		auth = auth[i+1:]
	}
	host, port := auth, ""
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return false
		}
		host, port = auth[:end+1], auth[end+1:]
		if port != "" {
			if port[0] != ':' {
				return false
			}
			port = port[1:]
		}
		if !isIPLiteral(host[1 : len(host)-1]) {
			return false
		}
	} else {
		if i := strings.IndexByte(auth, ':'); i >= 0 {
			host, port = auth[:i], auth[i+1:]
		}
		if !uriChars(host, iri, "", false) {
			return false
		}
	}
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return false
		}
	}
	return true
}

// isIPLiteral checks the inside of "[...]": an IPv6 address or IPvFuture.
func isIPLiteral(s string) bool {
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		ver, rest, ok := strings.Cut(s[1:], ".")
		if !ok || ver == "" || rest == "" {
			return false
		}
		for i := 0; i < len(ver); i++ {
			if !isHex(ver[i]) {
				return false
			}
		}
		return uriChars(rest, false, ":", false) && !strings.Contains(rest, "%")
	}
	return isIPv6(s)
}

// uriChars checks that s consists of unreserved characters, percent-encoded
// octets, sub-delims and the extra characters given. For IRIs, non-ASCII
// characters (ucschar) are allowed, and private-use ones in queries.
func uriChars(s string, iri bool, extra string, query bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !iri || !(isUCSChar(r) || (query && isIPrivate(r))) {
				return false
			}
			i += size
			continue
		}
		switch {
		case isASCIILetter(c) || isDigit(c) || strings.IndexByte("-._~!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
		i++
	}
	return true
}

// isUCSChar reports whether r is an RFC 3987 ucschar.
func isUCSChar(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFEF:
		return true
	case r >= 0x10000 && r <= 0xEFFFD:
		return r&0xFFFF <= 0xFFFD
	}
	return false
}

// isIPrivate reports whether r is an RFC 3987 iprivate character.
func isIPrivate(r rune) bool {
	return (r >= 0xE000 && r <= 0xF8FF) || (r >= 0xF0000 && r <= 0xFFFFD) || (r >= 0x100000 && r <= 0x10FFFD)
}

// isURITemplate checks an RFC 6570 URI Template.
func isURITemplate(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 || !isTemplateExpression(s[i+1:i+end]) {
				return false
			}
			i += end + 1
			continue
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 3
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isUCSChar(r) && !isIPrivate(r) {
				return false
			}
			i += size
			continue
		case c <= ' ' || c == 0x7F || strings.IndexByte(`"<>\^`+"`"+`|}`, c) >= 0:
			return false
		}
		i++
	}
	return true
}

// isTemplateExpression checks the inside of "{...}".
func isTemplateExpression(e string) bool {
	if e != "" && strings.IndexByte("+#./;?&", e[0]) >= 0 {
		e = e[1:]
	}
	if e == "" {
		return false
	}
	for _, spec := range strings.Split(e, ",") {
		name, mod := spec, ""
		if i := strings.IndexAny(spec, ":*"); i >= 0 {
			name, mod = spec[:i], spec[i:]
		}
		if !isTemplateVarName(name) {
			return false
		}
		switch {
		case mod == "", mod == "*":
		case mod[0] == ':':
			n := mod[1:]
			if len(n) == 0 || len(n) > 4 || n[0] == '0' {
				return false
			}
			for k := 0; k < len(n); k++ {
				if !isDigit(n[k]) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func isTemplateVarName(name string) bool {
	if name == "" || name[0] == '.' || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case isASCIILetter(c) || isDigit(c) || c == '_' || c == '.':
		case c == '%':
			if i+2 >= len(name) || !isHex(name[i+1]) || !isHex(name[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}
