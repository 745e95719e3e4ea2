package events

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// BenchmarkEventsPoll compares an empty poll (nothing new after the
// cursor) with a tools/call of a tool that does nothing, on the same
// stack: in-memory transports, protocol 2026-07-28. The goal is an empty
// poll at most twice the cost of the call.
func BenchmarkEventsPoll(b *testing.B) {
	s, _ := newTestServer(nil, nil)
	s.AddTools(mcp.NewTool("noop", "Does nothing", func(context.Context, *mcp.ServerSession, struct{}) ([]*mcp.Content, error) {
		return nil, nil
	}))
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	c := mcp.NewClient("bench", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20260728})
	EnableClient(c, nil)
	cs, err := c.Connect(ctx, ct)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	start, err := Poll(ctx, cs, &PollParams{Name: "tick.poll"})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("events/poll empty", func(b *testing.B) {
		b.ReportAllocs()
		p := &PollParams{Name: "tick.poll", Arguments: json.RawMessage(`{}`), Cursor: start.Cursor}
		for b.Loop() {
			var res PollResult
			if err := cs.Call(ctx, MethodPoll, p, &res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tools/call", func(b *testing.B) {
		b.ReportAllocs()
		args := map[string]any{}
		for b.Loop() {
			if _, err := cs.CallTool(ctx, "noop", args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEventsPushFanout measures how long one occurrence takes to
// reach 1,000 push streams (one in-memory session each), reporting the
// 99th percentile of the per-stream latencies over all iterations.
func BenchmarkEventsPushFanout(b *testing.B) {
	const streams = 1000
	s, es := newTestServer(&ServerOptions{Heartbeat: time.Hour}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu        sync.Mutex
		latencies []time.Duration
		sent      atomic.Int64 // UnixNano of the current Emit
		arrived   = make(chan struct{}, streams)
		opened    = make(chan struct{}, streams)
		wg        sync.WaitGroup
	)
	for range streams {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		c := mcp.NewClient("bench", "v1", &mcp.ClientOptions{ProtocolVersion: mcp.Version20260728})
		ec := EnableClient(c, nil)
		cs, err := c.Connect(ctx, ct)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		wg.Go(func() {
			_ = ec.Stream(ctx, cs, "tick.push", &StreamOptions{
				opened: func(*string) { opened <- struct{}{} },
				OnEvent: func(context.Context, *Occurrence) error {
					d := time.Since(time.Unix(0, sent.Load()))
					mu.Lock()
					latencies = append(latencies, d)
					mu.Unlock()
					arrived <- struct{}{}
					return nil
				},
			})
		})
	}
	defer func() {
		cancel()
		wg.Wait()
	}()
	for range streams {
		<-opened
	}
	for i := 0; b.Loop(); i++ {
		sent.Store(time.Now().UnixNano())
		if _, err := es.Emit(ctx, "tick.push", tick{N: i}, nil); err != nil {
			b.Fatal(err)
		}
		for range streams {
			<-arrived
		}
	}
	b.StopTimer()
	mu.Lock()
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		b.ReportMetric(float64(latencies[n*99/100].Microseconds())/1000, "p99-ms")
	}
	mu.Unlock()
}
