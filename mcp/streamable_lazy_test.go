package mcp

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingEventStore is a MemoryEventStore that counts the events stored.
type countingEventStore struct {
	*MemoryEventStore
	appends atomic.Int64
}

func (s *countingEventStore) Append(ctx context.Context, sessionID, streamID string, data []byte) error {
	s.appends.Add(1)
	return s.MemoryEventStore.Append(ctx, sessionID, streamID, data)
}

// legacyVersions are the protocol versions of the legacy era, each of which
// the lazy stream start is checked in.
var legacyVersions = []string{Version20250326, Version20250618, Version20251125}

// isSSE reports whether resp is an SSE stream.
func isSSE(resp *http.Response) bool {
	return isMediaType(resp.Header.Get("Content-Type"), mediaSSE)
}

// A resumable handler answers a call whose response is ready before
// anything else with one JSON object, and stores nothing; a call that
// sends something first, runs past StreamStartDelay or closes its stream
// gets a resumable SSE stream, which starts with the priming event.
func TestStreamableHTTPLazyStreamStart(t *testing.T) {
	for _, version := range legacyVersions {
		t.Run(version, func(t *testing.T) {
			store := &countingEventStore{MemoryEventStore: NewMemoryEventStore(nil)}
			_, _, ts, release := newHTTPTest(t, &StreamableHTTPOptions{EventStore: store, StreamStartDelay: 50 * time.Millisecond}, nil)
			c := &rawClient{t: t, url: ts.URL}
			c.initialize(version)

			t.Run("answered at once: JSON, nothing stored", func(t *testing.T) {
				resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, nil)
				if ct := resp.Header.Get("Content-Type"); !isMediaType(ct, "application/json") {
					t.Fatalf("Content-Type %q, want application/json", ct)
				}
				msgs := readMessages(t, resp)
				if len(msgs) != 1 || resultText(msgs[0]) != "hi" {
					t.Fatalf("response: %v", msgs)
				}
				if n := store.appends.Load(); n != 0 {
					t.Errorf("%d events stored, want 0", n)
				}
			})

			t.Run("notifies first: SSE with priming", func(t *testing.T) {
				before := store.appends.Load()
				resp := c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p"}}}`, nil)
				if !isSSE(resp) {
					t.Fatalf("Content-Type %q, want an SSE stream", resp.Header.Get("Content-Type"))
				}
				evs := events(t, resp)
				if len(evs) != 5 || !evs[0].HasID || len(evs[0].Data) != 0 {
					t.Fatalf("stream: %+v, want the priming event, 3 progress notifications and the response", evs)
				}
				for _, ev := range evs[1:] {
					if !ev.HasID || len(ev.Data) == 0 {
						t.Errorf("event without id or data: %+v", ev)
					}
				}
				if resultText(decodeMap(t, evs[4].Data)) != "done" {
					t.Errorf("last event: %s", evs[4].Data)
				}
				if n := store.appends.Load() - before; n != 4 {
					t.Errorf("%d events stored, want 4", n)
				}
			})

			t.Run("CloseSSEStream: priming, retry, resumed", func(t *testing.T) {
				resp := c.post(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"poll","_meta":{"progressToken":"p"}}}`, nil)
				first := events(t, resp)
				if len(first) != 2 || !first[0].HasID || len(first[0].Data) != 0 || first[1].Retry != 20*time.Millisecond {
					t.Fatalf("first connection: %+v", first)
				}
				get := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", "Last-Event-ID": first[0].ID})
				msgs := readMessages(t, get)
				if len(msgs) != 2 || msgs[0]["method"] != NotificationProgress || resultText(msgs[1]) != "resumed" {
					t.Fatalf("resumed stream: %v", msgs)
				}
			})

			t.Run("runs past the delay: SSE with priming", func(t *testing.T) {
				resp := c.post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait"}}`, nil)
				defer resp.Body.Close()
				if !isSSE(resp) {
					t.Fatalf("Content-Type %q, want an SSE stream", resp.Header.Get("Content-Type"))
				}
				r := newSSEReader(resp.Body, 0)
				prime, err := r.Next()
				if err != nil || !prime.HasID || len(prime.Data) != 0 {
					t.Fatalf("priming event: %+v %v", prime, err)
				}
				close(release) // the call was still running: its stream started on time
				ev, err := r.Next()
				if err != nil || !ev.HasID || resultText(decodeMap(t, ev.Data)) != "released" {
					t.Fatalf("response event: %+v %v", ev, err)
				}
			})
		})
	}
}

// A negative StreamStartDelay starts every stream at once, with its
// priming event, as a handler did before streams started lazily.
func TestStreamableHTTPStreamStartAtOnce(t *testing.T) {
	store := &countingEventStore{MemoryEventStore: NewMemoryEventStore(nil)}
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: store, StreamStartDelay: -1}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	resp := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, nil)
	if !isSSE(resp) {
		t.Fatalf("Content-Type %q, want an SSE stream", resp.Header.Get("Content-Type"))
	}
	evs := events(t, resp)
	if len(evs) != 2 || !evs[0].HasID || len(evs[0].Data) != 0 || resultText(decodeMap(t, evs[1].Data)) != "hi" {
		t.Fatalf("stream: %+v, want the priming event and the response", evs)
	}
	if n := store.appends.Load(); n != 1 {
		t.Errorf("%d events stored, want 1", n)
	}
}

// A stream that has not started gave its client no event id: a GET that
// names one anyway is refused, and the POST still gets its answer.
func TestStreamableHTTPResumeLazyStreamRefused(t *testing.T) {
	_, _, ts, release := newHTTPTest(t, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil), StreamStartDelay: time.Hour}, nil)
	c := &rawClient{t: t, url: ts.URL}
	c.initialize(Version20251125)
	// The first stream starts (a notification), which shows the ids.
	evs := events(t, c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p"}}}`, nil))
	if len(evs) == 0 || !strings.HasSuffix(evs[0].ID, "1_0") {
		t.Fatalf("first stream: %+v", evs)
	}
	next := strings.TrimSuffix(evs[0].ID, "1_0") + "2_0"

	done := make(chan *http.Response, 1)
	go func() {
		done <- c.post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait"}}`, nil)
	}()
	// The guessed id names the waiting call's stream once it exists.
	var status int
	waitUntil(t, func() bool {
		get := c.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", "Last-Event-ID": next})
		get.Body.Close()
		status = get.StatusCode
		return status == http.StatusBadRequest
	})
	close(release)
	resp := <-done
	if isSSE(resp) {
		t.Fatalf("the waiting call was answered with an SSE stream")
	}
	msgs := readMessages(t, resp)
	if len(msgs) != 1 || resultText(msgs[0]) != "released" {
		t.Fatalf("response: %v", msgs)
	}
}

// A 2026-07-28 call on a handler with an EventStore stores nothing and is
// answered with one JSON object.
func TestStreamableHTTPModernCallStoresNothing(t *testing.T) {
	store := &countingEventStore{MemoryEventStore: NewMemoryEventStore(nil)}
	_, _, ts, _ := newHTTPTest(t, &StreamableHTTPOptions{EventStore: store}, nil)
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(modernCall(1, MethodCallTool, `"name":"echo","arguments":{"text":"x"}`), modernHeaders(MethodCallTool, "echo"))
	if isSSE(resp) {
		t.Fatal("answered with an SSE stream")
	}
	msgs := readMessages(t, resp)
	if len(msgs) != 1 || resultText(msgs[0]) != "x" {
		t.Fatalf("response: %v", msgs)
	}
	if n := store.appends.Load(); n != 0 {
		t.Errorf("%d events stored, want 0", n)
	}
}

// BenchmarkResumableLegacyCall measures a legacy tools/call answered at
// once, served by ServeHTTP without network, on a handler without an
// event store ("plain"), with one and the stream started lazily ("lazy",
// the default), and with one and every stream started at once, with its
// priming event ("atonce").
func BenchmarkResumableLegacyCall(b *testing.B) {
	for _, tt := range []struct {
		name string
		opts *StreamableHTTPOptions
	}{
		{"plain", nil},
		{"lazy", &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)}},
		{"atonce", &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil), StreamStartDelay: -1}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			server := NewServer("bench", "v1", nil)
			server.AddTools(httpTestTools(nil)...)
			h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, tt.opts)
			defer h.Close()
			post := func(body string, hdr http.Header) *discardWriter {
				req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
				req.Header = hdr.Clone()
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				w := &discardWriter{header: http.Header{}}
				h.ServeHTTP(w, req)
				return w
			}
			w := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, http.Header{})
			hdr := http.Header{}
			hdr.Set(headerSessionID, w.header.Get(headerSessionID))
			hdr.Set(headerProtocolVersion, Version20251125)
			b.ReportAllocs()
			for b.Loop() {
				if w := post(benchCall, hdr); w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
}

// A client may use a request id again as soon as it has the response:
// the id is free by then (on a resumable handler the handler runs apart
// from the HTTP response, which once ended before the id was released).
func TestStreamableHTTPResumableIDReusedAtOnce(t *testing.T) {
	server := NewServer("test", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, &StreamableHTTPOptions{EventStore: NewMemoryEventStore(nil)})
	defer h.Close()
	post := func(body string, sid string) *discardWriter {
		req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set(headerSessionID, sid)
		}
		w := &discardWriter{header: http.Header{}}
		h.ServeHTTP(w, req)
		return w
	}
	sid := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "").header.Get(headerSessionID)
	for i := range 5000 {
		if w := post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, sid); w.status != http.StatusOK {
			t.Fatalf("call %d with id 7 again: status %d", i, w.status)
		}
	}
}
