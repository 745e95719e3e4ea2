// Command gomcp is a command-line client for any MCP server: it lists and
// calls tools, prompts and resources, watches notifications, records and
// replays sessions, serves mock servers from fixtures, bridges remote
// servers to stdio, lints tool schemas and load-tests servers.
//
//	gomcp tools https://example.com/mcp
//	gomcp call --json add a=1 b=2 -- go run ./myserver
//	gomcp read @docs file:///README.md
//
// Run gomcp help for every verb and flag.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, systemEnviron(), os.Args[1:])
	stop()
	os.Exit(code)
}

// environ is the world a run of the program sees, so tests can run it
// in-process.
type environ struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	lookupEnv      func(string) (string, bool)
	home, wd       string
	// stdinTTY and stderrTTY report terminals: interactive forms read
	// stdin, progress bars draw on stderr.
	stdinTTY, stderrTTY bool
}

func (e *environ) getenv(k string) string {
	v, _ := e.lookupEnv(k)
	return v
}

// systemEnviron is the process's own environment.
func systemEnviron() *environ {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	return &environ{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		lookupEnv: os.LookupEnv,
		home:      home, wd: wd,
		stdinTTY:  isTerminal(os.Stdin),
		stderrTTY: isTerminal(os.Stderr),
	}
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
