package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// fakeProxy serves example.com/demo@v1.1.0 as the Go module proxy would.
func fakeProxy(t *testing.T) *httptest.Server {
	zip := testutil.Zip(t, "example.com/demo@v1.1.0/", testutil.TxtarFile(t, "../../testdata/go/demo.txtar"))
	mux := http.NewServeMux()
	mux.HandleFunc("/example.com/demo/@v/list", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("v1.1.0\n")) })
	mux.HandleFunc("/example.com/demo/@v/v1.1.0.info", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"Version":"v1.1.0"}`)) })
	mux.HandleFunc("/example.com/demo/@v/v1.1.0.zip", func(w http.ResponseWriter, r *http.Request) { w.Write(zip) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestToolsOverMCP(t *testing.T) {
	proxy := fakeProxy(t)
	svc, err := service.New(&service.Config{GOPROXY: proxy.URL, GOMODCACHE: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	server := New(svc, "test", nil)
	for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(version, func(t *testing.T) {
			ct, st := mcp.NewInMemoryTransports()
			ss, err := server.Connect(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: version}).Connect(context.Background(), ct)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			checkTools(t, cs)
		})
	}
}

// checkTools lists the tools and calls describe_go_package and
// search_package_docs on the fake module.
func checkTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint {
			t.Errorf("%s is not annotated read-only and idempotent", tool.Name)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
	want := "describe_go_package describe_npm_package describe_python_package describe_rust_package describe_swift_package get_npm_package_doc search_package_docs"
	if strings.Join(names, " ") != want {
		t.Fatalf("tools %v, want %s", names, want)
	}
	res, err := cs.CallTool(ctx, "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].Text
	if res.IsError || !strings.HasPrefix(text, "# example.com/demo/sub@v1.1.0") || !strings.Contains(text, "MaxParts") {
		t.Fatalf("describe_go_package: isError=%v\n%s", res.IsError, text)
	}
	structured, err := mcp.DecodeStructured[struct {
		Name, Version, Ecosystem string
	}](res)
	if err != nil || structured.Version != "v1.1.0" || structured.Ecosystem != "go" {
		t.Errorf("structured content %+v, %v", structured, err)
	}
	res, err = cs.CallTool(ctx, "search_package_docs", map[string]any{"package": "example.com/demo/sub", "query": "MaxParts", "language": "go"}, nil)
	if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "MaxParts") {
		t.Fatalf("search_package_docs: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, "describe_go_package", map[string]any{"package": "example.com/nosuch"}, nil)
	if err != nil || !res.IsError {
		t.Fatalf("unknown package: %v, isError=%v; want a tool error", err, res != nil && res.IsError)
	}
	res, err = cs.CallTool(ctx, "describe_go_package", map[string]any{"pkg": "typo"}, nil)
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, "package") {
		t.Fatalf("bad arguments: %v %+v; want a tool error naming the argument", err, res)
	}
	// A page beyond the last and an unknown GOOS are invalid params.
	for _, args := range []map[string]any{
		{"package": "example.com/demo/sub", "page": 99},
		{"package": "example.com/demo/sub", "goos": "../../x"},
	} {
		_, err = cs.CallTool(ctx, "describe_go_package", args, nil)
		var rpcErr *mcp.JSONRPCError
		if !errors.As(err, &rpcErr) || rpcErr.Code != mcp.CodeInvalidParams {
			t.Errorf("%v: err = %v, want -32602", args, err)
		}
	}
}

// TestBinaryOverStdio builds pkgdocs and talks to `pkgdocs serve` over
// stdio, as an editor would.
func TestBinaryOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "pkgdocs")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/pkgdocs")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	proxy := fakeProxy(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "GOPROXY="+proxy.URL, "GOMODCACHE="+t.TempDir(), "GOFLAGS=-mod=mod")
	cs, err := mcp.NewClient("test", "v1", nil).Connect(context.Background(), mcp.NewCommandTransport(cmd, nil))
	if err != nil {
		t.Fatal(err)
	}
	checkTools(t, cs)
	if err := cs.Close(); err != nil {
		t.Fatalf("server did not exit cleanly when its input closed: %v", err)
	}
}
