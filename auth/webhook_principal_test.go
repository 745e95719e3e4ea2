package auth_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/auth/authtest"
	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// principalFixture is an events server offering webhook delivery with the
// webhook.Service's default Principal, served over streamable HTTP behind
// RequireBearerToken (protected) and without it (open), and a Receiver
// behind a TLS server for the subscriptions.
type principalFixture struct {
	issuer          *authtest.Issuer
	protected, open string // the MCP endpoints
	receiver        *webhook.Receiver
	hookURL         string
	secret          string
}

func newPrincipalFixture(t *testing.T) *principalFixture {
	t.Helper()
	fx := &principalFixture{issuer: authtest.NewIssuer(), secret: webhook.GenerateSecret().Reveal()}
	t.Cleanup(fx.issuer.Close)
	fx.receiver = webhook.NewReceiver(func(context.Context, *webhook.Message) error { return nil }, nil)
	hook := httptest.NewTLSServer(fx.receiver)
	t.Cleanup(hook.Close)
	fx.hookURL = hook.URL + "/hook"
	roots := x509.NewCertPool()
	roots.AddCert(hook.Certificate())
	svc := webhook.NewService(&webhook.ServiceOptions{Sender: webhook.NewSender(&webhook.SenderOptions{
		TLSConfig:                   &tls.Config{RootCAs: roots},
		InsecureAllowPrivateAndHTTP: true, // the endpoint is on 127.0.0.1
	})})
	s := mcp.NewServer("events", "v1", nil)
	es := events.NewServer(s, &events.ServerOptions{Webhooks: svc})
	es.AddTypes(events.NewType("test.tick", "A tick", &events.TypeOptions[struct{}, struct{}]{
		Delivery: []string{events.DeliveryWebhook},
	}))
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- svc.Run(ctx, es) }()
	t.Cleanup(func() {
		cancel()
		if err := <-stopped; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	t.Cleanup(func() { _ = h.Close() })
	open := httptest.NewServer(h)
	protectedSrv := httptest.NewServer(nil)
	t.Cleanup(open.Close)
	t.Cleanup(protectedSrv.Close)
	fx.open, fx.protected = open.URL, protectedSrv.URL+"/mcp"
	verifier, err := fx.issuer.Verifier(fx.protected)
	if err != nil {
		t.Fatal(err)
	}
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{Resource: fx.protected})
	if err != nil {
		t.Fatal(err)
	}
	protectedSrv.Config.Handler = protect(h)
	return fx
}

// token returns a fresh token of subject for the protected endpoint.
func (fx *principalFixture) token(subject string) string {
	return fx.issuer.Token(authtest.Claims{Subject: subject, Audience: fx.protected})
}

// subscribe connects to url in protocol version with token (none if ""),
// subscribes to test.tick at the receiver and returns the subscription's
// id.
func (fx *principalFixture) subscribe(t *testing.T, version, url, token string) (string, error) {
	t.Helper()
	hdr := http.Header{}
	if token != "" {
		hdr.Set("Authorization", "Bearer "+token)
	}
	c := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: version})
	events.EnableClient(c, nil)
	cs, err := c.Connect(context.Background(), mcp.NewStreamableClientTransport(url, &mcp.StreamableClientTransportOptions{Header: hdr}))
	if err != nil {
		return "", err
	}
	defer cs.Close()
	res, err := webhook.Subscribe(context.Background(), cs, fx.receiver, &events.SubscribeParams{
		Name: "test.tick", Delivery: &events.WebhookTarget{URL: fx.hookURL, Secret: fx.secret},
	})
	if err != nil {
		return "", err
	}
	return res.ID, nil
}

// Behind RequireBearerToken, events/subscribe works without setting
// ServiceOptions.Principal, in the session-based and the stateless era
// alike: the subscription belongs to the token's issuer, subject and
// client, so another token of the same subject finds it again (in either
// era) and another subject gets its own. Without a token there is no
// principal: the middleware answers 401, and an unprotected endpoint
// answers Forbidden.
func TestWebhookSubscribeUsesTheTokenPrincipal(t *testing.T) {
	fx := newPrincipalFixture(t)
	var aliceIDs []string
	for _, v := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(v, func(t *testing.T) {
			alice, err := fx.subscribe(t, v, fx.protected, fx.token("alice"))
			if err != nil {
				t.Fatalf("alice: %v", err)
			}
			again, err := fx.subscribe(t, v, fx.protected, fx.token("alice"))
			if err != nil || again != alice {
				t.Errorf("alice with another token: %q, %v; want her subscription %q", again, err, alice)
			}
			bob, err := fx.subscribe(t, v, fx.protected, fx.token("bob"))
			if err != nil || bob == alice {
				t.Errorf("bob: %q, %v; want a subscription of his own (alice's is %q)", bob, err, alice)
			}
			if _, err := fx.subscribe(t, v, fx.open, ""); events.KindOf(err) != events.KindForbidden {
				t.Errorf("unauthenticated: %v, want Forbidden", err)
			}
			var herr *mcp.HTTPStatusError
			if _, err := fx.subscribe(t, v, fx.protected, ""); !errors.As(err, &herr) || herr.StatusCode != http.StatusUnauthorized {
				t.Errorf("no token: %v, want 401", err)
			}
			aliceIDs = append(aliceIDs, alice)
		})
	}
	if len(aliceIDs) == 2 && aliceIDs[0] != aliceIDs[1] {
		t.Errorf("alice's subscription is %q in one era and %q in the other", aliceIDs[0], aliceIDs[1])
	}
}
