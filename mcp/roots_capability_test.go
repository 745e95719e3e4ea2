package mcp

import (
	"context"
	"testing"
)

// A client declares the roots capability only when it has roots: not
// when it has none, and from the next session (up to 2025-11-25) or the
// next request (2026-07-28) once AddRoots gave it some.
func TestRootsCapabilityFollowsRoots(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		var seen []bool // whether each tools/call's session declared roots
		server := NewServer("s", "v1", nil)
		server.AddTools(&ServerTool{
			Tool: &Tool{Name: "caps", InputSchema: map[string]any{"type": "object"}},
			Handler: func(_ context.Context, ss *ServerSession, _ *CallToolParams) (*CallToolResult, error) {
				seen = append(seen, ss.ClientCapabilities().Roots != nil)
				return &CallToolResult{}, nil
			},
		})
		client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: version})
		call := func() {
			t.Helper()
			ct, st := NewInMemoryTransports()
			ss, err := server.Connect(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := client.Connect(context.Background(), ct)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { cs.Close(); ss.Wait() }()
			if _, err := cs.CallTool(context.Background(), "caps", nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		call()
		client.AddRoots(&Root{URI: "file:///work"})
		call()
		client.RemoveRoots("file:///work")
		call()
		if want := []bool{false, true, false}; len(seen) != 3 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
			t.Errorf("roots declared per call (none, one root, none) = %v, want %v", seen, want)
		}
	})
}
