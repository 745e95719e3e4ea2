package auth

import (
	"strings"
)

// A challenge is one WWW-Authenticate challenge (RFC 9110 section 11.6.1)
// of the Bearer (RFC 6750) or DPoP (RFC 9449) scheme, as the server writes
// it. Empty fields are left out.
type challenge struct {
	scheme           string // "Bearer" or "DPoP"
	realm            string
	errorCode        string // invalid_request, invalid_token, insufficient_scope, use_dpop_nonce, invalid_dpop_proof
	errorDescription string
	scope            []string
	resourceMetadata string
	algs             []string // DPoP only: accepted proof algorithms
}

// String returns the challenge as a header value, with every parameter
// value quoted and sanitized so that it parses back to the same values.
func (c *challenge) String() string {
	var b strings.Builder
	b.Grow(64 + len(c.resourceMetadata) + len(c.errorDescription))
	b.WriteString(c.scheme)
	first := true
	param := func(name, value string) {
		if first {
			b.WriteByte(' ')
			first = false
		} else {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString(`="`)
		writeQuoted(&b, value)
		b.WriteByte('"')
	}
	if c.realm != "" {
		param("realm", c.realm)
	}
	if c.errorCode != "" {
		param("error", sanitizeToken(c.errorCode))
	}
	if c.errorDescription != "" {
		param("error_description", sanitizeDescription(c.errorDescription))
	}
	if len(c.scope) > 0 {
		param("scope", joinScopes(c.scope))
	}
	if c.resourceMetadata != "" {
		param("resource_metadata", c.resourceMetadata)
	}
	if len(c.algs) > 0 {
		param("algs", strings.Join(c.algs, " "))
	}
	return b.String()
}

// writeQuoted writes s as the content of a quoted-string: '"' and '\' are
// escaped, and bytes a header may not carry (controls other than tab, DEL)
// are dropped.
func writeQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t' || (c >= 0x20 && c != 0x7f):
			b.WriteByte(c)
		}
	}
}

// sanitizeDescription keeps the characters RFC 6750 allows in
// error_description (printable ASCII other than '"' and '\'), replacing
// others with '?', and caps its length.
func sanitizeDescription(s string) string {
	const max = 200
	if len(s) > max {
		s = s[:max]
	}
	ok := true
	for i := 0; i < len(s) && ok; i++ {
		ok = descChar(s[i])
	}
	if ok {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if !descChar(c) {
			b[i] = '?'
		}
	}
	return string(b)
}

func descChar(c byte) bool { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' }

// scopeChar reports whether c may appear in a scope token (RFC 6749
// section 3.3: %x21 / %x23-5B / %x5D-7E).
func scopeChar(c byte) bool { return c >= 0x21 && c <= 0x7e && c != '"' && c != '\\' }

// sanitizeToken drops the characters a scope or error token may not have.
func sanitizeToken(s string) string {
	for i := 0; i < len(s); i++ {
		if !scopeChar(s[i]) {
			b := make([]byte, 0, len(s))
			for j := 0; j < len(s); j++ {
				if scopeChar(s[j]) {
					b = append(b, s[j])
				}
			}
			return string(b)
		}
	}
	return s
}

// joinScopes joins scopes with spaces, dropping invalid characters and
// empty scopes.
func joinScopes(scopes []string) string {
	var b strings.Builder
	for _, s := range scopes {
		if s = sanitizeToken(s); s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}
