package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// GoSDK is the adapter for the official Go SDK,
// github.com/modelcontextprotocol/go-sdk/mcp v1.8.0.
//
// The echo tool uses the typed mcp.AddTool, which infers the input schema
// from echoArgs and validates arguments, as the SDK's README recommends.
// Streamable HTTP uses NewStreamableHTTPHandler with default options for the
// legacy era (stateful sessions, SSE responses) and Stateless for the modern
// era, since its stateful handler serves legacy clients only.
type GoSDK struct{}

// Name implements SDK.
func (GoSDK) Name() string { return "gosdk" }

// NewServer implements SDK.
func (GoSDK) NewServer() (Server, error) {
	s := gosdk.NewServer(&gosdk.Implementation{Name: "bench", Version: "v0.0.1"}, &gosdk.ServerOptions{
		SubscribeHandler:   func(context.Context, *gosdk.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *gosdk.UnsubscribeRequest) error { return nil },
	})
	gosdk.AddTool(s, &gosdk.Tool{Name: EchoTool, Description: "echo the text back"}, gosdkEcho)
	s.AddResource(&gosdk.Resource{URI: WatchedURI, Name: "watched", MIMEType: "text/plain"},
		func(ctx context.Context, req *gosdk.ReadResourceRequest) (*gosdk.ReadResourceResult, error) {
			return &gosdk.ReadResourceResult{Contents: []*gosdk.ResourceContents{{URI: WatchedURI, Text: "watched"}}}, nil
		})
	gosdkAddPayloads(s)
	return &gosdkServer{s: s}, nil
}

func gosdkEcho(ctx context.Context, req *gosdk.CallToolRequest, in echoArgs) (*gosdk.CallToolResult, any, error) {
	return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: in.Text}}}, nil, nil
}

var gosdkClient = sync.OnceValue(func() *gosdk.Client {
	return gosdk.NewClient(&gosdk.Implementation{Name: "bench-client", Version: "v0.0.1"}, nil)
})

// gosdkSessionOptions pins LegacyVersion for the legacy era; the modern era
// uses the defaults.
func gosdkSessionOptions(era Era) *gosdk.ClientSessionOptions {
	if era == Legacy {
		return &gosdk.ClientSessionOptions{ProtocolVersion: LegacyVersion}
	}
	return nil
}

// ConnectHTTP implements SDK.
func (GoSDK) ConnectHTTP(ctx context.Context, url string, era Era, hc *http.Client) (Session, error) {
	t := &gosdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}
	cs, err := gosdkClient().Connect(ctx, t, gosdkSessionOptions(era))
	if err != nil {
		return nil, fmt.Errorf("gosdk: client connect: %w", err)
	}
	return &gosdkSession{cs: cs}, nil
}

type gosdkServer struct {
	s       *gosdk.Server
	changes changeCounter // ChangeTools calls
}

func (g *gosdkServer) ConnectInMemory(ctx context.Context, era Era) (Session, error) {
	st, ct := gosdk.NewInMemoryTransports()
	return g.connect(ctx, era, st, ct)
}

func (g *gosdkServer) ConnectPipe(ctx context.Context, era Era) (Session, error) {
	se, ce, err := NewPipePair()
	if err != nil {
		return nil, err
	}
	sess, err := g.connect(ctx, era,
		&gosdk.IOTransport{Reader: se.R, Writer: se.W},
		&gosdk.IOTransport{Reader: ce.R, Writer: ce.W})
	if err != nil {
		se.Close()
		ce.Close()
	}
	return sess, err
}

func (g *gosdkServer) connect(ctx context.Context, era Era, st, ct gosdk.Transport) (Session, error) {
	ss, err := g.s.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("gosdk: server connect: %w", err)
	}
	cs, err := gosdkClient().Connect(ctx, ct, gosdkSessionOptions(era))
	if err != nil {
		ss.Close()
		return nil, fmt.Errorf("gosdk: client connect: %w", err)
	}
	return &gosdkSession{cs: cs, ss: ss}, nil
}

func (g *gosdkServer) ConnectRawInMemory(ctx context.Context) (io.Closer, error) {
	st, ct := gosdk.NewInMemoryTransports()
	ss, err := g.s.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		ss.Close()
		return nil, err
	}
	if err := gosdkRawHandshake(ctx, conn); err != nil {
		conn.Close()
		ss.Close()
		return nil, err
	}
	return closers{conn, ss}, nil
}

// gosdkRawHandshake sends initialize, reads its response and sends
// notifications/initialized over a raw connection.
func gosdkRawHandshake(ctx context.Context, conn gosdk.Connection) error {
	req, err := jsonrpc.DecodeMessage(InitializeRequest(1))
	if err != nil {
		return err
	}
	if err := conn.Write(ctx, req); err != nil {
		return err
	}
	reply, err := conn.Read(ctx)
	if err != nil {
		return err
	}
	if resp, ok := reply.(*jsonrpc.Response); !ok || resp.Error != nil {
		return fmt.Errorf("%w: initialize answered with %T %+v", ErrMismatch, reply, reply)
	}
	note, err := jsonrpc.DecodeMessage(InitializedNotification())
	if err != nil {
		return err
	}
	return conn.Write(ctx, note)
}

func (g *gosdkServer) Handler(era Era) (http.Handler, error) {
	var opts *gosdk.StreamableHTTPOptions
	if era == Modern {
		opts = &gosdk.StreamableHTTPOptions{Stateless: true}
	}
	return gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return g.s }, opts), nil
}

func (g *gosdkServer) Close() error {
	for ss := range g.s.Sessions() {
		ss.Close()
	}
	return nil
}

type gosdkSession struct {
	cs *gosdk.ClientSession
	ss *gosdk.ServerSession
}

func (s *gosdkSession) Echo(ctx context.Context, text string) error {
	res, err := s.cs.CallTool(ctx, &gosdk.CallToolParams{Name: EchoTool, Arguments: map[string]any{"text": text}})
	if err != nil {
		return err
	}
	texts := make([]string, 0, 1)
	for _, c := range res.Content {
		if tc, ok := c.(*gosdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return checkEcho(texts, res.IsError, text)
}

func (s *gosdkSession) ProtocolVersion() string {
	if r := s.cs.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

func (s *gosdkSession) Close() error {
	err := s.cs.Close()
	if s.ss != nil {
		s.ss.Close()
	}
	return err
}
