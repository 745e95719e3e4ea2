package events

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// A wireMessage is one line of a LoggingTransport's log, decoded.
type wireMessage struct {
	dir    string          // "read" or "write", as the client saw it
	ID     any             `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// wire decodes a LoggingTransport's log.
func wire(t *testing.T, log string) []wireMessage {
	t.Helper()
	var out []wireMessage
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		dir, msg, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		var m wireMessage
		if err := strictjson.Unmarshal([]byte(msg), &m); err != nil {
			continue // a batch, or not a message
		}
		m.dir = dir
		out = append(out, m)
	}
	return out
}

// streamID returns the id of the first events/stream request in msgs.
func streamID(t *testing.T, msgs []wireMessage) any {
	t.Helper()
	for _, m := range msgs {
		if m.dir == "write" && m.Method == MethodStream {
			return m.ID
		}
	}
	t.Fatal("no events/stream request")
	return nil
}

// subscriptionID returns params._meta subscriptionId of a message.
func subscriptionID(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	if err := strictjson.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p.Meta["io.modelcontextprotocol/subscriptionId"]
}

// streamRun is a Client.Stream running on its own goroutine.
type streamRun struct {
	opened chan *string
	events chan *Occurrence
	done   chan error
	ended  chan struct{} // closed after done has the result
	cancel context.CancelFunc
}

// startStream runs c.ec.Stream of name with opts (whose hooks it sets).
func startStream(t *testing.T, c *conn, name string, opts *StreamOptions) *streamRun {
	t.Helper()
	if opts == nil {
		opts = &StreamOptions{}
	}
	r := &streamRun{opened: make(chan *string, 16), events: make(chan *Occurrence, 64), done: make(chan error, 1), ended: make(chan struct{})}
	opts.opened = func(c *string) {
		select {
		case r.opened <- c:
		default: // the test no longer counts
		}
	}
	opts.OnEvent = func(ctx context.Context, o *Occurrence) error {
		select {
		case r.events <- o:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		r.done <- c.ec.Stream(ctx, c.cs, name, opts)
		close(r.ended)
	}()
	t.Cleanup(func() {
		cancel()
		<-r.ended
	})
	return r
}

// TestStreamDelivers: a push stream starts with NotificationActive, then
// delivers the matching occurrences in order, each with its cursor; every
// notification carries the request's id as subscription id; a removed
// type ends the stream with NotificationTerminated carrying a nested
// NotFound error, which Stream returns.
func TestStreamDelivers(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(&ServerOptions{Heartbeat: time.Hour}, nil)
			c := connectTo(t, s, version, nil)
			r := startStream(t, c, "email.received", &StreamOptions{Arguments: mailArgs{From: "ada"}})
			within(t, r.opened, "the stream's active notification")
			emit(t, es, "email.received", mail{From: "ada", Subject: "one"}, nil)
			emit(t, es, "email.received", mail{From: "bob", Subject: "two"}, nil)
			emit(t, es, "email.received", mail{From: "ada", Subject: "three"}, nil)
			e1, e2 := within(t, r.events, "event 1"), within(t, r.events, "event 2")
			if subject(t, e1) != "one" || subject(t, e2) != "three" {
				t.Fatalf("events %s, %s; want one, three", e1.Data, e2.Data)
			}
			if e1.Cursor == nil || e2.Cursor == nil || *e1.Cursor == *e2.Cursor {
				t.Errorf("event cursors %v, %v", e1.Cursor, e2.Cursor)
			}
			es.RemoveTypes("email.received")
			err := within(t, r.done, "the end of Stream")
			var term *TerminatedError
			if !errors.As(err, &term) || term.Kind != KindNotFound {
				t.Fatalf("Stream: %v, want a NotFound TerminatedError", err)
			}
			msgs := wire(t, c.log.String())
			id := streamID(t, msgs)
			var methods []string
			for _, m := range msgs {
				if m.dir != "read" || !strings.HasPrefix(m.Method, "notifications/events/") || m.Method == NotificationListChanged {
					continue
				}
				methods = append(methods, strings.TrimPrefix(m.Method, "notifications/events/"))
				if got := subscriptionID(t, m.Params); got != id {
					t.Errorf("%s: subscriptionId %v, want the stream's id %v", m.Method, got, id)
				}
				if m.Method == NotificationTerminated {
					var p struct {
						Error struct {
							Code int64          `json:"code"`
							Data map[string]any `json:"data"`
						} `json:"error"`
					}
					if err := strictjson.Unmarshal(m.Params, &p); err != nil || p.Error.Code != int64(CodeNotFound) || p.Error.Data["kind"] != "event" {
						t.Errorf("terminated params %s: want a nested NotFound error", m.Params)
					}
				}
			}
			if got := strings.Join(methods, " "); got != "active event event terminated" {
				t.Errorf("stream notifications: %s", got)
			}
		})
	}
}

// TestStreamHeartbeat: heartbeats carry the cursor, as notifications (not
// SSE comments), at the configured interval.
func TestStreamHeartbeat(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, _ := newTestServer(&ServerOptions{Heartbeat: 5 * time.Millisecond}, nil)
			c := connectTo(t, s, version, nil)
			cursors := make(chan string, 64)
			r := startStream(t, c, "tick.push", &StreamOptions{OnCursor: func(c string, _ bool) {
				select {
				case cursors <- c:
				default:
				}
			}})
			first := *within(t, r.opened, "active")
			for range 3 { // the active's, then heartbeats'
				if c := within(t, cursors, "a heartbeat"); c != first {
					t.Errorf("heartbeat cursor %q, want %q (nothing happened)", c, first)
				}
			}
			r.cancel()
			if err := within(t, r.done, "Stream's end"); !errors.Is(err, context.Canceled) {
				t.Fatalf("Stream: %v", err)
			}
			heartbeats := 0
			for _, m := range wire(t, c.log.String()) {
				if m.Method == NotificationHeartbeat {
					heartbeats++
					var p HeartbeatParams
					if err := strictjson.Unmarshal(m.Params, &p); err != nil || p.Cursor == nil || *p.Cursor != first {
						t.Errorf("heartbeat %s: want cursor %q", m.Params, first)
					}
				}
			}
			if heartbeats < 2 {
				t.Errorf("%d heartbeats on the wire", heartbeats)
			}
		})
	}
}

// TestStreamServerClose: a server that ends a stream itself sends the
// request's result, with the subscription id in _meta, as the last
// message; the client then reopens after a wait.
func TestStreamServerClose(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(&ServerOptions{Heartbeat: time.Hour}, nil)
			c := connectTo(t, s, version, nil)
			waited := make(chan time.Duration, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opened := make(chan *string, 1)
			done := make(chan error, 1)
			go func() {
				done <- c.ec.Stream(ctx, c.cs, "tick.push", &StreamOptions{
					opened: func(c *string) { opened <- c },
					wait: func(ctx context.Context, d time.Duration) error {
						waited <- d
						cancel()
						return ctx.Err()
					},
				})
			}()
			within(t, opened, "active")
			es.Close()
			if d := within(t, waited, "the wait before reopening"); d != time.Second {
				t.Errorf("waited %v before reopening, want 1s", d)
			}
			if err := within(t, done, "Stream's end"); !errors.Is(err, context.Canceled) {
				t.Fatalf("Stream: %v", err)
			}
			msgs := wire(t, c.log.String())
			id := streamID(t, msgs)
			found := false
			for _, m := range msgs {
				if m.dir == "read" && m.Method == "" && m.ID == id && m.Result != nil {
					found = true
					if got := subscriptionID(t, m.Result); got != id {
						t.Errorf("result %s: subscriptionId %v, want %v", m.Result, got, id)
					}
				}
			}
			if !found {
				t.Errorf("no result for the stream request %v:\n%s", id, c.log.String())
			}
		})
	}
}

// TestStreamReopensAfterSilence: after twice the heartbeat interval with
// no message, the client opens the stream again from its last cursor.
func TestStreamReopensAfterSilence(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(&ServerOptions{Heartbeat: time.Hour}, nil)
			c := connectTo(t, s, version, nil)
			r := startStream(t, c, "tick.push", &StreamOptions{Heartbeat: 50 * time.Millisecond})
			head := *within(t, r.opened, "the first active")
			emit(t, es, "tick.push", tick{N: 1}, nil)
			e := within(t, r.events, "the event")
			// Streams opened before the event (a slow machine may miss
			// two heartbeats before it) start at the head; the next one
			// after it must start at its cursor.
			for {
				again := within(t, r.opened, "the stream opened again")
				if again != nil && *again == *e.Cursor {
					break
				}
				if again == nil || *again != head {
					t.Fatalf("reopened at %v, want the last event's cursor %q", again, *e.Cursor)
				}
			}
			emit(t, es, "tick.push", tick{N: 2}, nil)
			// The reopened stream delivers what follows, and nothing twice.
			for {
				o := within(t, r.events, "the second event")
				if string(o.Data) == `{"n":1}` {
					t.Fatal("event 1 delivered again after reopening at its cursor")
				}
				if string(o.Data) == `{"n":2}` {
					break
				}
			}
		})
	}
}

// TestStreamsNotBoundByMaxInFlight: push streams are not counted against
// the session's bound on requests handled at once, so a client with more
// streams than the bound still makes calls; the Server's own MaxStreams
// bounds them, with ResourceExhausted.
func TestStreamsNotBoundByMaxInFlight(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, _ := newTestServer(&ServerOptions{Heartbeat: time.Hour, MaxStreams: 3}, &mcp.ServerOptions{MaxInFlight: 2})
			c := connectTo(t, s, version, nil)
			for i := range 3 {
				r := startStream(t, c, "tick.push", nil)
				within(t, r.opened, "stream "+string(rune('1'+i)))
			}
			if _, err := ListTypes(context.Background(), c.cs); err != nil {
				t.Fatalf("a call beside 3 streams with MaxInFlight 2: %v", err)
			}
			err := c.ec.Stream(context.Background(), c.cs, "tick.push", nil)
			var term *TerminatedError
			if !errors.As(err, &term) || term.Kind != KindResourceExhausted {
				t.Fatalf("a fourth stream with MaxStreams 3: %v, want ResourceExhausted", err)
			}
		})
	}
}

// TestStreamTypeReplaced: a type replaced by one with the same schemas
// keeps its push streams; one whose payload schema changed ends them
// with Unsupported, data.reason "schema_changed".
func TestStreamTypeReplaced(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(&ServerOptions{Heartbeat: time.Hour}, nil)
			c := connectTo(t, s, version, nil)
			r := startStream(t, c, "tick.push", nil)
			within(t, r.opened, "active")
			es.AddTypes(NewType[struct{}, tick]("tick.push", "A tick, described anew", &TypeOptions[struct{}, tick]{Delivery: []string{DeliveryPush}}))
			emit(t, es, "tick.push", tick{N: 1}, nil)
			if o := within(t, r.events, "the event after an identical replacement"); string(o.Data) != `{"n":1}` {
				t.Fatalf("event %s", o.Data)
			}
			es.AddTypes(NewType[struct{}, mail]("tick.push", "Now carries mail", &TypeOptions[struct{}, mail]{Delivery: []string{DeliveryPush}}))
			err := within(t, r.done, "the end of Stream")
			var term *TerminatedError
			if !errors.As(err, &term) || term.Kind != KindUnsupported {
				t.Fatalf("Stream: %v, want Unsupported", err)
			}
			if data, _ := term.Data.(map[string]any); data["reason"] != "schema_changed" || data["feature"] != "payloadSchema" {
				t.Errorf("data %v, want payloadSchema schema_changed", term.Data)
			}
		})
	}
}
