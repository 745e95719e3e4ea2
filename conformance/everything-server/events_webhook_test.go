package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// testToken is the bearer token the test's middleware accepts, for the
// principal testPrincipal.
const (
	testToken     = "test-token"
	testPrincipal = "tester"
)

// principalKey is the context key of the test's authenticated principal.
type principalKey struct{}

// withTestToken answers 401 to a request without the test token and
// passes the others on with their principal in the context, as
// auth.RequireBearerToken does with a TokenInfo.
func withTestToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, testPrincipal)))
	})
}

// TestTickWebhook: with an authenticated principal, test.tick offers
// webhook delivery; over streamable HTTP a client subscribes a TLS
// Receiver, emit_tick's occurrence reaches it signed, a refresh rotates the
// secret, and unsubscribe ends it.
func TestTickWebhook(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(version, func(t *testing.T) { testTickWebhook(t, version) })
	}
}

// tickWebhookRig is the server of TestTickWebhook behind the test token,
// a client connected with it, and a TLS Receiver.
type tickWebhookRig struct {
	cs       *mcp.ClientSession
	mcpURL   string
	receiver *webhook.Receiver
	endpoint *httptest.Server
	got      chan *webhook.Message
	settled  chan string
}

// newTickWebhookRig starts the rig for a client of the protocol version;
// everything stops at the test's end, and the test fails if the delivery
// loop does not.
func newTickWebhookRig(t *testing.T, version string) *tickWebhookRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &tickWebhookRig{got: make(chan *webhook.Message, 16), settled: make(chan string, 16)}
	r.receiver = webhook.NewReceiver(func(_ context.Context, m *webhook.Message) error { r.got <- m; return nil }, nil)
	r.endpoint = httptest.NewTLSServer(r.receiver)
	roots := x509.NewCertPool()
	roots.AddCert(r.endpoint.Certificate())
	svc := webhook.NewService(&webhook.ServiceOptions{
		Principal: func(ctx context.Context, _ *mcp.ServerSession) string {
			p, _ := ctx.Value(principalKey{}).(string)
			return p
		},
		Sender:  webhook.NewSender(&webhook.SenderOptions{TLSConfig: &tls.Config{RootCAs: roots}, InsecureAllowPrivateAndHTTP: true}),
		Settled: func(_, id string, _ error) { r.settled <- id },
	})
	srv := mcp.NewServer("everything-webhook", "v1.0.0", nil)
	es := addEvents(srv, svc, nil)
	r.mcpURL = serveDelivering(t, cancel, srv, func() error { return svc.Run(ctx, es) }, withTestToken, r.endpoint)
	tr := mcp.NewStreamableClientTransport(r.mcpURL, &mcp.StreamableClientTransportOptions{Header: http.Header{"Authorization": {"Bearer " + testToken}}})
	cs, err := mcp.NewClient("webhook-client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version}).Connect(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	r.cs = cs
	return r
}

// serveDelivering serves srv over streamable HTTP (through wrap) while run,
// the webhook delivery loop, runs until cancel; at the test's end it stops
// both and the endpoint, failing the test if run ends other than by
// cancellation. It returns the URL of the MCP endpoint.
func serveDelivering(t *testing.T, cancel context.CancelFunc, srv *mcp.Server, run func() error, wrap func(http.Handler) http.Handler, endpoint *httptest.Server) string {
	t.Helper()
	stopped := make(chan error, 1)
	go func() { stopped <- run() }()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mcpSrv := httptest.NewServer(wrap(handler))
	t.Cleanup(func() {
		mcpSrv.Close()
		handler.Close()
		cancel()
		if err := <-stopped; !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
		endpoint.Close()
	})
	return mcpSrv.URL
}

// emit calls emit_tick and waits for its occurrence, n wantN, to reach
// the receiver for subscription id and be settled.
func (r *tickWebhookRig) emit(t *testing.T, id string, wantN int) {
	t.Helper()
	ctx := context.Background()
	if res, err := r.cs.CallTool(ctx, "emit_tick", map[string]any{}, nil); err != nil || res.IsError {
		t.Fatalf("emit_tick: %v %+v", err, res)
	}
	select {
	case m := <-r.got:
		var o events.Occurrence
		if err := json.Unmarshal(m.Body, &o); err != nil || m.Name != tickEvent || m.SubscriptionID != id {
			t.Fatalf("delivered %+v (%v), want test.tick for %s", m, err, id)
		}
		var tk tick
		if err := json.Unmarshal(o.Data, &tk); err != nil || tk.N != wantN {
			t.Fatalf("data %s, want n %d", o.Data, wantN)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("tick %d not delivered", wantN)
	}
	select {
	case <-r.settled:
	case <-time.After(10 * time.Second):
		t.Fatal("delivery not settled")
	}
}

func testTickWebhook(t *testing.T, version string) {
	r := newTickWebhookRig(t, version)
	ctx := context.Background()
	types, err := events.ListTypes(ctx, r.cs)
	if err != nil || len(types) != 1 || len(types[0].Delivery) != 3 {
		t.Fatalf("types %+v (%v), want test.tick with poll, push and webhook", types, err)
	}
	first := webhook.GenerateSecret()
	params := &events.SubscribeParams{Name: tickEvent, Arguments: json.RawMessage(`{}`), Delivery: &events.WebhookTarget{URL: r.endpoint.URL + "/hook", Secret: first.Reveal()}}
	res, err := webhook.Subscribe(ctx, r.cs, r.receiver, params)
	if err != nil {
		t.Fatal(err)
	}
	r.emit(t, res.ID, 1)

	// Refresh with a new secret: the same subscription; the receiver
	// still holding only the old secret verifies (dual signing).
	params.Delivery.Secret = webhook.GenerateSecret().Reveal()
	res2, err := webhook.Subscribe(ctx, r.cs, r.receiver, params)
	if err != nil || res2.ID != res.ID || res2.DeliveryStatus == nil || !res2.DeliveryStatus.Active() {
		t.Fatalf("refresh %+v (%v), want the same id with an active deliveryStatus", res2, err)
	}
	r.receiver.Add(res.ID, first)
	r.emit(t, res.ID, 2)

	// Without the token nothing reaches the server; a request without a
	// principal that does is Forbidden (ext/events/webhook's tests).
	bad := mcp.NewStreamableClientTransport(r.mcpURL, &mcp.StreamableClientTransportOptions{Header: http.Header{"Authorization": {"Bearer wrong"}}})
	if cs, err := mcp.NewClient("intruder", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version}).Connect(ctx, bad); err == nil {
		_ = cs.Close()
		t.Fatal("a client with a wrong token connected")
	}

	un := &events.UnsubscribeParams{Name: tickEvent, Arguments: json.RawMessage(`{}`), Delivery: &events.WebhookTarget{URL: params.Delivery.URL}}
	if err := webhook.Unsubscribe(ctx, r.cs, r.receiver, res.ID, un); err != nil {
		t.Fatal(err)
	}
	if err := webhook.Unsubscribe(ctx, r.cs, r.receiver, res.ID, un); events.KindOf(err) != events.KindNotFound {
		t.Fatalf("second unsubscribe: %v, want NotFound", err)
	}
}
