package webhook_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// A server offers an event type by webhook; a client subscribes its
// Receiver, and an emitted event reaches it signed.
func ExampleService() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan *webhook.Message, 1)
	receiver := webhook.NewReceiver(func(_ context.Context, m *webhook.Message) error { got <- m; return nil }, nil)
	endpoint := httptest.NewTLSServer(receiver)
	defer endpoint.Close()
	roots := x509.NewCertPool()
	roots.AddCert(endpoint.Certificate())

	// docs:region service
	type tick struct {
		N int `json:"n"`
	}
	svc := webhook.NewService(&webhook.ServiceOptions{
		// Who calls ("" is Forbidden). Behind auth.RequireBearerToken the
		// default, mcp.PrincipalFromContext, names the token's principal; this
		// in-memory server has no auth, so it names one itself.
		Principal: func(ctx context.Context, _ *mcp.ServerSession) string { return "alice" },
		Sender: webhook.NewSender(&webhook.SenderOptions{
			TLSConfig:                   &tls.Config{RootCAs: roots},
			InsecureAllowPrivateAndHTTP: true, // only because the endpoint is on 127.0.0.1
		}),
	})
	s := mcp.NewServer("ticker", "v1.0.0", nil)
	es := events.NewServer(s, &events.ServerOptions{Webhooks: svc})
	es.AddTypes(events.NewType("test.tick", "A tick", &events.TypeOptions[struct{}, tick]{
		Delivery: []string{events.DeliveryPoll, events.DeliveryWebhook},
	}))
	go func() { _ = svc.Run(ctx, es) }() // delivers until ctx is done
	// docs:endregion

	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st); err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient("client", "v1.0.0", nil).Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	// docs:region client
	res, err := webhook.Subscribe(ctx, cs, receiver, &events.SubscribeParams{
		Name:     "test.tick",
		Delivery: &events.WebhookTarget{URL: endpoint.URL, Secret: webhook.GenerateSecret().Reveal()},
	})
	if err != nil {
		log.Fatal(err)
	}
	// docs:endregion
	if _, err := es.Emit(ctx, "test.tick", tick{N: 1}, nil); err != nil {
		log.Fatal(err)
	}
	m := <-got
	var o events.Occurrence
	if err := json.Unmarshal(m.Body, &o); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Name, string(o.Data), m.SubscriptionID == res.ID)
	// Output:
	// test.tick {"n":1} true
}
