package main

//lint:file-ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it: this example is about it

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// Both eras deliver the messages at or above the client's level: 2026-07-28
// sends the level in each request's _meta, earlier versions with
// logging/setLevel.
func TestLogging(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, ""} {
		t.Run("version "+version, func(t *testing.T) {
			ctx := context.Background()
			var (
				mu  sync.Mutex
				got []string
			)
			// docs:region client
			client := mcp.NewClient("test", "v1", &mcp.ClientOptions{
				ProtocolVersion: version,
				LoggingMessageHandler: func(ctx context.Context, cs *mcp.ClientSession, p *mcp.LoggingMessageParams) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, fmt.Sprintf("%s %s %v", p.Level, p.Logger, p.Data.(map[string]any)["msg"]))
				},
			})
			// docs:endregion
			ct, st := mcp.NewInMemoryTransports()
			if _, err := newServer().Connect(ctx, st); err != nil {
				t.Fatal(err)
			}
			cs, err := client.Connect(ctx, ct)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			// docs:region setlevel
			err = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevelInfo})
			// docs:endregion
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, "fetch", map[string]any{"url": "https://example.com"}, nil); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			want := []string{"info fetcher fetching", "warning fetcher slow response"}
			if !slices.Equal(got, want) {
				t.Errorf("messages = %q, want %q", got, want)
			}
		})
	}
}
