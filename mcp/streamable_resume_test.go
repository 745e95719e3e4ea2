package mcp

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"
)

// events reads an SSE response to its end and returns its events.
func events(t testing.TB, resp *http.Response) []sseEvent {
	t.Helper()
	defer resp.Body.Close()
	var out []sseEvent
	r := newSSEReader(resp.Body, 0)
	for {
		ev, err := r.Next()
		if err != nil {
			return out
		}
		ev.Data = slices.Clone(ev.Data)
		out = append(out, ev)
	}
}

func TestStreamableHTTPResumeAfterServerClosesStream(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)

	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"poll","_meta":{"progressToken":"p"}}}`, nil)
	first := events(t, resp)
	// The priming event gives an id and no data; the server then closes
	// the connection after a retry field, before the response.
	if len(first) != 2 || !first[0].HasID || len(first[0].Data) != 0 || first[1].Retry != 20*time.Millisecond {
		t.Fatalf("first connection: %+v", first)
	}
	last := first[0].ID

	get := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", "Last-Event-ID": last})
	if get.StatusCode != 200 {
		t.Fatalf("resume: %s", get.Status)
	}
	rest := events(t, get)
	var msgs []map[string]any
	var ids []string
	for _, ev := range rest {
		if len(ev.Data) > 0 {
			msgs = append(msgs, decodeMap(t, ev.Data))
			ids = append(ids, ev.ID)
		}
	}
	if len(msgs) != 2 || msgs[0]["method"] != NotificationProgress || resultText(msgs[1]) != "resumed" {
		t.Fatalf("resumed stream: %v", msgs)
	}
	if ids[0] == ids[1] || ids[0] == last {
		t.Errorf("event ids not unique: %q then %v", last, ids)
	}

	// Resuming again from the first replayed event gives only the rest.
	again := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", "Last-Event-ID": ids[0]})
	rest = events(t, again)
	if len(rest) != 1 || resultText(decodeMap(t, rest[0].Data)) != "resumed" {
		t.Fatalf("second resume: %+v", rest)
	}
}

func TestStreamableHTTPResumeGETStream(t *testing.T) {
	_, h, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(headerSessionID, c.sid)
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r := newSSEReader(get.Body, 0)
	prime, err := r.Next()
	if err != nil || !prime.HasID {
		t.Fatalf("priming event: %+v %v", prime, err)
	}
	cancel()
	get.Body.Close()
	sess := waitSession(t, h, c.sid)
	waitUntil(t, func() bool { return !standaloneAttached(sess) })

	// A notification sent while no GET is connected is stored...
	if err := sess.ss.notify(context.Background(), NotificationToolListChanged, &ToolListChangedParams{}); err != nil {
		t.Fatal(err)
	}
	// ...and replayed on resumption, after which the stream stays open.
	req, _ = http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(headerSessionID, c.sid)
	req.Header.Set("Last-Event-ID", prime.ID)
	get, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer get.Body.Close()
	ev, err := newSSEReader(get.Body, 0).Next()
	if err != nil || decodeMap(t, ev.Data)["method"] != NotificationToolListChanged {
		t.Fatalf("replayed: %+v %v", ev, err)
	}
}

func TestStreamableHTTPResumeErrors(t *testing.T) {
	store := NewMemoryEventStore(&MemoryEventStoreOptions{MaxBytes: 10})
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: store}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p"}}}`, nil)
	evs := events(t, resp)
	if len(evs) != 5 { // priming, 3 progress, response
		t.Fatalf("stream: %+v", evs)
	}
	for _, tt := range []struct {
		last   string
		status int
	}{
		{evs[0].ID, http.StatusNotFound},   // purged: the store keeps 10 bytes
		{"garbage", http.StatusBadRequest}, // not an id of ours
		{"9_1", http.StatusNotFound},       // unknown stream
	} {
		get := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", "Last-Event-ID": tt.last})
		get.Body.Close()
		if get.StatusCode != tt.status {
			t.Errorf("Last-Event-ID %q: %s, want %d", tt.last, get.Status, tt.status)
		}
	}
}

func TestStreamableHTTPCloseSSEStreamNeedsEventStore(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"poll"}}`, nil)
	msgs := readMessages(t, resp)
	res, _ := msgs[0]["result"].(map[string]any)
	if res["isError"] != true {
		t.Fatalf("CloseSSEStream without an event store: %v", msgs)
	}
}

func TestMemoryEventStore(t *testing.T) {
	ctx := context.Background()
	collect := func(s *MemoryEventStore, sess, stream string, index int) ([]string, error) {
		var out []string
		for data, err := range s.After(ctx, sess, stream, index) {
			if err != nil {
				return out, err
			}
			out = append(out, string(data))
		}
		return out, nil
	}
	s := NewMemoryEventStore(&MemoryEventStoreOptions{MaxBytes: 6})
	for _, e := range []struct{ stream, data string }{{"a", "11"}, {"b", "22"}, {"a", "33"}} {
		if err := s.Append(ctx, "s1", e.stream, []byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := collect(s, "s1", "a", 0); err != nil || !slices.Equal(got, []string{"11", "33"}) {
		t.Fatalf("a after 0: %v %v", got, err)
	}
	if got, err := collect(s, "s1", "a", 1); err != nil || !slices.Equal(got, []string{"33"}) {
		t.Fatalf("a after 1: %v %v", got, err)
	}
	if got, err := collect(s, "s1", "a", 2); err != nil || len(got) != 0 {
		t.Fatalf("a after 2: %v %v", got, err)
	}
	// Over the limit, the oldest event of all streams goes first.
	_ = s.Append(ctx, "s1", "b", []byte("44"))
	if _, err := collect(s, "s1", "a", 0); !errors.Is(err, ErrEventsPurged) {
		t.Fatalf("a after eviction: %v, want ErrEventsPurged", err)
	}
	if got, err := collect(s, "s1", "a", 1); err != nil || !slices.Equal(got, []string{"33"}) {
		t.Fatalf("a after 1 after eviction: %v %v", got, err)
	}
	if _, err := collect(s, "s1", "zz", 0); !errors.Is(err, ErrUnknownStream) {
		t.Fatalf("unknown stream: %v", err)
	}
	if err := s.SessionClosed(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := collect(s, "s1", "b", 0); !errors.Is(err, ErrUnknownStream) {
		t.Fatalf("after SessionClosed: %v", err)
	}
	if s.size != 0 || s.count != 0 {
		t.Errorf("after SessionClosed: size %d, count %d", s.size, s.count)
	}
	// Many short sessions do not grow the queue without bound.
	for i := range 10000 {
		id := "x" + time.Duration(i).String()
		if err := s.Append(ctx, id, "0", []byte("1")); err != nil {
			t.Fatal(err)
		}
		if err := s.SessionClosed(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.order) > 2048 {
		t.Errorf("queue holds %d entries for no live event", len(s.order))
	}
}
