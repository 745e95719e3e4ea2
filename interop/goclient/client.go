package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// The fixture's names and answers, as in interop/fixture.mjs and
// bench/interop_fixture_test.go.
const (
	serverName     = "interop-server"
	serverVersion  = "1.0.0"
	instructions   = "Interop fixture: tools, prompts, resources, completion, logging."
	clientName     = "interop-client"
	clientVersion  = "0.0.1"
	echoText       = "héllo \"wörld\"\n\t<&> 😀"
	failText       = "boom"
	sampleIn       = "ping-sample"
	sampleOut      = "pong-sample"
	model          = "interop-model"
	elicitPrompt   = "What is your name?"
	elicitName     = "Ada"
	rootURI        = "file:///interop/root"
	rootName       = "interop root"
	staticURI      = "test://static"
	staticText     = "static text"
	blobURI        = "test://blob"
	template       = "test://items/{id}"
	promptName     = "greet"
	embeddedURI    = "test://embedded"
	embeddedText   = "embedded text"
	addedTool      = "added"
	rootsChanged   = "roots changed"
	progressDone   = "progress done"
	loggedText     = "logged"
	cancelledText  = "cancelled"
	changedText    = "changed"
	sampleResult   = "sampled: " + sampleOut + " by " + model
	elicitResult   = "elicited: accept " + elicitName
	rootsResult    = "roots: " + rootURI
	blobBase64Text = "AAECA/8="
)

// blob is the content of the blob resource.
var blob = []byte{0, 1, 2, 3, 255}

// events records the notifications the session received.
type events struct {
	mu           sync.Mutex
	logs         []string
	progress     map[string][]float64
	toolsChanged int
}

func newEvents() *events { return &events{progress: map[string][]float64{}} }

// snapshot returns copies of what was recorded, with the progress of token.
func (e *events) snapshot(token string) (logs []string, progress []float64, toolsChanged int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.logs), slices.Clone(e.progress[token]), e.toolsChanged
}

// waitFor polls cond until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// newClient returns the fixture client: it answers sampling with
// sampleOut, accepts the elicitation with elicitName, offers one root and
// records notifications in ev.
func newClient(version string, ev *events) *mcp.Client {
	c := mcp.NewClient(clientName, clientVersion, &mcp.ClientOptions{
		ProtocolVersion: version,
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop run checks it
		CreateMessageHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			answer := sampleOut
			if len(p.Messages) == 0 || firstText(p.Messages[0].Content) != sampleIn {
				answer = "unexpected sampling request"
			}
			return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: model, StopReason: mcp.StopReasonEndTurn,
				Content: []*mcp.Content{mcp.NewTextContent(answer)}}, nil
		},
		ElicitationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			if p.Message != elicitPrompt || p.RequestedSchema == nil || p.RequestedSchema.Properties["name"] == nil {
				return &mcp.ElicitResult{Action: mcp.ElicitActionDecline}, nil
			}
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"name": elicitName}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.LoggingMessageParams) {
			ev.mu.Lock()
			defer ev.mu.Unlock()
			ev.logs = append(ev.logs, string(p.Level)+":"+logData(p.Data))
		},
		ProgressNotificationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ProgressNotificationParams) {
			ev.mu.Lock()
			defer ev.mu.Unlock()
			k := fmt.Sprint(p.ProgressToken)
			ev.progress[k] = append(ev.progress[k], p.Progress)
		},
		ToolListChangedHandler: func(context.Context, *mcp.ClientSession, *mcp.ToolListChangedParams) {
			ev.mu.Lock()
			defer ev.mu.Unlock()
			ev.toolsChanged++
		},
	})
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop run checks it
	c.AddRoots(&mcp.Root{URI: rootURI, Name: rootName})
	return c
}

// logData renders log data, raw JSON after decoding, as the string it
// holds.
func logData(data any) string {
	raw, ok := data.(json.RawMessage)
	if !ok {
		return fmt.Sprint(data)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func firstText(content []*mcp.Content) string {
	for _, c := range content {
		if c.Type == mcp.ContentTypeText {
			return c.Text
		}
	}
	return ""
}

// session is a connected fixture client.
type session struct {
	client *mcp.Client
	cs     *mcp.ClientSession
	ev     *events
}

// call calls a tool, with a progress token if token is not empty.
func (s *session) call(ctx context.Context, name string, args map[string]any, token string) (*mcp.CallToolResult, error) {
	opts := &mcp.CallToolOptions{}
	if token != "" {
		opts.Meta.ProgressToken = token
	}
	return s.cs.CallTool(ctx, name, args, opts)
}

// wantText checks a result of one text block equal to want.
func wantText(res *mcp.CallToolResult, err error, want string) error {
	if err != nil {
		return err
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Type+":"+c.Text)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].Type != mcp.ContentTypeText || res.Content[0].Text != want {
		return fmt.Errorf("got isError=%v content %q, want one text %q", res.IsError, texts, want)
	}
	return nil
}
