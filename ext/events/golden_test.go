package events

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/goldentest"
)

// TestGoldenExchanges records the exact messages of the extension's
// methods in each protocol era, and compares them with
// testdata/golden/<version>.txt: the capability entries, events/list,
// polls from now and from a cursor, the errors, events/subscribe without
// webhooks, and a push stream from its active notification to the result
// that ends it. Run with -update to rewrite the files after an intended
// change, and review the diff.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			// The log's clock stands a minute after the occurrences' fixed
			// times, so that they are never past its retention, whatever the day.
			l := NewMemoryLog(&MemoryLogOptions{Now: func() time.Time { return time.Date(2026, 12, 1, 8, 1, 0, 0, time.UTC) }})
			l.epoch = "e1" // cursors the same on every run
			s, es := newTestServer(&ServerOptions{Log: l, Heartbeat: time.Hour, PageSize: 2}, nil)
			c := connectTo(t, s, version, nil)
			if _, err := ListTypes(ctx, c.cs); err != nil {
				t.Fatal(err)
			}
			start, err := Poll(ctx, c.cs, &PollParams{Name: "email.received"})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
			emit(t, es, "email.received", mail{From: "ada", Subject: "one"}, &EmitOptions{EventID: "msg-1", Time: at})
			emit(t, es, "email.received", mail{From: "bob", Subject: "two"}, &EmitOptions{EventID: "msg-2", Time: at.Add(time.Second)})
			if _, err := Poll(ctx, c.cs, &PollParams{Name: "email.received", Cursor: start.Cursor, MaxEvents: 1}); err != nil {
				t.Fatal(err)
			}
			rpcError(t, c.cs, MethodPoll, &PollParams{Name: "nope"})
			rpcError(t, c.cs, MethodPoll, &PollParams{Name: "tick.push"})
			rpcError(t, c.cs, MethodPoll, &PollParams{Name: "email.received", Arguments: []byte(`{"from":1}`)})
			rpcError(t, c.cs, MethodSubscribe, &SubscribeParams{Name: "email.received", Delivery: &WebhookTarget{Mode: "webhook", URL: "https://example.com/hook"}})

			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			opened := make(chan *string, 1)
			got := make(chan *Occurrence, 1)
			done := make(chan error, 1)
			go func() {
				done <- c.ec.Stream(ctx, c.cs, "email.received", &StreamOptions{
					Arguments: mailArgs{From: "ada"},
					Cursor:    start.Cursor,
					opened:    func(c *string) { opened <- c },
					OnEvent:   func(_ context.Context, o *Occurrence) error { got <- o; return nil },
					wait:      func(context.Context, time.Duration) error { cancel(); return ctx.Err() },
				})
			}()
			within(t, opened, "active")
			within(t, got, "the replayed event")
			es.Close()
			within(t, done, "Stream's end")
			goldentest.Compare(t, filepath.Join("testdata", "golden", version+".txt"), c.log.String())
		})
	}
}
