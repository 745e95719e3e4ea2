package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/gomcp/sdk/mcp"
)

// Ours is the adapter for gomcp, github.com/gomcp/sdk/mcp.
//
// The echo tool is the typed mcp.NewTool, which infers the input schema
// from echoArgs and validates every call's arguments. Streamable HTTP is one
// NewStreamableHTTPHandler with default options, which serves both eras on
// one endpoint, and the default StreamableClientTransport.
type Ours struct{}

// Name implements SDK.
func (Ours) Name() string { return "ours" }

// NewServer implements SDK.
func (Ours) NewServer() (Server, error) {
	s := mcp.NewServer("bench", "v0.0.1", oursSubscriptions())
	s.AddTools(mcp.NewTool(EchoTool, "echo the text back", oursEcho,
		mcp.Input(mcp.Property("text", mcp.Description("the text to echo")))))
	s.AddResources(oursResource())
	oursAddPayloads(s)
	return &oursServer{s: s}, nil
}

// ConnectHTTP implements SDK.
func (Ours) ConnectHTTP(ctx context.Context, url string, era Era, hc *http.Client) (Session, error) {
	t := mcp.NewStreamableClientTransport(url, &mcp.StreamableClientTransportOptions{HTTPClient: hc, MaxEventSize: maxPayloadEvent})
	cs, err := oursClient(era).Connect(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("ours: client connect: %w", err)
	}
	return &oursSession{cs: cs}, nil
}

func oursEcho(ctx context.Context, ss *mcp.ServerSession, in echoArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent(in.Text)}, nil
}

type oursServer struct {
	s       *mcp.Server
	changes changeCounter // ChangeTools calls

	mu       sync.Mutex
	handlers []*mcp.StreamableHTTPHandler
}

// oursClients are the shared clients by era: modern is the default client
// (it probes with server/discover), legacy pins LegacyVersion.
var oursClients = sync.OnceValue(func() [2]*mcp.Client {
	return [2]*mcp.Client{
		Legacy: mcp.NewClient("bench-client", "v0.0.1", &mcp.ClientOptions{ProtocolVersion: LegacyVersion}),
		Modern: mcp.NewClient("bench-client", "v0.0.1", nil),
	}
})

func oursClient(era Era) *mcp.Client { return oursClients()[era] }

func (o *oursServer) ConnectInMemory(ctx context.Context, era Era) (Session, error) {
	st, ct := mcp.NewInMemoryTransports()
	return o.connect(ctx, era, st, ct)
}

func (o *oursServer) ConnectPipe(ctx context.Context, era Era) (Session, error) {
	se, ce, err := NewPipePair()
	if err != nil {
		return nil, err
	}
	sess, err := o.connect(ctx, era, mcp.NewIOTransport(se), mcp.NewIOTransport(ce))
	if err != nil {
		se.Close()
		ce.Close()
	}
	return sess, err
}

func (o *oursServer) connect(ctx context.Context, era Era, st, ct mcp.Transport) (Session, error) {
	ss, err := o.s.Connect(ctx, st)
	if err != nil {
		return nil, fmt.Errorf("ours: server connect: %w", err)
	}
	cs, err := oursClient(era).Connect(ctx, ct)
	if err != nil {
		ss.Close()
		return nil, fmt.Errorf("ours: client connect: %w", err)
	}
	return &oursSession{cs: cs, ss: ss}, nil
}

func (o *oursServer) ConnectRawInMemory(ctx context.Context) (io.Closer, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := o.s.Connect(ctx, st)
	if err != nil {
		return nil, err
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		ss.Close()
		return nil, err
	}
	if err := oursRawHandshake(ctx, conn); err != nil {
		conn.Close()
		ss.Close()
		return nil, err
	}
	return closers{conn, ss}, nil
}

// oursRawHandshake sends initialize, reads its response and sends
// notifications/initialized over a raw connection.
func oursRawHandshake(ctx context.Context, conn mcp.Connection) error {
	req, err := mcp.DecodeMessage(InitializeRequest(1))
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
	if resp, ok := reply.(*mcp.JSONRPCResponse); !ok || resp.Error != nil {
		return fmt.Errorf("%w: initialize answered with %T %+v", ErrMismatch, reply, reply)
	}
	note, err := mcp.DecodeMessage(InitializedNotification())
	if err != nil {
		return err
	}
	return conn.Write(ctx, note)
}

func (o *oursServer) Handler(era Era) (http.Handler, error) {
	// The fan-out benchmarks hold up to 10,000 sessions or listen streams:
	// the limits are raised above that; they cost nothing until reached.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return o.s },
		&mcp.StreamableHTTPOptions{MaxSessions: 20000, MaxListenStreams: 20000})
	o.mu.Lock()
	o.handlers = append(o.handlers, h)
	o.mu.Unlock()
	return h, nil
}

func (o *oursServer) Close() error {
	var errs []error
	o.mu.Lock()
	for _, h := range o.handlers {
		errs = append(errs, h.Close())
	}
	o.handlers = nil
	o.mu.Unlock()
	for ss := range o.s.Sessions() {
		errs = append(errs, ss.Close())
	}
	return errors.Join(errs...)
}

type oursSession struct {
	cs *mcp.ClientSession
	ss *mcp.ServerSession
}

func (s *oursSession) Echo(ctx context.Context, text string) error {
	res, err := s.cs.CallTool(ctx, EchoTool, map[string]any{"text": text}, nil)
	if err != nil {
		return err
	}
	texts := make([]string, 0, 1)
	for _, c := range res.Content {
		if c.Type == mcp.ContentTypeText {
			texts = append(texts, c.Text)
		}
	}
	return checkEcho(texts, res.IsError, text)
}

func (s *oursSession) ProtocolVersion() string { return s.cs.ProtocolVersion() }

func (s *oursSession) Close() error {
	err := s.cs.Close()
	if s.ss != nil {
		err = errors.Join(err, s.ss.Close())
	}
	return err
}
