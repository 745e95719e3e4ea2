package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// dropControls is what writeQuoted keeps of s.
func dropControls(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\t' || (c >= 0x20 && c != 0x7f) {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// FuzzChallengeRoundTrip writes a challenge from arbitrary values and
// parses it back: the parser must read exactly what the writer meant.
func FuzzChallengeRoundTrip(f *testing.F) {
	f.Add("mcp", "insufficient_scope", "File write permission required", "files:read files:write", "https://mcp.example.com/.well-known/oauth-protected-resource")
	f.Add("", "invalid_token", `quote " and \ backslash`, "", "https://x/?a=\"b\"")
	f.Add("r,e=a\"lm", "use_dpop_nonce", "", "a,b c=d", "")
	f.Fuzz(func(t *testing.T, realm, code, desc, scope, rm string) {
		c := challenge{scheme: "Bearer", realm: realm, errorCode: code, errorDescription: desc, scope: strings.Fields(scope), resourceMetadata: rm}
		for _, scheme := range []string{"Bearer", "DPoP"} {
			c.scheme = scheme
			if scheme == "DPoP" {
				c.algs = []string{"ES256", "EdDSA"}
			}
			hv := c.String()
			got, err := parseChallenges([]string{hv, "Basic realm=\"other\""})
			if err != nil {
				t.Fatalf("parse %q: %v", hv, err)
			}
			if len(got) != 2 || got[0].scheme != scheme || got[1].scheme != "Basic" {
				t.Fatalf("parse %q: %+v", hv, got)
			}
			p := got[0].params
			want := map[string]string{}
			if realm != "" {
				want["realm"] = dropControls(realm)
			}
			if code != "" {
				want["error"] = sanitizeToken(code)
			}
			if desc != "" {
				want["error_description"] = sanitizeDescription(desc)
			}
			if js := joinScopes(c.scope); len(c.scope) > 0 {
				want["scope"] = js
			}
			if rm != "" {
				want["resource_metadata"] = dropControls(rm)
			}
			if scheme == "DPoP" {
				want["algs"] = "ES256 EdDSA"
			}
			for k, v := range want {
				if p[k] != v {
					t.Errorf("%s: got %q, want %q (header %q)", k, p[k], v, hv)
				}
			}
			if len(p) != len(want) {
				t.Errorf("params %v, want %v", p, want)
			}
		}
	})
}

// FuzzParseChallenges feeds arbitrary header values to the parser, which
// must return without panicking.
func FuzzParseChallenges(f *testing.F) {
	f.Add(`Bearer realm="x", error="invalid_token", DPoP algs="ES256"`)
	f.Add(`Basic abc==, Bearer`)
	f.Add(`Bearer a="\"", b=c,,, d`)
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := parseChallenges([]string{s})
		if err == nil && len(cs) > 33 {
			t.Fatalf("%d challenges", len(cs))
		}
	})
}

// FuzzParseDPoPProof feeds arbitrary proofs to the DPoP proof parser.
func FuzzParseDPoPProof(f *testing.F) {
	c := newDPoPClient(f)
	f.Add(c.proof(f, "POST", "https://mcp.example.com/mcp", "tok", nil))
	f.Add("eyJhbGciOiJFUzI1NiIsInR5cCI6ImRwb3Arand0In0.e30.AAAA")
	f.Add("..")
	f.Fuzz(func(t *testing.T, proof string) {
		p, err := parseDPoPProof(proof, defaultAlgs)
		if err == nil && (p.jkt == "" || p == nil) {
			t.Fatal("accepted proof without a key thumbprint")
		}
	})
}

// FuzzVerifyJWT feeds arbitrary tokens to a JWTVerifier whose keys are
// already loaded.
func FuzzVerifyJWT(f *testing.F) {
	as := newTestAS(f)
	v, err := NewJWTVerifier(&JWTVerifierOptions{Issuer: as.issuer, Audience: testResource, RefreshInterval: time.Hour})
	if err != nil {
		f.Fatal(err)
	}
	good := as.mint(f, "ES256", as.claims(testResource, "alice", "a b"))
	if _, err := v.VerifyToken(context.Background(), good); err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(as.mint(f, "EdDSA", as.claims(testResource, "bob", "")))
	f.Add("e30.e30.")
	f.Fuzz(func(t *testing.T, token string) {
		ti, err := v.VerifyToken(context.Background(), token)
		if err == nil && ti.Issuer != as.issuer {
			t.Fatalf("accepted a token of issuer %q", ti.Issuer)
		}
	})
}

// FuzzAuthorizationHeader feeds arbitrary Authorization headers to the
// middleware.
func FuzzAuthorizationHeader(f *testing.F) {
	f.Add("Bearer alice-all")
	f.Add("DPoP x")
	f.Add("Bearer a b")
	f.Add("bearer    ==")
	ph := mustProtect(f, testTokens, &RequireBearerTokenOptions{Scopes: testRules})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if TokenInfoFromContext(r.Context()) == nil {
			panic("served without TokenInfo")
		}
	}))
	f.Fuzz(func(t *testing.T, h string) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(legacyInit(1)))
		req.Header["Authorization"] = []string{h}
		rec := httptest.NewRecorder()
		ph.ServeHTTP(rec, req)
		if rec.Code == http.StatusOK {
			_, token, desc := parseAuthorization(req.Header)
			if desc != "" || (token != "alice-all" && token != "alice-basic" && token != "bob-all") {
				t.Fatalf("header %q let through", h)
			}
		}
	})
}
