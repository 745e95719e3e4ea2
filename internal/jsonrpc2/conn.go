package jsonrpc2

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// A Handler serves the requests and notifications a connection receives.
// For a request, Handle's result (encoded to JSON) or error becomes the
// response; an error that is an *Error keeps its code. For a notification
// the result is ignored.
//
// Requests are handled concurrently, each in its own goroutine, with a
// context that is cancelled by [Conn.CancelIncoming] or at shutdown.
// Notifications are handled one at a time, in order, on the goroutine that
// reads the stream: a notification handler must not block.
type Handler interface {
	Handle(ctx context.Context, req *Request) (result any, err error)
}

// HandlerFunc adapts a function to the Handler interface.
type HandlerFunc func(ctx context.Context, req *Request) (any, error)

// Handle calls f(ctx, req).
func (f HandlerFunc) Handle(ctx context.Context, req *Request) (any, error) { return f(ctx, req) }

// Defaults for ConnOptions.
const (
	DefaultMaxInFlight  = 256
	DefaultCloseTimeout = 5 * time.Second
)

// ConnOptions configure a Conn. The zero value means defaults.
type ConnOptions struct {
	// Handler serves incoming messages. Nil answers every request with
	// "method not found".
	Handler Handler
	// MaxInFlight bounds the incoming requests handled at once (default
	// DefaultMaxInFlight). A request over the bound is answered at once with
	// an error wrapping ErrBusy; the read loop never blocks on it, so a
	// handler waiting for the peer cannot deadlock the connection.
	MaxInFlight int
	// Unbounded, if set, reports the methods whose requests MaxInFlight
	// does not count: long-lived streams (an MCP events/stream) that the
	// caller bounds in its own way. They are still cancelled, answered and
	// waited for as any other request.
	Unbounded func(method string) bool
	// OnCancel, if set, is called with the id of an outgoing call whose
	// context ended before its response arrived (MCP sends
	// notifications/cancelled from it).
	OnCancel func(id ID)
	// AllowBatch reports whether a batch may be accepted now. Nil refuses
	// every batch with an invalid-request error.
	AllowBatch func() bool
	// CloseTimeout is how long shutdown lets running handlers finish before
	// cancelling their contexts (default DefaultCloseTimeout).
	CloseTimeout time.Duration
	// OnDone, if set, is called once when the connection has ended, from
	// the goroutine that ended it.
	OnDone func()
	// BaseContext, if set, is the context every incoming message's context
	// derives from (its values, not its cancellation: requests are
	// cancelled by the peer or by shutdown). Nil means context.Background.
	BaseContext context.Context
	// Deferred makes NewConn return a connection that does not read yet:
	// its owner finishes setting up what handlers use, then calls Start.
	Deferred bool
	// Received, if set, is called with each incoming request and
	// notification, in the order they arrive, before it is handled. It
	// must not block.
	Received func(req *Request)
	// OnWriteError, if set, is told of responses that could not be
	// written: nobody else can be, as the peer is waiting for them.
	OnWriteError func(err error)
}

// A Conn runs JSON-RPC 2.0 over a Stream: it matches responses to outgoing
// calls and dispatches incoming requests to its Handler. Its one goroutine
// reads the stream; each incoming request runs in a goroutine of its own.
type Conn struct {
	stream Stream
	opts   ConnOptions
	nextID atomic.Int64

	mu            sync.Mutex
	pending       pendingCalls         // outgoing calls awaiting a response
	incoming      map[ID]*incomingCall // requests being handled
	bounded       int                  // of incoming, those MaxInFlight counts
	isClosingFlag bool                 // shutdown has started: no new requests

	handlers sync.WaitGroup
	work     chan handlerJob // to a waiting handler goroutine (workers.go); nil over a PushStream
	idle     atomic.Int32    // handler goroutines waiting on work

	startOnce    sync.Once
	shutdownOnce sync.Once
	readDone     signal // the stream will deliver nothing more
	closing      signal // shutdown has started
	done         signal // shutdown is complete
	err          error  // why the connection ended; set before done fires
}

// NewConn starts a connection over stream. It takes ownership of the stream
// and closes it at shutdown.
func NewConn(stream Stream, opts *ConnOptions) *Conn {
	c := &Conn{stream: stream}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.MaxInFlight <= 0 {
		c.opts.MaxInFlight = DefaultMaxInFlight
	}
	if c.opts.CloseTimeout <= 0 {
		c.opts.CloseTimeout = DefaultCloseTimeout
	}
	if c.opts.BaseContext == nil {
		c.opts.BaseContext = context.Background()
	} else {
		c.opts.BaseContext = context.WithoutCancel(c.opts.BaseContext)
	}
	if !c.opts.Deferred {
		c.Start()
	}
	return c
}

// Start starts reading and handling messages, for a connection made with
// ConnOptions.Deferred; NewConn calls it otherwise. Later calls do nothing.
func (c *Conn) Start() {
	c.startOnce.Do(func() {
		if ps, ok := c.stream.(PushStream); ok {
			ps.Receive(c.receive)
		} else {
			c.work = make(chan handlerJob)
			go c.readLoop()
		}
	})
}

// Call sends a request for method with params and waits for its response.
// It returns the raw result, an *Error sent by the peer, ctx.Err() at once
// when ctx ends (after calling OnCancel), an error wrapping
// ErrUnreadableResponse when the response could not be read, or ErrClosed
// if the connection ends.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.CallWithID(ctx, c.NewCallID(), method, params)
}

// NewCallID reserves an id for an outgoing call, for a caller that must
// know it before making the call with CallWithID. Every call takes an id of
// its own: an id must not be used twice.
func (c *Conn) NewCallID() ID {
	return Int64ID(c.nextID.Add(1))
}

// CallWithID is Call with an id reserved by NewCallID.
func (c *Conn) CallWithID(ctx context.Context, id ID, method string, params any) (json.RawMessage, error) {
	NoteCallID(ctx, id)
	req, err := NewCall(id, method, params)
	if err != nil {
		return nil, err
	}
	ch := make(chan *Response, 1)
	c.mu.Lock()
	if c.isDone() {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	c.pending.add(id, ch)
	c.mu.Unlock()

	if err := c.stream.Write(ctx, req); err != nil {
		c.forget(id)
		return nil, c.writeErr(err)
	}
	select {
	case resp := <-ch:
		if resp == nil {
			return nil, ErrClosed
		}
		if resp.failure != nil {
			return nil, resp.failure
		}
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	case <-ctx.Done():
		if c.forget(id) && c.opts.OnCancel != nil {
			c.opts.OnCancel(id)
		}
		return nil, ctx.Err()
	}
}

// forget drops a pending call, reporting whether it was still pending.
func (c *Conn) forget(id ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending.take(id)
	return ok
}

func (c *Conn) writeErr(err error) error {
	if c.isDone() {
		return ErrClosed
	}
	return err
}

// Notify sends a notification.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	req, err := NewNotification(method, params)
	if err != nil {
		return err
	}
	if c.isDone() {
		return ErrClosed
	}
	return c.writeErr(c.stream.Write(ctx, req))
}

// An incomingCall is a request being handled.
type incomingCall struct {
	cancel    context.CancelFunc
	cancelled bool // by the peer: no response is sent
	unbounded bool // not counted against MaxInFlight (ConnOptions.Unbounded)
}

// CancelIncoming cancels the context of the incoming request id, if it is
// still being handled, because the peer cancelled it: no response will be
// sent for it, as the peer no longer waits for one.
func (c *Conn) CancelIncoming(id ID) {
	c.mu.Lock()
	call := c.incoming[id]
	if call != nil {
		call.cancelled = true
	}
	c.mu.Unlock()
	if call != nil {
		call.cancel()
	}
}

// Close shuts the connection down in order: no new requests are accepted,
// running handlers get CloseTimeout to finish and have their responses
// written, then the stream is closed and pending calls fail with ErrClosed.
// It returns when the reading goroutine has exited.
func (c *Conn) Close() error {
	c.shutdown(nil)
	<-c.readDone.wait()
	return nil
}

// Wait blocks until the connection has ended and returns why: nil when the
// peer closed the stream or Close was called.
func (c *Conn) Wait() error {
	<-c.readDone.wait()
	<-c.done.wait()
	return c.err
}

// Err returns why the connection ended, as Wait does, without waiting: it
// is nil until Done is closed.
func (c *Conn) Err() error {
	if !c.done.hasFired() {
		return nil
	}
	return c.err
}

// Closing is closed when the connection starts to shut down: the peer
// closed its side, or Close was called. Long-running handlers (such as a
// subscription stream) should wrap up then, so their responses are written
// before the connection ends.
func (c *Conn) Closing() <-chan struct{} { return c.closing.wait() }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done.wait() }

// IsDone reports whether the connection has ended, without making the
// channel Done returns.
func (c *Conn) IsDone() bool { return c.done.hasFired() }

func (c *Conn) isDone() bool { return c.done.hasFired() }

func (c *Conn) readLoop() {
	defer c.closeReadDone()
	for {
		msg, err := c.stream.Read(context.Background())
		if err != nil {
			if c.readFailed(err) {
				continue
			}
			c.shutdown(c.endCause(err))
			return
		}
		c.dispatch(msg)
	}
}

// readFailed handles an error reading the stream. It answers a message
// that could not be decoded, or fails the calls an unreadable response may
// answer (unreadable.go), and reports true: the stream goes on. For any
// other error it fails what can no longer complete and reports false.
func (c *Conn) readFailed(err error) bool {
	var derr *DecodeError
	if errors.As(err, &derr) {
		if derr.Response {
			c.failUnreadable(derr)
		} else {
			c.reply(&Response{ID: derr.ID, Error: errorFor(derr.Err)})
		}
		return true
	}
	// No more responses can arrive: fail pending calls now, so handlers
	// waiting on them finish before shutdown waits on them.
	c.failPending()
	if errors.Is(err, ErrClosed) {
		// The stream is closed both ways: no response can be written, so
		// running handlers need not finish.
		c.cancelAll()
	}
	return false
}

// endCause is what Wait reports for a stream that ended with err: nothing
// for an orderly end.
func (c *Conn) endCause(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, ErrClosed) || c.isClosing() {
		return nil
	}
	return err
}

func (c *Conn) closeReadDone() { c.readDone.fire() }

// A PushStream is a Stream that delivers what it receives itself, from
// goroutines of its own (an HTTP response being read, say), instead of
// being read. A Conn over a PushStream runs no goroutine of its own, so an
// idle connection costs none. Read is never called.
type PushStream interface {
	Stream
	// Receive registers deliver. The stream calls deliver(msg, nil) for
	// each message, deliver(nil, err) for a message it could not decode
	// (err a *DecodeError), and deliver(nil, err) once when it ends. deliver
	// may be called concurrently; messages delivered by one goroutine are
	// handled in the order delivered.
	Receive(deliver func(Message, error))
}

// receive is the deliver function a Conn gives a PushStream.
func (c *Conn) receive(msg Message, err error) {
	if err == nil {
		c.dispatch(msg)
		return
	}
	if c.readFailed(err) {
		return
	}
	cause := c.endCause(err)
	// Shut down on another goroutine: the stream may be calling from a
	// goroutine its Close waits for.
	go func() {
		c.shutdown(cause)
		c.closeReadDone()
	}()
}

func (c *Conn) isClosing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.isClosingFlag
}

func (c *Conn) dispatch(msg Message) {
	switch m := msg.(type) {
	case *Response:
		c.deliver(m)
	case *Request:
		if c.opts.Received != nil {
			c.opts.Received(m)
		}
		if m.IsNotification() {
			if c.opts.Handler != nil {
				// A notification has no response: its handler's error
				// has nowhere to go, and the handler reports what matters.
				_, _ = c.opts.Handler.Handle(c.opts.BaseContext, m)
			}
			return
		}
		ctx, refusal := c.admit(m)
		if refusal != nil {
			c.reply(refusal)
			return
		}
		c.startHandler(ctx, m)
	case Batch:
		c.dispatchBatch(m)
	}
}
func (c *Conn) deliver(resp *Response) {
	c.mu.Lock()
	ch, ok := c.pending.take(resp.ID)
	c.mu.Unlock()
	if ok {
		ch <- resp
	}
}

// admit registers an incoming request and returns its context, or returns
// the error response that refuses it. On success the caller owns one count
// of c.handlers.
func (c *Conn) admit(req *Request) (context.Context, *Response) {
	unbounded := c.opts.Unbounded != nil && c.opts.Unbounded(req.Method)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.isClosingFlag:
		return nil, &Response{ID: req.ID, Error: &Error{Code: CodeInternalError, Message: "connection is closing"}}
	case !unbounded && c.bounded >= c.opts.MaxInFlight:
		return nil, &Response{ID: req.ID, Error: &Error{Code: CodeInternalError, Message: ErrBusy.Error()}}
	case c.incoming[req.ID] != nil:
		return nil, &Response{ID: req.ID, Error: &Error{Code: CodeInvalidRequest, Message: "request id " + req.ID.String() + " is already in use"}}
	}
	ctx, cancel := context.WithCancel(c.opts.BaseContext)
	if c.incoming == nil {
		c.incoming = make(map[ID]*incomingCall)
	}
	c.incoming[req.ID] = &incomingCall{cancel: cancel, unbounded: unbounded}
	if !unbounded {
		c.bounded++
	}
	c.handlers.Add(1)
	return ctx, nil
}

// serve runs the handler for an admitted request and builds its response,
// or returns nil when the peer cancelled the request.
func (c *Conn) serve(ctx context.Context, req *Request) *Response {
	var resp *Response
	if c.opts.Handler == nil {
		resp = &Response{ID: req.ID, Error: &Error{Code: CodeMethodNotFound, Message: "method not found: " + req.Method}}
	} else {
		result, err := c.opts.Handler.Handle(ctx, req)
		resp = NewResponse(req.ID, result, err)
	}
	c.mu.Lock()
	call := c.incoming[req.ID]
	delete(c.incoming, req.ID)
	if call != nil && !call.unbounded {
		c.bounded--
	}
	c.mu.Unlock()
	if call != nil {
		call.cancel()
		if call.cancelled {
			return nil
		}
	}
	return resp
}

// reply writes a response. A failure goes to OnWriteError: the peer is
// gone or the stream is broken, and the read loop will notice.
func (c *Conn) reply(resp *Response) {
	c.write(resp)
}

// write writes a response or a batch of them, reporting a failure to
// OnWriteError.
func (c *Conn) write(msg Message) {
	if err := c.stream.Write(context.Background(), msg); err != nil && c.opts.OnWriteError != nil {
		c.opts.OnWriteError(err)
	}
}

// dispatchBatch handles a batch: responses in it are delivered, requests in
// it are handled concurrently and answered with one batch response.
func (c *Conn) dispatchBatch(batch Batch) {
	if c.opts.AllowBatch == nil || !c.opts.AllowBatch() {
		c.reply(&Response{Error: errorFor(ErrBatchNotAllowed)})
		return
	}
	type slot struct {
		ctx  context.Context
		req  *Request
		resp *Response
	}
	var slots []*slot
	for _, msg := range batch {
		switch m := msg.(type) {
		case *Response:
			c.deliver(m)
		case *Request:
			if c.opts.Received != nil {
				c.opts.Received(m)
			}
			if m.IsNotification() {
				if c.opts.Handler != nil {
					_, _ = c.opts.Handler.Handle(c.opts.BaseContext, m) // as in dispatch
				}
				continue
			}
			ctx, refusal := c.admit(m)
			slots = append(slots, &slot{ctx: ctx, req: m, resp: refusal})
		}
	}
	admitted := 0
	for _, s := range slots {
		if s.resp == nil {
			admitted++
		}
	}
	if admitted == 0 {
		if len(slots) > 0 {
			out := make(Batch, len(slots))
			for i, s := range slots {
				out[i] = s.resp
			}
			c.write(out)
		}
		return
	}
	// The admitted requests hold counts on c.handlers, so this Add cannot
	// race with a shutdown's Wait on a zero counter.
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		var wg sync.WaitGroup
		for _, s := range slots {
			if s.resp != nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.handlers.Done()
				s.resp = c.serve(s.ctx, s.req)
			}()
		}
		wg.Wait()
		var out Batch
		for _, s := range slots {
			if s.resp != nil {
				out = append(out, s.resp)
			}
		}
		if len(out) > 0 {
			c.write(out)
		}
	}()
}

// cancelAll cancels the context of every request being handled. Requests
// admitted later (none are, once closing) are not affected.
func (c *Conn) cancelAll() {
	c.mu.Lock()
	calls := make([]*incomingCall, 0, len(c.incoming))
	for _, call := range c.incoming {
		calls = append(calls, call)
	}
	c.mu.Unlock()
	for _, call := range calls {
		call.cancel()
	}
}

// failPending ends every outgoing call with ErrClosed.
func (c *Conn) failPending() {
	c.mu.Lock()
	pending := c.pending.drain()
	c.mu.Unlock()
	for _, call := range pending {
		call.ch <- nil
	}
}

// shutdown runs once: it refuses new requests, lets running handlers
// finish (cancelling them after CloseTimeout), closes the stream and fails
// pending calls.
func (c *Conn) shutdown(cause error) {
	c.shutdownOnce.Do(func() {
		c.mu.Lock()
		c.isClosingFlag = true
		c.mu.Unlock()
		c.closing.fire()

		finished := make(chan struct{})
		go func() {
			c.handlers.Wait()
			close(finished)
		}()
		timer := time.NewTimer(c.opts.CloseTimeout)
		select {
		case <-finished:
		case <-timer.C:
			c.cancelAll()
			<-finished
		}
		timer.Stop()

		c.err = cause
		c.done.fire()
		c.cancelAll()
		_ = c.stream.Close() // the connection is over: a failure to close has no one to tell
		if _, push := c.stream.(PushStream); push {
			c.closeReadDone() // no reading goroutine will
		}
		c.failPending()
		if c.opts.OnDone != nil {
			c.opts.OnDone()
		}
	})
}

// A CallIDNoter is told the id of an outgoing call before it is written.
// A context whose Value(CallIDKey{}) is a CallIDNoter receives the id of the
// call made with it.
type CallIDNoter interface {
	NoteCallID(id ID)
}

// CallIDKey is the context key of a CallIDNoter.
type CallIDKey struct{}

// NoteCallID tells the CallIDNoter of ctx, if any, the id of the call about
// to be made with ctx. Conn.Call does; other senders of calls should too.
func NoteCallID(ctx context.Context, id ID) {
	if n, ok := ctx.Value(CallIDKey{}).(CallIDNoter); ok {
		n.NoteCallID(id)
	}
}
