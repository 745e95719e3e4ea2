package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"
)

// pipeClient speaks newline-delimited JSON-RPC to a server over a pipe, as
// a client over stdio does, without waiting for responses.
type pipeClient struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func newPipeClient(t *testing.T, server *Server) *pipeClient {
	t.Helper()
	c, s := net.Pipe()
	ss, err := server.Connect(context.Background(), NewIOTransport(s))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); ss.Wait() })
	return &pipeClient{t: t, conn: c, r: bufio.NewReader(c)}
}

// send writes messages in one write, pipelined.
func (rc *pipeClient) send(lines ...string) {
	rc.t.Helper()
	go func() { // net.Pipe writes block until read
		_, _ = rc.conn.Write([]byte(strings.Join(lines, "\n") + "\n")) // the test reads the answers; a failed write shows there
	}()
}

// responses reads n responses, by id.
func (rc *pipeClient) responses(n int) map[string]*JSONRPCResponse {
	rc.t.Helper()
	_ = rc.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	out := make(map[string]*JSONRPCResponse)
	for len(out) < n {
		line, err := rc.r.ReadBytes('\n')
		if err != nil {
			rc.t.Fatalf("reading response %d of %d: %v", len(out)+1, n, err)
		}
		msg, err := DecodeMessage(line)
		if err != nil {
			rc.t.Fatal(err)
		}
		if resp, ok := msg.(*JSONRPCResponse); ok {
			out[resp.ID.String()] = resp
		}
	}
	return out
}

func TestPipelinedInitializeOverPipes(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	// A slow initialize: without the barrier the requests behind it would
	// be served first and fail.
	server.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			if method == MethodInitialize {
				time.Sleep(100 * time.Millisecond)
			}
			return next(ctx, ss, method, params)
		}
	})
	rc := newPipeClient(t, server)
	rc.send(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	)
	got := rc.responses(4)
	for id, resp := range got {
		if resp.Error != nil {
			t.Errorf("response %s: error %d %s", id, resp.Error.Code, resp.Error.Message)
		}
	}
	var res CallToolResult
	if err := json.Unmarshal(got["3"].Result, &res); err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].Text != "hi" {
		t.Errorf("tools/call result %s (%v)", got["3"].Result, err)
	}
}

func TestRequestBeforePipelinedInitializeGetsHandshakeError(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	rc := newPipeClient(t, server)
	rc.send(
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	)
	got := rc.responses(2)
	if e := got["1"].Error; e == nil || e.Code != CodeInvalidRequest || !strings.Contains(e.Message, "not initialized") {
		t.Errorf("tools/list before initialize: %+v; want the handshake's -32600 error", e)
	}
	if e := got["2"].Error; e != nil {
		t.Errorf("initialize: %+v", e)
	}
}

func TestRequiredParams(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	server.AddPrompts(languagePrompt())
	server.AddResources(&ServerResource{Resource: &Resource{URI: "repo://readme", Name: "readme"},
		Handler: func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
			return &ReadResourceResult{}, nil
		}})
	tests := []struct {
		method, params, message string
	}{
		{MethodCallTool, `{"arguments":{}}`, "missing tool name"},
		{MethodCallTool, `{"name":""}`, "missing tool name"},
		{MethodGetPrompt, `{}`, "missing prompt name"},
		{MethodReadResource, `{}`, "missing resource uri"},
		{MethodComplete, `{"argument":{"name":"a","value":""}}`, "missing ref"},
	}
	for _, era := range []string{Version20251125, Version20260728} {
		t.Run(era, func(t *testing.T) {
			rc := newPipeClient(t, server)
			meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
			if era == Version20251125 {
				rc.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
				rc.responses(1)
				meta = `"_meta":{}`
			}
			for i, tt := range tests {
				params := "{" + meta + "}"
				if tt.params != "{}" {
					params = strings.Replace(tt.params, "{", "{"+meta+",", 1)
				}
				rc.send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"` + tt.method + `","params":` + params + `}`)
				resp := rc.responses(1)[string(rune('1'+i))]
				if resp == nil || resp.Error == nil || resp.Error.Code != CodeInvalidParams || !strings.Contains(resp.Error.Message, tt.message) {
					t.Errorf("%s %s: %+v; want -32602 with %q", tt.method, tt.params, resp, tt.message)
				}
			}
		})
	}
}
