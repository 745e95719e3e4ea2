package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/auth/authtest"
	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/mcpserver"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/strictjson"
)

// BenchmarkTeamServer makes b.N tools/call from 64 concurrent clients,
// each with its own access token, through the whole team server: access
// log, OAuth (JWT verified, then cached), the caller noted, the MCP
// handler. "pkgdocs" asks for a warm answer (the package in memory, the
// answer rendered before); "greeter" is the greeter's tools/call
// ("Hi Ada") through the same stack in the same run, the ceiling pkgdocs
// is measured against; "greeter-same-size" is a tool that returns, ready
// made, the very result pkgdocs answers (its markdown as text content and
// its structured content), the floor of what that answer costs through
// this stack whatever pkgdocs does to produce it. Rate limits are off,
// since the clients make calls as fast as they can. It reports calls/s
// and the p50 and p99 latency of a call. The target is the last element
// of the name (c64/greeter, c64/pkgdocs, c64/greeter-same-size), as the
// bench runner expects of the targets it compares.
func BenchmarkTeamServer(b *testing.B) {
	for _, target := range []string{"greeter", "pkgdocs", "greeter-same-size"} {
		b.Run("c64/"+target, func(b *testing.B) { benchTeam(b, target, 64) })
	}
}

// greetArgs are the arguments of the greeter's tool.
type greetArgs struct {
	Name string `json:"name"`
}

// newGreeter returns the greeter: one tool, "greet", that answers
// "Hi <name>".
func newGreeter() *mcp.Server {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("greet", "say hi", func(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
	}, mcp.Input(mcp.Property("name", mcp.Description("who to greet")))))
	return server
}

// benchQuestion is the warm question BenchmarkTeamServer asks pkgdocs.
var benchQuestion = service.DescribeGoArgs{Package: "example.com/demo/sub"}

// newSameSizeGreeter returns a server with one tool, named as pkgdocs'
// describe_go_package, that returns a copy of the result pkgdocs answers
// to benchQuestion (rendered once by svc, encoded as the MCP layer
// encodes a structured tool's output): no arguments decoded, no schema
// checked, nothing rendered or encoded per call.
func newSameSizeGreeter(tb testing.TB, svc *service.Service) *mcp.Server {
	tb.Helper()
	doc, err := svc.DescribeGoPackage(context.Background(), benchQuestion)
	if err != nil {
		tb.Fatal(err)
	}
	structured, err := strictjson.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	answer := mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(doc.Markdown)}, StructuredContent: json.RawMessage(structured)}
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	server.AddTools(&mcp.ServerTool{
		Tool: &mcp.Tool{Name: "describe_go_package", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			res := answer // the session completes its copy (resultType)
			return &res, nil
		},
	})
	return server
}

// benchServer returns the MCP server of a target of BenchmarkTeamServer
// and the call its clients make.
func benchServer(b *testing.B, target string) (server *mcp.Server, tool string, args map[string]any) {
	switch target {
	case "pkgdocs":
		return mcpserver.New(newDemoService(b, newDemoProxy(b, false)), "bench", nil), "describe_go_package", map[string]any{"package": benchQuestion.Package}
	case "greeter-same-size":
		return newSameSizeGreeter(b, newDemoService(b, newDemoProxy(b, false))), "describe_go_package", map[string]any{"package": benchQuestion.Package}
	}
	return newGreeter(), "greet", map[string]any{"name": "Ada"}
}

func benchTeam(b *testing.B, target string, clients int) {
	is := authtest.NewIssuer()
	defer is.Close()
	ln := listen(b)
	cfg := testTeamConfig(io.Discard)
	cfg.issuer, cfg.resource, cfg.rateLimit = is.URL, "http://"+ln.Addr().String()+"/mcp", 0
	server, tool, args := benchServer(b, target)
	_, url := startTeamServer(b, server, cfg, ln)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 2*clients+8, 2*clients+8
	hc := &http.Client{Transport: tr}
	defer hc.CloseIdleConnections()
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		var err error
		if sessions[i], err = connectWith(b, url, mint(is, fmt.Sprint("user", i), "pkgdocs:read", url), hc); err != nil {
			b.Fatal(err)
		}
	}
	call := func(w int) error {
		res, err := sessions[w].CallTool(context.Background(), tool, args, nil)
		if err == nil && res.IsError {
			err = errors.New(text(res))
		}
		return err
	}
	// Warm up: every token verified, every connection open, the answer
	// rendered once.
	for range 2 {
		if err := drive(clients, clients, call, nil); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	err := drive(b.N, clients, call, lat)
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// drive makes n calls from workers concurrent workers, noting the
// latency of call i in lat[i] when lat is not nil, and returns the first
// error.
func drive(n, workers int, call func(w int) error, lat []time.Duration) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t0 := time.Now()
				if err := call(w); err != nil {
					errs <- err
					return
				}
				if lat != nil {
					lat[i] = time.Since(t0)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// TestSameSizeGreeterAnswersAsPkgdocs checks that BenchmarkTeamServer's
// floor is the pkgdocs answer: the result of newSameSizeGreeter, read by
// a client, is the result pkgdocs gives, text and structured content
// byte for byte.
func TestSameSizeGreeterAnswersAsPkgdocs(t *testing.T) {
	svc := newDemoService(t, newDemoProxy(t, false))
	call := func(server *mcp.Server) *mcp.CallToolResult {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient("test", "v1", nil).Connect(context.Background(), ct)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": benchQuestion.Package}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := call(mcpserver.New(svc, "bench", nil))
	got := call(newSameSizeGreeter(t, svc))
	if want.IsError || text(got) != text(want) || len(got.Content) != len(want.Content) {
		t.Errorf("text content %q, want pkgdocs' %q", text(got), text(want))
	}
	g, _ := got.StructuredContent.(json.RawMessage)
	w, _ := want.StructuredContent.(json.RawMessage)
	if len(w) == 0 || string(g) != string(w) {
		t.Errorf("structured content %s, want pkgdocs' %s", g, w)
	}
}
