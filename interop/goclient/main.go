// Command goclient is gomcp's client in the cross-SDK interop tests: it
// connects to a server that serves the interop fixture (interop/ts-server.mjs,
// the TypeScript SDK's side), runs every check of the fixture that applies
// to the negotiated protocol version, prints one line per check and exits
// with status 1 if any check failed.
//
//	goclient -stdio 'node ts-server.mjs'          # a child process over stdio
//	goclient -http http://127.0.0.1:PORT/mcp      # streamable HTTP
//	goclient -sse http://127.0.0.1:PORT/sse       # HTTP+SSE (2024-11-05)
//	goclient -version 2025-06-18 ...              # pin a version; default probes
//	goclient -want 2025-11-25 ...                 # the version the pair must use
//
// interop/run.sh runs it; interop/README.md explains the checks.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	stdio := flag.String("stdio", "", "start this command (split on spaces) and speak stdio to it")
	httpURL := flag.String("http", "", "connect to this streamable HTTP endpoint")
	sseURL := flag.String("sse", "", "connect to this HTTP+SSE (2024-11-05) endpoint")
	version := flag.String("version", "", "protocol version to pin; empty lets the client probe")
	want := flag.String("want", "", "protocol version the session must end up with (default: -version)")
	known := flag.String("known", os.Getenv("KNOWN"), "checks that fail because of a known SDK bug, as name=reason;name=reason (default $KNOWN)")
	flag.Parse()
	if *want == "" {
		*want = *version
	}
	os.Exit(run(*stdio, *httpURL, *sseURL, *version, *want, parseKnown(*known)))
}

// parseKnown parses the -known flag.
func parseKnown(s string) map[string]string {
	known := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		if name, reason, ok := strings.Cut(part, "="); ok {
			known[strings.TrimSpace(name)] = reason
		}
	}
	return known
}

func run(stdio, httpURL, sseURL, version, want string, known map[string]string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ev := newEvents()
	client := newClient(version, ev)
	t, err := transport(stdio, httpURL, sseURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		return 2
	}
	cs, err := client.Connect(ctx, t)
	if err != nil {
		fmt.Printf("FAIL connect: %v\n", err)
		return 1
	}
	defer cs.Close()
	s := &session{client: client, cs: cs, ev: ev}
	failed := 0
	report := func(name string, err error) {
		if reason, ok := known[name]; ok && err != nil {
			fmt.Printf("skip %s: %s (failed: %v)\n", name, reason, err)
			return
		}
		if err != nil {
			failed++
			fmt.Printf("FAIL %s: %v\n", name, err)
			return
		}
		fmt.Printf("ok   %s\n", name)
	}
	report("initialize", s.checkInfo(want))
	if want != "" && cs.ProtocolVersion() != want {
		fmt.Printf("goclient: negotiated %s, not %s: the other checks depend on it\n", cs.ProtocolVersion(), want)
		return 1
	}
	for _, c := range checks {
		if !c.applies(cs.ProtocolVersion()) {
			continue
		}
		cctx, ccancel := context.WithTimeout(ctx, 10*time.Second)
		report(c.name, c.run(s, cctx))
		ccancel()
	}
	if failed > 0 {
		fmt.Printf("goclient: %d checks failed\n", failed)
		return 1
	}
	return 0
}

// transport returns the client transport the flags ask for.
func transport(stdio, httpURL, sseURL string) (mcp.Transport, error) {
	switch {
	case stdio != "":
		args := strings.Fields(stdio)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stderr = os.Stderr
		return mcp.NewCommandTransport(cmd, nil), nil
	case httpURL != "":
		return mcp.NewStreamableClientTransport(httpURL, nil), nil
	case sseURL != "":
		return mcp.NewSSEClientTransport(sseURL, nil)
	}
	return nil, errors.New("one of -stdio, -http and -sse is needed")
}
