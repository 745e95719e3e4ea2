package webhook

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAllowOriginForTesting: a hardened Sender refuses a plain http
// loopback endpoint until its origin is permitted, then delivers there,
// while another loopback origin stays refused; malformed origins are
// errors.
func TestAllowOriginForTesting(t *testing.T) {
	hits := make(chan struct{}, 4)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits <- struct{}{}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer plain.Close()
	other := newEndpoint(t, nil)
	s := NewSender(&SenderOptions{MaxAttempts: 1, TLSConfig: trusting(other.srv)})
	defer s.Close()
	secret := GenerateSecret()
	ctx := context.Background()

	if _, err := s.Deliver(ctx, testDelivery(plain.URL+"/hook", secret)); !errors.Is(err, ErrInvalidURL) {
		t.Fatalf("before: %v, want ErrInvalidURL", err)
	}
	if err := s.AllowOriginForTesting(strings.ToUpper(plain.URL[:4]) + plain.URL[4:]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckURL(plain.URL + "/hook"); err != nil {
		t.Fatalf("CheckURL after: %v", err)
	}
	if _, err := s.Deliver(ctx, testDelivery(plain.URL+"/hook", secret)); err != nil {
		t.Fatalf("after: %v", err)
	}
	if len(hits) != 1 {
		t.Fatalf("the endpoint got %d requests, want 1", len(hits))
	}
	if _, err := s.Deliver(ctx, testDelivery(other.srv.URL+"/hook", secret)); err == nil || other.count.Load() != 0 {
		t.Fatalf("another loopback origin: %v after %d requests, want a refusal without a connection", err, other.count.Load())
	}
	for _, bad := range []string{"ftp://127.0.0.1", "http://127.0.0.1/path", "http://u@127.0.0.1", "http://", "http://127.0.0.1?x=1", "::"} {
		if err := s.AllowOriginForTesting(bad); !errors.Is(err, ErrInvalidURL) {
			t.Errorf("AllowOriginForTesting(%q) = %v, want ErrInvalidURL", bad, err)
		}
	}
}
