package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

const testResource = "https://mcp.example.com/mcp"

func newTestVerifier(t testing.TB, as *testAS, mod func(*JWTVerifierOptions)) *JWTVerifier {
	o := &JWTVerifierOptions{Issuer: as.issuer, Audience: testResource, FetchTimeout: 2 * time.Second}
	if mod != nil {
		mod(o)
	}
	v, err := NewJWTVerifier(o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestJWTVerifierAccepts(t *testing.T) {
	as := newTestAS(t)
	v := newTestVerifier(t, as, nil)
	for _, alg := range []string{"ES256", "RS256", "EdDSA"} {
		t.Run(alg, func(t *testing.T) {
			c := as.claims(testResource, "alice", "mcp:basic profile:read")
			c["cnf"] = map[string]any{"jkt": "thumb"}
			c["tenant"] = "acme"
			ti, err := v.VerifyToken(context.Background(), as.mint(t, alg, c))
			if err != nil {
				t.Fatal(err)
			}
			if ti.Subject != "alice" || ti.ClientID != "client-1" || ti.Issuer != as.issuer || ti.JKT != "thumb" ||
				!ti.HasScope("profile:read") || len(ti.Scopes) != 2 || ti.Audience[0] != testResource || ti.Expiration.IsZero() {
				t.Errorf("TokenInfo = %+v", ti)
			}
			var extra struct {
				Tenant string `json:"tenant"`
			}
			if err := ti.DecodeClaims(&extra); err != nil || extra.Tenant != "acme" {
				t.Errorf("DecodeClaims: %v %q", err, extra.Tenant)
			}
		})
	}
}

func TestJWTVerifierAudienceForms(t *testing.T) {
	as := newTestAS(t)
	v := newTestVerifier(t, as, nil)
	for _, aud := range []any{
		testResource,
		"HTTPS://MCP.EXAMPLE.COM/mcp",
		"https://mcp.example.com:443/mcp",
		[]string{"https://other.example.com", testResource},
	} {
		c := as.claims(testResource, "alice", "")
		c["aud"] = aud
		if _, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", c)); err != nil {
			t.Errorf("aud %v: %v", aud, err)
		}
	}
}

// TestJWTVerifierRefuses is every token the issue lists as bad input:
// each gets an error wrapping ErrInvalidToken.
func TestJWTVerifierRefuses(t *testing.T) {
	as := newTestAS(t)
	v := newTestVerifier(t, as, nil)
	now := time.Now().Unix()
	with := func(mod func(c map[string]any)) map[string]any {
		c := as.claims(testResource, "alice", "")
		mod(c)
		return c
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	hs := func() string {
		// HS256 with the RSA public key as secret: the classic key confusion.
		h := map[string]any{"alg": "HS256", "kid": "rs", "typ": "at+jwt"}
		hb, _ := json.Marshal(h)
		cb, _ := json.Marshal(as.claims(testResource, "alice", ""))
		in := base64.RawURLEncoding.EncodeToString(hb) + "." + base64.RawURLEncoding.EncodeToString(cb)
		pub, _ := json.Marshal(jose.JSONWebKey{Key: as.rs.Public()})
		mac := hmac.New(sha256.New, pub)
		mac.Write([]byte(in))
		return in + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	}
	good := as.mint(t, "ES256", as.claims(testResource, "alice", ""))
	parts := strings.Split(good, ".")
	tests := []struct {
		name, token, want string
	}{
		{"expired", as.mint(t, "ES256", with(func(c map[string]any) { c["exp"] = now - 120 })), "expired"},
		{"no exp", as.mint(t, "ES256", with(func(c map[string]any) { delete(c, "exp") })), "no expiry"},
		{"not yet valid", as.mint(t, "ES256", with(func(c map[string]any) { c["nbf"] = now + 600 })), "not yet valid"},
		{"issued in the future", as.mint(t, "ES256", with(func(c map[string]any) { c["iat"] = now + 600 })), "future"},
		{"wrong issuer", as.mint(t, "ES256", with(func(c map[string]any) { c["iss"] = "https://evil.example.com" })), "issuer"},
		{"issuer with trailing slash", as.mint(t, "ES256", with(func(c map[string]any) { c["iss"] = as.issuer + "/" })), "issuer"},
		{"wrong audience", as.mint(t, "ES256", with(func(c map[string]any) { c["aud"] = "https://other.example.com/mcp" })), "audience"},
		{"no audience", as.mint(t, "ES256", with(func(c map[string]any) { delete(c, "aud") })), "audience"},
		{"audience prefix", as.mint(t, "ES256", with(func(c map[string]any) { c["aud"] = "https://mcp.example.com" })), "audience"},
		{"alg none", rawJWS(map[string]any{"alg": "none", "kid": "es"}, as.claims(testResource, "alice", ""), nil) + "", "no signature"},
		{"alg none with signature", rawJWS(map[string]any{"alg": "none", "kid": "es"}, as.claims(testResource, "alice", ""), []byte{1}), "algorithm none"},
		{"HS256 key confusion", hs(), "algorithm HS256"},
		{"unknown key", signWith(t, other, "ES256", "nobody", as.claims(testResource, "alice", "")), "unknown key"},
		{"known kid, wrong key", signWith(t, other, "ES256", "es", as.claims(testResource, "alice", "")), "signature is invalid"},
		{"alg not the key's", rawJWS(map[string]any{"alg": "RS256", "kid": "es"}, as.claims(testResource, "alice", ""), make([]byte, 256)), "signature is invalid"},
		{"tampered claims", parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"iss":"`+as.issuer+`","aud":"`+testResource+`","sub":"mallory","exp":`+fmt.Sprint(now+60)+`}`)) + "." + parts[2], "signature is invalid"},
		{"dpop proof as token", rawJWS(map[string]any{"alg": "ES256", "typ": "dpop+jwt"}, as.claims(testResource, "alice", ""), make([]byte, 64)), "not an access token"},
		{"crit header", rawJWS(map[string]any{"alg": "ES256", "kid": "es", "crit": []string{"exp"}}, as.claims(testResource, "alice", ""), make([]byte, 64)), "critical"},
		{"two parts", parts[0] + "." + parts[1], "not a JWS"},
		{"four parts", good + ".x", "not a compact JWS"},
		{"padding", parts[0] + "." + parts[1] + "=." + parts[2], "base64url"},
		{"garbage", "not-a-jwt", "not a JWS"},
		{"header not JSON", "e30x." + parts[1] + "." + parts[2], "base64url|JSON"},
		{"duplicate claim", rawJWSBytes(`{"alg":"ES256","kid":"es"}`, `{"sub":"a","sub":"b"}`), "not valid JSON"},
		{"case-folded claim", rawJWSBytes(`{"alg":"ES256","kid":"es"}`, `{"ISS":"`+as.issuer+`","aud":"`+testResource+`","exp":`+fmt.Sprint(now+60)+`}`), "issuer"},
		{"huge token", "a." + strings.Repeat("b", 20<<10) + ".c", "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ti, err := v.VerifyToken(context.Background(), tt.token)
			if err == nil {
				t.Fatalf("accepted: %+v", ti)
			}
			if !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("error %v does not wrap ErrInvalidToken", err)
			}
			matched := false
			for _, w := range strings.Split(tt.want, "|") {
				matched = matched || strings.Contains(err.Error(), w)
			}
			if !matched {
				t.Errorf("error %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func rawJWSBytes(header, claims string) string {
	e := base64.RawURLEncoding
	return e.EncodeToString([]byte(header)) + "." + e.EncodeToString([]byte(claims)) + "." + e.EncodeToString(make([]byte, 64))
}

func TestJWTVerifierClockSkew(t *testing.T) {
	as := newTestAS(t)
	now := time.Now()
	c := as.claims(testResource, "alice", "")
	c["exp"] = now.Unix() - 10 // expired 10 s ago
	tok := as.mint(t, "ES256", c)
	if _, err := newTestVerifier(t, as, nil).VerifyToken(context.Background(), tok); err != nil {
		t.Errorf("default skew (30 s) refused a token expired 10 s ago: %v", err)
	}
	if _, err := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.ClockSkew = -1 }).VerifyToken(context.Background(), tok); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("no skew accepted an expired token: %v", err)
	}
}

func TestJWTVerifierAlgorithmAllowList(t *testing.T) {
	as := newTestAS(t)
	v := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.Algorithms = []string{"ES256"} })
	if _, err := v.VerifyToken(context.Background(), as.mint(t, "RS256", as.claims(testResource, "a", ""))); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("RS256 accepted with ES256 only: %v", err)
	}
	if _, err := NewJWTVerifier(&JWTVerifierOptions{Issuer: as.issuer, Audience: testResource, Algorithms: []string{"HS256"}}); err == nil {
		t.Error("HS256 allowed in the allow-list")
	}
}

func TestJWTVerifierCache(t *testing.T) {
	as := newTestAS(t)
	now := time.Now()
	v := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.now = func() time.Time { return now } })
	c := as.claims(testResource, "alice", "")
	c["exp"] = now.Unix() + 60
	tok := as.mint(t, "ES256", c)
	ti1, err := v.VerifyToken(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	ti2, err := v.VerifyToken(context.Background(), tok)
	if err != nil || ti2 != ti1 {
		t.Fatalf("second verification not from the cache: %v %p %p", err, ti1, ti2)
	}
	now = now.Add(2 * time.Minute)
	if _, err := v.VerifyToken(context.Background(), tok); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("expired cached token accepted: %v", err)
	}
	// Bounded: many tokens keep the cache at its size.
	small := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.CacheSize = 8 })
	for i := range 40 {
		if _, err := small.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, fmt.Sprint("u", i), ""))); err != nil {
			t.Fatal(err)
		}
	}
	if n := small.cache.len(); n > 8 {
		t.Errorf("cache holds %d tokens, limit 8", n)
	}
}

func TestJWTVerifierKeyRotationRateLimited(t *testing.T) {
	as := newTestAS(t)
	now := time.Now()
	clock := func() time.Time { return now }
	v := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.now = clock; o.RefreshInterval = time.Minute })
	if _, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, "a", ""))); err != nil {
		t.Fatal(err)
	}
	if n := as.jwksHits.Load(); n != 1 {
		t.Fatalf("JWKS fetched %d times, want 1", n)
	}
	// Tokens with unknown kids right after the fetch cause no new fetch.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for i := range 20 {
		_, err := v.VerifyToken(context.Background(), signWith(t, other, "ES256", fmt.Sprint("k", i), as.claims(testResource, "a", "")))
		if !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("unknown kid: %v", err)
		}
	}
	if n := as.jwksHits.Load(); n != 1 {
		t.Errorf("JWKS fetched %d times for unknown kids within the interval, want 1", n)
	}
	// After the interval, a rotated key is fetched once and accepted.
	k := as.rotate("new")
	now = now.Add(2 * time.Minute)
	c := as.claims(testResource, "b", "")
	if _, err := v.VerifyToken(context.Background(), signWith(t, k, "ES256", "new", c)); err != nil {
		t.Fatalf("rotated key: %v", err)
	}
	if n := as.jwksHits.Load(); n != 2 {
		t.Errorf("JWKS fetched %d times, want 2", n)
	}
}

func TestJWTVerifierJWKSDown(t *testing.T) {
	as := newTestAS(t)
	as.jwksStatus.Store(http.StatusInternalServerError)
	v := newTestVerifier(t, as, nil)
	_, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, "a", "")))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("JWKS down: %v, want ErrUnavailable", err)
	}
	// Within the back-off, requests fail fast without fetching.
	hits := as.jwksHits.Load()
	if _, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, "b", ""))); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("second: %v", err)
	}
	if as.jwksHits.Load() != hits {
		t.Error("JWKS fetched again within the failure back-off")
	}
}

func TestJWTVerifierJWKSSlow(t *testing.T) {
	as := newTestAS(t)
	as.jwksDelay.Store(int64(10 * time.Second))
	v := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.FetchTimeout = 200 * time.Millisecond })
	start := time.Now()
	_, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, "a", "")))
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("slow JWKS: %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("waited %v for a slow JWKS, timeout 200ms", d)
	}
	// A caller's own deadline is honoured too.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	v2 := newTestVerifier(t, as, nil)
	start = time.Now()
	if _, err := v2.VerifyToken(ctx, as.mint(t, "ES256", as.claims(testResource, "a", ""))); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("ctx deadline: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("waited %v past a 50ms deadline", d)
	}
	as.jwksDelay.Store(0)
	time.Sleep(300 * time.Millisecond) // let the timed-out fetches end
}

func TestJWTVerifierHugeKeySet(t *testing.T) {
	as := newTestAS(t)
	// 2,000 RSA keys (about 0.8 MB) before the real one: only MaxKeys are
	// kept, so the real key is not among them.
	var keys []json.RawMessage
	rsaPub, _ := json.Marshal(jose.JSONWebKey{Key: as.rs.Public(), Algorithm: "RS256"})
	for i := range 2000 {
		k := strings.Replace(string(rsaPub), `"kty"`, fmt.Sprintf(`"kid":"junk%d","kty"`, i), 1)
		keys = append(keys, json.RawMessage(k))
	}
	esPub, _ := json.Marshal(jose.JSONWebKey{Key: as.es.Public(), KeyID: "es", Algorithm: "ES256"})
	keys = append(keys, esPub)
	body, _ := json.Marshal(map[string]any{"keys": keys})
	as.jwksBody.Store(&body)
	v := newTestVerifier(t, as, nil)
	_, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, "a", "")))
	if !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("token signed by key 2001: %v", err)
	}
	if n := len(v.keys.cur.Load().keys); n != DefaultMaxKeys {
		t.Errorf("kept %d keys, want %d", n, DefaultMaxKeys)
	}
	// A JWKS over the byte limit is refused as a whole.
	big := append([]byte(`{"keys":[],"pad":"`), append([]byte(strings.Repeat("x", DefaultMaxJWKSBytes)), `"}`...)...)
	as.jwksBody.Store(&big)
	v2 := newTestVerifier(t, as, nil)
	if _, err := v2.VerifyToken(context.Background(), as.mint(t, "ES256", as.claims(testResource, "a", ""))); !errors.Is(err, ErrUnavailable) {
		t.Errorf("oversized JWKS: %v", err)
	}
}

func TestJWTVerifierDiscoveryForms(t *testing.T) {
	// An issuer with a path whose metadata is only at the OpenID Connect
	// path-appended URL.
	as := newTestAS(t)
	mux := http.NewServeMux()
	var issuer string
	mux.HandleFunc("/tenant1/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "jwks_uri": as.issuer + "/jwks"})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	issuer = srv.URL + "/tenant1"
	v := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.Issuer = issuer })
	c := as.claims(testResource, "a", "")
	c["iss"] = issuer
	if _, err := v.VerifyToken(context.Background(), as.mint(t, "ES256", c)); err != nil {
		t.Fatal(err)
	}
	// Metadata naming another issuer is refused.
	mux.HandleFunc("/.well-known/oauth-authorization-server/evil", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": "https://attacker.example.com", "jwks_uri": as.issuer + "/jwks"})
	})
	ev := newTestVerifier(t, as, func(o *JWTVerifierOptions) { o.Issuer = srv.URL + "/evil" })
	c["iss"] = srv.URL + "/evil"
	if _, err := ev.VerifyToken(context.Background(), as.mint(t, "ES256", c)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("metadata with a wrong issuer: %v", err)
	}
}

func TestMetadataURLs(t *testing.T) {
	got, _ := metadataURLs("https://auth.example.com/tenant1")
	want := []string{
		"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://auth.example.com/.well-known/openid-configuration/tenant1",
		"https://auth.example.com/tenant1/.well-known/openid-configuration",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v", got)
	}
	got, _ = metadataURLs("https://auth.example.com")
	if len(got) != 2 || got[0] != "https://auth.example.com/.well-known/oauth-authorization-server" {
		t.Errorf("got %v", got)
	}
}
