package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hit is one request an endpoint received.
type hit struct {
	method string
	host   string
	sni    string
	header http.Header
	body   []byte
}

// endpoint is a TLS webhook endpoint that records every request and
// answers as its answer function says.
type endpoint struct {
	srv   *httptest.Server
	mu    sync.Mutex
	hits  []hit
	count atomic.Int64
}

// answerFunc answers the n-th request (from 1).
type answerFunc func(n int, w http.ResponseWriter, h hit)

// newEndpoint starts a TLS endpoint; answer nil answers 204.
func newEndpoint(t testing.TB, answer answerFunc) *endpoint {
	t.Helper()
	e := &endpoint{}
	e.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := hit{method: r.Method, host: r.Host, header: r.Header.Clone(), body: body}
		if r.TLS != nil {
			h.sni = r.TLS.ServerName
		}
		e.mu.Lock()
		e.hits = append(e.hits, h)
		n := len(e.hits)
		e.mu.Unlock()
		e.count.Add(1)
		if answer == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		answer(n, w, h)
	}))
	e.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the TLS failures some tests cause on purpose
	e.srv.StartTLS()
	t.Cleanup(e.srv.Close)
	return e
}

// recorded returns the requests received so far.
func (e *endpoint) recorded() []hit {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]hit(nil), e.hits...)
}

// trusting returns a TLS configuration that trusts the test servers'
// certificate.
func trusting(srv *httptest.Server) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &tls.Config{RootCAs: pool}
}

// testSender returns a Sender that trusts srv, may reach loopback
// addresses, and backs off for milliseconds.
func testSender(t testing.TB, srv *httptest.Server, opts SenderOptions) *Sender {
	t.Helper()
	if opts.TLSConfig == nil && srv != nil {
		opts.TLSConfig = trusting(srv)
	}
	if opts.InitialBackoff == 0 {
		opts.InitialBackoff, opts.MaxBackoff = time.Millisecond, 4*time.Millisecond
	}
	s := NewSender(&opts)
	t.Cleanup(s.Close)
	return s
}

// loopbackOnly lets a Sender reach 127.0.0.1 and ::1 and nothing else that
// the default refuses.
func loopbackOnly(ip netip.Addr) bool { return ip.Unmap().IsLoopback() }

// mustSecret parses a secret or fails the test.
func mustSecret(t testing.TB, text string) Secret {
	t.Helper()
	s, err := ParseSecret(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stepClock is a clock that moves a step forward at every reading.
type stepClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// mapResolver resolves host names from a table, answering each lookup of a
// name with the next of its address lists (the last one repeats).
type mapResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	lookups atomic.Int64
}

func (r *mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.lookups.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	lists := r.answers[host]
	if len(lists) == 0 {
		return nil, &netErrNoHost{host}
	}
	ips := lists[0]
	if len(lists) > 1 {
		r.answers[host] = lists[1:]
	}
	return ips, nil
}

// netErrNoHost is the error of an unknown name.
type netErrNoHost struct{ host string }

func (e *netErrNoHost) Error() string { return "no such host " + e.host }

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

// testDelivery returns a delivery of a small event to url.
func testDelivery(url string, secrets ...Secret) *Delivery {
	return &Delivery{
		URL:            url,
		SubscriptionID: "sub-1",
		ID:             "evt_1",
		Body:           []byte(`{"eventId":"evt_1","name":"email.received","timestamp":"2026-12-02T06:00:00Z","data":{"from":"a@example.com"},"cursor":"c-1"}`),
		Secrets:        secrets,
	}
}

// manualClock is a clock that moves only when the test moves it.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
