package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/mcpserver"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// A logSink collects what a server writes (its log, its stderr) and tells
// waiters when a line holding a given text has been written.
type logSink struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	waiters []sinkWaiter
}

type sinkWaiter struct {
	text string
	ch   chan string // gets the first line holding text
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	s.notify()
	return len(p), nil
}

// notify hands each waiter the first line that holds its text. s.mu is
// held.
func (s *logSink) notify() {
	kept := s.waiters[:0]
	for _, w := range s.waiters {
		if line, ok := lineWith(s.buf.String(), w.text); ok {
			w.ch <- line
			continue
		}
		kept = append(kept, w)
	}
	s.waiters = kept
}

// lineWith returns the first complete line of s holding text.
func lineWith(s, text string) (string, bool) {
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasSuffix(line, "\n") && strings.Contains(line, text) {
			return strings.TrimSuffix(line, "\n"), true
		}
	}
	return "", false
}

// when returns a channel that gets the first line holding text, once it
// is written (at once if it was).
func (s *logSink) when(text string) <-chan string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan string, 1)
	s.waiters = append(s.waiters, sinkWaiter{text, ch})
	s.notify()
	return ch
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// await waits for the line holding text, failing the test after a bound
// that only a broken server reaches.
func (s *logSink) await(t testing.TB, text string) string {
	t.Helper()
	select {
	case line := <-s.when(text):
		return line
	case <-time.After(20 * time.Second):
		t.Fatalf("no line with %q; output so far:\n%s", text, s.String())
		return ""
	}
}

// demoProxy is a Go module proxy serving example.com/demo v1.1.0
// (testdata/go/demo.txtar). When gated, a request for the module's zip
// is announced on asked and answered only once letThrough is called, so that
// a test holds an answer in flight.
type demoProxy struct {
	*httptest.Server
	asked   chan struct{}
	release chan struct{}
	once    sync.Once
}

// letThrough answers the requests for the zip held so far, and those to
// come.
func (p *demoProxy) letThrough() { p.once.Do(func() { close(p.release) }) }

func newDemoProxy(t testing.TB, gated bool) *demoProxy {
	t.Helper()
	zip := testutil.Zip(t, "example.com/demo@v1.1.0/", testutil.TxtarFile(t, "../../testdata/go/demo.txtar"))
	p := &demoProxy{asked: make(chan struct{}, 16), release: make(chan struct{})}
	if !gated {
		p.letThrough()
	}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/example.com/demo/@v/list":
			w.Write([]byte("v1.1.0\n"))
		case "/example.com/demo/@v/v1.1.0.info":
			w.Write([]byte(`{"Version":"v1.1.0"}`))
		case "/example.com/demo/@v/v1.1.0.zip":
			select {
			case p.asked <- struct{}{}:
			default: // nobody is counting
			}
			select {
			case <-p.release:
				w.Write(zip)
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { p.letThrough(); p.Close() })
	return p
}

// newDemoService returns a service that fetches Go modules from proxy.
func newDemoService(t testing.TB, proxy *demoProxy) *service.Service {
	t.Helper()
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")
	svc, err := service.New(&service.Config{GOPROXY: proxy.URL, GOMODCACHE: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// testTeamConfig returns the defaults of the team server's flags, logging
// to sink.
func testTeamConfig(sink io.Writer) teamConfig {
	var o options
	flags(&o, io.Discard)
	return teamConfig{teamOptions: o.team, logger: slog.New(slog.NewTextHandler(sink, nil))}
}

// startTeam serves svc as a team server configured by cfg on ln (a new
// loopback listener when nil) and returns it with the URL of its MCP
// endpoint. The server is drained when the test ends, unless the test
// did so itself.
func startTeam(t testing.TB, svc *service.Service, cfg teamConfig, ln net.Listener) (*teamServer, string) {
	t.Helper()
	return startTeamServer(t, mcpserver.New(svc, "test", nil), cfg, ln)
}

// startTeamServer is startTeam for any MCP server.
func startTeamServer(t testing.TB, server *mcp.Server, cfg teamConfig, ln net.Listener) (*teamServer, string) {
	t.Helper()
	if ln == nil {
		ln = listen(t)
	}
	ts, err := newTeamServer(server, cfg)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- ts.Serve(ln) }()
	t.Cleanup(func() {
		if !ts.health.draining.Load() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := ts.Shutdown(ctx); err != nil {
				t.Errorf("shutdown: %v", err)
			}
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return ts, ts.url(ln.Addr())
}

// listen returns a loopback listener on a free port.
func listen(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// connect opens an MCP client session to url, sending token as a bearer
// token when it is not empty.
func connect(t testing.TB, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	return connectWith(t, url, token, nil)
}

// connectWith is connect through hc (nil: the default client).
func connectWith(t testing.TB, url, token string, hc *http.Client) (*mcp.ClientSession, error) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	tr := mcp.NewStreamableClientTransport(url, &mcp.StreamableClientTransportOptions{Header: h, HTTPClient: hc})
	cs, err := mcp.NewClient("test", "v1", nil).Connect(context.Background(), tr)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// listTools is a tools/list request of protocol 2026-07-28, which needs
// no session.
const listTools = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` +
	`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}}}`

// post sends listTools to url as an MCP client would, with token as a
// bearer token when it is not empty, and returns the response with its
// body read.
func post(t *testing.T, url, token string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(listTools))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/list")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

// get fetches url and returns the response with its body read.
func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// text returns the text of a tool result's content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}
