package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// oldServer is a streamable HTTP server of protocol 2025-06-18 that knows
// no other: it answers initialize with its version whatever was asked,
// and server/discover with method not found.
func oldServer(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if err := json.Unmarshal(body, &req); err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad request", http.StatusMethodNotAllowed)
			return
		}
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "s1")
		var result string
		switch req.Method {
		case "initialize":
			mu.Lock()
			asked = append(asked, req.Params.ProtocolVersion)
			mu.Unlock()
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"0.1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"legacy_tool","inputSchema":{"type":"object"}}]}`
		default:
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"error":{"code":-32601,"message":"method not found"}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
}

// TestProtocolFlag checks --protocol against a server that speaks only
// 2025-06-18: auto falls back from server/discover to initialize and takes
// the server's version; legacy asks for 2025-11-25, then takes the version
// the server offered; modern fails; a pinned version must match.
func TestProtocolFlag(t *testing.T) {
	tests := []struct {
		protocol string
		exit     int
		asked    string
	}{
		{"auto", 0, "2025-11-25"},
		{"legacy", 0, "2025-11-25,2025-06-18"},
		{"2025-06-18", 0, "2025-06-18"},
		{"modern", exitUsage, ""},
		{"2025-03-26", exitUsage, "2025-03-26"},
	}
	for _, tt := range tests {
		t.Run(tt.protocol, func(t *testing.T) {
			srv, asked := oldServer(t)
			r := runCLI(t, "tools", "--protocol", tt.protocol, srv.URL)
			if r.code != tt.exit {
				t.Fatalf("exit %d, want %d; stderr %s", r.code, tt.exit, r.stderr)
			}
			if tt.exit == 0 && !strings.Contains(r.stdout, "legacy_tool") {
				t.Fatalf("stdout %q", r.stdout)
			}
			if got := strings.Join(asked(), ","); got != tt.asked {
				t.Fatalf("initialize asked for %q, want %q", got, tt.asked)
			}
		})
	}
}
