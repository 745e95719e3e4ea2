package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// The soak test drives one gomcp streamable HTTP server for a long time
// and checks that nothing is lost or left behind: tools/call at many
// clients in both eras, then legacy sessions opened and deleted. It is
// not part of the normal test run (it takes minutes at full size); run
// it with
//
//	GOMCP_SOAK=1 go test -run TestSoak -timeout 2h -v ./bench
//
// Sizes come from GOMCP_SOAK_CALLS (tools/call per era, default
// 1,000,000), GOMCP_SOAK_SESSIONS (legacy sessions, default 100,000) and
// GOMCP_SOAK_CLIENTS (default 64). The results are written as JSON to
// GOMCP_SOAK_OUT (default soak-results.json in the bench directory), from
// which the report generator adds a section to BENCHMARKS.md.

// SoakResults are what a soak run measured.
type SoakResults struct {
	Date     string `json:"date"`
	Machine  string `json:"machine"`
	Go       string `json:"go"`
	Clients  int    `json:"clients"`
	Sessions int    `json:"sessions"` // legacy sessions opened and deleted
	// Eras are the tools/call phases, one per protocol era.
	Eras []SoakEra `json:"eras"`
	// SessionErrors counts sessions that failed to open, call or delete.
	SessionErrors int64   `json:"sessionErrors"`
	SessionsPerS  float64 `json:"sessionsPerSecond"`
	// LiveSessions is the handler's session gauge at the end.
	LiveSessions int `json:"liveSessions"`
	// Goroutines and RSS of the process (server and clients), warm (after
	// a warm-up, before the soak) and after it, once clients closed.
	GoroutinesWarm  int      `json:"goroutinesWarm"`
	GoroutinesAfter int      `json:"goroutinesAfter"`
	RSSWarm         int64    `json:"rssWarmBytes"`
	RSSAfter        int64    `json:"rssAfterBytes"`
	Pass            bool     `json:"pass"`
	Failures        []string `json:"failures,omitempty"`
}

// SoakEra is one era's tools/call phase.
type SoakEra struct {
	Era      string  `json:"era"`
	Calls    int64   `json:"calls"`
	Errors   int64   `json:"errors"`
	Lost     int64   `json:"lost"` // answered with another call's text, or not at all
	Seconds  float64 `json:"seconds"`
	CallsPer float64 `json:"callsPerSecond"`
}

func soakSize(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func TestSoak(t *testing.T) {
	if os.Getenv("GOMCP_SOAK") == "" {
		t.Skip("set GOMCP_SOAK=1 to run the soak test (minutes at full size); see soak_test.go")
	}
	calls := soakSize("GOMCP_SOAK_CALLS", 1_000_000)
	sessions := soakSize("GOMCP_SOAK_SESSIONS", 100_000)
	clients := soakSize("GOMCP_SOAK_CLIENTS", 64)
	res := SoakResults{
		Date:    time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Machine: fmt.Sprintf("%d CPUs, %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH),
		Go:      runtime.Version(),
		Clients: clients, Sessions: sessions,
	}

	server := mcp.NewServer("soak", "v1", nil)
	server.AddTools(mcp.NewTool(EchoTool, "echo the text back", oursEcho,
		mcp.Input(mcp.Property("text", mcp.Description("the text to echo")))))
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	defer h.Close()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 2*clients + 8
	tr.IdleConnTimeout = mcp.DefaultIdleConnTimeout
	hc := &http.Client{Transport: tr}

	// Warm up, then take the warm level.
	soakCalls(t, ts.URL, hc, Modern, clients, max(calls/50, clients))
	soakCalls(t, ts.URL, hc, Legacy, clients, max(calls/50, clients))
	tr.CloseIdleConnections()
	res.GoroutinesWarm, res.RSSWarm = settledProcess()

	for _, era := range []Era{Modern, Legacy} {
		res.Eras = append(res.Eras, soakCalls(t, ts.URL, hc, era, clients, calls))
	}
	res.SessionErrors, res.SessionsPerS = soakSessions(ts.URL, hc, clients, sessions)
	res.LiveSessions = h.Stats().Sessions

	tr.CloseIdleConnections()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res.GoroutinesAfter, res.RSSAfter = settledProcess()
		if res.GoroutinesAfter <= res.GoroutinesWarm && (res.RSSWarm == 0 || float64(res.RSSAfter) <= 1.1*float64(res.RSSWarm)) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	res.Failures = soakFailures(res)
	res.Pass = len(res.Failures) == 0
	writeSoakResults(t, res)
	for _, f := range res.Failures {
		t.Error(f)
	}
}

// soakCalls makes calls tools/call in era at clients concurrent sessions
// and checks every answer.
func soakCalls(t *testing.T, url string, hc *http.Client, era Era, clients, calls int) SoakEra {
	t.Helper()
	ctx := context.Background()
	out := SoakEra{Era: era.String()}
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		cs, err := oursClient(era).Connect(ctx, mcp.NewStreamableClientTransport(url, &mcp.StreamableClientTransportOptions{HTTPClient: hc}))
		if err != nil {
			t.Fatalf("%s: connect: %v", era, err)
		}
		sessions[i] = cs
	}
	var next, errs, lost atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := next.Add(1)
				if n > int64(calls) {
					return
				}
				text := "c" + strconv.FormatInt(n, 10)
				r, err := cs.CallTool(ctx, EchoTool, map[string]string{"text": text}, nil)
				switch {
				case err != nil:
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				case r.IsError || len(r.Content) != 1 || r.Content[0].Text != text:
					lost.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	out.Seconds = time.Since(start).Seconds()
	out.Calls, out.Errors, out.Lost = int64(calls), errs.Load(), lost.Load()
	out.CallsPer = float64(calls) / out.Seconds
	for _, cs := range sessions {
		cs.Close()
	}
	if e := firstErr.Load(); e != nil {
		t.Logf("%s: first error: %v", era, e)
	}
	return out
}

// soakSessions opens and deletes n legacy sessions at clients at a time,
// each making one call, and returns the failures and sessions per second.
func soakSessions(url string, hc *http.Client, clients, n int) (int64, float64) {
	ctx := context.Background()
	var next, errs atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				cs, err := oursClient(Legacy).Connect(ctx, mcp.NewStreamableClientTransport(url,
					&mcp.StreamableClientTransportOptions{HTTPClient: hc, DisableStandaloneSSE: true}))
				if err != nil {
					errs.Add(1)
					continue
				}
				if r, err := cs.CallTool(ctx, EchoTool, map[string]string{"text": "s"}, nil); err != nil || r.IsError {
					errs.Add(1)
				}
				if err := cs.Close(); err != nil { // sends DELETE
					errs.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return errs.Load(), float64(n) / time.Since(start).Seconds()
}

// settledProcess returns the goroutines and resident memory of the
// process once garbage is collected and returned to the OS.
func settledProcess() (goroutines int, rss int64) {
	for range 3 {
		runtime.GC()
		debug.FreeOSMemory()
		time.Sleep(100 * time.Millisecond)
	}
	return runtime.NumGoroutine(), residentBytes()
}

// residentBytes returns the process's resident set size, or 0 where
// /proc is not available.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// soakFailures lists what the soak's goals did not meet.
func soakFailures(r SoakResults) []string {
	var out []string
	for _, e := range r.Eras {
		if e.Errors != 0 || e.Lost != 0 {
			out = append(out, fmt.Sprintf("%s: %d errors, %d lost responses in %d calls", e.Era, e.Errors, e.Lost, e.Calls))
		}
	}
	if r.SessionErrors != 0 {
		out = append(out, fmt.Sprintf("%d of %d sessions failed", r.SessionErrors, r.Sessions))
	}
	if r.LiveSessions != 0 {
		out = append(out, fmt.Sprintf("%d sessions still live after all were deleted", r.LiveSessions))
	}
	if r.GoroutinesAfter > r.GoroutinesWarm {
		out = append(out, fmt.Sprintf("goroutines grew from %d to %d", r.GoroutinesWarm, r.GoroutinesAfter))
	}
	if r.RSSWarm > 0 && float64(r.RSSAfter) > 1.1*float64(r.RSSWarm) {
		out = append(out, fmt.Sprintf("RSS %d MiB after, more than 110%% of the warm %d MiB", r.RSSAfter>>20, r.RSSWarm>>20))
	}
	return out
}

func writeSoakResults(t *testing.T, r SoakResults) {
	path := os.Getenv("GOMCP_SOAK_OUT")
	if path == "" {
		path = "soak-results.json"
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	t.Logf("soak results in %s:\n%s", path, b)
}
