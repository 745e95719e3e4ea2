package mcp

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// A result's _meta names the server, the same bytes in every result of a
// 2026-07-28 session: the client decodes it once and shares the decoding,
// while a _meta with anything that varies per message is decoded afresh.
func TestResultMetaServerInfoShared(t *testing.T) {
	decode := func(t *testing.T, in string) Meta {
		t.Helper()
		var m Meta
		if err := m.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		return m
	}
	const plain = `{"io.modelcontextprotocol/serverInfo":{"name":"shared-server","version":"v1"}}`
	a, b := decode(t, plain), decode(t, plain)
	if a.ServerInfo == nil || a.ServerInfo.Name != "shared-server" || a.ServerInfo.Version != "v1" {
		t.Fatalf("ServerInfo = %+v", a.ServerInfo)
	}
	if a.ServerInfo != b.ServerInfo {
		t.Error("the same serverInfo bytes decoded twice into two values, want one shared")
	}
	other := decode(t, `{"io.modelcontextprotocol/serverInfo":{"name":"other-server","version":"v2"}}`)
	if other.ServerInfo == nil || other.ServerInfo.Name != "other-server" || other.ServerInfo.Version != "v2" {
		t.Errorf("other ServerInfo = %+v", other.ServerInfo)
	}

	tests := []struct {
		name string
		in   string
		want func(Meta) bool
	}{
		{"with a progress token", `{"progressToken":7,"io.modelcontextprotocol/serverInfo":{"name":"shared-server","version":"v1"}}`,
			func(m Meta) bool { return m.ProgressToken == int64(7) }},
		{"with an application member", `{"io.modelcontextprotocol/serverInfo":{"name":"shared-server","version":"v1"},"app":"x"}`,
			func(m Meta) bool { return m.Data["app"] == "x" }},
		{"with a related task", `{"io.modelcontextprotocol/serverInfo":{"name":"shared-server","version":"v1"},"io.modelcontextprotocol/related-task":{"taskId":"t1"}}`,
			func(m Meta) bool { return m.RelatedTask != nil && m.RelatedTask.TaskID == "t1" }},
	}
	for _, tt := range tests {
		m1, m2 := decode(t, tt.in), decode(t, tt.in)
		if !tt.want(m1) || !tt.want(m2) || m1.ServerInfo == nil || m1.ServerInfo.Name != "shared-server" {
			t.Errorf("%s: decoded %+v", tt.name, m1)
		}
		if m1.Data != nil {
			m1.Data["app"] = "changed"
			if m2.Data["app"] == "changed" {
				t.Errorf("%s: per-message members shared between two messages", tt.name)
			}
		}
		if m1.RelatedTask != nil && m1.RelatedTask == m2.RelatedTask {
			t.Errorf("%s: related task shared between two messages", tt.name)
		}
	}

	for _, bad := range []string{
		`{"io.modelcontextprotocol/serverInfo":"shared-server"}`,
		`{"io.modelcontextprotocol/serverInfo":{"name":1}}`,
	} {
		var m Meta
		if err := m.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: decoded without error, want one", bad)
		}
	}
}

// Decoding a result's _meta seen before allocates nothing.
func TestResultMetaDecodeAllocs(t *testing.T) {
	in := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"alloc-server","version":"v1"}}`)
	var m Meta
	if err := m.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	allocs := leastAllocs(100, func() {
		var m Meta
		if err := m.UnmarshalJSON(in); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("decoding a repeated result _meta: %v allocations, want 0", allocs)
	}
}

// The decoding caches keep no _meta, and no member, larger than
// maxCachedMetaLen, so a peer cannot make them hold much memory.
func TestMetaCacheSizeBound(t *testing.T) {
	long := strings.Repeat("x", maxCachedMetaLen)
	in := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"` + long + `","version":"v1"}}`)
	var m1, m2 Meta
	if err := m1.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	if err := m2.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	if m1.ServerInfo == nil || m1.ServerInfo.Name != long {
		t.Fatalf("large serverInfo decoded as %.40v", m1.ServerInfo)
	}
	if m1.ServerInfo == m2.ServerInfo {
		t.Error("a serverInfo larger than the bound was cached")
	}
	if _, ok := decodedMetas.get(in); ok {
		t.Error("a _meta larger than the bound was cached")
	}
}

// Every result of a 2026-07-28 session names the server; the client shares
// one decoding of it between results, and it equals what the session
// reports.
func TestClientResultsShareServerInfo(t *testing.T) {
	server := NewServer("share-server", "v3", nil)
	server.AddTools(echoTool())
	cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: Version20260728})
	var first *Implementation
	for i := range 3 {
		res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "x"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		info := res.Meta.ServerInfo
		if info == nil || info.Name != "share-server" || info.Version != "v3" {
			t.Fatalf("call %d: serverInfo %+v", i, info)
		}
		if i == 0 {
			first = info
		} else if info != first {
			t.Errorf("call %d: serverInfo decoded again", i)
		}
	}
	if got := cs.ServerInfo(); got == nil || got.Name != "share-server" {
		t.Errorf("ServerInfo() = %+v", got)
	}
}

// FuzzMetaDecodeShared checks that a _meta decoded from the caches is the
// one decoded afresh: the first decoding of new bytes and the later ones
// agree, in value and in error.
func FuzzMetaDecodeShared(f *testing.F) {
	for _, seed := range []string{
		`{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`,
		`{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1","icons":[{"src":"https://example.com/i.png"}]}}`,
		`{"io.modelcontextprotocol/serverInfo":null}`,
		`{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"io.modelcontextprotocol/related-task":{"taskId":"t"}}`,
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`,
		`{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"progressToken":1}`,
		`{"io.modelcontextprotocol/serverInfo":{"name":"s"},"io.modelcontextprotocol/serverInfo":{"name":"t"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var first, second Meta
		err1 := first.UnmarshalJSON(data)
		err2 := second.UnmarshalJSON(data)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%s: decoded with error %v, then %v", data, err1, err2)
		}
		if err1 != nil {
			return
		}
		first.encoded, second.encoded = nil, nil
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("%s: decoded as %+v, then %+v", data, first, second)
		}
	})
}
