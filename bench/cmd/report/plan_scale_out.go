package main

import "github.com/gomcp/sdk/bench"

// Scale-out: the server CPU a tools/call costs when several instances
// share their state on Redis, against one instance alone.

var scaleOutMetrics = []metric{{unit: "server-cpu-ns/call"}, {unit: "redis-cpu-ns/call"}, {unit: "ns/op"}}

// scaleOutGroups returns the scale-out groups, in the order of the report.
func scaleOutGroups(b budget) []group {
	var gs []group
	for _, era := range bench.Eras {
		targets := []string{ours, "procs3", "redis1", "memory1", "single"}
		if era == bench.Modern {
			targets = append(targets, "plain3")
		}
		gs = append(gs, group{"Scale-out (8 raw sessions through a round-robin proxy; " +
			"ours = 3 instances on one redis-server, in one child process with GOMAXPROCS=1 as single; " +
			"procs3 = the same 3 instances in 3 child processes with GOMAXPROCS=1 each; " +
			"redis1 = 1 instance on the redis-server, memory1 = 1 instance with the in-memory event store, " +
			"single = 1 instance without shared state or event store, " +
			"plain3 = 3 instances in 3 processes sharing only the requestState key (2026-07-28 only); CPU of all the child processes)",
			"BenchmarkScaleOut", era.String() + "/c8", targets, b.cpu, scaleOutMetrics, benchDir})
	}
	changes := "10x" // one op is one change delivered to every stream
	if b == quickBudget {
		changes = "1x"
	}
	for _, era := range bench.Eras {
		gs = append(gs, group{"Scale-out fan-out (a tool list change made on one of 3 instances on one redis-server, " +
			"to 1,000 streams opened through a round-robin proxy: subscriptions/listen in 2026-07-28, GET streams before; " +
			"instances in child processes)",
			"BenchmarkScaleOutFanOut", era.String() + "/n1000", []string{ours}, changes, scaleOutFanOutMetrics, benchDir})
	}
	return gs
}

var scaleOutFanOutMetrics = []metric{{unit: "p50-ns"}, {unit: "p99-ns"}, {unit: "max-ns"}}

// scaleOutGoals are the goals of running several instances.
var scaleOutGoals = []goal{
	{"Scale-out: a 2026-07-28 tools/call through three instances in one process on one CPU, as the single instance, sharing Redis, " +
		"costs at most 1.1× the server CPU of a single instance",
		"ScaleOut/modern/c8", "server-cpu-ns/call", "single", 1.1, false},
	{"Scale-out: a legacy tools/call through three instances in one process on one CPU, as the single instance, sharing Redis, " +
		"costs at most 1.5× the server CPU of a single instance",
		"ScaleOut/legacy/c8", "server-cpu-ns/call", "single", 1.5, false},
	{"Scale-out: a tool list change reaches 1,000 subscriptions/listen streams spread over 3 instances on Redis in at most 50 ms (p99)",
		"ScaleOutFanOut/modern/n1000", "p99-ns", "", 50e6, false},
	{"Scale-out: a 2026-07-28 tools/call sends Redis nothing (Redis CPU at most 1 µs per call, its idle work included)",
		"ScaleOut/modern/c8", "redis-cpu-ns/call", "", 1000, false},
}

// scaleOutAsides shows, after each scale-out CPU goal, the same three
// instances in three processes (procs3) divided by the single instance, for
// information: three processes on this machine's two cores pay wake-ups and
// cold caches that three busy machines would not (see the method text).
var scaleOutAsides = map[string]string{
	"ScaleOut/modern/c8": "procs3",
	"ScaleOut/legacy/c8": "procs3",
}

func init() {
	goals = append(goals, scaleOutGoals...)
	for g, t := range scaleOutAsides {
		goalAsides[g] = t
	}
}
