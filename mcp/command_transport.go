package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// DefaultTerminateDuration is how long a CommandTransport's connection waits
// at each step of stopping the server process: after closing its stdin,
// then after SIGTERM, before SIGKILL.
const DefaultTerminateDuration = 5 * time.Second

// CommandTransportOptions configure a CommandTransport. A nil
// *CommandTransportOptions means defaults.
type CommandTransportOptions struct {
	// TerminateDuration is the shutdown grace: how long closing the
	// connection waits for the server process at each step of stopping it,
	// after closing its stdin and then after SIGTERM, before SIGKILL
	// (default DefaultTerminateDuration). Closing takes at most about twice
	// this long. A one-shot program that must not wait for a server that
	// lingers after its input closes uses a short grace, such as 100ms.
	TerminateDuration time.Duration
}

// A CommandTransport is the client side of MCP's stdio transport: it starts
// a command and speaks newline-delimited JSON-RPC over its stdin and stdout.
//
// Each Connect starts a server process of its own: the first runs cmd
// itself (so cmd.Process and cmd.ProcessState describe it), later ones run
// a copy of cmd as it was when first started. A client uses that to survive
// a server older than protocol 2026-07-28 that exits, or closes its stdout,
// when probed with server/discover: it starts the command again, connects
// with initialize, and remembers for this transport that the server is
// legacy, so later connections skip the probe (Client.Connect).
//
// The command's stderr goes to cmd.Stderr if set, and to os.Stderr
// otherwise; it is always drained, so a chatty server never blocks on it.
type CommandTransport struct {
	cmd *exec.Cmd
	// terminate bounds each step of stopping the process on Close.
	terminate time.Duration
	// legacy remembers that the server hung up on server/discover and
	// speaks initialize.
	legacy legacyMemory

	mu       sync.Mutex
	template *exec.Cmd // cmd as it was before its first start; nil until then
}

// NewCommandTransport returns a CommandTransport that runs cmd, configured
// by opts (nil means defaults). The command must not have been started; its
// Stdin and Stdout are set by Connect.
func NewCommandTransport(cmd *exec.Cmd, opts *CommandTransportOptions) *CommandTransport {
	t := &CommandTransport{cmd: cmd}
	if opts != nil {
		t.terminate = opts.TerminateDuration
	}
	return t
}

// Connect starts the command and connects to it: a new server process
// for each call.
func (t *CommandTransport) Connect(ctx context.Context) (Connection, error) {
	cmd := t.next()
	// Plain pipes, not cmd.StdoutPipe: exec.Cmd.Wait closes those, which
	// would lose output still unread when the process exits by itself.
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("mcp: command stdin: %w", err)
	}
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return nil, fmt.Errorf("mcp: command stdout: %w", err)
	}
	cmd.Stdin, cmd.Stdout = stdinR, stdoutW
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	err = cmd.Start()
	stdinR.Close()
	stdoutW.Close()
	if err != nil {
		stdin.Close()
		stdout.Close()
		return nil, fmt.Errorf("mcp: starting %s: %w", cmd.Path, err)
	}
	d := t.terminate
	if d <= 0 {
		d = DefaultTerminateDuration
	}
	pc := &processCloser{cmd: cmd, stdin: stdin, stdout: stdout, wait: d, exited: make(chan struct{})}
	go pc.reap()
	return jsonrpc2.NewLineStream(stdout, stdin, pc, nil), nil
}

// next returns the command to start: cmd itself the first time, then a
// fresh copy of cmd as it was before that first start. A copy's Cancel (set
// by exec.CommandContext to kill the process it was made for) kills the
// copy's own process instead.
func (t *CommandTransport) next() *exec.Cmd {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.template == nil {
		template := *t.cmd
		t.template = &template
		return t.cmd
	}
	cmd := *t.template
	if cmd.Cancel != nil {
		cmd.Cancel = func() error { return cmd.Process.Kill() }
	}
	return &cmd
}

// processCloser stops the server process: close stdin, wait; SIGTERM, wait;
// SIGKILL. The MCP stdio spec describes this order.
type processCloser struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	stdout io.Closer
	wait   time.Duration

	exited  chan struct{}
	waitErr error
	once    sync.Once
	err     error
}

func (p *processCloser) reap() {
	p.waitErr = p.cmd.Wait()
	close(p.exited)
}

func (p *processCloser) Close() error {
	p.once.Do(func() {
		// Each step's error is beside the point: the process may have
		// exited already, and whether it exits is what waitFor sees.
		_ = p.stdin.Close()
		defer p.stdout.Close()
		if p.waitFor() {
			p.err = p.exitErr()
			return
		}
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		if p.waitFor() {
			return
		}
		_ = p.cmd.Process.Kill()
		<-p.exited
		p.err = errors.New("mcp: server process did not exit and was killed")
	})
	return p.err
}

func (p *processCloser) waitFor() bool {
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case <-p.exited:
		return true
	case <-timer.C:
		return false
	}
}

func (p *processCloser) exitErr() error {
	var exitErr *exec.ExitError
	if errors.As(p.waitErr, &exitErr) {
		return fmt.Errorf("mcp: server process: %w", p.waitErr)
	}
	return nil
}
