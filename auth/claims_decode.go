package auth

import (
	"strconv"
	"unicode/utf8"

	"github.com/gomcp/sdk/internal/strictjson"
)

// decodeClaims decodes the registered claims of a JWT payload into c,
// case-sensitively, refusing duplicate member names, invalid UTF-8 and
// values of the wrong type, as strictjson does.
//
// Most access tokens are a flat object of plain strings and integers, so
// a direct scanner reads them first, without reflection and with one
// allocation (the claims' text, shared by every string in c). Whatever the
// scanner does not handle itself (escapes, null audiences, deep nesting,
// many members, numbers out of range, anything malformed) goes to the
// general decoder, which decides; so both paths accept the same payloads
// and give the same claims (FuzzDecodeClaims checks this).
func decodeClaims(payload []byte, c *jwtClaims) error {
	if scanClaims(payload, c) {
		return nil
	}
	d := new(jwtClaims) // c itself stays off the heap
	if err := strictjson.UnmarshalTrusted(payload, d); err != nil {
		return err
	}
	*c = *d
	return nil
}

// Bits of the registered claims, to refuse duplicates.
const (
	claimIss = 1 << iota
	claimSub
	claimAud
	claimExp
	claimNbf
	claimIat
	claimJti
	claimClientID
	claimAzp
	claimScope
	claimScp
	claimCnf
)

// claimBit returns the bit of a registered claim, or 0.
func claimBit(name string) int {
	switch name {
	case "iss":
		return claimIss
	case "sub":
		return claimSub
	case "aud":
		return claimAud
	case "exp":
		return claimExp
	case "nbf":
		return claimNbf
	case "iat":
		return claimIat
	case "jti":
		return claimJti
	case "client_id":
		return claimClientID
	case "azp":
		return claimAzp
	case "scope":
		return claimScope
	case "scp":
		return claimScp
	case "cnf":
		return claimCnf
	}
	return 0
}

// claimScanner reads a JSON payload held in s; ok turns false (and stays
// false) at the first thing it leaves to the general decoder.
type claimScanner struct {
	s   string
	raw []byte // the same bytes as s, for jsontext.Value members
	i   int
	ok  bool
	one *[1]string // storage of a one-string audience
}

// maxScanDepth and maxScanNames bound the nesting and the members per
// object the scanner handles itself.
const (
	maxScanDepth = 16
	maxScanNames = 16
)

// scanClaims is the direct path of decodeClaims. It reports false, with
// c in any state, when the general decoder must decide.
func scanClaims(payload []byte, c *jwtClaims) bool {
	sc := claimScanner{s: string(payload), raw: payload, ok: true, one: &c.aud1}
	sc.ws()
	if !sc.byte('{') {
		return false
	}
	var seen int
	var others [maxScanNames]string
	n := 0
	for first := true; sc.ok; first = false {
		sc.ws()
		if sc.peek() == '}' && first {
			sc.i++
			break
		}
		name := sc.str()
		sc.ws()
		sc.byte(':')
		sc.ws()
		if !sc.ok {
			return false
		}
		if bit := claimBit(name); bit != 0 {
			if seen&bit != 0 {
				return false
			}
			seen |= bit
			sc.claim(bit, c)
		} else {
			if n == len(others) || hasName(others[:n], name) {
				return false
			}
			others[n] = name
			n++
			sc.skip(1)
		}
		sc.ws()
		if sc.peek() == ',' {
			sc.i++
			continue
		}
		if !sc.byte('}') {
			return false
		}
		break
	}
	sc.ws()
	return sc.ok && sc.i == len(sc.s)
}

// claim reads the value of the registered claim bit into c.
func (sc *claimScanner) claim(bit int, c *jwtClaims) {
	switch bit {
	case claimIss:
		c.Iss = sc.strOrNull()
	case claimSub:
		c.Sub = sc.strOrNull()
	case claimJti:
		c.Jti = sc.strOrNull()
	case claimClientID:
		c.ClientID = sc.strOrNull()
	case claimAzp:
		c.Azp = sc.strOrNull()
	case claimScope:
		c.Scope = sc.strOrNull()
	case claimExp:
		c.Exp = sc.numOrNull()
	case claimNbf:
		c.Nbf = sc.numOrNull()
	case claimIat:
		c.Iat = sc.numOrNull()
	case claimAud:
		c.Aud = sc.audience()
	case claimScp:
		start := sc.i
		sc.skip(1)
		c.Scp = sc.raw[start:sc.i:sc.i]
	case claimCnf:
		sc.cnf(c)
	}
}

func (sc *claimScanner) fail() { sc.ok = false }

func (sc *claimScanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

// byte consumes b, or fails.
func (sc *claimScanner) byte(b byte) bool {
	if sc.ok && sc.peek() == b {
		sc.i++
		return true
	}
	sc.fail()
	return false
}

func (sc *claimScanner) ws() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// str reads a string without escapes or control characters, in valid
// UTF-8.
func (sc *claimScanner) str() string {
	if !sc.byte('"') {
		return ""
	}
	start, ascii := sc.i, true
	for ; sc.i < len(sc.s); sc.i++ {
		switch c := sc.s[sc.i]; {
		case c == '"':
			v := sc.s[start:sc.i]
			sc.i++
			if !ascii && !utf8.ValidString(v) {
				sc.fail()
			}
			return v
		case c == '\\' || c < 0x20:
			sc.fail()
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	sc.fail()
	return ""
}

// skipStr reads a string that may have escapes, checking them. Escaped
// surrogates are left to the general decoder.
func (sc *claimScanner) skipStr() {
	if !sc.byte('"') {
		return
	}
	start, ascii := sc.i, true
	for sc.i < len(sc.s) {
		switch c := sc.s[sc.i]; {
		case c == '"':
			if !ascii && !utf8.ValidString(sc.s[start:sc.i]) {
				sc.fail()
			}
			sc.i++
			return
		case c == '\\':
			if !sc.escape() {
				sc.fail()
				return
			}
		case c < 0x20:
			sc.fail()
			return
		default:
			ascii = ascii && c < utf8.RuneSelf
			sc.i++
		}
	}
	sc.fail()
}

// escape reads one escape sequence other than a surrogate's.
func (sc *claimScanner) escape() bool {
	if sc.i+1 >= len(sc.s) {
		return false
	}
	switch sc.s[sc.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		sc.i += 2
		return true
	case 'u':
		if sc.i+6 > len(sc.s) {
			return false
		}
		h := sc.s[sc.i+2 : sc.i+6]
		for j := range 4 {
			if c := h[j]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
		if (h[0] == 'd' || h[0] == 'D') && (h[1] >= '8' && h[1] <= '9' || h[1] >= 'a' && h[1] <= 'f' || h[1] >= 'A' && h[1] <= 'F') {
			return false // a surrogate
		}
		sc.i += 6
		return true
	}
	return false
}

// literal consumes the literal word (true, false, null).
func (sc *claimScanner) literal(word string) {
	if len(sc.s)-sc.i >= len(word) && sc.s[sc.i:sc.i+len(word)] == word {
		sc.i += len(word)
		return
	}
	sc.fail()
}

func (sc *claimScanner) strOrNull() string {
	if sc.peek() == 'n' {
		sc.literal("null")
		return ""
	}
	return sc.str()
}

func (sc *claimScanner) numOrNull() float64 {
	if sc.peek() == 'n' {
		sc.literal("null")
		return 0
	}
	f, err := strconv.ParseFloat(sc.number(), 64)
	if err != nil {
		sc.fail()
	}
	return f
}

// number reads a number of the JSON grammar (RFC 8259 section 6) and
// returns its text.
func (sc *claimScanner) number() string {
	start := sc.i
	if sc.peek() == '-' {
		sc.i++
	}
	switch c := sc.peek(); {
	case c == '0':
		sc.i++
	case c >= '1' && c <= '9':
		sc.digits()
	default:
		sc.fail()
		return ""
	}
	if sc.peek() == '.' {
		sc.i++
		if sc.digits() == 0 {
			sc.fail()
		}
	}
	if c := sc.peek(); c == 'e' || c == 'E' {
		sc.i++
		if c := sc.peek(); c == '+' || c == '-' {
			sc.i++
		}
		if sc.digits() == 0 {
			sc.fail()
		}
	}
	return sc.s[start:sc.i]
}

func (sc *claimScanner) digits() int {
	start := sc.i
	for sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9' {
		sc.i++
	}
	return sc.i - start
}

// audience reads "aud": a string or an array of strings.
func (sc *claimScanner) audience() audience {
	switch sc.peek() {
	case '"':
		sc.one[0] = sc.str()
		return sc.one[:1:1]
	case '[':
	default:
		sc.fail() // null and other types: the general decoder decides
		return nil
	}
	sc.i++
	aud := audience{}
	sc.ws()
	if sc.peek() == ']' {
		sc.i++
		return aud
	}
	for sc.ok {
		sc.ws()
		aud = append(aud, sc.str())
		sc.ws()
		if sc.peek() == ',' {
			sc.i++
			continue
		}
		sc.byte(']')
		break
	}
	return aud
}

// cnf reads the confirmation claim (RFC 7800): an object, or null.
func (sc *claimScanner) cnf(c *jwtClaims) {
	if sc.peek() == 'n' {
		sc.literal("null")
		return
	}
	if sc.peek() != '{' {
		sc.fail()
		return
	}
	sc.members(1, func(name string) {
		if name == "jkt" {
			c.Cnf.Jkt = sc.strOrNull()
		} else {
			sc.skip(2)
		}
	})
}

// members reads an object at nesting depth, calling member after each
// name and its colon to read the value.
func (sc *claimScanner) members(depth int, member func(name string)) {
	sc.byte('{')
	sc.ws()
	if sc.peek() == '}' {
		sc.i++
		return
	}
	var names [maxScanNames]string
	n := 0
	for sc.ok {
		sc.ws()
		name := sc.str()
		if n == len(names) || hasName(names[:n], name) {
			sc.fail()
			return
		}
		names[n] = name
		n++
		sc.ws()
		sc.byte(':')
		sc.ws()
		if !sc.ok {
			return
		}
		member(name)
		sc.ws()
		if sc.peek() == ',' {
			sc.i++
			continue
		}
		sc.byte('}')
		return
	}
}

// skip reads any value at nesting depth, checking its syntax.
func (sc *claimScanner) skip(depth int) {
	if depth > maxScanDepth {
		sc.fail()
		return
	}
	switch c := sc.peek(); {
	case c == '"':
		sc.skipStr()
	case c == '-' || c >= '0' && c <= '9':
		sc.number()
	case c == 't':
		sc.literal("true")
	case c == 'f':
		sc.literal("false")
	case c == 'n':
		sc.literal("null")
	case c == '{':
		sc.members(depth, func(string) { sc.skip(depth + 1) })
	case c == '[':
		sc.i++
		sc.ws()
		if sc.peek() == ']' {
			sc.i++
			return
		}
		for sc.ok {
			sc.ws()
			sc.skip(depth + 1)
			sc.ws()
			if sc.peek() == ',' {
				sc.i++
				continue
			}
			sc.byte(']')
			return
		}
	default:
		sc.fail()
	}
}

func hasName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
