package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// conformanceRig is everything-server as main runs it, with or without
// -conformance-events, behind streamable HTTP without authentication, a
// client connected to it, and a plain http Receiver on loopback, where the
// suite's harness listens.
type conformanceRig struct {
	cs       *mcp.ClientSession
	receiver *webhook.Receiver
	endpoint *httptest.Server
	got      chan *webhook.Message
}

func newConformanceRig(t *testing.T, conformance bool) *conformanceRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &conformanceRig{got: make(chan *webhook.Message, 16)}
	r.receiver = webhook.NewReceiver(func(_ context.Context, m *webhook.Message) error { r.got <- m; return nil }, nil)
	r.endpoint = httptest.NewServer(r.receiver)
	hooks := newWebhookFixture(conformance, nil)
	t.Cleanup(hooks.sender.Close)
	srv := newServerWith(hooks, nil)
	unwrapped := func(h http.Handler) http.Handler { return h }
	url := serveDelivering(t, cancel, srv, func() error { return hooks.svc.Run(ctx, hooks.es) }, unwrapped, r.endpoint)
	cs, err := mcp.NewClient("harness", "v1.0.0", nil).Connect(ctx, mcp.NewStreamableClientTransport(url, nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	r.cs = cs
	return r
}

// control calls a diagnostic control and returns its text, failing the
// test on an error result.
func (r *conformanceRig) control(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	res, err := r.cs.CallTool(context.Background(), name, args, nil)
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	return res.Content[0].Text
}

// next returns the next message the receiver verified.
func (r *conformanceRig) next(t *testing.T) *webhook.Message {
	t.Helper()
	select {
	case m := <-r.got:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("nothing delivered within 10 s")
		return nil
	}
}

// subscribe subscribes the receiver at path.
func (r *conformanceRig) subscribe(path string, secret webhook.Secret) (*webhook.SubscribeResult, error) {
	return webhook.Subscribe(context.Background(), r.cs, r.receiver, &events.SubscribeParams{
		Name: tickEvent, Arguments: json.RawMessage(`{}`),
		Delivery: &events.WebhookTarget{URL: r.endpoint.URL + path, Secret: secret.Reveal()},
	})
}

// TestConformanceEventsControls runs the flow of the suite's webhook
// scenario against -conformance-events over streamable HTTP: the loopback
// http callback is refused (as is https://127.0.0.1), then its origin is
// permitted; subscribe challenges it; emit_tick's occurrence arrives
// signed; the gap and terminate controls send their envelopes; the state,
// quota and subscribe_as controls answer.
func TestConformanceEventsControls(t *testing.T) {
	r := newConformanceRig(t, true)
	tools, err := r.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"allow_callback_origin", "webhook_gap", "webhook_terminate", "quota", "subscription_exists", "subscription_state", "subscribe_as"} {
		if !slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "events_conformance_"+name }) {
			t.Errorf("tools/list lacks events_conformance_%s", name)
		}
	}
	secret := webhook.GenerateSecret()
	if _, err := r.subscribe("/hook", secret); events.KindOf(err) != events.KindInvalidParams {
		t.Fatalf("a loopback http callback: %v, want InvalidParams", err)
	}
	_, err = webhook.Subscribe(context.Background(), r.cs, r.receiver, &events.SubscribeParams{
		Name: tickEvent, Delivery: &events.WebhookTarget{URL: "https://127.0.0.1:1/hook", Secret: secret.Reveal()},
	})
	if events.KindOf(err) != events.KindInvalidParams {
		t.Fatalf("https://127.0.0.1: %v, want InvalidParams", err)
	}

	origin := r.endpoint.URL
	if got := r.control(t, "events_conformance_allow_callback_origin", map[string]any{"origin": origin}); got != "allowed "+origin {
		t.Errorf("allow_callback_origin answered %q", got)
	}
	res, err := r.subscribe("/hook", secret)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.control(t, "events_conformance_subscription_state", map[string]any{"id": res.ID}); got != "active" {
		t.Errorf("state %q, want active", got)
	}
	if got := r.control(t, "events_conformance_subscription_exists", map[string]any{"id": res.ID}); got != "true" {
		t.Errorf("exists %q, want true", got)
	}

	if tr, err := r.cs.CallTool(context.Background(), "emit_tick", map[string]any{}, nil); err != nil || tr.IsError {
		t.Fatalf("emit_tick: %v %+v", err, tr)
	}
	if m := r.next(t); m.Type != "" || m.Name != tickEvent || m.SubscriptionID != res.ID || m.Cursor == nil {
		t.Fatalf("delivered %+v, want a signed test.tick for %s", m, res.ID)
	}

	cursor := r.control(t, "events_conformance_webhook_gap", map[string]any{"id": res.ID})
	if m := r.next(t); m.Type != webhook.EnvelopeGap || m.Cursor == nil || *m.Cursor != cursor || !strings.HasPrefix(m.ID, "msg_gap_") {
		t.Fatalf("after the gap control got %+v, want a gap envelope with cursor %q", m, cursor)
	}

	var quota struct {
		Name string `json:"name"`
		Max  int    `json:"max"`
	}
	if err := json.Unmarshal([]byte(r.control(t, "events_conformance_quota", nil)), &quota); err != nil || quota.Name != tickEvent || quota.Max != tickQuota {
		t.Errorf("quota %+v (%v), want test.tick with %d", quota, err, tickQuota)
	}

	other := webhook.GenerateSecret()
	done := r.receiver.Expect(other)
	otherID := r.control(t, "events_conformance_subscribe_as", map[string]any{"principal": "someone-else", "url": r.endpoint.URL + "/hook", "secret": other.Reveal()})
	done()
	if otherID == res.ID || r.control(t, "events_conformance_subscription_state", map[string]any{"id": otherID}) != "active" {
		t.Errorf("subscribe_as gave %q (ours %q), want another active subscription", otherID, res.ID)
	}

	r.control(t, "events_conformance_webhook_terminate", map[string]any{"id": res.ID})
	if m := r.next(t); m.Type != webhook.EnvelopeTerminated || m.SubscriptionID != res.ID || m.Error == nil || m.Error.Code != int64(events.CodeForbidden) {
		t.Fatalf("after the terminate control got %+v, want a terminated envelope with Forbidden", m)
	}
	if got := r.control(t, "events_conformance_subscription_state", map[string]any{"id": res.ID}); got != "absent" {
		t.Errorf("state after terminate %q, want absent", got)
	}
	if got := r.control(t, "events_conformance_subscription_exists", map[string]any{"id": res.ID}); got != "false" {
		t.Errorf("exists after terminate %q, want false", got)
	}
}

// TestConformanceEventsOff: without -conformance-events test.tick still
// offers webhook delivery, an unauthenticated subscribe is Forbidden, and
// no control is offered.
func TestConformanceEventsOff(t *testing.T) {
	r := newConformanceRig(t, false)
	ctx := context.Background()
	types, err := events.ListTypes(ctx, r.cs)
	if err != nil || len(types) != 1 || !slices.Contains(types[0].Delivery, events.DeliveryWebhook) {
		t.Fatalf("types %+v (%v), want test.tick with webhook", types, err)
	}
	if _, err := r.subscribe("/hook", webhook.GenerateSecret()); events.KindOf(err) != events.KindForbidden {
		t.Fatalf("unauthenticated subscribe: %v, want Forbidden", err)
	}
	tools, err := r.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if strings.HasPrefix(tl.Name, "events_conformance_") {
			t.Errorf("tool %s offered without -conformance-events", tl.Name)
		}
	}
}
