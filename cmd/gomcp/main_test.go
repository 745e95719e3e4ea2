package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"

	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// The everything-server of the conformance suite, built once by TestMain,
// and its streamable HTTP endpoint.
var (
	everythingBin string
	everythingURL string
)

// TestMain lets the test binary act as the gomcp program (GOMCP_TEST_MAIN)
// or as small stdio servers (GOMCP_TEST_SERVER), and otherwise builds and
// starts the everything-server for the tests.
func TestMain(m *testing.M) {
	if os.Getenv("GOMCP_TEST_MAIN") == "1" {
		main()
		return
	}
	if mode := os.Getenv("GOMCP_TEST_SERVER"); mode != "" {
		testServer(mode)
		return
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "gomcp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	everythingBin = filepath.Join(dir, "everything-server")
	build := exec.Command("go", "build", "-o", everythingBin, "github.com/gomcp/sdk/conformance/everything-server")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the everything-server: %v\n%s", err, out)
		return 1
	}
	srv := exec.Command(everythingBin, "-http", "127.0.0.1:0")
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "everything-server: listening on "); ok {
			everythingURL = addr + "/mcp"
			break
		}
	}
	if everythingURL == "" {
		fmt.Fprintln(os.Stderr, "the everything-server did not say where it listens")
		return 1
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return m.Run()
}

// testServer is a stdio MCP server for the tests: "linger" answers, then
// ignores its input closing and SIGTERM, as some servers do.
func testServer(mode string) {
	srv := mcp.NewServer("test-server", "1.0.0", nil)
	srv.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "echo", Description: "Echoes its text.", InputSchema: map[string]any{
			"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}},
		}},
		Handler: func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(string(rawArgs(p)))}}, nil
		},
	})
	srv.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "env", Description: "Returns an environment variable and the directory.", InputSchema: map[string]any{
			"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}},
		}},
		Handler: func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			var args struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(rawArgs(p), &args)
			wd, _ := os.Getwd()
			return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(os.Getenv(args.Name) + " in " + filepath.Base(wd))}}, nil
		},
	})
	switch mode {
	case "linger":
		ignoreTerm()
		_ = srv.Run(context.Background(), mcp.NewStdIOTransport())
		time.Sleep(time.Hour)
	default:
		_ = srv.Run(context.Background(), mcp.NewStdIOTransport())
	}
	os.Exit(0)
}

// result is what one run of the program produced.
type result struct {
	stdout, stderr string
	code           int
	answered       time.Time // first write to stdout
	ended          time.Time
}

// timedWriter notes the time of its first write.
type timedWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first time.Time
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first.IsZero() {
		w.first = time.Now()
	}
	return w.buf.Write(p)
}

func (w *timedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// testEnv is an environment for an in-process run.
func testEnv(t *testing.T, stdin string, vars map[string]string) (*environ, *timedWriter, *timedWriter) {
	out, errw := &timedWriter{}, &timedWriter{}
	home := t.TempDir()
	env := &environ{
		stdin: strings.NewReader(stdin), stdout: out, stderr: errw,
		lookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		home:      home, wd: t.TempDir(),
	}
	return env, out, errw
}

// runCLI runs the program in-process.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	env, out, errw := testEnv(t, "", nil)
	return runIn(t, env, out, errw, args...)
}

func runIn(t *testing.T, env *environ, out, errw *timedWriter, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code := run(ctx, env, args)
	return result{stdout: out.String(), stderr: errw.String(), code: code, answered: out.first, ended: time.Now()}
}

// selfCommand is the test binary acting as a test server.
func selfCommand(mode string) []string {
	return []string{"env", "GOMCP_TEST_SERVER=" + mode, os.Args[0], "-test.run=^$"}
}

func rawArgs(p *mcp.CallToolParams) []byte {
	raw, _ := p.Arguments.(json.RawMessage)
	return raw
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
