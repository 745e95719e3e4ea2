package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
)

// countingEndpoint is a client's TLS webhook endpoint that counts the
// requests carrying each webhook-id before its Receiver sees them: the
// Receiver acknowledges a repeated webhook-id without handing it on, so
// only the count shows a message sent twice.
type countingEndpoint struct {
	receiver *webhook.Receiver
	url      string
	roots    *x509.CertPool // trusting the endpoint's certificate
	got      chan *webhook.Message

	mu    sync.Mutex
	posts map[string]int // by webhook-id
}

// newCountingEndpoint starts an endpoint, stopped at the test's end.
func newCountingEndpoint(t *testing.T) *countingEndpoint {
	e := &countingEndpoint{got: make(chan *webhook.Message, 16), posts: map[string]int{}}
	e.receiver = webhook.NewReceiver(func(_ context.Context, m *webhook.Message) error { e.got <- m; return nil }, nil)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(webhook.HeaderID); id != "" {
			e.mu.Lock()
			e.posts[id]++
			e.mu.Unlock()
		}
		e.receiver.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.url = srv.URL + "/hook"
	e.roots = x509.NewCertPool()
	e.roots.AddCert(srv.Certificate())
	return e
}

// count returns how many requests carried the webhook-id id.
func (e *countingEndpoint) count(id string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.posts[id]
}

// next waits for the occurrence n of test.tick to reach the endpoint for
// subscription id, and to be settled by an instance, which it returns.
func (e *countingEndpoint) next(t *testing.T, id string, n int, settled <-chan settlement) settlement {
	t.Helper()
	var m *webhook.Message
	select {
	case m = <-e.got:
	case <-time.After(10 * time.Second):
		t.Fatalf("tick %d was not delivered", n)
	}
	var o events.Occurrence
	var tk tick
	if err := json.Unmarshal(m.Body, &o); err != nil || m.SubscriptionID != id || m.Name != tickEvent {
		t.Fatalf("delivered %+v (%v), want test.tick for %s", m, err, id)
	}
	if err := json.Unmarshal(o.Data, &tk); err != nil || tk.N != n {
		t.Fatalf("delivered data %s, want n %d", o.Data, n)
	}
	select {
	case s := <-settled:
		if s.messageID != m.ID || s.err != nil {
			t.Fatalf("settled %+v, want %s delivered", s, m.ID)
		}
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("tick %d was not settled", n)
	}
	return settlement{}
}

// testTickWebhookOnce subscribes the endpoint through A and refreshes the
// subscription through B (one subscription: the registry is shared, and
// both delivery loops have it); each tick emitted on A or B is then sent
// once, whichever instance claims it; with A's loop stopped, B delivers;
// B unsubscribes it.
func testTickWebhookOnce(t *testing.T, a, b *tickInstance, e *countingEndpoint, settled <-chan settlement) {
	ctx := t.Context()
	params := &events.SubscribeParams{Name: tickEvent, Arguments: json.RawMessage(`{}`),
		Delivery: &events.WebhookTarget{URL: e.url, Secret: webhook.GenerateSecret().Reveal()}}
	sub, err := webhook.Subscribe(ctx, a.cs, e.receiver, params)
	if err != nil {
		t.Fatal(err)
	}
	again, err := webhook.Subscribe(ctx, b.cs, e.receiver, params)
	if err != nil || again.ID != sub.ID || again.DeliveryStatus == nil {
		t.Fatalf("the same subscribe through B: %+v (%v), want a refresh of %s", again, err, sub.ID)
	}
	var sent []string
	by := map[string]int{}
	for _, in := range []*tickInstance{b, a, b, a, b, a} {
		s := e.next(t, sub.ID, in.emit(t), settled)
		sent = append(sent, s.messageID)
		by[s.instance]++
	}
	t.Logf("deliveries settled by instance, both loops running: %v", by)
	a.stopDelivery()
	if s := e.next(t, sub.ID, a.emit(t), settled); s.instance != "b" {
		t.Fatalf("with A's delivery loop stopped, %s settled the delivery", s.instance)
	} else {
		sent = append(sent, s.messageID)
	}
	un := &events.UnsubscribeParams{Name: tickEvent, Arguments: json.RawMessage(`{}`), Delivery: &events.WebhookTarget{URL: e.url}}
	if err := webhook.Unsubscribe(ctx, b.cs, e.receiver, sub.ID, un); err != nil {
		t.Fatalf("unsubscribing through B what A subscribed: %v", err)
	}
	for _, id := range sent {
		if c := e.count(id); c != 1 {
			t.Errorf("occurrence %s was sent %d times, want once", id, c)
		}
	}
}
