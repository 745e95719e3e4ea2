package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveHangingUp is the child process of a legacy stdio server that treats
// server/discover as fatal, as servers written before 2026-07-28 may:
// when its first message is server/discover it exits with status 1 (how
// "exit"), or closes its stdout and waits for its stdin to close (how
// "close"). Any other first message is served by a gomcp Server, which
// then speaks the era that message chose. Each start appends a line to the
// file MCP_TEST_STARTS names, before reading anything.
func serveHangingUp(how string) {
	if name := os.Getenv("MCP_TEST_STARTS"); name != "" {
		f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			os.Exit(2)
		}
		fmt.Fprintln(f, "started")
		f.Close()
	}
	in := bufio.NewReader(os.Stdin)
	first, err := in.ReadBytes('\n')
	if err != nil {
		os.Exit(2)
	}
	if bytes.Contains(first, []byte(`"method":"server/discover"`)) {
		if how == "close" {
			os.Stdout.Close()
			_, _ = io.Copy(io.Discard, in)
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "fatal: unknown method server/discover")
		os.Exit(1)
	}
	server := NewServer("legacy", "v1", nil)
	server.AddTools(echoTool())
	rwc := struct {
		io.Reader
		io.Writer
		io.Closer
	}{io.MultiReader(bytes.NewReader(first), in), os.Stdout, os.Stdin}
	if err := server.Run(context.Background(), NewIOTransport(rwc)); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// countStarts returns how many server processes have started, from the
// file serveHangingUp appends to.
func countStarts(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "started\n")
}

// TestCommandTransportServerHangsUpOnDiscover connects twice through one
// CommandTransport to a server that hangs up on server/discover: the first
// Connect probes, sees the server hang up, starts the command again and
// connects with initialize (two processes started); the second goes
// straight to initialize (one more process, not two).
func TestCommandTransportServerHangsUpOnDiscover(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		logged   bool // through a LoggingTransport around the CommandTransport
		exitCode int  // of the first process, which hung up
	}{
		{name: "exits", mode: "hangup-exit", exitCode: 1},
		{name: "closes its stdout", mode: "hangup-close", exitCode: 0},
		{name: "exits, through a LoggingTransport", mode: "hangup-exit", logged: true, exitCode: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			starts := filepath.Join(t.TempDir(), "starts")
			cmd := childCommand(tt.mode)
			cmd.Env = append(cmd.Env, "MCP_TEST_STARTS="+starts)
			cmd.Stderr = io.Discard
			ct := NewCommandTransport(cmd, &CommandTransportOptions{TerminateDuration: 2 * time.Second})
			var transport Transport = ct
			if tt.logged {
				transport = NewLoggingTransport(ct, io.Discard)
			}
			client := NewClient("c", "v1", nil)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard only
			defer cancel()
			for i, wantStarts := range []int{2, 3} {
				cs, err := client.Connect(ctx, transport)
				if err != nil {
					t.Fatalf("Connect %d: %v", i+1, err)
				}
				if v := cs.ProtocolVersion(); v != Version20251125 {
					t.Errorf("Connect %d: protocol %s, want %s", i+1, v, Version20251125)
				}
				res, err := cs.CallTool(ctx, "echo", map[string]any{"text": "legacy"}, nil)
				if err != nil || res.Content[0].Text != "legacy" {
					t.Fatalf("Connect %d: echo = %+v, %v", i+1, res, err)
				}
				if err := cs.Close(); err != nil {
					t.Fatalf("Connect %d: Close: %v", i+1, err)
				}
				if got := countStarts(t, starts); got != wantStarts {
					t.Fatalf("after Connect %d: %d server processes started, want %d", i+1, got, wantStarts)
				}
			}
			// The first process ran the caller's cmd itself.
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != tt.exitCode {
				t.Fatalf("the first process: %v, want exit status %d", cmd.ProcessState, tt.exitCode)
			}
		})
	}
}

// TestHangUpOnDiscoverOverAPipe is the same server behind a transport that
// cannot start it again: Connect fails, and the error says how to skip
// the probe.
func TestHangUpOnDiscoverOverAPipe(t *testing.T) {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go func() {
		// The server reads the probe and hangs up.
		_, _ = bufio.NewReader(toServer).ReadString('\n')
		fromServer.Close()
		toServer.Close()
	}()
	rwc := struct {
		io.Reader
		io.Writer
		io.Closer
	}{toClient, fromClient, toClient}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
	defer cancel()
	_, err := NewClient("c", "v1", nil).Connect(ctx, NewIOTransport(rwc))
	if !errors.Is(err, ErrConnectionClosed) || !strings.Contains(err.Error(), "ClientOptions.ProtocolVersion") {
		t.Fatalf("Connect = %v; want ErrConnectionClosed, saying how to skip the probe", err)
	}
}
