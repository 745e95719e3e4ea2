package mcp

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestStreamableHTTPModernRequests(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	for _, tt := range modernRequestCases() {
		t.Run(tt.name, func(t *testing.T) {
			c := &rawClient{t: t, url: ts.URL}
			resp := c.post(tt.body, tt.hdr)
			msgs := readMessages(t, resp)
			if resp.StatusCode != tt.status || len(msgs) != 1 {
				t.Fatalf("status %d, want %d; body %v", resp.StatusCode, tt.status, msgs)
			}
			if got := errorCode(msgs[0]); got != tt.code {
				t.Fatalf("error code %d, want %d: %v", got, tt.code, msgs[0])
			}
			if msgs[0]["id"] != float64(1) && tt.code != 0 {
				t.Errorf("id %v not preserved", msgs[0]["id"])
			}
			if tt.text != "" && resultText(msgs[0]) != tt.text {
				t.Errorf("result %v, want text %q", msgs[0], tt.text)
			}
			if resp.Header.Get(headerSessionID) != "" {
				t.Error("a 2026-07-28 response carries a session ID")
			}
		})
	}
}

// modernRequestCase is one 2026-07-28 POST and what the server answers.
type modernRequestCase struct {
	name   string
	body   string
	hdr    map[string]string
	status int
	code   ErrorCode // JSON-RPC error code, 0 for success
	text   string    // expected result text on success
}

// modernRequestCases lists 2026-07-28 requests, well-formed and not, with
// the HTTP status and JSON-RPC outcome each gets.
func modernRequestCases() []modernRequestCase {
	call := func(id int, params string) string { return modernCall(id, MethodCallTool, params) }
	with := func(h map[string]string, kv ...string) map[string]string {
		for i := 0; i < len(kv); i += 2 {
			h[kv[i]] = kv[i+1]
		}
		return h
	}
	return []modernRequestCase{
		{"tools/call", call(1, `"name":"echo","arguments":{"text":"hi"}`), modernHeaders(MethodCallTool, "echo"), 200, 0, "hi"},
		{"header names are case-insensitive", call(1, `"name":"echo","arguments":{"text":"hi"}`),
			map[string]string{"mcp-protocol-version": Version20260728, "MCP-METHOD": MethodCallTool, "mcp-name": "echo"}, 200, 0, "hi"},
		{"base64 Mcp-Name", call(1, `"name":"echo","arguments":{"text":"hi"}`), modernHeaders(MethodCallTool, "=?base64?ZWNobw==?="), 200, 0, "hi"},
		{"server/discover", modernCall(2, MethodDiscover, ""), modernHeaders(MethodDiscover, ""), 200, 0, ""},
		{"missing MCP-Protocol-Version", call(1, `"name":"echo"`), with(modernHeaders(MethodCallTool, "echo"), headerProtocolVersion, ""), 400, CodeHeaderMismatch, ""},
		{"altered MCP-Protocol-Version", call(1, `"name":"echo"`), with(modernHeaders(MethodCallTool, "echo"), headerProtocolVersion, "2026-07-29"), 400, CodeHeaderMismatch, ""},
		{"missing Mcp-Method", call(1, `"name":"echo"`), with(modernHeaders(MethodCallTool, "echo"), headerMethod, ""), 400, CodeHeaderMismatch, ""},
		{"Mcp-Method mismatch", call(1, `"name":"echo"`), modernHeaders(MethodListTools, "echo"), 400, CodeHeaderMismatch, ""},
		{"Mcp-Method differs in case", call(1, `"name":"echo"`), modernHeaders("Tools/Call", "echo"), 400, CodeHeaderMismatch, ""},
		{"missing Mcp-Name", call(1, `"name":"echo"`), modernHeaders(MethodCallTool, ""), 400, CodeHeaderMismatch, ""},
		{"Mcp-Name mismatch", call(1, `"name":"echo"`), modernHeaders(MethodCallTool, "progress"), 400, CodeHeaderMismatch, ""},
		{"Mcp-Name bad base64", call(1, `"name":"echo"`), modernHeaders(MethodCallTool, "=?base64?ZWNob?="), 400, CodeHeaderMismatch, ""},
		{"sentinel-looking literal is not decoded twice", call(1, `"name":"echo"`), modernHeaders(MethodCallTool, "=?base64?ZWNobw==?"), 400, CodeHeaderMismatch, ""},
		{"missing _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, modernHeaders(MethodListTools, ""), 400, CodeInvalidParams, ""},
		{"missing clientCapabilities", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			modernHeaders(MethodListTools, ""), 400, CodeInvalidParams, ""},
		{"unsupported version", strings.ReplaceAll(modernCall(1, MethodListTools, ""), Version20260728, "2099-01-01"),
			with(modernHeaders(MethodListTools, ""), headerProtocolVersion, "2099-01-01"), 400, CodeUnsupportedProtocolVersion, ""},
		{"unknown method", modernCall(1, "nope/nope", ""), modernHeaders("nope/nope", ""), 404, CodeMethodNotFound, ""},
		{"removed method initialize", modernCall(1, MethodInitialize, `"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}`),
			modernHeaders(MethodInitialize, ""), 404, CodeMethodNotFound, ""},
		{"unknown tool is a JSON-RPC error, HTTP 200", call(1, `"name":"nope"`), modernHeaders(MethodCallTool, "nope"), 200, CodeInvalidParams, ""},
		{"session ID is ignored", call(1, `"name":"echo","arguments":{"text":"x"}`), with(modernHeaders(MethodCallTool, "echo"), headerSessionID, "whatever"), 200, 0, "x"},
		// x-mcp-header arguments.
		{"param header", call(1, `"name":"region","arguments":{"region":"us-west1","deep":{"n":42}}`),
			with(modernHeaders(MethodCallTool, "region"), "Mcp-Param-Region", "us-west1", "Mcp-Param-N", "42"), 200, 0, "ok"},
		{"param header compared numerically", call(1, `"name":"region","arguments":{"deep":{"n":42.0}}`),
			with(modernHeaders(MethodCallTool, "region"), "Mcp-Param-N", "42"), 200, 0, "ok"},
		{"param header base64", call(1, `"name":"region","arguments":{"region":"Hello, 世界"}`),
			with(modernHeaders(MethodCallTool, "region"), "Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?="), 200, 0, "ok"},
		{"param absent, header absent", call(1, `"name":"region","arguments":{}`), modernHeaders(MethodCallTool, "region"), 200, 0, "ok"},
		{"param null, header absent", call(1, `"name":"region","arguments":{"region":null}`), modernHeaders(MethodCallTool, "region"), 200, 0, "ok"},
		{"param header missing", call(1, `"name":"region","arguments":{"region":"us-west1"}`), modernHeaders(MethodCallTool, "region"), 400, CodeHeaderMismatch, ""},
		{"param header mismatch", call(1, `"name":"region","arguments":{"region":"us-west1"}`),
			with(modernHeaders(MethodCallTool, "region"), "Mcp-Param-Region", "eu-west1"), 400, CodeHeaderMismatch, ""},
		{"param header without argument", call(1, `"name":"region","arguments":{}`),
			with(modernHeaders(MethodCallTool, "region"), "Mcp-Param-Region", "eu-west1"), 400, CodeHeaderMismatch, ""},
		{"param header with bad characters", call(1, `"name":"region","arguments":{"region":"é"}`),
			with(modernHeaders(MethodCallTool, "region"), "Mcp-Param-Region", "é"), 400, CodeHeaderMismatch, ""},
	}
}

func TestStreamableHTTPModernStreamsNotifications(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(modernCall(1, MethodCallTool, `"name":"progress","_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`),
		modernHeaders(MethodCallTool, "progress"))
	msgs := readMessages(t, resp)
	// modernCall puts its own _meta first; a duplicate _meta key is
	// rejected, so this request must fail to decode.
	if resp.StatusCode != 400 {
		t.Fatalf("duplicate _meta: %s %v", resp.Status, msgs)
	}

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	resp = c.post(body, modernHeaders(MethodCallTool, "progress"))
	msgs = readMessages(t, resp)
	if !isMediaType(resp.Header.Get("Content-Type"), mediaSSE) || resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("headers %v", resp.Header)
	}
	if len(msgs) != 4 || msgs[0]["method"] != NotificationProgress || resultText(msgs[3]) != "done" {
		t.Fatalf("stream %v", msgs)
	}
	res, _ := msgs[3]["result"].(map[string]any)
	if res["resultType"] != "complete" {
		t.Errorf("resultType %v", res["resultType"])
	}
}

func TestStreamableHTTPModernNotificationAccepted(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		modernHeaders(NotificationCancelled, ""))
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notification: %s, want 202", resp.Status)
	}
}

func TestStreamableHTTPModernDisconnectCancels(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, nil)
	// The "wait" tool returns when its context ends: a modern client
	// closing the response is the cancellation.
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(modernCall(1, MethodCallTool, `"name":"wait"`)))
	for k, v := range modernHeaders(MethodCallTool, "wait") {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := http.DefaultClient.Do(req.WithContext(ctx)); err == nil {
		t.Fatal("expected the request to be cut off")
	}
}

func TestStreamableHTTPLegacyOnlyServerRefusesModern(t *testing.T) {
	_, _, ts, _ := newHTTPTest(t, nil, &ServerOptions{ProtocolVersions: []string{Version20251125, Version20250618}})
	c := &rawClient{t: t, url: ts.URL}
	resp := c.post(modernCall(1, MethodDiscover, ""), modernHeaders(MethodDiscover, ""))
	msgs := readMessages(t, resp)
	// A legacy-only server answers as a legacy server would: 400 without a
	// modern error, so dual-era clients fall back to initialize.
	if resp.StatusCode != 400 || len(msgs) != 1 {
		t.Fatalf("%s %v", resp.Status, msgs)
	}
	switch errorCode(msgs[0]) {
	case CodeHeaderMismatch, CodeMissingRequiredClientCapability, CodeUnsupportedProtocolVersion:
		t.Fatalf("legacy-only server answered with a modern error: %v", msgs[0])
	}
}
