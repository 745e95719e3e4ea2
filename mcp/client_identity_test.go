package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The identity in ClientOptions is what the client sends as clientInfo:
// in initialize up to 2025-11-25, and in the _meta of every request in
// 2026-07-28 (server/discover and tools/list here), as the bytes on the
// wire show.
func TestClientSendsItsIdentity(t *testing.T) {
	want := map[string]any{
		"name":        "test-client",
		"version":     "v1",
		"title":       "Test Client",
		"description": "a client under test",
		"websiteUrl":  "https://client.example",
		"icons":       []any{map[string]any{"src": "https://client.example/icon.png", "mimeType": "image/png"}},
	}
	for _, tt := range []struct {
		version string
		methods []string // requests whose clientInfo is checked
		inMeta  bool     // clientInfo is in _meta, not a member of params
	}{
		{Version20251125, []string{MethodInitialize}, false},
		{Version20260728, []string{MethodDiscover, MethodListTools}, true},
	} {
		t.Run(tt.version, func(t *testing.T) {
			server := NewServer("s", "v1", nil)
			server.AddTools(echoTool())
			ct, st := NewInMemoryTransports()
			if _, err := server.Connect(context.Background(), st); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			log := &lockedWriter{w: &buf}
			cs, err := NewClient("test-client", "v1", &ClientOptions{
				ProtocolVersion: tt.version,
				Title:           "Test Client",
				Description:     "a client under test",
				WebsiteURL:      "https://client.example",
				Icons:           []Icon{{Src: "https://client.example/icon.png", MIMEType: "image/png"}},
			}).Connect(context.Background(), NewLoggingTransport(ct, log))
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if cs.ProtocolVersion() != tt.version {
				t.Fatalf("negotiated %s, want %s", cs.ProtocolVersion(), tt.version)
			}
			log.mu.Lock()
			sent := sentParams(t, buf.String())
			log.mu.Unlock()
			for _, m := range tt.methods {
				params, ok := sent[m]
				if !ok {
					t.Fatalf("no %s request on the wire; sent %v", m, reflect.ValueOf(sent).MapKeys())
				}
				got := params["clientInfo"]
				if tt.inMeta {
					meta, _ := params["_meta"].(map[string]any)
					got = meta["io.modelcontextprotocol/clientInfo"]
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: clientInfo = %v, want %v", m, got, want)
				}
			}
		})
	}
}

// sentParams returns the params of the first request of each method the
// client wrote, from a LoggingTransport's log.
func sentParams(t *testing.T, log string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := bytes.CutPrefix(sc.Bytes(), []byte("write: "))
		if !ok {
			continue
		}
		var msg struct {
			Method string         `json:"method"`
			Params map[string]any `json:"params"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		if _, seen := out[msg.Method]; msg.Method != "" && !seen {
			out[msg.Method] = msg.Params
		}
	}
	return out
}
