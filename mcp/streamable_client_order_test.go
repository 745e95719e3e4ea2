package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// A server that changes its tool list while it handles
// notifications/initialized (as the TypeScript server-everything does
// when it registers tools that depend on the client's capabilities) sends
// tools/list_changed on the session's GET stream, and drops it when no GET
// stream is open yet. The client therefore opens that stream before it
// sends notifications/initialized, when it has handlers for such messages.
func TestStreamableClientOpensGETStreamBeforeInitialized(t *testing.T) {
	var mu sync.Mutex
	var stream http.ResponseWriter
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			// A server that takes its time to set the stream up: the
			// stream exists once the response headers are sent.
			time.Sleep(200 * time.Millisecond)
			mu.Lock()
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			stream = w
			mu.Unlock()
			<-r.Context().Done()
			mu.Lock()
			stream = nil
			mu.Unlock()
		case http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case http.MethodPost:
			body, _ := io.ReadAll(r.Body)
			switch {
			case strings.Contains(string(body), `"method":"initialize"`):
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set(headerSessionID, "s1")
				io.WriteString(w, `{"jsonrpc":"2.0","id":`+idOf(string(body))+`,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"fake","version":"1"}}}`)
			case strings.Contains(string(body), `"method":"notifications/initialized"`):
				mu.Lock()
				if stream != nil { // else dropped, as the TypeScript SDK does
					io.WriteString(stream, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
					stream.(http.Flusher).Flush()
				}
				mu.Unlock()
				w.WriteHeader(http.StatusAccepted)
			default:
				w.WriteHeader(http.StatusAccepted)
			}
		}
	}))
	defer ts.Close()
	got := make(chan struct{}, 1)
	client := NewClient("c", "v1", &ClientOptions{
		ProtocolVersion: Version20251125,
		ToolListChangedHandler: func(context.Context, *ClientSession, *ToolListChangedParams) {
			select {
			case got <- struct{}{}:
			default:
			}
		},
	})
	cs, err := client.Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	select {
	case <-got:
	case <-time.After(2 * time.Second):
		t.Fatal("tools/list_changed sent while the server handled notifications/initialized never arrived")
	}
}

// idOf returns the raw id of a JSON-RPC request body.
func idOf(body string) string {
	_, rest, ok := strings.Cut(body, `"id":`)
	if !ok {
		return "null"
	}
	end := strings.IndexAny(rest, ",}")
	return rest[:end]
}
