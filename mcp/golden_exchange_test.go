package mcp

import (
	"context"
	"github.com/gomcp/sdk/internal/goldentest"
	"path/filepath"
	"testing"
)

// TestGoldenExchanges records the exact bytes a client writes and a server
// answers for each method, in each protocol version, and compares them with
// testdata/golden/<version>.txt. Run with -update to rewrite the files after
// an intended change, and review the diff.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range SupportedVersions() {
		t.Run(version, func(t *testing.T) {
			server := NewServer("golden-server", "v1.0.0", &ServerOptions{Instructions: "Be kind."})
			server.AddTools(echoTool())
			var log goldentest.Buffer
			ct, st := NewInMemoryTransports()
			ss, err := server.Connect(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			client := NewClient("golden-client", "v1.0.0", &ClientOptions{ProtocolVersion: version})
			cs, err := client.Connect(context.Background(), NewLoggingTransport(ct, &log))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			steps := []func() error{
				func() error { return cs.Ping(ctx, nil) },
				func() error { _, err := cs.ListTools(ctx, nil); return err },
				func() error { _, err := cs.CallTool(ctx, "echo", map[string]any{"text": "hello"}, nil); return err },
				func() error { _, err := cs.CallTool(ctx, "echo", map[string]any{"text": "fail"}, nil); return err },
				func() error { _, _ = cs.CallTool(ctx, "missing", map[string]any{}, nil); return nil }, // the error answer is in the recorded exchange
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			cs.Close()
			ss.Wait()
			goldentest.Compare(t, filepath.Join("testdata", "golden", version+".txt"), log.String())
		})
	}
}
