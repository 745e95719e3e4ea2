package mcp

import (
	"context"
	"errors"
	"testing"
	"time"
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

// slowCancelTransport delays the client's notifications/cancelled by
// delay, as a busy peer's slow POST would.
type slowCancelTransport struct {
	Transport
	delay time.Duration
}

func (t slowCancelTransport) Connect(ctx context.Context) (Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return slowCancelConn{c, t.delay}, nil
}

type slowCancelConn struct {
	Connection
	delay time.Duration
}

func (c slowCancelConn) Write(ctx context.Context, msg JSONRPCMessage) error {
	if r, ok := msg.(*JSONRPCRequest); ok && r.Method == NotificationCancelled {
		select {
		case <-time.After(c.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return c.Connection.Write(ctx, msg)
}

// A cancelled call returns at once, and its notifications/cancelled still
// reaches a peer that takes a while to take it (here 2 s, longer than the
// 1 s the notification used to be given, in the call's own return path).
func TestCancelledCallReturnsAtOnce(t *testing.T) {
	started := make(chan struct{}, 1)
	cancelled := make(chan error, 1)
	server := NewServer("s", "v1", nil)
	server.AddTools(slowTool(started, cancelled))
	ct, st := NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125}).Connect(context.Background(), slowCancelTransport{ct, 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, "slow", nil, &CallToolOptions{ProgressHandler: func(context.Context, *ProgressNotificationParams) {}})
		errc <- err
	}()
	<-started
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call returned %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("the cancelled call waited for its notifications/cancelled to be sent")
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("handler context: %v", err)
		}
	case <-time.After(cancelledNotificationTimeout + time.Second):
		t.Fatal("the server never saw notifications/cancelled")
	}
}
