package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// askOptions are the client handlers of verbs whose requests may ask the
// user (elicitation) or a model (sampling).
func askOptions(c *cmdCtx) mcp.ClientOptions {
	var opts mcp.ClientOptions
	f := &former{env: c.env, interactive: c.env.stdinTTY && !c.o.noInteractive}
	opts.ElicitationHandler = func(ctx context.Context, _ *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return f.elicit(ctx, p)
	}
	if c.o.samplingCommand != "" {
		cmd := c.o.samplingCommand
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; gomcp ask answers a server's sampling requests
		opts.CreateMessageHandler = func(ctx context.Context, _ *mcp.ClientSession, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return sampleWithCommand(ctx, cmd, p)
		}
	}
	return opts
}

// A former answers elicitation requests with a form on the terminal, or
// declines them when there is none.
type former struct {
	env         *environ
	interactive bool
	mu          sync.Mutex // one form at a time
	in          *bufio.Reader
}

func (f *former) elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if !f.interactive {
		return &mcp.ElicitResult{Action: mcp.ElicitActionDecline}, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.in == nil {
		f.in = bufio.NewReader(f.env.stdin)
	}
	w := f.env.stderr
	fmt.Fprintf(w, "\nThe server asks: %s\n", p.Message)
	if p.Mode == "url" {
		fmt.Fprintf(w, "Open %s\nPress Enter when done, or type n to decline: ", p.URL)
		line, err := f.readLine(ctx)
		if err != nil || strings.EqualFold(line, "n") {
			return &mcp.ElicitResult{Action: mcp.ElicitActionDecline}, nil
		}
		return &mcp.ElicitResult{Action: mcp.ElicitActionAccept}, nil
	}
	content, err := f.form(ctx, p.RequestedSchema)
	if err != nil {
		fmt.Fprintf(w, "(declined: %v)\n", err)
		return &mcp.ElicitResult{Action: mcp.ElicitActionDecline}, nil
	}
	return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: content}, nil
}

// form asks for every field of the schema; an empty answer takes the
// default, or skips an optional field.
func (f *former) form(ctx context.Context, s *mcp.ElicitationSchema) (map[string]any, error) {
	content := map[string]any{}
	if s == nil {
		return content, nil
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		ps := s.Properties[name]
		for {
			fmt.Fprint(f.env.stderr, fieldPrompt(name, ps, required[name]))
			line, err := f.readLine(ctx)
			if err != nil {
				return nil, err
			}
			if line == "" {
				if ps.Default != nil {
					content[name] = ps.Default
					break
				}
				if !required[name] {
					break
				}
				fmt.Fprintln(f.env.stderr, "  required")
				continue
			}
			v, err := fieldValue(ps, line)
			if err != nil {
				fmt.Fprintf(f.env.stderr, "  %v\n", err)
				continue
			}
			content[name] = v
			break
		}
	}
	return content, nil
}

// fieldPrompt is the prompt of one form field.
func fieldPrompt(name string, ps *mcp.PrimitiveSchema, required bool) string {
	label := name
	if ps.Title != "" {
		label = ps.Title + " (" + name + ")"
	}
	var hints []string
	switch {
	case len(ps.Enum) > 0:
		hints = append(hints, "one of "+strings.Join(ps.Enum, ", "))
	case len(ps.OneOf) > 0:
		var opts []string
		for _, o := range ps.OneOf {
			opts = append(opts, o.Const)
		}
		hints = append(hints, "one of "+strings.Join(opts, ", "))
	case ps.Type == "array":
		hints = append(hints, "comma-separated")
	default:
		hints = append(hints, ps.Type)
	}
	if ps.Default != nil {
		hints = append(hints, fmt.Sprintf("default %v", ps.Default))
	}
	if required {
		hints = append(hints, "required")
	}
	if ps.Description != "" {
		label += " — " + ps.Description
	}
	return fmt.Sprintf("  %s [%s]: ", label, strings.Join(hints, "; "))
}

// fieldValue converts an answer to the field's type.
func fieldValue(ps *mcp.PrimitiveSchema, line string) (any, error) {
	switch ps.Type {
	case "boolean":
		return convertAs("boolean", nil, line)
	case "integer":
		return convertAs("integer", nil, line)
	case "number":
		return convertAs("number", nil, line)
	case "array":
		var out []any
		for _, part := range strings.Split(line, ",") {
			out = append(out, strings.TrimSpace(part))
		}
		return out, nil
	}
	if len(ps.Enum) > 0 && !contains(ps.Enum, line) {
		return nil, fmt.Errorf("want one of %s", strings.Join(ps.Enum, ", "))
	}
	return line, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readLine reads one line of the terminal, giving up when ctx ends.
func (f *former) readLine(ctx context.Context) (string, error) {
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := f.in.ReadString('\n')
		if err == io.EOF && line != "" {
			err = nil
		}
		ch <- result{strings.TrimRight(line, "\r\n"), err}
	}()
	select {
	case r := <-ch:
		return r.line, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// maxSamplingOutput bounds what a sampling command may print.
const maxSamplingOutput = 4 << 20

// sampleWithCommand answers a sampling request with a shell command: it
// gets the request's params as JSON on stdin and prints either a
// CreateMessageResult as JSON or plain text, taken as the assistant's
// text reply.
func sampleWithCommand(ctx context.Context, command string, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	in, err := strictjson.Marshal(p)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(in)
	var out, errOut limitedBuffer
	out.max, errOut.max = maxSamplingOutput, 4096
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("sampling command: %w: %s", err, strings.TrimSpace(errOut.String()))
	}
	if out.over {
		return nil, errors.New("sampling command: output too large")
	}
	text := bytes.TrimSpace(out.Bytes())
	if len(text) > 0 && text[0] == '{' {
		var res mcp.CreateMessageResult
		if err := strictjson.Unmarshal(text, &res); err != nil {
			return nil, fmt.Errorf("sampling command: output looks like JSON but is not a CreateMessageResult: %w", err)
		}
		return &res, nil
	}
	return &mcp.CreateMessageResult{
		Role:       mcp.RoleAssistant,
		Content:    []*mcp.Content{mcp.NewTextContent(string(text))},
		Model:      "sampling-command",
		StopReason: "endTurn",
	}, nil
}

// limitedBuffer keeps at most max bytes and notes overflow.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// A progressBar draws progress notifications on a terminal's stderr.
type progressBar struct {
	c     *cmdCtx
	mu    sync.Mutex
	drawn bool
}

// newProgressBar returns a bar, or nil when stderr is no terminal or the
// output is JSON.
func newProgressBar(c *cmdCtx) *progressBar {
	if !c.env.stderrTTY || c.o.json {
		return nil
	}
	return &progressBar{c: c}
}

func (b *progressBar) handler() func(context.Context, *mcp.ProgressNotificationParams) {
	if b == nil {
		return nil
	}
	return func(_ context.Context, p *mcp.ProgressNotificationParams) {
		b.mu.Lock()
		defer b.mu.Unlock()
		fmt.Fprint(b.c.env.stderr, "\r"+progressLine(p, 30)+"\x1b[K")
		b.drawn = true
	}
}

// progressLine renders one progress notification: a bar if the total is
// known, the count otherwise.
func progressLine(p *mcp.ProgressNotificationParams, width int) string {
	var line string
	if p.Total > 0 {
		frac := min(max(p.Progress/p.Total, 0), 1)
		n := int(frac * float64(width))
		line = fmt.Sprintf("[%s%s] %3.0f%%", strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100)
	} else {
		line = "progress " + strconv.FormatFloat(p.Progress, 'f', -1, 64)
	}
	if p.Message != "" {
		line += " " + firstLine(p.Message, 60)
	}
	return line
}

func (b *progressBar) done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprint(b.c.env.stderr, "\r\x1b[K")
	}
}
