package main

import (
	"strings"
	"testing"
)

// The OpenTelemetry and authorization load groups show the process's CPU
// time per call next to calls/s, with the ratio of ours to the
// uninstrumented or unprotected run.
func TestLoadGroupsShowCPUPerCall(t *testing.T) {
	want := map[string]string{
		"OTelHTTPLoad/legacy/c64": "uninstrumented", "OTelHTTPLoad/modern/c64": "uninstrumented",
		"AuthHTTPLoad/legacy/c64": "unprotected", "AuthHTTPLoad/modern/c64": "unprotected",
	}
	for _, g := range plan(fullBudget) {
		other, ok := want[g.name()]
		if !ok {
			continue
		}
		delete(want, g.name())
		units := make([]string, len(g.metrics))
		for i, m := range g.metrics {
			units[i] = m.unit
		}
		if !contains(units, "cpu-ns/call") || !contains(units, "calls/s") {
			t.Errorf("group %s reports %v, want calls/s and cpu-ns/call", g.name(), units)
		}
		lines := []string{
			"0 " + g.full(ours) + " calls/s=800 cpu-ns/call=150000",
			"0 " + g.full(other) + " calls/s=1000 cpu-ns/call=100000",
		}
		if strings.HasPrefix(g.name(), "OTel") && !contains(g.targets, "sdkdirect") {
			t.Errorf("group %s runs %v, want sdkdirect too (the SDK's floor)", g.name(), g.targets)
		}
		cells := "150 µs | 100 µs |"
		if contains(g.targets, "sdkdirect") {
			// The floor: the same spans made by calling the SDK directly.
			lines = append(lines, "0 "+g.full("sdkdirect")+" calls/s=850 cpu-ns/call=140000")
			cells += " 140 µs |"
		}
		if contains(g.targets, "sampled10") {
			lines = append(lines, "0 "+g.full("sampled10")+" calls/s=900 cpu-ns/call=120000")
			cells += " 120 µs |"
		}
		if strings.HasPrefix(g.name(), "Auth") && !contains(g.targets, "header") {
			t.Errorf("group %s runs %v, want header too (the token carried, unchecked)", g.name(), g.targets)
		}
		if contains(g.targets, "header") {
			lines = append(lines, "0 "+g.full("header")+" calls/s=950 cpu-ns/call=110000")
			cells += " 110 µs |"
		}
		s := fakeStore(t, lines...)
		var b strings.Builder
		if err := writeMarkdown(&b, environment{passes: 1}, []group{g}, s); err != nil {
			t.Fatal(err)
		}
		row := "| " + g.name() + " | cpu-ns/call ↓ | " + cells + " 1.5 (" + other + ") |"
		if !strings.Contains(b.String(), row) {
			t.Errorf("report lacks %q\n%s", row, b.String())
		}
	}
	for name := range want {
		t.Errorf("plan lacks group %s", name)
	}
}

// TestOTelGoalShowsSDKFloor checks that the OpenTelemetry goals show, after
// their own figure, what the SDK's own calls cost (sdkdirect), so that a
// reader can tell the instrumentation's share from the SDK's.
func TestOTelGoalShowsSDKFloor(t *testing.T) {
	for _, g := range plan(fullBudget) {
		if !strings.HasPrefix(g.name(), "OTelHTTPLoad/") {
			continue
		}
		s := fakeStore(t,
			"0 "+g.full(ours)+" calls/s=700 cpu-ns/call=150000",
			"0 "+g.full("uninstrumented")+" calls/s=1000 cpu-ns/call=100000",
			"0 "+g.full("sdkdirect")+" calls/s=680 cpu-ns/call=140000")
		gl := goalFor(t, g.name(), "calls/s")
		status, detail := s.evaluate(gl, []group{g})
		want := "ours ÷ uninstrumented = 0.7 (median of per-pass ratios); for information, sdkdirect ÷ uninstrumented = 0.68"
		if status != notMet || detail != want {
			t.Errorf("%s: %s (%s), want %s (%s)", g.name(), status, detail, notMet, want)
		}
	}
}
