package auth

import (
	"errors"
	"strings"
)

// A parsedChallenge is one challenge read from a WWW-Authenticate header:
// its scheme and its auth-params (names lowercased).
type parsedChallenge struct {
	scheme string
	params map[string]string
}

var errBadChallenge = errors.New("malformed WWW-Authenticate challenge")

// maxChallengeHeader bounds the header values parseChallenges reads.
const maxChallengeHeader = 16 << 10

// parseChallenges parses WWW-Authenticate header values (RFC 9110 section
// 11.6.1): a comma-separated list of challenges, each a scheme followed by
// auth-params (token68 forms are accepted and ignored). It is the inverse
// of challenge.String and is used to check it.
func parseChallenges(values []string) ([]parsedChallenge, error) {
	var out []parsedChallenge
	for _, v := range values {
		if len(v) > maxChallengeHeader {
			return nil, errBadChallenge
		}
		p := challengeParser{s: v}
		for {
			p.skipSpaceAndCommas()
			if p.done() {
				break
			}
			c, err := p.challenge()
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			if len(out) > 32 {
				return nil, errBadChallenge
			}
		}
	}
	return out, nil
}

type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) done() bool { return p.i >= len(p.s) }

func (p *challengeParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *challengeParser) skipSpaceAndCommas() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

// token reads an RFC 9110 token.
func (p *challengeParser) token() string {
	start := p.i
	for p.i < len(p.s) && tchar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func tchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// challenge reads one challenge, stopping before the comma that starts the
// next one.
func (p *challengeParser) challenge() (parsedChallenge, error) {
	c := parsedChallenge{scheme: p.token(), params: map[string]string{}}
	if c.scheme == "" {
		return c, errBadChallenge
	}
	p.skipSpace()
	for !p.done() {
		if p.s[p.i] == ',' {
			// Either the next param or the next challenge: look ahead for
			// "token =".
			save := p.i
			p.skipSpaceAndCommas()
			if p.done() {
				return c, nil
			}
			name := p.token()
			p.skipSpace()
			if name == "" || p.done() || p.s[p.i] != '=' {
				p.i = save + 1
				return c, nil
			}
			p.i = save + 1
			p.skipSpaceAndCommas()
		}
		start := p.i
		name := p.token()
		p.skipSpace()
		if name == "" {
			return c, errBadChallenge
		}
		if p.done() || p.s[p.i] != '=' {
			// token68 or a scheme without params followed by another.
			p.i = start
			if err := p.token68(); err != nil {
				return c, err
			}
			continue
		}
		p.i++ // '='
		if !p.done() && p.s[p.i] == '=' {
			// token68 padding such as "abc=="
			p.i = start
			if err := p.token68(); err != nil {
				return c, err
			}
			continue
		}
		p.skipSpace()
		val, err := p.value()
		if err != nil {
			return c, err
		}
		key := strings.ToLower(name)
		if _, dup := c.params[key]; dup {
			return c, errBadChallenge
		}
		c.params[key] = val
		p.skipSpace()
		if !p.done() && p.s[p.i] != ',' {
			return c, errBadChallenge
		}
	}
	return c, nil
}

// token68 skips a token68 value.
func (p *challengeParser) token68() error {
	start := p.i
	for p.i < len(p.s) && (tchar(p.s[p.i]) || p.s[p.i] == '/') {
		p.i++
	}
	for p.i < len(p.s) && p.s[p.i] == '=' {
		p.i++
	}
	if p.i == start {
		return errBadChallenge
	}
	p.skipSpace()
	if !p.done() && p.s[p.i] != ',' {
		return errBadChallenge
	}
	return nil
}

// value reads a token or a quoted-string.
func (p *challengeParser) value() (string, error) {
	if p.done() {
		return "", errBadChallenge
	}
	if p.s[p.i] != '"' {
		v := p.token()
		if v == "" {
			return "", errBadChallenge
		}
		return v, nil
	}
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch c {
		case '"':
			p.i++
			return b.String(), nil
		case '\\':
			if p.i+1 >= len(p.s) {
				return "", errBadChallenge
			}
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", errBadChallenge
}
