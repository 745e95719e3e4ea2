package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// maxLine bounds one JSON-RPC message line proxied or replayed.
const maxLine = 16 << 20

// A transcript writer appends messages to a txtar file as they pass: a
// "client" section for each message from the client, a "server" section
// for each from the server, in order.
type transcriptWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (t *transcriptWriter) add(from string, line []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, "-- %s --\n%s\n", from, line)
	}
}

// cmdRecord runs a stdio server behind a pass-through proxy: stdin to the
// server, the server's stdout to stdout, every message also written to the
// transcript.
func cmdRecord(ctx context.Context, c *cmdCtx) error {
	if c.o.out == "" || len(c.command) == 0 || len(c.positional) > 0 {
		return usageError("record: gomcp record --out FILE.txtar -- COMMAND ARGS...")
	}
	f, err := os.Create(c.o.out)
	if err != nil {
		return usageError("record: %v", err)
	}
	defer f.Close()
	tw := &transcriptWriter{w: f}
	fmt.Fprintf(f, "gomcp record transcript\ncommand: %s\nrecorded: %s\n", strings.Join(c.command, " "), time.Now().UTC().Format(time.RFC3339))

	cmd := exec.Command(c.command[0], c.command[1:]...)
	cmd.Env = append(os.Environ(), c.o.env...)
	cmd.Dir = c.o.cwd
	cmd.Stderr = c.env.stderr
	cmd.WaitDelay = time.Second
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return &cliError{exit: exitUnreachable, code: "unreachable", msg: "starting the server", cause: err}
	}
	upDone := make(chan struct{})
	go func() {
		defer close(upDone)
		_ = pump(c.env.stdin, toServer, func(l []byte) { tw.add("client", l) })
		toServer.Close()
	}()
	downDone := make(chan error, 1)
	go func() {
		downDone <- pump(fromServer, c.env.stdout, func(l []byte) { tw.add("server", l) })
	}()
	var downErr error
	select {
	case downErr = <-downDone:
	case <-ctx.Done():
	case <-upDone:
		// The client is done: give the server a moment to finish.
		select {
		case downErr = <-downDone:
		case <-time.After(2 * time.Second):
		case <-ctx.Done():
		}
	}
	stopProcess(cmd, time.Second)
	if downErr != nil {
		return &cliError{exit: exitUsage, code: "unexpected", msg: "proxying the server's output", cause: downErr}
	}
	if tw.err != nil {
		return &cliError{exit: exitUsage, code: "unexpected", msg: "writing the transcript", cause: tw.err}
	}
	return f.Close()
}

// pump copies newline-delimited messages from r to w, passing each to
// note first; it returns at EOF.
func pump(r io.Reader, w io.Writer, note func([]byte)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		note(line)
		if _, err := w.Write(append(append([]byte(nil), line...), '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

// stopProcess ends a server process: wait, then SIGTERM, then SIGKILL.
func stopProcess(cmd *exec.Cmd, grace time.Duration) {
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	_ = cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	_ = cmd.Process.Kill()
	<-done
}
