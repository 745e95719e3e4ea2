package bench

// Cross-SDK interoperability tests: gomcp's client and server against the
// clients and servers of the official go-sdk and mcp-go, over stdio (a child
// process), streamable HTTP and the 2024-11-05 HTTP+SSE transport, in both
// protocol eras.
//
// Every SDK serves the same fixture (ixTools below: the same tools,
// prompts, resources, completions and answers), and every SDK's client is
// driven through the same small interface (ixClient) by one scenario
// (runInteropScenario), so a case reads "client X, server Y, transport T,
// version V: every check of the scenario". The files:
//
//	interop_fixture_test.go   this file: the fixture's names and answers, the
//	                          client interface, events, child processes
//	interop_scenario_test.go  the checks every pair must pass
//	interop_ours_test.go      gomcp's fixture server and client adapter
//	interop_gosdk_test.go     the go-sdk's fixture server and client adapter
//	interop_mcpgo_test.go     mcp-go's fixture server and client adapter
//	interop_test.go           the matrix of cases and the known SDK bugs
//	interop_stdio_test.go     stdio shutdown with an open listen stream
//	interop_trace_test.go     wire tracing (GOMCP_INTEROP_TRACE)
//
// interop/README.md describes the fixture and the bugs found; interop/run.sh
// runs the same fixture against the TypeScript SDK.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The fixture: names and fixed answers every fixture server and client
// shares.
const (
	ixServerName    = "interop-server"
	ixServerVersion = "1.0.0"
	ixInstructions  = "Interop fixture: tools, prompts, resources, completion, logging."
	ixClientName    = "interop-client"
	ixClientVersion = "0.0.1"

	// ixEchoText goes through the echo tool unchanged; it has non-ASCII,
	// quotes, control characters and HTML-special characters.
	ixEchoText = "héllo \"wörld\"\n\t<&> 😀"
	// ixFailText is the text of the fail tool's error result.
	ixFailText = "boom"

	ixSampleIn     = "ping-sample"
	ixSampleOut    = "pong-sample"
	ixModel        = "interop-model"
	ixElicitPrompt = "What is your name?"
	ixElicitName   = "Ada"
	ixRootURI      = "file:///interop/root"
	ixRootName     = "interop root"

	ixStaticURI  = "test://static"
	ixStaticText = "static text"
	ixBlobURI    = "test://blob"
	ixTemplate   = "test://items/{id}"
	ixPromptName = "greet"
	ixLogger     = "interop"
)

// ixBlob is the content of the blob resource; base64 "AAECA/8=".
var ixBlob = []byte{0, 1, 2, 3, 255}

// The answers the fixture's tools give when the client behaved as the
// fixture client does.
const (
	ixSampleResult = "sampled: " + ixSampleOut + " by " + ixModel
	ixElicitResult = "elicited: accept " + ixElicitName
	ixRootsResult  = "roots: " + ixRootURI
	ixProgressDone = "progress done"
	ixLogged       = "logged"
	ixCancelled    = "cancelled"
	ixChanged      = "changed"
	ixAddedTool    = "added"
	ixRootsChanged = "roots changed"
)

// The content of the media tool's result: an image and an embedded text
// resource, each described as ixResult.Media lists it.
const (
	ixEmbeddedURI  = "test://embedded"
	ixEmbeddedText = "embedded text"
)

// ixMedia is what ixResult.Media must hold for the media tool.
var ixMedia = []string{
	"image:image/png:AAECA/8=",
	"resource:" + ixEmbeddedURI + ":text/plain:" + ixEmbeddedText,
}

// ixTools are the tools every fixture server offers:
//
//	echo {text}        one text block with text
//	add {a, b}         structured output {"sum": a+b} and its JSON as text
//	fail {}            a tool error (isError) with the text ixFailText
//	progress {}        notifies progress 1, 2, 3 of 3, then ixProgressDone
//	log {}             logs "log-debug", "log-info", "log-error" at those levels
//	wait {}            notifies progress 0, then blocks until cancelled
//	wait_status {}     ixCancelled once a wait call saw its cancellation
//	sample {}          asks the client's model (sampling)
//	elicit {}          asks the user for a name (elicitation, form mode)
//	roots {}           asks the client for its roots
//	roots_changed {}   ixRootsChanged once the client said its roots changed
//	media {}           an image (ixBlob) and an embedded text resource
//	change {}          adds the tool "added" (a tools/list_changed)
//
// Servers list them in pages of ixPageSize, so clients must follow
// cursors.
var ixTools = []string{"echo", "add", "fail", "progress", "log", "wait", "wait_status", "sample", "elicit", "roots", "roots_changed", "media", "change"}

// ixPageSize is the page size of the fixture servers' list methods.
const ixPageSize = 4

// ixNameCandidates complete the greet prompt's "name" argument and
// ixIDCandidates the template's "id" variable, by prefix.
var (
	ixNameCandidates = []string{"Ada", "Alan", "Grace"}
	ixIDCandidates   = []string{"1", "10", "2"}
)

// completeByPrefix returns the candidates that start with prefix.
func completeByPrefix(candidates []string, prefix string) []string {
	var out []string
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// sampleAnswer is the fixture client's sampling behaviour: it answers
// ixSampleOut to a request whose first message is ixSampleIn.
func sampleAnswer(firstText string) string {
	if firstText != ixSampleIn {
		return "unexpected sampling request: " + firstText
	}
	return ixSampleOut
}

// sampleReport is what the sample tool returns for the client's answer.
func sampleReport(text, model string) string {
	return "sampled: " + text + " by " + model
}

// elicitAnswer is the fixture client's elicitation behaviour: it accepts a
// form whose message is ixElicitPrompt and that asks for "name".
func elicitAnswer(message string, hasName bool) (action string, content map[string]any) {
	if message != ixElicitPrompt || !hasName {
		return "decline", nil
	}
	return "accept", map[string]any{"name": ixElicitName}
}

// elicitReport is what the elicit tool returns for the user's answer.
func elicitReport(action string, content map[string]any) string {
	name, _ := content["name"].(string)
	return strings.TrimSpace("elicited: " + action + " " + name)
}

// rootsReport is what the roots tool returns for the client's roots.
func rootsReport(uris []string) string { return "roots: " + strings.Join(uris, ",") }

// cancelFlag records that a wait call saw its context end; wait_status
// reports it. One per fixture server.
type cancelFlag struct {
	once sync.Once
	ch   chan struct{}
}

func newCancelFlag() *cancelFlag { return &cancelFlag{ch: make(chan struct{})} }

func (f *cancelFlag) set() { f.once.Do(func() { close(f.ch) }) }

// status waits up to 5s for the flag and reports it.
func (f *cancelFlag) status(ctx context.Context) string {
	select {
	case <-f.ch:
		return ixCancelled
	case <-ctx.Done():
		return "not cancelled: " + ctx.Err().Error()
	case <-time.After(5 * time.Second):
		return "not cancelled"
	}
}

// What a client adapter reports, in SDK-neutral form.
type (
	// ixInfo is what a session learnt when it connected.
	ixInfo struct {
		Name, Version, Protocol, Instructions string
		// Caps lists the server capabilities declared, sorted:
		// "completions", "logging", "prompts", "resources", "tools".
		Caps []string
	}
	ixTool struct {
		Name         string
		InputProps   []string
		OutputSchema bool
	}
	ixResult struct {
		Texts []string
		// Media describes the other content blocks: "image:MIME:BASE64",
		// "resource:URI:MIME:TEXT".
		Media []string
		// Structured is the structuredContent as compact JSON, "" if none.
		Structured string
		IsError    bool
	}
	ixArg struct {
		Name     string
		Required bool
	}
	ixPrompt struct {
		Name string
		Args []ixArg
	}
	ixMessage  struct{ Role, Text string }
	ixResource struct {
		URI, Name, MIMEType string
	}
	ixContents struct {
		URI, MIMEType, Text string
		Blob                []byte
		IsBlob              bool
	}
	// ixRef is a completion reference: a prompt name or a template URI.
	ixRef struct {
		Prompt, Template string
	}
)

// An ixClient is one connected client session of some SDK, seen through
// the operations the scenario checks. Notifications and the requests the
// server makes of the client go to the session's ixEvents.
type ixClient interface {
	Info() ixInfo
	Ping(ctx context.Context) error
	ListTools(ctx context.Context) ([]ixTool, error)
	// CallTool calls a tool; a non-empty progressToken asks for progress
	// notifications, which go to ixEvents.
	CallTool(ctx context.Context, name string, args map[string]any, progressToken string) (*ixResult, error)
	ListPrompts(ctx context.Context) ([]ixPrompt, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) ([]ixMessage, error)
	ListResources(ctx context.Context) ([]ixResource, error)
	ReadResource(ctx context.Context, uri string) ([]ixContents, error)
	ListTemplates(ctx context.Context) ([]string, error)
	Complete(ctx context.Context, ref ixRef, arg, value string) ([]string, error)
	// SetLogLevel sets the level of the log messages the server sends:
	// logging/setLevel in the legacy era, the _meta logLevel of later
	// requests in 2026-07-28.
	SetLogLevel(ctx context.Context, level string) error
	// ErrorCode returns the JSON-RPC error code of an error a call
	// returned, or 0 if it carries none.
	ErrorCode(err error) int
	// NotifyRootsChanged tells the server the client's roots changed
	// (notifications/roots/list_changed, legacy era).
	NotifyRootsChanged(ctx context.Context) error
	// WatchToolsChanged makes sure tools/list_changed notifications reach
	// ixEvents: nothing to do in the legacy era, a subscriptions/listen
	// stream in 2026-07-28. stop ends the stream.
	WatchToolsChanged(ctx context.Context) (stop func(), err error)
	Close() error
}

// ixEvents records what a client session received besides responses.
type ixEvents struct {
	mu           sync.Mutex
	logs         []string // "level:data"
	progress     map[string][]float64
	toolsChanged int
	samples      int // calls of the client's sampling handler
	elicits      int // calls of the client's elicitation handler
}

func newIxEvents() *ixEvents { return &ixEvents{progress: map[string][]float64{}} }

func (e *ixEvents) addLog(level string, data any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.logs = append(e.logs, level+":"+fmt.Sprint(data))
}

func (e *ixEvents) addProgress(token any, progress float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	k := fmt.Sprint(token)
	e.progress[k] = append(e.progress[k], progress)
}

func (e *ixEvents) count(field *int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	*field++
}

// snapshot returns a copy of the recorded logs and progress of token.
func (e *ixEvents) snapshot(token string) (logs []string, progress []float64, toolsChanged int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.logs), slices.Clone(e.progress[token]), e.toolsChanged
}

// waitFor polls cond until it holds or d passes, and reports whether it
// held.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sortedKeys returns the keys of a set-like map, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Versions the interop cases pin.
const (
	v20241105 = "2024-11-05"
	v20250326 = "2025-03-26"
	v20250618 = "2025-06-18"
	v20251125 = "2025-11-25"
	v20260728 = "2026-07-28"
)

// ----- child processes -----

// interopChildEnv names the environment variable that turns the test
// binary into a stdio fixture server of one SDK ("ours", "gosdk",
// "mcpgo"). The init function below serves and exits before any test runs.
const interopChildEnv = "GOMCP_INTEROP_STDIO_SERVER"

// interopHTTPEnv names the environment variable that turns the test
// binary into an HTTP fixture server of one SDK, "SDK:TRANSPORT" with
// TRANSPORT "http" or "sse", for clients outside Go (interop/run.sh). It
// listens on 127.0.0.1:0, prints "interop-server: listening on URL" to
// stderr and serves until interrupted or terminated.
const interopHTTPEnv = "GOMCP_INTEROP_HTTP_SERVER"

func init() {
	// The bench package's TestMain belongs to the benchmarks; serving the
	// child here, before TestMain, keeps the interop files self-contained.
	if name := os.Getenv(interopChildEnv); name != "" {
		os.Exit(serveInteropStdio(name))
	}
	if spec := os.Getenv(interopHTTPEnv); spec != "" {
		if err := serveInteropHTTP(spec); err != nil {
			fmt.Fprintln(os.Stderr, "interop-server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// serveInteropHTTP serves the fixture of spec ("SDK:TRANSPORT") until
// SIGINT or SIGTERM.
func serveInteropHTTP(spec string) error {
	sdk, transport, _ := strings.Cut(spec, ":")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	var h http.Handler
	var closeFn func() error
	switch sdk {
	case "ours":
		h, closeFn = oursInteropHandler(transport, false, false)
	case "gosdk":
		h, closeFn = gosdkInteropHandler(transport, false, false)
	case "mcpgo":
		h, closeFn = mcpgoInteropHandler(transport, false, false, base)
	default:
		ln.Close()
		return fmt.Errorf("unknown SDK %q", sdk)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stderr, "interop-server: listening on %s\n", base)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		closeFn()
		return err
	case <-ctx.Done():
	}
	closeFn()
	return hs.Close()
}

// serveInteropStdio serves the named SDK's fixture over stdin and stdout
// until stdin closes, and returns the exit code.
func serveInteropStdio(name string) int {
	flush := traceStdio()
	defer flush()
	var err error
	switch name {
	case "ours":
		err = serveOursStdio()
	case "gosdk":
		err = serveGosdkStdio()
	case "mcpgo":
		err = serveMcpgoStdio()
	default:
		err = fmt.Errorf("unknown SDK %q", name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop stdio server:", err)
		return 1
	}
	return 0
}

// interopChildCommand returns the program and environment that start a
// stdio fixture server: this test binary, re-executed. target is the
// SDK's name, then "|" and the case's name (for traces).
func interopChildCommand(target string) (exe string, env []string, err error) {
	exe, err = os.Executable()
	if err != nil {
		return "", nil, err
	}
	sdk, caseName, _ := strings.Cut(target, "|")
	return exe, append(os.Environ(), interopChildEnv+"="+sdk, interopCaseEnv+"="+caseName), nil
}
