package main

import (
	"fmt"
)

// A goal is one performance goal of issue 8, checked on one figure of ours:
// either against a fixed limit, or as a ratio to another target measured in
// the same pass.
type goal struct {
	text    string  // what the goal says
	group   string  // group name, as group.name()
	unit    string  // the figure
	other   string  // if set, the figure is ours ÷ other
	limit   float64 // the bound
	atLeast bool    // the figure must be ≥ limit; otherwise ≤ limit
}

// goals are the goals BENCHMARKS.md checks.
var goals = append([]goal{
	{"In-process tools/call (in-memory, default client, sequential): time at most 0.5× mcp-go's",
		"CallTool/memory/modern/seq", "ns/op", "mcpgo", 0.5, false},
	{"In-process tools/call: at most 4 KiB per call (client and server)",
		"CallTool/memory/modern/seq", "B/op", "", 4096, false},
	{"In-process tools/call: at most 50 allocations per call (client and server)",
		"CallTool/memory/modern/seq", "allocs/op", "", 50, false},
	{"Streamable HTTP, 64 clients, legacy (raw load generator): at least 0.85× the bare net/http ceiling's calls/s",
		"HTTPLoad/raw/legacy/c64", "calls/s", ceiling, 0.85, true},
	{"Streamable HTTP, 64 clients, 2026-07-28 (raw load generator): at least 0.85× the bare net/http ceiling's calls/s",
		"HTTPLoad/raw/modern/c64", "calls/s", ceiling, 0.85, true},
	{"Server CPU per call, legacy, 64 clients (raw load generator, server in its own process): at most 1.5× the bare net/http ceiling's",
		"ServerCPU/legacy/c64", "server-cpu-ns/call", ceiling, 1.5, false},
	{"Server CPU per call, 2026-07-28, 64 clients (raw load generator, server in its own process): at most 1.5× the bare net/http ceiling's",
		"ServerCPU/modern/c64", "server-cpu-ns/call", ceiling, 1.5, false},
	{"OpenTelemetry, legacy: streamable HTTP tools/call at 64 clients, server and client instrumented (SDK tracer, batching exporter), at most 25% slower: at least 0.8× the calls/s uninstrumented",
		"OTelHTTPLoad/legacy/c64", "calls/s", "uninstrumented", 0.8, true},
	{"OpenTelemetry, 2026-07-28: streamable HTTP tools/call at 64 clients, server and client instrumented (SDK tracer, batching exporter), at most 25% slower: at least 0.8× the calls/s uninstrumented",
		"OTelHTTPLoad/modern/c64", "calls/s", "uninstrumented", 0.8, true},
	{"Idle legacy HTTP session: at most 2 KiB of heap on the server",
		"IdleSessions/http/legacy", "server-B/session", "", 2048, false},
	{"Idle legacy HTTP session: no goroutine on the server (at most 0.01 per session)",
		"IdleSessions/http/legacy", "server-goroutines/session", "", 0.01, false},
	{"Idle legacy HTTP session: at most 1.5 KiB of heap on the client",
		"IdleSessions/http/legacy", "client-B/session", "", 1536, false},
	{"Idle legacy HTTP session: no goroutine on the client (at most 0.01 per session)",
		"IdleSessions/http/legacy", "client-goroutines/session", "", 0.01, false},
	{"Idle 2026-07-28 HTTP client session: at most 1.5 KiB of heap on the client",
		"IdleSessions/http/modern", "client-B/session", "", 1536, false},
	{"Idle 2026-07-28 HTTP client session: no goroutine on the client (at most 0.01 per session)",
		"IdleSessions/http/modern", "client-goroutines/session", "", 0.01, false},
	{"A 2026-07-28 client starts in one round trip: connecting over streamable HTTP (warm connection) takes at most 1.2× one plain POST's latency",
		"StartLatency/modern", "connect/post", "", 1.2, false},
	{"Schema validation of typical tool arguments as JSON text (what a server receives): time at most 0.2× santhosh-tekuri/jsonschema's",
		"SchemaValidate/json", "ns/op", "santhosh", 0.2, false},
	{"Schema validation of typical tool arguments as JSON text: 0 allocations",
		"SchemaValidate/json", "allocs/op", "", 0, false},
	{"Schema validation of typical tool arguments already decoded (like for like): time at most 0.2× santhosh-tekuri/jsonschema's",
		"SchemaValidate/value", "ns/op", "santhosh", 0.2, false},
	{"Schema validation of typical tool arguments already decoded: 0 allocations",
		"SchemaValidate/value", "allocs/op", "", 0, false},
}, secondFrontGoals...)

// goalAsides names, by group, a target whose ratio to a ratio goal's other
// target is shown after the goal's own figure, for information only. The
// OpenTelemetry goals show sdkdirect: what the OpenTelemetry SDK's own calls
// cost, with no instrumentation of ours around them.
var goalAsides = map[string]string{
	"OTelHTTPLoad/legacy/c64": "sdkdirect",
	"OTelHTTPLoad/modern/c64": "sdkdirect",
}

// goalSubjects names, by group, the target the group's goals judge when it
// is not ours: a benchmark of one package against another target of the
// same run (pkgdocs against the greeter), or the benchmark itself ("")
// when it has no sub-benchmark per target.
var goalSubjects = map[string]string{}

// subject returns the target gl judges: ours, unless goalSubjects names
// another for its group.
func subject(gl goal) string { return groupSubject(gl.group) }

// groupSubject returns the target the goals on the group named name
// judge, which the plan lists first.
func groupSubject(name string) string {
	if t, ok := goalSubjects[name]; ok {
		return t
	}
	return ours
}

// Goal statuses.
const (
	met        = "met"
	notMet     = "not met"
	indistinct = "not distinguishable" // the interval of a repeated group's ratio holds the bound
	pending    = "pending"
	failed     = "failed"
)

// evaluate checks gl against the results and returns its status and the
// figure or the reason behind it.
func (s *store) evaluate(gl goal, groups []group) (status, detail string) {
	var g group
	found := false
	for _, cand := range groups {
		if cand.name() == gl.group {
			g, found = cand, true
		}
	}
	if !found {
		return pending, "not run (filtered out)"
	}
	subj := subject(gl)
	for i, t := range []string{subj, gl.other} {
		if i > 0 && t == "" {
			continue
		}
		name := g.full(t)
		if msg, ok := s.fails[name]; ok {
			return failed, fmt.Sprintf("%s failed: %s", name, msg)
		}
		if reason, ok := s.skips[name]; ok {
			return pending, reason
		}
	}
	if gl.other != "" && repeated[gl.group] {
		return s.evaluateInterval(gl, g)
	}
	var v float64
	var ok bool
	var shown string
	if gl.other != "" {
		v, ok = s.toTarget(g, metric{unit: gl.unit}, subj, gl.other)
		shown = fmt.Sprintf("%s ÷ %s = %.3g (median of per-pass ratios)", subj, gl.other, v) + s.aside(gl, g)
	} else {
		v, ok = s.median(g.full(subj), gl.unit)
		shown = fmt.Sprintf("median %s", formatValue(gl.unit, v))
	}
	if !ok {
		return pending, "not measured"
	}
	if (gl.atLeast && v >= gl.limit) || (!gl.atLeast && v <= gl.limit) {
		return met, shown
	}
	return notMet, shown
}

// evaluateInterval checks a ratio goal on a group run several times per
// pass by the confidence interval of the median of its paired ratios.
func (s *store) evaluateInterval(gl goal, g group) (status, detail string) {
	subj := subject(gl)
	rs := s.ratios(
		func(sm sample) (float64, bool) { return s.value(g.full(subj), sm, gl.unit) },
		func(sm sample) (float64, bool) { return s.value(g.full(gl.other), sm, gl.unit) })
	iv, ok := medianInterval(rs, confidence)
	if !ok {
		return pending, "not measured"
	}
	shown := fmt.Sprintf("%s ÷ %s = %.3g (%s)", subj, gl.other, iv.median, iv) + s.aside(gl, g)
	return iv.verdict(gl.limit, gl.atLeast), shown
}

// aside returns the ratio shown after a ratio goal for information, if
// the goal's group has one (goalAsides).
func (s *store) aside(gl goal, g group) string {
	a, ok := goalAsides[gl.group]
	if !ok {
		return ""
	}
	r, ok := s.toTarget(g, metric{unit: gl.unit}, a, gl.other)
	if !ok {
		return ""
	}
	return fmt.Sprintf("; for information, %s ÷ %s = %.3g", a, gl.other, r)
}
