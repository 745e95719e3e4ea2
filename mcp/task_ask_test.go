package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
)

// askAllTool asks for a name first, then for two more at once with AskAll.
func askAllTool(runs *atomic.Int64) *ServerTool {
	return &ServerTool{
		Tool: &Tool{Name: "three", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(ctx context.Context, ss *ServerSession, _ *CallToolParams) (*CallToolResult, error) {
			runs.Add(1)
			first, err := ss.Elicit(ctx, nameForm("One?"))
			if err != nil {
				return nil, err
			}
			var second, third *ElicitResult
			err = ss.AskAll(ctx,
				func(ctx context.Context) (err error) { second, err = ss.Elicit(ctx, nameForm("Two?")); return err },
				func(ctx context.Context) (err error) { third, err = ss.Elicit(ctx, nameForm("Three?")); return err },
			)
			if err != nil {
				return nil, err
			}
			return &CallToolResult{Content: []*Content{NewTextContent(fmt.Sprint(first.Content["name"], second.Content["name"], third.Content["name"]))}}, nil
		},
	}
}

func TestAskAllInBothEras(t *testing.T) {
	tests := []struct {
		version  string
		wantRuns int64 // handler runs: input-required rounds + 1 in 2026-07-28
	}{
		{Version20251125, 1},
		{Version20260728, 3},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			var runs atomic.Int64
			s := NewServer("s", "v1", nil)
			s.AddTools(askAllTool(&runs))
			cs := connectTasks(t, s, taskClientOptions(tt.version, nil))
			res, err := cs.CallTool(context.Background(), "three", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text; got != "OneTwoThree" {
				t.Fatalf("result %q", got)
			}
			if n := runs.Load(); n != tt.wantRuns {
				t.Fatalf("%d handler runs, want %d", n, tt.wantRuns)
			}
		})
	}
}

func TestAskAllInputRequiredKeys(t *testing.T) {
	var runs atomic.Int64
	s := NewServer("s", "v1", nil)
	s.AddTools(askAllTool(&runs))
	caps := &ClientCapabilities{Elicitation: &ElicitationCapability{}}
	answer := map[string]any{"action": "accept", "content": map[string]any{"name": "x"}}
	round1 := mustWire(t, s, caps, MethodCallTool, map[string]any{"name": "three"})
	if keys := sortedKeys(round1["inputRequests"].(map[string]any)); !reflect.DeepEqual(keys, []string{"input-1"}) {
		t.Fatalf("round 1 keys %v", keys)
	}
	round2 := mustWire(t, s, caps, MethodCallTool, map[string]any{"name": "three", "inputResponses": map[string]any{"input-1": answer}, "requestState": round1["requestState"]})
	if keys := sortedKeys(round2["inputRequests"].(map[string]any)); !reflect.DeepEqual(keys, []string{"input-2", "input-3"}) {
		t.Fatalf("round 2 keys %v: both asks of AskAll come back together, numbered in order", keys)
	}
	msgs := round2["inputRequests"].(map[string]any)
	if msgs["input-2"].(map[string]any)["params"].(map[string]any)["message"] != "Two?" || msgs["input-3"].(map[string]any)["params"].(map[string]any)["message"] != "Three?" {
		t.Fatalf("round 2 requests %v", msgs)
	}
	done := mustWire(t, s, caps, MethodCallTool, map[string]any{"name": "three", "inputResponses": map[string]any{"input-2": answer, "input-3": answer}, "requestState": round2["requestState"]})
	if done["resultType"] != "complete" || done["content"].([]any)[0].(map[string]any)["text"] != "xxx" {
		t.Fatalf("round 3 %v", done)
	}
}

func TestAskAllErrors(t *testing.T) {
	ss := &ServerSession{} // no connection: asks are plain functions here
	errA, errB := errors.New("a"), errors.New("b")
	tests := []struct {
		name string
		asks []func(context.Context) error
		want error
	}{
		{"none", nil, nil},
		{"all succeed", []func(context.Context) error{func(context.Context) error { return nil }, func(context.Context) error { return nil }}, nil},
		{"first error in order", []func(context.Context) error{func(context.Context) error { return nil }, func(context.Context) error { return errB }, func(context.Context) error { return errA }}, errB},
		{"input required wins", []func(context.Context) error{func(context.Context) error { return errA }, func(context.Context) error { return errInputRequired }}, errInputRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ss.AskAll(context.Background(), tt.asks...); err != tt.want {
				t.Fatalf("AskAll: %v, want %v", err, tt.want)
			}
		})
	}
	defer func() {
		if v := recover(); v != "boom" {
			t.Fatalf("recovered %v, want the ask's panic", v)
		}
	}()
	_ = ss.AskAll(context.Background(), func(context.Context) error { panic("boom") }) // panics: the deferred recover checks it
	t.Fatal("AskAll did not panic")
}
