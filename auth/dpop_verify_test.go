package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// dpopClient holds a client's proof key and makes proofs with go-jose.
type dpopClient struct {
	key *ecdsa.PrivateKey
	jkt string
	n   atomic.Int64
}

func newDPoPClient(t testing.TB) *dpopClient {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tp, err := (&jose.JSONWebKey{Key: k.Public()}).Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return &dpopClient{key: k, jkt: base64.RawURLEncoding.EncodeToString(tp)}
}

// proof signs claims (defaults filled in for the missing ones) with typ
// dpop+jwt and the public key embedded.
func (c *dpopClient) proof(t testing.TB, method, htu, token string, mod func(map[string]any)) string {
	ath := sha256.Sum256([]byte(token))
	claims := map[string]any{
		"jti": fmt.Sprintf("jti-%d-%d", time.Now().UnixNano(), c.n.Add(1)), "htm": method, "htu": htu,
		"iat": time.Now().Unix(), "ath": base64.RawURLEncoding.EncodeToString(ath[:]),
	}
	if mod != nil {
		mod(claims)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: c.key},
		(&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt"))
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

func dpopProtected(t testing.TB, c *dpopClient, d *DPoPOptions) string {
	v := TokenVerifierFunc(func(ctx context.Context, token string) (*TokenInfo, error) {
		switch token {
		case "bound":
			return &TokenInfo{Subject: "dave", JKT: c.jkt}, nil
		case "bound-other":
			return &TokenInfo{Subject: "eve", JKT: "another-thumbprint"}, nil
		case "plain":
			return &TokenInfo{Subject: "frank"}, nil
		}
		return nil, invalid("unknown token")
	})
	var url string
	protectedWith(t, v, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, DPoP: d}, &url)
	return url
}

func TestDPoP(t *testing.T) {
	c := newDPoPClient(t)
	other := newDPoPClient(t)
	url := dpopProtected(t, c, &DPoPOptions{})
	send := func(token, proof string, extra ...string) (*http.Response, string) {
		h := []string{"Authorization", "DPoP " + token}
		if proof != "" {
			h = append(h, "DPoP", proof)
		}
		return post(t, url, legacyInit(1), append(h, extra...)...)
	}
	resp, body := send("bound", c.proof(t, "POST", url, "bound", nil))
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "protocolVersion") {
		t.Fatalf("valid DPoP request: %d %s", resp.StatusCode, body)
	}
	replayed := c.proof(t, "POST", url, "bound", nil)
	if resp, _ := send("bound", replayed); resp.StatusCode != http.StatusOK {
		t.Fatalf("first use: %d", resp.StatusCode)
	}
	tests := []struct {
		name, token, proof, want string
		extra                    []string
	}{
		{"no proof", "bound", "", "DPoP header missing", nil},
		{"two proofs", "bound", c.proof(t, "POST", url, "bound", nil), "several DPoP headers", []string{"DPoP", c.proof(t, "POST", url, "bound", nil)}},
		{"wrong htm", "bound", c.proof(t, "GET", url, "bound", nil), "htm", nil},
		{"wrong htu", "bound", c.proof(t, "POST", "https://evil.example.com/mcp", "bound", nil), "htu", nil},
		{"old iat", "bound", c.proof(t, "POST", url, "bound", func(m map[string]any) { m["iat"] = time.Now().Unix() - 600 }), "iat", nil},
		{"future iat", "bound", c.proof(t, "POST", url, "bound", func(m map[string]any) { m["iat"] = time.Now().Unix() + 600 }), "iat", nil},
		{"no iat", "bound", c.proof(t, "POST", url, "bound", func(m map[string]any) { delete(m, "iat") }), "iat", nil},
		{"no jti", "bound", c.proof(t, "POST", url, "bound", func(m map[string]any) { delete(m, "jti") }), "jti", nil},
		{"wrong ath", "bound", c.proof(t, "POST", url, "other-token", nil), "ath", nil},
		{"no ath", "bound", c.proof(t, "POST", url, "bound", func(m map[string]any) { delete(m, "ath") }), "ath", nil},
		{"replay", "bound", replayed, "replayed", nil},
		{"other key", "bound", other.proof(t, "POST", url, "bound", nil), "not the key the token is bound to", nil},
		{"token bound elsewhere", "bound-other", c.proof(t, "POST", url, "bound-other", nil), "not the key", nil},
		{"unbound token", "plain", c.proof(t, "POST", url, "plain", nil), "not bound", nil},
		{"HS256 proof", "bound", hs256Proof(url), "algorithm", nil},
		{"private key in jwk", "bound", c.proofWithPrivateKey(t, url), "jwk", nil},
		{"not a JWT", "bound", "garbage", "not a JWS", nil},
		{"bad signature", "bound", c.proof(t, "POST", url, "bound", nil) + "A", "signature", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := send(tt.token, tt.proof, tt.extra...)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401 (%s)", resp.StatusCode, body)
			}
			ch := challengeOf(t, resp.Header)["DPoP"]
			if ch == nil || !strings.Contains(ch["error_description"], tt.want) || ch["algs"] == "" {
				t.Errorf("challenge %v, want description with %q", resp.Header.Values("WWW-Authenticate"), tt.want)
			}
		})
	}
	// A bearer request still works when DPoP is optional; the DPoP-bound
	// token does not as a bearer token.
	if resp, _ := post(t, url, legacyInit(1), "Authorization", "Bearer plain"); resp.StatusCode != http.StatusOK {
		t.Errorf("bearer with optional DPoP: %d", resp.StatusCode)
	}
	if resp, _ := post(t, url, legacyInit(1), "Authorization", "Bearer bound"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("bound token as bearer: %d", resp.StatusCode)
	}
	// Without a token, both schemes are offered.
	resp, _ = post(t, url, legacyInit(1))
	cs := challengeOf(t, resp.Header)
	if cs["Bearer"] == nil || cs["DPoP"] == nil || cs["DPoP"]["resource_metadata"] != prmURL {
		t.Errorf("challenges %v", resp.Header.Values("WWW-Authenticate"))
	}
}

// hs256Proof is a DPoP proof for a POST to url signed with HS256, a
// symmetric algorithm a proof must not use.
func hs256Proof(url string) string {
	h, _ := json.Marshal(map[string]any{"alg": "HS256", "typ": "dpop+jwt", "jwk": map[string]any{"kty": "oct", "k": "c2VjcmV0"}})
	p, _ := json.Marshal(map[string]any{"jti": "x", "htm": "POST", "htu": url, "iat": time.Now().Unix()})
	return base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(p) + ".c2ln"
}

// proofWithPrivateKey is a proof by c for the token "bound" whose header
// jwk holds c's private key, which a proof must not disclose.
func (c *dpopClient) proofWithPrivateKey(t *testing.T, url string) string {
	priv, _ := json.Marshal(jose.JSONWebKey{Key: c.key})
	parts := strings.Split(c.proof(t, "POST", url, "bound", nil), ".")
	var hdr map[string]any
	b, _ := base64.RawURLEncoding.DecodeString(parts[0])
	json.Unmarshal(b, &hdr)
	hdr["jwk"] = json.RawMessage(priv)
	hb, _ := json.Marshal(hdr)
	return base64.RawURLEncoding.EncodeToString(hb) + "." + parts[1] + "." + parts[2]
}

func TestDPoPRequired(t *testing.T) {
	c := newDPoPClient(t)
	url := dpopProtected(t, c, &DPoPOptions{Required: true})
	resp, _ := post(t, url, legacyInit(1), "Authorization", "Bearer plain")
	cs := challengeOf(t, resp.Header)
	if resp.StatusCode != http.StatusUnauthorized || cs["Bearer"] != nil || cs["DPoP"]["error"] != "invalid_token" {
		t.Errorf("bearer with DPoP required: %d %v", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	}
	resp, _ = post(t, url, legacyInit(1))
	if cs := challengeOf(t, resp.Header); cs["Bearer"] != nil || cs["DPoP"] == nil {
		t.Errorf("no token with DPoP required: %v", resp.Header.Values("WWW-Authenticate"))
	}
}

func TestDPoPNonce(t *testing.T) {
	c := newDPoPClient(t)
	nonces := NewDPoPNonces(time.Minute)
	url := dpopProtected(t, c, &DPoPOptions{Nonce: nonces})
	resp, _ := post(t, url, legacyInit(1), "Authorization", "DPoP bound", "DPoP", c.proof(t, "POST", url, "bound", nil))
	nonce := resp.Header.Get("DPoP-Nonce")
	if resp.StatusCode != http.StatusUnauthorized || challengeOf(t, resp.Header)["DPoP"]["error"] != "use_dpop_nonce" || nonce == "" {
		t.Fatalf("proof without nonce: %d %v nonce %q", resp.StatusCode, resp.Header.Values("WWW-Authenticate"), nonce)
	}
	resp, _ = post(t, url, legacyInit(1), "Authorization", "DPoP bound", "DPoP", c.proof(t, "POST", url, "bound", func(m map[string]any) { m["nonce"] = "stale" }))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong nonce: %d", resp.StatusCode)
	}
	resp, _ = post(t, url, legacyInit(1), "Authorization", "DPoP bound", "DPoP", c.proof(t, "POST", url, "bound", func(m map[string]any) { m["nonce"] = nonce }))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("DPoP-Nonce") == "" {
		t.Errorf("proof with nonce: %d", resp.StatusCode)
	}
}

func TestHTUMatches(t *testing.T) {
	for _, tt := range []struct {
		htu  string
		want bool
	}{
		{"https://mcp.example.com/mcp", true},
		{"HTTPS://MCP.example.com:443/mcp", true},
		{"https://mcp.example.com/mcp?x=1", true},
		{"https://mcp.example.com/mcp#f", true},
		{"https://mcp.example.com/other", false},
		{"http://mcp.example.com/mcp", false},
		{"/mcp", false},
	} {
		if got := htuMatches(tt.htu, "https://mcp.example.com/mcp"); got != tt.want {
			t.Errorf("htuMatches(%q) = %v", tt.htu, got)
		}
	}
}
