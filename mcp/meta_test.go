package mcp

import (
	"reflect"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

// clientMeta returns the per-request _meta a 2026-07-28 client sends, with
// its cached encoding, plus data.
func clientMeta(data map[string]any) Meta {
	c := NewClient("c", "v1", nil)
	return Meta{
		ProtocolVersion:    Version20260728,
		ClientCapabilities: c.caps.Load(),
		ClientInfo:         &c.impl,
		Data:               data,
		encoded:            c.encodedMeta(Version20260728, c.caps.Load()),
	}
}

// TestMetaSplicedStrings checks that the encoding of a client's cached
// _meta with trace context added decodes to what the full encoder's does,
// for plain strings (spliced) and others (encoded in full).
func TestMetaSplicedStrings(t *testing.T) {
	for _, data := range []map[string]any{
		{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
		{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "a=b,c=d", "baggage": "k=v%20w"},
		{"quote": `say "hi"`},
		{"nonascii": "héllo"},
		{"number": 3.0},
		{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5"},
	} {
		m := clientMeta(data)
		got, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		plain := m
		plain.encoded = nil
		want, err := plain.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var gotAny, wantAny map[string]any
		if err := strictjson.Unmarshal(got, &gotAny); err != nil {
			t.Fatalf("%v: %s: %v", data, got, err)
		}
		if err := strictjson.Unmarshal(want, &wantAny); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotAny, wantAny) {
			t.Errorf("%v:\n got %s\nwant %s", data, got, want)
		}
	}
	// Without the cached client metadata, as in the legacy era.
	for _, data := range []map[string]any{{"traceparent": "00-x"}, {"a": "1", "b": `"`}} {
		m := Meta{Data: data}
		got, err := m.MarshalJSON()
		var gotAny map[string]any
		if err != nil || strictjson.Unmarshal(got, &gotAny) != nil || !reflect.DeepEqual(gotAny, data) {
			t.Errorf("%v: encoded %s, %v", data, got, err)
		}
	}
	// A Data key that names a typed field is still refused.
	m := clientMeta(map[string]any{MetaKeyProtocolVersion: "x"})
	if _, err := m.MarshalJSON(); err == nil {
		t.Error("a Data entry duplicating the protocol version was encoded")
	}
}

// TestMetaDecodeSharesClientParts checks that requests whose _meta differ
// only in per-request members share the decoded capabilities and identity.
func TestMetaDecodeSharesClientParts(t *testing.T) {
	a, _ := clientMeta(map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}).MarshalJSON()
	b, _ := clientMeta(map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b8-01"}).MarshalJSON()
	var ma, mb Meta
	if err := ma.UnmarshalJSON(a); err != nil {
		t.Fatal(err)
	}
	if err := mb.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	if ma.ClientCapabilities == nil || ma.ClientCapabilities != mb.ClientCapabilities || ma.ClientInfo == nil || ma.ClientInfo != mb.ClientInfo {
		t.Errorf("capabilities %p %p, info %p %p: want shared", ma.ClientCapabilities, mb.ClientCapabilities, ma.ClientInfo, mb.ClientInfo)
	}
	if ma.Data["traceparent"] == mb.Data["traceparent"] {
		t.Error("per-request members were shared")
	}
	var m Meta
	if err := m.UnmarshalJSON([]byte(`{"io.modelcontextprotocol/clientCapabilities":null,"x":"y"}`)); err != nil || m.ClientCapabilities != nil {
		t.Errorf("null capabilities: %v, %+v", err, m.ClientCapabilities)
	}
	for _, bad := range []string{
		`{"io.modelcontextprotocol/clientCapabilities":"no","x":"y"}`,
		`{"io.modelcontextprotocol/clientInfo":[1],"x":"y"}`,
	} {
		if err := m.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: decoded", bad)
		}
	}
}

// FuzzMetaSplice checks the spliced encoding against the full one for
// arbitrary Data strings.
func FuzzMetaSplice(f *testing.F) {
	f.Add("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate", "a=b")
	f.Add("k", `"\`, "", "\x00")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		m := clientMeta(map[string]any{k1: v1, k2: v2})
		if len(k1)%2 == 1 { // the legacy era: no cached client metadata
			m = Meta{Data: m.Data}
		}
		got, gerr := m.MarshalJSON()
		plain := m
		plain.encoded = nil
		want, werr := plain.MarshalJSON()
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("errors differ: %v / %v", gerr, werr)
		}
		if gerr != nil {
			return
		}
		var gotAny, wantAny map[string]any
		if err := strictjson.Unmarshal(got, &gotAny); err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if err := strictjson.Unmarshal(want, &wantAny); err != nil {
			return // the full encoder made something strictjson refuses: not ours to judge
		}
		if !reflect.DeepEqual(gotAny, wantAny) {
			t.Errorf("got %s, want %s", got, want)
		}
	})
}
