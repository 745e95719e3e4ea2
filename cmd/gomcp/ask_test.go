package main

import (
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestElicitationForm answers the everything-server's elicitation with a
// form on a (simulated) terminal, in both eras: legacy elicitation
// requests and modern input-required results reach the same form.
func TestElicitationForm(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			// Fields are asked in name order: email, then username; an
			// empty answer to a required field is asked again.
			env, out, errw := testEnv(t, "ada@example.com\n\nada\n", nil)
			env.stdinTTY = true
			r := runIn(t, env, out, errw, "call", "--protocol", era, everythingURL, "test_elicitation", "message=Who are you?")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			want := `User response: action=accept, content={"email":"ada@example.com","username":"ada"}`
			if strings.TrimSpace(r.stdout) != want {
				t.Fatalf("stdout %q, want %q", r.stdout, want)
			}
			if !strings.Contains(r.stderr, "Who are you?") || !strings.Contains(r.stderr, "required") {
				t.Fatalf("the form on stderr: %q", r.stderr)
			}
		})
	}
}

// TestElicitationDeclined checks that without a terminal, or with
// --no-interactive, elicitation is declined.
func TestElicitationDeclined(t *testing.T) {
	for _, tty := range []bool{false, true} {
		env, out, errw := testEnv(t, "ada\n", nil)
		env.stdinTTY = tty
		r := runIn(t, env, out, errw, "call", "--no-interactive", everythingURL, "test_elicitation", "message=hi")
		if r.code != 0 || !strings.Contains(r.stdout, "action=decline") {
			t.Fatalf("tty=%v: exit %d, stdout %q, stderr %s", tty, r.code, r.stdout, r.stderr)
		}
	}
}

// TestSamplingCommand answers sampling with --sampling-command, plain
// text and a JSON result, in both eras.
func TestSamplingCommand(t *testing.T) {
	tests := []struct{ command, want string }{
		{"cat >/dev/null; echo Paris", "LLM response: Paris"},
		{`cat >/dev/null; echo '{"role":"assistant","content":{"type":"text","text":"Lyon"},"model":"m"}'`, "LLM response: Lyon"},
		{"grep -q 'capital of France' && echo found", "LLM response: found"},
	}
	for _, era := range eras {
		for _, tt := range tests {
			t.Run(era+"/"+tt.want, func(t *testing.T) {
				r := runCLI(t, "call", "--protocol", era, "--sampling-command", tt.command, everythingURL, "test_sampling", "prompt=What is the capital of France?")
				if r.code != 0 || strings.TrimSpace(r.stdout) != tt.want {
					t.Fatalf("exit %d, stdout %q, want %q; stderr %s", r.code, r.stdout, tt.want, r.stderr)
				}
			})
		}
	}
	r := runCLI(t, "call", "--sampling-command", "exit 3", everythingURL, "test_sampling", "prompt=x")
	if r.code == 0 {
		t.Fatalf("a failing sampling command: exit 0, stdout %q", r.stdout)
	}
}

// TestProgressLine is the rendering table of the progress bar.
func TestProgressLine(t *testing.T) {
	tests := []struct {
		p    mcp.ProgressNotificationParams
		want string
	}{
		{mcp.ProgressNotificationParams{Progress: 5, Total: 10}, "[=====     ]  50%"},
		{mcp.ProgressNotificationParams{Progress: 0, Total: 10, Message: "starting"}, "[          ]   0% starting"},
		{mcp.ProgressNotificationParams{Progress: 20, Total: 10}, "[==========] 100%"},
		{mcp.ProgressNotificationParams{Progress: 3}, "progress 3"},
	}
	for _, tt := range tests {
		if got := progressLine(&tt.p, 10); got != tt.want {
			t.Errorf("progressLine(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestProgressBar draws the everything-server's progress notifications
// on a (simulated) terminal and erases the bar before the result.
func TestProgressBar(t *testing.T) {
	env, out, errw := testEnv(t, "", nil)
	env.stderrTTY = true
	r := runIn(t, env, out, errw, "call", everythingURL, "test_tool_with_progress")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "100%") || !strings.HasSuffix(r.stderr, "\r\x1b[K") {
		t.Fatalf("stderr %q", r.stderr)
	}
}
