package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/skills"
	"github.com/gomcp/sdk/mcp"
)

// TestCatalog loads every skill of the example's catalog, in memory, in
// both protocol eras, and reads and verifies every file.
func TestCatalog(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			server, err := newServer()
			if err != nil {
				t.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			// docs:region client
			cs, err := skills.EnableClient(mcp.NewClient("host", "v1", &mcp.ClientOptions{ProtocolVersion: version})).Connect(ctx, ct)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			files := 0
			names := map[string]bool{}
			for e, err := range skills.All(ctx, cs) {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := skills.Load(ctx, cs, e); err != nil {
					t.Fatalf("load %s: %v", e.URI, err)
				}
				for _, f := range e.Resources {
					if _, err := skills.ReadFile(ctx, cs, e, f.URI); err != nil {
						t.Fatalf("read %s: %v", f.URI, err)
					}
					files++
				}
				names[e.Frontmatter["name"].(string)] = true
			}
			// docs:endregion
			if !names["go-release"] || !names["commit-message"] || files != 3 {
				t.Errorf("skills %v with %d files; want go-release and commit-message with 3 files", names, files)
			}
		})
	}
}

// TestStdioExitsWhenInputCloses builds the example and runs it over
// stdio: it lists its skills and exits 0 when its input closes.
func TestStdioExitsWhenInputCloses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example")
	}
	bin := filepath.Join(t.TempDir(), "skills")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.Command(bin)
	cmd.Stderr = os.Stderr
	cs, err := skills.EnableClient(mcp.NewClient("host", "v1", nil)).Connect(ctx, mcp.NewCommandTransport(cmd, nil))
	if err != nil {
		t.Fatal(err)
	}
	page, err := skills.List(ctx, cs, "")
	if err != nil || len(page.Skills) != 2 {
		t.Fatalf("skills/list: %+v, %v", page, err)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
