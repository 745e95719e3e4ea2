package auth

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrInvalidChallenge reports a WWW-Authenticate header that does not follow
// the syntax of RFC 9110 section 11.6.1.
var ErrInvalidChallenge = errors.New("auth: malformed WWW-Authenticate challenge")

// maxWWWAuthenticate bounds the WWW-Authenticate text a client parses.
const maxWWWAuthenticate = 16 << 10

// Challenge is one authentication challenge of a WWW-Authenticate response
// header (RFC 9110 section 11.6.1), such as
//
//	Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource", scope="files:read"
//
// Scheme keeps the case the server sent; compare it with strings.EqualFold.
// Param names are lower-cased, as they are case-insensitive.
type Challenge struct {
	Scheme string
	Params map[string]string
	// Token68 holds the token68 form of a challenge (a scheme followed by
	// one opaque value instead of parameters), which OAuth does not use.
	Token68 string
}

// Param returns the value of the parameter name (case-insensitive).
func (c Challenge) Param(name string) string {
	return c.Params[strings.ToLower(name)]
}

// Scopes returns the space-separated scope parameter as a list.
func (c Challenge) Scopes() []string {
	return strings.Fields(c.Param("scope"))
}

// ParseWWWAuthenticate parses the WWW-Authenticate header values of a
// response into their challenges, in order. A header may hold several
// challenges separated by commas, and a response may have several headers.
func ParseWWWAuthenticate(values []string) ([]Challenge, error) {
	var out []Challenge
	total := 0
	for _, v := range values {
		total += len(v)
		if total > maxWWWAuthenticate {
			return nil, fmt.Errorf("%w: longer than %d bytes", ErrInvalidChallenge, maxWWWAuthenticate)
		}
		cs, err := parseChallengeList(v)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// challengesOf parses the challenges of resp, ignoring a malformed header.
func challengesOf(h http.Header) []Challenge {
	cs, _ := ParseWWWAuthenticate(h.Values("WWW-Authenticate"))
	return cs
}

// wwwAuthParser walks one header value.
type wwwAuthParser struct {
	s   string
	pos int
}

func parseChallengeList(s string) ([]Challenge, error) {
	p := &wwwAuthParser{s: s}
	var out []Challenge
	for {
		p.skipListSeparators()
		if p.pos >= len(p.s) {
			return out, nil
		}
		scheme := p.token()
		if scheme == "" {
			return nil, fmt.Errorf("%w: expected an auth scheme at offset %d", ErrInvalidChallenge, p.pos)
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		if err := p.params(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
}

// params reads the parameters (or the token68) that follow a scheme, up to
// the next challenge or the end.
func (p *wwwAuthParser) params(c *Challenge) error {
	if p.pos < len(p.s) && p.s[p.pos] != ' ' && p.s[p.pos] != '\t' && p.s[p.pos] != ',' {
		return fmt.Errorf("%w: unexpected %q after scheme", ErrInvalidChallenge, p.s[p.pos])
	}
	p.skipSpace()
	if p.token68(c) {
		return nil
	}
	for {
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.skipListSeparators()
		}
		if p.pos >= len(p.s) {
			return nil
		}
		start := p.pos
		name := p.token()
		if name == "" {
			return fmt.Errorf("%w: unexpected %q at offset %d", ErrInvalidChallenge, p.s[p.pos], p.pos)
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != '=' {
			// Not a parameter: the name is the scheme of the next challenge.
			p.pos = start
			return nil
		}
		p.pos++ // '='
		p.skipSpace()
		val, err := p.value()
		if err != nil {
			return err
		}
		key := strings.ToLower(name)
		if _, dup := c.Params[key]; dup {
			return fmt.Errorf("%w: parameter %q repeated", ErrInvalidChallenge, key)
		}
		c.Params[key] = val
	}
}

// token68 reads a token68 credential if one follows the scheme: characters
// of token68, optional "=" padding, then a comma or the end.
func (p *wwwAuthParser) token68(c *Challenge) bool {
	i := p.pos
	for i < len(p.s) && isToken68Char(p.s[i]) {
		i++
	}
	if i == p.pos {
		return false
	}
	for i < len(p.s) && p.s[i] == '=' {
		i++
	}
	end := i
	for i < len(p.s) && (p.s[i] == ' ' || p.s[i] == '\t') {
		i++
	}
	if i < len(p.s) && p.s[i] != ',' {
		return false
	}
	c.Token68 = p.s[p.pos:end]
	p.pos = i
	return true
}

// value reads a token or a quoted string.
func (p *wwwAuthParser) value() (string, error) {
	if p.pos < len(p.s) && p.s[p.pos] == '"' {
		p.pos++
		var b strings.Builder
		for p.pos < len(p.s) {
			ch := p.s[p.pos]
			switch {
			case ch == '"':
				p.pos++
				return b.String(), nil
			case ch == '\\':
				if p.pos+1 >= len(p.s) {
					return "", fmt.Errorf("%w: unterminated quoted string", ErrInvalidChallenge)
				}
				b.WriteByte(p.s[p.pos+1])
				p.pos += 2
			case ch < 0x20 && ch != '\t' || ch == 0x7f:
				return "", fmt.Errorf("%w: control character in quoted string", ErrInvalidChallenge)
			default:
				b.WriteByte(ch)
				p.pos++
			}
		}
		return "", fmt.Errorf("%w: unterminated quoted string", ErrInvalidChallenge)
	}
	v := p.token()
	if v == "" {
		return "", fmt.Errorf("%w: expected a value at offset %d", ErrInvalidChallenge, p.pos)
	}
	return v, nil
}

func (p *wwwAuthParser) token() string {
	start := p.pos
	for p.pos < len(p.s) && isTokenChar(p.s[p.pos]) {
		p.pos++
	}
	return p.s[start:p.pos]
}

func (p *wwwAuthParser) skipSpace() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *wwwAuthParser) skipListSeparators() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == ',') {
		p.pos++
	}
}

// isTokenChar reports whether ch is a tchar of RFC 9110.
func isTokenChar(ch byte) bool {
	switch {
	case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", ch) >= 0
}

// isToken68Char reports whether ch may appear in a token68 before padding.
func isToken68Char(ch byte) bool {
	switch {
	case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
		return true
	}
	return strings.IndexByte("-._~+/", ch) >= 0
}
