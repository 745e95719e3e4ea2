package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

func TestWithServerInfo(t *testing.T) {
	info := encodeServerInfo(&Implementation{Name: "s", Version: "1"})
	tests := []struct {
		name string
		res  any
		want string
	}{
		{"text tool result (direct encoding)", &CallToolResult{Content: []*Content{NewTextContent("hi")}},
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"content":[{"type":"text","text":"hi"}]}`},
		{"empty result", &struct{}{}, `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`},
		{"existing _meta", &ListToolsResult{Meta: Meta{Data: map[string]any{"k": "v"}}, Tools: []*Tool{}},
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"k":"v"},"tools":[]}`},
		{"handler's serverInfo kept", &ListToolsResult{Meta: Meta{ServerInfo: &Implementation{Name: "mine", Version: "2"}}, Tools: []*Tool{}},
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mine","version":"2"}},"tools":[]}`},
		{"encoded", json.RawMessage(`{"a":{"_meta":1}}`),
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"a":{"_meta":1}}`},
		{"_meta not an object", json.RawMessage(`{"_meta":1}`), `{"_meta":1}`},
		{"not an object", json.RawMessage(`[1]`), `[1]`},
	}
	for _, tc := range tests {
		res, err := withServerInfo(tc.res, nil, info)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, _ := strictjson.Marshal(res)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if _, err := withServerInfo(nil, errInputRequired, info); err != errInputRequired {
		t.Errorf("error not passed through: %v", err)
	}
}

func FuzzSpliceServerInfo(f *testing.F) {
	info := encodeServerInfo(&Implementation{Name: "s", Version: "1"})
	for _, s := range []string{`{}`, `{"a":1}`, `{"_meta":{}}`, `{"_meta":{"x":[1,{"_meta":2}]},"b":"_meta"}`, ` { "_meta" : { } } `, `[]`, `{"_meta":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		out, ok := spliceServerInfo(obj, info)
		if !ok {
			return
		}
		var v any
		if strictjson.Unmarshal(obj, &v) != nil {
			return // input the SDK would refuse: no promise but no panic
		}
		// Decoded as the SDK decodes (case-sensitive): "_MetA" is another
		// member, not _meta.
		var m struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		if err := strictjson.Unmarshal(out, &m); err != nil {
			t.Fatalf("%s -> %s: %v", obj, out, err)
		}
		if _, ok := m.Meta[MetaKeyServerInfo]; !ok {
			t.Fatalf("%s -> %s: no serverInfo", obj, out)
		}
	})
}

// dropServerInfo removes the _meta serverInfo member (and a _meta left
// empty) from a decoded result, for tests that compare results with the
// specification's examples, which omit it. It reports whether the member
// was there.
func dropServerInfo(result map[string]any) bool {
	meta, ok := result["_meta"].(map[string]any)
	if !ok {
		return false
	}
	_, had := meta[MetaKeyServerInfo]
	delete(meta, MetaKeyServerInfo)
	if len(meta) == 0 {
		delete(result, "_meta")
	}
	return had
}

// dropResponseServerInfo is dropServerInfo on the result of a decoded
// response message.
func dropResponseServerInfo(msg any) bool {
	m, ok := msg.(map[string]any)
	if !ok {
		return false
	}
	result, ok := m["result"].(map[string]any)
	return ok && dropServerInfo(result)
}

// Results of 2026-07-28 requests carry the server's identity, on every
// transport; legacy results do not.
func TestServerInfoInModernResults(t *testing.T) {
	server := NewServer("info-server", "v9", nil)
	server.AddTools(echoTool())
	for _, version := range []string{Version20260728, Version20251125} {
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "x"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		info := res.Meta.ServerInfo
		if version == Version20260728 && (info == nil || info.Name != "info-server" || info.Version != "v9") {
			t.Errorf("%s in-memory: serverInfo %+v", version, info)
		}
		if version != Version20260728 && info != nil {
			t.Errorf("%s: serverInfo %+v in a legacy result", version, info)
		}
	}
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	msgs := readMessages(t, c.post(modernCall(1, MethodCallTool, `"name":"echo","arguments":{"text":"x"}`), modernHeaders(MethodCallTool, "echo")))
	if len(msgs) != 1 || !dropResponseServerInfo(msgs[0]) {
		t.Errorf("HTTP 2026-07-28 result without serverInfo: %v", msgs)
	}
}

// Each server encodes its identity once, however the servers of a program
// take turns answering.
func TestServerInfoEncodedOncePerServer(t *testing.T) {
	a := NewServer("server-a", "v1", nil)
	b := NewServer("server-b", "v2", &ServerOptions{Title: "B"})
	wantA := `"io.modelcontextprotocol/serverInfo":{"name":"server-a","version":"v1"}`
	wantB := `"io.modelcontextprotocol/serverInfo":{"name":"server-b","title":"B","version":"v2"}`
	if got := string(a.serverInfoMember()); got != wantA {
		t.Errorf("server a: %s, want %s", got, wantA)
	}
	if got := string(b.serverInfoMember()); got != wantB {
		t.Errorf("server b: %s, want %s", got, wantB)
	}
	allocs := leastAllocs(100, func() {
		a.serverInfoMember()
		b.serverInfoMember()
	})
	if allocs != 0 {
		t.Errorf("two servers in turn: %v allocations per pair, want 0 (encoded again)", allocs)
	}
}
