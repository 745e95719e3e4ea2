package mcp

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCommandTransportOptionsGrace checks that the shutdown grace of the
// options form bounds Close against a server that ignores both its input
// closing and SIGTERM: two steps of the grace, then SIGKILL.
func TestCommandTransportOptionsGrace(t *testing.T) {
	tests := []struct {
		name  string
		grace time.Duration
		max   time.Duration
	}{
		{"short grace", 50 * time.Millisecond, time.Second},
		{"longer grace", 300 * time.Millisecond, 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := NewCommandTransport(childCommand("stubborn"), &CommandTransportOptions{TerminateDuration: tt.grace})
			conn := connectStubborn(t, ct)
			start := time.Now()
			err := conn.Close()
			d := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("Close = %v, want an error saying the process was killed", err)
			}
			if d < 2*tt.grace || d > tt.max {
				t.Fatalf("Close took %v, want between %v and %v", d, 2*tt.grace, tt.max)
			}
		})
	}
}

// TestCommandTransportOptionsDefaults checks that nil options and a zero
// grace mean the default, and that the constructor keeps the command.
func TestCommandTransportOptionsDefaults(t *testing.T) {
	cmd := exec.Command("true")
	for _, opts := range []*CommandTransportOptions{nil, {}} {
		ct := NewCommandTransport(cmd, opts)
		if ct.cmd != cmd || ct.terminate != 0 {
			t.Fatalf("NewCommandTransport(%+v) = %+v", opts, ct)
		}
	}
	ct := NewCommandTransport(cmd, &CommandTransportOptions{TerminateDuration: time.Second})
	if ct.terminate != time.Second {
		t.Fatalf("terminate = %v", ct.terminate)
	}
}

// TestCommandTransportShortGraceAfterAnswer is the one-shot client's case:
// the server answered, then lingers; with a short grace the session closes
// quickly.
func TestCommandTransportShortGraceAfterAnswer(t *testing.T) {
	ct := NewCommandTransport(childCommand("stdio"), &CommandTransportOptions{TerminateDuration: 100 * time.Millisecond})
	cs, err := NewClient("c", "v1", nil).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, nil)
	if err != nil || res.Content[0].Text != "hi" {
		t.Fatalf("echo = %+v, %v", res, err)
	}
	start := time.Now()
	if err := cs.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Fatalf("Close took %v", d)
	}
}
