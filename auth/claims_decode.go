package auth

import (
	"bytes"
	"strconv"

	json "github.com/go-json-experiment/json"

	"github.com/gomcp/sdk/strictjson"
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
func claimBit(name []byte) int {
	switch string(name) {
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
// c in any state, when the general decoder must decide. The validating
// strictjson.Scanner checks the whole payload (syntax, UTF-8, duplicate
// names at any level); the claims are then read from its raw values.
func scanClaims(payload []byte, c *jwtClaims) bool {
	s, ok := strictjson.ScanObject(payload, false)
	if !ok {
		return false
	}
	cr := claimReader{payload: payload, text: string(payload)}
	for {
		name, v, more := s.Member()
		if !more {
			return s.Complete()
		}
		if bit := claimBit(name); bit != 0 && !cr.claim(bit, v, c) {
			return false
		}
	}
}

// A claimReader reads claim values, raw values of payload, into a
// jwtClaims. text is payload as a string: every string claim is a part of
// it, so the claims cost one allocation.
type claimReader struct {
	payload []byte
	text    string
}

// str returns the text of v, which is within payload: a string without
// escapes, or null (""). ok is false for other values.
func (cr *claimReader) str(v []byte) (string, bool) {
	switch {
	case v[0] == 'n':
		return "", true
	case v[0] != '"' || bytes.IndexByte(v, '\\') >= 0:
		return "", false
	}
	off := cap(cr.payload) - cap(v) // v's offset in payload
	return cr.text[off+1 : off+len(v)-1], true
}

// num returns the value of v: a number, or null (0).
func (cr *claimReader) num(v []byte) (float64, bool) {
	if v[0] == 'n' {
		return 0, true
	}
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, false
	}
	off := cap(cr.payload) - cap(v)
	f, err := strconv.ParseFloat(cr.text[off:off+len(v)], 64)
	return f, err == nil
}

// claim reads v, the value of the registered claim bit, into c.
func (cr *claimReader) claim(bit int, v []byte, c *jwtClaims) bool {
	var ok bool
	switch bit {
	case claimIss:
		c.Iss, ok = cr.str(v)
	case claimSub:
		c.Sub, ok = cr.str(v)
	case claimJti:
		c.Jti, ok = cr.str(v)
	case claimClientID:
		c.ClientID, ok = cr.str(v)
	case claimAzp:
		c.Azp, ok = cr.str(v)
	case claimScope:
		c.Scope, ok = cr.str(v)
	case claimExp:
		c.Exp, ok = cr.num(v)
	case claimNbf:
		c.Nbf, ok = cr.num(v)
	case claimIat:
		c.Iat, ok = cr.num(v)
	case claimAud:
		ok = cr.audience(v, c)
	case claimScp:
		c.Scp, ok = v[:len(v):len(v)], true
	case claimCnf:
		ok = cr.cnf(v, c)
	}
	return ok
}

// audience reads "aud": a string or an array of strings (null and other
// types are left to the general decoder).
func (cr *claimReader) audience(v []byte, c *jwtClaims) bool {
	if v[0] == '"' {
		s, ok := cr.str(v)
		c.aud1[0] = s
		c.Aud = c.aud1[:1:1]
		return ok
	}
	a, ok := strictjson.ScanArray(v, true) // validated with the payload
	if !ok {
		return false
	}
	aud := audience{}
	for {
		e, more := a.Element()
		if !more {
			c.Aud = aud
			return a.Complete()
		}
		if e[0] != '"' {
			return false
		}
		s, ok := cr.str(e)
		if !ok {
			return false
		}
		aud = append(aud, s)
	}
}

// cnf reads the confirmation claim (RFC 7800): an object, or null.
func (cr *claimReader) cnf(v []byte, c *jwtClaims) bool {
	if v[0] == 'n' {
		return true
	}
	o, ok := strictjson.ScanObject(v, true) // validated with the payload
	if !ok {
		return false
	}
	for {
		name, mv, more := o.Member()
		if !more {
			return o.Complete()
		}
		if string(name) == "jkt" {
			if c.Cnf.Jkt, ok = cr.str(mv); !ok {
				return false
			}
		}
	}
}
