package mcp

import (
	"bytes"
	"reflect"
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
	f.Add("hello", "", false, 1)
	f.Add("a\"\\\x01\u2028", "complete", true, 2)
	f.Add("\xff", "x", false, 0)
	f.Fuzz(func(t *testing.T, text, resultType string, isError bool, n int) {
		r := &CallToolResult{ResultType: resultType, IsError: isError}
		for i := range n % 4 {
			r.Content = append(r.Content, NewTextContent(text[:len(text)*i/3]))
		}
		checkCallToolResult(t, r)
	})
}
