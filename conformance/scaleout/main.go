// Command scaleout runs several instances of an MCP server behind a
// round-robin reverse proxy, so that a test suite written for one server
// runs against many: nothing is sticky, each request goes to the next
// instance.
//
//	scaleout -http 127.0.0.1:0 [-n 3] [-server PATH] [server flags...]
//
// It starts n copies of the server program (default
// $SCALEOUT_SERVER, else everything-server beside this program), each
// with "-http 127.0.0.1:0", the server flags given and the words of
// $SCALEOUT_FLAGS (e.g. "-redis redis://127.0.0.1:6379/0 -state-key
// HEX"), waits for each to print "everything-server: listening on
// http://ADDR", and then prints the same line with the proxy's address,
// as everything-server does; conformance/run.sh relies on it. SIGINT or
// SIGTERM stops the proxy and the instances.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gomcp/sdk/mcp/storetest"
)

const readyPrefix = "everything-server: listening on "

func main() {
	log.SetFlags(0)
	log.SetPrefix("scaleout: ")
	addr, n, server, flags, err := parseArgs(os.Args[1:])
	if err != nil {
		log.Fatal(err)
	}
	flags = append(flags, strings.Fields(os.Getenv("SCALEOUT_FLAGS"))...)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var cmds []*exec.Cmd
	defer func() { stopAll(cmds) }()
	var targets []*url.URL
	for i := range n {
		cmd, u, err := startInstance(server, flags, i)
		if cmd != nil {
			cmds = append(cmds, cmd)
		}
		if err != nil {
			log.Print(err)
			return
		}
		targets = append(targets, u)
	}
	proxy := storetest.RoundRobin(targets)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Print(err)
		return
	}
	hs := &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second}
	fmt.Fprintf(os.Stderr, "%shttp://%s\n", readyPrefix, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		log.Print(err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
}

// parseArgs takes -http, -n and -server and leaves every other argument
// to the instances.
func parseArgs(args []string) (addr string, n int, server string, rest []string, err error) {
	n, server = 3, os.Getenv("SCALEOUT_SERVER")
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch name {
		case "http", "n", "server":
		default:
			rest = append(rest, args[i])
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return "", 0, "", nil, fmt.Errorf("flag -%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch name {
		case "http":
			addr = val
		case "n":
			if n, err = strconv.Atoi(val); err != nil || n < 1 {
				return "", 0, "", nil, fmt.Errorf("-n %q: want a positive number", val)
			}
		case "server":
			server = val
		}
	}
	if addr == "" {
		return "", 0, "", nil, errors.New("-http ADDR is required")
	}
	if server == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", 0, "", nil, err
		}
		server = filepath.Join(filepath.Dir(exe), "everything-server")
	}
	return addr, n, server, rest, nil
}

// startInstance starts one instance and waits until it listens.
func startInstance(server string, flags []string, i int) (*exec.Cmd, *url.URL, error) {
	cmd := exec.Command(server, append([]string{"-http", "127.0.0.1:0"}, flags...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("starting instance %d: %w", i, err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if a, ok := strings.CutPrefix(line, readyPrefix); ok {
				select {
				case ready <- strings.TrimSpace(a):
				default:
				}
				continue
			}
			fmt.Fprintf(os.Stderr, "[%d] %s\n", i, line)
		}
	}()
	select {
	case a := <-ready:
		u, err := url.Parse(a)
		return cmd, u, err
	case <-time.After(15 * time.Second):
		return cmd, nil, fmt.Errorf("instance %d did not start within 15s", i)
	}
}

// stopAll sends SIGTERM to the instances, and kills those still running
// after 5 s.
func stopAll(cmds []*exec.Cmd) {
	done := make(chan struct{}, len(cmds))
	for _, c := range cmds {
		_ = c.Process.Signal(syscall.SIGTERM)
		go func() { _ = c.Wait(); done <- struct{}{} }()
	}
	timeout := time.After(5 * time.Second)
	for range cmds {
		select {
		case <-done:
		case <-timeout:
			for _, c := range cmds {
				_ = c.Process.Kill()
			}
			return
		}
	}
}
