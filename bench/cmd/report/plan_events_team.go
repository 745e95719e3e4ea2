package main

import "fmt"

// The goals of issues 32 and 33 (events, webhooks, and pkgdocs as a team
// server): their benchmarks live in the packages they measure, not in the
// bench package, so each group names its package directory.

// eventsTeamSection is the heading of their figures and goals.
const eventsTeamSection = "Events, webhooks and the pkgdocs team server"

// Package directories of the groups, relative to the repository root.
const (
	webhookDir      = "ext/events/webhook"
	eventsDir       = "ext/events"
	teamServerDir   = "pkgdocs/cmd/pkgdocs"
	pkgdocsShareDir = "pkgdocs/internal/service"
)

// pollEmpty is the target of BenchmarkEventsPoll's empty poll: its
// sub-benchmark "events/poll empty", as go test names it.
const pollEmpty = "events/poll_empty"

// sameSizeFloor is the target of BenchmarkTeamServer that returns
// pkgdocs' answer ready made: the floor of that answer's cost through the
// team server, shown beside the goal's two targets.
const sameSizeFloor = "greeter-same-size"

// redisQuestions are the sub-benchmarks of BenchmarkAnswerFromRedis: the
// ids of pkgdocs' cold speed questions (speedQuestions in
// pkgdocs/internal/service), one group and goal each.
var redisQuestions = []string{"express", "react-query", "lodash", "react", "types-node", "cobra", "x-mod-semver"}

var (
	webhookMetrics    = []metric{{unit: "events/s", higher: true}, {unit: "ns/op"}, {unit: "B/op"}, {unit: "allocs/op"}}
	pushFanoutMetrics = []metric{{unit: "p99-ms"}, {unit: "ns/op"}}
	teamServerMetrics = []metric{{unit: "calls/s", higher: true}, {unit: "p50-ms"}, {unit: "p99-ms"}, {unit: "B/op"}, {unit: "allocs/op"}}
	fromRedisMetrics  = []metric{{unit: "p50-ms"}, {unit: "p99-ms"}, {unit: "B/op"}, {unit: "allocs/op"}}
)

// eventsTeamGroups returns the groups of issues 32 and 33, in report
// order. A target "" is a benchmark without sub-benchmarks per target.
func eventsTeamGroups(b budget) []group {
	// One op of the push fan-out is one occurrence delivered to 1,000
	// streams; one op of the Redis answer is one new instance answering.
	fanout, fromRedis := "20x", "100x"
	if b == quickBudget {
		fanout, fromRedis = "1x", "1x"
	}
	gs := []group{
		{section: eventsTeamSection, bench: "BenchmarkWebhookDelivery", targets: []string{""},
			benchtime: b.load, metrics: webhookMetrics, dir: webhookDir},
		{section: eventsTeamSection, bench: "BenchmarkEventsPoll", targets: []string{pollEmpty, "tools/call"},
			benchtime: b.micro, metrics: timeMetrics, dir: eventsDir},
		{section: eventsTeamSection, bench: "BenchmarkEventsPushFanout", targets: []string{""},
			benchtime: fanout, metrics: pushFanoutMetrics, dir: eventsDir},
		{section: eventsTeamSection, bench: "BenchmarkTeamServer", sub: "c64", targets: []string{"pkgdocs", "greeter", sameSizeFloor},
			benchtime: b.load, metrics: teamServerMetrics, dir: teamServerDir},
	}
	for _, q := range redisQuestions {
		gs = append(gs, group{section: eventsTeamSection, bench: "BenchmarkAnswerFromRedis", sub: q, targets: []string{""},
			benchtime: fromRedis, metrics: fromRedisMetrics, dir: pkgdocsShareDir})
	}
	return gs
}

// eventsTeamGoals are the goals of issues 32 and 33; BENCHMARKS.md lists
// them under a heading of their own.
var eventsTeamGoals = append([]goal{
	{"Webhook delivery with signing (one event a delivery, HMAC over id.timestamp.body, local TLS receiver, connections reused): at least 1,000 events/s",
		"WebhookDelivery", "events/s", "", 1000, true},
	{"Events: an empty events/poll (nothing after the cursor; in-memory transports, 2026-07-28) costs at most 2× a tools/call of a tool that does nothing on the same session",
		"EventsPoll", "ns/op", "tools/call", 2, false},
	{"Events: an occurrence reaches 1,000 push streams in at most 100 ms (p99 of the per-stream latencies)",
		"EventsPushFanout", "p99-ms", "", 100, false},
	{"pkgdocs team server: a warm answer at 64 clients (access log, OAuth, MCP handler) runs at least 0.8× the calls/s of the greeter's tools/call through the same stack in the same pass",
		"TeamServer/c64", "calls/s", "greeter", 0.8, true},
}, redisGoals()...)

// redisGoals returns one goal per question of BenchmarkAnswerFromRedis.
func redisGoals() []goal {
	gs := make([]goal, 0, len(redisQuestions))
	for _, q := range redisQuestions {
		gs = append(gs, goal{fmt.Sprintf("pkgdocs on Redis: an answer (%s) served from Redis by an instance that never fetched the package costs at most 5 ms (p99)", q),
			"AnswerFromRedis/" + q, "p99-ms", "", 5, false})
	}
	return gs
}

func init() {
	goalSubjects["WebhookDelivery"] = ""
	goalSubjects["EventsPoll"] = pollEmpty
	goalSubjects["EventsPushFanout"] = ""
	goalSubjects["TeamServer/c64"] = "pkgdocs"
	// After the team server goal: the ready-made answer's ratio to the
	// greeter, the floor the goal sits above or below.
	goalAsides["TeamServer/c64"] = sameSizeFloor
	for _, q := range redisQuestions {
		goalSubjects["AnswerFromRedis/"+q] = ""
	}
}
