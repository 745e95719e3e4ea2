package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Golden wire tests for resources/list, resources/templates/list and
// resources/read in 2026-07-28: the official example requests are sent
// byte for byte to a server holding the example's resources, and the
// responses must equal the official example responses.

// exchangeWire connects s to a raw connection, writes each message, and
// returns the response to each request (notifications from the server are
// skipped).
func exchangeWire(t *testing.T, s *Server, messages []string) []*JSONRPCResponse {
	t.Helper()
	ctx := context.Background()
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { conn.Close(); ss.Wait() }()
	var out []*JSONRPCResponse
	for _, m := range messages {
		msg, err := DecodeMessage([]byte(m))
		if err != nil {
			t.Fatalf("decoding %s: %v", m, err)
		}
		if err := conn.Write(ctx, msg); err != nil {
			t.Fatal(err)
		}
		if req, ok := msg.(*JSONRPCRequest); !ok || req.IsNotification() {
			continue
		}
		for {
			in, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if resp, ok := in.(*JSONRPCResponse); ok {
				out = append(out, resp)
				break
			}
		}
	}
	return out
}

// resourceExample returns an official 2026-07-28 example.
func resourceExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "types", Version20260728, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// exampleServer holds the resource and template of the official examples.
// The cache hints of list results come from a middleware (they are not yet
// configurable per server); the read handler sets its own.
func exampleServer(ttlMs int64, scope string) *Server {
	s := NewServer("example", "1.0.0", nil)
	s.AddResources(&ServerResource{
		Resource: &Resource{
			URI: "file:///project/src/main.rs", Name: "main.rs", Title: "Rust Software Application Main File",
			Description: "Primary application entry point", MIMEType: "text/x-rust",
			Icons: []Icon{{Src: "https://example.com/rust-file-icon.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
		},
		Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
			ttl := int64(60000)
			return &ReadResourceResult{
				Contents: []*ResourceContents{{Text: "fn main() {\n    println!(\"Hello world!\");\n}"}},
				TTLMs:    &ttl, CacheScope: "private",
			}, nil
		},
	})
	s.AddResourceTemplates(&ServerResourceTemplate{
		Template: &ResourceTemplate{
			URITemplate: "file:///{path}", Name: "Project Files", Title: "Project Files",
			Description: "Access files in the project directory", MIMEType: "application/octet-stream",
			Icons: []Icon{{Src: "https://example.com/folder-icon.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
		},
		Handler: FileResourceHandler("."),
	})
	s.AddMiddleware(func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			res, err := next(ctx, ss, method, params)
			if !ss.ProtocolAtLeast(Version20260728) {
				return res, err
			}
			switch r := res.(type) {
			case *ListResourcesResult:
				r.TTLMs, r.CacheScope = &ttlMs, scope
			case *ListResourceTemplatesResult:
				r.TTLMs, r.CacheScope = &ttlMs, scope
			}
			return res, err
		}
	})
	return s
}

func TestResourcesGoldenModern(t *testing.T) {
	tests := []struct {
		request, response string
		ttlMs             int64
		scope             string
	}{
		{"ListResourcesRequest/list-resources-request.json", "ListResourcesResultResponse/list-resources-result-response.json", 600000, "private"},
		{"ListResourceTemplatesRequest/list-resource-templates-request.json", "ListResourceTemplatesResultResponse/list-resource-templates-result-response.json", 3600000, "public"},
		{"ReadResourceRequest/read-resource-request.json", "ReadResourceResultResponse/read-resource-result-response-with-ttl.json", 0, ""},
	}
	for _, tt := range tests {
		t.Run(filepath.Dir(tt.request), func(t *testing.T) {
			want := decodeResourceJSON(t, resourceExample(t, tt.response))
			resp := exchangeWire(t, exampleServer(tt.ttlMs, tt.scope), []string{resourceExample(t, tt.request)})[0]
			raw, err := EncodeMessage(resp)
			if err != nil {
				t.Fatal(err)
			}
			got := decodeResourceJSON(t, string(raw)).(map[string]any)
			// The read example's id differs from its request's: the
			// response is compared apart from the id, which must echo the
			// request's.
			reqID := decodeResourceJSON(t, resourceExample(t, tt.request)).(map[string]any)["id"]
			if got["id"] != reqID {
				t.Errorf("response id %v, want %v", got["id"], reqID)
			}
			got["id"] = want.(map[string]any)["id"]
			if !dropResponseServerInfo(got) {
				t.Error("2026-07-28 result without _meta serverInfo")
			}
			// The example's cursor is the example server's own; ours is
			// opaque too. There is only one page here.
			if result, ok := want.(map[string]any)["result"].(map[string]any); ok {
				delete(result, "nextCursor")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("response:\n%s\nwant:\n%s", raw, resourceExample(t, tt.response))
			}
		})
	}
}

// TestResourceNotFoundWire checks the exact error of an unknown resource in
// each era: -32002 before 2026-07-28, -32602 with data.uri since.
func TestResourceNotFoundWire(t *testing.T) {
	modernMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
	legacyInit := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	tests := []struct {
		name     string
		messages []string
		want     string
	}{
		{"2026-07-28", []string{`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///nonexistent.txt",` + modernMeta + `}}`},
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"file:///nonexistent.txt"}}}`},
		{"2025-11-25", []string{legacyInit, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///nonexistent.txt"}}`},
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///nonexistent.txt"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer("s", "v1", nil)
			s.AddResources(textResource("file:///exists.txt", "x"))
			resps := exchangeWire(t, s, tt.messages)
			raw, err := EncodeMessage(resps[len(resps)-1])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(decodeResourceJSON(t, string(raw)), decodeResourceJSON(t, tt.want)) {
				t.Errorf("response %s, want %s", raw, tt.want)
			}
		})
	}
}

// TestResourcesWireLegacy checks the exact exchange of the resource
// methods in protocol 2025-11-25: no resultType, no cache hints, and
// subscriptions.
func TestResourcesWireLegacy(t *testing.T) {
	legacyInit := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	initialized := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	s := exampleServer(0, "")
	s.opts.SubscribeHandler = func(context.Context, *ServerSession, *SubscribeParams) error { return nil }
	s.opts.UnsubscribeHandler = func(context.Context, *ServerSession, *UnsubscribeParams) error { return nil }
	exchanges := []struct{ request, response string }{
		{`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
			`{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"file:///project/src/main.rs","name":"main.rs","title":"Rust Software Application Main File","description":"Primary application entry point","mimeType":"text/x-rust","icons":[{"src":"https://example.com/rust-file-icon.png","mimeType":"image/png","sizes":["48x48"]}]}]}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"resources/templates/list","params":{}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"Project Files","title":"Project Files","description":"Access files in the project directory","mimeType":"application/octet-stream","icons":[{"src":"https://example.com/folder-icon.png","mimeType":"image/png","sizes":["48x48"]}]}]}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"file:///project/src/main.rs"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"resources/unsubscribe","params":{"uri":"file:///project/src/main.rs"}}`,
			`{"jsonrpc":"2.0","id":4,"result":{}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"resources/list","params":{"cursor":"bad"}}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"invalid cursor \"bad\""}}`},
	}
	messages := []string{legacyInit, initialized}
	for _, e := range exchanges {
		messages = append(messages, e.request)
	}
	resps := exchangeWire(t, s, messages)[1:]
	for i, e := range exchanges {
		raw, err := EncodeMessage(resps[i])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(decodeResourceJSON(t, string(raw)), decodeResourceJSON(t, e.response)) {
			t.Errorf("%s\ngot  %s\nwant %s", e.request, raw, e.response)
		}
	}
}

func decodeResourceJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}
