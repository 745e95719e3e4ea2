package mcp

import (
	"reflect"
	"testing"
)

// modernMetaBase is the _meta a 2026-07-28 client sends with every request.
const modernMetaBase = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{"roots":{}},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"trace-client","version":"v1"}}`

const testTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// A _meta carrying trace context decodes as the full decoder decodes it,
// whether the trace-context members take the fast path or not: the fast
// path only takes plain strings under the exact (case-sensitive) keys, once
// the rest of the _meta has been seen; everything else, malformed input
// included, is left to the full decoder.
func TestMetaTraceContextDecoding(t *testing.T) {
	base := modernMetaBase[:len(modernMetaBase)-1]
	tests := []struct {
		name string
		in   string
		fast bool // the fast path decodes it (after a first full decoding)
		err  bool
	}{
		{"traceparent only", `{"traceparent":"` + testTraceparent + `"}`, true, false},
		{"all three, spaced", ` { "baggage" : "k=v" , "traceparent":"` + testTraceparent + `",  "tracestate":"a=b" } `, true, false},
		{"after the per-request members", base + `,"traceparent":"` + testTraceparent + `","tracestate":"vendor=x"}`, true, false},
		{"before them", `{"traceparent":"` + testTraceparent + `",` + modernMetaBase[1:], true, false},
		{"key of another case", `{"TraceParent":"` + testTraceparent + `"}`, false, false},
		{"escaped key", `{"trace\u0070arent":"` + testTraceparent + `"}`, false, false},
		{"escaped value", `{"traceparent":"00\u002d4bf9"}`, false, false},
		{"non-ASCII value", `{"traceparent":"é"}`, false, false},
		{"number", `{"traceparent":7}`, false, false},
		{"null", `{"traceparent":null}`, false, false},
		{"with an application member", `{"app":{"x":[1,"}"]},"traceparent":"` + testTraceparent + `"}`, false, false},
		{"with a progress token", `{"progressToken":3,"traceparent":"` + testTraceparent + `"}`, false, false},
		{"duplicate", `{"traceparent":"a","traceparent":"b"}`, false, true},
		{"duplicate of another member", base + `,"traceparent":"a","io.modelcontextprotocol/protocolVersion":"x"}`, false, true},
		{"trailing comma", `{"traceparent":"a",}`, false, true},
		{"trailing garbage", `{"traceparent":"a"} x`, false, true},
		{"unterminated", `{"traceparent":"a"`, false, true},
		{"missing colon", `{"traceparent" "a"}`, false, true},
		{"bad rest", `{"io.modelcontextprotocol/protocolVersion":1,"traceparent":"a"}`, false, true},
		{"control character", "{\"traceparent\":\"a\x01\"}", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want Meta
			wantErr := want.decodeFull([]byte(tt.in))
			if (wantErr != nil) != tt.err {
				t.Fatalf("full decoding: error %v, want error %v", wantErr, tt.err)
			}
			for i := range 3 {
				var got Meta
				err := got.UnmarshalJSON([]byte(tt.in))
				if (err != nil) != (wantErr != nil) {
					t.Fatalf("decoding %d: error %v, full decoder's %v", i, err, wantErr)
				}
				if err == nil && !reflect.DeepEqual(got, want) {
					t.Fatalf("decoding %d: %+v, full decoder's %+v", i, got, want)
				}
			}
			var buf [maxRestLen]byte
			rest, tm, ok := splitTraceMeta([]byte(tt.in), buf[:0])
			if ok {
				_, ok = decodeTraceMeta([]byte(tt.in), rest, &tm)
			}
			if ok != tt.fast {
				t.Errorf("fast path taken: %v, want %v", ok, tt.fast)
			}
		})
	}
}

// The decoding of a fast-path _meta is a value of its own: writing its Data
// changes neither the next decoding nor the buffer it was read from.
func TestMetaTraceContextNotShared(t *testing.T) {
	in := []byte(modernMetaBase[:len(modernMetaBase)-1] + `,"traceparent":"` + testTraceparent + `"}`)
	var a, b Meta
	if err := a.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	if err := a.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	copy(in[len(in)-10:], "xxxxxxxxx")
	if a.Data["traceparent"] != testTraceparent {
		t.Errorf("traceparent = %v after the input changed", a.Data["traceparent"])
	}
	a.Data["traceparent"] = "changed"
	in = []byte(modernMetaBase[:len(modernMetaBase)-1] + `,"traceparent":"` + testTraceparent + `"}`)
	if err := b.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	if b.Data["traceparent"] != testTraceparent || b.ProtocolVersion != Version20260728 || b.ClientInfo == nil || b.ClientInfo.Name != "trace-client" {
		t.Errorf("decoded %+v", b)
	}
}

// Decoding a 2026-07-28 _meta seen before with new trace context allocates
// only the Data map and its values, not a full decoding (11 allocations).
func TestMetaTraceContextAllocs(t *testing.T) {
	in := []byte(modernMetaBase[:len(modernMetaBase)-1] + `,"traceparent":"` + testTraceparent + `","tracestate":"vendor=x"}`)
	var m Meta
	if err := m.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	allocs := leastAllocs(200, func() {
		if err := m.UnmarshalJSON(in); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 5 {
		t.Errorf("%.0f allocations per decoding, want at most 5", allocs)
	}
}

// The fast path and the full decoder agree on every input: prime is decoded
// first (it may put the rest of data in the cache), then data is decoded
// twice, and each decoding must match the full decoder's result and error.
func FuzzMetaTraceContext(f *testing.F) {
	base := modernMetaBase[:len(modernMetaBase)-1]
	f.Add([]byte(modernMetaBase), []byte(base+`,"traceparent":"`+testTraceparent+`"}`))
	f.Add([]byte(modernMetaBase), []byte(`{"tracestate":"a=b",`+modernMetaBase[1:]))
	f.Add([]byte(`{}`), []byte(`{"traceparent":"a","baggage":"k=v"}`))
	f.Add([]byte(modernMetaBase), []byte(base+`,"traceparent":"a","traceparent":"b"}`))
	f.Add([]byte(`{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`),
		[]byte(`{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"baggage":"x"}`))
	f.Add([]byte(`{"a":"\"}"}`), []byte(`{"a":"\"}","traceparent":"x"}`))
	f.Fuzz(func(t *testing.T, prime, data []byte) {
		var p Meta
		_ = p.UnmarshalJSON(prime) // any prime, accepted or not: the decode below must not see it
		var want Meta
		wantErr := want.decodeFull(data)
		for i := range 2 {
			var got Meta
			err := got.UnmarshalJSON(data)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("decoding %d of %q: error %v, full decoder's %v", i, data, err, wantErr)
			}
			if err == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("decoding %d of %q: %+v, full decoder's %+v", i, data, got, want)
			}
		}
	})
}

// BenchmarkMetaTraceContext decodes a 2026-07-28 request _meta with trace
// context: "fast" as UnmarshalJSON does once the rest has been seen,
// "full" with the full decoder.
func BenchmarkMetaTraceContext(b *testing.B) {
	in := []byte(modernMetaBase[:len(modernMetaBase)-1] + `,"traceparent":"` + testTraceparent + `"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m Meta
			if err := m.UnmarshalJSON(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m Meta
			if err := m.decodeFull(in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
