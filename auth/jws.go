package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"sync"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// The JWS algorithms accepted in access tokens and DPoP proofs. Only
// asymmetric ones: "none" and the HMAC family are never accepted, and an
// algorithm is used only if the verifier allows it and the key is of its
// type, whatever the token's header says.
const (
	// AlgRS256 is RSASSA-PKCS1-v1_5 with SHA-256 (keys of 2048 bits or more).
	AlgRS256 = "RS256"
	// AlgES256 is ECDSA with P-256 and SHA-256.
	AlgES256 = "ES256"
	// AlgEdDSA is Ed25519.
	AlgEdDSA = "EdDSA"
)

// defaultAlgs are the algorithms accepted when none are configured.
var defaultAlgs = []string{AlgRS256, AlgES256, AlgEdDSA}

// maxTokenBytes is the default bound on an access token or DPoP proof.
const maxTokenBytes = 16 << 10

// minRSABits is the smallest RSA modulus accepted.
const minRSABits = 2048

// jwsHeader is the protected header of a compact JWS.
type jwsHeader struct {
	Alg  string         `json:"alg"`
	Kid  string         `json:"kid"`
	Typ  string         `json:"typ"`
	Crit jsontext.Value `json:"crit"`
	JWK  jsontext.Value `json:"jwk"`
}

// compactJWS is a parsed, not yet verified, compact JWS.
type compactJWS struct {
	header       jwsHeader
	signingInput string // the ASCII "header.payload" that is signed
	payload      []byte
	sig          []byte
}

var b64 = base64.RawURLEncoding.Strict()

// headerBufs pools the buffer a header is decoded into.
var headerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// parseCompactJWS splits and decodes a compact JWS (RFC 7515 section 7.1)
// of at most max bytes. It checks the form only: three base64url parts
// without padding, a JSON header with an alg and no crit (no extension is
// understood, so none can be critical).
func parseCompactJWS(s string, max int) (*compactJWS, error) {
	if len(s) > max {
		return nil, invalid("token too long")
	}
	i := strings.IndexByte(s, '.')
	if i < 0 {
		return nil, invalid("token is not a JWS")
	}
	j := strings.IndexByte(s[i+1:], '.')
	if j < 0 {
		return nil, invalid("token is not a JWS")
	}
	j += i + 1
	if strings.IndexByte(s[j+1:], '.') >= 0 {
		return nil, invalid("token is not a compact JWS")
	}
	jws := &compactJWS{signingInput: s[:j]}
	if h, ok := headers.get(s[:i]); ok {
		jws.header = h
	} else if err := decodeHeader(s[:i], &jws.header); err != nil {
		return nil, err
	} else if len(jws.header.JWK) == 0 {
		headers.put(s[:i], jws.header)
	}
	// payload and signature share one allocation.
	pl, sl := base64.RawURLEncoding.DecodedLen(j-i-1), base64.RawURLEncoding.DecodedLen(len(s)-j-1)
	buf := make([]byte, pl+sl)
	n, err := b64.Decode(buf[:pl], bytesOf(s[i+1:j]))
	if err != nil {
		return nil, invalid("token payload is not base64url")
	}
	jws.payload = buf[:n:n]
	m, err := b64.Decode(buf[pl:], bytesOf(s[j+1:]))
	if err != nil {
		return nil, invalid("token signature is not base64url")
	}
	if m == 0 {
		return nil, invalid("token has no signature")
	}
	jws.sig = buf[pl : pl+m]
	return jws, nil
}

// decodeHeader decodes and checks a JWS protected header.
func decodeHeader(enc string, h *jwsHeader) error {
	bp := headerBufs.Get().(*[]byte)
	defer headerBufs.Put(bp)
	hdr, err := decodeB64(*bp, enc)
	*bp = hdr[:0]
	if err != nil {
		return invalid("token header is not base64url")
	}
	// No depth check: the header is bounded by the token's size, and
	// decoding into a struct without interface fields does not recurse on
	// unknown members.
	if err := unmarshalUnbounded(hdr, h); err != nil {
		return invalid("token header is not valid JSON")
	}
	if h.Alg == "" {
		return invalid("token header has no alg")
	}
	if len(h.Crit) > 0 {
		return invalid("token header has unsupported critical parameters")
	}
	return nil
}

// headerCache remembers a few decoded headers of the valid form: the
// tokens of an issuer share a handful (one per key), so most tokens skip
// decoding theirs. Headers with an embedded key (DPoP proofs) are not
// kept. It is bounded; when full, it is emptied.
type headerCache struct {
	mu sync.RWMutex
	m  map[string]jwsHeader
}

const maxCachedHeaders = 64

var headers = &headerCache{m: make(map[string]jwsHeader)}

func (c *headerCache) get(enc string) (jwsHeader, bool) {
	c.mu.RLock()
	h, ok := c.m[enc]
	c.mu.RUnlock()
	return h, ok
}

func (c *headerCache) put(enc string, h jwsHeader) {
	if len(enc) > 1024 {
		return
	}
	c.mu.Lock()
	if len(c.m) >= maxCachedHeaders {
		clear(c.m)
	}
	c.m[enc] = h
	c.mu.Unlock()
}

// decodeB64 decodes base64url text into dst's storage, growing it if need
// be.
func decodeB64(dst []byte, s string) ([]byte, error) {
	n := base64.RawURLEncoding.DecodedLen(len(s))
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	m, err := b64.Decode(dst, bytesOf(s))
	return dst[:m], err
}

// algAllowed reports whether alg is in algs.
func algAllowed(algs []string, alg string) bool {
	for _, a := range algs {
		if a == alg {
			return true
		}
	}
	return false
}

// keyFits reports whether key is a usable public key for alg.
func keyFits(alg string, key crypto.PublicKey) bool {
	switch alg {
	case AlgES256:
		k, ok := key.(*ecdsa.PublicKey)
		return ok && k.Curve == elliptic.P256()
	case AlgRS256:
		k, ok := key.(*rsa.PublicKey)
		return ok && k.N.BitLen() >= minRSABits
	case AlgEdDSA:
		k, ok := key.(ed25519.PublicKey)
		return ok && len(k) == ed25519.PublicKeySize
	}
	return false
}

// verifySignature checks the JWS's signature with key under alg, which
// the caller has checked against its allow-list and keyFits.
func (jws *compactJWS) verifySignature(alg string, key crypto.PublicKey) bool {
	switch alg {
	case AlgES256:
		k, ok := key.(*ecdsa.PublicKey)
		if !ok || len(jws.sig) != 64 {
			return false
		}
		h := sha256.Sum256(bytesOf(jws.signingInput))
		var der [72]byte
		return ecdsa.VerifyASN1(k, h[:], p256SigDER(der[:0], jws.sig))
	case AlgRS256:
		k, ok := key.(*rsa.PublicKey)
		if !ok {
			return false
		}
		h := sha256.Sum256(bytesOf(jws.signingInput))
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, h[:], jws.sig) == nil
	case AlgEdDSA:
		k, ok := key.(ed25519.PublicKey)
		return ok && ed25519.Verify(k, bytesOf(jws.signingInput), jws.sig)
	}
	return false
}

// p256SigDER appends to dst the ASN.1 DER form (RFC 3279 section 2.2.3)
// of a JWS ES256 signature, the 32-byte big-endian r and s concatenated
// (RFC 7518 section 3.4), as ecdsa.VerifyASN1 reads it.
func p256SigDER(dst, sig []byte) []byte {
	r, s := derInt(sig[:32]), derInt(sig[32:])
	dst = append(dst, 0x30, byte(4+len(r)+len(s)+btoi(r[0]&0x80 != 0)+btoi(s[0]&0x80 != 0)))
	dst = appendDERInt(dst, r)
	return appendDERInt(dst, s)
}

// derInt strips the leading zeros of an unsigned big-endian integer,
// keeping one byte for zero.
func derInt(b []byte) []byte {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// appendDERInt appends the DER INTEGER of the unsigned minimal b.
func appendDERInt(dst, b []byte) []byte {
	if b[0]&0x80 != 0 {
		dst = append(dst, 0x02, byte(len(b)+1), 0)
	} else {
		dst = append(dst, 0x02, byte(len(b)))
	}
	return append(dst, b...)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bytesOf returns the bytes of s without copying them. The result must
// only be read: it is used to hash and decode tokens, which are strings.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
