package main

import (
	"fmt"
	"slices"

	"github.com/gomcp/sdk/bench"
)

// The second front of performance: notification fan-out, large payloads,
// stdio and cold start. Their groups and goals are kept here, apart from
// the request/response ones.

var (
	fanoutMetrics = []metric{
		{unit: "p50-ns"}, {unit: "p99-ns"}, {unit: "max-ns"},
		{unit: "server-B/stream"}, {unit: "server-goroutines/stream"}, {unit: "server-stackB/stream"},
		{unit: "server-cpu-ns/notification"},
	}
	payloadMemoryMetrics = []metric{{unit: "MB/s", higher: true}, {unit: "alloc/payload"}}
	payloadHTTPMetrics   = []metric{{unit: "MB/s", higher: true}, {unit: "client-alloc/payload"}, {unit: "server-alloc/payload"}}
	stdioMetrics         = []metric{{unit: "calls/s", higher: true}, {unit: "cpu-ns/call"}}
	coldStartMetrics     = []metric{{unit: "ns/op"}, {unit: "binary-bytes"}}
)

func init() {
	// After each fan-out goal against a peer: the floor's ratio to that
	// peer, for information (see the method text).
	goalAsides["Fanout/tools/legacy/n10000"] = bench.FloorName
	goalAsides["Fanout/resource/legacy/n10000"] = bench.FloorName
}

// secondFrontPlan returns the groups of the second front, in report order.
func secondFrontPlan(b budget) []group {
	sdks := bench.Names()
	// The fan-out ceiling is net/http's own floor: bare SSE streams.
	fanoutTargets := append(slices.Clone(sdks), bench.CeilingName)
	// The floor is what one small write to a loopback socket per stream
	// costs, below any server.
	targets := append(fanoutTargets, bench.FloorName)
	var gs []group
	for _, kind := range []string{"tools", "resource"} {
		for _, era := range bench.Eras {
			for _, n := range []int{1000, 10000} {
				gs = append(gs, group{"Notification fan-out (streamable HTTP, server in a child process)", "BenchmarkFanout",
					fmt.Sprintf("%s/%s/n%d", kind, era, n), targets, "1x", fanoutMetrics, benchDir})
			}
		}
	}
	for _, pc := range []string{"text1m", "text16m", "blob16m"} {
		for _, tr := range []string{"memory", "http"} {
			metrics := payloadMemoryMetrics
			if tr == "http" {
				metrics = payloadHTTPMetrics
			}
			for _, era := range bench.Eras {
				gs = append(gs, group{"Large payloads", "BenchmarkPayload",
					pc + "/" + tr + "/" + era.String(), sdks, b.payload, metrics, benchDir})
			}
		}
	}
	for _, era := range bench.Eras {
		for _, c := range []int{1, 8} {
			gs = append(gs, group{"stdio (two os.Pipe, client and server in one process)", "BenchmarkStdio",
				fmt.Sprintf("%s/c%d", era, c), sdks, fmt.Sprintf("%dx", b.calls), stdioMetrics, benchDir})
		}
	}
	gs = append(gs, group{"Cold start of a stdio greeter (exec to the tools/list answer)", "BenchmarkColdStart",
		"", sdks, b.start, coldStartMetrics, benchDir})
	return gs
}

// secondFrontGoals are the goals of the second front.
var secondFrontGoals = []goal{
	{"Fan-out: a tools list change reaches 10,000 subscriptions/listen streams in at most 100 ms (p99)",
		"Fanout/tools/modern/n10000", "p99-ns", "", 100e6, false},
	{"Fan-out: a tools list change reaches 10,000 legacy GET streams in at most 100 ms (p99)",
		"Fanout/tools/legacy/n10000", "p99-ns", "", 100e6, false},
	{"Fan-out: at most 4 KiB of server heap per open subscriptions/listen stream",
		"Fanout/tools/modern/n10000", "server-B/stream", "", 4096, false},
	{"Fan-out: at most 4 KiB of server heap per open legacy GET stream",
		"Fanout/tools/legacy/n10000", "server-B/stream", "", 4096, false},
	{"Fan-out, 10,000 legacy streams: p99 delivery at most 1/3 of go-sdk's",
		"Fanout/tools/legacy/n10000", "p99-ns", "gosdk", 1.0 / 3, false},
	{"Fan-out, 10,000 legacy streams: p99 delivery at most 1/3 of mcp-go's",
		"Fanout/tools/legacy/n10000", "p99-ns", "mcpgo", 1.0 / 3, false},
	{"Fan-out, 10,000 legacy streams: server heap per stream at most 1/3 of go-sdk's",
		"Fanout/tools/legacy/n10000", "server-B/stream", "gosdk", 1.0 / 3, false},
	{"Fan-out, 10,000 legacy streams: server heap per stream at most 1/3 of mcp-go's",
		"Fanout/tools/legacy/n10000", "server-B/stream", "mcpgo", 1.0 / 3, false},
	{"Fan-out, 10,000 legacy streams: server CPU per delivered notification at most 1/3 of go-sdk's",
		"Fanout/tools/legacy/n10000", "server-cpu-ns/notification", "gosdk", 1.0 / 3, false},
	{"Fan-out, 10,000 legacy streams: server CPU per delivered notification at most 1/3 of mcp-go's",
		"Fanout/tools/legacy/n10000", "server-cpu-ns/notification", "mcpgo", 1.0 / 3, false},
	{"Fan-out: a resources/updated reaches 10,000 subscriptions/listen streams that name the resource in at most 100 ms (p99)",
		"Fanout/resource/modern/n10000", "p99-ns", "", 100e6, false},
	{"Fan-out: a resources/updated reaches 10,000 legacy GET streams of subscribed sessions in at most 100 ms (p99)",
		"Fanout/resource/legacy/n10000", "p99-ns", "", 100e6, false},
	{"Fan-out: at most 4 KiB of server heap per open subscriptions/listen stream that names a resource",
		"Fanout/resource/modern/n10000", "server-B/stream", "", 4096, false},
	{"Fan-out: at most 4 KiB of server heap per open legacy GET stream of a subscribed session",
		"Fanout/resource/legacy/n10000", "server-B/stream", "", 4096, false},
	{"Fan-out, 10,000 subscribed legacy streams: resources/updated p99 delivery at most 1/3 of go-sdk's (mcp-go keeps no subscriptions)",
		"Fanout/resource/legacy/n10000", "p99-ns", "gosdk", 1.0 / 3, false},
	{"Fan-out, 10,000 subscribed legacy streams: server heap per stream at most 1/3 of go-sdk's",
		"Fanout/resource/legacy/n10000", "server-B/stream", "gosdk", 1.0 / 3, false},
	{"Fan-out, 10,000 subscribed legacy streams: server CPU per delivered resources/updated at most 1/3 of go-sdk's",
		"Fanout/resource/legacy/n10000", "server-cpu-ns/notification", "gosdk", 1.0 / 3, false},
	{"Large payloads: a 16 MiB tools/call answer over HTTP (2026-07-28) allocates at most 3× the payload on the client",
		"Payload/text16m/http/modern", "client-alloc/payload", "", 3, false},
	{"Large payloads: a 16 MiB tools/call answer over HTTP (2026-07-28) allocates at most 3× the payload on the server",
		"Payload/text16m/http/modern", "server-alloc/payload", "", 3, false},
	{"Large payloads: a 16 MiB resources/read blob over HTTP (2026-07-28) allocates at most 3× the payload on the client",
		"Payload/blob16m/http/modern", "client-alloc/payload", "", 3, false},
	{"Large payloads: a 16 MiB resources/read blob over HTTP (2026-07-28) allocates at most 3× the payload on the server",
		"Payload/blob16m/http/modern", "server-alloc/payload", "", 3, false},
	{"Large payloads: 16 MiB tools/call over HTTP (2026-07-28) at least 2× go-sdk's MB/s",
		"Payload/text16m/http/modern", "MB/s", "gosdk", 2, true},
	{"Large payloads: 16 MiB tools/call over HTTP (2026-07-28) at least 2× mcp-go's MB/s",
		"Payload/text16m/http/modern", "MB/s", "mcpgo", 2, true},
	{"Large payloads: 16 MiB resources/read over HTTP (2026-07-28) at least 2× go-sdk's MB/s",
		"Payload/blob16m/http/modern", "MB/s", "gosdk", 2, true},
	{"Large payloads: 16 MiB resources/read over HTTP (2026-07-28) at least 2× mcp-go's MB/s",
		"Payload/blob16m/http/modern", "MB/s", "mcpgo", 2, true},
	{"stdio, 1 caller, legacy: at least 2× mcp-go's calls/s",
		"Stdio/legacy/c1", "calls/s", "mcpgo", 2, true},
	{"stdio, 8 callers, legacy: at least 2× mcp-go's calls/s",
		"Stdio/legacy/c8", "calls/s", "mcpgo", 2, true},
	{"stdio, 1 caller, 2026-07-28: at least 2× mcp-go's calls/s",
		"Stdio/modern/c1", "calls/s", "mcpgo", 2, true},
	{"stdio, 8 callers, 2026-07-28: at least 2× mcp-go's calls/s",
		"Stdio/modern/c8", "calls/s", "mcpgo", 2, true},
	{"Cold start of a stdio greeter: at most go-sdk's time",
		"ColdStart", "ns/op", "gosdk", 1, false},
	{"Cold start of a stdio greeter: at most mcp-go's time",
		"ColdStart", "ns/op", "mcpgo", 1, false},
	{"Latency under load, legacy, 64 clients (raw load generator): p99 at most 1.2× the bare net/http ceiling's",
		"HTTPLoad/raw/legacy/c64", "p99-ns", ceiling, 1.2, false},
	{"Latency under load, 2026-07-28, 64 clients (raw load generator): p99 at most 1.2× the bare net/http ceiling's",
		"HTTPLoad/raw/modern/c64", "p99-ns", ceiling, 1.2, false},
}
