// Package bench measures gomcp (github.com/gomcp/sdk) side by side with the
// official Go SDK (github.com/modelcontextprotocol/go-sdk) and
// github.com/mark3labs/mcp-go, doing the same work with each, written the way
// each SDK's documentation recommends.
//
// The package holds one adapter per SDK (see [SDK]), the SDK-neutral pieces
// the benchmarks share (a raw JSON-RPC load generator, a bare net/http
// ceiling handler, a latency recorder, heap and goroutine accounting, child
// processes serving one handler and reporting their own CPU time) and the
// JSON Schema fixtures. The benchmarks themselves are in the package's test
// files; the runner in ./cmd/report runs them pass by pass and writes
// BENCHMARKS.md.
//
// Every benchmark is bounded: it does b.N operations and ends by itself, and
// every network benchmark listens on 127.0.0.1 only. Run them once each, as
// CI does, with
//
//	go test -run XXX -bench . -benchtime=1x ./bench/...
//
// Absolute times depend on the machine and its load; only ratios measured
// in one run mean anything.
package bench
