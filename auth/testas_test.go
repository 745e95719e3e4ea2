package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// testAS is an authorization server for tests: RFC 8414 metadata, a JWKS
// with an ES256, an RS256 and an EdDSA key, and tokens minted with
// go-jose (independently of the code under test).
type testAS struct {
	srv    *httptest.Server
	issuer string

	es  *ecdsa.PrivateKey
	rs  *rsa.PrivateKey
	ed  ed25519.PrivateKey
	mu  sync.Mutex
	set []jose.JSONWebKey // the published keys

	jwksHits     atomic.Int64
	metadataHits atomic.Int64
	jwksDelay    atomic.Int64 // nanoseconds
	jwksStatus   atomic.Int64 // 0: 200
	jwksBody     atomic.Pointer[[]byte]
	introspect   func(token string) map[string]any
}

var (
	testKeysOnce sync.Once
	testES       *ecdsa.PrivateKey
	testRS       *rsa.PrivateKey
	testED       ed25519.PrivateKey
)

func testKeys() {
	testKeysOnce.Do(func() {
		testES, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		testRS, _ = rsa.GenerateKey(rand.Reader, 2048)
		_, testED, _ = ed25519.GenerateKey(rand.Reader)
	})
}

func newTestAS(t testing.TB) *testAS {
	testKeys()
	as := &testAS{es: testES, rs: testRS, ed: testED}
	as.set = []jose.JSONWebKey{
		{Key: as.es.Public(), KeyID: "es", Algorithm: "ES256", Use: "sig"},
		{Key: as.rs.Public(), KeyID: "rs", Algorithm: "RS256", Use: "sig"},
		{Key: as.ed.Public(), KeyID: "ed", Algorithm: "EdDSA", Use: "sig"},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		as.metadataHits.Add(1)
		json.NewEncoder(w).Encode(map[string]any{
			"issuer":                 as.issuer,
			"jwks_uri":               as.issuer + "/jwks",
			"introspection_endpoint": as.issuer + "/introspect",
			"authorization_endpoint": as.issuer + "/authorize",
			"token_endpoint":         as.issuer + "/token",
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		as.jwksHits.Add(1)
		if d := time.Duration(as.jwksDelay.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
		}
		if s := as.jwksStatus.Load(); s != 0 {
			w.WriteHeader(int(s))
			return
		}
		if b := as.jwksBody.Load(); b != nil {
			w.Write(*b)
			return
		}
		as.mu.Lock()
		set := jose.JSONWebKeySet{Keys: as.set}
		as.mu.Unlock()
		json.NewEncoder(w).Encode(set)
	})
	mux.HandleFunc("/introspect", func(w http.ResponseWriter, r *http.Request) {
		if id, secret, ok := r.BasicAuth(); !ok || id != "rs" || secret != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		r.ParseForm()
		resp := map[string]any{"active": false}
		if as.introspect != nil {
			if m := as.introspect(r.PostForm.Get("token")); m != nil {
				resp = m
			}
		}
		json.NewEncoder(w).Encode(resp)
	})
	as.srv = httptest.NewServer(mux)
	as.issuer = as.srv.URL
	t.Cleanup(as.srv.Close)
	return as
}

// signer returns a go-jose signer for alg with the AS's key of that alg.
func (as *testAS) signer(t testing.TB, alg string, kid string, extra map[jose.HeaderKey]any) jose.Signer {
	var key any
	switch alg {
	case "ES256":
		key = as.es
	case "RS256":
		key = as.rs
	case "EdDSA":
		key = as.ed
	default:
		t.Fatalf("no key for %s", alg)
	}
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	for k, v := range extra {
		opts = opts.WithHeader(k, v)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// claims returns valid claims for a token of as meant for audience.
func (as *testAS) claims(audience, sub, scope string) map[string]any {
	now := time.Now().Unix()
	return map[string]any{
		"iss": as.issuer, "sub": sub, "aud": audience, "client_id": "client-1",
		"iat": now, "nbf": now, "exp": now + 3600, "jti": "id-" + sub, "scope": scope,
	}
}

// mint signs claims with the key of alg (kid = the key's id unless kid is
// given).
func (as *testAS) mint(t testing.TB, alg string, claims map[string]any) string {
	kid := map[string]string{"ES256": "es", "RS256": "rs", "EdDSA": "ed"}[alg]
	return as.mintKid(t, alg, kid, claims)
}

func (as *testAS) mintKid(t testing.TB, alg, kid string, claims map[string]any) string {
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := as.signer(t, alg, kid, nil).Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rawJWS assembles a JWS from a header, claims and signature bytes, for
// tokens no honest signer makes.
func rawJWS(header, claims map[string]any, sig []byte) string {
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	e := base64.RawURLEncoding
	return e.EncodeToString(h) + "." + e.EncodeToString(c) + "." + e.EncodeToString(sig)
}

// rotate replaces the published keys with a new ES256 key of id kid and
// returns it.
func (as *testAS) rotate(kid string) *ecdsa.PrivateKey {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	as.mu.Lock()
	as.set = append(as.set, jose.JSONWebKey{Key: k.Public(), KeyID: kid, Algorithm: "ES256", Use: "sig"})
	as.mu.Unlock()
	return k
}

func signWith(t testing.TB, key crypto.Signer, alg, kid string, claims map[string]any) string {
	opts := (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid)
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := jws.CompactSerialize()
	return out
}
