package bench

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ----- the go-sdk's fixture server -----

const gosdkMetaVersion = "io.modelcontextprotocol/protocolVersion"

// gosdkModern reports whether a request uses 2026-07-28, whose requests
// carry their protocol version in _meta.
func gosdkModern(meta gosdk.Meta) bool {
	v, _ := meta[gosdkMetaVersion].(string)
	return v >= v20260728
}

func gosdkText(s string) *gosdk.CallToolResult {
	return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: s}}}
}

// gosdkInteropServer returns the go-sdk's fixture server (see ixTools).
// Sampling, elicitation and roots are asked the way the SDK documents for
// each era: ServerSession requests in the legacy era, input requests
// (multi round-trip) in 2026-07-28.
func gosdkInteropServer() *gosdk.Server {
	rootsFlag := newCancelFlag()
	s := gosdk.NewServer(&gosdk.Implementation{Name: ixServerName, Version: ixServerVersion}, &gosdk.ServerOptions{
		Instructions: ixInstructions,
		PageSize:     ixPageSize,
		Logger:       ixSlog("gosdk-server"),
		//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
		RootsListChangedHandler: func(context.Context, *gosdk.RootsListChangedRequest) {
			rootsFlag.set()
		},
		CompletionHandler: func(_ context.Context, req *gosdk.CompleteRequest) (*gosdk.CompleteResult, error) {
			cands := ixNameCandidates
			if req.Params.Ref != nil && req.Params.Ref.Type == "ref/resource" {
				cands = ixIDCandidates
			}
			return &gosdk.CompleteResult{Completion: gosdk.CompletionResultDetails{
				Values: orEmpty(completeByPrefix(cands, req.Params.Argument.Value))}}, nil
		},
	})
	gosdkAddBasicTools(s, newCancelFlag())
	gosdkAddAskTools(s, rootsFlag)
	gosdkAddPromptsAndResources(s)
	return s
}

// gosdkRaw adds a tool without arguments bound to h.
func gosdkRaw(s *gosdk.Server, name string, h gosdk.ToolHandler) {
	s.AddTool(&gosdk.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
}

// gosdkAddBasicTools adds echo, add, fail, progress, log, wait and
// wait_status; flag records wait's cancellation.
func gosdkAddBasicTools(s *gosdk.Server, flag *cancelFlag) {
	gosdk.AddTool(s, &gosdk.Tool{Name: "echo", Description: "echo the text back"},
		func(_ context.Context, _ *gosdk.CallToolRequest, in echoArgs) (*gosdk.CallToolResult, any, error) {
			return gosdkText(in.Text), nil, nil
		})
	gosdk.AddTool(s, &gosdk.Tool{Name: "add", Description: "add two integers"},
		func(_ context.Context, _ *gosdk.CallToolRequest, in ixAddIn) (*gosdk.CallToolResult, ixAddOut, error) {
			return nil, ixAddOut{Sum: in.A + in.B}, nil
		})
	gosdkRaw(s, "fail", func(context.Context, *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		res := gosdkText(ixFailText)
		res.IsError = true
		return res, nil
	})
	gosdkRaw(s, "progress", func(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			err := req.Session.NotifyProgress(ctx, &gosdk.ProgressNotificationParams{
				ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: "step " + strconv.Itoa(i)})
			if err != nil {
				return nil, err
			}
		}
		return gosdkText(ixProgressDone), nil
	})
	gosdkRaw(s, "log", func(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
		for _, l := range []gosdk.LoggingLevel{"debug", "info", "error"} {
			//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
			if err := req.Session.Log(ctx, &gosdk.LoggingMessageParams{Level: l, Logger: ixLogger, Data: "log-" + string(l)}); err != nil {
				return nil, err
			}
		}
		return gosdkText(ixLogged), nil
	})
	gosdkRaw(s, "wait", func(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		if err := req.Session.NotifyProgress(ctx, &gosdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken()}); err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			flag.set()
			return nil, ctx.Err()
		case <-time.After(20 * time.Second):
			return gosdkText("not cancelled"), nil
		}
	})
	gosdkRaw(s, "wait_status", func(ctx context.Context, _ *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		return gosdkText(flag.status(ctx)), nil
	})
}

// gosdkAddAskTools adds sample, elicit, roots, roots_changed, media and
// change; rootsFlag records that the client's roots changed.
func gosdkAddAskTools(s *gosdk.Server, rootsFlag *cancelFlag) {
	gosdkRaw(s, "sample", gosdkSample)
	gosdkRaw(s, "elicit", gosdkElicit)
	gosdkRaw(s, "roots", gosdkRoots)
	gosdkRaw(s, "roots_changed", func(ctx context.Context, _ *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		if rootsFlag.status(ctx) != ixCancelled {
			return gosdkText("roots did not change"), nil
		}
		return gosdkText(ixRootsChanged), nil
	})
	gosdkRaw(s, "media", func(context.Context, *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		return &gosdk.CallToolResult{Content: []gosdk.Content{
			&gosdk.ImageContent{Data: ixBlob, MIMEType: "image/png"},
			&gosdk.EmbeddedResource{Resource: &gosdk.ResourceContents{URI: ixEmbeddedURI, MIMEType: "text/plain", Text: ixEmbeddedText}},
		}}, nil
	})
	gosdkRaw(s, "change", func(context.Context, *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
		gosdkRaw(s, ixAddedTool, func(context.Context, *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
			return gosdkText(ixAddedTool), nil
		})
		return gosdkText(ixChanged), nil
	})

}

// gosdkAddPromptsAndResources adds the greet prompt, the static and blob
// resources and the items template.
func gosdkAddPromptsAndResources(s *gosdk.Server) {
	s.AddPrompt(&gosdk.Prompt{Name: ixPromptName, Description: "greets someone",
		Arguments: []*gosdk.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *gosdk.GetPromptRequest) (*gosdk.GetPromptResult, error) {
			return &gosdk.GetPromptResult{Messages: []*gosdk.PromptMessage{
				{Role: "user", Content: &gosdk.TextContent{Text: "Hello, " + req.Params.Arguments["name"] + "!"}},
			}}, nil
		})
	fixed := func(c *gosdk.ResourceContents) gosdk.ResourceHandler {
		return func(context.Context, *gosdk.ReadResourceRequest) (*gosdk.ReadResourceResult, error) {
			return &gosdk.ReadResourceResult{Contents: []*gosdk.ResourceContents{c}}, nil
		}
	}
	s.AddResource(&gosdk.Resource{URI: ixStaticURI, Name: "static", MIMEType: "text/plain"},
		fixed(&gosdk.ResourceContents{URI: ixStaticURI, MIMEType: "text/plain", Text: ixStaticText}))
	s.AddResource(&gosdk.Resource{URI: ixBlobURI, Name: "blob", MIMEType: "application/octet-stream"},
		fixed(&gosdk.ResourceContents{URI: ixBlobURI, MIMEType: "application/octet-stream", Blob: ixBlob}))
	s.AddResourceTemplate(&gosdk.ResourceTemplate{URITemplate: ixTemplate, Name: "items", MIMEType: "text/plain"},
		func(_ context.Context, req *gosdk.ReadResourceRequest) (*gosdk.ReadResourceResult, error) {
			id := req.Params.URI[len("test://items/"):]
			return &gosdk.ReadResourceResult{Contents: []*gosdk.ResourceContents{
				{URI: req.Params.URI, MIMEType: "text/plain", Text: "item " + id}}}, nil
		})
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func gosdkSample(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
	//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
	params := &gosdk.CreateMessageParams{
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
		Messages:  []*gosdk.SamplingMessage{{Role: "user", Content: &gosdk.TextContent{Text: ixSampleIn}}},
		MaxTokens: 10,
	}
	if !gosdkModern(req.Params.Meta) {
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
		res, err := req.Session.CreateMessage(ctx, params)
		if err != nil {
			return nil, err
		}
		text, _ := res.Content.(*gosdk.TextContent)
		if text == nil {
			return nil, fmt.Errorf("sampling answered %T", res.Content)
		}
		return gosdkText(sampleReport(text.Text, res.Model)), nil
	}
	switch r := req.Params.InputResponses["sample"].(type) {
	case nil:
		return &gosdk.CallToolResult{InputRequests: gosdk.InputRequestMap{"sample": params}}, nil
	//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
	case *gosdk.CreateMessageWithToolsResult:
		for _, c := range r.Content {
			if text, ok := c.(*gosdk.TextContent); ok {
				return gosdkText(sampleReport(text.Text, r.Model)), nil
			}
		}
		return nil, fmt.Errorf("sampling answered %v", r.Content)
	//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
	case *gosdk.CreateMessageResult:
		text, _ := r.Content.(*gosdk.TextContent)
		if text == nil {
			return nil, fmt.Errorf("sampling answered %T", r.Content)
		}
		return gosdkText(sampleReport(text.Text, r.Model)), nil
	default:
		return nil, fmt.Errorf("inputResponses[sample] is a %T", r)
	}
}

func gosdkElicit(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
	params := &gosdk.ElicitParams{Message: ixElicitPrompt, RequestedSchema: json.RawMessage(
		`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)}
	var res *gosdk.ElicitResult
	if !gosdkModern(req.Params.Meta) {
		var err error
		if res, err = req.Session.Elicit(ctx, params); err != nil {
			return nil, err
		}
	} else {
		r, ok := req.Params.InputResponses["elicit"].(*gosdk.ElicitResult)
		if !ok {
			if req.Params.InputResponses["elicit"] != nil {
				return nil, fmt.Errorf("inputResponses[elicit] is a %T", req.Params.InputResponses["elicit"])
			}
			return &gosdk.CallToolResult{InputRequests: gosdk.InputRequestMap{"elicit": params}}, nil
		}
		res = r
	}
	return gosdkText(elicitReport(res.Action, res.Content)), nil
}

func gosdkRoots(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
	var res *gosdk.ListRootsResult
	if !gosdkModern(req.Params.Meta) {
		var err error
		//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
		if res, err = req.Session.ListRoots(ctx, nil); err != nil {
			return nil, err
		}
	} else {
		//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
		r, ok := req.Params.InputResponses["roots"].(*gosdk.ListRootsResult)
		if !ok {
			if req.Params.InputResponses["roots"] != nil {
				return nil, fmt.Errorf("inputResponses[roots] is a %T", req.Params.InputResponses["roots"])
			}
			//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
			return &gosdk.CallToolResult{InputRequests: gosdk.InputRequestMap{"roots": &gosdk.ListRootsParams{}}}, nil
		}
		res = r
	}
	var uris []string
	for _, r := range res.Roots {
		uris = append(uris, r.URI)
	}
	return gosdkText(rootsReport(uris)), nil
}

// serveGosdkStdio serves the go-sdk's fixture over stdin and stdout.
func serveGosdkStdio() error {
	return gosdkInteropServer().Run(context.Background(), &gosdk.StdioTransport{})
}

// gosdkInteropHandler serves the go-sdk's fixture over HTTP: the 2024-11-05
// SSE handler, or the streamable handler, stateful (the SDK's default,
// legacy era only) or stateless (which the SDK needs for 2026-07-28),
// with SSE or (jsonResponse) JSON responses.
// PropagateRequestCancellation is set because 2026-07-28 requires a
// server to treat a closed response stream as cancellation
// (basic/patterns/cancellation); the SDK leaves it off by default.
func gosdkInteropHandler(transport string, stateless, jsonResponse bool) (http.Handler, func() error) {
	s := gosdkInteropServer()
	get := func(*http.Request) *gosdk.Server { return s }
	closeAll := func() error {
		for ss := range s.Sessions() {
			ss.Close()
		}
		return nil
	}
	if transport == "sse" {
		return gosdk.NewSSEHandler(get, nil), closeAll
	}
	return gosdk.NewStreamableHTTPHandler(get, &gosdk.StreamableHTTPOptions{
		Stateless:                    stateless,
		JSONResponse:                 jsonResponse,
		PropagateRequestCancellation: true,
		Logger:                       ixSlog("gosdk-server"),
	}), closeAll
}

// ----- the go-sdk's client adapter -----

type gosdkIxClient struct {
	client *gosdk.Client
	cs     *gosdk.ClientSession

	mu       sync.Mutex
	logLevel string // 2026-07-28: sent in each tool call's _meta
}

// connectGosdkInterop connects the go-sdk's fixture client; see
// connectOursInterop.
func connectGosdkInterop(ctx context.Context, transport, target, version string, ev *ixEvents) (ixClient, error) {
	client := gosdk.NewClient(&gosdk.Implementation{Name: ixClientName, Version: ixClientVersion}, &gosdk.ClientOptions{
		Logger: ixSlog("gosdk-client"),
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
		CreateMessageHandler: func(_ context.Context, req *gosdk.CreateMessageRequest) (*gosdk.CreateMessageResult, error) {
			ev.count(&ev.samples)
			first := ""
			if len(req.Params.Messages) > 0 {
				if tc, ok := req.Params.Messages[0].Content.(*gosdk.TextContent); ok {
					first = tc.Text
				}
			}
			//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
			return &gosdk.CreateMessageResult{Role: "assistant", Model: ixModel, StopReason: "endTurn",
				Content: &gosdk.TextContent{Text: sampleAnswer(first)}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *gosdk.ElicitRequest) (*gosdk.ElicitResult, error) {
			ev.count(&ev.elicits)
			action, content := elicitAnswer(req.Params.Message, schemaHasProperty(req.Params.RequestedSchema, "name"))
			return &gosdk.ElicitResult{Action: action, Content: content}, nil
		},
		//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
		LoggingMessageHandler: func(_ context.Context, req *gosdk.LoggingMessageRequest) {
			ev.addLog(string(req.Params.Level), req.Params.Data)
		},
		ProgressNotificationHandler: func(_ context.Context, req *gosdk.ProgressNotificationClientRequest) {
			ev.addProgress(req.Params.ProgressToken, req.Params.Progress)
		},
		ToolListChangedHandler: func(context.Context, *gosdk.ToolListChangedRequest) {
			ev.count(&ev.toolsChanged)
		},
	})
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
	client.AddRoots(&gosdk.Root{URI: ixRootURI, Name: ixRootName})
	var t gosdk.Transport
	switch transport {
	case "stdio":
		exe, env, err := interopChildCommand(target)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(exe)
		cmd.Env = env
		t = &gosdk.CommandTransport{Command: cmd}
	case "http":
		t = &gosdk.StreamableClientTransport{Endpoint: target}
	case "sse":
		t = &gosdk.SSEClientTransport{Endpoint: target}
	default:
		return nil, fmt.Errorf("unknown transport %q", transport)
	}
	var opts *gosdk.ClientSessionOptions
	if version != "" {
		opts = &gosdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, t, opts)
	if err != nil {
		return nil, err
	}
	return &gosdkIxClient{client: client, cs: cs}, nil
}

// schemaHasProperty reports whether a JSON Schema, of any Go type that
// encodes as one, has the named property.
func schemaHasProperty(schema any, name string) bool {
	b, err := json.Marshal(schema)
	if err != nil {
		return false
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	return json.Unmarshal(b, &s) == nil && s.Properties[name] != nil
}

// schemaProperties returns the sorted property names of a JSON Schema.
func schemaProperties(schema any) ([]string, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("schema %s: %w", b, err)
	}
	return sortedKeys(s.Properties), nil
}

func (c *gosdkIxClient) Info() ixInfo {
	r := c.cs.InitializeResult()
	if r == nil {
		return ixInfo{}
	}
	info := ixInfo{Protocol: r.ProtocolVersion, Instructions: r.Instructions}
	if r.ServerInfo != nil {
		info.Name, info.Version = r.ServerInfo.Name, r.ServerInfo.Version
	}
	if caps := r.Capabilities; caps != nil {
		//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
		for name, ok := range map[string]bool{"completions": caps.Completions != nil, "logging": caps.Logging != nil,
			"prompts": caps.Prompts != nil, "resources": caps.Resources != nil, "tools": caps.Tools != nil} {
			if ok {
				info.Caps = append(info.Caps, name)
			}
		}
	}
	slices.Sort(info.Caps)
	return info
}

func (c *gosdkIxClient) Ping(ctx context.Context) error { return c.cs.Ping(ctx, nil) }

func (c *gosdkIxClient) ListTools(ctx context.Context) ([]ixTool, error) {
	var out []ixTool
	for tl, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		props, err := schemaProperties(tl.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", tl.Name, err)
		}
		out = append(out, ixTool{Name: tl.Name, InputProps: props, OutputSchema: tl.OutputSchema != nil})
	}
	return out, nil
}

func (c *gosdkIxClient) CallTool(ctx context.Context, name string, args map[string]any, token string) (*ixResult, error) {
	p := &gosdk.CallToolParams{Name: name, Arguments: args}
	if token != "" {
		p.SetProgressToken(token)
	}
	c.mu.Lock()
	if c.logLevel != "" {
		if p.Meta == nil {
			p.Meta = gosdk.Meta{}
		}
		p.Meta["io.modelcontextprotocol/logLevel"] = c.logLevel
	}
	c.mu.Unlock()
	res, err := c.cs.CallTool(ctx, p)
	if err != nil {
		return nil, err
	}
	out := &ixResult{IsError: res.IsError}
	for _, ct := range res.Content {
		switch x := ct.(type) {
		case *gosdk.TextContent:
			out.Texts = append(out.Texts, x.Text)
		case *gosdk.ImageContent:
			out.Media = append(out.Media, "image:"+x.MIMEType+":"+base64.StdEncoding.EncodeToString(x.Data))
		case *gosdk.EmbeddedResource:
			if r := x.Resource; r != nil {
				out.Media = append(out.Media, "resource:"+r.URI+":"+r.MIMEType+":"+r.Text)
			}
		default:
			out.Media = append(out.Media, fmt.Sprintf("%T", ct))
		}
	}
	if res.StructuredContent != nil {
		out.Structured = compactJSON(res.StructuredContent)
	}
	return out, nil
}

func (c *gosdkIxClient) ListPrompts(ctx context.Context) ([]ixPrompt, error) {
	var out []ixPrompt
	for p, err := range c.cs.Prompts(ctx, nil) {
		if err != nil {
			return nil, err
		}
		ip := ixPrompt{Name: p.Name}
		for _, a := range p.Arguments {
			ip.Args = append(ip.Args, ixArg{Name: a.Name, Required: a.Required})
		}
		out = append(out, ip)
	}
	return out, nil
}

func (c *gosdkIxClient) GetPrompt(ctx context.Context, name string, args map[string]string) ([]ixMessage, error) {
	res, err := c.cs.GetPrompt(ctx, &gosdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	var out []ixMessage
	for _, m := range res.Messages {
		msg := ixMessage{Role: string(m.Role)}
		if tc, ok := m.Content.(*gosdk.TextContent); ok {
			msg.Text = tc.Text
		}
		out = append(out, msg)
	}
	return out, nil
}

func (c *gosdkIxClient) ListResources(ctx context.Context) ([]ixResource, error) {
	var out []ixResource
	for r, err := range c.cs.Resources(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, ixResource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType})
	}
	return out, nil
}

func (c *gosdkIxClient) ReadResource(ctx context.Context, uri string) ([]ixContents, error) {
	res, err := c.cs.ReadResource(ctx, &gosdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	var out []ixContents
	for _, rc := range res.Contents {
		out = append(out, ixContents{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Blob: rc.Blob, IsBlob: rc.Blob != nil})
	}
	return out, nil
}

func (c *gosdkIxClient) ListTemplates(ctx context.Context) ([]string, error) {
	var out []string
	for rt, err := range c.cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, rt.URITemplate)
	}
	return out, nil
}

func (c *gosdkIxClient) Complete(ctx context.Context, ref ixRef, arg, value string) ([]string, error) {
	r := &gosdk.CompleteReference{Type: "ref/prompt", Name: ref.Prompt}
	if ref.Template != "" {
		r = &gosdk.CompleteReference{Type: "ref/resource", URI: ref.Template}
	}
	res, err := c.cs.Complete(ctx, &gosdk.CompleteParams{Ref: r, Argument: gosdk.CompleteParamsArgument{Name: arg, Value: value}})
	if err != nil {
		return nil, err
	}
	return res.Completion.Values, nil
}

// SetLogLevel: the go-sdk client sends logging/setLevel in every era; in
// 2026-07-28, where that method is gone, the level goes into the _meta of
// each tool call instead.
func (c *gosdkIxClient) SetLogLevel(ctx context.Context, level string) error {
	if c.Info().Protocol >= v20260728 {
		c.mu.Lock()
		c.logLevel = level
		c.mu.Unlock()
		return nil
	}
	//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
	return c.cs.SetLoggingLevel(ctx, &gosdk.SetLoggingLevelParams{Level: gosdk.LoggingLevel(level)})
}

func (c *gosdkIxClient) ErrorCode(err error) int {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return int(werr.Code)
	}
	return 0
}

// NotifyRootsChanged adds a second root, which the go-sdk client tells
// connected servers about.
func (c *gosdkIxClient) NotifyRootsChanged(context.Context) error {
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
	c.client.AddRoots(&gosdk.Root{URI: ixRootURI + "2", Name: ixRootName + " 2"})
	return nil
}

// WatchToolsChanged: the go-sdk client opens subscriptions/listen itself
// when it connects in 2026-07-28 (it has a ToolListChangedHandler and the
// server declares tools.listChanged).
func (c *gosdkIxClient) WatchToolsChanged(context.Context) (func(), error) { return func() {}, nil }

func (c *gosdkIxClient) Close() error { return c.cs.Close() }
