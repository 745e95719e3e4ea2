package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBench runs a short load test in both eras and checks the report.
func TestBench(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			r := runCLI(t, "bench", "--json", "--protocol", era, "--tool", "greet", "-c", "4", "-d", "300ms", everythingURL, "name=Load")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var rep benchReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("%s: %v", r.stdout, err)
			}
			if rep.Calls == 0 || rep.Errors != 0 || rep.CallsPerSecond <= 0 || rep.P50Ms <= 0 || rep.P99Ms < rep.P50Ms || rep.MaxMs < rep.P99Ms || rep.Concurrency != 4 {
				t.Fatalf("report %+v", rep)
			}
		})
	}
	r := runCLI(t, "bench", "--json", "--tool", "test_error_handling", "-c", "2", "-d", "200ms", everythingURL)
	if r.code != exitToolError {
		t.Fatalf("a tool that always fails: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, "bench", everythingURL); r.code != exitUsage {
		t.Fatalf("bench without --tool: exit %d", r.code)
	}
}

// TestBenchLiveLine checks the live progress line on a (simulated)
// terminal, erased at the end.
func TestBenchLiveLine(t *testing.T) {
	env, out, errw := testEnv(t, "", nil)
	env.stderrTTY = true
	r := runIn(t, env, out, errw, "bench", "--tool", "greet", "-c", "2", "-d", "1200ms", everythingURL, "name=Live")
	if r.code != 0 || !strings.Contains(r.stdout, "calls:") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, " calls ") || !strings.Contains(r.stderr, "/s") || !strings.HasSuffix(r.stderr, "\r\x1b[K") {
		t.Fatalf("live line on stderr: %q", r.stderr)
	}
}
