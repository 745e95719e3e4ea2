package mcp

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

type countInput struct {
	N int `json:"n"`
}

// countTool is a typed tool that reports one progress notification per
// step and answers with what it read from its request's _meta.
func countTool() *ServerTool {
	return NewTool("count", "counts to n", func(ctx context.Context, ss *ServerSession, in countInput) ([]*Content, error) {
		req, ok := ToolRequestFromContext(ctx)
		if !ok {
			return nil, fmt.Errorf("no tool request in the handler's context")
		}
		if req.Session != ss || req.Params.Name != "count" {
			return nil, fmt.Errorf("request of session %p for %q, want %p and count", req.Session, req.Params.Name, ss)
		}
		for i := range in.N {
			if err := req.ReportProgress(ctx, float64(i+1), float64(in.N), fmt.Sprintf("%d/%d", i+1, in.N)); err != nil {
				return nil, err
			}
		}
		text := fmt.Sprintf("trace=%v token=%t", req.Params.Meta.Data["example.com/trace"], req.ProgressToken() != nil)
		return []*Content{NewTextContent(text)}, nil
	})
}

// A typed tool reads its request's _meta and progress token through
// ToolRequestFromContext, and the progress it reports reaches the client's
// handler for the call, in every era.
func TestTypedToolReportsProgress(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddTools(countTool())
		var (
			mu    sync.Mutex
			stray []*ProgressNotificationParams
		)
		cs, _ := connect(t, server, &ClientOptions{
			ProtocolVersion: version,
			ProgressNotificationHandler: func(_ context.Context, _ *ClientSession, p *ProgressNotificationParams) {
				mu.Lock()
				defer mu.Unlock()
				stray = append(stray, p)
			},
		})
		var got []string
		res, err := cs.CallTool(context.Background(), "count", countInput{N: 3}, &CallToolOptions{
			Meta: Meta{Data: map[string]any{"example.com/trace": "abc"}},
			ProgressHandler: func(_ context.Context, p *ProgressNotificationParams) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, fmt.Sprintf("%v/%v %s", p.Progress, p.Total, p.Message))
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].Text; text != "trace=abc token=true" {
			t.Errorf("with progress: tool saw %q, want trace=abc token=true", text)
		}
		mu.Lock()
		want := []string{"1/3 1/3", "2/3 2/3", "3/3 3/3"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("progress = %q, want %q", got, want)
		}
		mu.Unlock()

		// Without a progress handler the client sends no token, and
		// ReportProgress sends nothing.
		res, err = cs.CallTool(context.Background(), "count", countInput{N: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].Text; text != "trace=<nil> token=false" {
			t.Errorf("without progress: tool saw %q", text)
		}
		if err := cs.Ping(context.Background(), nil); err != nil { // after any notification sent before it
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(stray) != 0 {
			t.Errorf("progress notifications without a token: %+v", stray)
		}
	})
}

// Outside a tool's handler there is no request, and reporting progress
// through a missing one is a no-op, so helpers may call it unconditionally.
func TestToolRequestOutsideHandler(t *testing.T) {
	req, ok := ToolRequestFromContext(context.Background())
	if ok || req != nil {
		t.Fatalf("ToolRequestFromContext(Background) = %v, %t", req, ok)
	}
	if err := req.ReportProgress(context.Background(), 1, 2, "x"); err != nil {
		t.Errorf("ReportProgress on a nil request = %v", err)
	}
	if tok := req.ProgressToken(); tok != nil {
		t.Errorf("ProgressToken of a nil request = %v", tok)
	}
}
