package bench

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// targets are the streamable HTTP handlers the raw load generator drives:
// each SDK's in the given era, and the bare net/http ceiling.
func targets(era Era) []struct {
	name    string
	handler func() (http.Handler, func(), error)
} {
	var ts []struct {
		name    string
		handler func() (http.Handler, func(), error)
	}
	for _, sdk := range SDKs() {
		ts = append(ts, struct {
			name    string
			handler func() (http.Handler, func(), error)
		}{sdk.Name(), func() (http.Handler, func(), error) {
			srv, err := sdk.NewServer()
			if err != nil {
				return nil, nil, err
			}
			h, err := srv.Handler(era)
			return h, func() { srv.Close() }, err
		}})
	}
	return append(ts, struct {
		name    string
		handler func() (http.Handler, func(), error)
	}{"ceiling", func() (http.Handler, func(), error) { return Ceiling{}, func() {}, nil }})
}

// TestRawClient checks that the raw load generator completes a session and
// calls against every target in both eras.
func TestRawClient(t *testing.T) {
	for _, era := range Eras {
		for _, tg := range targets(era) {
			t.Run(era.String()+"/"+tg.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				h, done, err := tg.handler()
				if errors.Is(err, ErrPending) {
					t.Skip(err)
				}
				if err != nil {
					t.Fatal(err)
				}
				defer done()
				ts := httptest.NewServer(h)
				defer ts.Close()
				c := &RawClient{URL: ts.URL, HTTP: ts.Client(), Era: era}
				if err := c.Start(ctx); err != nil {
					t.Fatalf("Start: %v", err)
				}
				if era == Legacy && c.sessionID == "" {
					t.Errorf("no Mcp-Session-Id after initialize")
				}
				for range 3 {
					if err := c.Call(ctx); err != nil {
						t.Fatalf("Call: %v", err)
					}
				}
				if err := c.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
		}
	}
}

// TestRawDiscover checks the raw server/discover against every SDK's
// modern handler, and that a legacy-era client refuses to send it.
func TestRawDiscover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, sdk := range SDKs() {
		h, done, err := TargetHandler(sdk.Name(), Modern)
		if errors.Is(err, ErrPending) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		c := &RawClient{URL: ts.URL, HTTP: ts.Client(), Era: Modern}
		for range 2 {
			if err := c.Discover(ctx); err != nil {
				t.Errorf("%s: Discover: %v", sdk.Name(), err)
			}
		}
		ts.Close()
		done()
	}
	c := &RawClient{URL: "http://127.0.0.1:1", HTTP: http.DefaultClient, Era: Legacy}
	if err := c.Discover(ctx); err == nil {
		t.Errorf("legacy-era client sent server/discover")
	}
}

// TestDiscoverAgainstCeiling checks that Discover fails on an answer that
// lists no versions, which is what the ceiling sends.
func TestDiscoverAgainstCeiling(t *testing.T) {
	ts := httptest.NewServer(Ceiling{})
	defer ts.Close()
	c := &RawClient{URL: ts.URL, HTTP: ts.Client(), Era: Modern}
	if err := c.Discover(context.Background()); !errors.Is(err, ErrMismatch) {
		t.Errorf("Discover = %v, want ErrMismatch", err)
	}
}

// TestCeilingRejects checks that the ceiling decodes what it is sent.
func TestCeilingRejects(t *testing.T) {
	ts := httptest.NewServer(Ceiling{})
	defer ts.Close()
	tests := []struct {
		name, method, body string
		want               int
	}{
		{"not JSON", http.MethodPost, `{`, http.StatusBadRequest},
		{"not JSON-RPC 2.0", http.MethodPost, `{"jsonrpc":"1.0","id":1,"method":"x"}`, http.StatusBadRequest},
		{"notification", http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted},
		{"request", http.MethodPost, string(LegacyCallRequest(7)), http.StatusOK},
		{"GET", http.MethodGet, ``, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL, stringsReader(tt.body))
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		drain(resp)
		if resp.StatusCode != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
}
