package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// benchReport is the result of gomcp bench.
type benchReport struct {
	Tool            string  `json:"tool"`
	ProtocolVersion string  `json:"protocolVersion"`
	Concurrency     int     `json:"concurrency"`
	DurationMs      float64 `json:"durationMs"`
	Calls           int64   `json:"calls"`
	Errors          int64   `json:"errors"`
	CallsPerSecond  float64 `json:"callsPerSecond"`
	P50Ms           float64 `json:"p50Ms"`
	P99Ms           float64 `json:"p99Ms"`
	MaxMs           float64 `json:"maxMs"`
	FirstError      string  `json:"firstError,omitempty"`
}

func cmdBench(ctx context.Context, c *cmdCtx) error {
	if c.o.tool == "" {
		return usageError("bench: which tool? gomcp bench TARGET --tool NAME [--args JSON] [key=value ...]")
	}
	if c.o.conc < 1 || c.o.duration <= 0 {
		return usageError("bench: -c must be at least 1 and -d positive")
	}
	cctx, cancel := c.oneShot(ctx)
	s, err := c.connect(cctx, mcp.ClientOptions{MaxInFlight: c.o.conc})
	if err != nil {
		cancel()
		return err
	}
	defer s.Close()
	schema := &propSchema{}
	if needsSchema(c.positional) {
		tool, err := findTool(cctx, s, c.o.tool)
		if err != nil {
			cancel()
			return err
		}
		schema = parseSchema(tool.InputSchema)
	}
	cancel()
	args, err := buildArgs(c.env, schema, c.o.args, c.positional)
	if err != nil {
		return err
	}
	rep := runBench(ctx, c, s, args)
	if c.o.json {
		if err := printJSON(c.env.stdout, rep); err != nil {
			return err
		}
	} else {
		w := c.env.stdout
		fmt.Fprintf(w, "%s over %s, %d concurrent callers, %.1fs\n", rep.Tool, rep.ProtocolVersion, rep.Concurrency, rep.DurationMs/1000)
		fmt.Fprintf(w, "calls:   %d (%.0f/s)\n", rep.Calls, rep.CallsPerSecond)
		fmt.Fprintf(w, "latency: p50 %.3fms  p99 %.3fms  max %.3fms\n", rep.P50Ms, rep.P99Ms, rep.MaxMs)
		fmt.Fprintf(w, "errors:  %d\n", rep.Errors)
		if rep.FirstError != "" {
			fmt.Fprintf(w, "first error: %s\n", rep.FirstError)
		}
	}
	if rep.Calls > 0 && rep.Errors == rep.Calls {
		return &cliError{exit: exitToolError, code: "tool_error", msg: "every call failed: " + rep.FirstError}
	}
	return nil
}

// runBench calls the tool from c.o.conc goroutines for c.o.duration.
func runBench(ctx context.Context, c *cmdCtx, s *session, args map[string]any) *benchReport {
	ctx, cancel := context.WithTimeout(ctx, c.o.duration)
	defer cancel()
	var calls, errs atomic.Int64
	var firstErr sync.Once
	rep := &benchReport{Tool: c.o.tool, ProtocolVersion: s.ProtocolVersion(), Concurrency: c.o.conc}
	latencies := make([][]time.Duration, c.o.conc)
	start := time.Now()
	stopLive := liveLine(c, start, &calls, &errs)
	var wg sync.WaitGroup
	for i := range c.o.conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				t0 := time.Now()
				callCtx, cancelCall := context.WithTimeout(ctx, c.o.timeout)
				res, err := s.CallTool(callCtx, c.o.tool, args, nil)
				cancelCall()
				if ctx.Err() != nil {
					return // cut off by the end of the run: not counted
				}
				latencies[i] = append(latencies[i], time.Since(t0))
				calls.Add(1)
				if err == nil && res.IsError {
					err = fmt.Errorf("the tool reported an error")
				}
				if err != nil {
					errs.Add(1)
					firstErr.Do(func() { rep.FirstError = err.Error() })
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopLive()
	var all []time.Duration
	for _, l := range latencies {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	rep.DurationMs = ms(elapsed)
	rep.Calls, rep.Errors = calls.Load(), errs.Load()
	rep.CallsPerSecond = float64(rep.Calls) / elapsed.Seconds()
	if n := len(all); n > 0 {
		rep.P50Ms = ms(all[n*50/100])
		rep.P99Ms = ms(all[min(n*99/100, n-1)])
		rep.MaxMs = ms(all[n-1])
	}
	return rep
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// liveLine redraws a progress line on a terminal's stderr twice a second;
// the returned function erases it.
func liveLine(c *cmdCtx, start time.Time, calls, errs *atomic.Int64) func() {
	if !c.env.stderrTTY {
		return func() {}
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(c.env.stderr, "\r\x1b[K")
				return
			case <-t.C:
				el := time.Since(start)
				fmt.Fprintf(c.env.stderr, "\r%5.1fs  %d calls  %.0f/s  %d errors\x1b[K", el.Seconds(), calls.Load(), float64(calls.Load())/el.Seconds(), errs.Load())
			}
		}
	}()
	return func() { close(done); <-stopped }
}
