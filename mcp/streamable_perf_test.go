package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// BenchmarkEncodeCallToolResult measures encoding the result of a typical
// tools/call as a response, which the streamable HTTP handler does for
// every call.
func BenchmarkEncodeCallToolResult(b *testing.B) {
	res := &CallToolResult{Content: []*Content{NewTextContent("hello")}, ResultType: "complete"}
	b.ReportAllocs()
	for b.Loop() {
		resp := jsonrpc2.NewResponse(jsonrpc2.Int64ID(1), res, nil)
		if resp.Error != nil {
			b.Fatal(resp.Error)
		}
	}
}

// probeTestHandler returns a handler whose server has a tool that mirrors
// an argument into a header.
func probeTestHandler() (*StreamableHTTPHandler, *Server) {
	s := NewServer("probe", "v1", nil)
	s.AddTools(&ServerTool{
		Tool: &Tool{Name: "region", InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}}`)},
		Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
			return &CallToolResult{Content: []*Content{NewTextContent("ok")}}, nil
		},
	})
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return s }, nil)
	return h, s
}

// checkBothWays runs the request metadata check of a 2026-07-28 request
// as the handler did before (probing the raw params) and as it does now
// (on the params the method decoded) and reports any difference.
func checkBothWays(t testing.TB, h *StreamableHTTPHandler, s *Server, msg []byte, hdr http.Header) {
	decoded, err := jsonrpc2.Decode(msg)
	if err != nil {
		return
	}
	req, ok := decoded.(*jsonrpc2.Request)
	if !ok || req.IsNotification() {
		return
	}
	r := httptest.NewRequest(http.MethodPost, "http://localhost/", nil)
	r.Header = hdr
	var p modernProbe
	perr := decodeProbe(req.Params, &p)
	var want error
	px := &postExchange{h: h, r: r, server: s}
	if resp := px.checkModernRequest(req, &p, perr); resp != nil {
		want = resp.Error
	}
	m := serverMethods[req.Method]
	if m == nil {
		return // checkDecoded then always probes: the same code
	}
	params := m.newParams()
	if decodeRequestParams(req, params) != nil {
		return // likewise
	}
	got := px.checkDecoded(req, params, nil)
	if (want == nil) != (got == nil) || (want != nil && want.Error() != got.Error()) {
		t.Errorf("%s with headers %v:\nprobing first: %v\non decoded params: %v", msg, hdr, want, got)
	}
}

func probeTestHeader(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

const probeTestMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

var probeTestCases = []struct {
	method, params string
	hdr            []string
}{
	{"tools/call", `{"name":"region","arguments":{"region":"eu","n":3},` + probeTestMeta + `}`, []string{"Mcp-Name", "region", "Mcp-Param-Region", "eu", "Mcp-Param-N", "3"}},
	{"tools/call", `{"name":"region","arguments":{"region":"eu","n":3},` + probeTestMeta + `}`, []string{"Mcp-Name", "region", "Mcp-Param-Region", "us", "Mcp-Param-N", "3"}},
	{"tools/call", `{"name":"region","arguments":{"region":"eu"},` + probeTestMeta + `}`, []string{"Mcp-Name", "region", "Mcp-Param-N", "3"}},
	{"tools/call", `{"name":"region","arguments":null,` + probeTestMeta + `}`, []string{"Mcp-Name", "region"}},
	{"tools/call", `{"name":"","arguments":{},` + probeTestMeta + `}`, []string{"Mcp-Name", "=?base64??="}},
	{"tools/call", `{"name":"","arguments":{},` + probeTestMeta + `}`, nil},
	{"tools/call", `{"arguments":{},` + probeTestMeta + `}`, nil},
	{"tools/call", `{"name":"echo",` + probeTestMeta + `}`, []string{"Mcp-Name", "other"}},
	{"tools/call", `{"name":"echo",` + probeTestMeta + `}`, []string{"Mcp-Name", "echo", "Mcp-Name", "echo"}},
	{"tools/call", `{"name":"echo"}`, []string{"Mcp-Name", "echo"}},
	{"tools/call", `{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, []string{"Mcp-Name", "echo"}},
	{"tools/call", `{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":null}}`, []string{"Mcp-Name", "echo"}},
	{"tools/call", `{"name":"\u00e9t\u00e9",` + probeTestMeta + `}`, []string{"Mcp-Name", encodeHeaderValue("été")}},
	{"prompts/get", `{"name":"p",` + probeTestMeta + `}`, []string{"Mcp-Name", "p"}},
	{"prompts/get", `{"name":"p",` + probeTestMeta + `}`, []string{"Mcp-Name", "q"}},
	{"resources/read", `{"uri":"file:///a",` + probeTestMeta + `}`, []string{"Mcp-Name", "file:///a"}},
	{"resources/read", `{"uri":"file:///a",` + probeTestMeta + `}`, nil},
	{"tasks/get", `{"taskId":"t1",` + probeTestMeta + `}`, []string{"Mcp-Name", "t1"}},
	{"tasks/cancel", `{"taskId":"t1",` + probeTestMeta + `}`, []string{"Mcp-Name", "t2"}},
	{"tasks/update", `{"taskId":"t1","inputResponses":{},` + probeTestMeta + `}`, nil},
	{"tools/list", `{` + probeTestMeta + `}`, nil},
	{"tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}`, nil},
}

// TestModernCheckOnDecodedParams shows that checking the request metadata
// headers on decoded params answers exactly as probing the raw params did.
func TestModernCheckOnDecodedParams(t *testing.T) {
	h, s := probeTestHandler()
	defer h.Close()
	for _, tt := range probeTestCases {
		for _, pv := range []string{Version20260728, Version20251125} {
			hdr := probeTestHeader(append([]string{headerProtocolVersion, pv, headerMethod, tt.method}, tt.hdr...)...)
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"` + tt.method + `","params":` + tt.params + `}`)
			checkBothWays(t, h, s, msg, hdr)
		}
	}
}

// FuzzModernCheckOnDecodedParams checks the same on arbitrary messages.
func FuzzModernCheckOnDecodedParams(f *testing.F) {
	for _, tt := range probeTestCases {
		f.Add(`{"jsonrpc":"2.0","id":1,"method":"`+tt.method+`","params":`+tt.params+`}`, tt.method, strings.Join(tt.hdr, "\n"))
	}
	h, s := probeTestHandler()
	defer h.Close()
	f.Fuzz(func(t *testing.T, msg, method, headers string) {
		kv := []string{headerProtocolVersion, Version20260728, headerMethod, method}
		if headers != "" {
			kv = append(kv, strings.Split(headers, "\n")...)
		}
		checkBothWays(t, h, s, []byte(msg), probeTestHeader(kv...))
	})
}

// TestModernHeaderCheckOrder checks over HTTP that header mismatches are
// reported before the method's own errors, as when the params were probed
// first: an unknown method, params of the wrong type.
func TestModernHeaderCheckOrder(t *testing.T) {
	h, _ := probeTestHandler()
	defer h.Close()
	tests := []struct {
		name, method, params string
		hdr                  []string
		status               int
		code                 ErrorCode
	}{
		{"unknown method, wrong Mcp-Method", "nope/nope", `{` + probeTestMeta + `}`, []string{headerMethod, "other"}, http.StatusBadRequest, CodeHeaderMismatch},
		{"unknown method", "nope/nope", `{` + probeTestMeta + `}`, []string{headerMethod, "nope/nope"}, http.StatusNotFound, CodeMethodNotFound},
		{"undecodable params, wrong Mcp-Name", "tools/call", `{"name":"region","task":7,` + probeTestMeta + `}`, []string{headerMethod, "tools/call", headerName, "other"}, http.StatusBadRequest, CodeHeaderMismatch},
		{"undecodable params", "tools/call", `{"name":"region","task":7,` + probeTestMeta + `}`, []string{headerMethod, "tools/call", headerName, "region"}, http.StatusOK, CodeInvalidParams},
		{"missing capabilities", "tools/call", `{"name":"region","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, []string{headerMethod, "tools/call", headerName, "other"}, http.StatusBadRequest, CodeInvalidParams},
		{"bound argument mismatch", "tools/call", `{"name":"region","arguments":{"region":"eu"},` + probeTestMeta + `}`, []string{headerMethod, "tools/call", headerName, "region", "Mcp-Param-Region", "us"}, http.StatusBadRequest, CodeHeaderMismatch},
		{"ok", "tools/call", `{"name":"region","arguments":{"region":"eu"},` + probeTestMeta + `}`, []string{headerMethod, "tools/call", headerName, "region", "Mcp-Param-Region", "eu"}, http.StatusOK, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":1,"method":"` + tt.method + `","params":` + tt.params + `}`
			r := httptest.NewRequest(http.MethodPost, "http://localhost/", strings.NewReader(body))
			r.Header = probeTestHeader(append([]string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream", headerProtocolVersion, Version20260728}, tt.hdr...)...)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var resp struct {
				Error *struct {
					Code ErrorCode `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
				t.Fatalf("%v: %s", err, w.Body)
			}
			code := ErrorCode(0)
			if resp.Error != nil {
				code = resp.Error.Code
			}
			if w.Code != tt.status || code != tt.code {
				t.Errorf("got HTTP %d, code %d; want HTTP %d, code %d\n%s", w.Code, code, tt.status, tt.code, w.Body)
			}
		})
	}
}
