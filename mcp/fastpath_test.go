package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// The fast paths (params_trusted.go, result_encode.go) must give exactly
// what the strict decoder and encoder give, or give up.

var callToolParamsCases = []string{
	`{"name":"echo","arguments":{"text":"hello"}}`,
	`{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}`,
	`{"name":"e\u0063ho","arguments":{"a":[1,2,{"b":null}]} , "other":[{"x":1}]}`,
	`{"arguments":{},"name":""}`,
	`{"name":"echo","arguments":null}`,
	`{"name":"echo","arguments":[1]}`,
	`{"name":"echo","arguments":"x"}`,
	`{"name":5}`,
	`{"name":null}`,
	`{"n\u0061me":"x"}`,
	`{"Name":"x"}`,
	`{"name":"x","task":{"ttl":5}}`,
	`{"name":"x","requestState":"s","inputResponses":{"a":{}}}`,
	`{"name":"x","_meta":{"progressToken":7}}`,
	`{"name":"x","_meta":{"progressToken":[1]}}`,
	`{"name":"x","_meta":null}`,
	`{"name":"x","_meta":{"io.modelcontextprotocol/clientCapabilities":5}}`,
	`[1,2]`,
}

// checkCallToolParams decodes params both ways, if a message carrying them
// decodes, and fails t if the fast path disagrees with the strict decoder.
func checkCallToolParams(t *testing.T, params []byte) bool {
	t.Helper()
	msg, err := jsonrpc2.Decode(append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`), params...), '}'))
	if err != nil {
		return false
	}
	req := msg.(*jsonrpc2.Request)
	var fast CallToolParams
	if !jsonrpc2.ParamsChecked(req) || len(req.Params) == 0 || !fast.decodeTrusted(req.Params) {
		if !reflect.DeepEqual(fast, CallToolParams{}) {
			t.Fatalf("fast path gave up on %s but left %+v", params, fast)
		}
		return false
	}
	var slow CallToolParams
	if err := strictjson.UnmarshalTrusted(req.Params, &slow); err != nil {
		t.Fatalf("fast path accepts %s, the strict decoder refuses it: %v", params, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decoding %s:\nfast %#v\nslow %#v", params, fast, slow)
	}
	return true
}

func TestCallToolParamsFastPathAgrees(t *testing.T) {
	taken := 0
	for _, in := range callToolParamsCases {
		if checkCallToolParams(t, []byte(in)) {
			taken++
		}
	}
	if taken < 4 {
		t.Errorf("fast path took %d cases; it must take plain calls", taken)
	}
}

func FuzzCallToolParamsFastPath(f *testing.F) {
	for _, in := range callToolParamsCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		checkCallToolParams(t, params)
	})
}

var callToolResultCases = []*CallToolResult{
	{Content: []*Content{NewTextContent("hello")}},
	{ResultType: "complete", Content: []*Content{NewTextContent("a\"<>&\u2028\x00"), NewTextContent("")}, IsError: true},
	{},
	{Content: []*Content{}},
	{Content: []*Content{NewTextContent("bad \xff utf-8")}},
	{ResultType: "bad \xff", Content: []*Content{NewTextContent("x")}},
	{Content: []*Content{nil}},
	{Content: []*Content{{Type: ContentTypeText, Text: "x", Annotations: &Annotations{Audience: []Role{"user"}}}}},
	{Content: []*Content{{Type: ContentTypeImage, Data: []byte{1}, MIMEType: "image/png"}}},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: map[string]any{"a": 1}},
	{Content: []*Content{NewTextContent("x")}, RequestState: "s"},
	{Meta: Meta{ProgressToken: "p"}, Content: []*Content{NewTextContent("x")}},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage(`{"a":1,"b":"<\u00e9>"}`)},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage(" {\"a\" : [1, 2]}\n"), IsError: true},
	{StructuredContent: json.RawMessage(`[1]`)},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage(`{"a":1,"a":2}`)},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage(`{"a":`)},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage("{\"\xff\":1}")},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage{}},
	{Content: []*Content{NewTextContent("x")}, StructuredContent: json.RawMessage(nil)},
}

// checkCallToolResult fails t if the direct encoding of r differs from
// strictjson's.
func checkCallToolResult(t *testing.T, r *CallToolResult) bool {
	t.Helper()
	fast, ok := appendCallToolResult(nil, r)
	if !ok {
		return false
	}
	slow, err := strictjson.Marshal(r)
	if err != nil {
		t.Fatalf("direct encoding of %+v succeeds, strictjson fails: %v", r, err)
	}
	if !bytes.Equal(fast, slow) {
		t.Fatalf("encoding %+v:\nfast %s\nslow %s", r, fast, slow)
	}
	return true
}

func TestCallToolResultDirectEncodingAgrees(t *testing.T) {
	taken := 0
	for _, r := range callToolResultCases {
		if checkCallToolResult(t, r) {
			taken++
		}
	}
	if taken < 4 {
		t.Errorf("direct encoding took %d cases; it must take text results", taken)
	}
}

func FuzzCallToolResultEncoding(f *testing.F) {
	f.Add("hello", "", false, 1, []byte(nil))
	f.Add("a\"\\\x01\u2028", "complete", true, 2, []byte(`{"a": [1, "\u00e9"]}`))
	f.Add("\xff", "x", false, 0, []byte(`{"a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, text, resultType string, isError bool, n int, structured []byte) {
		r := &CallToolResult{ResultType: resultType, IsError: isError}
		if structured != nil {
			r.StructuredContent = json.RawMessage(structured)
		}
		for i := range n % 4 {
			r.Content = append(r.Content, NewTextContent(text[:len(text)*i/3]))
		}
		checkCallToolResult(t, r)
	})
}

var readResourceResultCases = []*ReadResourceResult{
	{Contents: []*ResourceContents{NewTextResourceContents("file:///a", "text/plain", "hello")}},
	{Contents: []*ResourceContents{NewBlobResourceContents("file:///b", "application/octet-stream", []byte{0, 1, 2, 0xff, 0xfe})}},
	{Contents: []*ResourceContents{NewBlobResourceContents("file:///e", "", nil), NewTextResourceContents("x:\"<>&\u2028", "", "")}},
	{ResultType: "complete", Contents: []*ResourceContents{}, TTLMs: new(int64), CacheScope: CacheScopePrivate},
	{Contents: []*ResourceContents{NewTextResourceContents("file:///a", "", "t")}, TTLMs: func() *int64 { v := int64(-5); return &v }()},
	{},
	{Contents: []*ResourceContents{nil}},
	{Contents: []*ResourceContents{NewTextResourceContents("bad \xff", "", "")}},
	{Contents: []*ResourceContents{{URI: "m", Text: "t", Meta: Meta{ProgressToken: "p"}}}},
	{Meta: Meta{ProgressToken: "p"}, Contents: []*ResourceContents{}},
	{Contents: []*ResourceContents{}, RequestState: "s"},
}

// checkReadResourceResult fails t if the direct encoding of r differs
// from strictjson's, or does not decode back to r.
func checkReadResourceResult(t *testing.T, r *ReadResourceResult) bool {
	t.Helper()
	fast, ok := appendReadResourceResult(nil, r)
	if !ok {
		return false
	}
	slow, err := strictjson.Marshal(r)
	if err != nil {
		t.Fatalf("direct encoding of %+v succeeds, strictjson fails: %v", r, err)
	}
	if !bytes.Equal(fast, slow) {
		t.Fatalf("encoding %+v:\nfast %s\nslow %s", r, fast, slow)
	}
	var back ReadResourceResult
	if err := strictjson.Unmarshal(fast, &back); err != nil {
		t.Fatalf("decoding %s: %v", fast, err)
	}
	if !reflect.DeepEqual(&back, r) {
		t.Fatalf("decoding %s:\ngot  %#v\nwant %#v", fast, back, r)
	}
	return true
}

func TestReadResourceResultDirectEncodingAgrees(t *testing.T) {
	taken := 0
	for _, r := range readResourceResultCases {
		if checkReadResourceResult(t, r) {
			taken++
		}
	}
	if taken < 5 {
		t.Errorf("direct encoding took %d cases; it must take text and blob contents", taken)
	}
}

func FuzzReadResourceResultEncoding(f *testing.F) {
	f.Add("file:///a", "text/plain", "hello", []byte(nil), int64(0), 1)
	f.Add("u", "", "", []byte{0, 0xff}, int64(-1), 2)
	f.Add("\xff", "x\"", "\x00", []byte{}, int64(7), 3)
	f.Fuzz(func(t *testing.T, uri, mimeType, text string, blob []byte, ttl int64, n int) {
		r := &ReadResourceResult{Contents: []*ResourceContents{}}
		if n%2 == 0 {
			r.TTLMs = &ttl
		}
		for i := range n % 4 {
			if i%2 == 0 && blob != nil {
				r.Contents = append(r.Contents, NewBlobResourceContents(uri, mimeType, blob))
			} else {
				r.Contents = append(r.Contents, NewTextResourceContents(uri, mimeType, text))
			}
		}
		checkReadResourceResult(t, r)
	})
}

// Base64 data is decoded from the message's text, escaped or not, and
// refused clearly when it is not a base64 string.
func TestBase64DataDecoding(t *testing.T) {
	tests := []struct {
		in      string
		want    []byte
		wantErr bool
	}{
		{`{"uri":"u","blob":"AAEC/w=="}`, []byte{0, 1, 2, 0xff}, false},
		{`{"uri":"u","blob":"AAEC\/w=="}`, []byte{0, 1, 2, 0xff}, false},
		{`{"uri":"u","blob":"\u0041AEC/w=="}`, []byte{0, 1, 2, 0xff}, false},
		{`{"uri":"u","blob":""}`, []byte{}, false},
		{`{"uri":"u","blob":"not base64!"}`, nil, true},
		{`{"uri":"u","blob":5}`, nil, true},
		{`{"uri":"u","blob":[]}`, nil, true},
		{`{"uri":"u","blob":"AAEC/w==","text":"t"}`, nil, true},
	}
	for _, tt := range tests {
		var rc ResourceContents
		err := strictjson.Unmarshal([]byte(tt.in), &rc)
		if tt.wantErr {
			if err == nil {
				t.Errorf("%s: decoded as %+v, want an error", tt.in, rc)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if rc.Blob == nil || !bytes.Equal(rc.Blob, tt.want) {
			t.Errorf("%s: blob %v, want %v", tt.in, rc.Blob, tt.want)
		}
	}
	var rc ResourceContents
	if err := strictjson.Unmarshal([]byte(`{"uri":"u","blob":null}`), &rc); err != nil || rc.Blob != nil {
		t.Errorf("a null blob: %+v, %v; want text contents", rc, err)
	}
}

func FuzzBase64DataDecoding(f *testing.F) {
	f.Add([]byte(`"AAEC/w=="`))
	f.Add([]byte(`"AAEC\/w=="`))
	f.Add([]byte(`""`))
	f.Add([]byte(`"!"`))
	f.Fuzz(func(t *testing.T, v []byte) {
		var d base64Data
		derr := d.UnmarshalJSON(v) // must not panic, whatever v is
		var s string
		if strictjson.Unmarshal(v, &s) != nil {
			return // the decoder only ever gives it a valid JSON value
		}
		want, err := base64.StdEncoding.DecodeString(s)
		if (err == nil) != (derr == nil) || err == nil && !bytes.Equal(d.b, want) {
			t.Fatalf("%q: got %v (%v), want %v (%v)", v, d.b, derr, want, err)
		}
	})
}

// TestStructuredResultsTakeTheDirectPaths checks that a structured tool's
// result (its structured content already encoded, as NewStructuredTool
// makes it) is written and read without the reflective encoder and
// decoder, the same bytes as theirs.
func TestStructuredResultsTakeTheDirectPaths(t *testing.T) {
	r := &CallToolResult{Content: []*Content{NewTextContent("# doc")}, StructuredContent: json.RawMessage(`{"markdown":"# doc","page":1}`)}
	if !checkCallToolResult(t, r) {
		t.Fatal("the direct encoding gave up on a result with encoded structured content")
	}
	b, _ := appendCallToolResult(nil, r)
	if !checkCallToolResultDecoding(t, b) {
		t.Fatalf("the direct decoding gave up on %s", b)
	}
}

// TestDirectEncodingSizesItsBuffer checks that the direct encoding of a
// markdown answer with its structured content fits the one buffer
// directSize sizes, escapes included, so that it is never grown. (The
// length is compared rather than allocations counted: the JSON
// formatting's own buffer pool drops entries at random under the race
// detector, which adds allocations that are not the encoder's.)
func TestDirectEncodingSizesItsBuffer(t *testing.T) {
	md := strings.Repeat("- `func Cut(s, sep string)` — \"Cut\" slices s.\n", 40)
	structured, err := strictjson.Marshal(map[string]any{"markdown": md, "page": 1})
	if err != nil {
		t.Fatal(err)
	}
	r := &CallToolResult{Content: []*Content{NewTextContent(md)}, StructuredContent: json.RawMessage(structured)}
	size, ok := directSize(r)
	if !ok {
		t.Fatal("no direct size")
	}
	b, ok := appendDirect(nil, r)
	if !ok {
		t.Fatal("no direct encoding")
	}
	if len(b) > size {
		t.Errorf("encoding is %d bytes, more than the %d directSize gave its buffer", len(b), size)
	}
	if cap(b) != size {
		t.Errorf("buffer grew from %d to %d bytes", size, cap(b))
	}
}
