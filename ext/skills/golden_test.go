package skills_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gomcp/sdk/ext/skills"
	"github.com/gomcp/sdk/internal/goldentest"
	"github.com/gomcp/sdk/mcp"
)

// TestGoldenExchanges records the exact messages of each method of the
// extension, in each protocol era, and compares them with
// testdata/golden/<version>.txt. Run with -update to rewrite the files
// after an intended change, and review the diff.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			server := newSkillsServer(t, 1)
			var log goldentest.Buffer
			ct, st := mcp.NewInMemoryTransports()
			ss, err := server.Connect(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			client := skills.EnableClient(mcp.NewClient("golden-client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version}))
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
			goldentest.Compare(t, filepath.Join("testdata", "golden", version+".txt"), log.String())
		})
	}
}
