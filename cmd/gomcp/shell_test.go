package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestShellScript runs the shell on one connection with commands from a
// non-terminal stdin.
func TestShellScript(t *testing.T) {
	script := "tools --limit 1\ncall greet name=Shell\ncall --json test_error_handling\nnot_a_command\nread test://static-text\nexit\ncall greet name=Never\n"
	env, out, errw := testEnv(t, script, nil)
	r := runIn(t, env, out, errw, "shell", everythingURL)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"confirm_delete(", "Hello, Shell!\n", `"isError":true`, "This is the content of the static text resource.\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Never") {
		t.Errorf("a command after exit ran:\n%s", r.stdout)
	}
	for _, want := range []string{`"code":"tool_is_error"`, `"code":"usage"`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestShellCompletion is the completion table of the shell.
func TestShellCompletion(t *testing.T) {
	st := &shellState{
		tools:     map[string][]string{"greet": {"name", "polite"}, "grep": nil, "add": {"a", "b"}},
		prompts:   map[string][]string{"plan": {"city"}},
		resources: []string{"file:///a", "file:///b"},
	}
	tests := []struct {
		line string
		want []string
	}{
		{"", shellVerbs},
		{"pro", []string{"prompts", "prompt"}},
		{"call ", []string{"add", "greet", "grep"}},
		{"call gr", []string{"greet", "grep"}},
		{"call greet ", []string{"name=", "polite="}},
		{"call greet name=x ", []string{"polite="}},
		{"call greet p", []string{"polite="}},
		{"prompt ", []string{"plan"}},
		{"prompt plan c", []string{"city="}},
		{"read file:///", []string{"file:///a", "file:///b"}},
		{"ping x", nil},
	}
	for _, tt := range tests {
		if got := st.complete(tt.line); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("complete(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
	suffixes, n := st.Do([]rune("call gre"), len("call gre"))
	if n != 3 || len(suffixes) != 2 || string(suffixes[0]) != "et " {
		t.Errorf("Do = %q, %d", suffixes, n)
	}
}

// TestShellRefresh checks that a tool list change refreshes completion:
// the everything-server's test_trigger_tool_change adds transient_tool_1
// and announces it.
func TestShellRefresh(t *testing.T) {
	states := make(chan *shellState, 1)
	newShellState = func() *shellState { st := &shellState{}; states <- st; return st }
	defer func() { newShellState = func() *shellState { return &shellState{} } }()
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			inR, inW := io.Pipe()
			env, out, errw := testEnv(t, "", nil)
			env.stdin = inR
			done := make(chan result, 1)
			go func() {
				done <- runIn(t, env, out, errw, "shell", "--protocol", era, "--", everythingBin)
			}()
			st := <-states
			if _, err := io.WriteString(inW, "call test_trigger_tool_change\n"); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for len(st.complete("call transient")) == 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			got := st.complete("call transient")
			inW.Close()
			r := <-done
			if r.code != 0 || !reflect.DeepEqual(got, []string{"transient_tool_1"}) {
				t.Fatalf("completion after the change %q; exit %d, stdout %q, stderr %s", got, r.code, r.stdout, r.stderr)
			}
		})
	}
}
