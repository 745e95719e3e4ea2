package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/npm"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// runServe runs `pkgdocs serve --http 127.0.0.1:0 args...` as the
// command does, until the returned function cancels its context; that
// function returns the exit code. sink gets its stderr.
func runServe(ctx context.Context, t *testing.T, args ...string) (endpoint string, sink *logSink, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	sink = &logSink{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"serve", "--http", "127.0.0.1:0"}, args...), io.Discard, sink)
	}()
	line := sink.await(t, "pkgdocs: serving MCP at ")
	endpoint = strings.TrimPrefix(line, "pkgdocs: serving MCP at ")
	stopped := false
	stop = func() int {
		if stopped {
			return 0
		}
		stopped = true
		cancel()
		return <-code
	}
	t.Cleanup(func() { stop() })
	return endpoint, sink, stop
}

// countingAuth serves next to requests whose Authorization is want, counts
// them, and refuses the others with 401.
func countingAuth(want string, n *atomic.Int64, next http.Handler) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			http.Error(w, `{"error":"authentication required"}`, http.StatusUnauthorized)
			return
		}
		n.Add(1)
		next.ServeHTTP(w, r)
	}))
}

// The credentials TestRegistryCredentialsStayOnTheServer gives the server.
const (
	secretNPMToken = "npm_SECRET_a1b2c3d4e5f6"
	secretPIPPass  = "pip_SECRET_f6e5d4c3b2a1"
	secretGOPass   = "go_SECRET_0a9b8c7d6e5f"
	secretGOToken  = "gotok_SECRET_5e6d7c8b9a0f" // a token as the user name, no password
)

// basicAuth is the Authorization header of user and pass.
func basicAuth(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// privateRegistries are the registries of
// TestRegistryCredentialsStayOnTheServer, each counting the requests that
// came with its credentials.
type privateRegistries struct {
	npm, pip, goProxy, goTokenProxy               *httptest.Server
	npmAuthed, pipAuthed, goAuthed, goTokenAuthed atomic.Int64
}

// startPrivateRegistries starts a private npm registry in front of the
// recorded fixtures, which refuses one package as a registry refuses a
// token without access to it; a private Python index that has nothing;
// and two private Go module proxies, the first with nothing, the second
// with example.com/demo. They close when the test ends.
func startPrivateRegistries(t *testing.T) *privateRegistries {
	regs := &privateRegistries{}
	inner := testutil.NewNPMRegistry(t, "../../testdata/npm/registry")
	innerURL, _ := url.Parse(inner.URL)
	fixtures := httputil.NewSingleHostReverseProxy(innerURL)
	regs.npm = countingAuth("Bearer "+secretNPMToken, &regs.npmAuthed, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "forbidden") {
			http.Error(w, `{"error":"forbidden"}`, http.StatusForbidden)
			return
		}
		fixtures.ServeHTTP(w, r)
	}))
	regs.pip = countingAuth(basicAuth("__token__", secretPIPPass), &regs.pipAuthed, http.NotFoundHandler())
	regs.goProxy = countingAuth(basicAuth("gouser", secretGOPass), &regs.goAuthed, http.NotFoundHandler())
	demoURL, _ := url.Parse(newDemoProxy(t, false).URL)
	regs.goTokenProxy = countingAuth(basicAuth(secretGOToken, ""), &regs.goTokenAuthed, httputil.NewSingleHostReverseProxy(demoURL))
	for _, s := range []*httptest.Server{regs.npm, regs.pip, regs.goProxy, regs.goTokenProxy} {
		t.Cleanup(s.Close)
	}
	return regs
}

// useRegistryCredentials points the server's environment at regs, with
// their credentials: the npm token in ~/.npmrc, the others in the
// PIP_INDEX_URL and GOPROXY URLs.
func useRegistryCredentials(t *testing.T, regs *privateRegistries) {
	home := t.TempDir()
	npmrc := filepath.Join(home, ".npmrc")
	if err := os.WriteFile(npmrc, []byte("registry="+regs.npm.URL+"/\n"+npm.NerfDart(regs.npm.URL+"/")+":_authToken="+secretNPMToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("NPM_CONFIG_USERCONFIG", npmrc)
	t.Setenv("PIP_INDEX_URL", strings.Replace(regs.pip.URL, "http://", "http://__token__:"+secretPIPPass+"@", 1)+"/simple/")
	t.Setenv("GOPROXY", strings.Replace(regs.goProxy.URL, "http://", "http://gouser:"+secretGOPass+"@", 1)+","+
		strings.Replace(regs.goTokenProxy.URL, "http://", "http://"+secretGOToken+"@", 1))
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")
}

// askPrivateRegistries asks the server questions the private registries
// answer, refuse or know nothing of, and returns everything the client
// saw: answers, structured content and errors.
func askPrivateRegistries(t *testing.T, cs *mcp.ClientSession) string {
	calls := []struct {
		tool   string
		args   map[string]any
		answer bool // a documentation answer, not an error
	}{
		{"describe_npm_package", map[string]any{"package": "chalk"}, true},
		{"search_package_docs", map[string]any{"language": "npm", "package": "chalk", "query": "color"}, true},
		{"describe_npm_package", map[string]any{"package": "forbidden-pkg"}, false},
		{"describe_npm_package", map[string]any{"package": "no-such-package-anywhere"}, false},
		{"describe_python_package", map[string]any{"package": "requests"}, false},
		{"describe_go_package", map[string]any{"package": "example.com/demo/sub"}, true},
		{"describe_go_package", map[string]any{"package": "example.com/private/mod"}, false},
	}
	var seen strings.Builder
	for _, c := range calls {
		res, err := cs.CallTool(context.Background(), c.tool, c.args, nil)
		if err != nil {
			seen.WriteString(err.Error() + "\n")
			if c.answer {
				t.Errorf("%s %v: %v", c.tool, c.args, err)
			}
			continue
		}
		structured, _ := json.Marshal(res.StructuredContent)
		seen.WriteString(text(res) + "\n" + string(structured) + "\n")
		if res.IsError == c.answer {
			t.Errorf("%s %v: isError %v: %s", c.tool, c.args, res.IsError, text(res))
		}
	}
	return seen.String()
}

// TestRegistryCredentialsStayOnTheServer: the server's .npmrc token, the
// credentials in its PIP_INDEX_URL and in its GOPROXY (a user and
// password, and a token as the user name) are used for the registries
// they belong to, and appear in no answer, no error and no line of its
// log, whether the registry answers, refuses or has nothing.
func TestRegistryCredentialsStayOnTheServer(t *testing.T) {
	regs := startPrivateRegistries(t)
	useRegistryCredentials(t, regs)
	endpoint, sink, stop := runServe(context.Background(), t)
	cs, err := connect(t, endpoint, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := askPrivateRegistries(t, cs)
	if code := stop(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if regs.npmAuthed.Load() == 0 || regs.pipAuthed.Load() == 0 || regs.goAuthed.Load() == 0 || regs.goTokenAuthed.Load() == 0 {
		t.Fatalf("requests with the credentials: npm %d, pip %d, go %d and %d; the test needs each registry to have been asked with them",
			regs.npmAuthed.Load(), regs.pipAuthed.Load(), regs.goAuthed.Load(), regs.goTokenAuthed.Load())
	}
	everything := seen + sink.String()
	for _, secret := range []string{secretNPMToken, secretPIPPass, secretGOPass, secretGOToken,
		strings.TrimPrefix(basicAuth("__token__", secretPIPPass), "Basic "), strings.TrimPrefix(basicAuth("gouser", secretGOPass), "Basic ")} {
		if strings.Contains(everything, secret) {
			t.Errorf("%q reached a client or the log:\n%s", secret, everything)
		}
	}
	for _, want := range []string{"# chalk@", "# example.com/demo/sub@v1.1.0"} {
		if !strings.Contains(everything, want) {
			t.Errorf("no answer %q among:\n%s", want, everything)
		}
	}
}

// TestTelemetryFromEnvironment: with the standard OpenTelemetry variables
// set, the team server's spans, named by the MCP conventions, reach the
// OTLP endpoint they name, flushed when the server stops.
func TestTelemetryFromEnvironment(t *testing.T) {
	var mu sync.Mutex
	var traces []byte // every export's body
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/traces" {
			mu.Lock()
			traces = append(traces, body...)
			mu.Unlock()
		}
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	t.Setenv("OTEL_SERVICE_NAME", "pkgdocs-under-test")
	proxy := newDemoProxy(t, false)
	t.Setenv("GOPROXY", proxy.URL)
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")

	endpoint, _, stop := runServe(context.Background(), t)
	cs, err := connect(t, endpoint, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil); err != nil {
		t.Fatal(err)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	// The spans were flushed before the command returned.
	mu.Lock()
	all := traces
	mu.Unlock()
	for _, want := range []string{"tools/call describe_go_package", "pkgdocs-under-test"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("the exported spans lack %q (%d bytes exported)", want, len(all))
		}
	}
}
