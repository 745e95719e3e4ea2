package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// The tests run this test binary as the example program: with
// EXAMPLE_RUN_MAIN set, TestMain runs main instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("EXAMPLE_RUN_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// lockedBuffer is a bytes.Buffer safe to write from the process-copying
// goroutine while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// example returns the command that runs the example with args and the
// extra environment env.
func example(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "EXAMPLE_RUN_MAIN=1"), env...)
	return cmd
}

// TestHTTPConsole serves HTTP with the console exporter, makes a tool call
// and stops the server with SIGTERM: the tool call's span must be printed,
// as JSON, to stdout.
func TestHTTPConsole(t *testing.T) {
	cmd := example(t, []string{"OTEL_TRACES_EXPORTER=console", "OTEL_METRICS_EXPORTER=none", "OTEL_SERVICE_NAME=greeter-test"},
		"-http", "127.0.0.1:0")
	var stdout lockedBuffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url := waitForURL(t, stderr)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, mcp.NewStreamableClientTransport(url, nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Ada"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("greet: %v %+v", err, res)
	}
	_ = cs.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("example exited with %v", err)
	}
	out := stdout.String()
	for _, want := range []string{`"Name":"tools/call greet"`, `"mcp.method.name"`, `"greeter-test"`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout has no %s:\n%s", want, out)
		}
	}
}

// waitForURL reads the example's log until it says where it serves, and
// returns that URL; the rest of the log is discarded.
func waitForURL(t *testing.T, stderr io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`serving MCP at (http://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(10 * time.Second):
		t.Fatal("the example did not report its address in 10s")
		return ""
	}
}

// TestStdioRefusesConsole checks that over stdio the console exporter is
// refused with a clear message and nothing on stdout.
func TestStdioRefusesConsole(t *testing.T) {
	for _, env := range []string{"OTEL_TRACES_EXPORTER=console", "OTEL_METRICS_EXPORTER=otlp,console"} {
		cmd := example(t, []string{env})
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Stdin = strings.NewReader("")
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("%s: exit %v, want status 2", env, err)
		}
		if stdout.Len() != 0 {
			t.Errorf("%s: stdout %q, want nothing", env, stdout.String())
		}
		if !strings.Contains(stderr.String(), "console") || !strings.Contains(stderr.String(), "-http") {
			t.Errorf("%s: message %q does not say why and what to do", env, stderr.String())
		}
	}
}

// TestStdio serves one tool call over stdio and checks that the example
// exits 0 when its input closes, with only JSON-RPC on stdout.
func TestStdio(t *testing.T) {
	cmd := example(t, []string{"OTEL_TRACES_EXPORTER=none", "OTEL_METRICS_EXPORTER=none"})
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}
`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v; stderr: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the example did not exit after its input closed")
	}
	// Two responses, in either order: JSON-RPC does not order responses,
	// and the call waits for initialize, not for its response to be written.
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 || !strings.Contains(stdout.String(), `"id":2,"result":{"content":[{"type":"text","text":"Hi Ada"}]}`) {
		t.Fatalf("stdout:\n%s", stdout.String())
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, `{"jsonrpc":"2.0"`) {
			t.Errorf("stdout line is not JSON-RPC: %s", l)
		}
	}
}
