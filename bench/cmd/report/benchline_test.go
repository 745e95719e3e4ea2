package main

import (
	"errors"
	"strings"
	"testing"
)

func TestParseResult(t *testing.T) {
	tests := []struct {
		line string
		name string
		n    int64
		vals map[string]float64
		err  error
	}{
		{"BenchmarkCallTool/memory/modern/seq/ours-2   \t  3000\t 58703 ns/op\t 5687 B/op\t 51 allocs/op",
			"BenchmarkCallTool/memory/modern/seq/ours", 3000,
			map[string]float64{"ns/op": 58703, "B/op": 5687, "allocs/op": 51}, nil},
		{"BenchmarkHTTPLoad/raw/legacy/c1/ceiling-16 1 208629 ns/op 4798 calls/s 201246 p50-ns",
			"BenchmarkHTTPLoad/raw/legacy/c1/ceiling", 1,
			map[string]float64{"ns/op": 208629, "calls/s": 4798, "p50-ns": 201246}, nil},
		{"BenchmarkIdle/http/mcpgo 1 5 ns/op -393.2 server-stackB/session", "BenchmarkIdle/http/mcpgo", 1,
			map[string]float64{"ns/op": 5, "server-stackB/session": -393.2}, nil},
		{"BenchmarkName-x 1 5 ns/op", "BenchmarkName-x", 1, map[string]float64{"ns/op": 5}, nil},
		{"BenchmarkSetup/http/legacy/ours", "", 0, nil, errNotResult},
		{"PASS", "", 0, nil, errNotResult},
		{"BenchmarkX-2 0 5 ns/op", "", 0, nil, errNotResult},
		{"BenchmarkX-2 1 five ns/op", "", 0, nil, errNotResult},
		{"BenchmarkX-2 1 5 ns/op 6 ns/op", "", 0, nil, errNotResult},
		{"BenchmarkX-2 1 5", "", 0, nil, errNotResult},
	}
	for _, tt := range tests {
		r, err := parseResult(tt.line)
		if !errors.Is(err, tt.err) {
			t.Errorf("%q: err %v, want %v", tt.line, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		if r.name != tt.name || r.n != tt.n || len(r.values) != len(tt.vals) {
			t.Errorf("%q: got %+v", tt.line, r)
		}
		for u, v := range tt.vals {
			if r.values[u] != v {
				t.Errorf("%q: %s = %v, want %v", tt.line, u, r.values[u], v)
			}
		}
	}
}

func TestParseOutput(t *testing.T) {
	in := `goos: linux
BenchmarkSetup
BenchmarkSetup/http/legacy/ours
    setup_test.go:37: pending: no HTTP yet
--- SKIP: BenchmarkSetup/http/legacy/ours
BenchmarkSetup/http/legacy/mcpgo
BenchmarkSetup/http/legacy/mcpgo-2        	       1	   4103792 ns/op	  222840 B/op	    1650 allocs/op
BenchmarkSetup/http/legacy/gosdk
    setup_test.go:50: connection refused
--- FAIL: BenchmarkSetup/http/legacy/gosdk (0.01s)
FAIL
`
	out := parseOutput([]byte(in))
	if len(out.results) != 1 || out.results[0].name != "BenchmarkSetup/http/legacy/mcpgo" {
		t.Errorf("results = %+v", out.results)
	}
	if len(out.skips) != 1 || out.skips[0] != (skip{"BenchmarkSetup/http/legacy/ours", "pending: no HTTP yet"}) {
		t.Errorf("skips = %+v", out.skips)
	}
	if len(out.fails) != 1 || out.fails[0].name != "BenchmarkSetup/http/legacy/gosdk" || !strings.Contains(out.fails[0].reason, "refused") {
		t.Errorf("fails = %+v", out.fails)
	}
}

func FuzzParseOutput(f *testing.F) {
	f.Add([]byte("BenchmarkX-2 1 5 ns/op\n--- SKIP: BenchmarkY\n    why\n"))
	f.Add([]byte("BenchmarkX/a-2 \t 10 \t 1.5e3 ns/op \t 4 B/op\n"))
	f.Add([]byte("--- FAIL: BenchmarkZ (0.00s)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := parseOutput(data)
		for _, r := range out.results {
			if r.n <= 0 || !strings.HasPrefix(r.name, "Benchmark") || len(r.values) == 0 {
				t.Fatalf("bad result %+v", r)
			}
		}
	})
}
