package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func TestDescribeAndSearchCommands(t *testing.T) {
	zip := testutil.Zip(t, "example.com/demo@v1.1.0/", testutil.TxtarFile(t, "../../testdata/go/demo.txtar"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/example.com/demo/@v/list":
			w.Write([]byte("v1.1.0\n"))
		case "/example.com/demo/@v/v1.1.0.info":
			w.Write([]byte(`{"Version":"v1.1.0"}`))
		case "/example.com/demo/@v/v1.1.0.zip":
			w.Write(zip)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv("GOPROXY", srv.URL)
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"describe", "go", "example.com/demo/sub"}, 0, "# example.com/demo/sub@v1.1.0\n"},
		{[]string{"describe", "go", "example.com/demo/sub@v1.1.0", "Cut", "--max-tokens", "500"}, 0, "func Cut(s, sep string)"},
		{[]string{"search", "go", "example.com/demo/sub", "Cut"}, 0, "### 1. symbol: Cut"},
		{[]string{"describe", "go", "example.com/demo/sbu"}, 1, "did you mean example.com/demo/sub"},
		{[]string{"describe", "cobol", "x"}, 1, "unknown ecosystem"},
		{[]string{"frobnicate"}, 2, "unknown command"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tt.args, &out, &errOut)
		if code != tt.code || !strings.Contains(out.String()+errOut.String(), tt.contains) {
			t.Errorf("pkgdocs %s: code %d, want %d; output:\n%s%s", strings.Join(tt.args, " "), code, tt.code, out.String(), errOut.String())
		}
	}
}

func TestDescribeLocalSwiftPackage(t *testing.T) {
	dir := t.TempDir()
	for _, f := range testutil.TxtarFile(t, "../../testdata/swift/greeter.txtar") {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"describe", "swift", ".", "Tone", "--project", dir}, &out, &errOut)
	if code != 0 || !strings.HasPrefix(out.String(), "# swift-greeter@local\n") || !strings.Contains(out.String(), "case loud = \"LOUD\"") {
		t.Fatalf("code %d:\n%s%s", code, out.String(), errOut.String())
	}
}

func TestSplitVersion(t *testing.T) {
	tests := []struct{ in, name, version string }{
		{"express@4", "express", "4"},
		{"@types/node", "@types/node", ""},
		{"@types/node@22", "@types/node", "22"},
		{"git@github.com:apple/swift-nio.git", "git@github.com:apple/swift-nio.git", ""},
		{"apple/swift-nio@2.60.0", "apple/swift-nio", "2.60.0"},
	}
	for _, tt := range tests {
		if n, v := splitVersion("", tt.in); n != tt.name || v != tt.version {
			t.Errorf("splitVersion(%q) = %q, %q", tt.in, n, v)
		}
	}
}
