package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Helpers of the HTTP transport tests: a server with tools that exercise
// streams, and a raw HTTP client that speaks the wire format directly.

type ctxKeyTest struct{}

// httpTestTools are the tools of the HTTP tests.
func httpTestTools(release <-chan struct{}) []*ServerTool {
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	text := func(s string) *CallToolResult { return &CallToolResult{Content: []*Content{NewTextContent(s)}} }
	arg := func(p *CallToolParams) string {
		var a struct {
			Text string `json:"text"`
		}
		if raw, ok := p.Arguments.(json.RawMessage); ok {
			_ = json.Unmarshal(raw, &a) // the schema asks for an object; anything else reads as no text
		}
		return a.Text
	}
	return []*ServerTool{
		{Tool: &Tool{Name: "echo", InputSchema: schema}, Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			return text(arg(p)), nil
		}},
		{Tool: &Tool{Name: "progress", InputSchema: schema}, Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			for i := 1; i <= 3; i++ {
				if err := ss.NotifyProgress(ctx, &ProgressNotificationParams{ProgressToken: p.Meta.ProgressToken, Progress: float64(i), Total: 3}); err != nil {
					return nil, err
				}
			}
			return text("done"), nil
		}},
		{Tool: &Tool{Name: "ping", InputSchema: schema}, Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			if err := ss.Ping(ctx, nil); err != nil {
				return nil, err
			}
			return text("pong"), nil
		}},
		{Tool: &Tool{Name: "wait", InputSchema: schema}, Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			select {
			case <-release:
				return text("released"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}},
		{Tool: &Tool{Name: "poll", InputSchema: schema}, Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			if err := CloseSSEStream(ctx, 20*time.Millisecond); err != nil {
				return nil, err
			}
			_ = ss.NotifyProgress(ctx, &ProgressNotificationParams{ProgressToken: p.Meta.ProgressToken, Progress: 1, Total: 2}) // the test checks what the client received
			time.Sleep(50 * time.Millisecond)
			return text("resumed"), nil
		}},
		{Tool: &Tool{Name: "whoami", InputSchema: schema}, Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
			r := HTTPRequestFromContext(ctx)
			if r == nil {
				return nil, errors.New("no HTTP request in context")
			}
			v, _ := ctx.Value(ctxKeyTest{}).(string)
			return text(r.Header.Get("X-User") + "/" + v), nil
		}},
		{Tool: &Tool{Name: "region", InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"deep":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}}`)},
			Handler: func(ctx context.Context, ss *ServerSession, p *CallToolParams) (*CallToolResult, error) {
				return text("ok"), nil
			}},
	}
}

// newHTTPTest starts a server with the test tools behind a streamable
// HTTP handler, wrapped in middleware that puts a value in the request
// context. Closing the returned release channel lets "wait" calls return.
func newHTTPTest(t testing.TB, opts *StreamableHTTPOptions, sopts *ServerOptions) (*Server, *StreamableHTTPHandler, *httptest.Server, chan struct{}) {
	t.Helper()
	return newHTTPTestWrapped(t, opts, sopts, nil)
}

// newHTTPTestWrapped is newHTTPTest with the handler wrapped by wrap.
func newHTTPTestWrapped(t testing.TB, opts *StreamableHTTPOptions, sopts *ServerOptions, wrap func(http.Handler) http.Handler) (*Server, *StreamableHTTPHandler, *httptest.Server, chan struct{}) {
	t.Helper()
	release := make(chan struct{})
	server := NewServer("http-test", "v1", sopts)
	server.AddTools(httpTestTools(release)...)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, opts)
	var mw http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKeyTest{}, "from-middleware")))
	})
	if wrap != nil {
		mw = wrap(mw)
	}
	ts := httptest.NewServer(mw)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
		h.Close() // ends open streams, which ts.Close would wait for
		ts.Close()
	})
	return server, h, ts, release
}

// rawClient sends hand-written HTTP requests to an MCP endpoint.
type rawClient struct {
	t       testing.TB
	url     string
	sid     string
	version string
}

// do sends a request with the given method, body and headers. The
// standard headers of a POST are added unless given.
func (c *rawClient) do(method, body string, hdr map[string]string) *http.Response {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.url, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	if c.sid != "" {
		req.Header.Set(headerSessionID, c.sid)
	}
	if c.version != "" {
		req.Header.Set(headerProtocolVersion, c.version)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// post sends a POST and returns the response.
func (c *rawClient) post(body string, hdr map[string]string) *http.Response {
	c.t.Helper()
	return c.do(http.MethodPost, body, hdr)
}

// initialize starts a legacy session at version.
func (c *rawClient) initialize(version string) {
	c.t.Helper()
	resp := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, version), nil)
	msgs := readMessages(c.t, resp)
	if resp.StatusCode != http.StatusOK || len(msgs) != 1 {
		c.t.Fatalf("initialize: %s %v", resp.Status, msgs)
	}
	c.sid = resp.Header.Get(headerSessionID)
	if c.sid == "" {
		c.t.Fatal("initialize: no Mcp-Session-Id")
	}
	c.version = version
	resp = c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		c.t.Fatalf("initialized: %s", resp.Status)
	}
}

// readMessages reads a response body: one JSON message, or the messages
// of an SSE stream until it ends.
func readMessages(t testing.TB, resp *http.Response) []map[string]any {
	t.Helper()
	defer resp.Body.Close()
	if isMediaType(resp.Header.Get("Content-Type"), mediaSSE) {
		var out []map[string]any
		r := newSSEReader(resp.Body, 0)
		for {
			ev, err := r.Next()
			if err != nil {
				return out
			}
			if len(ev.Data) > 0 {
				out = append(out, decodeMap(t, ev.Data))
			}
		}
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(body) == 0 {
		return nil
	}
	if body[0] == '[' {
		var out []map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("bad batch %s: %v", body, err)
		}
		return out
	}
	return []map[string]any{decodeMap(t, body)}
}

func decodeMap(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("bad JSON %s: %v", b, err)
	}
	return m
}

// errorCode returns the JSON-RPC error code of a decoded response, or 0.
func errorCode(m map[string]any) ErrorCode {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return ErrorCode(code)
}

// resultText returns the first text content of a decoded tools/call
// response.
func resultText(m map[string]any) string {
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	c, _ := content[0].(map[string]any)
	s, _ := c["text"].(string)
	return s
}

// modernCall is the body of a 2026-07-28 request.
func modernCall(id int, method, params string) string {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	if params == "" {
		params = "{" + meta + "}"
	} else {
		params = "{" + meta + "," + params + "}"
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
}

// modernHeaders are the request metadata headers of a 2026-07-28 request.
func modernHeaders(method, name string) map[string]string {
	h := map[string]string{headerProtocolVersion: Version20260728, headerMethod: method}
	if name != "" {
		h[headerName] = name
	}
	return h
}
