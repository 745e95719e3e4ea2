package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gomcp/sdk/mcp"
)

// A verb is one command of the program.
type verb struct {
	name     string
	groups   int // flag groups (flags.go)
	args     string
	synopsis string
	// client verbs take a target and get a connection from cmdCtx.
	client bool
	run    func(ctx context.Context, c *cmdCtx) error
}

// verbs lists every verb, in the order help shows them.
var verbs []*verb

func init() {
	const client = fTarget | fOutput
	verbs = []*verb{
		{name: "tools", groups: client | fLimit, client: true, synopsis: "list the tools", run: cmdTools},
		{name: "call", groups: client | fAsk | fArgs | fTask, client: true, args: "TOOL [key=value | key:=JSON ...]", synopsis: "call a tool (--args JSON or @file)", run: cmdCall},
		{name: "prompts", groups: client | fLimit, client: true, synopsis: "list the prompts", run: cmdPrompts},
		{name: "prompt", groups: client | fAsk, client: true, args: "NAME [key=value ...]", synopsis: "get a prompt", run: cmdPrompt},
		{name: "resources", groups: client | fLimit, client: true, synopsis: "list the resources", run: cmdResources},
		{name: "templates", groups: client | fLimit, client: true, synopsis: "list the resource templates", run: cmdTemplates},
		{name: "read", groups: client | fAsk, client: true, args: "URI", synopsis: "read a resource", run: cmdRead},
		{name: "complete", groups: client, client: true, args: "prompt NAME | template URI, then ARG=PARTIAL [key=value ...]", synopsis: "complete an argument of a prompt or resource template", run: cmdComplete},
		{name: "discover", groups: client, client: true, synopsis: "show the server's identity, protocol and capabilities", run: cmdDiscover},
		{name: "ping", groups: client, client: true, synopsis: "check that the server answers", run: cmdPing},
		{name: "watch", groups: client | fLimit, client: true, args: "[URI ...]", synopsis: "print list changes and updates of the given resources as they come", run: cmdWatch},
		{name: "tasks", groups: client, client: true, args: "get|result|cancel TASK_ID", synopsis: "follow a task (tasks extension)", run: cmdTasks},
		{name: "card", groups: fCard, args: "URL", synopsis: "fetch and validate a server card: of an MCP URL, a card URL, or a host's catalog with --catalog (exit 7 invalid, 8 missing)", run: cmdCard},
		{name: "events", groups: client | fLimit | fArgs, client: true, args: "list | poll NAME | stream NAME [key=value ...]", synopsis: "list event types, poll or stream one (events extension)", run: cmdEvents},
		{name: "lint", groups: client, client: true, synopsis: "check tool names and schema portability (exit 6 on problems)", run: cmdLint},
		{name: "bench", groups: fTarget | fOutput | fArgs | fBench, client: true, args: "[key=value ...]", synopsis: "load-test a tool: calls/s, p50/p99 latency, errors", run: cmdBench},
		{name: "shell", groups: fTarget | fAsk, client: true, synopsis: "an interactive session with completion and history", run: cmdShell},
		{name: "mock", groups: fServe, args: "FIXTURE.yaml|json", synopsis: "serve tools, prompts and resources from a fixture (stdio, or --http ADDR at /mcp)", run: cmdMock},
		{name: "record", groups: fOut | fTarget, args: "-- COMMAND ARGS...", synopsis: "run a stdio server behind a proxy that writes every message to a txtar transcript", run: cmdRecord},
		{name: "replay", groups: 0, args: "FILE.txtar", synopsis: "serve a recorded transcript back on stdio", run: cmdReplay},
		{name: "bridge", groups: fTarget, client: true, synopsis: "expose a remote HTTP server on stdio", run: cmdBridge},
		{name: "login", groups: fTarget | fOutput, client: true, synopsis: "authorize at a server (OAuth) and store the token", run: cmdLogin},
		{name: "version", synopsis: "print the version", run: cmdVersion},
		{name: "help", args: "[VERB]", synopsis: "show help", run: cmdHelp},
	}
}

func findVerb(name string) *verb {
	for _, v := range verbs {
		if v.name == name {
			return v
		}
	}
	return nil
}

// cmdCtx is what a verb runs with.
type cmdCtx struct {
	env        *environ
	o          *options
	verb       *verb
	target     *target  // client verbs
	positional []string // after the target
	command    []string // after "--", for verbs without target
	sess       *session // the shell's session, which commands share
	// setup, if set, prepares the client before it connects (events
	// declares its extension).
	setup func(*mcp.Client)
}

// connect connects to the command's target with the handlers opts.
func (c *cmdCtx) connect(ctx context.Context, opts mcp.ClientOptions) (*session, error) {
	if c.sess != nil {
		return c.sess, nil
	}
	return connect(ctx, c.env, c.o, c.target, opts, c.setup)
}

// run runs the program with args and returns its exit code.
func run(ctx context.Context, env *environ, args []string) int {
	if len(args) == 0 {
		usage(env.stderr)
		return report(env.stderr, usageError("no verb: run gomcp help"))
	}
	switch args[0] {
	case "-h", "-help", "--help":
		args[0] = "help"
	case "-version", "--version":
		args[0] = "version"
	}
	v := findVerb(args[0])
	if v == nil {
		return report(env.stderr, usageError("unknown verb %q: run gomcp help", args[0]))
	}
	c := &cmdCtx{env: env, o: &options{}, verb: v}
	fs := newFlagSet(v.name, v.groups, c.o)
	positional, command, err := parseLine(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		c.positional = []string{v.name}
		_ = cmdHelp(ctx, c)
		return exitOK
	}
	if err != nil {
		return report(env.stderr, err)
	}
	if v.client {
		if c.target, c.positional, err = resolveTarget(env, c.o, positional, command); err != nil {
			return report(env.stderr, err)
		}
	} else {
		c.positional, c.command = positional, command
	}
	if err := v.run(ctx, c); err != nil {
		return report(env.stderr, err)
	}
	return exitOK
}

// oneShot bounds a one-shot command by --timeout.
func (c *cmdCtx) oneShot(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.o.timeout > 0 {
		return context.WithTimeout(ctx, c.o.timeout)
	}
	return context.WithCancel(ctx)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "gomcp: a command-line client for MCP servers\n\n")
	fmt.Fprintf(w, "usage:\n  gomcp VERB [flags] TARGET [ARGS...]      TARGET is a URL or @NAME from an MCP config file\n")
	fmt.Fprintf(w, "  gomcp VERB [flags] [ARGS...] -- COMMAND ARGS...   a stdio server\n\nverbs:\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, v := range verbs {
		fmt.Fprintf(tw, "  %s\t%s\n", v.name, v.synopsis)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nexit codes: 0 ok, 1 usage or unexpected, 3 authorization required, 4 unreachable,\n5 tool error, 6 lint problems, 7 invalid server card, 8 no server card;\nevery non-zero exit writes one JSON error line to stderr.\n")
}

func cmdHelp(_ context.Context, c *cmdCtx) error {
	if len(c.positional) == 0 {
		usage(c.env.stdout)
		return nil
	}
	v := findVerb(c.positional[0])
	if v == nil {
		return usageError("unknown verb %q", c.positional[0])
	}
	target := ""
	if v.client {
		target = " TARGET"
	}
	fmt.Fprintf(c.env.stdout, "gomcp %s [flags]%s %s\n  %s\n\nflags:\n", v.name, target, v.args, v.synopsis)
	fmt.Fprint(c.env.stdout, flagUsage(newFlagSet(v.name, v.groups, &options{})))
	return nil
}

func cmdVersion(_ context.Context, c *cmdCtx) error {
	fmt.Fprintf(c.env.stdout, "gomcp %s (protocols %s)\n", version(), strings.Join(mcp.SupportedVersions(), ", "))
	return nil
}
