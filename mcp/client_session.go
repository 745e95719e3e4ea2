package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/jsonschema"
)

// A ClientSession is the client's side of a connection to one server.
type ClientSession struct {
	client *Client
	conn   *jsonrpc2.Conn
	opener serverStreamOpener  // the connection's, if it has one
	caps   *ClientCapabilities // the client's, shared by its sessions

	// Set by Connect, read-only afterwards.
	modern       bool
	retried      bool // the probe was retried after -32022
	version      string
	serverInfo   *Implementation
	serverCaps   *ServerCapabilities
	instructions string

	mu            sync.Mutex
	outputSchemas map[string]*jsonschema.Resolved // by tool name, from tools/list
	toolTasks     map[string]string               // task support by tool name, from tools/list (task_legacy_client.go)
	logLevel      LoggingLevel
	progress      map[string]func(context.Context, *ProgressNotificationParams)
	nextToken     atomic.Int64

	keepAliveStop chan struct{}
	stopOnce      sync.Once

	raw       Connection    // the transport's connection
	transport TransportInfo // of the connection
	ended     []func(error) // session observers' end functions (session_observer.go)
}

// Connect connects the client to a server over t and settles the protocol:
// with no pinned version it probes with server/discover and, if the server
// is legacy, falls back to the initialize handshake. A server that hangs up
// on the probe is started again over a CommandTransport, and connected to
// with initialize; the transport remembers it is legacy, so later
// connections over it skip the probe.
func (c *Client) Connect(ctx context.Context, t Transport) (*ClientSession, error) {
	mem := legacyMemoryOf(t) // client_hangup.go
	cs, err := c.newSession(ctx, t)
	if err != nil {
		return nil, err
	}
	err = cs.start(ctx, mem.isLegacy())
	if errors.Is(err, errProbeHangUp) && mem != nil {
		cs, err = c.reconnectLegacy(ctx, t, cs, mem)
		if cs == nil {
			return nil, err
		}
	}
	if err != nil {
		cs.conn.Close()
		if errors.Is(err, ErrConnectionClosed) && !errors.Is(err, errProbeHangUp) {
			err = fmt.Errorf("mcp: the server closed the connection before the protocol was settled (did it start? see its stderr): %w", err)
		}
		return nil, err
	}
	c.mu.Lock()
	c.sessions = append(c.sessions, cs)
	c.mu.Unlock()
	c.sessionStarted(cs)
	if cs.conn.IsDone() {
		c.removeSession(cs) // ended before it was listed
	}
	if c.opts.KeepAlive > 0 {
		cs.keepAliveStop = make(chan struct{})
		go keepAlive(cs.keepAliveStop, cs.conn.Done(), c.opts.KeepAlive, cs.Ping, cs.conn.Close)
	}
	return cs, nil
}

// newSession connects t and returns a session over the connection, its
// protocol not settled yet.
func (c *Client) newSession(ctx context.Context, t Transport) (*ClientSession, error) {
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcp: connecting client: %w", err)
	}
	cs := &ClientSession{client: c, caps: c.caps.Load(), raw: conn, transport: transportInfoOf(t)}
	cs.opener, _ = conn.(serverStreamOpener)
	cs.conn = jsonrpc2.NewConn(conn, &jsonrpc2.ConnOptions{
		Handler:     jsonrpc2.HandlerFunc(cs.handle),
		MaxInFlight: c.opts.MaxInFlight,
		OnCancel:    cs.sendCancelled,
		OnDone:      func() { c.removeSession(cs) },
		BaseContext: ctx,
		OnWriteError: func(err error) {
			c.logger().Debug("mcp: writing a response failed", "error", err)
		},
	})
	return cs, nil
}

// start settles the era and the protocol version. legacy means the
// transport's server is known to hang up on server/discover: with no
// pinned version, it goes straight to initialize.
func (cs *ClientSession) start(ctx context.Context, legacy bool) error {
	pinned := cs.client.opts.ProtocolVersion
	switch {
	case pinned == "" && legacy:
		return cs.initialize(ctx, legacyLatest)
	case pinned == "":
		modern, err := cs.probe(ctx, LatestVersion)
		if errors.Is(err, ErrConnectionClosed) && ctx.Err() == nil {
			return fmt.Errorf("%w: %w", errProbeHangUp, err)
		}
		if err != nil || modern {
			return err
		}
		return cs.initialize(ctx, legacyLatest)
	case isModernVersion(pinned):
		if !slices.Contains(supportedVersions, pinned) {
			return fmt.Errorf("%w: %s is not supported by this SDK", ErrUnsupportedVersion, pinned)
		}
		modern, err := cs.probe(ctx, pinned)
		if err == nil && !modern {
			err = fmt.Errorf("%w: the server does not speak %s (it did not answer server/discover)", ErrUnsupportedVersion, pinned)
		}
		return err
	default:
		return cs.initialize(ctx, pinned)
	}
}

// legacyLatest is the newest protocol version with the initialize handshake.
const legacyLatest = Version20251125

// probe sends server/discover at version. It reports whether the server is
// modern; a legacy server (any error that is not a modern one, or silence
// until ProbeTimeout) gives false and no error.
func (cs *ClientSession) probe(ctx context.Context, version string) (bool, error) {
	pctx, cancel := context.WithTimeout(ctx, cs.client.opts.ProbeTimeout)
	defer cancel()
	cs.version = version
	cs.modern = true
	res, err := clientCall[DiscoverParams, DiscoverResult](pctx, cs, MethodDiscover, nil)
	if err == nil {
		if !slices.ContainsFunc(res.SupportedVersions, func(v string) bool {
			return isModernVersion(v) && slices.Contains(supportedVersions, v)
		}) {
			// Not a DiscoverResult (no versions), or a server that lists
			// only handshake versions: use it through initialize.
			cs.modern = false
			return false, nil
		}
		return true, cs.adoptDiscover(res)
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var werr *JSONRPCError
	if errors.As(err, &werr) && werr.Code == CodeUnsupportedProtocolVersion {
		var data UnsupportedProtocolVersionData
		if decodeResult(werr.Data, &data) == nil {
			for _, v := range data.Supported {
				if isModernVersion(v) && slices.Contains(supportedVersions, v) && (v != version || !cs.retried) {
					cs.retried = true
					return cs.probe(ctx, v)
				}
			}
			// A server that lists only handshake versions is used
			// through initialize.
			if !slices.ContainsFunc(data.Supported, isModernVersion) && slices.Contains(data.Supported, legacyLatest) {
				cs.modern = false
				return false, nil
			}
		}
		return false, fmt.Errorf("%w: server supports %s", ErrUnsupportedVersion, werr.Data)
	}
	if errors.Is(err, ErrConnectionClosed) {
		return false, err
	}
	if herr := (*HTTPStatusError)(nil); errors.As(err, &herr) && refusesCredentials(herr.StatusCode) {
		// Refused credentials: initialize would be refused the same way.
		return false, err
	}
	cs.modern = false
	return false, nil
}

func (cs *ClientSession) adoptDiscover(res *DiscoverResult) error {
	if !slices.Contains(res.SupportedVersions, cs.version) {
		for _, v := range res.SupportedVersions {
			if isModernVersion(v) && slices.Contains(supportedVersions, v) {
				cs.version = v
				break
			}
		}
	}
	cs.serverInfo = res.Meta.ServerInfo
	cs.serverCaps = res.Capabilities
	cs.instructions = res.Instructions
	if cs.serverCaps == nil {
		cs.serverCaps = &ServerCapabilities{}
	}
	return nil
}

// initialize runs the legacy handshake.
func (cs *ClientSession) initialize(ctx context.Context, version string) error {
	cs.modern = false
	impl := cs.client.impl
	res, err := clientCall[InitializeParams, InitializeResult](ctx, cs, MethodInitialize, &InitializeParams{
		ProtocolVersion: version,
		Capabilities:    cs.caps,
		ClientInfo:      &impl,
	})
	if err != nil {
		return fmt.Errorf("mcp: initialize: %w", err)
	}
	if isModernVersion(res.ProtocolVersion) || !slices.Contains(supportedVersions, res.ProtocolVersion) {
		return fmt.Errorf("%w: server answered initialize with protocol %q", ErrUnsupportedVersion, res.ProtocolVersion)
	}
	if pinned := cs.client.opts.ProtocolVersion; pinned != "" && res.ProtocolVersion != pinned {
		return fmt.Errorf("%w: asked for %s, server offered %s", ErrUnsupportedVersion, pinned, res.ProtocolVersion)
	}
	cs.version = res.ProtocolVersion
	cs.serverInfo = res.ServerInfo
	cs.serverCaps = res.Capabilities
	if cs.serverCaps == nil {
		cs.serverCaps = &ServerCapabilities{}
	}
	cs.instructions = res.Instructions
	// Open the channel for the server's own messages before telling the
	// server the session is ready: servers send list changes as soon as
	// they handle notifications/initialized, and drop them while the
	// client has no stream open.
	if cs.client.wantsServerMessages() {
		if err := cs.awaitServerStream(ctx, cs.openServerStream()); err != nil {
			return err
		}
	}
	return cs.notify(ctx, NotificationInitialized, &InitializedParams{})
}

// A serverStreamOpener is a connection on which the server can send
// messages unrelated to any request only once the client opens a channel
// for them: the legacy streamable HTTP GET stream. openStandalone returns a
// channel closed once that channel is ready (or could not be opened).
type serverStreamOpener interface {
	openStandalone() <-chan struct{}
}

// openServerStream opens the legacy session's channel for the server's own
// messages, if its connection has one to open and it is not open yet, and
// returns a channel closed once it is ready (nil if there is none).
//
// An idle session costs a goroutine and an HTTP connection while that
// stream is open, so a session opens it only once something needs it: at
// connect when the client has handlers for such messages or roots to list
// (Client.wantsServerMessages), otherwise when the user subscribes to a
// resource or changes the roots.
func (cs *ClientSession) openServerStream() <-chan struct{} {
	if cs.opener == nil || cs.modern {
		return nil
	}
	return cs.opener.openStandalone()
}

// ensureServerStream opens the legacy session's channel for the server's
// own messages, if it has one, and waits until it is ready.
func (cs *ClientSession) ensureServerStream(ctx context.Context) error {
	return cs.awaitServerStream(ctx, cs.openServerStream())
}

// awaitServerStream waits until ready is closed: the server can then reach
// the client. It gives up quietly after the client's ProbeTimeout (the
// stream keeps trying in the background) and with an error when ctx ends.
func (cs *ClientSession) awaitServerStream(ctx context.Context, ready <-chan struct{}) error {
	if ready == nil {
		return nil
	}
	t := time.NewTimer(cs.client.opts.ProbeTimeout)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// Client returns the client the session belongs to.
func (cs *ClientSession) Client() *Client { return cs.client }

// ProtocolVersion returns the protocol version in use.
func (cs *ClientSession) ProtocolVersion() string { return cs.version }

// ServerInfo returns the server's self-reported identity.
func (cs *ClientSession) ServerInfo() *Implementation { return cs.serverInfo }

// ServerCapabilities returns what the server declared. It is never nil.
func (cs *ClientSession) ServerCapabilities() *ServerCapabilities { return cs.serverCaps }

// Instructions returns the server's instructions, if any.
func (cs *ClientSession) Instructions() string { return cs.instructions }

// Close ends the session and its connection.
func (cs *ClientSession) Close() error {
	cs.stopKeepAlive()
	return cs.conn.Close()
}

// Wait blocks until the connection ends and returns why (nil when it was
// closed normally).
func (cs *ClientSession) Wait() error {
	err := cs.conn.Wait()
	cs.stopKeepAlive()
	return err
}

func (cs *ClientSession) stopKeepAlive() {
	cs.stopOnce.Do(func() {
		if cs.keepAliveStop != nil {
			close(cs.keepAliveStop)
		}
	})
}

func (cs *ClientSession) sendCancelled(id jsonrpc2.ID) {
	p := &CancelledParams{RequestID: id.Raw(), Reason: "request cancelled"}
	if cs.modern {
		cs.fillMeta(&p.Meta)
	}
	sendCancelledNotification(cs.client.logger(), cs.notify, p) // session_call.go
}

// fillMeta adds the per-request metadata of 2026-07-28 to meta.
func (cs *ClientSession) fillMeta(meta *Meta) {
	c := cs.client
	meta.ProtocolVersion = cs.version
	caps := c.caps.Load()
	meta.ClientCapabilities = caps
	meta.ClientInfo = &c.impl
	if meta.LogLevel == "" {
		cs.mu.Lock()
		meta.LogLevel = cs.logLevel
		cs.mu.Unlock()
	}
	meta.encoded = c.encodedMeta(cs.version, caps)
}

// clientCall sends a request and decodes its result. In the modern era it
// adds the per-request metadata, on a copy of the caller's params.
func clientCall[P, R any](ctx context.Context, cs *ClientSession, method string, p *P) (*R, error) {
	return clientCallOwned[P, R](ctx, cs, method, cloneParams(p))
}

// clientCallOwned is clientCall for params the SDK made itself, which it
// may change without copying.
func clientCallOwned[P, R any](ctx context.Context, cs *ClientSession, method string, p *P) (*R, error) {
	out, err := cs.roundTrips(ctx, method, p, resultOf[R]{})
	if err != nil {
		return nil, err
	}
	res, ok := out.(*R)
	if !ok || res == nil {
		return nil, fmt.Errorf("%s: sending middleware returned %T, not %T", method, out, res)
	}
	return res, nil
}

// A resultMaker makes the value a result decodes into.
type resultMaker interface{ newResult() any }

// resultOf makes *R results. Being empty, it converts to a resultMaker
// without allocating.
type resultOf[R any] struct{}

func (resultOf[R]) newResult() any { return new(R) }

// roundTrips sends a request and decodes its result, a value results
// makes. In the modern era it adds the per-request metadata to p and
// serves input-required results and tasks until the result is complete.
func (cs *ClientSession) roundTrips(ctx context.Context, method string, p any, results resultMaker) (any, error) {
	if cs.modern {
		if m := metaOf(p); m != nil {
			cs.fillMeta(m)
		}
	}
	maxRounds := cs.client.opts.MaxInputRounds
	if maxRounds <= 0 {
		maxRounds = 8
	}
	sending := cs.client.sendingHandler()
	for round := 0; ; round++ {
		raw, res, err := cs.sendRequest(ctx, sending, method, p, results)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		if !cs.modern {
			// A CreateTaskResult (2025-11-25) is followed to the task's
			// result (task_legacy_client.go).
			if err := cs.legacyTaskAnswer(ctx, method, raw, res); err != nil {
				return nil, err
			}
			return res, nil
		}
		switch rt := resultTypeOf(res); rt {
		case "", "complete":
			return res, nil
		case "input_required":
			if round+1 >= maxRounds {
				return nil, fmt.Errorf("%s: the server still needs input after %d rounds", method, maxRounds)
			}
			if err := cs.fulfil(ctx, method, raw, p); err != nil {
				return nil, err
			}
		case "task": // tasks extension: wait for the task's result (task_client.go)
			if err := cs.awaitTask(ctx, method, raw, res); err != nil {
				return nil, err
			}
			return res, nil
		default:
			return nil, fmt.Errorf("%s: unsupported resultType %q", method, rt)
		}
	}
}

// sendRequest sends one request through the sending middleware (none
// when sending is nil) and decodes its result. raw is the result as
// received.
func (cs *ClientSession) sendRequest(ctx context.Context, sending MethodHandler[ClientSession], method string, p any, results resultMaker) (raw []byte, res any, err error) {
	if sending == nil {
		if raw, err = cs.conn.Call(ctx, method, p); err != nil {
			return nil, nil, err
		}
		res = results.newResult()
		if err := decodeResult(raw, res); err != nil {
			return nil, nil, err
		}
		return raw, res, nil
	}
	// The id is reserved before the middleware runs, so that it can tell
	// it (telemetry records it when the request's span starts).
	rc := &requestContext{method: method, id: cs.conn.NewCallID(), hasID: true, client: cs, send: sendClientRequest, results: results}
	out, err := sendVia(ctx, sending, rc, cs, p)
	if err != nil {
		return nil, nil, err
	}
	return rc.raw, out, nil
}

// sendClientRequest is the send function of a client request: it calls
// the server and decodes the result.
func sendClientRequest(rc *requestContext, ctx context.Context, params any) (any, error) {
	id := rc.id
	if rc.idUsed { // middleware sends the request again: with an id of its own
		id = rc.client.conn.NewCallID()
	}
	rc.idUsed = true
	raw, err := rc.client.conn.CallWithID(ctx, id, rc.method, params)
	if err != nil {
		return nil, err
	}
	res := rc.results.newResult()
	if err := decodeResult(raw, res); err != nil {
		return nil, err
	}
	rc.raw = raw
	return res, nil
}

// fulfil answers the input requests of an input-required result with the
// client's handlers and puts the answers and the request state into p for
// the retry.
func (cs *ClientSession) fulfil(ctx context.Context, method string, raw []byte, p any) error {
	var ir InputRequiredResult
	if err := decodeResult(raw, &ir); err != nil {
		return err
	}
	responses := make(map[string]json.RawMessage, len(ir.InputRequests))
	for key, req := range ir.InputRequests {
		res, err := cs.answerInput(ctx, req.Method, req.Params)
		if err != nil {
			return fmt.Errorf("%s: answering %s: %w", method, req.Method, err)
		}
		b, err := strictjson.Marshal(res)
		if err != nil {
			return err
		}
		responses[key] = b
	}
	f := structField(p, "InputResponses", inputResponsesType)
	if !f.IsValid() {
		return fmt.Errorf("%s: the server asked for input, but this request cannot carry answers", method)
	}
	f.Set(reflect.ValueOf(responses))
	if f := structField(p, "RequestState", stringType); f.IsValid() {
		f.SetString(ir.RequestState)
	}
	return nil
}

// requireServer returns ErrNotSupported unless the server declared the
// capability.
func requireServer(declared bool, what string) error {
	if !declared {
		return fmt.Errorf("%w: the server did not declare the %s capability", ErrNotSupported, what)
	}
	return nil
}

// Ping checks that the server is alive. Protocol 2026-07-28 has no ping:
// there a server/discover request serves as the check.
func (cs *ClientSession) Ping(ctx context.Context, params *PingParams) error {
	if cs.modern {
		_, err := cs.Discover(ctx, nil)
		return err
	}
	_, err := clientCall[PingParams, EmptyResult](ctx, cs, MethodPing, params)
	return err
}

// Discover asks the server for its versions, capabilities and identity
// (2026-07-28).
func (cs *ClientSession) Discover(ctx context.Context, params *DiscoverParams) (*DiscoverResult, error) {
	return clientCall[DiscoverParams, DiscoverResult](ctx, cs, MethodDiscover, params)
}

// NotifyProgress reports progress on a request the server sent this
// client, identified by params.ProgressToken.
func (cs *ClientSession) NotifyProgress(ctx context.Context, params *ProgressNotificationParams) error {
	if params == nil || params.ProgressToken == nil {
		return nil
	}
	return cs.notify(ctx, NotificationProgress, params)
}

// notify sends a notification to the server through the sending
// middleware.
func (cs *ClientSession) notify(ctx context.Context, method string, params any) error {
	h := cs.client.sendingHandler()
	if h == nil {
		return cs.conn.Notify(ctx, method, params)
	}
	_, err := sendVia(ctx, h, &requestContext{method: method, client: cs, send: sendClientNotification}, cs, params)
	return err
}

// sendClientNotification is the send function of a client notification.
func sendClientNotification(rc *requestContext, ctx context.Context, params any) (any, error) {
	return nil, rc.client.conn.Notify(ctx, rc.method, params)
}

// ID returns the session's id on a streamable HTTP connection made by
// initialize (the Mcp-Session-Id header), or "" when it has none.
func (cs *ClientSession) ID() string {
	if c, ok := cs.raw.(*streamableClientConn); ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.sessionID
	}
	return ""
}

func (cs *ClientSession) registerProgress(h func(context.Context, *ProgressNotificationParams)) string {
	token := "p" + strconv.FormatInt(cs.nextToken.Add(1), 10)
	cs.mu.Lock()
	if cs.progress == nil {
		cs.progress = make(map[string]func(context.Context, *ProgressNotificationParams))
	}
	cs.progress[token] = h
	cs.mu.Unlock()
	return token
}

func (cs *ClientSession) unregisterProgress(token string) {
	cs.mu.Lock()
	delete(cs.progress, token)
	cs.mu.Unlock()
}

// paginate walks a paginated list method. setCursor is done on a copy of
// the caller's params.
func paginate[P any, R any, T any](ctx context.Context, params *P, list func(context.Context, *P) (*R, error), items func(*R) ([]T, string)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		p := cloneParams(params)
		for {
			res, err := list(ctx, p)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			page, next := items(res)
			for _, item := range page {
				if !yield(item, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			setCursor(p, next)
		}
	}
}
