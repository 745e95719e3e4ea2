package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gomcp/sdk/mcp"
)

type counterParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
	From int      `json:"from"`
}

type counterResult struct {
	Next int `json:"next"`
}

// An extension written outside package mcp, as a third party would: one
// AddExtension call declares it in the server's capabilities, with its
// settings, and adds its method; a client turns it on with its own
// settings the same way. The method reads the settings the client declared
// for it (per request in 2026-07-28, from initialize before) and refuses
// clients that did not declare it with -32021.
func Example_extension() {
	ctx := context.Background()
	const ext = "example.com/counter"
	server := mcp.NewServer("counter", "v1.0.0", nil)
	server.AddExtension(ext, map[string]any{"maxStep": 10}, mcp.NewServerMethod("counter/next",
		func(ctx context.Context, ss *mcp.ServerSession, p *counterParams) (*counterResult, error) {
			settings, ok := ss.ClientExtension(ext)
			if !ok {
				return nil, mcp.MissingExtensionError(ext)
			}
			var s struct {
				Step int `json:"step"`
			}
			if err := mcp.DecodeExtensionSettings(settings, &s); err != nil {
				return nil, err
			}
			return &counterResult{Next: p.From + s.Step}, nil
		}, nil))

	for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
		for _, declare := range []bool{true, false} {
			client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version})
			if declare {
				client.AddExtension(ext, map[string]any{"step": 2})
			}
			clientTransport, serverTransport := mcp.NewInMemoryTransports()
			serverSession, err := server.Connect(ctx, serverTransport)
			if err != nil {
				log.Fatal(err)
			}
			session, err := client.Connect(ctx, clientTransport)
			if err != nil {
				log.Fatal(err)
			}
			_, declared := session.ServerExtension(ext)
			var res counterResult
			err = session.Call(ctx, "counter/next", &counterParams{From: 40}, &res)
			fmt.Printf("%s: server declares it %v; next %d, error code %d\n", version, declared, res.Next, mcp.CodeOf(err))
			session.Close()
			serverSession.Wait()
		}
	}
	// Output:
	// 2026-07-28: server declares it true; next 42, error code 0
	// 2026-07-28: server declares it true; next 0, error code -32021
	// 2025-11-25: server declares it true; next 42, error code 0
	// 2025-11-25: server declares it true; next 0, error code -32021
}

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
