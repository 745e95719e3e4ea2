package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// newGrantTransport returns a Transport with grant and client for rs.
func newGrantTransport(t *testing.T, rs *fakeRS, grant Grant, client *PreRegisteredClient) *Transport {
	t.Helper()
	tr, err := NewTransport(rs.url(), &TransportOptions{Grant: grant, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestClientCredentialsSecret(t *testing.T) {
	for _, method := range []string{"client_secret_basic", "client_secret_post"} {
		t.Run(method, func(t *testing.T) {
			as := newFakeAS(t, "")
			as.md.TokenEndpointAuthMethodsSupported = []string{method}
			rs := newFakeRS(t, as)
			tr := newGrantTransport(t, rs, ClientCredentialsGrant{}, &PreRegisteredClient{ClientID: "svc:1", ClientSecret: "s&cret"})
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				t.Fatalf("got %d, %v", status, err)
			}
			f, h := as.tokenForms[0], as.tokenHeaders[0]
			if f.Get("grant_type") != "client_credentials" || f.Get("resource") != rs.url() || as.count("POST /register") != 0 {
				t.Errorf("form %v", f)
			}
			switch method {
			case "client_secret_basic":
				// RFC 6749 section 2.3.1: both parts form-encoded.
				want := "Basic " + base64.StdEncoding.EncodeToString([]byte("svc%3A1:s%26cret"))
				if h.Get("Authorization") != want || f.Has("client_secret") {
					t.Errorf("Authorization %q, want %q", h.Get("Authorization"), want)
				}
			case "client_secret_post":
				if f.Get("client_id") != "svc:1" || f.Get("client_secret") != "s&cret" || h.Get("Authorization") != "" {
					t.Errorf("form %v", f)
				}
			}
		})
	}
}

func TestClientCredentialsPrivateKeyJWT(t *testing.T) {
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, tt := range []struct {
		alg string
		key crypto.Signer
	}{{"ES256", ecKey}, {"RS256", rsaKey}} {
		t.Run(tt.alg, func(t *testing.T) {
			// The key arrives as PKCS #8 PEM, as from a secret store.
			der, _ := x509.MarshalPKCS8PrivateKey(tt.key)
			key, err := ParsePrivateKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
			if err != nil {
				t.Fatal(err)
			}
			as := newFakeAS(t, "/tenant")
			as.md.TokenEndpointAuthMethodsSupported = []string{"private_key_jwt"}
			rs := newFakeRS(t, as)
			tr := newGrantTransport(t, rs, ClientCredentialsGrant{}, &PreRegisteredClient{ClientID: "svc", PrivateKey: key, KeyID: "k1"})
			if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
				t.Fatalf("got %d, %v", status, err)
			}
			f := as.tokenForms[0]
			if f.Get("client_assertion_type") != ClientAssertionTypeJWTBearer {
				t.Fatalf("form %v", f)
			}
			header, claims := verifyJWT(t, f.Get("client_assertion"), tt.key.Public())
			if header["alg"] != tt.alg || header["kid"] != "k1" {
				t.Errorf("header %v", header)
			}
			if claims["iss"] != "svc" || claims["sub"] != "svc" || claims["aud"] != as.issuer || claims["jti"] == nil {
				t.Errorf("claims %v; want iss = sub = client id, aud = issuer %s", claims, as.issuer)
			}
			exp, _ := claims["exp"].(float64)
			if d := time.Until(time.Unix(int64(exp), 0)); d <= 0 || d > 2*time.Minute {
				t.Errorf("exp in %v", d)
			}
		})
	}
}

// verifyJWT verifies an ES256 or RS256 JWT with pub and returns its header
// and claims.
func verifyJWT(t *testing.T, jwt string, pub crypto.PublicKey) (map[string]any, map[string]any) {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", jwt)
	}
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	var header, claims map[string]any
	json.Unmarshal(hb, &header)
	json.Unmarshal(cb, &claims)
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	ok := false
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		ok = len(sig) == 64 && ecdsaVerifyRaw(k, digest[:], sig)
	case *rsa.PublicKey:
		ok = rsa.VerifyPKCS1v15(k, crypto.SHA256, digest[:], sig) == nil
	}
	if !ok {
		t.Fatalf("signature does not verify")
	}
	return header, claims
}

func ecdsaVerifyRaw(k *ecdsa.PublicKey, digest, sig []byte) bool {
	_, err := verifyES256Raw(k, digest, sig)
	return err == nil
}

func TestJWTBearerGrantDoesNotRetry(t *testing.T) {
	for _, code := range []string{"invalid_grant", "invalid_scope", "unauthorized_client"} {
		t.Run(code, func(t *testing.T) {
			as := newFakeAS(t, "")
			as.tokenError = code
			rs := newFakeRS(t, as)
			grant := &JWTBearerGrant{Assertion: func(context.Context) (string, error) { return "workload.jwt.value", nil }}
			tr := newGrantTransport(t, rs, grant, &PreRegisteredClient{ClientID: "workload"})
			_, _, err := postThrough(t, tr, rs.url(), "{}")
			var oe *OAuthError
			if !errors.As(err, &oe) || oe.Code != code {
				t.Fatalf("err = %v, want %s", err, code)
			}
			if n := as.count("POST /token"); n != 1 {
				t.Errorf("%d token requests, want 1", n)
			}
			f := as.tokenForms[0]
			if f.Get("grant_type") != GrantTypeJWTBearer || f.Get("assertion") != "workload.jwt.value" || f.Get("client_id") != "workload" {
				t.Errorf("form %v", f)
			}
			if strings.Contains(err.Error(), "workload.jwt.value") {
				t.Errorf("the error shows the assertion: %v", err)
			}
		})
	}
}

func TestEnterpriseGrant(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	var idpForm url.Values
	idp := httptestServer(t, func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		idpForm = r.PostForm
		writeJSON(w, 200, map[string]any{"access_token": "id-jag-value", "issued_token_type": TokenTypeIDJAG, "token_type": "N_A"})
	})
	grant := &EnterpriseGrant{
		IdPTokenEndpoint: idp.URL + "/token", IdPClientID: "idp-client",
		IDToken: func(context.Context) (string, error) { return "id-token-value", nil },
	}
	tr := newGrantTransport(t, rs, grant, &PreRegisteredClient{ClientID: "mcp-client", ClientSecret: "mcp-secret", AuthMethod: "client_secret_basic"})
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	for k, want := range map[string]string{
		"grant_type": GrantTypeTokenExchange, "requested_token_type": TokenTypeIDJAG, "subject_token": "id-token-value",
		"subject_token_type": TokenTypeIDToken, "audience": as.issuer, "resource": rs.url(), "client_id": "idp-client",
	} {
		if idpForm.Get(k) != want {
			t.Errorf("IdP %s = %q, want %q", k, idpForm.Get(k), want)
		}
	}
	f, h := as.tokenForms[0], as.tokenHeaders[0]
	if f.Get("grant_type") != GrantTypeJWTBearer || f.Get("assertion") != "id-jag-value" || !strings.HasPrefix(h.Get("Authorization"), "Basic ") {
		t.Errorf("AS form %v, Authorization %q", f, h.Get("Authorization"))
	}

	// An IdP that answers with another token type is refused.
	bad := httptestServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"access_token": "x", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "token_type": "Bearer"})
	})
	grant.IdPTokenEndpoint = bad.URL + "/token"
	tr2 := newGrantTransport(t, rs, grant, &PreRegisteredClient{ClientID: "mcp-client", ClientSecret: "mcp-secret"})
	if _, _, err := postThrough(t, tr2, rs.url(), "{}"); err == nil || !strings.Contains(err.Error(), "not an ID-JAG") {
		t.Errorf("err = %v", err)
	}
}
