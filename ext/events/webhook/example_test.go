package webhook_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/gomcp/sdk/ext/events/webhook"
)

// A server confirms a client's endpoint with the challenge, then delivers a
// signed event to it; the client's Receiver verifies both.
func Example() {
	ctx := context.Background()

	// docs:region receiver
	// The client: a secret of its own, an endpoint that hands verified
	// messages on, and the subscribe in flight announced to it.
	secret := webhook.GenerateSecret()
	receiver := webhook.NewReceiver(func(ctx context.Context, m *webhook.Message) error {
		fmt.Printf("event %s (%s), cursor %s\n", m.EventID, m.Name, *m.Cursor)
		return nil // return only once the event is stored or forwarded
	}, nil)
	done := receiver.Expect(secret)
	defer done()
	// docs:endregion
	endpoint := httptest.NewTLSServer(receiver)
	defer endpoint.Close()
	roots := x509.NewCertPool()
	roots.AddCert(endpoint.Certificate())

	// docs:region sender
	// The server: the subscription's key gives its id; the endpoint is
	// verified once per (principal, url) before the first event.
	key, err := webhook.NewKey("alice", endpoint.URL, "email.received", []byte(`{"folder":"inbox"}`))
	if err != nil {
		log.Fatal(err)
	}
	sender := webhook.NewSender(&webhook.SenderOptions{
		TLSConfig:                   &tls.Config{RootCAs: roots},
		InsecureAllowPrivateAndHTTP: true, // only because the endpoint is on 127.0.0.1
	})
	defer sender.Close()
	registry := webhook.NewMemoryRegistry(nil)
	if err := webhook.VerifyEndpoint(ctx, sender, registry, key.Principal, key.URL, key.ID(), []webhook.Secret{secret}); err != nil {
		log.Fatalf("verification failed: %s", webhook.CategoryOf(err))
	}
	_, err = sender.Deliver(ctx, &webhook.Delivery{
		URL:            key.URL,
		SubscriptionID: key.ID(),
		ID:             "evt_1",
		Body:           []byte(`{"eventId":"evt_1","name":"email.received","timestamp":"2026-12-02T06:00:00Z","data":{"subject":"hi"},"cursor":"c-1"}`),
		Secrets:        []webhook.Secret{secret},
	})
	if err != nil {
		log.Fatalf("delivery failed: %s", webhook.CategoryOf(err))
	}
	// docs:endregion
	fmt.Println(secret)
	// Output:
	// event evt_1 (email.received), cursor c-1
	// whsec_[redacted]
}
