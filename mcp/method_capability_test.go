package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// capabilityTestRequests are the requests, with minimal params, of the
// server rows that name a capability, in each revision they exist in.
// TestCapabilityTableCovered checks that no such row is left out.
var capabilityTestRequests = map[string]string{
	MethodListTools:             `{}`,
	MethodCallTool:              `{"name":"echo","arguments":{}}`,
	MethodListPrompts:           `{}`,
	MethodGetPrompt:             `{"name":"scaffold","arguments":{"language":"go"}}`,
	MethodListResources:         `{}`,
	MethodListResourceTemplates: `{}`,
	MethodReadResource:          `{"uri":"repo://readme"}`,
	MethodSubscribe:             `{"uri":"repo://readme"}`,
	MethodUnsubscribe:           `{"uri":"repo://readme"}`,
	MethodComplete:              `{"ref":{"type":"ref/prompt","name":"scaffold"},"argument":{"name":"language","value":"py"}}`,
	MethodSetLoggingLevel:       `{"level":"info"}`,
	MethodGetTask:               `{"taskId":"none"}`,
	MethodCancelTask:            `{"taskId":"none"}`,
	MethodGetTaskPayload:        `{"taskId":"none"}`,
	MethodListTasks:             `{}`,
	MethodUpdateTask:            `{"taskId":"none","inputResponses":{}}`,
}

// capabilityServers returns a server that declares no capability but
// logging (every server sends log messages) and one that declares every
// capability of the table, as a program gets them: by adding tools,
// prompts, resources, completers, subscription handlers and a tool that
// supports tasks (which turns the tasks extension on).
func capabilityServers() (bare, full *Server) {
	bare = NewServer("bare", "v1", nil)
	full = NewServer("full", "v1", &ServerOptions{
		SubscribeHandler:   func(context.Context, *ServerSession, *SubscribeParams) error { return nil },
		UnsubscribeHandler: func(context.Context, *ServerSession, *UnsubscribeParams) error { return nil },
	})
	full.AddTools(echoTool())
	full.AddTools(NewTool("slow", "runs as a task", func(context.Context, *ServerSession, struct{}) ([]*Content, error) {
		return []*Content{NewTextContent("done")}, nil
	}, TaskSupport(TaskSupportOptional)))
	full.AddPrompts(languagePrompt())
	full.AddResources(&ServerResource{Resource: &Resource{URI: "repo://readme", Name: "readme"},
		Handler: func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
			return &ReadResourceResult{Contents: []*ResourceContents{NewTextResourceContents("repo://readme", "text/plain", "hi")}}, nil
		}})
	return bare, full
}

// Every row that names a capability is served only while the server
// declares it: a server without it answers -32601 (method not found), as
// the specification's MethodNotFoundError says for prompts/list on a
// server without prompts; a server with it serves the method (its answer
// may still be another error, such as an unknown task).
func TestServerEnforcesRowCapability(t *testing.T) {
	for _, era := range []string{Version20251125, Version20260728} {
		t.Run(era, func(t *testing.T) {
			bare, full := capabilityServers()
			methods := capabilityMethods(full, era)
			for _, tc := range []struct {
				name     string
				server   *Server
				declared bool
			}{{"without", bare, false}, {"with", full, true}} {
				rc := newPipeClient(t, tc.server)
				meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
				if era == Version20251125 {
					rc.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
					rc.responses(1)
					meta = `"_meta":{}`
				}
				for i, method := range methods {
					if method == MethodSetLoggingLevel {
						continue // every server declares logging
					}
					params := strings.Replace(capabilityTestRequests[method], "{", "{"+meta+",", 1)
					params = strings.Replace(params, ",}", "}", 1)
					id := strconv.Itoa(i + 1)
					rc.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
					resp := rc.responses(1)[id]
					notFound := resp.Error != nil && resp.Error.Code == CodeMethodNotFound
					if notFound == tc.declared {
						t.Errorf("%s %s the capability: %s answered %+v", era, tc.name, method, resp)
					}
				}
			}
		})
	}
}

// capabilityMethods returns the methods whose rows name a capability and
// exist in revision era, on server s.
func capabilityMethods(s *Server, era string) []string {
	var out []string
	for name := range capabilityTestRequests {
		m := s.lookup(name)
		if m != nil && m.existsIn(era) && m.at(era).capability != "" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// The table above covers every row of serverMethods that names a
// capability, and the tasks extension's methods.
func TestCapabilityTableCovered(t *testing.T) {
	for name, m := range serverMethods {
		if _, ok := capabilityTestRequests[name]; m.capability != "" && !ok {
			t.Errorf("row %s names capability %q but capabilityTestRequests has no request for it", name, m.capability)
		}
	}
	for _, m := range taskExtensionMethods {
		if _, ok := capabilityTestRequests[m.Name()]; !ok {
			t.Errorf("tasks extension method %s has no request in capabilityTestRequests", m.Name())
		}
	}
	for name, m := range serverMethods {
		if m.capability == "" {
			continue
		}
		if !knownCapability(m.capability) {
			t.Errorf("row %s names unknown capability %q", name, m.capability)
		}
	}
}

// knownCapability reports whether Server.declares knows capability.
func knownCapability(capability string) bool {
	switch capability {
	case "tools", "prompts", "resources", "resources.subscribe", "completions", "logging", "tasks", "tasks.list", "tasks.cancel":
		return true
	}
	return strings.HasPrefix(capability, "extensions.")
}

// A client serves the server's requests only for the capabilities it
// declares; others get -32601. The requests go straight to the client's
// dispatch step: a server of this SDK does not send them to a client that
// did not declare the capability.
func TestClientEnforcesRowCapability(t *testing.T) {
	server := NewServer("s", "v1", nil)
	ctx := context.Background()
	handlers := &ClientOptions{
		// A client declares roots when it has some (AddRoots) or says so.
		Capabilities: &ClientCapabilities{Roots: &RootsCapability{}},
		CreateMessageHandler: func(context.Context, *ClientSession, *CreateMessageParams) (*CreateMessageResult, error) {
			return &CreateMessageResult{Role: RoleAssistant, Content: []*Content{NewTextContent("hi")}, Model: "m"}, nil
		},
		ElicitationHandler: func(context.Context, *ClientSession, *ElicitParams) (*ElicitResult, error) {
			return &ElicitResult{Action: "decline"}, nil
		},
	}
	requests := []struct {
		method, capability, params string
	}{
		{MethodCreateMessage, "sampling", `{"messages":[{"role":"user","content":{"type":"text","text":"q"}}],"maxTokens":10}`},
		{MethodElicit, "elicitation", `{"message":"name?","requestedSchema":{"type":"object","properties":{}}}`},
		{MethodListRoots, "roots", `{}`},
	}
	for _, era := range []string{Version20251125, Version20260728} {
		for _, tc := range []struct {
			name     string
			opts     ClientOptions
			declared bool
		}{{"without handlers", ClientOptions{}, false}, {"with handlers", *handlers, true}} {
			tc.opts.ProtocolVersion = era
			cs, _ := connect(t, server, &tc.opts)
			for i, r := range requests {
				req, err := jsonrpc2.NewCall(jsonrpc2.Int64ID(int64(i+1)), r.method, json.RawMessage(r.params))
				if err != nil {
					t.Fatal(err)
				}
				_, err = cs.handle(ctx, req)
				var rpcErr *JSONRPCError
				notFound := errors.As(err, &rpcErr) && rpcErr.Code == CodeMethodNotFound
				want := !tc.declared
				if notFound != want {
					t.Errorf("%s, %s, %s: %v; want method not found: %v", era, tc.name, r.method, err, want)
				}
				if want && notFound && !strings.Contains(rpcErr.Message, r.capability+" capability") {
					t.Errorf("%s, %s, %s: message %q does not name the capability", era, tc.name, r.method, rpcErr.Message)
				}
			}
		}
	}
}
