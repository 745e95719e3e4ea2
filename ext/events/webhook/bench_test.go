package webhook

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
)

// BenchmarkWebhookDelivery measures signed deliveries of one event each to
// a Receiver over local TLS (connections reused), reporting events/s.
func BenchmarkWebhookDelivery(b *testing.B) {
	r := NewReceiver(func(context.Context, *Message) error { return nil }, nil)
	srv := httptest.NewTLSServer(r)
	b.Cleanup(srv.Close)
	s := testSender(b, srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 1})
	secret := GenerateSecret()
	r.Add("sub-1", secret)
	d := testDelivery(srv.URL, secret)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.ID = "evt_" + strconv.Itoa(i)
		if _, err := s.Deliver(ctx, d); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
