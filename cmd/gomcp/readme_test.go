package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readmeCommand is one command line of README.md.
type readmeCommand struct {
	line       string
	exit       int  // "# exits N"
	longRunner bool // "# runs until interrupted"
}

var exitsComment = regexp.MustCompile(`\s+#\s*exits (\d+)\s*$`)

// readmeExamples returns the commands of README.md's sh blocks, in order,
// and the first JSON block with mcpServers (written as .mcp.json).
func readmeExamples(t *testing.T) ([]readmeCommand, string) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []readmeCommand
	var config, block string
	inBlock := false
	var body strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		if !inBlock && strings.HasPrefix(line, "```") {
			inBlock, block = true, strings.TrimPrefix(line, "```")
			body.Reset()
			continue
		}
		if inBlock && strings.HasPrefix(line, "```") {
			inBlock = false
			if block == "json" && config == "" && strings.Contains(body.String(), "mcpServers") {
				config = body.String()
			}
			continue
		}
		if !inBlock {
			continue
		}
		body.WriteString(line + "\n")
		if block != "sh" || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "go install") {
			continue
		}
		c := readmeCommand{line: line}
		if m := exitsComment.FindStringSubmatch(line); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
			c.line = line[:len(line)-len(m[0])]
		}
		if l, ok := strings.CutSuffix(strings.TrimSpace(c.line), "# runs until interrupted"); ok {
			c.line, c.longRunner = strings.TrimSpace(l), true
		}
		cmds = append(cmds, c)
	}
	return cmds, config
}

// TestReadmeExamples runs every command of README.md's sh blocks with sh,
// in a directory with the README's .mcp.json and weather.yaml, gomcp and
// everything-server on PATH and the everything-server's address in place
// of localhost:3001.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example")
	}
	cmds, config := readmeExamples(t)
	if len(cmds) < 30 || config == "" {
		t.Fatalf("found %d commands and config %q in README.md", len(cmds), config)
	}
	dir := t.TempDir()
	bin := t.TempDir()
	wrapper := fmt.Sprintf("#!/bin/sh\nGOMCP_TEST_MAIN=1 exec %q \"$@\"\n", os.Args[0])
	if err := os.WriteFile(filepath.Join(bin, "gomcp"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	oauth := newFakeOAuth(t)
	host := strings.TrimSuffix(strings.TrimPrefix(everythingURL, "http://"), "/mcp")
	config = strings.ReplaceAll(config, "localhost:3001", host)
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture, err := os.ReadFile("testdata/mock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "weather.yaml"), fixture, 0o644); err != nil {
		t.Fatal(err)
	}
	path := bin + string(os.PathListSeparator) + filepath.Dir(everythingBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, c := range cmds {
		line := strings.ReplaceAll(c.line, "localhost:3001", host)
		line = strings.ReplaceAll(line, "localhost:8931", "127.0.0.1:0")
		line = strings.ReplaceAll(line, "https://mcp.example.com", oauth.srv.URL)
		t.Run(c.line, func(t *testing.T) {
			timeout := 30 * time.Second
			if c.longRunner {
				timeout = 2 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", line)
			cmd.Dir = dir
			cmd.WaitDelay = time.Second
			ownProcessGroup(cmd)
			cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+home, "XDG_CONFIG_HOME=")
			var stdout bytes.Buffer
			stderr := &timedWriter{}
			cmd.Stdout, cmd.Stderr = &stdout, stderr
			stopBrowser := browse(stderr, oauth.srv.URL+"/authorize?")
			err := cmd.Run()
			stopBrowser()
			if c.longRunner {
				if !strings.Contains(stderr.String(), "listening on http://") {
					t.Fatalf("%s did not start serving: %v; stderr %s", line, err, stderr.String())
				}
				return
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.exit {
				t.Fatalf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", line, code, c.exit, stdout.String(), stderr.String())
			}
			if code == 0 && stdout.Len() == 0 && !strings.Contains(line, "shell") && !strings.Contains(line, "echo") {
				t.Fatalf("%s printed nothing; stderr %s", line, stderr.String())
			}
		})
	}
}

// browse is a test browser: it follows the first authorization URL
// printed to w, until stopped.
func browse(w *timedWriter, prefix string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if i := strings.Index(w.String(), prefix); i >= 0 {
				if resp, err := http.Get(strings.Fields(w.String()[i:])[0]); err == nil {
					resp.Body.Close()
				}
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}
