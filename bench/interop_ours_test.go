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
	"time"

	"github.com/gomcp/sdk/mcp"
)

// ----- gomcp's fixture server -----

type ixAddIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type ixAddOut struct {
	Sum int `json:"sum"`
}

// oursInteropServer returns gomcp's fixture server (see ixTools).
func oursInteropServer() *mcp.Server {
	rootsFlag := newCancelFlag()
	s := mcp.NewServer(ixServerName, ixServerVersion, &mcp.ServerOptions{
		Instructions: ixInstructions,
		Capabilities: &mcp.ServerCapabilities{
			Logging:     &mcp.LoggingCapability{},
			Completions: &mcp.CompletionCapabilities{},
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
		},
		LoggerName: ixLogger,
		PageSize:   ixPageSize,
		//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
		RootsListChangedHandler: func(context.Context, *mcp.ServerSession, *mcp.RootsListChangedParams) {
			rootsFlag.set()
		},
	})
	s.AddTools(oursBasicTools(newCancelFlag())...)
	s.AddTools(oursAskTools(rootsFlag)...)
	s.AddTools(oursRaw("change", func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
		s.AddTools(oursRaw(ixAddedTool, func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return oursText(ixAddedTool), nil
		}))
		return oursText(ixChanged), nil
	}))
	oursAddPromptsAndResources(s)
	return s
}

// oursRaw returns a tool without arguments bound to h.
func oursRaw(name string, h mcp.ToolHandler) *mcp.ServerTool {
	return &mcp.ServerTool{Tool: &mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, Handler: h}
}

// oursText is a tool result of one text block.
func oursText(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(s)}}
}

// oursBasicTools are echo, add, fail, progress, log, wait and wait_status;
// flag records wait's cancellation.
func oursBasicTools(flag *cancelFlag) []*mcp.ServerTool {
	return []*mcp.ServerTool{
		mcp.NewTool("echo", "echo the text back",
			func(_ context.Context, _ *mcp.ServerSession, in echoArgs) ([]*mcp.Content, error) {
				return []*mcp.Content{mcp.NewTextContent(in.Text)}, nil
			}),
		mcp.NewStructuredTool("add", "add two integers",
			func(_ context.Context, _ *mcp.ServerSession, in ixAddIn) (ixAddOut, error) {
				return ixAddOut{Sum: in.A + in.B}, nil
			}),
		oursRaw("fail", func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []*mcp.Content{mcp.NewTextContent(ixFailText)}}, nil
		}),
		oursRaw("progress", func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			for i := 1; i <= 3; i++ {
				err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: p.Meta.ProgressToken, Progress: float64(i), Total: 3, Message: "step " + strconv.Itoa(i)})
				if err != nil {
					return nil, err
				}
			}
			return oursText(ixProgressDone), nil
		}),
		oursRaw("log", func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			for _, l := range []mcp.LoggingLevel{mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelError} {
				//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
				if err := ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{Level: l, Data: "log-" + string(l)}); err != nil {
					return nil, err
				}
			}
			return oursText(ixLogged), nil
		}),
		oursRaw("wait", func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			if err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.Meta.ProgressToken, Progress: 0}); err != nil {
				return nil, err
			}
			select {
			case <-ctx.Done():
				flag.set()
				return nil, ctx.Err()
			case <-time.After(20 * time.Second):
				return oursText("not cancelled"), nil
			}
		}),
		oursRaw("wait_status", func(ctx context.Context, _ *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return oursText(flag.status(ctx)), nil
		}),
	}
}

// oursAskTools are sample, elicit, roots, roots_changed and media;
// rootsFlag records that the client's roots changed.
func oursAskTools(rootsFlag *cancelFlag) []*mcp.ServerTool {
	return []*mcp.ServerTool{
		oursRaw("sample", func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
			res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent(ixSampleIn)}}},
				MaxTokens: 10,
			})
			if err != nil {
				return nil, err
			}
			return oursText(sampleReport(oursFirstText(res.Content), res.Model)), nil
		}),
		oursRaw("elicit", func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: ixElicitPrompt, RequestedSchema: &mcp.ElicitationSchema{
				Type:       "object",
				Properties: map[string]*mcp.PrimitiveSchema{"name": {Type: "string"}},
				Required:   []string{"name"},
			}})
			if err != nil {
				return nil, err
			}
			return oursText(elicitReport(res.Action, res.Content)), nil
		}),
		oursRaw("roots", func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
			res, err := ss.ListRoots(ctx, nil)
			if err != nil {
				return nil, err
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return oursText(rootsReport(uris)), nil
		}),
		oursRaw("roots_changed", func(ctx context.Context, _ *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			if rootsFlag.status(ctx) != ixCancelled {
				return oursText("roots did not change"), nil
			}
			return oursText(ixRootsChanged), nil
		}),
		oursRaw("media", func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []*mcp.Content{
				mcp.NewImageContent(ixBlob, "image/png"),
				mcp.NewEmbeddedResource(mcp.NewTextResourceContents(ixEmbeddedURI, "text/plain", ixEmbeddedText)),
			}}, nil
		}),
	}
}

// oursAddPromptsAndResources adds the greet prompt, the static and blob
// resources and the items template to s.
func oursAddPromptsAndResources(s *mcp.Server) {
	s.AddPrompts(mcp.NewPrompt(ixPromptName, "greets someone",
		func(_ context.Context, _ *mcp.ServerSession, in struct {
			Name string `json:"name"`
		}) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: mcp.RoleUser, Content: mcp.NewTextContent("Hello, " + in.Name + "!")},
			}}, nil
		},
		mcp.Argument("name", mcp.CompleteWith(func(_ context.Context, value string, _ map[string]string) ([]string, error) {
			return completeByPrefix(ixNameCandidates, value), nil
		}))))
	fixed := func(c *mcp.ResourceContents) mcp.ResourceHandler {
		return func(context.Context, *mcp.ServerSession, *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
		}
	}
	s.AddResources(
		&mcp.ServerResource{Resource: &mcp.Resource{URI: ixStaticURI, Name: "static", MIMEType: "text/plain"},
			Handler: fixed(mcp.NewTextResourceContents(ixStaticURI, "text/plain", ixStaticText))},
		&mcp.ServerResource{Resource: &mcp.Resource{URI: ixBlobURI, Name: "blob", MIMEType: "application/octet-stream"},
			Handler: fixed(mcp.NewBlobResourceContents(ixBlobURI, "application/octet-stream", ixBlob))},
	)
	s.AddResourceTemplates(&mcp.ServerResourceTemplate{
		Template: &mcp.ResourceTemplate{URITemplate: ixTemplate, Name: "items", MIMEType: "text/plain"},
		Handler: func(ctx context.Context, _ *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			id := mcp.ResourceTemplateValues(ctx).Get("id")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{mcp.NewTextResourceContents(p.URI, "text/plain", "item "+id)}}, nil
		},
		Completers: map[string]mcp.Completer{"id": func(_ context.Context, value string, _ map[string]string) ([]string, error) {
			return completeByPrefix(ixIDCandidates, value), nil
		}},
	})
}

func oursFirstText(content []*mcp.Content) string {
	for _, c := range content {
		if c.Type == mcp.ContentTypeText {
			return c.Text
		}
	}
	return ""
}

// serveOursStdio serves gomcp's fixture over stdin and stdout.
func serveOursStdio() error {
	err := oursInteropServer().Run(context.Background(), mcp.NewStdIOTransport())
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// oursInteropHandler serves gomcp's fixture over streamable HTTP (both
// eras on one endpoint, stateful unless stateless, SSE responses unless
// jsonResponse) or, with sse, over the 2024-11-05 HTTP+SSE transport.
func oursInteropHandler(transport string, stateless, jsonResponse bool) (http.Handler, func() error) {
	s := oursInteropServer()
	get := func(*http.Request) *mcp.Server { return s }
	if transport == "sse" {
		h := mcp.NewSSEHTTPHandler(get, nil)
		return h, h.Close
	}
	h := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: stateless, JSONResponse: jsonResponse})
	return h, h.Close
}

// ----- gomcp's client adapter -----

type oursIxClient struct {
	client  *mcp.Client
	cs      *mcp.ClientSession
	ev      *ixEvents
	acks    chan struct{}
	version string
}

// connectOursInterop connects gomcp's fixture client over transport
// ("stdio" to the named SDK's child server, "http" or "sse" to url),
// pinning version ("" lets the client probe).
func connectOursInterop(ctx context.Context, transport, target, version string, ev *ixEvents) (ixClient, error) {
	c := &oursIxClient{ev: ev, acks: make(chan struct{}, 8), version: version}
	client := mcp.NewClient(ixClientName, ixClientVersion, &mcp.ClientOptions{
		ProtocolVersion: version,
		//lint:ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it; the interop tests check it between peers
		CreateMessageHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			ev.count(&ev.samples)
			first := ""
			if len(p.Messages) > 0 {
				first = oursFirstText(p.Messages[0].Content)
			}
			return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: ixModel, StopReason: mcp.StopReasonEndTurn,
				Content: []*mcp.Content{mcp.NewTextContent(sampleAnswer(first))}}, nil
		},
		ElicitationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			ev.count(&ev.elicits)
			hasName := p.RequestedSchema != nil && p.RequestedSchema.Properties["name"] != nil
			action, content := elicitAnswer(p.Message, hasName)
			return &mcp.ElicitResult{Action: action, Content: content}, nil
		},
		LoggingMessageHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.LoggingMessageParams) {
			ev.addLog(string(p.Level), oursLogData(p.Data))
		},
		ProgressNotificationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ProgressNotificationParams) {
			ev.addProgress(p.ProgressToken, p.Progress)
		},
		ToolListChangedHandler: func(context.Context, *mcp.ClientSession, *mcp.ToolListChangedParams) {
			ev.count(&ev.toolsChanged)
		},
		SubscriptionsAcknowledgedHandler: func(context.Context, *mcp.ClientSession, *mcp.SubscriptionsAcknowledgedParams) {
			select {
			case c.acks <- struct{}{}:
			default:
			}
		},
	})
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
	client.AddRoots(&mcp.Root{URI: ixRootURI, Name: ixRootName})
	c.client = client
	var t mcp.Transport
	switch transport {
	case "stdio":
		exe, env, err := interopChildCommand(target)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(exe)
		cmd.Env = env
		t = mcp.NewCommandTransport(cmd, nil)
	case "http":
		t = mcp.NewStreamableClientTransport(target, nil)
	case "sse":
		st, err := mcp.NewSSEClientTransport(target, nil)
		if err != nil {
			return nil, err
		}
		t = st
	default:
		return nil, fmt.Errorf("unknown transport %q", transport)
	}
	cs, err := client.Connect(ctx, t)
	if err != nil {
		return nil, err
	}
	c.cs = cs
	return c, nil
}

// oursLogData renders log data, which arrives as raw JSON, as the string
// it holds.
func oursLogData(data any) any {
	if raw, ok := data.(json.RawMessage); ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return string(raw)
	}
	return data
}

func (c *oursIxClient) Info() ixInfo {
	info := ixInfo{Protocol: c.cs.ProtocolVersion(), Instructions: c.cs.Instructions()}
	if si := c.cs.ServerInfo(); si != nil {
		info.Name, info.Version = si.Name, si.Version
	}
	caps := c.cs.ServerCapabilities()
	for name, ok := range map[string]bool{"completions": caps.Completions != nil, "logging": caps.Logging != nil,
		"prompts": caps.Prompts != nil, "resources": caps.Resources != nil, "tools": caps.Tools != nil} {
		if ok {
			info.Caps = append(info.Caps, name)
		}
	}
	slices.Sort(info.Caps)
	return info
}

func (c *oursIxClient) Ping(ctx context.Context) error { return c.cs.Ping(ctx, nil) }

func (c *oursIxClient) ListTools(ctx context.Context) ([]ixTool, error) {
	var out []ixTool
	for tl, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		raw, _ := tl.InputSchema.(json.RawMessage)
		if err := json.Unmarshal(raw, &schema); err != nil {
			return nil, fmt.Errorf("tool %s: input schema %s: %w", tl.Name, raw, err)
		}
		out = append(out, ixTool{Name: tl.Name, InputProps: sortedKeys(schema.Properties), OutputSchema: tl.OutputSchema != nil})
	}
	return out, nil
}

func (c *oursIxClient) CallTool(ctx context.Context, name string, args map[string]any, token string) (*ixResult, error) {
	opts := &mcp.CallToolOptions{}
	if token != "" {
		opts.Meta.ProgressToken = token
	}
	res, err := c.cs.CallTool(ctx, name, args, opts)
	if err != nil {
		return nil, err
	}
	out := &ixResult{IsError: res.IsError}
	for _, ct := range res.Content {
		switch ct.Type {
		case mcp.ContentTypeText:
			out.Texts = append(out.Texts, ct.Text)
		case "image":
			out.Media = append(out.Media, "image:"+ct.MIMEType+":"+base64.StdEncoding.EncodeToString(ct.Data))
		case "resource":
			if r := ct.Resource; r != nil {
				out.Media = append(out.Media, "resource:"+r.URI+":"+r.MIMEType+":"+r.Text)
			}
		default:
			out.Media = append(out.Media, ct.Type)
		}
	}
	if res.StructuredContent != nil {
		out.Structured = compactJSON(res.StructuredContent)
	}
	return out, nil
}

// compactJSON renders v (raw JSON or a Go value) as compact JSON.
func compactJSON(v any) string {
	raw, ok := v.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Sprintf("<%v>", err)
		}
		raw = b
	}
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return string(raw)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

func (c *oursIxClient) ListPrompts(ctx context.Context) ([]ixPrompt, error) {
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

func (c *oursIxClient) GetPrompt(ctx context.Context, name string, args map[string]string) ([]ixMessage, error) {
	res, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	var out []ixMessage
	for _, m := range res.Messages {
		msg := ixMessage{Role: string(m.Role)}
		if m.Content != nil && m.Content.Type == mcp.ContentTypeText {
			msg.Text = m.Content.Text
		}
		out = append(out, msg)
	}
	return out, nil
}

func (c *oursIxClient) ListResources(ctx context.Context) ([]ixResource, error) {
	var out []ixResource
	for r, err := range c.cs.Resources(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, ixResource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType})
	}
	return out, nil
}

func (c *oursIxClient) ReadResource(ctx context.Context, uri string) ([]ixContents, error) {
	res, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	var out []ixContents
	for _, rc := range res.Contents {
		out = append(out, ixContents{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Blob: rc.Blob, IsBlob: rc.Blob != nil})
	}
	return out, nil
}

func (c *oursIxClient) ListTemplates(ctx context.Context) ([]string, error) {
	var out []string
	for rt, err := range c.cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, rt.URITemplate)
	}
	return out, nil
}

func (c *oursIxClient) Complete(ctx context.Context, ref ixRef, arg, value string) ([]string, error) {
	r := &mcp.CompleteReference{Type: mcp.ReferenceTypePrompt, Name: ref.Prompt}
	if ref.Template != "" {
		r = &mcp.CompleteReference{Type: mcp.ReferenceTypeResource, URI: ref.Template}
	}
	res, err := c.cs.Complete(ctx, &mcp.CompleteParams{Ref: r, Argument: mcp.CompleteArgument{Name: arg, Value: value}})
	if err != nil {
		return nil, err
	}
	return res.Completion.Values, nil
}

func (c *oursIxClient) SetLogLevel(ctx context.Context, level string) error {
	//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
	return c.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)})
}

func (c *oursIxClient) ErrorCode(err error) int {
	var werr *mcp.JSONRPCError
	if errors.As(err, &werr) {
		return int(werr.Code)
	}
	return 0
}

// NotifyRootsChanged adds a second root, which tells connected servers.
func (c *oursIxClient) NotifyRootsChanged(context.Context) error {
	//lint:ignore SA1019 SEP-2577 deprecates roots but every protocol version still has it; the interop tests check it between peers
	c.client.AddRoots(&mcp.Root{URI: ixRootURI + "2", Name: ixRootName + " 2"})
	return nil
}

func (c *oursIxClient) WatchToolsChanged(ctx context.Context) (func(), error) {
	if c.cs.ProtocolVersion() < v20260728 {
		return func() {}, nil
	}
	lctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.cs.Listen(lctx, &mcp.SubscriptionsListenParams{Notifications: mcp.SubscriptionFilter{ToolsListChanged: true}})
		done <- err
	}()
	stop := func() {
		cancel()
		<-done
	}
	select {
	case <-c.acks:
		return stop, nil
	case err := <-done:
		cancel()
		return nil, fmt.Errorf("listen ended before it was acknowledged: %w", err)
	case <-ctx.Done():
		stop()
		return nil, errors.New("listen not acknowledged")
	}
}

func (c *oursIxClient) Close() error { return c.cs.Close() }
