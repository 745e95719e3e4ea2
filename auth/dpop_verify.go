package auth

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gomcp/sdk/strictjson"
)

// Defaults of DPoPOptions.
const (
	// DefaultDPoPMaxAge is how old a DPoP proof's iat may be.
	DefaultDPoPMaxAge = 2 * time.Minute
	// DefaultDPoPReplayCacheSize bounds how many proof ids are remembered
	// to refuse replays.
	DefaultDPoPReplayCacheSize = 1 << 16
)

// DPoPOptions turn on sender-constrained tokens (RFC 9449) in
// RequireBearerToken: a request may present a token with the
// Authorization scheme DPoP and a DPoP header holding a proof signed by
// the key the token is bound to (its cnf.jkt).
type DPoPOptions struct {
	// Required refuses plain bearer tokens: every request must use DPoP.
	Required bool
	// Algorithms are the accepted proof algorithms, a subset of ES256,
	// RS256 and EdDSA (default: all three).
	Algorithms []string
	// MaxAge is how old a proof may be by its iat (default
	// DefaultDPoPMaxAge). Proof ids are remembered for as long, so that a
	// proof is accepted once.
	MaxAge time.Duration
	// ClockSkew is how far in the future a proof's iat may be (default
	// DefaultClockSkew).
	ClockSkew time.Duration
	// ReplayCacheSize bounds the proof ids remembered by the default
	// replay cache (default DefaultDPoPReplayCacheSize). When it is full of
	// ids younger than MaxAge, new proofs get 503 rather than risk a
	// replay.
	ReplayCacheSize int
	// ReplayCache remembers the proofs accepted, each until its iat plus
	// MaxAge plus ClockSkew (default: a MemoryDPoPReplayCache of
	// ReplayCacheSize keys, in this process). Instances of a server behind
	// a load balancer share one, so that a proof is accepted once by all
	// of them. A call is bounded by the request's context and by
	// DPoPReplayTimeout; an error answers 503 with Retry-After.
	ReplayCache DPoPReplayCache
	// Nonce, if set, makes proofs carry a server-provided nonce (RFC 9449
	// section 9): a proof without a valid one gets 401 with error
	// "use_dpop_nonce" and the nonce in the DPoP-Nonce header. Instances
	// of a server behind a load balancer share nonces with
	// NewSharedDPoPNonces.
	Nonce DPoPNonceSource
}

// DPoPReplayTimeout bounds a call to a DPoPOptions.ReplayCache other than
// the default one.
const DPoPReplayTimeout = 2 * time.Second

// A DPoPNonceSource hands out the nonces DPoP proofs must carry and
// checks them.
type DPoPNonceSource interface {
	// Nonce returns the nonce to send to clients now.
	Nonce() string
	// Valid reports whether a proof's nonce is acceptable.
	Valid(nonce string) bool
}

// NewDPoPNonces returns a DPoPNonceSource of random nonces that change
// every period; a nonce stays valid for one more period after it is
// replaced. Its nonces are known to one process only: instances of a
// server behind a load balancer use NewSharedDPoPNonces instead.
func NewDPoPNonces(period time.Duration) DPoPNonceSource {
	if period <= 0 {
		period = time.Minute
	}
	return &rotatingNonces{period: period, now: time.Now}
}

type rotatingNonces struct {
	period time.Duration
	now    func() time.Time

	mu        sync.Mutex
	cur, prev string
	rotatedAt time.Time
}

var _ DPoPNonceSource = (*rotatingNonces)(nil)

func (n *rotatingNonces) rotateLocked() {
	now := n.now()
	if n.cur != "" && now.Sub(n.rotatedAt) < n.period {
		return
	}
	var b [18]byte
	rand.Read(b[:])
	n.prev, n.cur, n.rotatedAt = n.cur, base64.RawURLEncoding.EncodeToString(b[:]), now
}

// Nonce returns the current nonce.
func (n *rotatingNonces) Nonce() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.rotateLocked()
	return n.cur
}

// Valid reports whether nonce is the current or the previous nonce.
func (n *rotatingNonces) Valid(nonce string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.rotateLocked()
	return nonce != "" && (nonce == n.cur || nonce == n.prev)
}

// dpopVerifier checks DPoP proofs for RequireBearerToken.
type dpopVerifier struct {
	required bool
	algs     []string
	maxAge   time.Duration
	skew     time.Duration
	nonce    DPoPNonceSource
	replay   DPoPReplayCache
	timeout  time.Duration // bounds a replay cache call; 0: not bounded
	now      func() time.Time
}

func newDPoPVerifier(o *DPoPOptions, now func() time.Time) (*dpopVerifier, error) {
	d := &dpopVerifier{required: o.Required, algs: defaultAlgs, maxAge: o.MaxAge, skew: o.ClockSkew, nonce: o.Nonce, now: now}
	if len(o.Algorithms) > 0 {
		for _, a := range o.Algorithms {
			if !algAllowed(defaultAlgs, a) {
				return nil, errors.New("auth: unsupported DPoP algorithm " + a)
			}
		}
		d.algs = append([]string(nil), o.Algorithms...)
	}
	if d.maxAge <= 0 {
		d.maxAge = DefaultDPoPMaxAge
	}
	if d.skew == 0 {
		d.skew = DefaultClockSkew
	} else if d.skew < 0 {
		d.skew = 0
	}
	if d.replay = o.ReplayCache; d.replay == nil {
		mem := NewMemoryDPoPReplayCache(o.ReplayCacheSize)
		mem.now = now
		d.replay = mem
	} else {
		d.timeout = DPoPReplayTimeout
	}
	return d, nil
}

// A dpopError is a refused proof: code is the error of the DPoP challenge.
type dpopError struct {
	code, desc string
	busy       bool // the replay cache failed: 503 with Retry-After
}

var _ error = (*dpopError)(nil)

func (e *dpopError) Error() string { return e.code + ": " + e.desc }

func badProof(desc string) *dpopError { return &dpopError{code: "invalid_dpop_proof", desc: desc} }

// dpopProof is a DPoP proof whose signature was checked with the key in
// its own header.
type dpopProof struct {
	jkt    string // RFC 7638 thumbprint of the proof's key
	claims dpopClaims
}

type dpopClaims struct {
	Jti   string  `json:"jti"`
	Htm   string  `json:"htm"`
	Htu   string  `json:"htu"`
	Iat   float64 `json:"iat"`
	Ath   string  `json:"ath"`
	Nonce string  `json:"nonce"`
}

// parseDPoPProof parses a DPoP proof JWT (RFC 9449 section 4.2) and checks
// its form and signature: typ dpop+jwt, an accepted asymmetric alg, a
// public jwk in the header that fits alg and verifies the signature, and
// claims that decode strictly.
func parseDPoPProof(proof string, algs []string) (*dpopProof, error) {
	jws, err := parseCompactJWS(proof, maxTokenBytes)
	if err != nil {
		return nil, badProof("DPoP proof is not a JWS")
	}
	h := &jws.header
	if h.Typ != "dpop+jwt" {
		return nil, badProof("DPoP proof typ must be dpop+jwt")
	}
	if !algAllowed(algs, h.Alg) {
		return nil, badProof("DPoP proof algorithm is not accepted")
	}
	if len(h.JWK) == 0 {
		return nil, badProof("DPoP proof has no jwk")
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(h.JWK); err != nil || !k.Valid() || !k.IsPublic() {
		return nil, badProof("DPoP proof jwk is not a public key")
	}
	if hasPrivateMembers(h.JWK) {
		return nil, badProof("DPoP proof jwk holds private key material")
	}
	if !keyFits(h.Alg, k.Key) || !jws.verifySignature(h.Alg, k.Key) {
		return nil, badProof("DPoP proof signature is invalid")
	}
	p := &dpopProof{}
	if err := strictjson.Unmarshal(jws.payload, &p.claims); err != nil {
		return nil, badProof("DPoP proof claims are not valid JSON")
	}
	tp, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, badProof("DPoP proof jwk has no thumbprint")
	}
	p.jkt = base64.RawURLEncoding.EncodeToString(tp)
	return p, nil
}

// hasPrivateMembers reports whether a JWK has members of a private key.
func hasPrivateMembers(raw []byte) bool {
	var m map[string]any
	if strictjson.Unmarshal(raw, &m) != nil {
		return true
	}
	for _, name := range []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"} {
		if _, ok := m[name]; ok {
			return true
		}
	}
	return false
}

// A checkedProof is a DPoP proof that passed every check but the replay
// check, which waits until the access token is known to be good: a
// client without a valid token must not be able to fill the replay cache.
type checkedProof struct {
	jkt       string    // the proof key's thumbprint
	replayKey string    // the proof's key in the replay cache
	expires   time.Time // until when the proof must be remembered
}

// verify checks the DPoP header of r for a request presenting token at
// htu (the endpoint's URL), except for replay (checkReplay).
func (d *dpopVerifier) verify(r *http.Request, token, htu string) (checkedProof, *dpopError) {
	vals := r.Header.Values("DPoP")
	switch {
	case len(vals) == 0:
		return checkedProof{}, badProof("DPoP header missing")
	case len(vals) > 1:
		return checkedProof{}, badProof("several DPoP headers")
	}
	p, err := parseDPoPProof(vals[0], d.algs)
	if err != nil {
		return checkedProof{}, err.(*dpopError)
	}
	c := &p.claims
	now := d.now()
	switch {
	case c.Jti == "" || len(c.Jti) > 256:
		return checkedProof{}, badProof("DPoP proof jti missing or too long")
	case c.Htm != r.Method:
		return checkedProof{}, badProof("DPoP proof htm does not match the request method")
	case !htuMatches(c.Htu, htu):
		return checkedProof{}, badProof("DPoP proof htu does not match the request URL")
	case c.Iat <= 0:
		return checkedProof{}, badProof("DPoP proof has no iat")
	}
	iat := unixTime(c.Iat)
	if now.Add(d.skew).Before(iat) || now.Sub(iat) > d.maxAge {
		return checkedProof{}, badProof("DPoP proof iat is outside the accepted window")
	}
	ath := sha256.Sum256([]byte(token))
	if c.Ath != base64.RawURLEncoding.EncodeToString(ath[:]) {
		return checkedProof{}, badProof("DPoP proof ath does not match the access token")
	}
	if d.nonce != nil && !d.nonce.Valid(c.Nonce) {
		return checkedProof{}, &dpopError{code: "use_dpop_nonce", desc: "DPoP proof must carry the server's nonce"}
	}
	return checkedProof{jkt: p.jkt, replayKey: dpopReplayKey(p.jkt, c.Jti), expires: iat.Add(d.maxAge + d.skew)}, nil
}

// checkReplay records a checked proof in the replay cache, and refuses it
// if it was seen before, or if the cache cannot tell (503: never accept a
// proof that might be a replay).
func (d *dpopVerifier) checkReplay(ctx context.Context, p checkedProof) *dpopError {
	replayed, err := d.seen(ctx, p.replayKey, p.expires)
	switch {
	case err != nil:
		return &dpopError{code: "invalid_dpop_proof", desc: "DPoP proofs cannot be checked for replay now; retry later", busy: true}
	case replayed:
		return badProof("DPoP proof replayed")
	}
	return nil
}

// seen asks the replay cache whether key was seen, recording it until
// expires; a cache other than the default gets at most d.timeout.
func (d *dpopVerifier) seen(ctx context.Context, key string, expires time.Time) (bool, error) {
	if d.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.timeout)
		defer cancel()
	}
	return d.replay.Seen(ctx, key, expires)
}

// htuMatches compares a proof's htu with the endpoint URL, ignoring query
// and fragment (RFC 9449 section 4.3) and the differences canonical URLs
// remove.
func htuMatches(htu, endpoint string) bool {
	u, err := url.Parse(htu)
	if err != nil || u.Host == "" {
		return false
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	return sameResource(strings.TrimSuffix(u.String(), "?"), endpoint)
}

// requestURL returns the URL of r without query, for htu checks when no
// resource URL is configured.
func requestURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	u := scheme + "://" + r.Host + r.URL.EscapedPath()
	if c, err := CanonicalResourceURL(u); err == nil {
		return c
	}
	return u
}
