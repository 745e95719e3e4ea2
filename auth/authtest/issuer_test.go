package authtest_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/auth/authtest"
)

const resource = "https://mcp.example.com/mcp"

// TestIssuerTokens: a JWTVerifier that discovers the Issuer from its
// metadata accepts its tokens with the claims chosen, and refuses the
// ones it should.
func TestIssuerTokens(t *testing.T) {
	is := authtest.NewIssuer()
	defer is.Close()
	v, err := is.Verifier(resource)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		claims  authtest.Claims
		invalid bool
		check   func(*auth.TokenInfo) bool
	}{
		{name: "defaults", claims: authtest.Claims{Audience: resource},
			check: func(ti *auth.TokenInfo) bool {
				return ti.Subject == "authtest-user" && ti.ClientID == "authtest-client" && len(ti.Scopes) == 0 &&
					time.Until(ti.Expiration) > 59*time.Minute
			}},
		{name: "subject, client and scopes", claims: authtest.Claims{Audience: resource, Subject: "alice", ClientID: "app", Scopes: []string{"a", "b:c"}},
			check: func(ti *auth.TokenInfo) bool {
				return ti.Subject == "alice" && ti.ClientID == "app" && slices.Equal(ti.Scopes, []string{"a", "b:c"})
			}},
		{name: "short expiry", claims: authtest.Claims{Audience: resource, ExpiresIn: 2 * time.Minute},
			check: func(ti *auth.TokenInfo) bool { return time.Until(ti.Expiration) <= 2*time.Minute }},
		{name: "bound to a key", claims: authtest.Claims{Audience: resource, JKT: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"},
			check: func(ti *auth.TokenInfo) bool { return ti.JKT == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I" }},
		{name: "extra claims", claims: authtest.Claims{Audience: resource, Extra: map[string]any{"tenant": "t1"}},
			check: func(ti *auth.TokenInfo) bool {
				var c struct {
					Tenant string `json:"tenant"`
				}
				return ti.DecodeClaims(&c) == nil && c.Tenant == "t1"
			}},
		{name: "expired", claims: authtest.Claims{Audience: resource, ExpiresIn: -time.Hour}, invalid: true},
		{name: "another audience", claims: authtest.Claims{Audience: "https://other.example.com/mcp"}, invalid: true},
		{name: "no audience", claims: authtest.Claims{}, invalid: true},
		{name: "another issuer", claims: authtest.Claims{Audience: resource, Extra: map[string]any{"iss": "https://evil.example.com"}}, invalid: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ti, err := v.VerifyToken(context.Background(), is.Token(tc.claims))
			if tc.invalid {
				if !errors.Is(err, auth.ErrInvalidToken) {
					t.Fatalf("VerifyToken = %v, %v; want ErrInvalidToken", ti, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(ti) {
				t.Errorf("TokenInfo %+v", ti)
			}
		})
	}
	// Another Issuer's key does not verify this one's tokens.
	other := authtest.NewIssuer()
	defer other.Close()
	forged := other.Token(authtest.Claims{Audience: resource, Extra: map[string]any{"iss": is.URL}})
	if _, err := v.VerifyToken(context.Background(), forged); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("a token signed by another key: %v", err)
	}
}
