package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestScaleOutExample starts the three instances and the load balancer and
// talks to them as a client would, in both protocol eras.
func TestScaleOutExample(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, addr, "", 3) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	for i := 0; i < 50; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs, err := mcp.NewClient("t", "v1", &mcp.ClientOptions{
			ProtocolVersion: version,
			ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
			},
		}).Connect(ctx, mcp.NewStreamableClientTransport("http://"+addr+"/mcp", nil))
		if err != nil {
			t.Fatalf("%s: connect: %v", version, err)
		}
		seen := map[string]bool{}
		for range 3 {
			res, err := cs.CallTool(ctx, "whoami", nil, nil)
			if err != nil {
				t.Fatalf("%s: whoami: %v", version, err)
			}
			seen[res.Content[0].Text] = true
		}
		if len(seen) < 2 {
			t.Errorf("%s: calls served by %v, want several instances", version, seen)
		}
		res, err := cs.CallTool(ctx, "confirm", nil, nil)
		if err != nil || !strings.Contains(res.Content[0].Text, "got accept true") {
			t.Fatalf("%s: confirm: %+v, %v", version, res, err)
		}
		cs.Close()
	}
}
