package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gomcp/sdk/mcp"
)

// A handler reads the settings the client declared for an extension: from
// the request in 2026-07-28, from initialize in earlier revisions.
func ExampleServerSession_ClientExtension() {
	ctx := context.Background()
	const ext = "example.com/units"
	server := mcp.NewServer("weather", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("temperature", "Reports the temperature.",
		func(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
			units := struct {
				System string `json:"system"`
			}{System: "metric"}
			if settings, ok := ss.ClientExtension(ext); ok {
				if err := mcp.DecodeExtensionSettings(settings, &units); err != nil {
					return nil, err
				}
			}
			if units.System == "imperial" {
				return []*mcp.Content{mcp.NewTextContent("68 °F")}, nil
			}
			return []*mcp.Content{mcp.NewTextContent("20 °C")}, nil
		}))
	for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
		client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{
			ProtocolVersion: version,
			Capabilities: &mcp.ClientCapabilities{
				Extensions: map[string]any{ext: map[string]any{"system": "imperial"}},
			},
		})
		clientTransport, serverTransport := mcp.NewInMemoryTransports()
		serverSession, err := server.Connect(ctx, serverTransport)
		if err != nil {
			log.Fatal(err)
		}
		session, err := client.Connect(ctx, clientTransport)
		if err != nil {
			log.Fatal(err)
		}
		res, err := session.CallTool(ctx, "temperature", nil, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(version+":", res.Content[0].Text)
		session.Close()
		serverSession.Wait()
	}
	// Output:
	// 2026-07-28: 68 °F
	// 2025-11-25: 68 °F
}
