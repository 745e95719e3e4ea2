package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestBinomialTail(t *testing.T) {
	tests := []struct {
		n, k int
		want float64
	}{
		{1, 0, 0.5},
		{4, 0, 1.0 / 16},
		{4, 1, 5.0 / 16},
		{4, 4, 1},
		{16, 3, 697.0 / 65536}, // 1 + 16 + 120 + 560
		{10, 20, 1},            // k past n
	}
	for _, tt := range tests {
		if got := binomialTail(tt.n, tt.k); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("binomialTail(%d, %d) = %v, want %v", tt.n, tt.k, got, tt.want)
		}
	}
}

// seq returns 1, 2, …, n in a scrambled order: the interval must not
// depend on the order of the samples.
func seq(n int) []float64 {
	vs := make([]float64, n)
	for i := range vs {
		vs[i] = float64((i*7)%n + 1)
	}
	return vs
}

func TestMedianInterval(t *testing.T) {
	tests := []struct {
		name             string
		in               []float64
		lo, hi, coverage float64
	}{
		// One sample: a point, with no confidence at all.
		{"one", []float64{0.9}, 0.9, 0.9, 0},
		// Five samples cannot reach 95%: the range, 1 - 2/32.
		{"five", seq(5), 1, 5, 1 - 2.0/32},
		// Six: the range covers 1 - 2/64 = 96.9%.
		{"six", seq(6), 1, 6, 1 - 2.0/64},
		// Sixteen: x(4)..x(13), 1 - 2·697/65536; x(5) would give 92.3%.
		{"sixteen", seq(16), 4, 13, 1 - 2*697.0/65536},
		// Twenty: x(6)..x(15), P(B ≤ 5) = 21700/2^20, coverage 95.9%.
		{"twenty", seq(20), 6, 15, 1 - 2*21700.0/(1<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iv, ok := medianInterval(tt.in, confidence)
			if !ok {
				t.Fatal("no interval")
			}
			if iv.lo != tt.lo || iv.hi != tt.hi || math.Abs(iv.coverage-tt.coverage) > 1e-9 {
				t.Errorf("interval %v–%v (%v), want %v–%v (%v)", iv.lo, iv.hi, iv.coverage, tt.lo, tt.hi, tt.coverage)
			}
			if iv.n != len(tt.in) {
				t.Errorf("n = %d, want %d", iv.n, len(tt.in))
			}
		})
	}
	if _, ok := medianInterval(nil, confidence); ok {
		t.Error("an interval from no samples")
	}
}

func TestIntervalVerdict(t *testing.T) {
	tests := []struct {
		lo, hi, limit float64
		atLeast       bool
		want          string
	}{
		{0.90, 0.95, 0.9, true, met},
		{0.91, 0.95, 0.9, true, met},
		{0.85, 0.899, 0.9, true, notMet},
		{0.89, 0.91, 0.9, true, indistinct}, // 0.9 and 0.89 both inside
		{1.0, 1.2, 1.2, false, met},
		{1.21, 1.3, 1.2, false, notMet},
		{1.1, 1.3, 1.2, false, indistinct},
	}
	for _, tt := range tests {
		iv := interval{lo: tt.lo, hi: tt.hi}
		if got := iv.verdict(tt.limit, tt.atLeast); got != tt.want {
			t.Errorf("[%v, %v] against %v (at least: %v): %s, want %s", tt.lo, tt.hi, tt.limit, tt.atLeast, got, tt.want)
		}
	}
}

// protectedStore returns a store of the legacy protected-load group with
// one sample per ratio, ours ÷ unprotected = ratios[i] in sample i (four
// repetitions per pass).
func protectedStore(t *testing.T, ratios []float64) *store {
	t.Helper()
	s := newStore()
	for i, r := range ratios {
		sm := sample{pass: i / 4, rep: i % 4}
		s.addSample(sm, output{results: []result{
			{name: "BenchmarkAuthHTTPLoad/legacy/c64/ours", n: 1, values: map[string]float64{"calls/s": 10000 * r}},
			{name: "BenchmarkAuthHTTPLoad/legacy/c64/unprotected", n: 1, values: map[string]float64{"calls/s": 10000}},
			{name: "BenchmarkAuthHTTPLoad/legacy/c64/header", n: 1, values: map[string]float64{"calls/s": 9500}},
		}})
	}
	return s
}

// TestProtectedLoadInterval checks that the protected-load goals are read
// from every paired run of every pass, with the interval of the median: a
// median of 0.9 whose interval reaches 0.89 is not distinguishable from
// the bound, and the same median from tightly grouped runs is met.
func TestProtectedLoadInterval(t *testing.T) {
	g := group{section: "Authorization", bench: "BenchmarkAuthHTTPLoad", sub: "legacy/c64",
		targets: []string{ours, "unprotected", "header"}, metrics: loadCPUMetrics}
	spread := func(lo, step float64) []float64 {
		rs := make([]float64, 16)
		for i := range rs {
			rs[i] = lo + step*float64((i*5)%16)
		}
		return rs
	}
	tests := []struct {
		name    string
		ratios  []float64
		status  string
		details []string
	}{
		// Sorted, the ratios are 0.85 + 0.0066·j: median 0.8995, interval
		// x(4)–x(13) = 0.8698–0.9292.
		{"wide around the bound", spread(0.85, 0.0066), indistinct, []string{
			"ours ÷ unprotected = 0.899 (median of 16 paired runs; 97.9% confidence interval of the median 0.87–0.929; range 0.85–0.949)",
			"; for information, header ÷ unprotected = 0.95",
		}},
		{"tight above", spread(0.9, 0.001), met, []string{"ours ÷ unprotected = 0.907 (median of 16 paired runs; 97.9% confidence interval of the median 0.903–0.912"}},
		{"tight below", spread(0.88, 0.001), notMet, []string{"confidence interval of the median 0.883–0.892"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := protectedStore(t, tt.ratios)
			if s.passes != 4 {
				t.Fatalf("passes = %d, want 4", s.passes)
			}
			status, detail := s.evaluate(goalFor(t, "AuthHTTPLoad/legacy/c64", "calls/s"), []group{g})
			if status != tt.status {
				t.Errorf("status %s (%s), want %s", status, detail, tt.status)
			}
			for _, want := range tt.details {
				if !strings.Contains(detail, want) {
					t.Errorf("detail %q lacks %q", detail, want)
				}
			}
			var b strings.Builder
			if err := writeMarkdown(&b, environment{passes: 4, repeats: 4}, []group{g}, s); err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("- **%s**: Protected tools/call over streamable HTTP, legacy, 64 clients: at least 0.9× the calls/s of the unprotected handler — %s\n", tt.status, detail)
			if !strings.Contains(b.String(), "- Passes: 4 planned, 4 started; every figure is the median over passes, every ratio the median of ratios taken within one pass (the protected-load groups run 4 times in each pass: their medians are over every run)\n") {
				t.Error("the Passes line does not say the protected-load groups run 4 times a pass")
			}
			if !strings.Contains(b.String(), line) {
				t.Errorf("report lacks %q", line)
			}
		})
	}
}
