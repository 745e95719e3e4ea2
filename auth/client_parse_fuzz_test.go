package auth

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

func FuzzParseTokenResponse(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"a","token_type":"Bearer","expires_in":3600,"scope":"x y","refresh_token":"r"}`,
		`{"access_token":"a","token_type":"DPoP"}`,
		`{"access_token":"","token_type":"Bearer"}`,
		`{"access_token":"a","access_token":"b","token_type":"Bearer"}`,
		`[[[[[[`,
	} {
		f.Add([]byte(s))
	}
	x := &Exchange{Metadata: &AuthorizationServerMetadata{Issuer: "https://as"}, now: time.Now}
	f.Fuzz(func(t *testing.T, body []byte) {
		tok, err := x.parseToken(body, url.Values{})
		if err != nil {
			if oe := oauthErrorFrom("token", 400, body); oe == nil {
				t.Fatal("no error for a failed response")
			}
			return
		}
		if tok.AccessToken == "" || tok.TokenType != "Bearer" {
			t.Fatalf("accepted %q as %+v", body, tok)
		}
		if strings.Contains(tok.String(), tok.AccessToken) && len(tok.AccessToken) > 8 {
			t.Fatalf("String shows the access token")
		}
	})
}

func FuzzParsePrivateKeyPEM(f *testing.F) {
	f.Add([]byte("-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"))
	f.Add([]byte("not pem"))
	f.Fuzz(func(t *testing.T, data []byte) {
		key, err := ParsePrivateKeyPEM(data)
		if err == nil && key == nil {
			t.Fatal("nil key without error")
		}
	})
}
