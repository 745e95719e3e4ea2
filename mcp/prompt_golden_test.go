package mcp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Wire tests for prompts, completion and logging: the official 2026-07-28
// examples (testdata/types/2026-07-28, copied from the spec's schema
// examples) are sent to our server byte for byte, and what it writes back
// is compared with the matching example, member by member. The few
// normalizations a test applies are the places where the example shows one
// of several valid answers; each is commented.

const wireExamples = "testdata/types/2026-07-28"

// wireExample returns an example file decoded as a generic JSON value, and
// its raw bytes.
func wireExample(t *testing.T, name string) (any, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(wireExamples, name))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := strictjson.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v, raw
}

// wirePromptServer returns a server with the prompt of the examples, and a raw
// connection to it.
func wirePromptServer(t *testing.T) (*Server, Connection) {
	t.Helper()
	server := NewServer("s", "v1", &ServerOptions{PageSize: 1})
	review := NewPrompt("code_review", "Asks the LLM to analyze code quality and suggest improvements",
		func(ctx context.Context, ss *ServerSession, in struct {
			Code string `json:"code"`
		}) (*GetPromptResult, error) {
			return &GetPromptResult{
				Description: "Code review prompt",
				Messages:    []*PromptMessage{{Role: RoleUser, Content: NewTextContent("Please review this Python code:\n" + in.Code)}},
			}, nil
		},
		PromptTitle("Request Code Review"),
		PromptIcons(Icon{Src: "https://example.com/review-icon.svg", MIMEType: "image/svg+xml", Sizes: []string{"any"}}),
		Argument("code", describe("The code to review")))
	review.Completers = map[string]Completer{"code": prefixCompleter("def", "class")}
	scaffold := languagePrompt()
	scaffold.Prompt.Name = "code_review_2" // sorts after code_review: a second page
	logs := NewPrompt("log_example", "", func(ctx context.Context, ss *ServerSession, _ map[string]string) (*GetPromptResult, error) {
		err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: LoggingLevelError, Logger: "database", Data: map[string]any{
			"error": "Connection failed", "details": map[string]any{"host": "localhost", "port": 5432},
		}})
		return &GetPromptResult{}, err
	})
	server.AddPrompts(review, scaffold, logs)
	ct, st := NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); ss.Wait() })
	return server, conn
}

// exchange writes the request raw and returns the next n messages the
// server writes, as generic JSON values.
func wireExchange(t *testing.T, conn Connection, request []byte, n int) []any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	msg, err := DecodeMessage(request)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Write(ctx, msg); err != nil {
		t.Fatal(err)
	}
	var out []any
	for len(out) < n {
		reply, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if req, ok := reply.(*JSONRPCRequest); ok && strings.HasSuffix(req.Method, "/list_changed") {
			// The server coalesces list changes and may announce the
			// prompts registered before the session started.
			continue
		}
		raw, err := EncodeMessage(reply)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := strictjson.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// member returns the object member at a dotted path of v.
func wireMember(t *testing.T, v any, path string) map[string]any {
	t.Helper()
	for _, k := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("no object at %q in %s", path, jsonString(v))
		}
		v = obj[k]
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("no object at %q in %s", path, jsonString(v))
	}
	return obj
}

func wireSame(t *testing.T, what string, got, want any) {
	t.Helper()
	dropResponseServerInfo(got) // the examples omit the server's identity
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %s\nwant %s", what, jsonString(got), jsonString(want))
	}
}

// wireWithID returns a copy of the request with its id replaced.
func wireWithID(t *testing.T, request []byte, id string) []byte {
	t.Helper()
	var v map[string]any
	if err := strictjson.Unmarshal(request, &v); err != nil {
		t.Fatal(err)
	}
	v["id"] = id
	raw, err := strictjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestWireListPrompts(t *testing.T) {
	_, conn := wirePromptServer(t)
	_, request := wireExample(t, "ListPromptsRequest/list-prompts-request.json")
	want, _ := wireExample(t, "ListPromptsResultResponse/list-prompts-result-response.json")
	got := wireExchange(t, conn, request, 1)[0]
	result := wireMember(t, got, "result")
	// The cursor is opaque: ours encodes the last key of the page, the
	// example shows a placeholder. It must be there, as the server has a
	// second page.
	if c, ok := result["nextCursor"].(string); !ok || c == "" {
		t.Fatalf("no nextCursor in %s", jsonString(result))
	}
	result["nextCursor"] = "next-page-cursor"
	// Cache hints are required; the example shows a 10-minute public
	// cache, our server's default is "stale at once, private".
	if _, ok := result["ttlMs"].(float64); !ok {
		t.Errorf("ttlMs missing or not a number in %s", jsonString(result))
	}
	if s := result["cacheScope"]; s != CacheScopePublic && s != CacheScopePrivate {
		t.Errorf("cacheScope %v", s)
	}
	result["ttlMs"], result["cacheScope"] = float64(600000), CacheScopePublic
	wireSame(t, "prompts/list response", got, want)
}

func TestWireGetPrompt(t *testing.T) {
	_, conn := wirePromptServer(t)
	_, request := wireExample(t, "GetPromptRequest/get-prompt-request.json")
	want, _ := wireExample(t, "GetPromptResultResponse/get-prompt-result-response.json")
	wireSame(t, "prompts/get response", wireExchange(t, conn, request, 1)[0], want)

	// The same request for a prompt the server does not have.
	var req map[string]any
	if err := strictjson.Unmarshal(request, &req); err != nil {
		t.Fatal(err)
	}
	wireMember(t, req, "params")["name"] = "invalid_prompt_name"
	raw, _ := strictjson.Marshal(req)
	wantErr, _ := wireExample(t, "InvalidParamsError/unknown-prompt.json")
	got := wireExchange(t, conn, raw, 1)[0]
	wireSame(t, "unknown prompt error", got.(map[string]any)["error"], wantErr)
}

func TestWireComplete(t *testing.T) {
	_, conn := wirePromptServer(t)
	// The spec's CompleteRequest example completes "language", but its
	// CompleteResultResponse answers the framework completion of the
	// request-params example with context; pair the two that match.
	params, _ := wireExample(t, "CompleteRequestParams/prompt-argument-completion-with-context.json")
	wireMember(t, params, "ref")["name"] = "code_review_2" // our prompt with these completers
	request, err := strictjson.Marshal(map[string]any{"jsonrpc": "2.0", "id": "completion-example", "method": MethodComplete, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := wireExample(t, "CompleteResultResponse/completion-result-response.json")
	// "hasMore": false is optional; our encoding omits a false hasMore.
	delete(wireMember(t, want, "result.completion"), "hasMore")
	wireSame(t, "completion/complete response", wireExchange(t, conn, request, 1)[0], want)
}

func TestWireLoggingMessage(t *testing.T) {
	_, conn := wirePromptServer(t)
	_, example := wireExample(t, "GetPromptRequest/get-prompt-request.json")
	var req map[string]any
	if err := strictjson.Unmarshal(example, &req); err != nil {
		t.Fatal(err)
	}
	p := wireMember(t, req, "params")
	p["name"] = "log_example"
	delete(p, "arguments")
	wireMember(t, p, "_meta")[MetaKeyLogLevel] = "warning"
	raw, _ := strictjson.Marshal(req)
	want, _ := wireExample(t, "LoggingMessageNotification/log-database-connection-failed.json")
	got := wireExchange(t, conn, raw, 2)
	wireSame(t, "notification before the response", got[0], want)
	wireSame(t, "response after the notification", got[1], map[string]any{
		"jsonrpc": "2.0", "id": "get-prompt-example", "result": map[string]any{"resultType": "complete", "messages": []any{}},
	})

	// Without a log level in _meta, the same request logs nothing.
	delete(wireMember(t, p, "_meta"), MetaKeyLogLevel)
	raw, _ = strictjson.Marshal(req)
	got = wireExchange(t, conn, wireWithID(t, raw, "quiet"), 1)
	if got[0].(map[string]any)["id"] != "quiet" {
		t.Fatalf("got %s, want only the response", jsonString(got[0]))
	}
}

// TestWireLegacyLogging runs logging/setLevel and a log message through a
// 2025-11-25 session, whose messages have the same shape.
func TestWireLegacyLogging(t *testing.T) {
	server, conn := wirePromptServer(t)
	_ = server
	steps := []struct {
		request string
		want    string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "-"},
		{`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"error"}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid log level \"loud\": want debug, info, notice, warning, error, critical, alert or emergency"}}`},
	}
	for _, st := range steps {
		switch st.want {
		case "-":
			msg, err := DecodeMessage([]byte(st.request))
			if err != nil {
				t.Fatal(err)
			}
			if err := conn.Write(context.Background(), msg); err != nil {
				t.Fatal(err)
			}
		case "":
			wireExchange(t, conn, []byte(st.request), 1)
		default:
			var want any
			if err := strictjson.Unmarshal([]byte(st.want), &want); err != nil {
				t.Fatal(err)
			}
			wireSame(t, st.request, wireExchange(t, conn, []byte(st.request), 1)[0], want)
		}
	}
	want, _ := wireExample(t, "LoggingMessageNotification/log-database-connection-failed.json")
	got := wireExchange(t, conn, []byte(`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"log_example"}}`), 2)
	wireSame(t, "legacy log message", got[0], want)
	wireSame(t, "legacy prompts/get response", got[1], map[string]any{"jsonrpc": "2.0", "id": float64(4), "result": map[string]any{"messages": []any{}}})
}
