package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// ErrSessionExpired reports that the server no longer knows the client's
// legacy session (HTTP 404): it expired, was deleted, or the server
// restarted. The session is over; connect again to start a new one.
var ErrSessionExpired = errors.New("mcp: session expired or unknown to the server")

// Defaults of StreamableClientTransportOptions.
const (
	// DefaultMaxRetries is how many times in a row a broken SSE stream is
	// reconnected before the client gives up on it.
	DefaultMaxRetries = 5
	// reconnectBase is the first delay before reconnecting a stream when
	// the server did not send a retry field; it doubles up to reconnectMax.
	reconnectBase = time.Second
	reconnectMax  = 16 * time.Second
	// maxErrorBody bounds the error body of an HTTP response read for its
	// JSON-RPC error.
	maxErrorBody = 64 << 10
)

// StreamableClientTransportOptions configure a StreamableClientTransport.
// A nil *StreamableClientTransportOptions means defaults.
type StreamableClientTransportOptions struct {
	// HTTPClient sends the requests (default DefaultHTTPClient(), which
	// closes idle connections before common servers do). Its Timeout, if
	// any, also bounds streams: prefer none.
	HTTPClient *http.Client
	// Header is added to every request, for example Authorization.
	Header http.Header
	// MaxRetries is how many times in a row a broken SSE stream is
	// reconnected before giving up (default DefaultMaxRetries; negative
	// never reconnects).
	MaxRetries int
	// MaxEventSize bounds one SSE event or JSON response read (default
	// DefaultMaxSSEEventSize).
	MaxEventSize int
	// DisableStandaloneSSE keeps a legacy session from ever opening the
	// GET stream on which servers send messages unrelated to any request
	// (list changes, resource updates, requests for roots). Without it, a
	// session opens that stream only when something needs it: at connect
	// if the client has handlers for such messages or roots, otherwise on
	// its first Subscribe or roots change. Until then an idle session
	// runs no goroutine and holds no HTTP connection.
	DisableStandaloneSSE bool
}

// A StreamableClientTransport is the client side of the streamable HTTP
// transport. The connection it makes speaks both eras: requests carrying
// the 2026-07-28 per-request _meta are sent with the MCP-Protocol-Version,
// Mcp-Method, Mcp-Name and Mcp-Param-* headers and no session; once the
// client falls back to initialize, requests carry the session ID and the
// negotiated version, and a GET stream, opened once the client needs it,
// receives the server's own messages.
// Broken streams are resumed with Last-Event-ID, honouring the server's
// retry field, with exponential backoff otherwise.
type StreamableClientTransport struct {
	url  string
	opts StreamableClientTransportOptions
}

// NewStreamableClientTransport returns a transport to the MCP endpoint at
// url. Connect makes no request: the first one is the client's own.
func NewStreamableClientTransport(url string, opts *StreamableClientTransportOptions) *StreamableClientTransport {
	t := &StreamableClientTransport{url: url}
	if opts != nil {
		t.opts = *opts
	}
	if t.opts.HTTPClient == nil {
		t.opts.HTTPClient = DefaultHTTPClient()
	}
	if t.opts.MaxRetries == 0 {
		t.opts.MaxRetries = DefaultMaxRetries
	}
	if t.opts.MaxEventSize <= 0 {
		t.opts.MaxEventSize = DefaultMaxSSEEventSize
	}
	return t
}

// Connect returns a new connection to the endpoint. It sends nothing.
func (t *StreamableClientTransport) Connect(ctx context.Context) (Connection, error) {
	return &streamableClientConn{t: t}, nil
}

// streamableClientConn is one client connection over streamable HTTP.
//
// An idle connection is this struct and nothing else: no goroutine, no
// channel, no context. Requests in progress and the legacy GET stream are
// registered in calls, so that the connection's end cancels them.
type streamableClientConn struct {
	t       *StreamableClientTransport
	active  atomic.Int64   // unix nanoseconds of the last request sent
	wg      sync.WaitGroup // background stream readers
	closed  sync.Once
	endOnce sync.Once // the receiver was told the connection ended

	mu         sync.Mutex
	receiver   func(jsonrpc2.Message, error) // set by Receive
	queue      chan received                 // for Read, made by its first call
	done       chan struct{}                 // made on demand, closed when the connection ends
	isEnded    bool                          // Close was called or the connection failed
	failure    error
	calls      []linkedCall // requests and streams in progress
	nextCall   uint64
	standalone chan struct{} // the legacy GET stream's, once started: closed when it is ready
	sessionID  string
	version    string                     // legacy version negotiated by initialize
	tools      map[string][]headerBinding // 2026-07-28 x-mcp-header bindings
}

// A linkedCall is a request or stream in progress, cancelled when the
// connection ends.
type linkedCall struct {
	id     uint64
	cancel context.CancelFunc
}

// A received is what Read returns next: a message, or a *DecodeError for
// one that could not be read.
type received struct {
	msg jsonrpc2.Message
	err error
}

// Read returns the next message from the server. It is used only when the
// connection is not a push stream (Receive was not called).
func (c *streamableClientConn) Read(ctx context.Context) (jsonrpc2.Message, error) {
	queue, done := c.readChans()
	select {
	case m := <-queue:
		return m.msg, m.err
	case <-done:
		select {
		case m := <-queue:
			return m.msg, m.err
		default:
		}
		return nil, c.err()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readChans returns the queue of messages for Read and the channel closed
// when the connection ends, making them on first use.
func (c *streamableClientConn) readChans() (chan received, chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queue == nil {
		c.queue = make(chan received, 1)
	}
	if c.done == nil {
		c.done = make(chan struct{})
		if c.isEnded {
			close(c.done)
		}
	}
	return c.queue, c.done
}

// ended reports whether the connection has ended.
func (c *streamableClientConn) ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.isEnded
}

// err returns why the connection ended.
func (c *streamableClientConn) err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failure != nil {
		return c.failure
	}
	return jsonrpc2.ErrClosed
}

// end ends the connection, with err as the reason if it is the first,
// and cancels what is in progress.
func (c *streamableClientConn) end(err error) {
	c.mu.Lock()
	if err != nil && c.failure == nil {
		c.failure = err
	}
	if c.isEnded {
		c.mu.Unlock()
		return
	}
	c.isEnded = true
	calls := c.calls
	c.calls = nil
	if c.done != nil {
		close(c.done)
	}
	c.mu.Unlock()
	for _, call := range calls {
		call.cancel()
	}
}

// fail ends the connection with err.
func (c *streamableClientConn) fail(err error) {
	c.end(err)
	c.tellEnded()
}

// Receive makes the connection a jsonrpc2.PushStream: messages go straight
// to deliver from the goroutine that read them (a POST's response, an SSE
// stream), so an idle client session runs no goroutine at all.
func (c *streamableClientConn) Receive(deliver func(jsonrpc2.Message, error)) {
	c.mu.Lock()
	c.receiver = deliver
	c.mu.Unlock()
}

// deliver passes a message on: to the receiver, or queued for Read, unless
// the connection ended.
func (c *streamableClientConn) deliver(msg jsonrpc2.Message) {
	c.pass(received{msg: msg})
}

// deliverUnreadable passes on a response that could not be read, so that
// the connection fails the call it answers (jsonrpc2.ErrUnreadableResponse).
func (c *streamableClientConn) deliverUnreadable(derr *jsonrpc2.DecodeError) {
	c.pass(received{err: derr})
}

// pass hands what was received to the receiver, or queues it for Read,
// unless the connection ended.
func (c *streamableClientConn) pass(m received) {
	c.mu.Lock()
	receiver, ended := c.receiver, c.isEnded
	c.mu.Unlock()
	if receiver != nil {
		if !ended {
			receiver(m.msg, m.err)
		}
		return
	}
	queue, done := c.readChans()
	select {
	case queue <- m:
	case <-done:
	}
}

// tellEnded tells the receiver, once, that the connection is over.
func (c *streamableClientConn) tellEnded() {
	c.endOnce.Do(func() {
		c.mu.Lock()
		receiver := c.receiver
		c.mu.Unlock()
		if receiver != nil {
			receiver(nil, c.err())
		}
	})
}

// Write sends a message to the server, each in its own POST.
func (c *streamableClientConn) Write(ctx context.Context, msg jsonrpc2.Message) error {
	if c.ended() {
		return c.err()
	}
	switch m := msg.(type) {
	case *jsonrpc2.Request:
		if m.IsNotification() {
			return c.postNoReply(ctx, m)
		}
		return c.postRequest(ctx, m)
	case *jsonrpc2.Response:
		return c.postNoReply(ctx, m)
	}
	return fmt.Errorf("mcp: streamable HTTP client cannot send %T", msg)
}

// Close ends the connection: streams stop, and a legacy session is deleted
// on the server.
func (c *streamableClientConn) Close() error {
	c.closed.Do(func() {
		c.end(nil)
		c.mu.Lock()
		sid, version := c.sessionID, c.version
		c.mu.Unlock()
		if sid != "" {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.t.url, nil)
			if err == nil {
				c.setCommonHeaders(req.Header, sid, version)
				// The session ends either way: a server that misses the
				// DELETE expires the session later.
				if resp, err := c.t.opts.HTTPClient.Do(req); err == nil {
					drainClose(resp.Body)
				}
			}
			cancel()
		}
		c.wg.Wait()
		c.tellEnded()
	})
	return nil
}

// background runs f on a goroutine that Close waits for, unless the
// connection has ended; it reports whether f runs.
func (c *streamableClientConn) background(f func()) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.isEnded {
		return false
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
	return true
}

// linked returns a context that ends with ctx or with the connection, and
// the function that releases it.
func (c *streamableClientConn) linked(ctx context.Context) (context.Context, context.CancelFunc) {
	lctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	if c.isEnded {
		c.mu.Unlock()
		cancel()
		return lctx, cancel
	}
	c.nextCall++
	id := c.nextCall
	c.calls = append(c.calls, linkedCall{id, cancel})
	c.mu.Unlock()
	return lctx, func() {
		c.unlink(id)
		cancel()
	}
}

// unlink forgets the linked call id.
func (c *streamableClientConn) unlink(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, call := range c.calls {
		if call.id == id {
			c.calls = append(c.calls[:i], c.calls[i+1:]...)
			break
		}
	}
	if len(c.calls) == 0 {
		c.calls = nil // an idle connection keeps no array
	}
}

// setCommonHeaders adds the user's headers and the legacy session's.
func (c *streamableClientConn) setCommonHeaders(h http.Header, sid, version string) {
	for k, vs := range c.t.opts.Header {
		h[k] = append([]string(nil), vs...)
	}
	if sid != "" {
		h[headerSessionID] = []string{sid}
	}
	if version != "" {
		h[headerProtocolVersion] = []string{version}
	}
}

// newPOST builds the POST of msg. It reports whether msg is a 2026-07-28
// request (per-request _meta), whose headers mirror its body.
func (c *streamableClientConn) newPOST(ctx context.Context, msg jsonrpc2.Message) (*http.Request, bool, error) {
	body, err := jsonrpc2.Encode(msg)
	if err != nil {
		return nil, false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.t.url, bytes.NewReader(body))
	if err != nil {
		return nil, false, err
	}
	h := req.Header
	var p modernProbe
	if r, ok := msg.(*jsonrpc2.Request); ok && decodeProbe(r.Params, &p) == nil && p.version != "" {
		c.setCommonHeaders(h, "", p.version)
		c.setModernHeaders(h, r, &p)
	} else {
		c.mu.Lock()
		sid, version := c.sessionID, c.version
		c.mu.Unlock()
		c.setCommonHeaders(h, sid, version)
	}
	h["Content-Type"] = hdrJSON
	h["Accept"] = []string{"application/json, text/event-stream"}
	return req, p.version != "", nil
}

// setModernHeaders mirrors the method, name and x-mcp-header arguments of
// a 2026-07-28 request.
func (c *streamableClientConn) setModernHeaders(h http.Header, r *jsonrpc2.Request, p *modernProbe) {
	h[headerMethod] = []string{r.Method}
	name, present, ok := p.nameSource(r.Method)
	if !ok || !present {
		return
	}
	h[headerName] = []string{encodeHeaderValue(name)}
	if r.Method != MethodCallTool {
		return
	}
	c.mu.Lock()
	bindings := c.tools[name]
	c.mu.Unlock()
	for _, b := range bindings {
		if val, ok := valueAt(p.arguments, b.path); ok {
			if hv, ok := headerValueOf(val); ok {
				h[http.CanonicalHeaderKey(headerParamPrefix+b.header)] = []string{hv}
			}
		}
	}
}

// postNoReply sends a notification or a response, which the server
// acknowledges with 202.
func (c *streamableClientConn) postNoReply(ctx context.Context, msg jsonrpc2.Message) error {
	lctx, stop := c.linked(ctx)
	defer stop()
	req, _, err := c.newPOST(lctx, msg)
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return c.doError(ctx, err)
	}
	defer drainClose(resp.Body)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	return c.statusError(req, resp)
}

// doError reports a POST that failed: why the connection ended, if it
// ended while the caller's ctx is still live, else err.
func (c *streamableClientConn) doError(ctx context.Context, err error) error {
	if ctx.Err() == nil && c.ended() {
		return c.err()
	}
	return fmt.Errorf("mcp: POST %s: %w", c.t.url, err)
}

// statusError turns a failed HTTP response into an error; 404 for a
// session ends the connection with ErrSessionExpired.
func (c *streamableClientConn) statusError(req *http.Request, resp *http.Response) error {
	if resp.StatusCode == http.StatusNotFound && req.Header.Get(headerSessionID) != "" {
		c.fail(ErrSessionExpired)
		return ErrSessionExpired
	}
	return httpStatusError(req, resp, nil)
}

// postRequest sends a request. Its response arrives through Read: from a
// JSON body, an SSE stream read in the background, or, for an HTTP error
// whose body is a JSON-RPC error, that error.
func (c *streamableClientConn) postRequest(ctx context.Context, r *jsonrpc2.Request) error {
	lctx, stop := c.linked(ctx)
	req, modern, err := c.newPOST(lctx, r)
	if err != nil {
		stop()
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		stop()
		if ctx.Err() != nil && !modern {
			c.cancelLegacy(r.ID)
		}
		return c.doError(ctx, err)
	}
	if r.Method == MethodInitialize {
		c.adoptSession(resp)
	}
	if resp.StatusCode == http.StatusOK || (resp.StatusCode > 200 && resp.StatusCode < 300 && resp.StatusCode != http.StatusAccepted) {
		if isMediaType(resp.Header.Get("Content-Type"), mediaSSE) {
			if !c.background(func() {
				defer stop()
				c.readResponseStream(lctx, resp, r, modern)
			}) {
				stop()
				drainClose(resp.Body)
				return jsonrpc2.ErrClosed
			}
			return nil
		}
		defer stop()
		defer drainClose(resp.Body)
		return c.readJSONResponse(resp, r, modern)
	}
	defer stop()
	defer drainClose(resp.Body)
	return c.failedRequest(req, resp, r)
}

// readJSONResponse reads a response sent as one JSON object.
func (c *streamableClientConn) readJSONResponse(resp *http.Response, r *jsonrpc2.Request, modern bool) error {
	if !isMediaType(resp.Header.Get("Content-Type"), mediaJSON) {
		return fmt.Errorf("mcp: POST %s: unexpected Content-Type %q", c.t.url, resp.Header.Get("Content-Type"))
	}
	body, err := readLimited(resp.Body, resp.ContentLength, c.t.opts.MaxEventSize)
	if errors.Is(err, ErrResponseTooLarge) {
		return fmt.Errorf("mcp: POST %s: %w: %w", c.t.url, ErrUnreadableResponse, err)
	}
	if err != nil {
		return fmt.Errorf("mcp: POST %s: reading response: %w", c.t.url, err)
	}
	msg, err := jsonrpc2.DecodeOwned(body) // body is the message's own
	if err != nil {
		return fmt.Errorf("mcp: POST %s: %w: %w", c.t.url, ErrUnreadableResponse, err)
	}
	if !c.handle(msg, r, modern) {
		return fmt.Errorf("mcp: POST %s: the response does not answer request %s", c.t.url, r.ID)
	}
	return nil
}

// failedRequest handles an HTTP error status for a request. A JSON-RPC
// error in the body becomes the request's response; any other refusal is
// the request's error, an *HTTPStatusError, in every era (the client's
// version probe falls back to initialize on it, unless it is a 401 or
// 403: basic/versioning, basic/authorization).
func (c *streamableClientConn) failedRequest(req *http.Request, resp *http.Response, r *jsonrpc2.Request) error {
	if resp.StatusCode == http.StatusNotFound && req.Header.Get(headerSessionID) != "" {
		c.fail(ErrSessionExpired)
		return ErrSessionExpired
	}
	if refusesCredentials(resp.StatusCode) {
		return httpStatusError(req, resp, nil)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if msg, err := jsonrpc2.Decode(body); err == nil {
		if e, ok := msg.(*jsonrpc2.Response); ok && e.Error != nil {
			c.deliver(&jsonrpc2.Response{ID: r.ID, Error: e.Error})
			return nil
		}
	}
	return httpStatusError(req, resp, body)
}

// handle passes on a message received for request r (nil for the GET
// stream) and reports whether it is r's response.
func (c *streamableClientConn) handle(msg jsonrpc2.Message, r *jsonrpc2.Request, modern bool) bool {
	resp, ok := msg.(*jsonrpc2.Response)
	if !ok || r == nil || resp.ID != r.ID {
		c.deliver(msg)
		return false
	}
	if resp.Error == nil {
		switch {
		case r.Method == MethodInitialize:
			c.adoptVersion(resp.Result)
		case r.Method == MethodListTools && modern:
			resp.Result = c.filterTools(resp.Result)
		}
	}
	c.deliver(resp)
	return true
}

// adoptSession records the session ID the server assigned at initialize.
func (c *streamableClientConn) adoptSession(resp *http.Response) {
	if sid := resp.Header.Get(headerSessionID); sid != "" {
		c.mu.Lock()
		c.sessionID = sid
		c.mu.Unlock()
	}
}

// adoptVersion records the version initialize negotiated.
func (c *streamableClientConn) adoptVersion(result []byte) {
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if strictjson.Unmarshal(result, &res) != nil || res.ProtocolVersion == "" {
		return
	}
	c.mu.Lock()
	c.version = res.ProtocolVersion
	c.mu.Unlock()
}

// openStandalone starts the legacy session's GET stream, on which the
// server sends messages unrelated to any request, unless it was started
// already, the options disable it, or there is no legacy session. The
// channel it returns is closed once the server answered the first GET (or
// the stream could not be opened): from then on the server can reach the
// client. The client session calls it once something needs that stream
// (see ClientSession.openServerStream).
func (c *streamableClientConn) openStandalone() <-chan struct{} {
	if c.t.opts.DisableStandaloneSSE {
		return closedChan
	}
	c.mu.Lock()
	if c.standalone != nil {
		defer c.mu.Unlock()
		return c.standalone
	}
	if c.sessionID == "" || c.version == "" {
		c.mu.Unlock()
		return closedChan
	}
	ready := make(chan struct{})
	c.standalone = ready
	c.mu.Unlock()
	ctx, stop := c.linked(context.Background())
	if !c.background(func() {
		defer stop()
		c.standaloneLoop(ctx, ready)
	}) {
		stop()
		close(ready)
	}
	return ready
}

// cancelLegacy tells a legacy server that the client gave up on request
// id: in the legacy era a closed connection is not a cancellation.
func (c *streamableClientConn) cancelLegacy(id jsonrpc2.ID) {
	n, err := jsonrpc2.NewNotification(NotificationCancelled, &CancelledParams{RequestID: id.Raw(), Reason: "request cancelled"})
	if err != nil {
		return
	}
	c.background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Best effort: the caller has its answer (ctx.Err()) already, and
		// the server's handler ends with the session at worst.
		_ = c.postNoReply(ctx, n)
	})
}

// isMediaType reports whether a Content-Type header names media type mt.
func isMediaType(ct, mt string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.EqualFold(strings.TrimSpace(ct), mt)
}

// drainClose reads a little of body, so the connection can be reused, and
// closes it.
func drainClose(body io.ReadCloser) {
	// Errors only mean the connection is not reused.
	_, _ = io.CopyN(io.Discard, body, 4<<10)
	_ = body.Close()
}
