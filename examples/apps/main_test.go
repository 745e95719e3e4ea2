package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/apps"
	"github.com/gomcp/sdk/mcp"
)

// TestClockApp runs the example's server in memory, as a host with Apps
// and as one without, in both protocol eras.
func TestClockApp(t *testing.T) {
	now = func() time.Time { return time.Date(2026, 11, 26, 9, 30, 15, 0, time.UTC) }
	defer func() { now = time.Now }()
	for _, version := range []string{"2025-11-25", ""} {
		for _, host := range []struct {
			name   string
			client *mcp.Client
			want   string
		}{
			{"apps", apps.EnableClient(mcp.NewClient("host", "v1", &mcp.ClientOptions{ProtocolVersion: version})), "It is 09:30:15 in UTC. The clock is shown in its view."},
			{"text", mcp.NewClient("host", "v1", &mcp.ClientOptions{ProtocolVersion: version}), "It is 09:30:15 in UTC."},
		} {
			t.Run(host.name+"/"+version, func(t *testing.T) {
				ctx := context.Background()
				st, ct := mcp.NewInMemoryTransports()
				ss, err := newServer().Connect(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
				cs, err := host.client.Connect(ctx, ct)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				res, err := cs.CallTool(ctx, "show_clock", map[string]any{}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.IsError || res.Content[0].Text != host.want {
					t.Errorf("text %q, want %q", res.Content[0].Text, host.want)
				}
				b, _ := json.Marshal(res.StructuredContent)
				if string(b) != `{"time":"09:30:15","zone":"UTC"}` {
					t.Errorf("structuredContent %s", b)
				}
				read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: viewURI})
				if err != nil {
					t.Fatal(err)
				}
				if c := read.Contents[0]; c.MIMEType != apps.MIMEType || !strings.Contains(c.Text, "ui/initialize") {
					t.Errorf("view: %s, %.60q", c.MIMEType, c.Text)
				}
			})
		}
	}
}

// TestStdioExitsWhenInputCloses builds the example and runs it over
// stdio: it lists its app tool and exits 0 when its input closes.
func TestStdioExitsWhenInputCloses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example")
	}
	bin := filepath.Join(t.TempDir(), "apps")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.Command(bin)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient("host", "v1", nil).Connect(ctx, mcp.NewCommandTransport(cmd, nil))
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Meta.Data["ui/resourceUri"] != viewURI {
		t.Errorf("tools/list: %+v", tools.Tools)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
