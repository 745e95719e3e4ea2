package mcp

import (
	"context"
	"runtime"
	"testing"
)

// helloTool answers every call with the same small text, so benchmarks
// measure the SDK rather than the handler.
func helloTool() *ServerTool {
	return &ServerTool{
		Tool: &Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		Handler: func(context.Context, *ServerSession, *CallToolParams) (*CallToolResult, error) {
			return &CallToolResult{Content: []*Content{NewTextContent("hello")}}, nil
		},
	}
}

// BenchmarkInMemoryCallTool measures one tools/call round trip with a small
// text result over the in-memory transport, client and server together.
func BenchmarkInMemoryCallTool(b *testing.B) {
	for _, version := range []string{Version20260728, Version20251125} {
		b.Run(version, func(b *testing.B) {
			server := NewServer("s", "v1", nil)
			server.AddTools(helloTool())
			cs, _ := connect(b, server, &ClientOptions{ProtocolVersion: version})
			ctx := context.Background()
			args := map[string]any{"text": "hello"}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := cs.CallTool(ctx, "echo", args, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIdleSessionPair measures the memory and goroutines of idle
// in-memory client+server session pairs.
func BenchmarkIdleSessionPair(b *testing.B) {
	server := NewServer("s", "v1", nil)
	server.AddTools(echoTool())
	client := NewClient("c", "v1", nil)
	const n = 200
	b.ReportAllocs()
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g0 := runtime.NumGoroutine()
		var sessions []*ClientSession
		for range n {
			ct, st := NewInMemoryTransports()
			if _, err := server.Connect(context.Background(), st); err != nil {
				b.Fatal(err)
			}
			cs, err := client.Connect(context.Background(), ct)
			if err != nil {
				b.Fatal(err)
			}
			sessions = append(sessions, cs)
		}
		// Steady state: a few collections let the runtime shrink the stacks
		// that grew while the sessions started.
		for range 4 {
			runtime.GC()
		}
		runtime.ReadMemStats(&after)
		heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
		stack := float64(after.StackInuse) - float64(before.StackInuse)
		b.ReportMetric(heap/n, "heap-B/pair")
		b.ReportMetric(stack/n, "stack-B/pair")
		b.ReportMetric(float64(runtime.NumGoroutine()-g0)/n, "goroutines/pair")
		for _, cs := range sessions {
			cs.Close()
		}
	}
}
