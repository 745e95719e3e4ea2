package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// useDemoProxy points the go command's settings at a proxy serving
// example.com/demo@v1.1.0.
func useDemoProxy(t *testing.T) {
	p := newDemoProxy(t, false)
	t.Setenv("GOPROXY", p.URL)
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")
	t.Setenv("PKGDOCS_CACHE_DIR", "")
}

// describe on stderr: by default only a terminal shows progress, so a
// buffer, a file and a pipe get nothing; --progress on writes one line per
// update to them, --progress off nothing, and another value is a usage
// error. Every answer is cold (a new process, a new module cache).
func TestDescribeProgressOnStderr(t *testing.T) {
	useDemoProxy(t)
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	tests := []struct {
		name   string
		flag   string
		stderr io.Writer
		read   func() string
		code   int
		want   func(string) bool
	}{
		{"buffer", "", nil, nil, 0, isEmpty},
		{"file", "auto", file, func() string { b, _ := os.ReadFile(file.Name()); return string(b) }, 0, isEmpty},
		{"pipe", "auto", pw, func() string { pw.Close(); b, _ := io.ReadAll(pr); return string(b) }, 0, isEmpty},
		{"off", "off", nil, nil, 0, isEmpty},
		{"on", "on", nil, nil, 0, func(s string) bool {
			lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
			for _, l := range lines {
				if !strings.HasPrefix(l, "pkgdocs: ") {
					return false
				}
			}
			last := lines[len(lines)-1]
			// The first update may already be past resolving when the
			// sending goroutine first runs; the last is always there.
			return strings.HasPrefix(last, "pkgdocs: done: ") && strings.HasSuffix(last, " 3 files read")
		}},
		{"bad", "sometimes", nil, nil, 2, func(s string) bool { return strings.Contains(s, `--progress "sometimes": want auto, on or off`) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMODCACHE", t.TempDir())
			var buf bytes.Buffer
			stderr, read := tt.stderr, tt.read
			if stderr == nil {
				stderr, read = &buf, buf.String
			}
			args := []string{"describe", "go", "example.com/demo/sub"}
			if tt.flag != "" {
				args = append(args, "--progress", tt.flag)
			}
			var out bytes.Buffer
			code := run(context.Background(), args, &out, stderr)
			got := read()
			if code != tt.code || !tt.want(got) || code == 0 && !strings.HasPrefix(out.String(), "# example.com/demo/sub@v1.1.0\n") {
				t.Errorf("pkgdocs %s: code %d, want %d; stderr %q; stdout:\n%s", strings.Join(args, " "), code, tt.code, got, out.String())
			}
		})
	}
}

func isEmpty(s string) bool { return s == "" }

// At a terminal the status line is rewritten in place, padded over a
// longer line before it, and erased by the last update.
func TestStatusLine(t *testing.T) {
	var buf bytes.Buffer
	s := &statusLine{w: &buf}
	s.show(progress.Update{Stage: progress.Resolving})
	s.show(progress.Update{Stage: progress.Reading, Files: 3})
	s.show(progress.Update{Stage: progress.Done, Files: 3})
	want := "\rpkgdocs: resolving the version" +
		"\rpkgdocs: reading 3 files" + strings.Repeat(" ", len("resolving the version")-len("reading 3 files")) +
		"\r" + strings.Repeat(" ", len("pkgdocs: reading 3 files")) + "\r"
	if buf.String() != want {
		t.Errorf("status line writes %q, want %q", buf.String(), want)
	}
}

func TestIsTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for name, w := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "file": file, "null device": null, "nil file": (*os.File)(nil)} {
		if isTerminal(w) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal to check the positive case: %v", err)
	}
	defer pty.Close()
	if !isTerminal(pty) {
		t.Error("a pseudo-terminal is not taken for a terminal")
	}
}
