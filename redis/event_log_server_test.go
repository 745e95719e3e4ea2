package redis_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// tickPayload is the payload of the test type tick.
type tickPayload struct {
	N int `json:"n"`
}

// newEventsInstance returns a server instance with the Events extension
// on, its log an EventLog of its own Redis client, and a type tick (poll
// and push); heartbeats are an hour apart, so that only a wake delivers.
func newEventsInstance(t *testing.T, addr string) (*mcp.Server, *events.Server) {
	s := mcp.NewServer("events-redis", "v1", nil)
	es := events.NewServer(s, &events.ServerOptions{Log: newEventLog(t, addr, nil), Heartbeat: time.Hour})
	es.AddTypes(events.NewType[struct{}, tickPayload]("tick", "A tick", nil))
	t.Cleanup(es.Close)
	return s, es
}

// connectEvents connects a client with the extension to s.
func connectEvents(t *testing.T, s *mcp.Server) (*mcp.ClientSession, *events.Client) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient("events-client", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20260728})
	ec := events.EnableClient(c, nil)
	cs, err := c.Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, ec
}

// TestEventLogTwoServers: two instances of a server share an EventLog;
// occurrences emitted on one reach a push stream and a poll on the other,
// from a cursor the other handed out.
func TestEventLogTwoServers(t *testing.T) {
	addr, _ := server(t)
	_, esA := newEventsInstance(t, addr)
	sb, _ := newEventsInstance(t, addr)
	cs, ec := connectEvents(t, sb)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	head, err := events.Poll(ctx, cs, &events.PollParams{Name: "tick"})
	if err != nil || head.Cursor == nil {
		t.Fatalf("poll from now on B: %+v, %v", head, err)
	}
	got := make(chan int, 4)
	done := make(chan error, 1)
	go func() {
		done <- ec.Stream(ctx, cs, "tick", &events.StreamOptions{Cursor: head.Cursor, Heartbeat: time.Hour,
			OnEvent: func(_ context.Context, o *events.Occurrence) error {
				var p tickPayload
				if err := strictjson.Unmarshal(o.Data, &p); err != nil {
					return err
				}
				got <- p.N
				return nil
			}})
	}()
	next := func(want int) {
		t.Helper()
		select {
		case n := <-got:
			if n != want {
				t.Fatalf("stream on B got n=%d, want %d", n, want)
			}
		case err := <-done:
			t.Fatalf("stream ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatalf("stream on B: occurrence %d emitted on A did not arrive", want)
		}
	}
	for n := 1; n <= 3; n++ {
		if _, err := esA.Emit(ctx, "tick", tickPayload{N: n}, nil); err != nil {
			t.Fatal(err)
		}
		next(n) // after the first, the stream waits on Changed: only a wake delivers
	}
	res, err := events.Poll(ctx, cs, &events.PollParams{Name: "tick", Cursor: head.Cursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 3 || res.Truncated || res.HasMore {
		t.Fatalf("poll on B from its head cursor: %d events, truncated %v, more %v; want 3", len(res.Events), res.Truncated, res.HasMore)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Stream: %v", err)
	}
}
