package apps_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gomcp/sdk/ext/apps"
	"github.com/gomcp/sdk/mcp"
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

// TestGoldenExchanges records the exact messages a host that renders apps
// exchanges with an app server (capabilities, tools/list with the tool's
// _meta.ui, resources/list and resources/read of the view, tools/call),
// in each protocol era, and compares them with testdata/golden/<version>.txt.
// Run with -update to rewrite the files after an intended change.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			var log lockedBuffer
			ct, st := mcp.NewInMemoryTransports()
			ss, err := newAppServer(t).Connect(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := mcp.NewClient("golden-host", "v1.0.0", apps.EnableClient(&mcp.ClientOptions{ProtocolVersion: version})).
				Connect(ctx, mcp.NewLoggingTransport(ct, &log))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ListResources(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://clock/view.html"}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, "clock", map[string]any{}, nil); err != nil {
				t.Fatal(err)
			}
			cs.Close()
			ss.Wait()
			path := filepath.Join("testdata", "golden", version+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(log.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if log.String() != string(want) {
				t.Errorf("exchange differs from %s:\ngot:\n%s\nwant:\n%s", path, log.String(), want)
			}
		})
	}
}
