package main

import "testing"

// TestEvaluateScaleOutGoals checks the scale-out CPU goals: ours (three
// instances in one process) is divided by single pass by pass and judged;
// procs3 ÷ single is shown after it for information and judges nothing.
func TestEvaluateScaleOutGoals(t *testing.T) {
	legacy := group{bench: "BenchmarkScaleOut", sub: "legacy/c8",
		targets: []string{ours, "procs3", "redis1", "memory1", "single"}, metrics: scaleOutMetrics}
	tests := []struct {
		name   string
		lines  []string
		status string
		detail string
	}{
		{"met, procs3 over", []string{
			"0 BenchmarkScaleOut/legacy/c8/ours server-cpu-ns/call=45000",
			"0 BenchmarkScaleOut/legacy/c8/procs3 server-cpu-ns/call=70000",
			"0 BenchmarkScaleOut/legacy/c8/single server-cpu-ns/call=40000",
		}, met, "ours ÷ single = 1.12 (median of per-pass ratios); for information, procs3 ÷ single = 1.75"},
		{"not met", []string{
			"0 BenchmarkScaleOut/legacy/c8/ours server-cpu-ns/call=64000",
			"0 BenchmarkScaleOut/legacy/c8/procs3 server-cpu-ns/call=56000",
			"0 BenchmarkScaleOut/legacy/c8/single server-cpu-ns/call=40000",
		}, notMet, "ours ÷ single = 1.6 (median of per-pass ratios); for information, procs3 ÷ single = 1.4"},
		{"procs3 not run", []string{
			"0 BenchmarkScaleOut/legacy/c8/ours server-cpu-ns/call=44000",
			"0 BenchmarkScaleOut/legacy/c8/single server-cpu-ns/call=40000",
		}, met, "ours ÷ single = 1.1 (median of per-pass ratios)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fakeStore(t, tt.lines...)
			gl := goalFor(t, legacy.name(), "server-cpu-ns/call")
			status, detail := s.evaluate(gl, []group{legacy})
			if status != tt.status || detail != tt.detail {
				t.Errorf("%s: %s (%s), want %s (%s)", gl.text, status, detail, tt.status, tt.detail)
			}
		})
	}
}

// TestGoalAsidesPlanned checks that every target shown beside a goal is
// run by the group the goal checks, in the full plan.
func TestGoalAsidesPlanned(t *testing.T) {
	if len(goalAsides) == 0 {
		t.Fatal("no asides: the scale-out goals should show procs3")
	}
	for name, target := range goalAsides {
		found := false
		for _, g := range plan(fullBudget) {
			if g.name() == name {
				found = true
				if !contains(g.targets, target) {
					t.Errorf("group %s does not run %s, which its goals show", name, target)
				}
			}
		}
		if !found {
			t.Errorf("asides name group %s, which the plan lacks", name)
		}
	}
}
