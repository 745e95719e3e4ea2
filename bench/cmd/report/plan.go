package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gomcp/sdk/bench"
)

// A metric is one figure a group reports, by its go test unit.
type metric struct {
	unit      string
	higher    bool // higher is better (throughput); otherwise lower is
	vsCeiling bool // the report divides it by the ceiling's, in groups that have one
}

var (
	timeMetrics = []metric{{unit: "ns/op"}, {unit: "B/op"}, {unit: "allocs/op"}}
	idleMetrics = []metric{
		{unit: "server-B/session"}, {unit: "server-goroutines/session"}, {unit: "server-stackB/session"},
		{unit: "client-B/session"}, {unit: "client-goroutines/session"}, {unit: "client-stackB/session"},
	}
	loadMetrics  = []metric{{unit: "calls/s", higher: true, vsCeiling: true}, {unit: "p50-ns"}, {unit: "p99-ns"}, {unit: "B/op"}, {unit: "allocs/op"}}
	cpuMetrics   = []metric{{unit: "server-cpu-ns/call", vsCeiling: true}}
	startMetrics = []metric{{unit: "connect-ns"}, {unit: "post-ns"}, {unit: "connect/post"}}
)

// A group is one comparison: the same benchmark run for several targets
// (SDKs, schema libraries or the ceiling), each as the last element (or
// elements) of the benchmark's name. A target "" is the benchmark itself,
// for a benchmark that has no sub-benchmark per target.
type group struct {
	section   string   // the heading the group is listed under
	bench     string   // top-level benchmark function, e.g. BenchmarkCallTool
	sub       string   // sub-benchmark path without the target, e.g. memory/modern/seq
	targets   []string // last name elements, ours first
	benchtime string   // -test.benchtime of one run
	metrics   []metric
	dir       string // the benchmark's package directory, relative to the repository root
}

// benchDir is the package directory of the bench package, where most
// groups' benchmarks live.
const benchDir = "bench"

// path is the group's name elements: bench, then sub's elements.
func (g group) path() []string {
	if g.sub == "" {
		return []string{g.bench}
	}
	return append([]string{g.bench}, strings.Split(g.sub, "/")...)
}

// name is the group's name: bench without "Benchmark", then sub.
func (g group) name() string {
	return strings.TrimPrefix(strings.Join(g.path(), "/"), "Benchmark")
}

// elems is the name elements of one target: the group's path, then the
// target's own elements (none for the target "").
func (g group) elems(target string) []string {
	if target == "" {
		return g.path()
	}
	return append(g.path(), strings.Split(target, "/")...)
}

// full is the full benchmark name of one target.
func (g group) full(target string) string { return strings.Join(g.elems(target), "/") }

// pattern is the -test.bench pattern that runs just one target.
func (g group) pattern(target string) string {
	parts := g.elems(target)
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// budget sets the size of each run.
type budget struct {
	micro   string // benchtime of micro-benchmarks (time-based, they end by themselves)
	setup   string // benchtime of session setup
	start   string // benchtime of client start latency (one op: a connect and a POST)
	calls   int    // calls of one HTTP load run at 1 and 8 clients
	load    string // benchtime of one HTTP load run at 64 clients (the goals')
	cpu     string // benchtime of one server CPU run (one op: one call)
	payload string // benchtime of one large-payload run
	repeats int    // runs per pass of each repeated group
}

var (
	fullBudget  = budget{micro: "200ms", setup: "100ms", start: "400x", calls: 3000, load: "1s", cpu: "1s", payload: "10x", repeats: 4}
	quickBudget = budget{micro: "1x", setup: "1x", start: "1x", calls: 1, load: "1x", cpu: "1x", payload: "1x", repeats: 2}
)

// plan returns every group, in the order of the report.
func plan(b budget) []group {
	sdks := bench.Names()
	var gs []group
	for _, tr := range []string{"memory", "pipe"} {
		for _, era := range bench.Eras {
			for _, mode := range []string{"seq", "par"} {
				gs = append(gs, group{"In-process tools/call", "BenchmarkCallTool",
					tr + "/" + era.String() + "/" + mode, sdks, b.micro, timeMetrics, benchDir})
			}
		}
	}
	libs := []string{"ours", "google", "santhosh"}
	gs = append(gs,
		group{"JSON Schema", "BenchmarkSchemaValidate", "value", libs, b.micro, timeMetrics, benchDir},
		group{"JSON Schema", "BenchmarkSchemaValidate", "json", libs, b.micro, timeMetrics, benchDir})
	gs = append(gs, group{"JSON Schema", "BenchmarkSchemaCompile", "", libs, b.micro, timeMetrics, benchDir})
	for _, sub := range []string{"memory", "http/legacy", "http/modern"} {
		gs = append(gs, group{"Idle sessions (1,000 sessions)", "BenchmarkIdleSessions", sub, sdks, "1x", idleMetrics, benchDir})
	}
	for _, tr := range []string{"memory", "http"} {
		for _, era := range bench.Eras {
			gs = append(gs, group{"Session setup", "BenchmarkSetup", tr + "/" + era.String(), sdks, b.setup, timeMetrics, benchDir})
		}
	}
	gs = append(gs, group{"Client start (2026-07-28, streamable HTTP, warm connection)", "BenchmarkStartLatency",
		bench.Modern.String(), sdks, b.start, startMetrics, benchDir})
	calls := fmt.Sprintf("%dx", b.calls)
	withCeiling := append(append([]string(nil), sdks...), ceiling)
	for _, kind := range []string{"sdk", "raw"} {
		targets := sdks
		if kind == "raw" {
			targets = withCeiling
		}
		for _, era := range bench.Eras {
			for _, c := range []int{1, 8, 64} {
				benchtime := calls
				if c == 64 {
					// The goals' runs last about a second each, so that
					// scheduling and GC noise average out.
					benchtime = b.load
				}
				gs = append(gs, group{"Streamable HTTP load", "BenchmarkHTTPLoad",
					fmt.Sprintf("%s/%s/c%d", kind, era, c), targets, benchtime, loadMetrics, benchDir})
			}
		}
	}
	for _, era := range bench.Eras {
		gs = append(gs, group{"OpenTelemetry overhead (streamable HTTP, 64 clients; ours = server and client instrumented, SDK tracer with a batching exporter; sdkdirect = the same spans and measurements made by calling the SDK directly; sampled10 = ours sampling one new trace in ten)",
			"BenchmarkOTelHTTPLoad", era.String() + "/c64", []string{ours, "uninstrumented", "sdkdirect", "sampled10"}, b.load, loadCPUMetrics, benchDir})
	}
	for _, era := range bench.Eras {
		for _, c := range []int{8, 64} {
			gs = append(gs, group{"Server CPU per call (streamable HTTP, server in a child process, raw load generator)",
				"BenchmarkServerCPU", fmt.Sprintf("%s/c%d", era, c), withCeiling, b.cpu, cpuMetrics, benchDir})
		}
	}
	gs = append(gs, authGroups(b)...)
	gs = append(gs, scaleOutGroups(b)...)
	gs = append(gs, secondFrontPlan(b)...)
	return append(gs, eventsTeamGroups(b)...)
}
