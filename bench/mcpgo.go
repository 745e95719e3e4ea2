package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// MCPGo is the adapter for github.com/mark3labs/mcp-go v1.2.1.
//
// The echo tool is built with the mcp.NewTool option DSL and a handler that
// reads its argument with RequireString, as the project's README shows; the
// SDK does not validate arguments against the schema unless asked to. The
// in-memory transport is the in-process client (NewInProcessClient), the
// pipe transport is StdioServer.Listen with transport.NewIO, and streamable
// HTTP is NewStreamableHTTPServer with default options, which serves both
// eras on one endpoint.
type MCPGo struct{}

// Name implements SDK.
func (MCPGo) Name() string { return "mcpgo" }

// NewServer implements SDK.
func (MCPGo) NewServer() (Server, error) {
	s := mcpserver.NewMCPServer("bench", "v0.0.1", mcpserver.WithToolCapabilities(true))
	s.AddTool(mcpgo.NewTool(EchoTool,
		mcpgo.WithDescription("echo the text back"),
		mcpgo.WithString("text", mcpgo.Required(), mcpgo.Description("the text to echo")),
	), mcpgoEcho)
	mcpgoAddPayloads(s)
	return &mcpgoServer{s: s}, nil
}

func mcpgoEcho(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcpgo.NewToolResultError(err.Error()), nil
	}
	return mcpgo.NewToolResultText(text), nil
}

// mcpgoOptions keeps a legacy-era client on the initialize handshake; a
// modern client uses the defaults (it probes with server/discover).
func mcpgoOptions(era Era) []mcpclient.ClientOption {
	if era == Legacy {
		//lint:ignore SA1019 the legacy protocol era (deprecated by 2026-07-28, SEP-2575) is still served; the legacy-era benchmarks drive it
		return []mcpclient.ClientOption{mcpclient.WithLegacyProtocolOnly()}
	}
	return nil
}

// mcpgoStart starts c and runs the initialize (or discover) exchange.
func mcpgoStart(ctx context.Context, c *mcpclient.Client, era Era) error {
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("mcpgo: start: %w", err)
	}
	var req mcpgo.InitializeRequest
	req.Params.ProtocolVersion = era.Version()
	req.Params.ClientInfo = mcpgo.Implementation{Name: "bench-client", Version: "v0.0.1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		return fmt.Errorf("mcpgo: initialize: %w", err)
	}
	return nil
}

// ConnectHTTP implements SDK.
func (MCPGo) ConnectHTTP(ctx context.Context, url string, era Era, hc *http.Client) (Session, error) {
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(hc))
	if err != nil {
		return nil, err
	}
	c := mcpclient.NewClient(tr, mcpgoOptions(era)...)
	if err := mcpgoStart(ctx, c, era); err != nil {
		c.Close()
		return nil, err
	}
	return &mcpgoSession{c: c}, nil
}

type mcpgoServer struct {
	s       *mcpserver.MCPServer
	changes changeCounter // ChangeTools calls
}

func (m *mcpgoServer) ConnectInMemory(ctx context.Context, era Era) (Session, error) {
	c, err := mcpclient.NewInProcessClientWithOptions(m.s, mcpgoOptions(era)...)
	if err != nil {
		return nil, err
	}
	if err := mcpgoStart(ctx, c, era); err != nil {
		c.Close()
		return nil, err
	}
	return &mcpgoSession{c: c}, nil
}

func (m *mcpgoServer) ConnectPipe(ctx context.Context, era Era) (Session, error) {
	se, ce, err := NewPipePair()
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		mcpserver.NewStdioServer(m.s).Listen(lctx, se.R, se.W)
		se.Close()
	}()
	c := mcpclient.NewClient(transport.NewIO(ce.R, ce.W, nil), mcpgoOptions(era)...)
	sess := &mcpgoSession{c: c, stop: func() {
		cancel()
		<-done
		ce.R.Close()
	}}
	if err := mcpgoStart(ctx, c, era); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

func (m *mcpgoServer) ConnectRawInMemory(ctx context.Context) (io.Closer, error) {
	id := m.s.GenerateInProcessSessionID()
	sess := mcpserver.NewInProcessSession(id, nil)
	if err := m.s.RegisterSession(ctx, sess); err != nil {
		return nil, err
	}
	closer := closeFunc(func() error {
		m.s.UnregisterSession(context.Background(), id)
		return nil
	})
	sctx := m.s.WithContext(ctx, sess)
	reply := m.s.HandleMessage(sctx, InitializeRequest(1))
	if _, ok := reply.(mcpgo.JSONRPCResponse); !ok {
		closer.Close()
		return nil, fmt.Errorf("%w: initialize answered with %T %+v", ErrMismatch, reply, reply)
	}
	m.s.HandleMessage(sctx, InitializedNotification())
	return closer, nil
}

func (m *mcpgoServer) Handler(era Era) (http.Handler, error) {
	return mcpserver.NewStreamableHTTPServer(m.s), nil
}

func (m *mcpgoServer) Close() error { return nil }

type mcpgoSession struct {
	c    *mcpclient.Client
	stop func() // ends the pipe server, if any
}

func (s *mcpgoSession) Echo(ctx context.Context, text string) error {
	var req mcpgo.CallToolRequest
	req.Params.Name = EchoTool
	req.Params.Arguments = map[string]any{"text": text}
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	texts := make([]string, 0, 1)
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return checkEcho(texts, res.IsError, text)
}

func (s *mcpgoSession) ProtocolVersion() string { return s.c.ProtocolVersion() }

func (s *mcpgoSession) Close() error {
	err := s.c.Close()
	if s.stop != nil {
		s.stop()
	}
	return err
}

// closeFunc adapts a function to io.Closer.
type closeFunc func() error

// Close calls f.
func (f closeFunc) Close() error { return f() }
