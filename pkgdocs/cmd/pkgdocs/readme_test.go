package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// snippetArgs returns, for every editor configuration in the README, the
// arguments it starts pkgdocs with.
func snippetArgs(t *testing.T, readme string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	fence := regexp.MustCompile("(?s)```(json|sh)\n(.*?)```")
	for _, m := range fence.FindAllStringSubmatch(readme, -1) {
		body := m[2]
		switch m[1] {
		case "json":
			var cfg map[string]map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			}
			if err := json.Unmarshal([]byte(body), &cfg); err != nil {
				t.Fatalf("README JSON snippet does not parse: %v\n%s", err, body)
			}
			for key, servers := range cfg {
				s, ok := servers["pkgdocs"]
				if !ok {
					t.Errorf("README %s snippet has no pkgdocs server", key)
					continue
				}
				if s.Command != "pkgdocs" && !strings.HasSuffix(s.Command, "/pkgdocs") {
					t.Errorf("README %s snippet runs %q", key, s.Command)
				}
				got[fmt.Sprintf("snippet %d (%s)", len(got)+1, key)] = s.Args
			}
		case "sh":
			for _, line := range strings.Split(body, "\n") {
				line = strings.TrimSpace(line)
				if strings.HasPrefix(line, "claude mcp add ") {
					_, cmd, ok := strings.Cut(line, " -- ")
					if !ok || !strings.HasPrefix(cmd, "pkgdocs ") {
						t.Errorf("README: %q does not start pkgdocs", line)
						continue
					}
					got[line] = strings.Fields(cmd)[1:]
				}
			}
		}
	}
	return got
}

func TestREADMEConfigSnippets(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, editor := range []string{"Claude Code", "Claude Desktop", "Cursor", "VS Code"} {
		if !strings.Contains(readme, "**"+editor+"**") {
			t.Errorf("README has no configuration for %s", editor)
		}
	}
	for _, line := range []string{
		"go install github.com/gomcp/sdk/pkgdocs/cmd/pkgdocs@latest",
		"go install ./pkgdocs/cmd/pkgdocs",
	} {
		if !strings.Contains(readme, line) {
			t.Errorf("README lacks the install line %q", line)
		}
	}
	snippets := snippetArgs(t, readme)
	if len(snippets) < 5 {
		t.Fatalf("found %d editor snippets in the README, want at least 5: %v", len(snippets), snippets)
	}
	for name, args := range snippets {
		var o options
		fs := flags(&o, io.Discard)
		pos, err := parseInterspersed(fs, args)
		if err != nil {
			t.Errorf("%s: flags rejected: %v", name, err)
			continue
		}
		if len(pos) != 1 || pos[0] != "serve" {
			t.Errorf("%s: positional arguments %q, want [serve]", name, pos)
		}
	}
	// Every flag the README names exists.
	var o options
	fs := flags(&o, io.Discard)
	flagRE := regexp.MustCompile("(?:^|[ `\\[\"])--([a-z][a-z-]*)")
	for _, line := range strings.Split(readme, "\n") {
		if _, cmd, ok := strings.Cut(line, "claude mcp add "); ok {
			_, line, _ = strings.Cut(cmd, " -- ") // claude's own flags come first
		}
		for _, m := range flagRE.FindAllStringSubmatch(line, -1) {
			if fs.Lookup(m[1]) == nil && m[1] != "help" {
				t.Errorf("README names flag --%s, which pkgdocs does not have", m[1])
			}
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "Usage:\n  pkgdocs describe"},
		{[]string{"-h"}, "Usage:\n  pkgdocs describe"},
		{[]string{"help"}, "  -max-tokens int"},
		{[]string{"--version"}, "pkgdocs "},
		{[]string{"version"}, "pkgdocs "},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tt.args, &out, &errOut)
		if code != 0 || !strings.Contains(out.String(), tt.want) || errOut.Len() != 0 {
			t.Errorf("pkgdocs %s: code %d, stdout %q, stderr %q", strings.Join(tt.args, " "), code, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), nil, &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "Usage:") {
		t.Errorf("pkgdocs with no arguments: code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if code := run(context.Background(), []string{"--nope"}, &out, &errOut); code != 2 {
		t.Errorf("unknown flag: code %d", code)
	}
}

func TestVersionOf(t *testing.T) {
	tests := []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"},
		}}, "devel 0123456789ab+dirty"},
	}
	for _, tt := range tests {
		if got := versionOf(&tt.info); got != tt.want {
			t.Errorf("versionOf(%v) = %q, want %q", tt.info.Main, got, tt.want)
		}
	}
}
