// Command everything-client is the MCP client that the official conformance
// suite (@modelcontextprotocol/conformance) tests in client mode. The suite
// starts a mock server per scenario and runs
//
//	everything-client [flags] SERVER_URL
//
// with the scenario in MCP_CONFORMANCE_SCENARIO, optional scenario data (JSON)
// in MCP_CONFORMANCE_CONTEXT and, from suite 0.2 on, the protocol revision
// under test in MCP_CONFORMANCE_PROTOCOL_VERSION. The client does what the
// scenario asks, logs to stderr and exits 0, or exits 1 with the reason.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"slices"
	"time"
)

func main() {
	timeout := flag.Duration("timeout", 25*time.Second, "give up after this long")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: MCP_CONFORMANCE_SCENARIO=name everything-client [flags] SERVER_URL\n\nscenarios:\n")
		for _, name := range scenarioNames() {
			fmt.Fprintf(os.Stderr, "  %s\n", name)
		}
		flag.PrintDefaults()
	}
	flag.Parse()
	log.SetFlags(log.Lmicroseconds)
	log.SetPrefix("everything-client: ")

	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	env, err := readEnv(flag.Arg(flag.NArg() - 1))
	if err != nil {
		log.Fatal(err)
	}
	run, ok := scenarios[env.scenario]
	if !ok {
		log.Printf("unknown scenario %q", env.scenario)
		flag.Usage()
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	log.Printf("scenario %s, server %s, protocol %q", env.scenario, env.url, env.version)
	if err := run(ctx, env); err != nil {
		log.Fatalf("scenario %s: %v", env.scenario, err)
	}
	log.Printf("scenario %s: done", env.scenario)
}

// scenarioEnv is what the suite tells the client about a scenario.
type scenarioEnv struct {
	scenario string
	url      string
	// version is the protocol revision under test; empty when the suite
	// does not say (0.1.x), and then the SDK negotiates.
	version string
	// context is the scenario's data, if any.
	context map[string]json.RawMessage
	// httpClient, if set, sends the requests to the server (authorization
	// scenarios).
	httpClient *http.Client
}

// readEnv reads the scenario's environment.
func readEnv(url string) (*scenarioEnv, error) {
	env := &scenarioEnv{
		scenario: os.Getenv("MCP_CONFORMANCE_SCENARIO"),
		url:      url,
		version:  os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"),
	}
	if env.scenario == "" {
		return nil, fmt.Errorf("MCP_CONFORMANCE_SCENARIO is not set")
	}
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &env.context); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT is not a JSON object: %w", err)
		}
	}
	return env, nil
}

// scenarioNames lists the scenarios the client knows, sorted.
func scenarioNames() []string {
	names := make([]string, 0, len(scenarios))
	for name := range scenarios {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
