package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEventsTeamNames checks the names and -test.bench patterns of the
// groups whose benchmarks live outside the bench package: a target with
// a slash is several name elements, a target "" the benchmark itself.
func TestEventsTeamNames(t *testing.T) {
	byName := map[string]group{}
	for _, g := range eventsTeamGroups(fullBudget) {
		byName[g.name()] = g
	}
	tests := []struct {
		group, target, dir, full, pattern string
	}{
		{"WebhookDelivery", "", webhookDir, "BenchmarkWebhookDelivery", "^BenchmarkWebhookDelivery$"},
		{"EventsPoll", pollEmpty, eventsDir, "BenchmarkEventsPoll/events/poll_empty", "^BenchmarkEventsPoll$/^events$/^poll_empty$"},
		{"EventsPoll", "tools/call", eventsDir, "BenchmarkEventsPoll/tools/call", "^BenchmarkEventsPoll$/^tools$/^call$"},
		{"EventsPushFanout", "", eventsDir, "BenchmarkEventsPushFanout", "^BenchmarkEventsPushFanout$"},
		{"TeamServer/c64", "pkgdocs", teamServerDir, "BenchmarkTeamServer/c64/pkgdocs", "^BenchmarkTeamServer$/^c64$/^pkgdocs$"},
		{"TeamServer/c64", "greeter", teamServerDir, "BenchmarkTeamServer/c64/greeter", "^BenchmarkTeamServer$/^c64$/^greeter$"},
		{"TeamServer/c64", sameSizeFloor, teamServerDir, "BenchmarkTeamServer/c64/greeter-same-size", "^BenchmarkTeamServer$/^c64$/^greeter-same-size$"},
		{"AnswerFromRedis/x-mod-semver", "", pkgdocsShareDir, "BenchmarkAnswerFromRedis/x-mod-semver", "^BenchmarkAnswerFromRedis$/^x-mod-semver$"},
	}
	for _, tt := range tests {
		g, ok := byName[tt.group]
		if !ok {
			t.Errorf("no group %s", tt.group)
			continue
		}
		if !contains(g.targets, tt.target) {
			t.Errorf("group %s does not run target %q", tt.group, tt.target)
		}
		if g.dir != tt.dir || g.full(tt.target) != tt.full || g.pattern(tt.target) != tt.pattern {
			t.Errorf("group %s target %q: dir %s, full %s, pattern %s; want %s, %s, %s",
				tt.group, tt.target, g.dir, g.full(tt.target), g.pattern(tt.target), tt.dir, tt.full, tt.pattern)
		}
	}
	// -run keeps selecting by group name, whatever the package.
	kept, err := selectGroups(plan(quickBudget), "^TeamServer|^Events")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range kept {
		names = append(names, g.name()+"@"+g.dir+"@"+g.benchtime)
	}
	want := "EventsPoll@ext/events@1x EventsPushFanout@ext/events@1x TeamServer/c64@pkgdocs/cmd/pkgdocs@1x"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("-run ^TeamServer|^Events -quick keeps %s, want %s", got, want)
	}
}

// TestEvaluateEventsTeamGoals checks the new goals on the figures as the
// benchmarks report them: events/s and p99-ms of the benchmark itself,
// and ratios within a pass to another target than ours.
func TestEvaluateEventsTeamGoals(t *testing.T) {
	groups := eventsTeamGroups(fullBudget)
	tests := []struct {
		group, unit string
		lines       []string
		skips       map[string]string
		status      string
		detail      string
	}{
		{"WebhookDelivery", "events/s", []string{
			"0 BenchmarkWebhookDelivery events/s=1400",
			"1 BenchmarkWebhookDelivery events/s=900",
			"2 BenchmarkWebhookDelivery events/s=1200",
		}, nil, met, "median 1200"},
		{"WebhookDelivery", "events/s", []string{
			"0 BenchmarkWebhookDelivery events/s=800",
		}, nil, notMet, "median 800"},
		{"EventsPoll", "ns/op", []string{
			"0 BenchmarkEventsPoll/events/poll_empty ns/op=3000",
			"0 BenchmarkEventsPoll/tools/call ns/op=2000",
			"1 BenchmarkEventsPoll/events/poll_empty ns/op=9000",
			"1 BenchmarkEventsPoll/tools/call ns/op=4000",
		}, nil, met, "events/poll_empty ÷ tools/call = 1.88 (median of per-pass ratios)"},
		{"EventsPoll", "ns/op", []string{
			"0 BenchmarkEventsPoll/events/poll_empty ns/op=5000",
			"0 BenchmarkEventsPoll/tools/call ns/op=2000",
		}, nil, notMet, "events/poll_empty ÷ tools/call = 2.5 (median of per-pass ratios)"},
		{"EventsPoll", "ns/op", nil, map[string]string{
			"BenchmarkEventsPoll/events/poll_empty": "pending: package ext/events is not in this checkout",
			"BenchmarkEventsPoll/tools/call":        "pending: package ext/events is not in this checkout",
		}, pending, "pending: package ext/events is not in this checkout"},
		{"EventsPushFanout", "p99-ms", []string{
			"0 BenchmarkEventsPushFanout p99-ms=120",
		}, nil, notMet, "median 120 ms"},
		{"TeamServer/c64", "calls/s", []string{
			"0 BenchmarkTeamServer/c64/pkgdocs calls/s=8500",
			"0 BenchmarkTeamServer/c64/greeter calls/s=10000",
		}, nil, met, "pkgdocs ÷ greeter = 0.85 (median of per-pass ratios)"},
		{"TeamServer/c64", "calls/s", []string{
			"0 BenchmarkTeamServer/c64/pkgdocs calls/s=7000",
			"0 BenchmarkTeamServer/c64/greeter calls/s=10000",
		}, nil, notMet, "pkgdocs ÷ greeter = 0.7 (median of per-pass ratios)"},
		{"AnswerFromRedis/react", "p99-ms", []string{
			"0 BenchmarkAnswerFromRedis/react p99-ms=4.2",
		}, nil, met, "median 4.2 ms"},
		{"AnswerFromRedis/react", "p99-ms", nil, map[string]string{
			"BenchmarkAnswerFromRedis/react": "pending: BenchmarkAnswerFromRedis is not in package pkgdocs/internal/service in this checkout",
		}, pending, "pending: BenchmarkAnswerFromRedis is not in package pkgdocs/internal/service in this checkout"},
	}
	for _, tt := range tests {
		s := fakeStore(t, tt.lines...)
		for name, reason := range tt.skips {
			s.skips[name] = reason
		}
		gl := eventsTeamGoal(t, tt.group, tt.unit)
		status, detail := s.evaluate(gl, groups)
		if status != tt.status || detail != tt.detail {
			t.Errorf("%s: %s (%s), want %s (%s)", gl.text, status, detail, tt.status, tt.detail)
		}
	}
}

// eventsTeamGoal returns the goal of issues 32 and 33 on group's unit.
func eventsTeamGoal(t *testing.T, group, unit string) goal {
	t.Helper()
	for _, gl := range eventsTeamGoals {
		if gl.group == group && gl.unit == unit {
			return gl
		}
	}
	t.Fatalf("no goal on %s %s", group, unit)
	return goal{}
}

// TestRunSeveralPackages builds the test binaries of two packages of a
// small module, one binary each in the same directory, runs a group of
// each with the runner, and finds the groups of a directory that is not
// there, of a directory without tests and of a benchmark not in its
// package pending instead of failed.
func TestRunSeveralPackages(t *testing.T) {
	root := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.25\n")
	write("a/a_test.go", benchSource("a", "BenchmarkA", "x", "y"))
	write("b/c/c_test.go", benchSource("c", "BenchmarkC", "only"))
	write("b/doc.go", "// Package b is a directory with no tests, like ext/events before the events package.\npackage b\n")
	groups := []group{
		{bench: "BenchmarkA", sub: "", targets: []string{"x", "y"}, benchtime: "1x", metrics: []metric{{unit: "things/s"}}, dir: "a"},
		{bench: "BenchmarkC", sub: "", targets: []string{"only"}, benchtime: "1x", metrics: []metric{{unit: "things/s"}}, dir: "b/c"},
		{bench: "BenchmarkGone", sub: "", targets: []string{"z"}, benchtime: "1x", dir: "b/c"},
		{bench: "BenchmarkNew", sub: "", targets: []string{""}, benchtime: "1x", dir: "not/merged"},
		{bench: "BenchmarkB", sub: "", targets: []string{""}, benchtime: "1x", dir: "b"},
	}
	ctx := context.Background()
	tmp := t.TempDir()
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	bins, err := buildBinaries(ctx, root, tmp, groups)
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 4 {
		t.Fatalf("%d binaries, want one per directory (4)", len(bins))
	}
	for _, dir := range []string{"a", "b/c"} {
		if filepath.Dir(bins[dir].path) != tmp {
			t.Errorf("binary of %s is %s, want it in %s", dir, bins[dir].path, tmp)
		}
	}
	r := &runner{bins: bins, groups: groups, passes: 1, repeats: 1, deadline: time.Now().Add(time.Minute), log: io.Discard}
	s := newStore()
	if complete, err := r.run(ctx, s); err != nil || !complete {
		t.Fatalf("run: complete %v, %v", complete, err)
	}
	for name, want := range map[string]float64{"BenchmarkA/x": 1, "BenchmarkA/y": 2, "BenchmarkC/only": 1} {
		if v, ok := s.median(name, "things/s"); !ok || v != want {
			t.Errorf("%s things/s = %v, %v; want %v", name, v, ok, want)
		}
	}
	for name, want := range map[string]string{
		"BenchmarkGone/z": "pending: BenchmarkGone is not in package b/c in this checkout",
		"BenchmarkNew":    "pending: package not/merged is not in this checkout",
		"BenchmarkB":      "pending: package b is not in this checkout",
	} {
		if got := s.skips[name]; got != want {
			t.Errorf("%s: skip %q, want %q", name, got, want)
		}
	}
	if len(s.fails) != 0 {
		t.Errorf("failures: %v", s.fails)
	}
}

// benchSource is a test file of package pkg with benchmark fn, whose
// sub-benchmarks report things/s = their position, from 1.
func benchSource(pkg, fn string, subs ...string) string {
	return "package " + pkg + "\n\nimport \"testing\"\n\nfunc " + fn + "(b *testing.B) {\n" +
		"\tfor i, s := range []string{\"" + strings.Join(subs, "\", \"") + "\"} {\n" +
		"\t\tb.Run(s, func(b *testing.B) {\n\t\t\tfor b.Loop() {\n\t\t\t}\n" +
		"\t\t\tb.ReportMetric(float64(i+1), \"things/s\")\n\t\t})\n\t}\n}\n"
}

// TestEventsTeamMarkdown checks that the new goals are listed under a
// heading of their own, and that their figures table has a "result"
// column for the benchmarks that are their own target.
func TestEventsTeamMarkdown(t *testing.T) {
	s := fakeStore(t,
		"0 BenchmarkWebhookDelivery events/s=1200 ns/op=833000",
		"0 BenchmarkTeamServer/c64/pkgdocs calls/s=9000 p99-ms=12.5",
		"0 BenchmarkTeamServer/c64/greeter calls/s=10000 p99-ms=9",
		"0 BenchmarkTeamServer/c64/greeter-same-size calls/s=9500 p99-ms=10",
	)
	s.skips["BenchmarkEventsPushFanout"] = "pending: package ext/events is not in this checkout"
	var b strings.Builder
	if err := writeMarkdown(&b, environment{passes: 1}, eventsTeamGroups(fullBudget), s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"### Events, webhooks and the pkgdocs team server\n\n- **met**: Webhook delivery with signing",
		"- **met**: pkgdocs team server: a warm answer at 64 clients (access log, OAuth, MCP handler) runs at least 0.8× the calls/s of the greeter's tools/call through the same stack in the same pass — pkgdocs ÷ greeter = 0.9 (median of per-pass ratios); for information, greeter-same-size ÷ greeter = 0.95",
		"- **pending**: Events: an occurrence reaches 1,000 push streams in at most 100 ms (p99 of the per-stream latencies) — pending: package ext/events is not in this checkout",
		"| benchmark | figure | result | events/poll_empty | tools/call | pkgdocs | greeter | greeter-same-size | ours ÷ best peer |",
		"| WebhookDelivery | events/s ↑ | 1200 |  |  |  |  |  | — |",
		"| EventsPushFanout | p99-ms ↓ | pending |  |  |  |  |  | — |",
		"| TeamServer/c64 | calls/s ↑ |  |  |  | 9000 | 10000 | 9500 | — |",
		"| TeamServer/c64 | p99-ms ↓ |  |  |  | 12.5 ms | 9 ms | 10 ms | — |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\n%s", want, out)
		}
	}
	if n := strings.Count(out, "### "+eventsTeamSection); n != 2 {
		t.Errorf("heading %q appears %d times, want 2 (goals, figures)", eventsTeamSection, n)
	}
}
