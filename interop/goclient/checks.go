package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// A check is one step of the scenario, for protocol versions since..until
// (until empty: every later version).
type check struct {
	name         string
	since, until string
	run          func(s *session, ctx context.Context) error // a method expression of *session
}

func (c check) applies(v string) bool { return v >= c.since && (c.until == "" || v <= c.until) }

// checks is the scenario, in order; the last one changes the server.
var checks = []check{
	{"ping", "2024-11-05", "2025-11-25", func(s *session, ctx context.Context) error { return s.cs.Ping(ctx, nil) }},
	{"tools-list", "2024-11-05", "", (*session).checkToolsList},
	{"tools-call-text", "2024-11-05", "", func(s *session, ctx context.Context) error {
		res, err := s.call(ctx, "echo", map[string]any{"text": echoText}, "")
		return wantText(res, err, echoText)
	}},
	{"tools-call-structured", "2024-11-05", "", (*session).checkStructured},
	{"tools-call-is-error", "2024-11-05", "", (*session).checkIsError},
	{"tools-call-media", "2024-11-05", "", (*session).checkMedia},
	{"tools-call-unknown-tool", "2024-11-05", "", func(s *session, ctx context.Context) error {
		return mustFail(s.call(ctx, "no_such_tool", map[string]any{}, ""))
	}},
	{"tools-call-invalid-arguments", "2024-11-05", "", func(s *session, ctx context.Context) error {
		return mustFail(s.call(ctx, "echo", map[string]any{"text": 5}, ""))
	}},
	{"progress", "2024-11-05", "", (*session).checkProgress},
	{"logging", "2024-11-05", "", (*session).checkLogging},
	{"cancellation", "2024-11-05", "", (*session).checkCancellation},
	{"sampling", "2024-11-05", "", func(s *session, ctx context.Context) error {
		res, err := s.call(ctx, "sample", map[string]any{}, "")
		return wantText(res, err, sampleResult)
	}},
	{"elicitation", "2025-06-18", "", func(s *session, ctx context.Context) error {
		res, err := s.call(ctx, "elicit", map[string]any{}, "")
		return wantText(res, err, elicitResult)
	}},
	{"roots", "2024-11-05", "", func(s *session, ctx context.Context) error {
		res, err := s.call(ctx, "roots", map[string]any{}, "")
		return wantText(res, err, rootsResult)
	}},
	{"roots-list-changed", "2024-11-05", "2025-11-25", func(s *session, ctx context.Context) error {
		//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop run checks it
		s.client.AddRoots(&mcp.Root{URI: rootURI + "2", Name: rootName + " 2"})
		res, err := s.call(ctx, "roots_changed", map[string]any{}, "")
		return wantText(res, err, rootsChanged)
	}},
	{"prompts-list", "2024-11-05", "", (*session).checkPromptsList},
	{"prompts-get", "2024-11-05", "", (*session).checkPromptsGet},
	{"resources-list", "2024-11-05", "", (*session).checkResourcesList},
	{"resources-read", "2024-11-05", "", (*session).checkResourcesRead},
	{"resources-read-missing", "2024-11-05", "", (*session).checkResourceMissing},
	{"resources-templates-list", "2024-11-05", "", (*session).checkTemplatesList},
	{"resources-read-template", "2024-11-05", "", (*session).checkTemplateRead},
	{"completion-prompt", "2024-11-05", "", func(s *session, ctx context.Context) error {
		return s.checkComplete(ctx, &mcp.CompleteReference{Type: mcp.ReferenceTypePrompt, Name: promptName}, "name", "A", "Ada", "Alan")
	}},
	{"completion-resource", "2024-11-05", "", func(s *session, ctx context.Context) error {
		return s.checkComplete(ctx, &mcp.CompleteReference{Type: mcp.ReferenceTypeResource, URI: template}, "id", "1", "1", "10")
	}},
	{"tools-list-changed", "2024-11-05", "2025-11-25", (*session).checkToolsListChanged},
}

// mustFail checks that a call failed, as a JSON-RPC error or a tool error.
func mustFail(res *mcp.CallToolResult, err error) error {
	if err == nil && !res.IsError {
		return fmt.Errorf("call succeeded: %+v", res.Content)
	}
	return nil
}

// checkInfo compares what the session learnt when it connected with the
// fixture.
func (s *session) checkInfo(want string) error {
	var errs []error
	if si := s.cs.ServerInfo(); si == nil || si.Name != serverName || si.Version != serverVersion {
		errs = append(errs, fmt.Errorf("server info %+v, want %s %s", si, serverName, serverVersion))
	}
	if want != "" && s.cs.ProtocolVersion() != want {
		errs = append(errs, fmt.Errorf("protocol version %s, want %s", s.cs.ProtocolVersion(), want))
	}
	if s.cs.Instructions() != instructions {
		errs = append(errs, fmt.Errorf("instructions %q, want %q", s.cs.Instructions(), instructions))
	}
	caps := s.cs.ServerCapabilities()
	if caps.Tools == nil || caps.Prompts == nil || caps.Resources == nil || caps.Logging == nil {
		errs = append(errs, fmt.Errorf("capabilities %+v lack tools, prompts, resources or logging", caps))
	}
	if s.cs.ProtocolVersion() >= "2025-03-26" && caps.Completions == nil {
		errs = append(errs, errors.New("capabilities lack completions"))
	}
	return errors.Join(errs...)
}

func (s *session) checkToolsList(ctx context.Context) error {
	byName := map[string]*mcp.Tool{}
	for tl, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		byName[tl.Name] = tl
	}
	for _, name := range []string{"echo", "add", "fail", "progress", "log", "wait", "wait_status", "sample", "elicit", "roots", "roots_changed", "media", "change"} {
		if byName[name] == nil {
			return fmt.Errorf("tool %q missing", name)
		}
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	raw, _ := byName["echo"].InputSchema.(json.RawMessage)
	if err := json.Unmarshal(raw, &schema); err != nil || schema.Properties["text"] == nil {
		return fmt.Errorf("echo input schema %s lacks the property text", raw)
	}
	if s.cs.ProtocolVersion() >= "2025-06-18" && byName["add"].OutputSchema == nil {
		return errors.New("add has no outputSchema")
	}
	return nil
}

func (s *session) checkStructured(ctx context.Context) error {
	res, err := s.call(ctx, "add", map[string]any{"a": 2, "b": 3}, "")
	if err != nil {
		return err
	}
	if res.IsError || len(res.Content) != 1 {
		return fmt.Errorf("got isError=%v and %d blocks, want one text block", res.IsError, len(res.Content))
	}
	var fallback struct{ Sum int }
	if err := json.Unmarshal([]byte(res.Content[0].Text), &fallback); err != nil || fallback.Sum != 5 {
		return fmt.Errorf("text fallback %q is not {\"sum\":5}", res.Content[0].Text)
	}
	if s.cs.ProtocolVersion() < "2025-06-18" {
		return nil
	}
	raw, _ := res.StructuredContent.(json.RawMessage)
	var got struct{ Sum *int }
	if err := json.Unmarshal(raw, &got); err != nil || got.Sum == nil || *got.Sum != 5 {
		return fmt.Errorf("structuredContent %s, want {\"sum\":5}", raw)
	}
	return nil
}

func (s *session) checkIsError(ctx context.Context) error {
	res, err := s.call(ctx, "fail", map[string]any{}, "")
	if err != nil {
		return fmt.Errorf("a tool error must be a result with isError, got the error %w", err)
	}
	if !res.IsError || len(res.Content) != 1 || res.Content[0].Text != failText {
		return fmt.Errorf("got isError=%v content %+v, want isError with %q", res.IsError, res.Content, failText)
	}
	return nil
}

func (s *session) checkMedia(ctx context.Context) error {
	res, err := s.call(ctx, "media", map[string]any{}, "")
	if err != nil {
		return err
	}
	var got []string
	for _, c := range res.Content {
		switch c.Type {
		case "image":
			got = append(got, "image:"+c.MIMEType+":"+base64.StdEncoding.EncodeToString(c.Data))
		case "resource":
			got = append(got, "resource:"+c.Resource.URI+":"+c.Resource.MIMEType+":"+c.Resource.Text)
		default:
			got = append(got, c.Type)
		}
	}
	want := []string{"image:image/png:" + blobBase64Text, "resource:" + embeddedURI + ":text/plain:" + embeddedText}
	if res.IsError || !slices.Equal(got, want) {
		return fmt.Errorf("got isError=%v content %q, want %q", res.IsError, got, want)
	}
	return nil
}

func (s *session) checkProgress(ctx context.Context) error {
	res, err := s.call(ctx, "progress", map[string]any{}, "tok-progress")
	if err := wantText(res, err, progressDone); err != nil {
		return err
	}
	var got []float64
	waitFor(2*time.Second, func() bool { _, got, _ = s.ev.snapshot("tok-progress"); return len(got) >= 3 })
	if !slices.Equal(got, []float64{1, 2, 3}) {
		return fmt.Errorf("progress %v, want [1 2 3]", got)
	}
	return nil
}

func (s *session) checkLogging(ctx context.Context) error {
	//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop run checks it
	if err := s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevelInfo}); err != nil {
		return fmt.Errorf("set level: %w", err)
	}
	res, err := s.call(ctx, "log", map[string]any{}, "")
	if err := wantText(res, err, loggedText); err != nil {
		return err
	}
	want := []string{"info:log-info", "error:log-error"}
	var logs []string
	waitFor(2*time.Second, func() bool { logs, _, _ = s.ev.snapshot(""); return len(logs) >= 2 })
	time.Sleep(20 * time.Millisecond)
	logs, _, _ = s.ev.snapshot("")
	if !slices.Equal(logs, want) {
		return fmt.Errorf("log messages %q, want %q (level info)", logs, want)
	}
	return nil
}

// checkCancellation calls wait, cancels the call once the server reported
// progress 0, and asks wait_status whether the handler saw it.
func (s *session) checkCancellation(ctx context.Context) error {
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.call(callCtx, "wait", map[string]any{}, "tok-wait")
		done <- err
	}()
	if !waitFor(5*time.Second, func() bool { _, p, _ := s.ev.snapshot("tok-wait"); return len(p) > 0 }) {
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
	res, err := s.call(ctx, "wait_status", map[string]any{}, "")
	return wantText(res, err, cancelledText)
}
