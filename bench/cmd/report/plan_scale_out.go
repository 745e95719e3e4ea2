package main

import "github.com/gomcp/sdk/bench"

// Scale-out: the server CPU a tools/call costs when several instances
// share their state on Redis, against one instance alone.

var scaleOutMetrics = []metric{{unit: "server-cpu-ns/call"}, {unit: "redis-cpu-ns/call"}, {unit: "ns/op"}}

// scaleOutGroups returns the scale-out groups, in the order of the report.
func scaleOutGroups(b budget) []group {
	var gs []group
	for _, era := range bench.Eras {
		gs = append(gs, group{"Scale-out (8 raw sessions through a round-robin proxy; ours = 3 instances on one redis-server, " +
			"redis1 = 1 instance on it, memory1 = 1 instance with the in-memory event store, single = 1 instance without shared state or event store; " +
			"instances in child processes, CPU of all of them)",
			"BenchmarkScaleOut", era.String() + "/c8", []string{ours, "redis1", "memory1", "single"}, b.cpu, scaleOutMetrics})
	}
	return gs
}

// scaleOutGoals are the goals of running several instances.
var scaleOutGoals = []goal{
	{"Scale-out: a 2026-07-28 tools/call through 3 instances on Redis costs at most 1.1× the server CPU of a single instance",
		"ScaleOut/modern/c8", "server-cpu-ns/call", "single", 1.1, false},
	{"Scale-out: a legacy tools/call through 3 instances on Redis costs at most 1.5× the server CPU of a single instance",
		"ScaleOut/legacy/c8", "server-cpu-ns/call", "single", 1.5, false},
	{"Scale-out: a 2026-07-28 tools/call sends Redis nothing (Redis CPU at most 1 µs per call, its idle work included)",
		"ScaleOut/modern/c8", "redis-cpu-ns/call", "", 1000, false},
}

func init() { goals = append(goals, scaleOutGoals...) }
