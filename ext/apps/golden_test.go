package apps_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gomcp/sdk/ext/apps"
	"github.com/gomcp/sdk/internal/goldentest"
	"github.com/gomcp/sdk/mcp"
)

// TestGoldenExchanges records the exact messages a host that renders apps
// exchanges with an app server (capabilities, tools/list with the tool's
// _meta.ui, resources/list and resources/read of the view, tools/call),
// in each protocol era, and compares them with testdata/golden/<version>.txt.
// Run with -update to rewrite the files after an intended change.
func TestGoldenExchanges(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			var log goldentest.Buffer
			ct, st := mcp.NewInMemoryTransports()
			ss, err := newAppServer(t).Connect(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := apps.EnableClient(mcp.NewClient("golden-host", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version})).
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
			goldentest.Compare(t, filepath.Join("testdata", "golden", version+".txt"), log.String())
		})
	}
}
