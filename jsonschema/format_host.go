package jsonschema

import (
	"strings"
	"unicode/utf8"
)

// isHostname checks an RFC 1123 host name: dot-separated labels of letters,
// digits and hyphens, at most 63 octets each and 253 in all. Labels with
// "--" in the third and fourth positions must be valid IDNA A-labels.
func isHostname(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if !isASCIILabel(label) {
			return false
		}
	}
	return true
}

// isASCIILabel checks an LDH label, decoding and checking A-labels.
func isASCIILabel(label string) bool {
	if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if !isASCIILetter(c) && !isDigit(c) && c != '-' {
			return false
		}
	}
	if len(label) >= 4 && label[2] == '-' && label[3] == '-' {
		if !strings.EqualFold(label[:2], "xn") {
			return false // reserved LDH label
		}
		return isALabel(label)
	}
	return true
}

// isALabel checks an IDNA A-label ("xn--" and Punycode): it must decode to a
// valid U-label that is not all ASCII and encodes back to itself.
func isALabel(label string) bool {
	code := strings.ToLower(label[4:])
	u, ok := punyDecode(code)
	if !ok || len(u) == 0 {
		return false
	}
	ascii := true
	for _, r := range u {
		if r >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return false
	}
	if enc, ok := punyEncode(u); !ok || enc != code {
		return false
	}
	return validULabel(u) && bidiOK([][]rune{u})
}

// idnDots are the label separators of IDNA (RFC 3490 section 3.1).
func isIDNDot(r rune) bool { return r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61' }

// isIDNHostname checks an internationalized host name (RFC 5890): labels
// are LDH labels, A-labels or U-labels satisfying IDNA2008's code point,
// contextual and Bidi rules.
func isIDNHostname(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	labels := strings.FieldsFunc(s, isIDNDot)
	// FieldsFunc drops empty labels; count separators to catch them.
	seps := 0
	for _, r := range s {
		if isIDNDot(r) {
			seps++
		}
	}
	if len(labels) != seps+1 {
		return false
	}
	total := seps
	var ulabels [][]rune
	for _, label := range labels {
		if isASCIIString(label) {
			if !isASCIILabel(label) {
				return false
			}
			total += len(label)
			if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
				u, _ := punyDecode(strings.ToLower(label[4:]))
				ulabels = append(ulabels, u)
			} else {
				ulabels = append(ulabels, []rune(label))
			}
			continue
		}
		u := []rune(label)
		if !validULabel(u) {
			return false
		}
		enc, ok := punyEncode(u)
		if !ok || len(enc)+4 > 63 {
			return false
		}
		total += len(enc) + 4
		ulabels = append(ulabels, u)
	}
	return total <= 253 && bidiOK(ulabels)
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isEmail checks an RFC 5321 mailbox: local-part "@" domain.
func isEmail(s string) bool { return checkEmail(s, false) }

// isIDNEmail checks an RFC 6531 mailbox, which may contain UTF-8.
func isIDNEmail(s string) bool { return checkEmail(s, true) }

func checkEmail(s string, idn bool) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || !utf8.ValidString(s) {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 || !isLocalPart(local, idn) {
		return false
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := domain[1 : len(domain)-1]
		if rest, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return isIPv6(rest)
		}
		return isIPv4(lit)
	}
	if idn {
		return isIDNHostname(domain)
	}
	return isHostname(domain)
}

// isLocalPart checks a Dot-string or Quoted-string local part.
func isLocalPart(s string, idn bool) bool {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		q := s[1 : len(s)-1]
		for i := 0; i < len(q); i++ {
			c := q[i]
			switch {
			case c == '\\':
				if i+1 >= len(q) || q[i+1] < 32 || q[i+1] > 126 {
					return false
				}
				i++
			case c == '"':
				return false
			case c >= 32 && c <= 126:
			case c >= utf8.RuneSelf && idn:
			default:
				return false
			}
		}
		return true
	}
	for _, atom := range strings.Split(s, ".") {
		if atom == "" {
			return false
		}
		for i := 0; i < len(atom); i++ {
			c := atom[i]
			if !(isASCIILetter(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0 ||
				(c >= utf8.RuneSelf && idn)) {
				return false
			}
		}
	}
	return true
}
