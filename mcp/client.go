package mcp

import (
	"context"
	"iter"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ClientOptions configure a Client. A nil *ClientOptions means defaults.
type ClientOptions struct {
	// Title, Description and WebsiteURL complete the client's
	// Implementation (2025-06-18 and later), as ServerOptions' do the
	// server's. The client sends its Implementation as clientInfo: in
	// initialize, and in the _meta of every 2026-07-28 request.
	Title       string
	Description string
	WebsiteURL  string
	// Icons for the client (2025-11-25 and later).
	Icons []Icon
	// ProtocolVersion pins the protocol version. Empty means: probe with
	// server/discover at LatestVersion and fall back to the initialize
	// handshake if the server does not answer it (spec:
	// basic/versioning).
	ProtocolVersion string
	// ProbeTimeout bounds the server/discover probe; a server silent that
	// long is taken as one without server/discover (default 3s).
	ProbeTimeout time.Duration
	// Capabilities, if set, are the base of what the client declares; the
	// client adds what its handlers imply.
	Capabilities *ClientCapabilities
	// KeepAlive, if positive, pings the server at this interval and closes
	// the session when a ping fails.
	KeepAlive time.Duration
	// MaxInFlight bounds the server-to-client requests handled at once.
	MaxInFlight int

	// CreateMessageHandler, if set, serves sampling requests; setting it
	// declares the sampling capability (with tool use: SamplingTools).
	//
	// Deprecated: protocol 2026-07-28 deprecates sampling (SEP-2577). It still
	// works with clients of every protocol version; new servers should call
	// their model provider's API directly.
	CreateMessageHandler func(context.Context, *ClientSession, *CreateMessageParams) (*CreateMessageResult, error)
	// SamplingTools declares that CreateMessageHandler supports tools and
	// toolChoice (2025-11-25 and later).
	SamplingTools bool
	// ElicitationHandler, if set, serves elicitation requests in form and
	// URL mode; setting it declares the elicitation capability.
	ElicitationHandler func(context.Context, *ClientSession, *ElicitParams) (*ElicitResult, error)
	// MaxInputRounds bounds how many input-required rounds (2026-07-28)
	// one call may take before it fails (default 8).
	MaxInputRounds int

	// Notification handlers. Each runs on the goroutine that reads the
	// connection, in order, and must not block.
	ToolListChangedHandler      func(context.Context, *ClientSession, *ToolListChangedParams)
	PromptListChangedHandler    func(context.Context, *ClientSession, *PromptListChangedParams)
	ResourceListChangedHandler  func(context.Context, *ClientSession, *ResourceListChangedParams)
	ResourceUpdatedHandler      func(context.Context, *ClientSession, *ResourceUpdatedParams)
	LoggingMessageHandler       func(context.Context, *ClientSession, *LoggingMessageParams)
	ProgressNotificationHandler func(context.Context, *ClientSession, *ProgressNotificationParams)
	ElicitationCompleteHandler  func(context.Context, *ClientSession, *ElicitationCompleteParams)
	// SubscriptionsAcknowledgedHandler receives the filter a server agreed
	// to honour on a Listen stream (2026-07-28).
	SubscriptionsAcknowledgedHandler func(context.Context, *ClientSession, *SubscriptionsAcknowledgedParams)

	// Logger receives what the client cannot return to a caller: recovered
	// panics, failed writes. Nil means slog.Default().
	Logger *slog.Logger
	// DisablePanicRecovery lets a panic in a handler or middleware crash the
	// program. By default the client recovers it, answers the server's
	// request with an internal error, logs the stack to Logger and keeps
	// the session.
	DisablePanicRecovery bool
}

// A Client is an MCP client: its identity, capabilities and handlers, used
// by any number of sessions, each connected to one server.
type Client struct {
	impl Implementation
	opts ClientOptions

	caps atomic.Pointer[ClientCapabilities] // what the client declares now; each value read-only
	meta atomic.Pointer[encodedMeta]        // the _meta of modern requests, encoded once

	mu        sync.Mutex
	roots     []*Root
	sessions  []*ClientSession
	receiving middlewareChain[ClientSession] // around clientMethodHandler
	sending   middlewareChain[ClientSession] // around sendBase
	observers []func(*ClientSession) func(error)

	methods    addedMethods[ClientSession] // beyond the protocol's (method.go)
	extensions extensionSet                // turned on with AddExtension (extension.go)
}

// NewClient returns a client that identifies itself with name and version.
func NewClient(name, version string, opts *ClientOptions) *Client {
	c := &Client{impl: Implementation{Name: name, Version: version}}
	if opts != nil {
		c.opts = *opts
		c.impl.Title = opts.Title
		c.impl.Description = opts.Description
		c.impl.WebsiteURL = opts.WebsiteURL
		c.impl.Icons = opts.Icons
	}
	if c.opts.ProbeTimeout <= 0 {
		c.opts.ProbeTimeout = 3 * time.Second
	}
	c.receiving.handler = clientMethodHandler
	c.caps.Store(c.capabilities())
	return c
}

// AddMiddleware wraps the handler of the requests and
// notifications the client receives from servers (in 2026-07-28, the input
// requests of input-required results too): AddMiddleware(m1, m2)
// runs m1, then m2, then the handler.
func (c *Client) AddMiddleware(middleware ...Middleware[ClientSession]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.receiving.add(clientMethodHandler, middleware)
}

// AddSendingMiddleware wraps every request and notification the client
// sends (one call per request on the wire: a 2026-07-28 call answered
// with input-required results passes once per round). The middleware sees
// the typed params before they are encoded, so it may set their _meta,
// and the decoded result or error after.
func (c *Client) AddSendingMiddleware(middleware ...Middleware[ClientSession]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sending.add(sendBase[ClientSession], middleware)
}

// methodHandler returns the handler of received messages, middleware
// included.
func (c *Client) methodHandler() MethodHandler[ClientSession] {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.receiving.handler
}

// sendingHandler returns the handler of sent messages, or nil when there
// is no sending middleware.
func (c *Client) sendingHandler() MethodHandler[ClientSession] {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sending.handler
}

// Sessions iterates over the sessions connected now.
func (c *Client) Sessions() iter.Seq[*ClientSession] {
	c.mu.Lock()
	sessions := slices.Clone(c.sessions)
	c.mu.Unlock()
	return slices.Values(sessions)
}

// logger returns the logger of what the client cannot return.
func (c *Client) logger() *slog.Logger {
	if c.opts.Logger != nil {
		return c.opts.Logger
	}
	return slog.Default()
}

// removeSession forgets a session that ended and tells the session
// observers. It may be called more than once.
func (c *Client) removeSession(cs *ClientSession) {
	c.mu.Lock()
	c.sessions = slices.DeleteFunc(c.sessions, func(x *ClientSession) bool { return x == cs })
	c.mu.Unlock()
	cs.sessionEnded()
}

// capabilities returns what the client declares.
func (c *Client) capabilities() *ClientCapabilities {
	caps := &ClientCapabilities{}
	if c.opts.Capabilities != nil {
		*caps = *c.opts.Capabilities
	}
	caps.Extensions = c.extensions.merge(caps.Extensions) // extension.go
	if caps.Roots == nil && len(c.roots) > 0 {
		caps.Roots = &RootsCapability{ListChanged: true}
	}
	if c.opts.CreateMessageHandler != nil && caps.Sampling == nil {
		caps.Sampling = &SamplingCapability{}
		if c.opts.SamplingTools {
			caps.Sampling.Tools = &SamplingToolsCapability{}
		}
	}
	if c.opts.ElicitationHandler != nil && caps.Elicitation == nil {
		caps.Elicitation = &ElicitationCapability{Form: &FormElicitationCapability{}, URL: &URLElicitationCapability{}}
	}
	return caps
}

// wantsServerMessages reports whether the client expects messages a legacy
// server sends unrelated to any request: it has a handler for list
// changes, resource updates, log messages, sampling or elicitation, or
// roots the server may ask for.
func (c *Client) wantsServerMessages() bool {
	o := &c.opts
	if o.ToolListChangedHandler != nil || o.PromptListChangedHandler != nil ||
		o.ResourceListChangedHandler != nil || o.ResourceUpdatedHandler != nil ||
		o.LoggingMessageHandler != nil || o.CreateMessageHandler != nil ||
		o.ElicitationHandler != nil || o.ElicitationCompleteHandler != nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.roots) > 0
}

// encodedMeta returns the encoding of the per-request _meta its sessions
// send at version with capabilities caps, made once and shared by every
// session.
func (c *Client) encodedMeta(version string, caps *ClientCapabilities) *encodedMeta {
	if e := c.meta.Load(); e != nil && e.version == version && e.caps == caps {
		return e
	}
	e := &encodedMeta{version: version, caps: caps, info: &c.impl}
	b, err := strictjson.Marshal(&Meta{ProtocolVersion: version, ClientCapabilities: caps, ClientInfo: &c.impl})
	if err != nil {
		return nil
	}
	e.json = b
	c.meta.Store(e)
	return e
}
