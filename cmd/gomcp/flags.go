package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// options are the flags of every verb; each verb registers the ones it
// takes.
type options struct {
	// Target and connection.
	env             listFlag // -e KEY=VALUE for a stdio server
	headers         listFlag // --header "Name: Value"
	config          string   // --config FILE with mcpServers
	protocol        string   // auto, legacy or modern
	timeout         time.Duration
	cwd             string
	serverLogs      bool
	noInteractive   bool
	samplingCommand string

	// Authorization.
	clientID          string
	clientSecret      string
	clientCredentials bool
	tokenStore        string
	forceInteractive  bool // login: wait for a person even without a terminal

	// Output.
	json   bool
	output string
	limit  int

	// Verb specific.
	args      listFlag // call, bench: --args JSON or @file
	out       string   // record
	httpAddr  string   // mock, replay
	tool      string   // bench
	conc      int      // bench -c
	duration  time.Duration
	task      bool // call --task
	catalog   bool // card --catalog
	allowHTTP bool // card --allow-http
	check     bool // card --check
}

// listFlag is a flag that may be repeated.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// flag groups a verb can take.
const (
	fTarget = 1 << iota // connection and authorization flags
	fOutput             // --json, --output
	fLimit              // --limit
	fAsk                // --no-interactive, --sampling-command
	fArgs               // --args
	fServe              // --http
	fOut                // --out
	fBench              // --tool, -c, -d
	fTask               // --task
	fCard               // card: --json, --timeout, --catalog, --allow-http, --check
)

// newFlagSet returns the flags of a verb.
func newFlagSet(verb string, groups int, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if groups&fTarget != 0 {
		fs.Var(&o.env, "e", "set `KEY=VALUE` in a stdio server's environment (repeatable)")
		fs.Var(&o.headers, "header", "send the HTTP header `Name: Value` (repeatable)")
		fs.Var(&o.headers, "H", "short for --header")
		fs.StringVar(&o.config, "config", "", "read @NAME targets from this mcpServers JSON `file`")
		fs.StringVar(&o.protocol, "protocol", "auto", "protocol era: auto, legacy or modern")
		fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "bound on connecting and on each one-shot command")
		fs.StringVar(&o.cwd, "cwd", "", "working `directory` of a stdio server")
		fs.BoolVar(&o.serverLogs, "server-logs", false, "show a stdio server's stderr")
		fs.BoolVar(&o.noInteractive, "no-interactive", false, "never prompt: decline elicitation, and fail with exit 3 where a login would be needed")
		fs.StringVar(&o.clientID, "client-id", "", "OAuth client `ID` registered with the authorization server")
		fs.StringVar(&o.clientSecret, "client-secret", "", "OAuth client `secret` (or GOMCP_CLIENT_SECRET)")
		fs.BoolVar(&o.clientCredentials, "client-credentials", false, "authorize as the client itself (client_credentials grant), never as a person")
		fs.StringVar(&o.tokenStore, "token-store", "", "keep OAuth tokens in this `file` (default ~/.config/gomcp/tokens.json)")
	}
	if groups&fOutput != 0 {
		fs.BoolVar(&o.json, "json", false, "print one JSON object (NDJSON for watch)")
		fs.StringVar(&o.output, "output", "", "save images, audio and blobs to this `path` (a directory for several)")
		fs.StringVar(&o.output, "o", "", "short for --output")
	}
	if groups&fLimit != 0 {
		fs.IntVar(&o.limit, "limit", 0, "list at most `N` items (one page request after another until then)")
	}
	if groups&fAsk != 0 {
		fs.StringVar(&o.samplingCommand, "sampling-command", "", "answer sampling requests with this shell `command`")
	}
	if groups&fArgs != 0 {
		fs.Var(&o.args, "args", "tool arguments as a JSON object, or @file with one (@- for stdin)")
	}
	if groups&fServe != 0 {
		fs.StringVar(&o.httpAddr, "http", "", "serve streamable HTTP at `ADDR` (path /mcp) instead of stdio")
	}
	if groups&fOut != 0 {
		fs.StringVar(&o.out, "out", "", "write the transcript to this txtar `file`")
	}
	if groups&fBench != 0 {
		fs.StringVar(&o.tool, "tool", "", "the tool to call")
		fs.IntVar(&o.conc, "c", 16, "concurrent callers")
		fs.DurationVar(&o.duration, "d", 10*time.Second, "how long to run")
	}
	if groups&fCard != 0 {
		// fCard goes without fTarget and fOutput, whose --timeout and
		// --json it repeats: a card is fetched, not connected to.
		fs.BoolVar(&o.json, "json", false, "print the card as JSON (a catalog: the catalog and its cards)")
		fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "bound on each fetch")
		fs.BoolVar(&o.catalog, "catalog", false, "read the host's AI Catalog (/.well-known/ai-catalog.json) and every card it lists")
		fs.BoolVar(&o.allowHTTP, "allow-http", false, "fetch plain http from hosts that are not loopback")
		fs.BoolVar(&o.check, "check", false, "connect to the card's streamable-http endpoints and compare each live server with the card (exit 7 if they disagree)")
	}
	if groups&fTask != 0 {
		fs.BoolVar(&o.task, "task", false, "run the call as a task (tasks extension): print the task instead of waiting")
	}
	return fs
}

// parseLine splits a command line into positional arguments and the stdio
// command after "--", accepting flags anywhere before "--".
func parseLine(fs *flag.FlagSet, args []string) (positional, command []string, err error) {
	for i, a := range args {
		if a == "--" {
			args, command = args[:i], args[i+1:]
			if len(command) == 0 {
				return nil, nil, usageError("nothing after --: give the command of a stdio server")
			}
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, nil, err
			}
			return nil, nil, usageError("%s: %v", fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, command, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// flagUsage lists a flag set's flags for help.
func flagUsage(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		fmt.Fprintf(&b, "  %s%s %s\n    \t%s\n", dash, f.Name, name, usage)
	})
	return b.String()
}
