package main

import (
	"context"
	"fmt"
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
	go func() { done <- run(ctx, addr, redisFlags{}, 3) }()
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

// TestRedisFlags: each Redis flag makes its kind of client, and two flags
// or a URL go-redis cannot parse are refused naming the flag.
func TestRedisFlags(t *testing.T) {
	for _, tt := range []struct {
		name    string
		flags   redisFlags
		want    string // the client's type, or the error's start
		wantErr bool
	}{
		{"redis", redisFlags{single: "redis://127.0.0.1:6379/0"}, "*redis.Client", false},
		{"cluster", redisFlags{cluster: "redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002"}, "*redis.ClusterClient", false},
		{"sentinel", redisFlags{sentinel: "redis://127.0.0.1:26379?master_name=mymaster"}, "*redis.Client", false},
		{"two", redisFlags{single: "redis://127.0.0.1:6379/0", sentinel: "redis://127.0.0.1:26379?master_name=m"}, "-redis, -redis-cluster and -redis-sentinel: give one only", true},
		{"bad redis", redisFlags{single: "http://127.0.0.1:6379"}, "-redis:", true},
		{"bad cluster", redisFlags{cluster: "redis://127.0.0.1:7000?nosuch=1"}, "-redis-cluster:", true},
		{"bad sentinel", redisFlags{sentinel: "redis://127.0.0.1:26379?nosuch=1"}, "-redis-sentinel:", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			newClient, _, err := tt.flags.connector()
			if tt.wantErr {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("connector() = %v, want an error starting %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c := newClient()
			defer c.Close()
			if got := fmt.Sprintf("%T", c); got != tt.want {
				t.Errorf("client %s, want %s", got, tt.want)
			}
		})
	}
}
