package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// progressLog keeps the progress notifications a client receives and
// signals each one.
type progressLog struct {
	mu      sync.Mutex
	got     []mcp.ProgressNotificationParams
	changed chan struct{} // closed and replaced on each notification
}

func newProgressLog() *progressLog { return &progressLog{changed: make(chan struct{})} }

func (l *progressLog) add(_ context.Context, p *mcp.ProgressNotificationParams) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, *p)
	close(l.changed)
	l.changed = make(chan struct{})
}

func (l *progressLog) all() []mcp.ProgressNotificationParams {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]mcp.ProgressNotificationParams(nil), l.got...)
}

// waitFor waits until some notification satisfies ok; false after 10 s.
func (l *progressLog) waitFor(ok func(mcp.ProgressNotificationParams) bool) bool {
	timeout := time.After(10 * time.Second)
	for {
		l.mu.Lock()
		for _, p := range l.got {
			if ok(p) {
				l.mu.Unlock()
				return true
			}
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			return false
		}
	}
}

// partial reports a notification of a download seen part way: "fetching
// X of Y" with X short of Y.
func partial(p mcp.ProgressNotificationParams) bool {
	sofar, total, ok := strings.Cut(strings.TrimPrefix(p.Message, "fetching "), " of ")
	total, _, _ = strings.Cut(total, " (")
	return strings.HasPrefix(p.Message, "fetching ") && ok && sofar != total
}

// gatedProxy serves example.com/demo@v1.1.0 as fakeProxy does, but holds
// each stage until the client has seen the one before: nothing is served
// before the client has been told the answer is resolving, and the module
// zip stops halfway until the client has been told of part of it. The
// stages then reach the client whatever the machine's speed.
func gatedProxy(t *testing.T, log *progressLog) *httptest.Server {
	zip := testutil.Zip(t, "example.com/demo@v1.1.0/", testutil.TxtarFile(t, "../../testdata/go/demo.txtar"))
	resolving := func(p mcp.ProgressNotificationParams) bool { return p.Message == "resolving the version" }
	// gate answers with the start of body, of length size, once the
	// client has been told the answer is resolving.
	gate := func(w http.ResponseWriter, body []byte, size int) {
		if !log.waitFor(resolving) {
			t.Error("the server sent no 'resolving' notification")
		}
		w.Header().Set("Content-Length", strconv.Itoa(size))
		w.Write(body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/example.com/demo/@v/list", func(w http.ResponseWriter, r *http.Request) { gate(w, []byte("v1.1.0\n"), 7) })
	mux.HandleFunc("/example.com/demo/@v/v1.1.0.info", func(w http.ResponseWriter, r *http.Request) { gate(w, []byte(`{"Version":"v1.1.0"}`), 20) })
	mux.HandleFunc("/example.com/demo/@v/v1.1.0.zip", func(w http.ResponseWriter, r *http.Request) {
		gate(w, zip[:len(zip)/2], len(zip))
		w.(http.Flusher).Flush()
		if !log.waitFor(partial) {
			t.Error("the server sent no notification of the zip fetched part way")
		}
		w.Write(zip[len(zip)/2:])
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if !log.waitFor(resolving) {
			t.Error("the server sent no 'resolving' notification")
		}
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// connectPkgdocs returns a client session of a pkgdocs server whose Go
// packages come from proxy, in memory or, with overHTTP, over streamable
// HTTP; stray receives progress notifications of calls that did not ask
// for them.
func connectPkgdocs(t *testing.T, proxy, version string, overHTTP bool, stray *progressLog) *mcp.ClientSession {
	t.Helper()
	svc, err := service.New(&service.Config{GOPROXY: proxy, GOMODCACHE: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	server := New(svc, "test", nil)
	var ct mcp.Transport
	if overHTTP {
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		hs := httptest.NewServer(handler)
		t.Cleanup(hs.Close)
		t.Cleanup(func() { handler.Close() })
		ct = mcp.NewStreamableClientTransport(hs.URL, nil)
	} else {
		var st mcp.Transport
		ct, st = mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
	}
	cs, err := mcp.NewClient("test", "v1", &mcp.ClientOptions{
		ProtocolVersion: version,
		ProgressNotificationHandler: func(ctx context.Context, _ *mcp.ClientSession, p *mcp.ProgressNotificationParams) {
			stray.add(ctx, p)
		},
	}).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// stageOf is the stage a notification's message names.
func stageOf(msg string) int {
	for i, prefix := range []string{"resolving ", "fetching ", "reading ", "done"} {
		if strings.HasPrefix(msg, prefix) {
			return i
		}
	}
	return -1
}

// A cold answer asked with a progress token reports, in order: resolving,
// the module zip fetched part way (bytes so far of the total), and done
// with the files read, progress growing each time and the last with its
// total, which the client has before the result; at most a few, however
// the downloads are cut. The same answer warm reports nothing. In memory
// and over streamable HTTP, in both protocol revisions.
func TestProgressOfAColdAnswer(t *testing.T) {
	for _, overHTTP := range []bool{false, true} {
		for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
			name := version + "/in-memory"
			if overHTTP {
				name = version + "/streamable-HTTP"
			}
			t.Run(name, func(t *testing.T) { checkColdProgress(t, version, overHTTP) })
		}
	}
}

// checkColdProgress asks for a cold answer, then the same warm, with a
// progress token, and checks the notifications.
func checkColdProgress(t *testing.T, version string, overHTTP bool) {
	log, stray := newProgressLog(), newProgressLog()
	cs := connectPkgdocs(t, gatedProxy(t, log).URL, version, overHTTP, stray)
	args := map[string]any{"package": "example.com/demo/sub"}
	res, err := cs.CallTool(context.Background(), "describe_go_package", args, &mcp.CallToolOptions{ProgressHandler: log.add})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("describe_go_package: %+v", res.Content[0])
	}
	// The last notification precedes the result: the client has it
	// when CallTool returns.
	got := log.all()
	if len(got) == 0 || stageOf(got[len(got)-1].Message) != 3 {
		t.Fatalf("no 'done' notification before the result; got %+v", got)
	}
	var msgs []string
	for i, p := range got {
		msgs = append(msgs, p.Message)
		if i > 0 && (p.Progress <= got[i-1].Progress || stageOf(p.Message) < stageOf(got[i-1].Message)) {
			t.Errorf("notification %d %q (progress %v) after %q (progress %v): want later stages, more progress", i, p.Message, p.Progress, got[i-1].Message, got[i-1].Progress)
		}
		if stageOf(p.Message) < 0 {
			t.Errorf("notification %q names no stage", p.Message)
		}
	}
	t.Logf("notifications: %q", msgs)
	last := got[len(got)-1]
	if msgs[0] != "resolving the version" || !strings.HasSuffix(last.Message, "files read") || last.Total != last.Progress || len(got) > 8 {
		t.Errorf("notifications %q (last %+v): want resolving first, done with the files read last, its total equal to its progress, at most 8", msgs, last)
	}
	for _, p := range got[:len(got)-1] {
		if p.Total != 0 {
			t.Errorf("%q has total %v before the end", p.Message, p.Total)
		}
	}
	warm := newProgressLog()
	if _, err := cs.CallTool(context.Background(), "describe_go_package", args, &mcp.CallToolOptions{ProgressHandler: warm.add}); err != nil {
		t.Fatal(err)
	}
	if n := len(warm.all()) + len(stray.all()); n != 0 {
		t.Errorf("the warm answer sent %d notifications, want none", n)
	}
}

// A cold answer asked without a progress token sends no notification
// (the client's session would receive it before the result: notifications
// are handled in order).
func TestNoProgressWithoutToken(t *testing.T) {
	stray := newProgressLog()
	cs := connectPkgdocs(t, fakeProxy(t).URL, mcp.Version20251125, false, stray)
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"search_package_docs", map[string]any{"package": "example.com/demo/sub", "language": "go", "query": "MaxParts"}},
		{"describe_go_package", map[string]any{"package": "example.com/demo", "symbol": "Hello"}},
	} {
		res, err := cs.CallTool(context.Background(), tool.name, tool.args, nil)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool.name, err, res)
		}
	}
	if got := stray.all(); len(got) != 0 {
		t.Errorf("notifications without a token: %+v", got)
	}
}
