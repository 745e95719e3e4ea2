package mcp

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fileTree creates a resource directory and, next to it, files it must not
// serve. It returns the resource directory.
func fileTree(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	dir := filepath.Join(top, "served")
	outside := filepath.Join(top, "outside")
	for _, d := range []string{dir, outside, filepath.Join(dir, "sub", "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"served/data.json":           `{"a":1}`,
		"served/page.html":           "<p>hi</p>",
		"served/image.png":           "\x89PNG\r\n\x1a\n\x00\x00",
		"served/notes":               "plain UTF-8 text, é",
		"served/blob":                "\x00\x01\x02\xff",
		"served/latin1.html":         "caf\xe9",
		"served/with space.json":     `[]`,
		"served/sub/dir/nested.json": `{"nested":true}`,
		"outside/secret.txt":         "secret",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(top, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"served/link-in":      filepath.Join("sub", "dir", "nested.json"),
		"served/link-out":     filepath.Join("..", "outside", "secret.txt"),
		"served/link-abs-out": filepath.Join(outside, "secret.txt"),
		"served/linkdir-out":  filepath.Join("..", "outside"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(top, name)); err != nil {
			t.Skipf("symbolic links not available: %v", err)
		}
	}
	big, err := os.Create(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(maxFileResourceSize + 1); err != nil { // sparse: cheap
		t.Fatal(err)
	}
	big.Close()
	return dir
}

// fileOutcome is what reading a file:// URI gives.
type fileOutcome struct {
	mimeType string // for success: the MIME type; "" for an error
	text     string // text contents, or "" for a blob
	blob     bool
	notFound bool
	refused  bool
}

func TestFileResourceHandler(t *testing.T) {
	dir := fileTree(t)
	handler := FileResourceHandler(dir)
	ok := func(mimeType, text string) fileOutcome { return fileOutcome{mimeType: mimeType, text: text} }
	blob := func(mimeType string) fileOutcome { return fileOutcome{mimeType: mimeType, blob: true} }
	notFound := fileOutcome{notFound: true}
	refused := fileOutcome{refused: true}
	tests := []struct {
		uri  string
		want fileOutcome
	}{
		{"file:///data.json", ok("application/json", `{"a":1}`)},
		{"file://localhost/data.json", ok("application/json", `{"a":1}`)},
		{"file:///page.html", ok("text/html; charset=utf-8", "<p>hi</p>")},
		{"file:///image.png", blob("image/png")},
		{"file:///notes", ok("text/plain; charset=utf-8", "plain UTF-8 text, é")},
		{"file:///blob", blob("application/octet-stream")},
		{"file:///latin1.html", blob("text/html; charset=utf-8")},
		{"file:///with%20space.json", ok("application/json", `[]`)},
		{"file:///sub/dir/nested.json", ok("application/json", `{"nested":true}`)},
		{"file:////sub//dir/nested.json", ok("application/json", `{"nested":true}`)},
		{"file:///link-in", ok("text/plain; charset=utf-8", `{"nested":true}`)},
		{"file:///missing.json", notFound},
		{"file:///sub/missing.json", notFound},
		{"file:////etc/passwd", notFound}, // dir/etc/passwd
		// Escapes.
		{"file:///link-out", refused},
		{"file:///link-abs-out", refused},
		{"file:///linkdir-out/secret.txt", refused},
		{"file:///../outside/secret.txt", refused},
		{"file:///sub/../data.json", refused},
		{"file:///%2e%2e/outside/secret.txt", refused},
		{"file:///sub%2F..%2F..%2Foutside%2Fsecret.txt", refused},
		{"file:///sub%2fdir%2fnested.json", refused},
		{"file:///sub%5Cdir%5Cnested.json", refused},
		{"file:///data.json%00.png", refused},
		{`file:///sub\dir\nested.json`, refused},
		// Not files.
		{"file:///", refused},
		{"file:///sub", refused},
		{"file:///big", refused},
		// Not local file URIs.
		{"file://evil.example/data.json", refused},
		{"file://user@localhost/data.json", refused},
		{"file:///data.json?x=1", refused},
		{"file:///data.json?", refused},
		{"file:///data.json#frag", refused},
		{"file:data.json", refused},
		{"https://example.com/data.json", refused},
		{"not a uri at all", refused},
		{"", refused},
	}
	for _, tt := range tests {
		res, err := handler(context.Background(), &ServerSession{}, &ReadResourceParams{URI: tt.uri})
		checkFileOutcome(t, tt.uri, res, err, tt.want)
	}
}

func checkFileOutcome(t *testing.T, uri string, res *ReadResourceResult, err error, want fileOutcome) {
	t.Helper()
	checkFileOutcomeLabeled(t, uri, uri, res, err, want)
}

func checkFileOutcomeLabeled(t *testing.T, label, uri string, res *ReadResourceResult, err error, want fileOutcome) {
	t.Helper()
	var werr *JSONRPCError
	switch {
	case want.notFound:
		if !errors.Is(err, ErrResourceNotFound) {
			t.Errorf("%s: %v, want ErrResourceNotFound", label, err)
		}
	case want.refused:
		if !errors.As(err, &werr) || werr.Code != CodeInvalidParams || !strings.HasPrefix(werr.Message, "Resource refused") {
			t.Errorf("%s: result %v, error %v; want it refused", label, res, err)
		}
	case err != nil:
		t.Errorf("%s: %v", label, err)
	case len(res.Contents) != 1:
		t.Errorf("%s: %d contents, want 1", label, len(res.Contents))
	default:
		c := res.Contents[0]
		if c.URI != uri || c.MIMEType != want.mimeType || c.Text != want.text || (c.Blob != nil) != want.blob {
			t.Errorf("%s: got {uri %s, mime %q, text %q, blob %v}, want {mime %q, text %q, blob %v}",
				label, c.URI, c.MIMEType, c.Text, c.Blob != nil, want.mimeType, want.text, want.blob)
		}
	}
	if err != nil && strings.Contains(err.Error(), os.TempDir()) {
		t.Errorf("%s: error %q reveals a server path", label, err)
	}
}

func TestFileResourceHandlerMissingDir(t *testing.T) {
	h := FileResourceHandler(filepath.Join(t.TempDir(), "nope"))
	_, err := h(context.Background(), &ServerSession{}, &ReadResourceParams{URI: "file:///a.txt"})
	if err == nil || errors.Is(err, ErrResourceNotFound) {
		t.Errorf("reading from a missing directory: %v, want an internal error", err)
	}
	if err != nil && strings.Contains(err.Error(), os.TempDir()) {
		t.Errorf("error %q reveals a server path", err)
	}
}

// fileURI returns the file:// URI of a local absolute path.
func fileURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// TestFileResourceHandlerRoots reads files through a client with roots, in
// both eras: files outside the client's roots are refused.
func TestFileResourceHandlerRoots(t *testing.T) {
	dir := fileTree(t)
	tests := []struct {
		name  string
		roots []string // paths under dir; nil: the client declares no roots
		uri   string
		want  fileOutcome
	}{
		{"inside the only root", []string{"."}, "file:///data.json", fileOutcome{mimeType: "application/json", text: `{"a":1}`}},
		{"inside a nested root", []string{"sub"}, "file:///sub/dir/nested.json", fileOutcome{mimeType: "application/json", text: `{"nested":true}`}},
		{"root is the file", []string{"data.json"}, "file:///data.json", fileOutcome{mimeType: "application/json", text: `{"a":1}`}},
		{"outside the roots", []string{"sub"}, "file:///data.json", fileOutcome{refused: true}},
		{"sibling with a common prefix", []string{"sub/di"}, "file:///sub/dir/nested.json", fileOutcome{refused: true}},
		{"symlink into a root from outside it", []string{"sub"}, "file:///link-in", fileOutcome{refused: true}},
		{"missing file outside the roots", []string{"sub"}, "file:///missing.json", fileOutcome{refused: true}},
		{"missing file inside the roots", []string{"sub"}, "file:///sub/missing.json", fileOutcome{notFound: true}},
		{"roots declared, none listed", []string{}, "file:///data.json", fileOutcome{refused: true}},
		{"no roots capability", nil, "file:///data.json", fileOutcome{mimeType: "application/json", text: `{"a":1}`}},
	}
	eras(t, func(t *testing.T, version string) {
		for _, tt := range tests {
			s := NewServer("files", "v1", nil)
			s.AddResourceTemplates(&ServerResourceTemplate{
				Template: &ResourceTemplate{URITemplate: "file:///{+path}", Name: "files"},
				Handler:  FileResourceHandler(dir),
			})
			opts := &ClientOptions{ProtocolVersion: version}
			if tt.roots != nil {
				opts.Capabilities = &ClientCapabilities{Roots: &RootsCapability{}}
			}
			c := NewClient("c", "v1", opts)
			for _, r := range tt.roots {
				c.AddRoots(&Root{URI: fileURI(filepath.Join(dir, r))})
			}
			ct, st := NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := c.Connect(context.Background(), ct)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cs.ReadResource(context.Background(), &ReadResourceParams{URI: tt.uri})
			if tt.want.refused {
				// The client sees the JSON-RPC error of the refusal.
				var werr *JSONRPCError
				if !errors.As(err, &werr) || werr.Code != CodeInvalidParams || !strings.Contains(werr.Message, "Resource refused") {
					t.Errorf("%s: %v, want it refused", tt.name, err)
				}
			} else {
				checkFileOutcomeLabeled(t, tt.name, tt.uri, res, err, tt.want)
			}
			cs.Close()
			ss.Wait()
		}
	})
}

func TestFileURIPath(t *testing.T) {
	tests := []struct {
		uri  string
		want string // "" for an error
	}{
		{"file:///a.txt", "a.txt"},
		{"file:///a/b/c.txt", filepath.Join("a", "b", "c.txt")},
		{"file://localhost/a.txt", "a.txt"},
		{"FILE:///a.txt", "a.txt"},
		{"file:///a/./b", filepath.Join("a", "b")},
		{"file:///a%20b", "a b"},
		{"file:///%C3%A9", "é"},
		{"file:///a/..", ""},
		{"file:///..", ""},
		{"file:///a/%2E%2E/b", ""},
		{"file:///a%2Fb", ""},
		{"file:///a%5cb", ""},
		{"file:///a%00", ""},
		{"file:///", ""},
		{"file://", ""},
		{"file:", ""},
		{"file://host/a", ""},
		{"file:///a?", ""},
		{"file:///a#", ""},
		{"http:///a", ""},
	}
	if runtime.GOOS == "windows" {
		tests = append(tests, struct{ uri, want string }{"file:///C:/a", ""}, struct{ uri, want string }{"file:///NUL", ""})
	}
	for _, tt := range tests {
		got, err := fileURIPath(tt.uri)
		if tt.want == "" {
			if err == nil {
				t.Errorf("fileURIPath(%q) = %q, want an error", tt.uri, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("fileURIPath(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
		}
	}
}

func TestWithinAny(t *testing.T) {
	sep := string(filepath.Separator)
	root := sep + filepath.Join("srv", "data")
	tests := []struct {
		path string
		want bool
	}{
		{root, true},
		{filepath.Join(root, "a"), true},
		{filepath.Join(root, "a", "b"), true},
		{root + "x", false},
		{filepath.Join(sep+"srv", "other"), false},
		{sep + "srv", false},
	}
	for _, tt := range tests {
		if got := withinAny(tt.path, []string{root}); got != tt.want {
			t.Errorf("withinAny(%q, [%q]) = %v, want %v", tt.path, root, got, tt.want)
		}
	}
	if !withinAny(filepath.Join(sep, "any"), []string{sep}) {
		t.Error("the filesystem root does not contain everything")
	}
	if withinAny(root, nil) {
		t.Error("no roots contain something")
	}
}

func TestIsTextMIME(t *testing.T) {
	tests := map[string]bool{
		"text/plain":                true,
		"text/html; charset=utf-8":  true,
		"application/json":          true,
		"application/ld+json":       true,
		"image/svg+xml":             true,
		"application/yaml":          true,
		"application/octet-stream":  false,
		"image/png":                 false,
		"application/pdf":           false,
		"":                          false,
		"not a mime type; = broken": false,
	}
	for mt, want := range tests {
		if got := isTextMIME(mt); got != want {
			t.Errorf("isTextMIME(%q) = %v, want %v", mt, got, want)
		}
	}
}

// FuzzFileURIPath checks that whatever URI a client sends, the path the
// handler would open is local to the resource directory.
func FuzzFileURIPath(f *testing.F) {
	for _, s := range []string{
		"file:///a.txt", "file:///../x", "file:///a%2F..%2F..%2Fx", "file:///a%5c..%5cx",
		"file://localhost/a/b", "file:////etc/passwd", "file:///%2e%2e/x", "file:///a\x00b",
		"file:///C:/x", "file:///a/./../b", "file:", "file://h/x", "file:///%zz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		name, err := fileURIPath(uri)
		if err != nil {
			return
		}
		if !filepath.IsLocal(name) {
			t.Fatalf("fileURIPath(%q) = %q, which is not local", uri, name)
		}
		for _, part := range strings.Split(filepath.ToSlash(name), "/") {
			if part == ".." || part == "" {
				t.Fatalf("fileURIPath(%q) = %q, with a %q element", uri, name, part)
			}
		}
		if strings.ContainsAny(name, "\x00\\") && runtime.GOOS != "windows" {
			t.Fatalf("fileURIPath(%q) = %q, with NUL or backslash", uri, name)
		}
	})
}
