package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"testing"

	"github.com/gomcp/sdk/auth"
)

func TestAuthOptions(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	tests := []struct {
		scenario string
		context  map[string]string
		check    func(t *testing.T, o *auth.TransportOptions, machine bool)
	}{
		{"auth/metadata-default", nil, func(t *testing.T, o *auth.TransportOptions, machine bool) {
			if _, ok := o.Grant.(*auth.AuthorizationCodeGrant); !ok || machine || o.Client != nil || o.ClientMetadataURL != clientMetadataURL {
				t.Errorf("options %+v", o)
			}
		}},
		{"auth/pre-registration", map[string]string{"client_id": "c", "client_secret": "s", "issuer": "http://localhost:1"}, func(t *testing.T, o *auth.TransportOptions, _ bool) {
			if o.Client == nil || o.Client.ClientID != "c" || o.Client.ClientSecret != "s" || o.Client.Issuer != "http://localhost:1" {
				t.Errorf("client %+v", o.Client)
			}
		}},
		{"auth/client-credentials-jwt", map[string]string{"client_id": "c", "private_key_pem": keyPEM, "signing_algorithm": "ES256"}, func(t *testing.T, o *auth.TransportOptions, machine bool) {
			if _, ok := o.Grant.(auth.ClientCredentialsGrant); !ok || !machine || o.Client.PrivateKey == nil {
				t.Errorf("options %+v", o)
			}
		}},
		{"auth/cross-app-access-complete-flow", map[string]string{"client_id": "c", "client_secret": "s", "idp_client_id": "i", "idp_id_token": "t", "idp_token_endpoint": "http://localhost:2/token"}, func(t *testing.T, o *auth.TransportOptions, _ bool) {
			if g, ok := o.Grant.(*auth.EnterpriseGrant); !ok || g.IdPClientID != "i" || o.Client.AuthMethod != "client_secret_basic" {
				t.Errorf("options %+v", o)
			}
		}},
		{"auth/wif-jwt-bearer", map[string]string{"client_id": "w", "valid_jwt": "j"}, func(t *testing.T, o *auth.TransportOptions, _ bool) {
			if _, ok := o.Grant.(*auth.JWTBearerGrant); !ok || o.Client.ClientID != "w" {
				t.Errorf("options %+v", o)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			env := &scenarioEnv{scenario: tt.scenario, context: map[string]json.RawMessage{}}
			for k, v := range tt.context {
				b, _ := json.Marshal(v)
				env.context[k] = b
			}
			o, machine, err := authOptions(env)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, o, machine)
		})
	}
	env := &scenarioEnv{scenario: "auth/client-credentials-jwt", context: map[string]json.RawMessage{"private_key_pem": json.RawMessage(`"garbage"`)}}
	if _, _, err := authOptions(env); err == nil {
		t.Error("a bad key was accepted")
	}
}
