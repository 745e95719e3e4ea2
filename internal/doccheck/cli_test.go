package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIGuideQuotesREADME checks that every command line in the shell
// blocks of docs/cli.md appears in cmd/gomcp/README.md, whose own test runs
// them against real servers.
func TestCLIGuideQuotesREADME(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "cmd", "gomcp", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(readme), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	n := 0
	for _, cmd := range shellLines(string(guide)) {
		n++
		if !lines[cmd] {
			t.Errorf("docs/cli.md: %q is not a line of cmd/gomcp/README.md", cmd)
		}
	}
	if n == 0 {
		t.Fatal("no shell commands in docs/cli.md")
	}
}

// shellLines returns the non-blank lines of the ```sh blocks of md.
func shellLines(md string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case !in && t == "```sh":
			in = true
		case in && t == "```":
			in = false
		case in && t != "":
			out = append(out, t)
		}
	}
	return out
}
