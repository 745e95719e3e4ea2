package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// ixCheck is one check of the scenario: a subtest name, the first
// protocol version it applies to and the versions after which it no
// longer does (empty: every later version).
type ixCheck struct {
	name     string
	since    string
	until    string // last version it applies to, "" for all
	run      func(ctx context.Context, c ixClient, ev *ixEvents, env ixEnv) error
	stateful bool // needs server-to-client requests on one session (not stateless legacy HTTP)
}

// ixEnv is what a check needs to know about the session it runs on.
type ixEnv struct {
	version string
	// stateful is false for legacy-era streamable HTTP without sessions,
	// where the server cannot reach the client outside a response and
	// keeps nothing between requests (not even the log level).
	stateful bool
}

// applies reports whether the check applies at protocol version v.
func (k ixCheck) applies(v string) bool {
	return v >= k.since && (k.until == "" || v <= k.until)
}

// ixChecks is the scenario, in order. Every check compares what the
// client saw with the fixture's fixed answers.
var ixChecks = []ixCheck{
	{name: "ping", since: v20241105, until: v20251125, run: checkPing},
	{name: "tools-list", since: v20241105, run: checkToolsList},
	{name: "tools-call-text", since: v20241105, run: checkEchoText},
	{name: "tools-call-structured", since: v20241105, run: checkStructured},
	{name: "tools-call-is-error", since: v20241105, run: checkIsError},
	{name: "tools-call-media", since: v20241105, run: checkMedia},
	{name: "tools-call-unknown-tool", since: v20241105, run: checkUnknownTool},
	{name: "tools-call-invalid-arguments", since: v20241105, run: checkInvalidArgs},
	{name: "progress", since: v20241105, run: checkProgress},
	{name: "logging", since: v20241105, run: checkLogging},
	{name: "cancellation", since: v20241105, run: checkCancellation},
	{name: "sampling", since: v20241105, run: checkSampling, stateful: true},
	{name: "elicitation", since: v20250618, run: checkElicitation, stateful: true},
	{name: "roots", since: v20241105, run: checkRoots, stateful: true},
	{name: "roots-list-changed", since: v20241105, until: v20251125, run: checkRootsListChanged, stateful: true},
	{name: "prompts-list", since: v20241105, run: checkPromptsList},
	{name: "prompts-get", since: v20241105, run: checkPromptsGet},
	{name: "resources-list", since: v20241105, run: checkResourcesList},
	{name: "resources-read", since: v20241105, run: checkResourcesRead},
	{name: "resources-read-missing", since: v20241105, run: checkResourceMissing},
	{name: "resources-templates-list", since: v20241105, run: checkTemplatesList},
	{name: "resources-read-template", since: v20241105, run: checkTemplateRead},
	{name: "completion-prompt", since: v20241105, run: checkCompletePrompt},
	{name: "completion-resource", since: v20241105, run: checkCompleteResource},
	{name: "tools-list-changed", since: v20241105, run: checkToolsListChanged, stateful: true}, // changes the server: keep it last
}

// interopRunKnownEnv, when set, runs the checks listed as known SDK bugs
// instead of skipping them, to see whether a bug is still there.
const interopRunKnownEnv = "GOMCP_INTEROP_RUN_KNOWN"

// runInteropScenario runs every check that applies to the session's
// protocol version as a subtest. known maps check names to the SDK bug
// that makes them fail ("SDK bug (which SDK): what"); those subtests skip
// with that description.
// The key "*" names a bug that breaks the whole case.
func runInteropScenario(t *testing.T, c ixClient, ev *ixEvents, want ixInfo, stateful bool, known map[string]string) {
	if os.Getenv(interopRunKnownEnv) != "" {
		known = nil
	}
	if reason, ok := known["*"]; ok {
		t.Skip(reason)
	}
	info := c.Info()
	t.Run("initialize", func(t *testing.T) {
		if reason, ok := known["initialize"]; ok {
			t.Skip(reason)
		}
		if err := checkInfo(info, want); err != nil {
			t.Error(err)
		}
	})
	if info.Protocol != want.Protocol {
		t.Fatalf("negotiated %q, want %q: the other checks depend on the version", info.Protocol, want.Protocol)
	}
	for _, k := range ixChecks {
		if !k.applies(info.Protocol) || (k.stateful && !stateful) {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			if reason, ok := known[k.name]; ok {
				t.Skip(reason)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := k.run(ctx, c, ev, ixEnv{version: info.Protocol, stateful: stateful}); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkInfo compares what the session learnt at connection with want.
func checkInfo(got, want ixInfo) error {
	var errs []error
	if got.Name != want.Name || got.Version != want.Version {
		errs = append(errs, fmt.Errorf("server info %s %s, want %s %s", got.Name, got.Version, want.Name, want.Version))
	}
	if got.Protocol != want.Protocol {
		errs = append(errs, fmt.Errorf("protocol version %q, want %q", got.Protocol, want.Protocol))
	}
	if got.Instructions != want.Instructions {
		errs = append(errs, fmt.Errorf("instructions %q, want %q", got.Instructions, want.Instructions))
	}
	wantCaps := []string{"logging", "prompts", "resources", "tools"}
	if want.Protocol >= v20250326 {
		wantCaps = append([]string{"completions"}, wantCaps...)
	}
	for _, c := range wantCaps {
		if !slices.Contains(got.Caps, c) {
			errs = append(errs, fmt.Errorf("capabilities %v lack %q", got.Caps, c))
		}
	}
	return errors.Join(errs...)
}

func checkPing(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	return c.Ping(ctx)
}

func checkToolsList(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	tools, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	byName := map[string]ixTool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	var errs []error
	for _, name := range ixTools {
		if _, ok := byName[name]; !ok {
			errs = append(errs, fmt.Errorf("tool %q missing from %v", name, sortedKeys(byName)))
		}
	}
	if !slices.Contains(byName["echo"].InputProps, "text") {
		errs = append(errs, fmt.Errorf("echo input properties %v lack \"text\"", byName["echo"].InputProps))
	}
	// outputSchema came with 2025-06-18; servers may send it earlier too
	// (unknown members are allowed), and all three SDKs do.
	if env.version >= v20250618 && !byName["add"].OutputSchema {
		errs = append(errs, fmt.Errorf("add has no outputSchema at %s", env.version))
	}
	return errors.Join(errs...)
}

// wantText checks a result of one text block equal to want.
func wantText(res *ixResult, err error, want string) error {
	if err != nil {
		return err
	}
	if res.IsError || len(res.Texts) != 1 || res.Texts[0] != want {
		return fmt.Errorf("got isError=%v texts %q, want one text %q", res.IsError, res.Texts, want)
	}
	return nil
}

func checkEchoText(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "echo", map[string]any{"text": ixEchoText}, "")
	return wantText(res, err, ixEchoText)
}

func checkStructured(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "add", map[string]any{"a": 2, "b": 3}, "")
	if err != nil {
		return err
	}
	if res.IsError || len(res.Texts) != 1 {
		return fmt.Errorf("got isError=%v texts %q, want one text block", res.IsError, res.Texts)
	}
	var fallback struct{ Sum int }
	if err := json.Unmarshal([]byte(res.Texts[0]), &fallback); err != nil || fallback.Sum != 5 {
		return fmt.Errorf("text fallback %q is not {\"sum\":5}", res.Texts[0])
	}
	if env.version < v20250618 {
		return nil // structuredContent came with 2025-06-18
	}
	if res.Structured != `{"sum":5}` {
		return fmt.Errorf("structuredContent %s, want {\"sum\":5}", res.Structured)
	}
	return nil
}

func checkIsError(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "fail", map[string]any{}, "")
	if err != nil {
		return fmt.Errorf("a tool error must be a result with isError, got the error %w", err)
	}
	if !res.IsError || len(res.Texts) != 1 || res.Texts[0] != ixFailText {
		return fmt.Errorf("got isError=%v texts %q, want isError with %q", res.IsError, res.Texts, ixFailText)
	}
	return nil
}

// checkUnknownTool: calling a tool the server does not have is an error,
// as a JSON-RPC error or (accepted by some SDKs) a result with isError.
func checkUnknownTool(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "no_such_tool", map[string]any{}, "")
	if err == nil && !res.IsError {
		return fmt.Errorf("unknown tool succeeded: %q", res.Texts)
	}
	return nil
}

// checkInvalidArgs: arguments that violate the input schema fail the call
// (2025-11-25 asks for a tool error with isError; earlier servers answer
// -32602).
func checkInvalidArgs(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "echo", map[string]any{"text": 5}, "")
	if err == nil && !res.IsError {
		return fmt.Errorf("echo with a number for text succeeded: %q", res.Texts)
	}
	return nil
}

func checkProgress(ctx context.Context, c ixClient, ev *ixEvents, env ixEnv) error {
	const token = "tok-progress"
	res, err := c.CallTool(ctx, "progress", map[string]any{}, token)
	if err := wantText(res, err, ixProgressDone); err != nil {
		return err
	}
	var got []float64
	waitFor(2*time.Second, func() bool {
		_, got, _ = ev.snapshot(token)
		return len(got) >= 3
	})
	if !slices.Equal(got, []float64{1, 2, 3}) {
		return fmt.Errorf("progress %v, want [1 2 3]", got)
	}
	return nil
}

func checkLogging(ctx context.Context, c ixClient, ev *ixEvents, env ixEnv) error {
	if err := c.SetLogLevel(ctx, "info"); err != nil {
		return fmt.Errorf("set level: %w", err)
	}
	res, err := c.CallTool(ctx, "log", map[string]any{}, "")
	if err := wantText(res, err, ixLogged); err != nil {
		return err
	}
	want := []string{"info:log-info", "error:log-error"}
	var logs []string
	waitFor(2*time.Second, func() bool {
		logs, _, _ = ev.snapshot("")
		return len(logs) >= len(want)
	})
	time.Sleep(20 * time.Millisecond) // a stray debug message would come now
	logs, _, _ = ev.snapshot("")
	if !env.stateful {
		// Without a session the level set by logging/setLevel cannot
		// apply to later requests, and before it a server "MAY decide
		// which messages to send" (2025-11-25 server/utilities/logging):
		// a debug message is allowed.
		logs = slices.DeleteFunc(logs, func(l string) bool { return l == "debug:log-debug" })
	}
	if !slices.Equal(logs, want) {
		return fmt.Errorf("log messages %q, want %q (level info)", logs, want)
	}
	return nil
}

// checkCancellation calls wait, cancels the call once the server has
// reported progress 0 (the handler runs), and then asks wait_status
// whether the handler's context ended.
func checkCancellation(ctx context.Context, c ixClient, ev *ixEvents, env ixEnv) error {
	const token = "tok-wait"
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		res, err := c.CallTool(callCtx, "wait", map[string]any{}, token)
		if err == nil {
			err = fmt.Errorf("wait returned %+v instead of failing", res)
		}
		done <- err
	}()
	started := waitFor(5*time.Second, func() bool {
		_, p, _ := ev.snapshot(token)
		return len(p) > 0
	})
	if !started {
		cancel()
		<-done
		return errors.New("wait never reported progress 0")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			return fmt.Errorf("cancelled call returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		return errors.New("cancelled call did not return within 5s")
	}
	res, err := c.CallTool(ctx, "wait_status", map[string]any{}, "")
	return wantText(res, err, ixCancelled)
}

func checkSampling(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "sample", map[string]any{}, "")
	return wantText(res, err, ixSampleResult)
}

func checkElicitation(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "elicit", map[string]any{}, "")
	return wantText(res, err, ixElicitResult)
}

func checkRoots(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.CallTool(ctx, "roots", map[string]any{}, "")
	return wantText(res, err, ixRootsResult)
}

// checkRootsListChanged: the client says its roots changed, and the
// server's roots_changed tool reports that the notification arrived.
func checkRootsListChanged(ctx context.Context, c ixClient, _ *ixEvents, _ ixEnv) error {
	if err := c.NotifyRootsChanged(ctx); err != nil {
		return err
	}
	res, err := c.CallTool(ctx, "roots_changed", map[string]any{}, "")
	return wantText(res, err, ixRootsChanged)
}

func checkMedia(ctx context.Context, c ixClient, _ *ixEvents, _ ixEnv) error {
	res, err := c.CallTool(ctx, "media", map[string]any{}, "")
	if err != nil {
		return err
	}
	if res.IsError || len(res.Texts) != 0 || !slices.Equal(res.Media, ixMedia) {
		return fmt.Errorf("got isError=%v texts %q media %q, want media %q", res.IsError, res.Texts, res.Media, ixMedia)
	}
	return nil
}

func checkPromptsList(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	prompts, err := c.ListPrompts(ctx)
	if err != nil {
		return err
	}
	for _, p := range prompts {
		if p.Name == ixPromptName {
			if !slices.Equal(p.Args, []ixArg{{Name: "name", Required: true}}) {
				return fmt.Errorf("greet arguments %+v, want one required \"name\"", p.Args)
			}
			return nil
		}
	}
	return fmt.Errorf("prompts %+v lack %q", prompts, ixPromptName)
}

func checkPromptsGet(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	msgs, err := c.GetPrompt(ctx, ixPromptName, map[string]string{"name": ixElicitName})
	if err != nil {
		return err
	}
	want := []ixMessage{{Role: "user", Text: "Hello, " + ixElicitName + "!"}}
	if !slices.Equal(msgs, want) {
		return fmt.Errorf("messages %+v, want %+v", msgs, want)
	}
	return nil
}

func checkResourcesList(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	res, err := c.ListResources(ctx)
	if err != nil {
		return err
	}
	want := []ixResource{
		{URI: ixStaticURI, Name: "static", MIMEType: "text/plain"},
		{URI: ixBlobURI, Name: "blob", MIMEType: "application/octet-stream"},
	}
	for _, w := range want {
		if !slices.Contains(res, w) {
			return fmt.Errorf("resources %+v lack %+v", res, w)
		}
	}
	return nil
}

func checkResourcesRead(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	text, err := c.ReadResource(ctx, ixStaticURI)
	if err != nil {
		return fmt.Errorf("read %s: %w", ixStaticURI, err)
	}
	if len(text) != 1 || text[0].IsBlob || text[0].Text != ixStaticText || text[0].URI != ixStaticURI || text[0].MIMEType != "text/plain" {
		return fmt.Errorf("read %s: %+v", ixStaticURI, text)
	}
	blob, err := c.ReadResource(ctx, ixBlobURI)
	if err != nil {
		return fmt.Errorf("read %s: %w", ixBlobURI, err)
	}
	if len(blob) != 1 || !blob[0].IsBlob || string(blob[0].Blob) != string(ixBlob) || blob[0].MIMEType != "application/octet-stream" {
		return fmt.Errorf("read %s: %+v, want blob %v", ixBlobURI, blob, ixBlob)
	}
	return nil
}

// checkResourceMissing: reading a resource that does not exist is a
// JSON-RPC error, -32002 before 2026-07-28 (server/resources, "Resource not
// found: -32002") and -32602 from then on ("servers MUST return a
// JSON-RPC error with code -32602").
func checkResourceMissing(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	const uri = "test://missing"
	got, err := c.ReadResource(ctx, uri)
	if err == nil {
		return fmt.Errorf("read %s succeeded: %+v", uri, got)
	}
	want := -32002
	if env.version >= v20260728 {
		want = -32602
	}
	if code := c.ErrorCode(err); code != want {
		return fmt.Errorf("read %s: error code %d (%v), want %d", uri, code, err, want)
	}
	return nil
}

func checkTemplatesList(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	templates, err := c.ListTemplates(ctx)
	if err != nil {
		return err
	}
	if !slices.Contains(templates, ixTemplate) {
		return fmt.Errorf("templates %q lack %q", templates, ixTemplate)
	}
	return nil
}

func checkTemplateRead(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	const uri = "test://items/42"
	got, err := c.ReadResource(ctx, uri)
	if err != nil {
		return err
	}
	if len(got) != 1 || got[0].Text != "item 42" || got[0].URI != uri {
		return fmt.Errorf("read %s: %+v, want text \"item 42\"", uri, got)
	}
	return nil
}

func checkCompletePrompt(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	got, err := c.Complete(ctx, ixRef{Prompt: ixPromptName}, "name", "A")
	if err != nil {
		return err
	}
	slices.Sort(got)
	if want := []string{"Ada", "Alan"}; !slices.Equal(got, want) {
		return fmt.Errorf("completions %q, want %q", got, want)
	}
	return nil
}

func checkCompleteResource(ctx context.Context, c ixClient, _ *ixEvents, env ixEnv) error {
	got, err := c.Complete(ctx, ixRef{Template: ixTemplate}, "id", "1")
	if err != nil {
		return err
	}
	slices.Sort(got)
	if want := []string{"1", "10"}; !slices.Equal(got, want) {
		return fmt.Errorf("completions %q, want %q", got, want)
	}
	return nil
}

// checkToolsListChanged calls change, which adds the tool "added", and
// expects a tools/list_changed notification and the new tool in the list.
func checkToolsListChanged(ctx context.Context, c ixClient, ev *ixEvents, env ixEnv) error {
	stop, err := c.WatchToolsChanged(ctx)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer stop()
	_, _, before := ev.snapshot("")
	res, err := c.CallTool(ctx, "change", map[string]any{}, "")
	if err := wantText(res, err, ixChanged); err != nil {
		return err
	}
	if !waitFor(3*time.Second, func() bool { _, _, n := ev.snapshot(""); return n > before }) {
		return errors.New("no notifications/tools/list_changed within 3s")
	}
	tools, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	for _, tl := range tools {
		if tl.Name == ixAddedTool {
			return nil
		}
	}
	names := make([]string, len(tools))
	for i, tl := range tools {
		names[i] = tl.Name
	}
	return fmt.Errorf("tools after change %s lack %q", strings.Join(names, ","), ixAddedTool)
}
