package mcp

import (
	"context"
	"errors"
	"testing"
)

type echoExtParams struct {
	Meta Meta   `json:"_meta,omitzero"`
	Text string `json:"text"`
}

type echoExtResult struct {
	Meta       Meta   `json:"_meta,omitzero"`
	ResultType string `json:"resultType,omitempty"`
	Text       string `json:"text"`
	Version    string `json:"version"`
}

type plainResult struct {
	Text string `json:"text"`
}

func TestAddedMethodsCallAndNotify(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		notified := make(chan string, 1)
		server.AddMethods(
			NewServerMethod("vendor/echo", func(ctx context.Context, ss *ServerSession, p *echoExtParams) (*echoExtResult, error) {
				if p.Text == "needs-ext" {
					return nil, MissingExtensionError("vendor/ext")
				}
				return &echoExtResult{Text: p.Text, Version: ss.ProtocolVersion()}, nil
			}, nil),
			NewServerNotification("vendor/ping", func(ctx context.Context, ss *ServerSession, p *echoExtParams) {
				notified <- p.Text
			}, nil),
			NewServerMethod("vendor/plain", func(ctx context.Context, ss *ServerSession, p *echoExtParams) (*plainResult, error) {
				return &plainResult{Text: p.Text}, nil
			}, nil),
			NewServerMethod("vendor/modern-only", func(ctx context.Context, ss *ServerSession, p *echoExtParams) (*echoExtResult, error) {
				return &echoExtResult{}, nil
			}, &MethodOptions{Since: Version20260728}),
			NewServerMethod("vendor/validated", func(ctx context.Context, ss *ServerSession, p *echoExtParams) (*echoExtResult, error) {
				return &echoExtResult{Text: p.Text}, nil
			}, &MethodOptions{Validate: func(params any) error {
				if params.(*echoExtParams).Text == "" {
					return errors.New("text is required")
				}
				return nil
			}}),
		)
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		ctx := context.Background()
		in := &echoExtParams{Text: "hi"}
		var out echoExtResult
		if err := cs.Call(ctx, "vendor/echo", in, &out); err != nil {
			t.Fatal(err)
		}
		if out.Text != "hi" || out.Version != version {
			t.Errorf("result %+v", out)
		}
		if in.Meta.ProtocolVersion != "" {
			t.Error("Call changed the caller's params")
		}
		// A result type without a ResultType field still says
		// "resultType":"complete" in 2026-07-28.
		var plain echoExtResult
		if err := cs.Call(ctx, "vendor/plain", &echoExtParams{Text: "p"}, &plain); err != nil || plain.Text != "p" {
			t.Fatalf("vendor/plain: %v %+v", err, plain)
		}
		if want := map[bool]string{true: "complete"}[isModernVersion(version)]; plain.ResultType != want {
			t.Errorf("vendor/plain resultType %q, want %q", plain.ResultType, want)
		}
		err := cs.Call(ctx, "vendor/echo", &echoExtParams{Text: "needs-ext"}, nil)
		var werr *JSONRPCError
		if !errors.As(err, &werr) || werr.Code != CodeMissingRequiredClientCapability || CodeOf(err) != CodeMissingRequiredClientCapability {
			t.Errorf("missing extension: %v", err)
		}
		err = cs.Call(ctx, "vendor/modern-only", nil, nil)
		if modern := isModernVersion(version); (err == nil) != modern {
			t.Errorf("method since 2026-07-28 at %s: %v", version, err)
		}
		if err := cs.Call(ctx, "vendor/validated", &echoExtParams{}, nil); CodeOf(err) != CodeInvalidParams {
			t.Errorf("params failing Validate: %v, want -32602", err)
		}
		if err := cs.Notify(ctx, "vendor/ping", &echoExtParams{Text: "note"}); err != nil {
			t.Fatal(err)
		}
		if got := <-notified; got != "note" {
			t.Errorf("notification carried %q", got)
		}
	})
}

func TestAddMethodsRefusesProtocolMethods(t *testing.T) {
	defer func() {
		if v := recover(); v == nil || !errors.Is(v.(error), ErrMethodDefined) {
			t.Errorf("AddMethods(tools/call): panic %v", v)
		}
	}()
	NewServer("s", "v1", nil).AddMethods(NewServerMethod(MethodCallTool, func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
		return nil, nil
	}, nil))
}
