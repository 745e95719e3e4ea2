package bench

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// ----- mcp-go's fixture server -----

// mcpgoCompletions completes the greet prompt's and the template's
// arguments for mcp-go, which takes completion providers.
type mcpgoCompletions struct{}

func (mcpgoCompletions) CompletePromptArgument(_ context.Context, _ string, arg mcpgo.CompleteArgument, _ mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return &mcpgo.Completion{Values: orEmpty(completeByPrefix(ixNameCandidates, arg.Value))}, nil
}

func (mcpgoCompletions) CompleteResourceArgument(_ context.Context, _ string, arg mcpgo.CompleteArgument, _ mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return &mcpgo.Completion{Values: orEmpty(completeByPrefix(ixIDCandidates, arg.Value))}, nil
}

// mcpgoInteropServer returns mcp-go's fixture server (see ixTools).
// Sampling, elicitation and roots use the InputRequestBuilder, which the
// SDK documents for both eras: it answers 2026-07-28 clients with
// input-required results and asks legacy clients with real requests.
// Input validation is opted into (WithInputSchemaValidation), as the
// fixture's invalid-arguments check expects it.
func mcpgoInteropServer() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer(ixServerName, ixServerVersion,
		mcpserver.WithInstructions(ixInstructions),
		mcpserver.WithToolCapabilities(true),
		mcpserver.WithResourceCapabilities(false, true),
		mcpserver.WithPromptCapabilities(true),
		mcpserver.WithLogging(),
		mcpserver.WithCompletions(),
		mcpserver.WithPromptCompletionProvider(mcpgoCompletions{}),
		mcpserver.WithResourceCompletionProvider(mcpgoCompletions{}),
		mcpserver.WithInputSchemaValidation(),
		mcpserver.WithPaginationLimit(ixPageSize),
		mcpserver.WithLogger(ixSlog("mcpgo-server")),
	)
	s.EnableSampling()
	rootsFlag := newCancelFlag()
	s.AddNotificationHandler("notifications/roots/list_changed", func(context.Context, mcpgo.JSONRPCNotification) {
		rootsFlag.set()
	})
	mcpgoAddBasicTools(s, newCancelFlag())
	mcpgoAddAskTools(s, rootsFlag)
	mcpgoAddPromptsAndResources(s)
	return s
}

// mcpgoAddBasicTools adds echo, add, fail, progress, log, wait and
// wait_status; flag records wait's cancellation.
func mcpgoAddBasicTools(s *mcpserver.MCPServer, flag *cancelFlag) {
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("echo the text back"),
		mcpgo.WithString("text", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			text, err := req.RequireString("text")
			if err != nil {
				return mcpgo.NewToolResultError(err.Error()), nil
			}
			return mcpgo.NewToolResultText(text), nil
		})
	s.AddTool(mcpgo.NewTool("add", mcpgo.WithDescription("add two integers"),
		mcpgo.WithInputSchema[ixAddIn](), mcpgo.WithOutputSchema[ixAddOut]()),
		mcpgo.NewStructuredToolHandler(func(_ context.Context, _ mcpgo.CallToolRequest, in ixAddIn) (ixAddOut, error) {
			return ixAddOut{Sum: in.A + in.B}, nil
		}))
	s.AddTool(mcpgo.NewTool("fail"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultError(ixFailText), nil
	})
	s.AddTool(mcpgo.NewTool("progress"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		token := mcpgoToken(req)
		for i := 1; i <= 3; i++ {
			err := s.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": token, "progress": i, "total": 3, "message": "step " + strconv.Itoa(i)})
			if err != nil {
				return nil, err
			}
		}
		return mcpgo.NewToolResultText(ixProgressDone), nil
	})
	s.AddTool(mcpgo.NewTool("log"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		for _, l := range []mcpgo.LoggingLevel{mcpgo.LoggingLevelDebug, mcpgo.LoggingLevelInfo, mcpgo.LoggingLevelError} {
			if err := s.SendLogMessageToClient(ctx, mcpgo.NewLoggingMessageNotification(l, ixLogger, "log-"+string(l))); err != nil {
				return nil, err
			}
		}
		return mcpgo.NewToolResultText(ixLogged), nil
	})
	s.AddTool(mcpgo.NewTool("wait"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		err := s.SendNotificationToClient(ctx, "notifications/progress", map[string]any{"progressToken": mcpgoToken(req), "progress": 0})
		if err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			flag.set()
			return nil, ctx.Err()
		case <-time.After(20 * time.Second):
			return mcpgo.NewToolResultText("not cancelled"), nil
		}
	})
	s.AddTool(mcpgo.NewTool("wait_status"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText(flag.status(ctx)), nil
	})
}

// mcpgoAddAskTools adds sample, elicit, roots, roots_changed, media and
// change; rootsFlag records that the client's roots changed.
func mcpgoAddAskTools(s *mcpserver.MCPServer, rootsFlag *cancelFlag) {
	s.AddTool(mcpgo.NewTool("sample"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res := mcpserver.SamplingResponse(req.Params.InputResponses, "sample")
		if res == nil {
			return mcpserver.NewInputRequestBuilder("").Sample("sample", mcpgo.CreateMessageParams{
				Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent(ixSampleIn)}},
				MaxTokens: 10,
			}).ToolResult(), nil
		}
		return mcpgo.NewToolResultText(sampleReport(mcpgoText(res.Content), res.Model)), nil
	})
	s.AddTool(mcpgo.NewTool("elicit"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res := mcpserver.ElicitationResponse(req.Params.InputResponses, "elicit")
		if res == nil {
			return mcpserver.NewInputRequestBuilder("").Elicit("elicit", mcpgo.ElicitationParams{
				Message: ixElicitPrompt,
				RequestedSchema: map[string]any{"type": "object",
					"properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}},
			}).ToolResult(), nil
		}
		content, _ := res.Content.(map[string]any)
		return mcpgo.NewToolResultText(elicitReport(string(res.Action), content)), nil
	})
	s.AddTool(mcpgo.NewTool("roots"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res := mcpserver.RootsResponse(req.Params.InputResponses, "roots")
		if res == nil {
			return mcpserver.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI)
		}
		return mcpgo.NewToolResultText(rootsReport(uris)), nil
	})
	s.AddTool(mcpgo.NewTool("roots_changed"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if rootsFlag.status(ctx) != ixCancelled {
			return mcpgo.NewToolResultText("roots did not change"), nil
		}
		return mcpgo.NewToolResultText(ixRootsChanged), nil
	})
	s.AddTool(mcpgo.NewTool("media"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return &mcpgo.CallToolResult{Content: []mcpgo.Content{
			mcpgo.NewImageContent(base64.StdEncoding.EncodeToString(ixBlob), "image/png"),
			mcpgo.NewEmbeddedResource(mcpgo.TextResourceContents{URI: ixEmbeddedURI, MIMEType: "text/plain", Text: ixEmbeddedText}),
		}}, nil
	})
	s.AddTool(mcpgo.NewTool("change"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		s.AddTool(mcpgo.NewTool(ixAddedTool), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(ixAddedTool), nil
		})
		return mcpgo.NewToolResultText(ixChanged), nil
	})

}

// mcpgoAddPromptsAndResources adds the greet prompt, the static and blob
// resources and the items template.
func mcpgoAddPromptsAndResources(s *mcpserver.MCPServer) {
	s.AddPrompt(mcpgo.NewPrompt(ixPromptName, mcpgo.WithPromptDescription("greets someone"),
		mcpgo.WithArgument("name", mcpgo.RequiredArgument())),
		func(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return &mcpgo.GetPromptResult{Messages: []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("Hello, "+req.Params.Arguments["name"]+"!")),
			}}, nil
		})
	s.AddResource(mcpgo.NewResource(ixStaticURI, "static", mcpgo.WithMIMEType("text/plain")),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: ixStaticURI, MIMEType: "text/plain", Text: ixStaticText}}, nil
		})
	s.AddResource(mcpgo.NewResource(ixBlobURI, "blob", mcpgo.WithMIMEType("application/octet-stream")),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: ixBlobURI, MIMEType: "application/octet-stream",
				Blob: base64.StdEncoding.EncodeToString(ixBlob)}}, nil
		})
	s.AddResourceTemplate(mcpgo.NewResourceTemplate(ixTemplate, "items", mcpgo.WithTemplateMIMEType("text/plain")),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			id := strings.TrimPrefix(req.Params.URI, "test://items/")
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "item " + id}}, nil
		})
}

// mcpgoToken returns the progress token of a tool call, or nil.
func mcpgoToken(req mcpgo.CallToolRequest) any {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}

// mcpgoText returns the text of mcp-go content: a TextContent or the first
// TextContent of a list.
func mcpgoText(content any) string {
	switch c := content.(type) {
	case mcpgo.TextContent:
		return c.Text
	case *mcpgo.TextContent:
		return c.Text
	case []mcpgo.Content:
		for _, x := range c {
			if t := mcpgoText(x); t != "" {
				return t
			}
		}
	case map[string]any:
		s, _ := c["text"].(string)
		return s
	}
	return ""
}

// serveMcpgoStdio serves mcp-go's fixture over stdin and stdout.
func serveMcpgoStdio() error {
	return mcpserver.NewStdioServer(mcpgoInteropServer()).Listen(context.Background(), os.Stdin, os.Stdout)
}

// mcpgoInteropHandler serves mcp-go's fixture: the streamable HTTP server
// (both eras on one endpoint; stateless with WithStateLess, JSON
// responses with WithDisableStreaming) or the
// 2024-11-05 SSE server, whose endpoints are base+"/sse" and
// base+"/message".
func mcpgoInteropHandler(transport string, stateless, jsonResponse bool, base string) (http.Handler, func() error) {
	s := mcpgoInteropServer()
	if transport == "sse" {
		h := mcpserver.NewSSEServer(s, mcpserver.WithBaseURL(base))
		return h, func() error { return h.Shutdown(context.Background()) }
	}
	h := mcpserver.NewStreamableHTTPServer(s, mcpserver.WithStateLess(stateless), mcpserver.WithDisableStreaming(jsonResponse),
		mcpserver.WithStreamableHTTPLogger(ixSlog("mcpgo-server")))
	return h, func() error { return nil }
}

// ----- mcp-go's client adapter -----

type mcpgoIxClient struct {
	c    *mcpclient.Client
	init *mcpgo.InitializeResult
	acks chan struct{}
}

// mcpgoHandlers is the fixture client's sampling, elicitation and roots
// behaviour for mcp-go.
type mcpgoHandlers struct{ ev *ixEvents }

func (h mcpgoHandlers) CreateMessage(_ context.Context, req mcpgo.CreateMessageRequest) (*mcpgo.CreateMessageResult, error) {
	h.ev.count(&h.ev.samples)
	first := ""
	if len(req.Messages) > 0 {
		first = mcpgoText(req.Messages[0].Content)
	}
	return &mcpgo.CreateMessageResult{
		SamplingMessage: mcpgo.SamplingMessage{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent(sampleAnswer(first))},
		Model:           ixModel, StopReason: "endTurn",
	}, nil
}

func (h mcpgoHandlers) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	h.ev.count(&h.ev.elicits)
	action, content := elicitAnswer(req.Params.Message, schemaHasProperty(req.Params.RequestedSchema, "name"))
	res := &mcpgo.ElicitationResult{}
	res.Action = mcpgo.ElicitationResponseAction(action)
	if content != nil {
		res.Content = content
	}
	return res, nil
}

func (h mcpgoHandlers) ListRoots(context.Context, mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	return &mcpgo.ListRootsResult{Roots: []mcpgo.Root{{URI: ixRootURI, Name: ixRootName}}}, nil
}

// connectMcpgoInterop connects mcp-go's fixture client; see
// connectOursInterop. A pinned legacy version uses WithLegacyProtocolOnly,
// as the SDK documents; otherwise the client probes with server/discover.
func connectMcpgoInterop(ctx context.Context, tr, target, version string, ev *ixEvents) (ixClient, error) {
	var t transport.Interface
	var listening <-chan struct{} // closed once the client's GET stream is answered
	switch tr {
	case "stdio":
		exe, env, err := interopChildCommand(target)
		if err != nil {
			return nil, err
		}
		t = transport.NewStdioWithOptions(exe, env, nil, transport.WithCommandLogger(ixSlog("mcpgo-client")))
	case "http":
		opts := []transport.StreamableHTTPCOption{transport.WithHTTPLogger(ixSlog("mcpgo-client"))}
		if version != "" && version < v20260728 {
			// The legacy era's standalone GET stream carries the
			// notifications not tied to a request (list changes); mcp-go
			// opens it only when asked.
			//lint:ignore SA1019 the legacy protocol era (deprecated by 2026-07-28, SEP-2575) is still served; the interop tests check it between peers
			opts = append(opts, transport.WithContinuousListening())
			// mcp-go opens that stream on a goroutine of its own, which
			// may send the GET after the scenario's first calls: the
			// connection waits for its answer, so that notifications the
			// server can send only there (all of them, with JSON
			// responses) have a stream to go to.
			w := &getWatcher{base: http.DefaultTransport, answered: make(chan struct{})}
			listening = w.answered
			opts = append(opts, transport.WithHTTPBasicClient(&http.Client{Transport: w}))
		}
		st, err := transport.NewStreamableHTTP(target, opts...)
		if err != nil {
			return nil, err
		}
		t = st
	case "sse":
		st, err := transport.NewSSE(target, transport.WithSSELogger(ixSlog("mcpgo-client")))
		if err != nil {
			return nil, err
		}
		t = st
	default:
		return nil, fmt.Errorf("unknown transport %q", tr)
	}
	h := mcpgoHandlers{ev: ev}
	opts := []mcpclient.ClientOption{
		mcpclient.WithSamplingHandler(h), mcpclient.WithElicitationHandler(h), mcpclient.WithRootsHandler(h),
	}
	if version != "" && version < v20260728 {
		//lint:ignore SA1019 the legacy protocol era (deprecated by 2026-07-28, SEP-2575) is still served; the interop tests check it between peers
		opts = append(opts, mcpclient.WithLegacyProtocolOnly())
	}
	c := mcpclient.NewClient(t, opts...)
	ic := &mcpgoIxClient{c: c, acks: make(chan struct{}, 8)}
	c.OnNotification(func(n mcpgo.JSONRPCNotification) { ic.onNotification(ev, n) })
	// Start's context bounds the transport's streams (the SSE stream, the
	// child process), not just the start, so it must outlive the session.
	if err := c.Start(context.Background()); err != nil {
		c.Close()
		return nil, err
	}
	var req mcpgo.InitializeRequest
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcpgo.Implementation{Name: ixClientName, Version: ixClientVersion}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		c.Close()
		return nil, err
	}
	ic.init = res
	if listening != nil {
		select {
		case <-listening:
		case <-time.After(5 * time.Second): // the check that needs the stream reports it
		}
	}
	return ic, nil
}

// getWatcher is an http.RoundTripper that closes answered when the first
// GET (a client's listening stream) has its answer.
type getWatcher struct {
	base     http.RoundTripper
	once     sync.Once
	answered chan struct{}
}

func (w *getWatcher) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := w.base.RoundTrip(r)
	if r.Method == http.MethodGet {
		w.once.Do(func() { close(w.answered) })
	}
	return resp, err
}

func (c *mcpgoIxClient) onNotification(ev *ixEvents, n mcpgo.JSONRPCNotification) {
	p := n.Params.AdditionalFields
	switch n.Method {
	case "notifications/message":
		level, _ := p["level"].(string)
		ev.addLog(level, p["data"])
	case "notifications/progress":
		progress, _ := p["progress"].(float64)
		ev.addProgress(p["progressToken"], progress)
	case "notifications/tools/list_changed":
		ev.count(&ev.toolsChanged)
	case "notifications/subscriptions/acknowledged":
		select {
		case c.acks <- struct{}{}:
		default:
		}
	}
}

func (c *mcpgoIxClient) Info() ixInfo {
	r := c.init
	info := ixInfo{Protocol: c.c.ProtocolVersion(), Instructions: r.Instructions,
		Name: r.ServerInfo.Name, Version: r.ServerInfo.Version}
	caps := r.Capabilities
	for name, ok := range map[string]bool{"completions": caps.Completions != nil, "logging": caps.Logging != nil,
		"prompts": caps.Prompts != nil, "resources": caps.Resources != nil, "tools": caps.Tools != nil} {
		if ok {
			info.Caps = append(info.Caps, name)
		}
	}
	slices.Sort(info.Caps)
	return info
}

//lint:ignore SA1019 the legacy protocol era (deprecated by 2026-07-28, SEP-2575) is still served; the interop tests check it between peers
func (c *mcpgoIxClient) Ping(ctx context.Context) error { return c.c.Ping(ctx) }

func (c *mcpgoIxClient) ListTools(ctx context.Context) ([]ixTool, error) {
	res, err := c.c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	var out []ixTool
	for _, tl := range res.Tools {
		var props []string
		for p := range tl.InputSchema.Properties {
			props = append(props, p)
		}
		slices.Sort(props)
		hasOut := tl.OutputSchema.Type != "" || len(tl.RawOutputSchema) > 0
		out = append(out, ixTool{Name: tl.Name, InputProps: props, OutputSchema: hasOut})
	}
	return out, nil
}

func (c *mcpgoIxClient) CallTool(ctx context.Context, name string, args map[string]any, token string) (*ixResult, error) {
	var req mcpgo.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	if token != "" {
		req.Params.Meta = &mcpgo.Meta{ProgressToken: token}
	}
	res, err := c.c.CallTool(ctx, req)
	if err != nil {
		return nil, err
	}
	out := &ixResult{IsError: res.IsError}
	for _, ct := range res.Content {
		switch x := ct.(type) {
		case mcpgo.TextContent:
			out.Texts = append(out.Texts, x.Text)
		case mcpgo.ImageContent:
			out.Media = append(out.Media, "image:"+x.MIMEType+":"+x.Data)
		case mcpgo.EmbeddedResource:
			if r, ok := x.Resource.(mcpgo.TextResourceContents); ok {
				out.Media = append(out.Media, "resource:"+r.URI+":"+r.MIMEType+":"+r.Text)
			} else {
				out.Media = append(out.Media, fmt.Sprintf("resource %T", x.Resource))
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

func (c *mcpgoIxClient) ListPrompts(ctx context.Context) ([]ixPrompt, error) {
	res, err := c.c.ListPrompts(ctx, mcpgo.ListPromptsRequest{})
	if err != nil {
		return nil, err
	}
	var out []ixPrompt
	for _, p := range res.Prompts {
		ip := ixPrompt{Name: p.Name}
		for _, a := range p.Arguments {
			ip.Args = append(ip.Args, ixArg{Name: a.Name, Required: a.Required})
		}
		out = append(out, ip)
	}
	return out, nil
}

func (c *mcpgoIxClient) GetPrompt(ctx context.Context, name string, args map[string]string) ([]ixMessage, error) {
	var req mcpgo.GetPromptRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.c.GetPrompt(ctx, req)
	if err != nil {
		return nil, err
	}
	var out []ixMessage
	for _, m := range res.Messages {
		out = append(out, ixMessage{Role: string(m.Role), Text: mcpgoText(m.Content)})
	}
	return out, nil
}

func (c *mcpgoIxClient) ListResources(ctx context.Context) ([]ixResource, error) {
	res, err := c.c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		return nil, err
	}
	var out []ixResource
	for _, r := range res.Resources {
		out = append(out, ixResource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType})
	}
	return out, nil
}

func (c *mcpgoIxClient) ReadResource(ctx context.Context, uri string) ([]ixContents, error) {
	var req mcpgo.ReadResourceRequest
	req.Params.URI = uri
	res, err := c.c.ReadResource(ctx, req)
	if err != nil {
		return nil, err
	}
	var out []ixContents
	for _, rc := range res.Contents {
		switch x := rc.(type) {
		case mcpgo.TextResourceContents:
			out = append(out, ixContents{URI: x.URI, MIMEType: x.MIMEType, Text: x.Text})
		case mcpgo.BlobResourceContents:
			b, err := base64.StdEncoding.DecodeString(x.Blob)
			if err != nil {
				return nil, fmt.Errorf("blob of %s: %w", x.URI, err)
			}
			out = append(out, ixContents{URI: x.URI, MIMEType: x.MIMEType, Blob: b, IsBlob: true})
		default:
			return nil, fmt.Errorf("unexpected resource contents %T", rc)
		}
	}
	return out, nil
}

func (c *mcpgoIxClient) ListTemplates(ctx context.Context) ([]string, error) {
	res, err := c.c.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rt := range res.ResourceTemplates {
		if rt.URITemplate != nil && rt.URITemplate.Template != nil {
			out = append(out, rt.URITemplate.Raw())
		}
	}
	return out, nil
}

func (c *mcpgoIxClient) Complete(ctx context.Context, ref ixRef, arg, value string) ([]string, error) {
	var req mcpgo.CompleteRequest
	if ref.Template != "" {
		req.Params.Ref = mcpgo.ResourceReference{Type: "ref/resource", URI: ref.Template}
	} else {
		req.Params.Ref = mcpgo.PromptReference{Type: "ref/prompt", Name: ref.Prompt}
	}
	req.Params.Argument = mcpgo.CompleteArgument{Name: arg, Value: value}
	res, err := c.c.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	return res.Completion.Values, nil
}

func (c *mcpgoIxClient) SetLogLevel(ctx context.Context, level string) error {
	var req mcpgo.SetLevelRequest
	req.Params.Level = mcpgo.LoggingLevel(level)
	//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the interop tests check it between peers
	return c.c.SetLevel(ctx, req)
}

// ErrorCode maps the sentinel errors mcp-go returns for JSON-RPC errors
// back to their codes.
func (c *mcpgoIxClient) ErrorCode(err error) int {
	for code, sentinel := range map[int]error{
		-32002: mcpgo.ErrResourceNotFound, -32602: mcpgo.ErrInvalidParams, -32601: mcpgo.ErrMethodNotFound,
		-32603: mcpgo.ErrInternalError, -32600: mcpgo.ErrInvalidRequest,
	} {
		if errors.Is(err, sentinel) {
			return code
		}
	}
	return 0
}

func (c *mcpgoIxClient) NotifyRootsChanged(ctx context.Context) error {
	return c.c.RootListChanges(ctx)
}

// WatchToolsChanged opens a subscriptions/listen stream in 2026-07-28 and
// waits for the server's acknowledgement.
func (c *mcpgoIxClient) WatchToolsChanged(ctx context.Context) (func(), error) {
	if c.c.ProtocolVersion() < v20260728 {
		return func() {}, nil
	}
	var mu sync.Mutex
	var lerr error
	stop, err := c.c.ListenAsync(context.Background(), mcpgo.SubscriptionFilter{ToolsListChanged: true}, func(err error) {
		mu.Lock()
		lerr = err
		mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	select {
	case <-c.acks:
		return stop, nil
	case <-ctx.Done():
		stop()
		mu.Lock()
		defer mu.Unlock()
		return nil, fmt.Errorf("listen not acknowledged (stream error: %v)", lerr)
	}
}

func (c *mcpgoIxClient) Close() error { return c.c.Close() }
