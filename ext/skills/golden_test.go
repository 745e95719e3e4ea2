package skills_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gomcp/sdk/ext/skills"
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

// TestGoldenExchanges records the exact messages of each method of the
// extension, in each protocol era, and compares them with
// testdata/golden/<version>.txt. Run with -update to rewrite the files
// after an intended change, and review the diff.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			server := newSkillsServer(t, 1)
			var log lockedBuffer
			ct, st := mcp.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			client := mcp.NewClient("golden-client", "v1.0.0", skills.EnableClient(&mcp.ClientOptions{ProtocolVersion: version}))
			cs, err := client.Connect(ctx, mcp.NewLoggingTransport(ct, &log))
			if err != nil {
				t.Fatal(err)
			}
			page, err := skills.List(ctx, cs, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := skills.List(ctx, cs, page.NextCursor); err != nil {
				t.Fatal(err)
			}
			e, err := skills.Get(ctx, cs, "skill://pdf-processing/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := skills.Load(ctx, cs, *e); err != nil {
				t.Fatal(err)
			}
			var dir skills.DirectoryReadResult
			if err := cs.Call(ctx, skills.MethodDirectoryRead, &skills.DirectoryReadParams{URI: "skill://pdf-processing/references"}, &dir); err != nil {
				t.Fatal(err)
			}
			if _, err := skills.Get(ctx, cs, "skill://missing/SKILL.md"); err == nil {
				t.Fatal("skills/get of a missing skill succeeded")
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
		t.Errorf("exchange differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
