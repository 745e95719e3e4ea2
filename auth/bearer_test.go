package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

const prmURL = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"

// testTokens is a verifier of fixed tokens.
var testTokens = TokenVerifierFunc(func(ctx context.Context, token string) (*TokenInfo, error) {
	switch token {
	case "alice-basic":
		return &TokenInfo{Subject: "alice", Scopes: []string{"mcp:basic"}}, nil
	case "alice-all":
		return &TokenInfo{Subject: "alice", Scopes: []string{"mcp:basic", "profile:read", "prompts:read", "files:read"}}, nil
	case "bob-all":
		return &TokenInfo{Subject: "bob", Scopes: []string{"mcp:basic", "profile:read", "prompts:read", "files:read"}}, nil
	case "no-scope":
		return &TokenInfo{Subject: "carol"}, nil
	case "bound":
		return &TokenInfo{Subject: "dave", Scopes: []string{"mcp:basic"}, JKT: "some-thumbprint"}, nil
	case "down":
		return nil, unavailable("signing keys unavailable", errors.New("dial tcp: refused"))
	}
	return nil, fmt.Errorf("%w: unknown token", ErrInvalidToken)
})

var testRules = ScopeRules{
	Endpoint:  []string{"mcp:basic"},
	Tools:     map[string][]string{"whoami": {"profile:read"}},
	Prompts:   map[string][]string{"secret": {"prompts:read"}},
	Resources: map[string][]string{"file:///secret": {"files:read"}},
}

// whoServer has a tool, a prompt and a resource that answer the subject
// of the caller's token, and counts tool runs.
func whoServer(runs *atomic.Int64) *mcp.Server {
	who := func(ctx context.Context) string {
		ti := TokenInfoFromContext(ctx)
		if ti == nil {
			return "nobody"
		}
		return ti.Subject
	}
	s := mcp.NewServer("who", "v1", nil)
	tool := func(name string) *mcp.ServerTool {
		return &mcp.ServerTool{
			Tool: &mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				if runs != nil {
					runs.Add(1)
				}
				return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(who(ctx))}}, nil
			},
		}
	}
	s.AddTools(tool("greet"), tool("whoami"))
	s.AddPrompts(&mcp.ServerPrompt{
		Prompt: &mcp.Prompt{Name: "secret"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: mcp.NewTextContent(who(ctx))}}}, nil
		},
	})
	s.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: "file:///secret", Name: "secret"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: p.URI, Text: who(ctx)}}}, nil
		},
	})
	return s
}

// protected serves whoServer behind RequireBearerToken with testRules.
func protected(t testing.TB, mod func(*RequireBearerTokenOptions), runs *atomic.Int64) (*httptest.Server, http.Handler) {
	o := &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: testRules}
	if mod != nil {
		mod(o)
	}
	s := whoServer(runs)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	ph := mustProtect(t, testTokens, o)(h)
	ts := httptest.NewServer(ph)
	t.Cleanup(func() { h.Close(); ts.Close() })
	return ts, ph
}

// protectedWith serves whoServer behind RequireBearerToken(v, o) and
// stores its URL in *url.
func protectedWith(t testing.TB, v TokenVerifier, o *RequireBearerTokenOptions, url *string) (string, http.Handler) {
	s := whoServer(nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	ph := mustProtect(t, v, o)(h)
	ts := httptest.NewServer(ph)
	t.Cleanup(func() { h.Close(); ts.Close() })
	*url = ts.URL
	return ts.URL, ph
}

func legacyInit(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, id)
}

func legacyCall(id int, tool string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool)
}

func modernCall(tool string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
}

// post sends body to url with the given headers (name, value pairs).
func post(t testing.TB, url, body string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// challengeOf parses the WWW-Authenticate challenges of resp.
func challengeOf(t testing.TB, h http.Header) map[string]map[string]string {
	t.Helper()
	cs, err := parseChallenges(h.Values("WWW-Authenticate"))
	if err != nil {
		t.Fatalf("WWW-Authenticate %q: %v", h.Values("WWW-Authenticate"), err)
	}
	out := map[string]map[string]string{}
	for _, c := range cs {
		out[c.scheme] = c.params
	}
	return out
}

func TestRequireBearerTokenNoToken(t *testing.T) {
	ts, _ := protected(t, func(o *RequireBearerTokenOptions) { o.Realm = "mcp" }, nil)
	resp, body := post(t, ts.URL, legacyInit(1))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", resp.StatusCode)
	}
	// RFC 6750 section 3.1: no error code, in the challenge or the body.
	if strings.Contains(body, "invalid_token") || strings.Contains(body, `"error"`) {
		t.Errorf("a request without a token got an error code in the body: %q", body)
	}
	c := challengeOf(t, resp.Header)["Bearer"]
	if c == nil || c["resource_metadata"] != prmURL || c["scope"] != "mcp:basic" || c["realm"] != "mcp" {
		t.Errorf("challenge %v", resp.Header.Values("WWW-Authenticate"))
	}
	if _, ok := c["error"]; ok {
		t.Errorf("a request without a token got an error code: %v", c)
	}
	// Another scheme is no token of ours.
	resp, _ = post(t, ts.URL, legacyInit(1), "Authorization", "Basic YTpi")
	if resp.StatusCode != http.StatusUnauthorized || challengeOf(t, resp.Header)["Bearer"]["error"] != "" {
		t.Errorf("Basic: status %d, %v", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	}
}

// TestRequireBearerTokenMalformed covers malformed Authorization headers
// and tokens in the query string: 401 invalid_request.
func TestRequireBearerTokenMalformed(t *testing.T) {
	ts, ph := protected(t, nil, nil)
	tests := []struct {
		name    string
		headers []string
		query   string
	}{
		{"two tokens", []string{"Authorization", "Bearer alice-all bob-all"}, ""},
		{"two headers", []string{"Authorization", "Bearer alice-all", "Authorization", "Bearer alice-all"}, ""},
		{"scheme only", []string{"Authorization", "Bearer"}, ""},
		{"empty token", []string{"Authorization", "Bearer    "}, ""},
		{"bad characters", []string{"Authorization", "Bearer ab\"c"}, ""},
		{"padding inside", []string{"Authorization", "Bearer ab=c"}, ""},
		{"token in query", []string{"Authorization", "Bearer alice-all"}, "?access_token=alice-all"},
		{"query only", nil, "?x=1&access_token=alice-all"},
		{"DPoP not enabled", []string{"Authorization", "DPoP alice-all"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts.URL+tt.query, legacyInit(1), tt.headers...)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401 (%s)", resp.StatusCode, body)
			}
			c := challengeOf(t, resp.Header)["Bearer"]
			if c["error"] != "invalid_request" || c["error_description"] == "" || c["resource_metadata"] != prmURL {
				t.Errorf("challenge %v", resp.Header.Values("WWW-Authenticate"))
			}
			if strings.Contains(body, "alice-all") || strings.Contains(strings.Join(resp.Header.Values("WWW-Authenticate"), ""), "alice-all") {
				t.Error("the token was echoed")
			}
		})
	}
	t.Run("1 MB header through net/http", func(t *testing.T) {
		resp, _ := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer "+strings.Repeat("a", 1<<20))
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge && resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("status %d, want 431 or 401", resp.StatusCode)
		}
	})
	t.Run("1 MB header to the middleware", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(legacyInit(1)))
		req.Header.Set("Authorization", "Bearer "+strings.Repeat("a", 1<<20))
		rec := httptest.NewRecorder()
		ph.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Header().Get("WWW-Authenticate"), "invalid_request") {
			t.Errorf("status %d, %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
		}
	})
	t.Run("control character", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(legacyInit(1)))
		req.Header.Set("Authorization", "Bearer abc\x01def")
		rec := httptest.NewRecorder()
		ph.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Header().Get("WWW-Authenticate"), "invalid_request") {
			t.Errorf("status %d, %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
		}
	})
}

func TestRequireBearerTokenInvalidAndUnavailable(t *testing.T) {
	ts, _ := protected(t, nil, nil)
	resp, body := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer forged")
	c := challengeOf(t, resp.Header)["Bearer"]
	if resp.StatusCode != http.StatusUnauthorized || c["error"] != "invalid_token" || c["error_description"] != "invalid token: unknown token" {
		t.Errorf("invalid token: %d %v %s", resp.StatusCode, c, body)
	}
	resp, body = post(t, ts.URL, legacyInit(1), "Authorization", "Bearer down")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || strings.Contains(body, "dial tcp") {
		t.Errorf("verifier down: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	// A token bound to a key is refused as a bearer token.
	resp, _ = post(t, ts.URL, legacyInit(1), "Authorization", "Bearer bound")
	if resp.StatusCode != http.StatusUnauthorized || challengeOf(t, resp.Header)["Bearer"]["error"] != "invalid_token" {
		t.Errorf("bound token as bearer: %d %v", resp.StatusCode, resp.Header.Values("WWW-Authenticate"))
	}
	// The scheme is case-insensitive.
	resp, _ = post(t, ts.URL, legacyInit(1), "Authorization", "bearer alice-basic")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("lowercase scheme: %d", resp.StatusCode)
	}
}

// connect returns a client session to url with token, in the legacy era
// when legacy is set.
func connect(t testing.TB, url, token string, legacy bool) *mcp.ClientSession {
	t.Helper()
	var co *mcp.ClientOptions
	if legacy {
		co = &mcp.ClientOptions{ProtocolVersion: mcp.Version20251125}
	}
	tr := mcp.NewStreamableClientTransport(url, &mcp.StreamableClientTransportOptions{Header: http.Header{"Authorization": {"Bearer " + token}}})
	cs, err := mcp.NewClient("t", "v1", co).Connect(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestTokenInfoInHandlers checks that tool, prompt and resource handlers
// see the caller's TokenInfo, in both eras, and that per-item scopes are
// enforced through the real client.
func TestTokenInfoInHandlers(t *testing.T) {
	for _, legacy := range []bool{true, false} {
		t.Run(fmt.Sprint("legacy=", legacy), func(t *testing.T) {
			var runs atomic.Int64
			ts, _ := protected(t, nil, &runs)
			ctx := context.Background()
			cs := connect(t, ts.URL, "alice-all", legacy)
			if legacy != (cs.ProtocolVersion() != mcp.Version20260728) {
				t.Fatalf("protocol %s", cs.ProtocolVersion())
			}
			res, err := cs.CallTool(ctx, "whoami", nil, nil)
			if err != nil || res.Content[0].Text != "alice" {
				t.Fatalf("tool: %v %+v", err, res)
			}
			pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "secret"})
			if err != nil || pr.Messages[0].Content.Text != "alice" {
				t.Fatalf("prompt: %v %+v", err, pr)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///secret"})
			if err != nil || rr.Contents[0].Text != "alice" {
				t.Fatalf("resource: %v %+v", err, rr)
			}
			// A token without the tool's scope: greet works, whoami is refused.
			weak := connect(t, ts.URL, "alice-basic", legacy)
			if res, err := weak.CallTool(ctx, "greet", nil, nil); err != nil || res.Content[0].Text != "alice" {
				t.Fatalf("greet: %v", err)
			}
			before := runs.Load()
			if _, err := weak.CallTool(ctx, "whoami", nil, nil); err == nil {
				t.Error("whoami ran without profile:read")
			}
			if _, err := weak.GetPrompt(ctx, &mcp.GetPromptParams{Name: "secret"}); err == nil {
				t.Error("prompt served without prompts:read")
			}
			if _, err := weak.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///secret"}); err == nil {
				t.Error("resource served without files:read")
			}
			if runs.Load() != before {
				t.Error("a refused tool ran")
			}
		})
	}
}

// TestInsufficientScopeChallenge checks the 403 of each era on the wire.
func TestInsufficientScopeChallenge(t *testing.T) {
	var runs atomic.Int64
	ts, _ := protected(t, nil, &runs)
	t.Run("modern headers", func(t *testing.T) {
		resp, body := post(t, ts.URL, modernCall("whoami"), "Authorization", "Bearer alice-basic",
			"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "whoami")
		checkInsufficientScope(t, resp, body, "mcp:basic profile:read")
	})
	t.Run("modern base64 name", func(t *testing.T) {
		resp, body := post(t, ts.URL, modernCall("whoami"), "Authorization", "Bearer alice-basic",
			"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "=?base64?d2hvYW1p?=")
		checkInsufficientScope(t, resp, body, "mcp:basic profile:read")
	})
	t.Run("legacy body", func(t *testing.T) {
		resp, body := post(t, ts.URL, legacyCall(2, "whoami"), "Authorization", "Bearer alice-basic", "Mcp-Session-Id", "whatever")
		checkInsufficientScope(t, resp, body, "mcp:basic profile:read")
	})
	t.Run("legacy batch", func(t *testing.T) {
		batch := "[" + legacyCall(2, "whoami") + `,{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"secret"}}]`
		resp, body := post(t, ts.URL, batch, "Authorization", "Bearer alice-basic", "Mcp-Session-Id", "whatever")
		checkInsufficientScope(t, resp, body, "mcp:basic profile:read prompts:read")
	})
	t.Run("endpoint scope", func(t *testing.T) {
		resp, body := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer no-scope")
		checkInsufficientScope(t, resp, body, "mcp:basic")
	})
	t.Run("modern headers that lie", func(t *testing.T) {
		// The headers name greet, the body whoami: what the body asks for
		// is what the MCP handler checks the scopes of.
		before := runs.Load()
		resp, body := post(t, ts.URL, modernCall("whoami"), "Authorization", "Bearer alice-basic",
			"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "greet")
		checkInsufficientScope(t, resp, body, "mcp:basic profile:read")
		if runs.Load() != before {
			t.Error("whoami ran")
		}
	})
	t.Run("modern headers that lie, scopes granted", func(t *testing.T) {
		// With the scopes, the MCP handler refuses the mismatch.
		before := runs.Load()
		_, body := post(t, ts.URL, modernCall("greet"), "Authorization", "Bearer alice-basic",
			"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "whoami")
		if runs.Load() != before || !strings.Contains(body, "Header mismatch") {
			t.Errorf("lying headers: body %s", body)
		}
	})
	t.Run("lacking the endpoint scope, modern", func(t *testing.T) {
		resp, body := post(t, ts.URL, modernCall("whoami"), "Authorization", "Bearer no-scope",
			"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "whoami")
		checkInsufficientScope(t, resp, body, "mcp:basic profile:read")
	})
	t.Run("resource read with a decoy name", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"name":"x","uri":"file:///secret"}}`
		resp, b := post(t, ts.URL, body, "Authorization", "Bearer alice-basic", "Mcp-Session-Id", "x")
		checkInsufficientScope(t, resp, b, "mcp:basic files:read")
	})
	t.Run("escaped member names", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":2,"\u006dethod":"tools/call","params":{"n\u0061me":"whoami"}}`
		resp, b := post(t, ts.URL, body, "Authorization", "Bearer alice-basic", "Mcp-Session-Id", "x")
		checkInsufficientScope(t, resp, b, "mcp:basic profile:read")
	})
	t.Run("legacy body that is not JSON", func(t *testing.T) {
		resp, _ := post(t, ts.URL, `{"method":"tools/call",`, "Authorization", "Bearer alice-basic", "Mcp-Session-Id", "x")
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("status %d, want 400", resp.StatusCode)
		}
	})
	t.Run("legacy duplicate name", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","name":"whoami"}}`
		resp, _ := post(t, ts.URL, body, "Authorization", "Bearer alice-basic", "Mcp-Session-Id", "x")
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("status %d, want 400", resp.StatusCode)
		}
	})
}

// checkInsufficientScope checks that resp is a 403 whose Bearer challenge
// is insufficient_scope asking for the scopes want.
func checkInsufficientScope(t *testing.T, resp *http.Response, body, want string) {
	t.Helper()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d, want 403 (%s)", resp.StatusCode, body)
	}
	c := challengeOf(t, resp.Header)["Bearer"]
	if c["error"] != "insufficient_scope" || c["scope"] != want || c["resource_metadata"] != prmURL {
		t.Errorf("challenge %v", resp.Header.Values("WWW-Authenticate"))
	}
}

func TestScopeImplies(t *testing.T) {
	ts, _ := protected(t, func(o *RequireBearerTokenOptions) {
		o.Scopes.Endpoint = []string{"files:read"}
		o.ScopeImplies = func(granted, required string) bool { return strings.HasPrefix(required, granted+":") }
	}, nil)
	resp, _ := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer no-scope")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("no scope: %d", resp.StatusCode)
	}
	if missingScopes([]string{"files"}, []string{"files:read"}, func(g, r string) bool { return strings.HasPrefix(r, g+":") }) {
		t.Error("files does not imply files:read")
	}
	if !missingScopes([]string{"files:read"}, []string{"files"}, func(g, r string) bool { return strings.HasPrefix(r, g+":") }) {
		t.Error("files:read implies files")
	}
}

// TestSessionBoundToPrincipal: a legacy session id is refused with
// another subject's token, as if it did not exist.
func TestSessionBoundToPrincipal(t *testing.T) {
	var runs atomic.Int64
	ts, _ := protected(t, nil, &runs)
	resp, _ := post(t, ts.URL, legacyInit(1), "Authorization", "Bearer alice-all")
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
	}
	pv := []string{"MCP-Protocol-Version", "2025-11-25", "Mcp-Session-Id", sid}
	resp, _ = post(t, ts.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, append([]string{"Authorization", "Bearer alice-all"}, pv...)...)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d", resp.StatusCode)
	}
	resp, body := post(t, ts.URL, legacyCall(2, "whoami"), append([]string{"Authorization", "Bearer bob-all"}, pv...)...)
	if resp.StatusCode != http.StatusNotFound || runs.Load() != 0 {
		t.Fatalf("bob on alice's session: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, ts.URL, legacyCall(3, "whoami"), append([]string{"Authorization", "Bearer alice-all"}, pv...)...)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "alice") {
		t.Fatalf("alice on her session: %d %s", resp.StatusCode, body)
	}
	resp, _ = post(t, ts.URL, legacyCall(4, "whoami"), "Authorization", "Bearer alice-all", "MCP-Protocol-Version", "2025-11-25", "Mcp-Session-Id", "made-up")
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session: %d", resp.StatusCode)
	}
	del := func(token string) int {
		req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := del("bob-all"); code != http.StatusNotFound {
		t.Errorf("bob deleting alice's session: %d", code)
	}
	if code := del("alice-all"); code >= 300 {
		t.Errorf("alice deleting her session: %d", code)
	}
	if code := del("alice-all"); code != http.StatusNotFound {
		t.Errorf("deleted session: %d", code)
	}
}

// TestSSESessionBoundToPrincipal: an HTTP+SSE (2024-11-05) session is
// bound to the principal whose token opened its stream.
func TestSSESessionBoundToPrincipal(t *testing.T) {
	s := whoServer(nil)
	h := mcp.NewSSEHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	ts := httptest.NewServer(mustProtect(t, testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: testRules})(h))
	defer ts.Close()
	defer h.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer alice-all")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	var got string
	for !strings.Contains(got, "\n\n") {
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("reading the stream: %v (%q)", err, got)
		}
		got += string(buf[:n])
	}
	endpoint := ""
	for _, line := range strings.Split(got, "\n") {
		if v, ok := strings.CutPrefix(line, "data: "); ok {
			endpoint = v
		}
	}
	if !strings.Contains(endpoint, "sessionId=") {
		t.Fatalf("endpoint event %q", got)
	}
	r, _ := post(t, ts.URL+endpoint, legacyInit(1), "Authorization", "Bearer bob-all")
	if r.StatusCode != http.StatusNotFound {
		t.Errorf("bob on alice's SSE session: %d", r.StatusCode)
	}
	r, _ = post(t, ts.URL+endpoint, legacyInit(1), "Authorization", "Bearer alice-all")
	if r.StatusCode != http.StatusAccepted {
		t.Errorf("alice on her SSE session: %d", r.StatusCode)
	}
	r, _ = post(t, ts.URL+"/?sessionId=made-up", legacyInit(1), "Authorization", "Bearer alice-all")
	if r.StatusCode != http.StatusNotFound {
		t.Errorf("unknown SSE session: %d", r.StatusCode)
	}
}

// mustProtect is RequireBearerToken for a configuration the test expects
// to be valid.
func mustProtect(tb testing.TB, v TokenVerifier, o *RequireBearerTokenOptions) func(http.Handler) http.Handler {
	tb.Helper()
	protect, err := RequireBearerToken(v, o)
	if err != nil {
		tb.Fatalf("RequireBearerToken: %v", err)
	}
	return protect
}
