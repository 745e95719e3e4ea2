package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHealthAndReadiness: /healthz and /readyz answer without a token,
// and only GET and HEAD.
func TestHealthAndReadiness(t *testing.T) {
	_, url, _ := startProtected(t, nil)
	origin := strings.TrimSuffix(url, "/mcp")
	tests := []struct {
		method, path string
		status       int
		body         string
	}{
		{http.MethodGet, "/healthz", http.StatusOK, "ok\n"},
		{http.MethodGet, "/readyz", http.StatusOK, "ready\n"},
		{http.MethodHead, "/readyz", http.StatusOK, ""},
		{http.MethodPost, "/readyz", http.StatusMethodNotAllowed, "method not allowed\n"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, origin+tt.path, nil)
		resp, body := do(t, req)
		if resp.StatusCode != tt.status || body != tt.body {
			t.Errorf("%s %s: %d %q, want %d %q", tt.method, tt.path, resp.StatusCode, body, tt.status, tt.body)
		}
	}
}

// TestShutdownDrains: once shutdown begins, /readyz answers 503 and new
// MCP requests are refused, while the answer in flight finishes and
// reaches its client; then the server stops.
func TestShutdownDrains(t *testing.T) {
	proxy := newDemoProxy(t, true)
	sink := &logSink{}
	ts, url := startTeam(t, newDemoService(t, proxy), testTeamConfig(sink), nil)
	origin := strings.TrimSuffix(url, "/mcp")
	cs, err := connect(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil)
		switch {
		case err != nil:
			answered <- "error: " + err.Error()
		case res.IsError:
			answered <- "tool error: " + text(res)
		default:
			answered <- text(res)
		}
	}()
	<-proxy.asked // the answer is in flight, waiting for the module's zip

	shutdown := make(chan error, 1)
	go func() { shutdown <- ts.Shutdown(context.Background()) }()
	sink.await(t, "shutting down")
	if resp, body := get(t, origin+"/readyz"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz while draining: %d %q, want 503", resp.StatusCode, body)
	}
	if resp, _ := get(t, origin+"/healthz"); resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz while draining: %d, want 200", resp.StatusCode)
	}
	if resp, body := post(t, url, ""); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("new MCP request while draining: %d (Retry-After %q) %q, want 503 with Retry-After 1", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	select {
	case err := <-shutdown:
		t.Fatalf("shutdown returned (%v) with an answer in flight", err)
	default:
	}

	proxy.letThrough()
	if got := <-answered; !strings.HasPrefix(got, "# example.com/demo/sub@v1.1.0\n") {
		t.Errorf("the answer in flight: %q", got)
	}
	if err := <-shutdown; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// TestShutdownDrainDelay: with --drain-delay, /readyz answers 503 at
// once while new requests are still served, until the delay (here
// longer than the test) or the drain deadline ends.
func TestShutdownDrainDelay(t *testing.T) {
	sink := &logSink{}
	cfg := testTeamConfig(sink)
	cfg.drainDelay, cfg.drainTimeout = time.Hour, 2*time.Hour
	ts, url := startTeam(t, newDemoService(t, newDemoProxy(t, false)), cfg, nil)
	ctx, cancel := context.WithCancel(context.Background())
	shutdown := make(chan error, 1)
	go func() { shutdown <- ts.Shutdown(ctx) }()
	sink.await(t, "draining")
	if resp, _ := get(t, strings.TrimSuffix(url, "/mcp")+"/readyz"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz during the delay: %d, want 503", resp.StatusCode)
	}
	if resp, body := post(t, url, ""); resp.StatusCode != http.StatusOK {
		t.Errorf("a new request during the delay: %d %s, want 200", resp.StatusCode, body)
	}
	cancel()
	if err := <-shutdown; !errors.Is(err, context.Canceled) {
		t.Errorf("shutdown cut short: %v", err)
	}
}

// TestShutdownIsBounded: an answer that does not finish within the drain
// time is cancelled, and shutdown says so instead of waiting for it.
func TestShutdownIsBounded(t *testing.T) {
	proxy := newDemoProxy(t, true) // never released
	ts, url := startTeam(t, newDemoService(t, proxy), testTeamConfig(&logSink{}), nil)
	cs, err := connect(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil)
		if err == nil && res.IsError {
			err = errors.New(text(res))
		}
		answered <- err
	}()
	<-proxy.asked
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := ts.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("shutdown with an answer stuck: %v, want the deadline exceeded", err)
	}
	if err := <-answered; err == nil {
		t.Error("the stuck call succeeded")
	}
}

// TestAccessLog: one record per request with who made it, never the
// token, even when a client puts one in the query string.
func TestAccessLog(t *testing.T) {
	is, url, sink := startProtected(t, nil)
	token := mint(is, "alice", "pkgdocs:read", url)
	cs, err := connect(t, url, token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil); err != nil {
		t.Fatal(err)
	}
	line := sink.await(t, "mcp_method=tools/call")
	for _, want := range []string{"msg=request", "method=POST", "path=/mcp", "status=200", "subject=alice", "client_id=agent", "mcp_name=describe_go_package", "duration="} {
		if !strings.Contains(line, want) {
			t.Errorf("access log record lacks %s: %s", want, line)
		}
	}
	if resp, _ := post(t, url+"?access_token="+token, ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("token in the query string: %d, want 401", resp.StatusCode)
	}
	sink.await(t, "status=401")
	if strings.Contains(sink.String(), token) {
		t.Errorf("the log holds the token:\n%s", sink.String())
	}
}

// TestTeamFlagsNeedHTTP: the team server's flags given to the stdio
// server are an error, not silently ignored.
func TestTeamFlagsNeedHTTP(t *testing.T) {
	for _, args := range [][]string{{"--issuer", "https://auth.example.com"}, {"--rate-limit", "1"}, {"--stateless"}} {
		var out, errOut strings.Builder
		code := run(context.Background(), append([]string{"serve"}, args...), &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "need --http ADDR") {
			t.Errorf("pkgdocs serve %s: code %d, stderr %q", strings.Join(args, " "), code, errOut.String())
		}
	}
}

// TestTeamServerRefusesProjectPath: a server with a public URL does not
// read its own directories for clients, unless told to.
func TestTeamServerRefusesProjectPath(t *testing.T) {
	tests := []struct {
		public  bool // served with --resource
		allow   bool // --allow-project-path
		refused bool
	}{
		{false, false, false}, // localhost: the client's directories are the server's
		{true, false, true},
		{true, true, false},
	}
	for _, tt := range tests {
		cfg := testTeamConfig(&logSink{})
		ln := listen(t)
		if tt.public {
			cfg.resource = "http://" + ln.Addr().String() + "/mcp"
		}
		cfg.allowProjectPath = tt.allow
		_, url := startTeam(t, newDemoService(t, newDemoProxy(t, false)), cfg, ln)
		cs, err := connect(t, url, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range []map[string]any{
			{"package": "example.com/demo/sub", "projectPath": t.TempDir()},
			{"package": "example.com/demo/sub", "ProjectPath": "/"},
		} {
			_, err := cs.CallTool(context.Background(), "describe_go_package", args, nil)
			if refused := err != nil && strings.Contains(err.Error(), "shared server"); refused != tt.refused {
				t.Errorf("public %v, allow %v, %v: %v; want refused %v", tt.public, tt.allow, args, err, tt.refused)
			}
		}
		res, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub", "projectPath": ""}, nil)
		if err != nil || res.IsError {
			t.Errorf("public %v: an empty projectPath: %v %v", tt.public, err, res)
		}
	}
}
