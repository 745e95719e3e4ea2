package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
	"github.com/gomcp/sdk/strictjson"
)

// connectTo returns a client session of server over in-memory transports,
// closed when the test ends.
func connectTo(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient("test", "v1", nil).Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// resultBytes calls tool on cs and returns the result as the client read
// it, encoded: text, structured content and isError, or the protocol
// error.
func resultBytes(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), tool, args, nil)
	if err != nil {
		return "error: " + err.Error()
	}
	res.Meta = mcp.Meta{} // the server's identity
	b, err := strictjson.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cachedQuestions are questions of several tools and ecosystems, answers
// and failures, for TestCachedResultsAreIdentical.
var cachedQuestions = []struct {
	tool string
	args map[string]any
}{
	{"describe_go_package", map[string]any{"package": "github.com/spf13/cobra"}},
	{"describe_go_package", map[string]any{"package": "golang.org/x/mod/semver", "symbol": "Compare"}},
	{"describe_go_package", map[string]any{"package": "golang.org/x/mod/semver", "symbol": "NoSuchSymbol"}},
	{"describe_npm_package", map[string]any{"package": "express"}},
	{"describe_npm_package", map[string]any{"package": "lodash", "symbol": "debounce"}},
	{"describe_npm_package", map[string]any{"package": "express", "version": "5.3.0", "maxTokens": 400, "page": 2}},
	{"describe_npm_package", map[string]any{"package": "express", "page": 99}},
	{"get_npm_package_doc", map[string]any{"package": "express", "query": "router"}},
	{"search_package_docs", map[string]any{"language": "npm", "package": "express", "query": "router"}},
	{"search_package_docs", map[string]any{"language": "go", "package": "github.com/spf13/cobra", "query": "command", "limit": 3}},
	{"describe_npm_package", map[string]any{"package": 5}},
}

// TestCachedResultsAreIdentical asks the same questions of a server that
// keeps encoded results and of one that keeps none: every answer, the
// first (encoded) and the second (kept), is byte for byte the uncached
// one, and the kept ones are served from the cache.
func TestCachedResultsAreIdentical(t *testing.T) {
	cfg := &service.Config{
		GOPROXY:    testutil.NewGoProxy(t, "../../testdata/go/proxy").URL,
		GOMODCACHE: t.TempDir(),
		NPM:        service.NPMConfig{Values: map[string]string{"registry": testutil.NewNPMRegistry(t, "../../testdata/npm/registry").URL + "/"}},
	}
	newService := func() *service.Service {
		svc, err := service.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	cache := newEncodedResults(0)
	cached := connectTo(t, newServer(newService(), "test", cache))
	plain := connectTo(t, New(newService(), "test", &Options{EncodedBytes: -1}))
	answers := 0
	for _, q := range cachedQuestions {
		want := resultBytes(t, plain, q.tool, q.args)
		for i := range 2 {
			if got := resultBytes(t, cached, q.tool, q.args); got != want {
				t.Errorf("%s %v, call %d:\n%s\nwant, uncached:\n%s", q.tool, q.args, i+1, got, want)
			}
		}
		if strings.Contains(want, `"structuredContent"`) {
			answers++
		}
	}
	if answers < 7 || len(cache.byAnswer) != answers {
		t.Errorf("%d answers, %d results kept; want at least 7, each kept", answers, len(cache.byAnswer))
	}
}

// TestNewAnswerIsEncodedAfresh: when the service answers with a new
// answer (its package entry replaced when the resolved version expired),
// the result is the new answer's, not the one kept for the old.
func TestNewAnswerIsEncodedAfresh(t *testing.T) {
	answer := &service.DocResult{Provenance: service.Provenance{Name: "demo", Version: "v1.0.0"}, Markdown: "# demo@v1.0.0", Page: 1, Pages: 1}
	server := mcp.NewServer("test", "v1", nil)
	server.AddTools(cachedTool(newEncodedResults(0), "describe", "test", func(context.Context, struct{}) (docAnswer, error) {
		return docAnswer{answer}, nil
	}))
	cs := connectTo(t, server)
	version := func() string {
		res, err := cs.CallTool(context.Background(), "describe", map[string]any{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var doc service.DocResult
		if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &doc); err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].Text; text != "# demo@"+doc.Version {
			t.Fatalf("text %q for version %s", text, doc.Version)
		}
		return doc.Version
	}
	if v := version(); v != "v1.0.0" {
		t.Fatalf("version %s, want v1.0.0", v)
	}
	answer = &service.DocResult{Provenance: service.Provenance{Name: "demo", Version: "v1.1.0"}, Markdown: "# demo@v1.1.0", Page: 1, Pages: 1}
	for range 2 {
		if v := version(); v != "v1.1.0" {
			t.Errorf("version %s after the service answered anew, want v1.1.0", v)
		}
	}
}
