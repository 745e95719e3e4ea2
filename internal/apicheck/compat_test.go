package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestCompatScript runs .ci/apicompat.sh on small repositories: a module
// with no release tag passes with a note; against a tag, a compatible
// change passes and an incompatible one (a function removed, a package
// gone) fails, naming what changed.
func TestCompatScript(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the CI scripts are bash scripts, run on linux")
	}
	root := testRoot(t)
	script := filepath.Join(root, ".ci", "apicompat.sh")
	apidiff := installAPIDiff(t, script)

	for _, tt := range compatScriptCases {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			writeFiles(t, repo, map[string]string{
				"go.work":     "go 1.26.0\n\nuse (\n\t.\n\t./sub\n)\n",
				"go.mod":      "module example.com/r\n\ngo 1.26.0\n",
				"p/p.go":      "package p\n\nfunc F() {}\nfunc G(int) {}\n",
				"api/p.txt":   "pkg p, func F()\npkg p, func G(int)\n",
				"sub/go.mod":  "module example.com/r/sub\n\ngo 1.26.0\n",
				"sub/s.go":    "package sub\n\nfunc S() {}\n",
				"api/sub.txt": "pkg sub, func S()\n",
			})
			git(t, repo, "init", "-q")
			git(t, repo, "add", "-A")
			git(t, repo, "commit", "-q", "-m", "first")
			git(t, repo, "tag", "v1.0.0")
			git(t, repo, "tag", "sub-not-a-release") // not of the form DIR/vX.Y.Z
			git(t, repo, "tag", "sub/v1.1.0")        // with subTag, a lower version the script must pass over
			if tt.subTag != "" {
				git(t, repo, "tag", tt.subTag)
			} else {
				git(t, repo, "tag", "-d", "sub/v1.1.0")
			}
			writeFiles(t, repo, tt.change)

			cmd := exec.Command("bash", script)
			cmd.Env = append(os.Environ(), "REPO="+repo, "MODULES=. sub", "APIDIFF="+apidiff, "GOWORK=", "GOFLAGS=")
			out, err := cmd.CombinedOutput()
			t.Logf("apicompat.sh output:\n%s", out)
			if tt.wantFail && err == nil {
				t.Errorf("apicompat.sh passed, want a failure; output:\n%s", out)
			}
			if !tt.wantFail && err != nil {
				t.Errorf("apicompat.sh: %v; output:\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// compatScriptCases lists changes to a two-module repository made after its
// release tags, and what .ci/apicompat.sh reports of each.
var compatScriptCases = []struct {
	name     string
	subTag   string            // a tag of module sub besides v1.0.0 of the root
	change   map[string]string // files to write after the tags; "" removes
	wantFail bool
	want     []string // in the script's output
}{
	{
		name:   "compatible: a function added",
		change: map[string]string{"p/p.go": "package p\n\nfunc F() {}\nfunc G(int) {}\nfunc H() {}\n"},
		want:   []string{"module .: 1 packages compared with v1.0.0", "module sub: no release tag yet"},
	},
	{
		name:     "incompatible: a function removed",
		change:   map[string]string{"p/p.go": "package p\n\nfunc F() {}\n"},
		wantFail: true,
		want:     []string{"incompatible changes to example.com/r/p since v1.0.0", "G: removed", "module sub: no release tag yet"},
	},
	{
		name:     "incompatible: a parameter changed",
		change:   map[string]string{"p/p.go": "package p\n\nfunc F() {}\nfunc G(string) {}\n"},
		wantFail: true,
		want:     []string{"G: changed from func(int) to func(string)"},
	},
	{
		name:     "incompatible: a package gone",
		change:   map[string]string{"p/p.go": ""},
		wantFail: true,
		want:     []string{"package example.com/r/p of v1.0.0 is gone"},
	},
	{
		name:     "a sub-module compared with its own last tag",
		subTag:   "sub/v1.2.0",
		change:   map[string]string{"sub/s.go": "package sub\n\nfunc T() {}\n"},
		wantFail: true,
		want:     []string{"module .: 1 packages compared with v1.0.0", "incompatible changes to example.com/r/sub since sub/v1.2.0", "S: removed"},
	},
}

// installAPIDiff builds the apidiff the script names (APIDIFF_VERSION) and
// returns its path.
func installAPIDiff(t *testing.T, script string) string {
	t.Helper()
	text, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^APIDIFF_VERSION=(\S+)$`).FindSubmatch(text)
	if m == nil {
		t.Fatalf("%s sets no APIDIFF_VERSION", script)
	}
	bin := t.TempDir()
	cmd := exec.Command("go", "install", "golang.org/x/exp/cmd/apidiff@"+string(m[1]))
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOWORK=off", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go install apidiff: %v\n%s", err, stderr.Bytes())
	}
	return filepath.Join(bin, "apidiff")
}

// writeFiles writes files under dir; an empty text removes the file.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if text == "" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=apicheck", "-c", "user.email=apicheck@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
