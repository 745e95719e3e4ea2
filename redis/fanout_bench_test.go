package redis_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
)

// BenchmarkListChangedFanOut measures how long a tool added on one
// instance takes to reach 1,000 subscriptions/listen streams spread over
// three instances on Redis (miniredis); it reports the 99th percentile
// and the slowest stream, in milliseconds, per change.
func BenchmarkListChangedFanOut(b *testing.B) {
	const streams = 999 // 333 per instance, under each handler's DefaultMaxListenStreams
	m := miniredis.RunT(b)
	c := startRedisCluster(b, m)
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}},"notifications":{"toolsListChanged":true}}}`
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: streams}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var start time.Time
	var lat []time.Duration
	acked, got := make(chan struct{}, streams), make(chan struct{}, streams)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for i := range streams {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.Instances[i%3], strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "subscriptions/listen")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				switch line := sc.Text(); {
				case strings.Contains(line, "notifications/subscriptions/acknowledged"):
					acked <- struct{}{}
				case strings.Contains(line, "notifications/tools/list_changed"):
					mu.Lock()
					lat = append(lat, time.Since(start))
					mu.Unlock()
					got <- struct{}{}
				}
			}
		})
	}
	for range streams {
		select {
		case <-acked:
		case <-time.After(30 * time.Second):
			b.Fatal("listen streams not acknowledged")
		}
	}
	time.Sleep(100 * time.Millisecond)
	var p99s, maxs []float64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		mu.Lock()
		lat, start = lat[:0], time.Now()
		mu.Unlock()
		c.Servers[0].AddTools(&mcp.ServerTool{Tool: &mcp.Tool{Name: fmt.Sprint("t", i), InputSchema: []byte(`{"type":"object"}`)},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return nil, nil
			}})
		for range streams {
			select {
			case <-got:
			case <-time.After(30 * time.Second):
				b.Fatal("a list change did not reach every stream")
			}
		}
		mu.Lock()
		slices.Sort(lat)
		p99s = append(p99s, float64(lat[len(lat)*99/100])/float64(time.Millisecond))
		maxs = append(maxs, float64(lat[len(lat)-1])/float64(time.Millisecond))
		mu.Unlock()
	}
	b.StopTimer()
	slices.Sort(p99s)
	slices.Sort(maxs)
	b.ReportMetric(p99s[len(p99s)/2], "p99-ms")
	b.ReportMetric(maxs[len(maxs)/2], "max-ms")
	cancel()
}
