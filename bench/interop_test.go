package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// An ixCase is one client/server pairing: which SDK plays each side, the
// transport, the version the client pins ("" lets it choose: gomcp and
// mcp-go probe with server/discover, the go-sdk asks for 2026-07-28) and
// the version the pair must end up speaking.
type ixCase struct {
	client, server string
	transport      string // "stdio", "http" (streamable HTTP) or "sse" (2024-11-05 HTTP+SSE)
	pin, want      string
	// stateless serves streamable HTTP without sessions: the only way the
	// go-sdk serves 2026-07-28, and an option of gomcp and mcp-go.
	stateless bool
	// json makes the streamable HTTP server answer every request with a
	// single JSON object instead of an SSE stream.
	json bool
}

func (c ixCase) name() string {
	pin := c.pin
	if pin == "" {
		pin = "default"
	}
	tr := c.transport
	if c.stateless {
		tr += "-stateless"
	}
	if c.json {
		tr += "-json"
	}
	return c.client + "-client/" + c.server + "-server/" + tr + "/" + pin
}

// ixCases are the pairings: every other SDK's client against gomcp's
// server, and gomcp's client against every other SDK's server, on every
// transport both offer, in every era both speak.
var ixCases = []ixCase{
	// The go-sdk's client against gomcp's server.
	{client: "gosdk", server: "ours", transport: "stdio", pin: v20251125, want: v20251125},
	{client: "gosdk", server: "ours", transport: "stdio", want: v20260728},
	{client: "gosdk", server: "ours", transport: "http", pin: v20250326, want: v20250326},
	{client: "gosdk", server: "ours", transport: "http", pin: v20250618, want: v20250618},
	{client: "gosdk", server: "ours", transport: "http", pin: v20251125, want: v20251125},
	{client: "gosdk", server: "ours", transport: "http", want: v20260728},
	{client: "gosdk", server: "ours", transport: "http", stateless: true, pin: v20251125, want: v20251125},
	{client: "gosdk", server: "ours", transport: "http", json: true, pin: v20251125, want: v20251125},
	{client: "gosdk", server: "ours", transport: "sse", pin: v20241105, want: v20241105},
	// mcp-go's client against gomcp's server.
	{client: "mcpgo", server: "ours", transport: "stdio", pin: v20251125, want: v20251125},
	{client: "mcpgo", server: "ours", transport: "stdio", want: v20260728},
	{client: "mcpgo", server: "ours", transport: "http", pin: v20251125, want: v20251125},
	{client: "mcpgo", server: "ours", transport: "http", want: v20260728},
	{client: "mcpgo", server: "ours", transport: "http", json: true, pin: v20251125, want: v20251125},
	{client: "mcpgo", server: "ours", transport: "sse", pin: v20241105, want: v20241105},
	// gomcp's client against the go-sdk's server, whose stateful handler
	// also answers server/discover.
	{client: "ours", server: "gosdk", transport: "stdio", pin: v20251125, want: v20251125},
	{client: "ours", server: "gosdk", transport: "stdio", want: v20260728},
	{client: "ours", server: "gosdk", transport: "http", pin: v20250326, want: v20250326},
	{client: "ours", server: "gosdk", transport: "http", pin: v20251125, want: v20251125},
	// The go-sdk's stateful HTTP handler lists only handshake versions in
	// its server/discover result, so a default client falls back to them.
	{client: "ours", server: "gosdk", transport: "http", want: v20251125},
	{client: "ours", server: "gosdk", transport: "http", stateless: true, want: v20260728},
	{client: "ours", server: "gosdk", transport: "http", json: true, pin: v20251125, want: v20251125},
	{client: "ours", server: "gosdk", transport: "sse", pin: v20241105, want: v20241105},
	// gomcp's client against mcp-go's server.
	{client: "ours", server: "mcpgo", transport: "stdio", pin: v20251125, want: v20251125},
	{client: "ours", server: "mcpgo", transport: "stdio", want: v20260728},
	{client: "ours", server: "mcpgo", transport: "http", pin: v20251125, want: v20251125},
	{client: "ours", server: "mcpgo", transport: "http", want: v20260728},
	{client: "ours", server: "mcpgo", transport: "sse", pin: v20241105, want: v20241105},
}

// ixKnownBugs lists the checks that fail because of a bug in an SDK, by
// case name and check name ("*": the whole case), with the bug. Each is
// explained, with the exchange and the spec rule, in interop/README.md.
// Entries for gomcp bugs are to be removed once the bug is fixed; entries
// for other SDKs stay until the pinned version is upgraded.
var ixKnownBugs = map[string]map[string]string{
	"ours-client/gosdk-server/http/default":         {"resources-read-missing": gosdkNotFoundCode},
	"ours-client/gosdk-server/stdio/2025-11-25":     {"resources-read-missing": gosdkNotFoundCode},
	"ours-client/gosdk-server/http/2025-03-26":      {"resources-read-missing": gosdkNotFoundCode},
	"ours-client/gosdk-server/http/2025-11-25":      {"resources-read-missing": gosdkNotFoundCode},
	"ours-client/gosdk-server/sse/2024-11-05":       {"resources-read-missing": gosdkNotFoundCode},
	"ours-client/gosdk-server/http-json/2025-11-25": {"resources-read-missing": gosdkNotFoundCode},
	"mcpgo-client/ours-server/http/2025-11-25": {
		"cancellation": mcpgoNoCancelOverHTTP,
	},
	"mcpgo-client/ours-server/http-json/2025-11-25": {
		"cancellation": mcpgoNoCancelOverHTTP,
	},
	"mcpgo-client/ours-server/sse/2024-11-05": {
		"cancellation": mcpgoNoCancelOverHTTP,
		"sampling":     mcpgoSSEClientDropsRequests,
		"roots":        mcpgoSSEClientDropsRequests,
	},
	"ours-client/mcpgo-server/sse/2024-11-05": {
		"sampling": mcpgoSSEServerNoRequests,
		"roots":    mcpgoSSEServerNoRequests,
	},
	"ours-client/mcpgo-server/http/2025-11-25": {
		"progress": mcpgoLosesNotifications,
		"logging":  mcpgoLosesNotifications,
	},
	"ours-client/mcpgo-server/http/default": {
		"progress": mcpgoLosesNotifications,
		"logging":  mcpgoLosesNotifications,
	},
}

// Bugs of the go-sdk v1.8.0 and mcp-go v1.2.1 that the interop cases meet;
// see interop/README.md.
const (
	gosdkNotFoundCode = "SDK bug (go-sdk v1.8.0): resources/read of an unknown URI answers -32602 in every protocol " +
		"version (mcp/resource.go CodeResourceNotFound; -32002 only with MCPGODEBUG=customresnotfounderrcode=1), " +
		"but 2025-11-25 and earlier specify -32002 (interop/README.md, bug 6)"
	mcpgoNoCancelOverHTTP = "SDK bug (mcp-go v1.2.1): its client never sends notifications/cancelled over HTTP before " +
		"2026-07-28 (client.go cancelRequest returns early for HTTP transports), though 2025-11-25 transports says " +
		"\"To cancel, the client SHOULD explicitly send an MCP CancelledNotification\" (interop/README.md, bug 2)"
	mcpgoSSEClientDropsRequests = "SDK bug (mcp-go v1.2.1): its HTTP+SSE client transport has no handler for requests " +
		"from the server and drops sampling/createMessage and roots/list, though the client declared sampling and roots; " +
		"the call hangs (interop/README.md, bug 3)"
	mcpgoSSEServerNoRequests = "SDK bug (mcp-go v1.2.1): its HTTP+SSE server sessions cannot send requests to the client " +
		"(\"session does not support sampling\"), though the client declared sampling and roots (interop/README.md, bug 4)"
	mcpgoLosesNotifications = "SDK bug (mcp-go v1.2.1): its streamable HTTP server reorders and drops notifications sent " +
		"during a request (seen: progress 3 then 1, 2 lost; log info lost or after error), in about one run in five " +
		"(interop/README.md, bug 5)"
)

// TestInterop runs the interop scenario for every case in ixCases.
func TestInterop(t *testing.T) {
	if testing.Short() {
		t.Skip("interop tests start child processes and HTTP servers; skipped in -short mode")
	}
	for _, c := range ixCases {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			runInteropCase(t, c)
		})
	}
}

func runInteropCase(t *testing.T, c ixCase) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	target := c.server + "|" + c.name()
	if c.transport != "stdio" {
		target = startInteropHTTP(t, c)
	}
	ev := newIxEvents()
	var connect func(context.Context, string, string, string, *ixEvents) (ixClient, error)
	switch c.client {
	case "ours":
		connect = connectOursInterop
	case "gosdk":
		connect = connectGosdkInterop
	case "mcpgo":
		connect = connectMcpgoInterop
	}
	cl, err := connect(ctx, c.transport, target, c.pin, ev)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer func() {
		if err := cl.Close(); err != nil {
			t.Logf("close: %v", err)
		}
	}()
	want := ixInfo{Name: ixServerName, Version: ixServerVersion, Protocol: c.want, Instructions: ixInstructions}
	stateful := !(c.stateless && c.want < v20260728)
	runInteropScenario(t, cl, ev, want, stateful, ixKnownBugs[c.name()])
}

// lazyHandler serves the handler stored in it, so that a server can be
// told its own URL before it serves.
type lazyHandler struct{ h atomic.Pointer[http.Handler] }

func (l *lazyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*l.h.Load()).ServeHTTP(w, r)
}

// startInteropHTTP serves the case's server SDK's fixture on 127.0.0.1
// and returns the URL its clients connect to. The server stops when the
// test ends.
func startInteropHTTP(t *testing.T, c ixCase) string {
	lazy := &lazyHandler{}
	ts := httptest.NewServer(lazy)
	var h http.Handler
	var closeFn func() error
	url := ts.URL
	switch c.server {
	case "ours":
		h, closeFn = oursInteropHandler(c.transport, c.stateless, c.json)
	case "gosdk":
		h, closeFn = gosdkInteropHandler(c.transport, c.stateless, c.json)
	case "mcpgo":
		h, closeFn = mcpgoInteropHandler(c.transport, c.stateless, c.json, ts.URL)
		if c.transport == "sse" {
			url += "/sse"
		}
	}
	h = traceHandler(c.name(), h)
	lazy.h.Store(&h)
	t.Cleanup(func() {
		closeFn()
		ts.CloseClientConnections()
		ts.Close()
	})
	return url
}
