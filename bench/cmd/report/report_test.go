package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// fakeStore builds a store from results given as "pass name unit=value ...".
func fakeStore(t *testing.T, lines ...string) *store {
	t.Helper()
	s := newStore()
	for _, l := range lines {
		f := strings.Fields(l)
		pass := int(f[0][0] - '0')
		r := result{name: f[1], n: 1, values: map[string]float64{}}
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, "=")
			var x float64
			if _, err := fmtSscan(v, &x); err != nil {
				t.Fatal(err)
			}
			r.values[k] = x
		}
		s.add(pass, output{results: []result{r}})
	}
	return s
}

var callGroup = group{section: "In-process tools/call", bench: "BenchmarkCallTool", sub: "memory/modern/seq",
	targets: []string{"ours", "gosdk", "mcpgo"}, metrics: timeMetrics}

var loadGroup = group{section: "Streamable HTTP load", bench: "BenchmarkHTTPLoad", sub: "raw/legacy/c64",
	targets: []string{"ours", "gosdk", "mcpgo", "ceiling"}, metrics: loadMetrics}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
		ok   bool
	}{
		{nil, 0, false},
		{[]float64{3}, 3, true},
		{[]float64{5, 1, 3}, 3, true},
		{[]float64{4, 1, 3, 2}, 2.5, true},
	}
	for _, tt := range tests {
		got, ok := median(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("median(%v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRatiosArePerPass checks that ratios are taken within a pass, then the
// median: a pass where everything ran slow does not skew them.
func TestRatiosArePerPass(t *testing.T) {
	s := fakeStore(t,
		"0 BenchmarkCallTool/memory/modern/seq/ours ns/op=100",
		"0 BenchmarkCallTool/memory/modern/seq/gosdk ns/op=5000",
		"0 BenchmarkCallTool/memory/modern/seq/mcpgo ns/op=400",
		"1 BenchmarkCallTool/memory/modern/seq/ours ns/op=1000",
		"1 BenchmarkCallTool/memory/modern/seq/gosdk ns/op=9000",
		"1 BenchmarkCallTool/memory/modern/seq/mcpgo ns/op=4000",
		"2 BenchmarkCallTool/memory/modern/seq/ours ns/op=300",
		"2 BenchmarkCallTool/memory/modern/seq/gosdk ns/op=200",
		"2 BenchmarkCallTool/memory/modern/seq/mcpgo ns/op=1000",
	)
	m := metric{unit: "ns/op"}
	// Per-pass ratios to the best peer: 100/400, 1000/4000, 300/200.
	if r, ok := s.toBestPeer(callGroup, m, ours); !ok || r != 0.25 {
		t.Errorf("toBestPeer = %v, %v; want 0.25", r, ok)
	}
	if r, ok := s.toTarget(callGroup, m, ours, "mcpgo"); !ok || r != 0.25 {
		t.Errorf("toTarget mcpgo = %v, %v; want 0.25", r, ok)
	}
	if who := s.bestPeerName(callGroup, m); who != "mcpgo" {
		t.Errorf("bestPeerName = %q, want mcpgo (median 1000 against 5000)", who)
	}
}

func TestHigherIsBetter(t *testing.T) {
	s := fakeStore(t,
		"0 BenchmarkHTTPLoad/raw/legacy/c64/ours calls/s=900",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/gosdk calls/s=600",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/mcpgo calls/s=800",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/ceiling calls/s=1000",
	)
	m := metric{unit: "calls/s", higher: true}
	if r, _ := s.toBestPeer(loadGroup, m, ours); r != 900.0/800 {
		t.Errorf("toBestPeer = %v, want %v", r, 900.0/800)
	}
	if r, _ := s.toCeilingBestPeer(loadGroup, m); r != 0.8 {
		t.Errorf("toCeilingBestPeer = %v, want 0.8", r)
	}
}

func TestZeroDenominator(t *testing.T) {
	s := fakeStore(t,
		"0 BenchmarkCallTool/memory/modern/seq/ours allocs/op=0",
		"0 BenchmarkCallTool/memory/modern/seq/mcpgo allocs/op=0",
		"1 BenchmarkCallTool/memory/modern/seq/ours allocs/op=3",
		"1 BenchmarkCallTool/memory/modern/seq/mcpgo allocs/op=0",
		"2 BenchmarkCallTool/memory/modern/seq/ours allocs/op=3",
		"2 BenchmarkCallTool/memory/modern/seq/mcpgo allocs/op=0",
	)
	r, ok := s.toTarget(callGroup, metric{unit: "allocs/op"}, ours, "mcpgo")
	if !ok || !math.IsInf(r, 1) {
		t.Errorf("toTarget = %v, %v; want +Inf", r, ok)
	}
	if got := formatRatio(r); got != "∞" {
		t.Errorf("formatRatio(+Inf) = %q", got)
	}
}

func TestEvaluate(t *testing.T) {
	groups := []group{callGroup, loadGroup}
	base := []string{
		"0 BenchmarkCallTool/memory/modern/seq/ours ns/op=100 B/op=5000 allocs/op=40",
		"0 BenchmarkCallTool/memory/modern/seq/mcpgo ns/op=400 B/op=9000 allocs/op=90",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/ours calls/s=800",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/ceiling calls/s=1000",
	}
	s := fakeStore(t, base...)
	s.skips["BenchmarkHTTPLoad/raw/modern/c64/ours"] = "pending: not yet"
	tests := []struct {
		goal   int
		status string
	}{
		{0, met},    // 100/400 = 0.25 ≤ 0.5
		{1, notMet}, // 5000 B > 4096
		{2, met},    // 40 ≤ 50
		{3, notMet}, // 0.8 < 0.85
		{4, pending},
		{5, pending}, // group not run
	}
	for _, tt := range tests {
		status, detail := s.evaluate(goals[tt.goal], append(groups, group{bench: "BenchmarkHTTPLoad", sub: "raw/modern/c64", targets: loadGroup.targets}))
		if status != tt.status {
			t.Errorf("goal %q: %s (%s), want %s", goals[tt.goal].text, status, detail, tt.status)
		}
	}
	s.fails["BenchmarkCallTool/memory/modern/seq/mcpgo"] = "boom"
	if status, _ := s.evaluate(goals[0], groups); status != failed {
		t.Errorf("with the peer failed: %s, want %s", status, failed)
	}
}

func TestWriteMarkdown(t *testing.T) {
	s := fakeStore(t,
		"0 BenchmarkCallTool/memory/modern/seq/ours ns/op=100 B/op=5000 allocs/op=40",
		"0 BenchmarkCallTool/memory/modern/seq/gosdk ns/op=900 B/op=90000 allocs/op=300",
		"0 BenchmarkCallTool/memory/modern/seq/mcpgo ns/op=400 B/op=9000 allocs/op=90",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/gosdk calls/s=600",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/mcpgo calls/s=800",
		"0 BenchmarkHTTPLoad/raw/legacy/c64/ceiling calls/s=1000",
	)
	s.skips["BenchmarkHTTPLoad/raw/legacy/c64/ours"] = "pending: no HTTP"
	var b strings.Builder
	env := environment{command: "go run ./bench/cmd/report", machine: "test CPU", passes: 1}
	if err := writeMarkdown(&b, env, []group{callGroup, loadGroup}, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"- Command: `go run ./bench/cmd/report`",
		"- Machine: test CPU",
		"shared, loaded machine",
		"- **met**: In-process tools/call (in-memory, default client, sequential): time at most 0.5× mcp-go's — ours ÷ mcpgo = 0.25",
		"- **not met**: In-process tools/call: at most 4 KiB",
		"- **pending**: Streamable HTTP, 64 clients, legacy (raw load generator): at least 0.85× the bare net/http ceiling's calls/s — pending: no HTTP",
		"| CallTool/memory/modern/seq | ns/op ↓ | 100 ns | 900 ns | 400 ns | 0.25 (mcpgo) |",
		"| HTTPLoad/raw/legacy/c64 | calls/s ↑ | pending | 600 | 800 | 1000 | — | — | 0.8 (mcpgo) |",
		"- pending: no HTTP: BenchmarkHTTPLoad/raw/legacy/c64/ours",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\n%s", want, out)
		}
	}
}

func TestPlan(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range plan(fullBudget) {
		if seen[g.name()] {
			t.Errorf("group %s twice", g.name())
		}
		seen[g.name()] = true
		if g.targets[0] != ours {
			t.Errorf("group %s: first target %q, want ours", g.name(), g.targets[0])
		}
	}
	for _, gl := range goals {
		if !seen[gl.group] {
			t.Errorf("goal %q checks group %s, which the plan lacks", gl.text, gl.group)
		}
	}
	g := group{bench: "BenchmarkSchemaCompile", targets: []string{"ours"}}
	if got, want := g.full("ours"), "BenchmarkSchemaCompile/ours"; got != want {
		t.Errorf("full = %q, want %q", got, want)
	}
	if got, want := callGroup.pattern("ours"), "^BenchmarkCallTool$/^memory$/^modern$/^seq$/^ours$"; got != want {
		t.Errorf("pattern = %q, want %q", got, want)
	}
}

func TestRotate(t *testing.T) {
	list := []string{"a", "b", "c"}
	for k, want := range []string{"abc", "bca", "cab", "abc"} {
		if got := strings.Join(rotate(list, k), ""); got != want {
			t.Errorf("rotate(%d) = %s, want %s", k, got, want)
		}
	}
}

func fmtSscan(s string, x *float64) (int, error) { return fmt.Sscan(s, x) }
