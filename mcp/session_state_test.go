package mcp

import (
	"context"
	"net/http"
	"net/textproto"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// A session made by a 2026-07-28 request carries no connection state: it
// is small, so that one per request costs little.
func TestScopedSessionSize(t *testing.T) {
	type scoped struct {
		//lint:ignore U1000 only measured, by unsafe.Sizeof
		ss ServerSession
		//lint:ignore U1000 only measured, by unsafe.Sizeof
		req modernRequest
	}
	if n := unsafe.Sizeof(scoped{}); n > 256 {
		t.Errorf("a request-scoped session takes %d bytes, want at most 256", n)
	}
}

// A ServerSession the package did not make (a zero value, as a handler's
// own test may pass) reads as a session without a connection.
func TestZeroServerSession(t *testing.T) {
	ss := &ServerSession{}
	ctx := context.Background()
	if v := ss.ProtocolVersion(); v != "" {
		t.Errorf("ProtocolVersion = %q, want empty", v)
	}
	if ci := ss.ClientInfo(); ci != nil {
		t.Errorf("ClientInfo = %v, want nil", ci)
	}
	if caps := ss.ClientCapabilities(); caps == nil {
		t.Error("ClientCapabilities = nil, want an empty value")
	}
	if _, ok := ss.ClientExtension("x"); ok {
		t.Error("ClientExtension reports an extension")
	}
	if id := ss.ID(); id != "" {
		t.Errorf("ID = %q, want empty", id)
	}
	if tr := ss.Transport(); tr != (TransportInfo{}) {
		t.Errorf("Transport = %+v, want zero", tr)
	}
	if ss.ProtocolAtLeast(Version20260728) {
		t.Error("ProtocolAtLeast(2026-07-28) holds")
	}
	if err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: LoggingLevelInfo, Data: "x"}); err != nil {
		t.Errorf("LoggingMessage: %v", err)
	}
	if err := ss.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := ss.Wait(); err != nil {
		t.Errorf("Wait: %v", err)
	}
}

// LoggingInterval limits the log messages of each 2026-07-28 request
// served outside a connection on its own: requests, concurrent or not,
// do not share a limit.
func TestLoggingIntervalPerStatelessRequest(t *testing.T) {
	s := NewServer("s", "v1", &ServerOptions{LoggingInterval: time.Hour})
	s.AddTools(&ServerTool{Tool: &Tool{Name: "log", InputSchema: map[string]any{"type": "object"}},
		Handler: func(ctx context.Context, ss *ServerSession, _ *CallToolParams) (*CallToolResult, error) {
			for range 3 {
				if err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: LoggingLevelInfo, Data: "m"}); err != nil {
					return nil, err
				}
			}
			return &CallToolResult{}, nil
		}})
	const requests = 8
	var wg sync.WaitGroup
	counts := make([]int, requests)
	for i := range requests {
		wg.Go(func() {
			req, err := jsonrpc2.NewCall(jsonrpc2.Int64ID(int64(i+1)), MethodCallTool, map[string]any{
				"name": "log",
				"_meta": map[string]any{
					MetaKeyProtocolVersion:    Version20260728,
					MetaKeyClientCapabilities: map[string]any{},
					MetaKeyClientInfo:         &Implementation{Name: "test", Version: "1"},
					MetaKeyLogLevel:           LoggingLevelDebug,
				},
			})
			if err != nil {
				t.Error(err)
				return
			}
			notify := func(_ context.Context, method string, _ any) error {
				if method == NotificationLoggingMessage {
					counts[i]++ // one handler goroutine per request
				}
				return nil
			}
			if _, err := s.serveStateless(context.Background(), req, notify); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, n := range counts {
		if n != 1 {
			t.Errorf("request %d got %d log messages, want 1 (one per LoggingInterval, per request)", i+1, n)
		}
	}
}

// headerValue is Header.Get for the canonical keys it is given.
func TestHeaderValueKeysAreCanonical(t *testing.T) {
	h := http.Header{}
	for _, key := range []string{"Content-Type", "Origin", headerSessionID, headerProtocolVersion} {
		if c := textproto.CanonicalMIMEHeaderKey(key); c != key {
			t.Errorf("header key %q is not canonical (%q): headerValue would miss it", key, c)
		}
		h.Set(key, "v-"+key)
		if got, want := headerValue(h, key), h.Get(key); got != want {
			t.Errorf("headerValue(%q) = %q, Header.Get = %q", key, got, want)
		}
	}
	if got := headerValue(h, "Absent"); got != "" {
		t.Errorf("headerValue of an absent key = %q", got)
	}
}
