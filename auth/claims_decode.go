package auth

import json "github.com/go-json-experiment/json"

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
	if err := unmarshalUnbounded(payload, d); err != nil {
		return err
	}
	*c = *d
	return nil
}

// unmarshalUnbounded decodes data into v by the rules of strictjson
// (github.com/gomcp/sdk/strictjson, whose decoder is this one with its
// default options) without strictjson's depth scan. It is for the texts of a
// token on the verification path (its header, its claims, a claim's value):
// bounded by the token's size, and decoded into types without interface
// fields, so the decoder never recurses on what it is given, and the scan
// would only cost time on every request.
func unmarshalUnbounded(data []byte, v any) error {
	return json.Unmarshal(data, v)
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

// scanClaims is the direct path of decodeClaims. It reports false, with
// c in any state, when the general decoder must decide.
func scanClaims(payload []byte, c *jwtClaims) bool {
	sc := jsonScanner{s: string(payload), raw: payload, ok: true, one: &c.aud1}
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
func (sc *jsonScanner) claim(bit int, c *jwtClaims) {
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

// audience reads "aud": a string or an array of strings.
func (sc *jsonScanner) audience() audience {
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
func (sc *jsonScanner) cnf(c *jwtClaims) {
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
