package mcp

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of a
// LoggingTransport.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestGoldenExchanges records the exact bytes a client writes and a server
// answers for each method, in each protocol version, and compares them with
// testdata/golden/<version>.txt. Run with -update to rewrite the files after
// an intended change, and review the diff.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range SupportedVersions() {
		t.Run(version, func(t *testing.T) {
			server := NewServer("golden-server", "v1.0.0", &ServerOptions{Instructions: "Be kind."})
			server.AddTools(echoTool())
			var log lockedBuffer
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
				func() error { _, _ = cs.CallTool(ctx, "missing", map[string]any{}, nil); return nil },
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			cs.Close()
			ss.Wait()
			compareGolden(t, filepath.Join("testdata", "golden", version+".txt"), log.String())
		})
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got %s\nwant %s", path, i+1, g, w)
			}
		}
	}
}
