package servercard

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// A Cache answers from memory while the card is fresh, revalidates with
// If-None-Match once it is stale (a 304 costs no body), and picks up a
// changed card.
func TestCache(t *testing.T) {
	served := atomic.Pointer[Handler]{}
	served.Store(weatherHandler(t))
	var requests, notModified atomic.Int32
	base := serveCard(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("If-None-Match") == served.Load().ETag() {
			notModified.Add(1)
		}
		served.Load().ServeHTTP(w, r)
	}))
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	c := &Cache{now: func() time.Time { return now }}
	ctx := context.Background()
	cardURL := base + "/mcp/server-card"

	steps := []struct {
		advance        time.Duration
		change         bool
		requests, r304 int32
		version        string
	}{
		{0, false, 1, 0, "1.4.2"},                // first fetch
		{30 * time.Minute, false, 1, 0, "1.4.2"}, // fresh: no request
		{31 * time.Minute, false, 2, 1, "1.4.2"}, // stale: revalidated, 304
		{59 * time.Minute, false, 2, 1, "1.4.2"}, // fresh again
		{2 * time.Minute, true, 3, 1, "1.4.3"},   // stale and changed: 200
	}
	for i, st := range steps {
		now = now.Add(st.advance)
		if st.change {
			card := weatherCard(t)
			card.Version = "1.4.3"
			served.Store(must(NewCardHandler(card)))
		}
		f, err := c.Fetch(ctx, cardURL)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if requests.Load() != st.requests || notModified.Load() != st.r304 || f.Card.Version != st.version || f.NotModified {
			t.Fatalf("step %d: %d requests (%d revalidated), version %s, NotModified %v; want %d (%d), %s",
				i, requests.Load(), notModified.Load(), f.Card.Version, f.NotModified, st.requests, st.r304, st.version)
		}
	}
}
