package otel

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// noopAllocationBudget is the most allocations the instrumentation may add
// to an in-memory tools/call, client and server together, when no span can
// record and no metric is collected.
const noopAllocationBudget = 2

// TestNoopAllocations holds the no-op instrumentation to its budget, in
// both eras, with the no-op providers and with the unset global ones. The
// race detector makes allocation counts vary, so under -race the budget is
// checked by BenchmarkNoopAllocationBudget instead (benchmarks run without
// it).
func TestNoopAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector; BenchmarkNoopAllocationBudget checks the budget")
	}
	checkNoopAllocations(t)
}

// BenchmarkNoopAllocationBudget checks the budget of TestNoopAllocations
// once, for runs of the benchmarks, which are never built with the race
// detector.
func BenchmarkNoopAllocationBudget(b *testing.B) {
	checkNoopAllocations(b)
	for b.Loop() {
	}
}

func checkNoopAllocations(tb testing.TB) {
	for _, era := range []string{mcp.Version20260728, mcp.Version20251125} {
		perCall := func(opts *Options, instrument bool) float64 {
			cs := echoPair(tb, era, opts, instrument)
			ctx := context.Background()
			args := map[string]any{"text": "hello"}
			call := func() {
				if _, err := cs.CallTool(ctx, "echo", args, nil); err != nil {
					tb.Fatal(err)
				}
			}
			call()
			return testing.AllocsPerRun(500, call)
		}
		bare := perCall(nil, false)
		for _, in := range instrumentations[1:3] {
			got := perCall(in.opts(tb), true)
			tb.Logf("%s %s: %.1f allocations per call, %.1f without instrumentation", era, in.name, got, bare)
			if got-bare > noopAllocationBudget {
				tb.Errorf("%s %s: %.1f allocations per call, %.1f more than without instrumentation (budget %d)",
					era, in.name, got, got-bare, noopAllocationBudget)
			}
		}
	}
}
