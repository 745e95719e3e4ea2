package auth

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseWWWAuthenticate(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   []Challenge
	}{
		{"bearer with resource metadata", []string{`Bearer resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp"`},
			[]Challenge{{Scheme: "Bearer", Params: map[string]string{"resource_metadata": "http://localhost:3000/.well-known/oauth-protected-resource/mcp"}}}},
		{"insufficient scope, folded", []string{"Bearer error=\"insufficient_scope\",\t scope=\"files:write a:b\", resource_metadata=\"https://x/y\""},
			nil},
		{"scheme only", []string{"Bearer"}, []Challenge{{Scheme: "Bearer", Params: map[string]string{}}}},
		{"token param and case", []string{`DPoP Error=use_dpop_nonce, algs="ES256 RS256"`},
			[]Challenge{{Scheme: "DPoP", Params: map[string]string{"error": "use_dpop_nonce", "algs": "ES256 RS256"}}}},
		{"two challenges in one header", []string{`Basic realm="a, b", Bearer scope="x"`},
			[]Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "a, b"}}, {Scheme: "Bearer", Params: map[string]string{"scope": "x"}}}},
		{"two headers", []string{`DPoP algs="ES256"`, `Bearer realm="r"`},
			[]Challenge{{Scheme: "DPoP", Params: map[string]string{"algs": "ES256"}}, {Scheme: "Bearer", Params: map[string]string{"realm": "r"}}}},
		{"token68", []string{`Negotiate abc123==, Bearer`},
			[]Challenge{{Scheme: "Negotiate", Params: map[string]string{}, Token68: "abc123=="}, {Scheme: "Bearer", Params: map[string]string{}}}},
		{"escaped quote", []string{`Bearer realm="a\"b"`}, []Challenge{{Scheme: "Bearer", Params: map[string]string{"realm": `a"b`}}}},
		{"empty", []string{""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseWWWAuthenticate(tt.values)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "insufficient scope, folded" {
				if len(got) != 1 || got[0].Param("error") != "insufficient_scope" || !reflect.DeepEqual(got[0].Scopes(), []string{"files:write", "a:b"}) || got[0].Param("RESOURCE_METADATA") != "https://x/y" {
					t.Fatalf("got %+v", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseWWWAuthenticateRejects(t *testing.T) {
	for _, v := range []string{
		`Bearer realm="unterminated`,
		`Bearer realm="a", realm="b"`,
		`"quoted"`,
		`Bearer a="x` + "\x01" + `"`,
		`Bearer; x=y`,
		string(make([]byte, maxWWWAuthenticate+1)),
	} {
		if got, err := ParseWWWAuthenticate([]string{v}); !errors.Is(err, ErrInvalidChallenge) {
			t.Errorf("%q: got %+v, %v; want ErrInvalidChallenge", v, got, err)
		}
	}
}

func FuzzParseWWWAuthenticate(f *testing.F) {
	for _, s := range []string{`Bearer resource_metadata="https://a/b", scope="x y"`, `DPoP error="use_dpop_nonce"`, `Basic abc==, Bearer`, `a b=c, d`, `Bearer realm="a\"b"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseWWWAuthenticate([]string{s})
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.Scheme == "" {
				t.Fatalf("%q: empty scheme in %+v", s, cs)
			}
		}
	})
}
