package webhook

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestServiceConsentWithoutChallenge: a callback under VerifiedPrefixes,
// or under a prefix its origin's receiver document declares, is
// subscribed without a challenge and delivered to; other URLs, and URLs
// with dot segments, still take the challenge.
func TestServiceConsentWithoutChallenge(t *testing.T) {
	tests := []struct {
		name       string
		document   string // served at ReceiverDocumentPath; "" for 404
		trustDocs  bool
		path       string
		challenged bool
	}{
		{"under an allowlisted prefix", "", false, "/trusted/a", false},
		{"outside it", "", false, "/other", true},
		{"escaping it with a dot segment", "", false, "/trusted/../other", true},
		{"under a declared prefix", `{"receivers":["/wk/"]}`, true, "/wk/a", false},
		{"outside the declared prefixes", `{"receivers":["/wk/"]}`, true, "/x", true},
		{"declared, but documents not trusted", `{"receivers":["/wk/"]}`, false, "/wk/a", true},
		{"no document", "", true, "/wk/a", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWiredTuned(t, func(o *ServiceOptions, w *wired) {
				o.VerifiedPrefixes = []string{w.srv.URL + "/trusted/", "not a url"}
				o.TrustReceiverDocuments = tt.trustDocs
			}, nil)
			if tt.document != "" {
				w.document.Store(&tt.document)
			}
			p := w.params(GenerateSecret())
			p.Delivery.URL = w.srv.URL + tt.path
			res, err := Subscribe(context.Background(), w.cs, w.r, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := w.challenges.Load() > 0; got != tt.challenged {
				t.Fatalf("challenged %v, want %v", got, tt.challenged)
			}
			o := w.emit(t, 1)
			if m := w.next(t); m.EventID != o.EventID || m.SubscriptionID != res.ID {
				t.Fatalf("got %+v, want %s", m, o.EventID)
			}
		})
	}
}

// TestReceiverDeclares: the receiver document is read through the
// Sender, cached as Cache-Control says, bounded in size, and not followed
// through a redirect.
func TestReceiverDeclares(t *testing.T) {
	type probe struct {
		path    string
		advance time.Duration
		want    bool
		fetches int64 // after the probe
	}
	tests := []struct {
		name   string
		status int
		cc     string
		body   string
		probes []probe
	}{
		{"max-age caches", 200, "max-age=60", `{"receivers":["/wk/"]}`, []probe{
			{"/wk/a", 0, true, 1}, {"/wk/b", 0, true, 1}, {"/x", 0, false, 1}, {"/wk/./a", 0, false, 1},
			{"/wk/a", 61 * time.Second, true, 2},
		}},
		{"no header caches 5 minutes", 200, "", `{"receivers":["/wk/"]}`, []probe{
			{"/wk/a", 0, true, 1}, {"/wk/a", 4 * time.Minute, true, 1}, {"/wk/a", 2 * time.Minute, true, 2},
		}},
		{"no-store is fetched every time", 200, "no-store", `{"receivers":["/wk/"]}`, []probe{
			{"/wk/a", 0, true, 1}, {"/wk/a", 0, true, 2},
		}},
		{"a missing document is remembered a minute", 404, "max-age=3600", "", []probe{
			{"/wk/a", 0, false, 1}, {"/wk/a", 30 * time.Second, false, 1}, {"/wk/a", time.Minute, false, 2},
		}},
		{"too large", 200, "", `{"receivers":["/wk/"],"pad":"` + strings.Repeat("x", maxReceiverDocument) + `"}`, []probe{
			{"/wk/a", 0, false, 1},
		}},
		{"a redirect is not followed", 302, "", "", []probe{{"/wk/a", 0, false, 1}}},
		{"relative and dot prefixes are ignored", 200, "", `{"receivers":["wk/","/a/../"]}`, []probe{{"/wk/a", 0, false, 1}, {"/a/x", 0, false, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, func(_ int, w http.ResponseWriter, h hit) {
				if tt.cc != "" {
					w.Header().Set("Cache-Control", tt.cc)
				}
				if tt.status == 302 {
					w.Header().Set("Location", "/elsewhere"+ReceiverDocumentPath)
				}
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			})
			clock := &manualClock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
			s := testSender(t, e.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, Now: clock.now})
			for i, p := range tt.probes {
				clock.advance(p.advance)
				got, err := s.ReceiverDeclares(context.Background(), e.srv.URL+p.path)
				if err != nil || got != p.want {
					t.Fatalf("probe %d (%s): %v, %v; want %v", i, p.path, got, err, p.want)
				}
				if n := e.count.Load(); n != p.fetches {
					t.Fatalf("probe %d (%s): %d fetches, want %d", i, p.path, n, p.fetches)
				}
			}
			for _, h := range e.recorded() {
				if h.method != http.MethodGet {
					t.Errorf("request %s, want GET", h.method)
				}
			}
		})
	}
}

// TestReceiverDeclaresUnreachable: an origin whose document cannot be
// fetched is an error once, then remembered for a minute without a
// request.
func TestReceiverDeclaresUnreachable(t *testing.T) {
	e := newEndpoint(t, nil)
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":"):]
	e.srv.Close() // connections to it are refused
	res := &mapResolver{answers: map[string][][]netip.Addr{"receiver.test": {addrs("127.0.0.1")}}}
	clock := &manualClock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	s := testSender(t, nil, SenderOptions{Resolver: res, Now: clock.now})
	s.allowForTest = loopbackOnly
	url := "https://receiver.test" + port + "/wk/a"
	if ok, err := s.ReceiverDeclares(context.Background(), url); ok || err == nil {
		t.Fatalf("first: %v, %v; want an error", ok, err)
	}
	if ok, err := s.ReceiverDeclares(context.Background(), url); ok || err != nil || res.lookups.Load() != 1 {
		t.Fatalf("second: %v, %v after %d lookups; want false, no error, no new lookup", ok, err, res.lookups.Load())
	}
	clock.advance(time.Minute)
	if _, err := s.ReceiverDeclares(context.Background(), url); err == nil || res.lookups.Load() != 2 {
		t.Fatalf("a minute later: %v after %d lookups; want a new attempt", err, res.lookups.Load())
	}
}
