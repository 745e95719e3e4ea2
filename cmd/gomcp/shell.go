package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chzyer/readline"

	"github.com/gomcp/sdk/mcp"
)

// shellVerbs are the commands of the shell, each a verb run on the
// shell's one session.
var shellVerbs = []string{"tools", "call", "prompts", "prompt", "resources", "templates", "read", "complete", "discover", "ping", "help", "exit"}

// A shellState knows the server's tools, prompts and resources, for
// completion.
type shellState struct {
	mu        sync.Mutex
	tools     map[string][]string // tool -> argument names
	prompts   map[string][]string // prompt -> argument names
	resources []string
}

// newShellState makes the shell's completion state (a variable, so tests
// can watch it).
var newShellState = func() *shellState { return &shellState{} }

// refresh reloads what completion offers.
func (st *shellState) refresh(ctx context.Context, s *session) {
	tools := map[string][]string{}
	if s.ServerCapabilities().Tools != nil {
		if list, _, err := listTools(ctx, s, 0); err == nil {
			for _, t := range list {
				tools[t.Name] = sortedProps(parseSchema(t.InputSchema))
			}
		}
	}
	prompts := map[string][]string{}
	var resources []string
	if s.ServerCapabilities().Prompts != nil {
		for p, err := range s.Prompts(ctx, nil) {
			if err != nil {
				break
			}
			var args []string
			for _, a := range p.Arguments {
				args = append(args, a.Name)
			}
			prompts[p.Name] = args
		}
	}
	if s.ServerCapabilities().Resources != nil {
		for r, err := range s.Resources(ctx, nil) {
			if err != nil {
				break
			}
			resources = append(resources, r.URI)
		}
	}
	st.mu.Lock()
	st.tools, st.prompts, st.resources = tools, prompts, resources
	st.mu.Unlock()
}

func sortedProps(s *propSchema) []string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// complete returns the completions of the last word of line: a verb, a
// tool, prompt or resource name, or an argument name followed by "=".
func (st *shellState) complete(line string) []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	words := strings.Fields(line)
	if strings.HasSuffix(line, " ") || len(words) == 0 {
		words = append(words, "")
	}
	last := words[len(words)-1]
	var candidates []string
	switch {
	case len(words) == 1:
		candidates = shellVerbs
	case len(words) == 2 && words[0] == "call":
		candidates = keys(st.tools)
	case len(words) == 2 && words[0] == "prompt":
		candidates = keys(st.prompts)
	case len(words) == 2 && words[0] == "read":
		candidates = st.resources
	case len(words) > 2 && words[0] == "call":
		candidates = argCandidates(st.tools[words[1]], words[2:len(words)-1])
	case len(words) > 2 && words[0] == "prompt":
		candidates = argCandidates(st.prompts[words[1]], words[2:len(words)-1])
	}
	var out []string
	for _, c := range candidates {
		if strings.HasPrefix(c, last) {
			out = append(out, c)
		}
	}
	return out
}

// argCandidates are "name=" for the arguments not given yet.
func argCandidates(names, given []string) []string {
	done := map[string]bool{}
	for _, g := range given {
		k, _, _ := strings.Cut(g, "=")
		done[strings.TrimSuffix(k, ":")] = true
	}
	var out []string
	for _, n := range names {
		if !done[n] {
			out = append(out, n+"=")
		}
	}
	return out
}

func keys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Do completes for readline: the suffixes that complete the last word.
func (st *shellState) Do(line []rune, pos int) ([][]rune, int) {
	text := string(line[:pos])
	words := strings.Fields(text)
	last := ""
	if len(words) > 0 && !strings.HasSuffix(text, " ") {
		last = words[len(words)-1]
	}
	var out [][]rune
	for _, c := range st.complete(text) {
		suffix := c[len(last):]
		if !strings.HasSuffix(c, "=") {
			suffix += " "
		}
		out = append(out, []rune(suffix))
	}
	return out, len([]rune(last))
}

func cmdShell(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) > 0 {
		return usageError("shell takes no arguments after the target")
	}
	st := newShellState()
	// List changes refresh what completion offers, in the background:
	// notification handlers must not block.
	var current atomic.Pointer[session]
	var refreshing sync.WaitGroup
	defer refreshing.Wait() // after the session closes, below
	refresh := func() {
		if s := current.Load(); s != nil {
			refreshing.Go(func() {
				rctx, cancel := context.WithTimeout(ctx, c.o.timeout)
				defer cancel()
				st.refresh(rctx, s)
			})
		}
	}
	opts := askOptions(c)
	opts.ToolListChangedHandler = func(context.Context, *mcp.ClientSession, *mcp.ToolListChangedParams) { refresh() }
	opts.PromptListChangedHandler = func(context.Context, *mcp.ClientSession, *mcp.PromptListChangedParams) { refresh() }
	opts.ResourceListChangedHandler = func(context.Context, *mcp.ClientSession, *mcp.ResourceListChangedParams) { refresh() }
	// In 2026-07-28 list changes come on a subscriptions/listen stream: the
	// shell reads its first line once the server has acknowledged it, so
	// that no change made by that line is missed.
	acked := make(chan struct{})
	var ackOnce sync.Once
	opts.SubscriptionsAcknowledgedHandler = func(context.Context, *mcp.ClientSession, *mcp.SubscriptionsAcknowledgedParams) {
		ackOnce.Do(func() { close(acked) })
	}
	cctx, cancel := c.oneShot(ctx)
	s, err := c.connect(cctx, opts)
	if err != nil {
		cancel()
		return err
	}
	defer s.ClientSession.Close()
	s.shared = true
	st.refresh(cctx, s)
	current.Store(s)
	cancel()
	if isModern(s.ClientSession) {
		defer listenForListChanges(ctx, c, s, acked)()
	}

	next, closeInput, err := shellInput(c, st)
	if err != nil {
		return err
	}
	defer closeInput()
	fmt.Fprintf(c.env.stderr, "connected to %s, %s; type help, or exit\n", c.target, describe(s.ClientSession))
	for {
		line, err := next()
		if errors.Is(err, io.EOF) || errors.Is(err, readline.ErrInterrupt) {
			return nil
		}
		if err != nil {
			return err
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		if words[0] == "exit" || words[0] == "quit" {
			return nil
		}
		if err := shellCommand(ctx, c, s, words); err != nil {
			report(c.env.stderr, err)
		}
		if words[0] == "tools" || words[0] == "prompts" || words[0] == "resources" {
			st.refresh(ctx, s)
		}
	}
}

// listenForListChanges opens the subscriptions/listen stream by which
// 2026-07-28 sends list changes, for the lists the server says change, and
// waits (up to the timeout) for the server to acknowledge it. The returned
// function stops listening and waits for the stream to end.
func listenForListChanges(ctx context.Context, c *cmdCtx, s *session, acked <-chan struct{}) (stop func()) {
	lctx, stopListen := context.WithCancel(ctx)
	var listening sync.WaitGroup
	stop = func() {
		stopListen()
		listening.Wait()
	}
	caps := s.ServerCapabilities()
	filter := mcp.SubscriptionFilter{
		ToolsListChanged:     caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: caps.Resources != nil && caps.Resources.ListChanged,
	}
	if filter.ToolsListChanged || filter.PromptsListChanged || filter.ResourcesListChanged {
		listening.Go(func() { _, _ = s.Listen(lctx, &mcp.SubscriptionsListenParams{Notifications: filter}) })
		select {
		case <-acked:
		case <-time.After(c.o.timeout):
			fmt.Fprintln(c.env.stderr, "the server did not acknowledge the subscription to list changes; completion may go stale")
		}
	}
	return stop
}

// shellCommand runs one line of the shell as the verb it names, on the
// shell's session.
func shellCommand(ctx context.Context, c *cmdCtx, s *session, words []string) error {
	if words[0] == "help" {
		fmt.Fprintf(c.env.stdout, "commands: %s\nflags such as --json work as on the command line\n", strings.Join(shellVerbs, ", "))
		return nil
	}
	v := findVerb(words[0])
	if v == nil || !v.client || !contains(shellVerbs, v.name) {
		return usageError("unknown command %q: type help", words[0])
	}
	sub := &cmdCtx{env: c.env, o: &options{}, verb: v, target: c.target, sess: s}
	fs := newFlagSet(v.name, v.groups, sub.o)
	positional, command, err := parseLine(fs, words[1:])
	if err != nil {
		return err
	}
	if len(command) > 0 {
		return usageError("the shell is connected already: no -- COMMAND")
	}
	sub.positional = positional
	sub.o.noInteractive = c.o.noInteractive
	return v.run(ctx, sub)
}

// shellInput reads lines with an editor, completion and history on a
// terminal, and plainly otherwise.
func shellInput(c *cmdCtx, st *shellState) (func() (string, error), func(), error) {
	if !c.env.stdinTTY {
		sc := bufio.NewScanner(c.env.stdin)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		return func() (string, error) {
			if sc.Scan() {
				return sc.Text(), nil
			}
			if err := sc.Err(); err != nil {
				return "", err
			}
			return "", io.EOF
		}, func() {}, nil
	}
	history := ""
	if c.env.home != "" {
		history = filepath.Join(c.env.home, ".gomcp_history")
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:       "mcp> ",
		HistoryFile:  history,
		AutoComplete: st,
		Stdout:       c.env.stdout,
		Stderr:       c.env.stderr,
	})
	if err != nil {
		return nil, nil, err
	}
	return rl.Readline, func() { rl.Close() }, nil
}
