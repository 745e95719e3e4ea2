package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

func TestHeaderValueEncoding(t *testing.T) {
	// The examples of transports/streamable-http, "Value Encoding".
	for _, tt := range []struct{ value, header string }{
		{"us-west1", "us-west1"},
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"", "=?base64??="},
	} {
		if got := encodeHeaderValue(tt.value); got != tt.header {
			t.Errorf("encode %q = %q, want %q", tt.value, got, tt.header)
		}
		if got, err := decodeHeaderValue(tt.header); err != nil || got != tt.value {
			t.Errorf("decode %q = %q, %v; want %q", tt.header, got, err, tt.value)
		}
	}
	for _, bad := range []string{
		"=?base64?SGVsbG8?=",  // bad padding
		"=?base64?SGV$bG8=?=", // bad character
		"=?base64?/w==?=",     // not UTF-8
		"caf\xc3\xa9",         // raw non-ASCII
		"a\x01b",              // control character
	} {
		if _, err := decodeHeaderValue(bad); !errors.Is(err, errBadHeaderValue) {
			t.Errorf("decode %q: %v, want errBadHeaderValue", bad, err)
		}
	}
	// Values that only look like the sentinel are literal.
	for _, lit := range []string{"=?base64?", "=?BASE64?QQ==?=", "?="} {
		if got, err := decodeHeaderValue(lit); err != nil || got != lit {
			t.Errorf("decode %q = %q, %v", lit, got, err)
		}
	}
}

func FuzzHeaderValue(f *testing.F) {
	for _, s := range []string{"us-west1", "Hello, 世界", " padded ", "=?base64?x?=", "", "a\tb", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc := encodeHeaderValue(s)
		for i := 0; i < len(enc); i++ {
			if enc[i] < 0x20 || enc[i] > 0x7e {
				t.Fatalf("encoded %q has byte %#x", enc, enc[i])
			}
		}
		dec, err := decodeHeaderValue(enc)
		if utf8.ValidString(s) {
			if err != nil || dec != s {
				t.Fatalf("round trip of %q: %q, %v", s, dec, err)
			}
		}
		_, _ = decodeHeaderValue(s) // arbitrary input must not panic
	})
}

func TestParseAccept(t *testing.T) {
	for _, tt := range []struct {
		values    []string
		json, sse bool
	}{
		{[]string{"application/json, text/event-stream"}, true, true},
		{[]string{"application/json", "text/event-stream"}, true, true},
		{[]string{"text/event-stream;q=0.9, application/json;q=1"}, true, true},
		{[]string{"*/*"}, true, true},
		{[]string{"application/*, text/*"}, true, true},
		{[]string{"APPLICATION/JSON"}, true, false},
		{[]string{"application/json, text/event-stream;q=0"}, true, false},
		{[]string{"text/html"}, false, false},
		{nil, false, false},
	} {
		got := parseAccept(tt.values)
		if got.json != tt.json || got.sse != tt.sse {
			t.Errorf("parseAccept(%q) = %+v, want json=%v sse=%v", tt.values, got, tt.json, tt.sse)
		}
	}
}

func FuzzParseAccept(f *testing.F) {
	f.Add("application/json, text/event-stream;q=0.5")
	f.Add("*/*;q=0;;=,")
	f.Fuzz(func(t *testing.T, v string) {
		a := parseAccept([]string{v})
		if !strings.Contains(strings.ToLower(v), "/") && (a.json || a.sse) {
			t.Fatalf("%q accepted %+v without any media type", v, a)
		}
	})
}

func FuzzParseEventID(f *testing.F) {
	f.Add("1_2")
	f.Add("0_0")
	f.Add("_1")
	f.Add("a_b_3")
	f.Fuzz(func(t *testing.T, id string) {
		stream, index, ok := parseEventID(id)
		if !ok {
			return
		}
		if stream == "" || index < 0 {
			t.Fatalf("%q parsed as %q, %d", id, stream, index)
		}
	})
}

func TestOriginPolicy(t *testing.T) {
	def := newOriginPolicy(nil, nil)
	for _, tt := range []struct {
		p            *originPolicy
		host, origin string
		hostOK, orOK bool
	}{
		{def, "localhost:8080", "", true, true},
		{def, "127.0.0.1:1", "http://127.0.0.1:1", true, true},
		{def, "[::1]:9", "http://[::1]:9", true, true},
		{def, "app.localhost", "", true, true},
		{def, "evil.example.com", "", false, true},
		{def, "localhost:8080", "http://evil.example.com", true, false},
		{def, "localhost:8080", "http://localhost:9090", true, false},
		{def, "localhost", "http://localhost", true, true},
		{def, "localhost", "null", true, false},
		{def, "localhost", "file://", true, false},
		{newOriginPolicy([]string{"*"}, []string{"*"}), "anything", "http://x", true, true},
		{newOriginPolicy([]string{"Example.COM"}, []string{"https://app.example.com/"}), "example.com:443", "https://APP.example.com", true, true},
	} {
		if got := tt.p.checkHost(tt.host); got != tt.hostOK {
			t.Errorf("host %q: %v, want %v", tt.host, got, tt.hostOK)
		}
		if got := tt.p.checkOrigin(tt.origin, tt.host); got != tt.orOK {
			t.Errorf("origin %q on host %q: %v, want %v", tt.origin, tt.host, got, tt.orOK)
		}
	}
}

func TestClientHeaderBindings(t *testing.T) {
	for _, tt := range []struct {
		name, schema string
		want         []string // header names, when valid
		bad          bool
	}{
		{"none", `{"type":"object","properties":{"a":{"type":"string"}}}`, nil, false},
		{"top level", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`, []string{"Region"}, false},
		{"nested", `{"type":"object","properties":{"o":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}}`, []string{"N"}, false},
		{"number type", `{"properties":{"x":{"type":"number","x-mcp-header":"X"}}}`, nil, true},
		{"empty name", `{"properties":{"x":{"type":"string","x-mcp-header":""}}}`, nil, true},
		{"not a token", `{"properties":{"x":{"type":"string","x-mcp-header":"a b"}}}`, nil, true},
		{"duplicate ignoring case", `{"properties":{"x":{"type":"string","x-mcp-header":"A"},"y":{"type":"string","x-mcp-header":"a"}}}`, nil, true},
		{"under items", `{"properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`, nil, true},
		{"under anyOf", `{"anyOf":[{"properties":{"x":{"type":"string","x-mcp-header":"X"}}}]}`, nil, true},
		{"under $defs", `{"$defs":{"d":{"type":"string","x-mcp-header":"D"}}}`, nil, true},
		{"on the root", `{"type":"string","x-mcp-header":"R"}`, nil, true},
		{"in a const is data", `{"properties":{"x":{"const":{"x-mcp-header":1}}}}`, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := clientHeaderBindings(json.RawMessage(tt.schema))
			if (err != nil) != tt.bad {
				t.Fatalf("err %v, want bad=%v", err, tt.bad)
			}
			var names []string
			for _, b := range got {
				names = append(names, b.header)
			}
			if !tt.bad && !slices.Equal(names, tt.want) {
				t.Errorf("bindings %v, want %v", names, tt.want)
			}
		})
	}
}

// referenceProbe decodes the probe fields with the strict struct decoder,
// the oracle for decodeProbe.
func referenceProbe(params []byte) (modernProbe, error) {
	var w struct {
		Name jsontext.Value `json:"name"`
		URI  jsontext.Value `json:"uri"`
		Meta *struct {
			ProtocolVersion    jsontext.Value `json:"io.modelcontextprotocol/protocolVersion"`
			ClientCapabilities jsontext.Value `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
		Arguments jsontext.Value `json:"arguments"`
	}
	var p modernProbe
	if err := strictjson.Unmarshal(params, &w); err != nil {
		return p, err
	}
	str := func(v jsontext.Value) (string, bool) {
		var s string
		if v.Kind() != '"' || strictjson.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	}
	p.name, p.hasName = str(w.Name)
	p.uri, p.hasURI = str(w.URI)
	if w.Meta != nil {
		p.version, _ = str(w.Meta.ProtocolVersion)
		p.hasCaps = w.Meta.ClientCapabilities != nil && w.Meta.ClientCapabilities.Kind() != 'n'
	}
	p.arguments = w.Arguments
	return p, nil
}

func FuzzDecodeProbe(f *testing.F) {
	for _, s := range []string{
		`{"name":"echo","arguments":{"a":[1,2]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
		`{"na\u006de":"x","uri":"file:///a","_meta":null}`,
		`{"name":1,"arguments" : {"x":"y"} ,"_meta":{"io.modelcontextprotocol/clientCapabilities":null}}`,
		`{"name":"a","name":"b"}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"v","io.modelcontextprotocol/protocolVersion":"w"}}`,
		`{"Name":"A"}`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if len(params) == 0 || params[0] != '{' || strictjson.CheckDepth(params, strictjson.DefaultMaxDepth) != nil {
			return
		}
		want, werr := referenceProbe(params)
		var got modernProbe
		gerr := decodeProbe(params, &got)
		if werr != nil {
			return // the method's decoding refuses it too; the probe may or may not
		}
		if gerr != nil {
			t.Fatalf("probe failed on params the strict decoder accepts: %v\n%s", gerr, params)
		}
		if got.name != want.name || got.hasName != want.hasName || got.uri != want.uri || got.hasURI != want.hasURI ||
			got.version != want.version || got.hasCaps != want.hasCaps || !bytes.Equal(got.arguments, want.arguments) {
			t.Fatalf("probe %+v, strict decoder %+v\n%s", got, want, params)
		}
	})
}
