package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// Errors of a response stream.
var (
	// errStreamDone reports a message for a request whose response was sent.
	errStreamDone = errors.New("mcp: the request's response was already sent")
	// errNoSSE reports a message that cannot be streamed: the response is a
	// single JSON object.
	errNoSSE = errors.New("mcp: the response is not an SSE stream")
	// errDetached reports a message for a stream no client reads any more.
	errDetached = errors.New("mcp: the client is not connected to the stream")
)

// A responseStream is where the streamable HTTP handler sends the messages
// of one request (its response, and the notifications and requests related
// to it) or, for a legacy session's GET stream, messages related to no
// request.
//
// The stream starts as a plain HTTP response and becomes an SSE stream
// when the first message before the response is sent, if the client
// accepts one; the response alone is written as one JSON object.
//
// A resumable stream (legacy session with an EventStore) numbers its events
// and stores them; its HTTP response can be detached (the client went away,
// or the server closed it for polling) and a later GET with Last-Event-ID
// attaches a new one, replaying what was missed.
type responseStream struct {
	cfg *streamConfig
	req *http.Request // the HTTP request that carried the message handled
	// Set for legacy sessions only.
	sess *httpSession
	id   string // stream ID within the session; "" when not resumable

	cancel context.CancelFunc        // cancels a modern request's context
	header func(h http.Header)       // sets extra response headers, once
	status func(*jsonrpc2.Error) int // HTTP status of an error response

	// The stream's flags sit together, after its pointers, to keep the
	// struct small: a server holds one per open stream.
	canSSE  bool // the client accepts text/event-stream
	tracked bool // registered with h as long-lived
	// queued streams (subscriptions/listen, a legacy session's GET
	// stream) get their notifications through queue, written in order by
	// a goroutine of their own, so that a broadcast to many streams never
	// waits for a slow client.
	queued   bool
	hijacked bool // the response attached last took its connection
	// deferWatch: the stream's owner watches the hijacked connection's
	// client itself (serveListenHijacked).
	deferWatch bool
	// Guarded by mu.
	started bool // SSE headers written to w
	lazy    bool // resumable, not started yet: a response now is JSON (startTimers)
	done    bool // the final message was sent

	queue sendQueue
	// abort, set while a queued stream's response is attached, makes a
	// write in progress fail at once (a dropped client).
	abort atomic.Pointer[writeDeadliner]

	// onHijackClose, when set, lets the stream take its connection from
	// net/http as it starts (hijackResponse); it runs once when that
	// connection closes.
	onHijackClose func(*hijackedConn)
	// listenDone is the Done channel of the stream's own context, for a
	// listen stream served on a goroutine of its own (StreamableHTTPHandler.runListen).
	listenDone <-chan struct{}
	// onNoHijack, if set, runs when the stream could not take its
	// connection and stays on net/http.
	onNoHijack func()

	mu      sync.Mutex
	w       http.ResponseWriter // nil when detached or hijacked
	hc      *hijackedConn       // the connection taken from net/http, if any
	rc      *http.ResponseController
	release chan struct{} // closed to let the goroutine serving w return
	index   int           // events numbered so far
	buf     []byte        // encoded message
	evbuf   []byte        // encoded event
}

type streamKey struct{}

// withStream returns ctx carrying st, for the handlers of its request.
func withStream(ctx context.Context, st *responseStream) context.Context {
	return context.WithValue(ctx, streamKey{}, st)
}

func streamFromContext(ctx context.Context) *responseStream {
	st, _ := ctx.Value(streamKey{}).(*responseStream)
	return st
}

// HTTPRequestFromContext returns the HTTP request that carried the MCP
// message being handled, when it came through a StreamableHTTPHandler, or
// nil. Use it in tool, prompt and resource handlers to read request
// headers (for example, to authorize per user); values that HTTP
// middleware stored in the request's context are also in the handler's
// context directly. The request's body has already been read.
func HTTPRequestFromContext(ctx context.Context) *http.Request {
	if st := streamFromContext(ctx); st != nil {
		return st.req
	}
	if r, ok := ctx.Value(httpRequestKey{}).(*http.Request); ok {
		return r
	}
	return nil
}

type httpRequestKey struct{}

// attachLocked makes w the stream's HTTP response, for a stream served on
// the goroutine that serves w.
func (st *responseStream) attachLocked(w http.ResponseWriter) {
	if st.queued {
		if wd := deadlinerOf(w); wd != nil {
			st.abort.Store(&wd)
		}
	}
	st.w = w
	st.rc = nil // made when the stream starts
	st.release = nil
	st.hijacked = false
}

// attachWaitLocked is attachLocked for a goroutine that waits while other
// goroutines write to w: it returns the channel closed when it may return.
func (st *responseStream) attachWaitLocked(w http.ResponseWriter) chan struct{} {
	st.attachLocked(w)
	st.release = make(chan struct{})
	return st.release
}

// detach stops writing to w, if it is still the stream's response, and
// lets its goroutine return.
func (st *responseStream) detach(w http.ResponseWriter) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == w {
		st.detachLocked()
	}
}

func (st *responseStream) detachLocked() {
	if !st.attachedLocked() {
		return
	}
	if st.hc != nil {
		st.hc.end(nil) // the last chunk, then the connection closes
		st.hc = nil
	}
	st.w, st.rc, st.started = nil, nil, false
	st.abort.Store(nil)
	if st.release != nil {
		close(st.release)
		st.release = nil
	}
}

// attachedLocked reports whether a client reads the stream: through
// net/http or on a hijacked connection.
func (st *responseStream) attachedLocked() bool {
	return st.w != nil || st.hc != nil
}

// eventID returns the id of event index of the stream.
func (st *responseStream) eventID(index int) string {
	return st.id + "_" + strconv.Itoa(index)
}

// startSSELocked writes the SSE response headers and, for a resumable
// stream when prime is set, the priming event that gives the client an id
// to resume from.
func (st *responseStream) startSSELocked(prime bool) error {
	h := st.w.Header()
	if st.header != nil {
		st.header(h)
		st.header = nil
	}
	h["Content-Type"] = hdrSSE
	h["Cache-Control"] = hdrNoCache
	h["X-Accel-Buffering"] = hdrNoBuffer
	st.lazy = false // started now (startTimers)
	if st.cancel != nil && !st.tracked && st.cfg.live != nil {
		st.tracked = st.cfg.live.add(st)
	}
	if hijacked, err := st.hijackLocked(); hijacked || err != nil {
		if err != nil {
			return err
		}
	} else {
		st.w.WriteHeader(http.StatusOK)
		st.started = true
		st.rc = http.NewResponseController(st.w)
	}
	if prime && st.id != "" {
		st.evbuf = appendSSEEvent(st.evbuf[:0], "", st.eventID(st.index), nil)
		return st.writeLocked(st.evbuf)
	}
	return st.flushLocked()
}

// hijackLocked takes the stream's connection from net/http, when the
// stream may, and writes the response head. It reports whether it did;
// an error means the connection was taken and lost (the stream is then
// detached).
func (st *responseStream) hijackLocked() (bool, error) {
	onClose := st.onHijackClose
	if onClose == nil {
		return false, nil
	}
	noHijack := st.onNoHijack
	st.onHijackClose, st.onNoHijack = nil, nil
	hc, err := hijackResponse(st.w, st.cfg, onClose, st.deferWatch)
	if errors.Is(err, http.ErrNotSupported) {
		if noHijack != nil {
			noHijack()
		}
		return false, nil // served by net/http as usual
	}
	if err != nil {
		st.lostClientLocked(err)
		return true, err
	}
	st.w, st.rc, st.hc, st.started, st.hijacked = nil, nil, hc, true, true
	st.abort.Store(nil)
	if st.release != nil {
		// The goroutine that served the response returns now.
		close(st.release)
		st.release = nil
	}
	return true, nil
}

// writeLocked writes b to the SSE response and flushes it, within the
// write timeout, which is set anew for each event. A failed write (the
// client went away, or stopped reading for longer than the timeout)
// detaches the response: the client is dropped, and net/http closes its
// connection.
func (st *responseStream) writeLocked(b []byte) error {
	if st.hc != nil {
		if err := st.hc.write(b); err != nil {
			st.lostClientLocked(err)
			return err
		}
		return nil
	}
	if err := setWriteDeadline(st.w, st.cfg.writeTimeout); err != nil {
		st.cfg.logger.Debug("mcp: cannot set a write deadline on an HTTP stream", "error", err)
	}
	if _, err := st.w.Write(b); err != nil {
		st.lostClientLocked(err)
		return err
	}
	return st.flushLocked()
}

func (st *responseStream) flushLocked() error {
	if st.hc != nil {
		return nil // hijacked writes are not buffered
	}
	if err := st.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		st.lostClientLocked(err)
		return err
	}
	return nil
}

// lostClientLocked logs a failed write and detaches the response.
func (st *responseStream) lostClientLocked(err error) {
	level := slog.LevelDebug
	if errors.Is(err, os.ErrDeadlineExceeded) {
		level = slog.LevelInfo // a client that stopped reading
	}
	st.cfg.logger.Log(context.Background(), level, "mcp: dropping an HTTP client: writing its stream failed", "stream", st.id, "error", err)
	st.detachLocked()
}

// send streams a message that precedes the request's response: a
// notification or a server-to-client request. It fails when the stream
// cannot carry it (JSON response, response already sent, client gone).
// On a queued stream it only queues a notification: a broadcast to many
// streams never waits for a slow client.
func (st *responseStream) send(msg jsonrpc2.Message) error {
	if r, ok := msg.(*jsonrpc2.Request); ok && st.queued && r.IsNotification() {
		return st.enqueue(msg)
	}
	return st.sendNow(msg)
}

// sendNow is send without the queue: it writes msg on the caller's
// goroutine.
func (st *responseStream) sendNow(msg jsonrpc2.Message) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return errStreamDone
	}
	if !st.canSSE {
		return errNoSSE
	}
	data, err := jsonrpc2.AppendMessage(st.buf[:0], msg)
	if err != nil {
		return err
	}
	st.buf = data
	return st.emitLocked(data)
}

// emitLocked stores (when resumable) and writes one event, starting the
// SSE stream if needed.
func (st *responseStream) emitLocked(data []byte) error {
	if st.w != nil && !st.started {
		// On failure the response is detached (and the failure logged);
		// the event is still stored below when the stream is resumable.
		_ = st.startSSELocked(true)
	}
	id := ""
	if st.id != "" {
		st.index++
		id = st.eventID(st.index)
		if err := st.cfg.store.Append(context.Background(), st.sess.id, st.id, data); err != nil {
			return err
		}
	}
	if !st.attachedLocked() {
		if st.id != "" {
			return nil // stored; replayed when the client resumes
		}
		return errDetached
	}
	st.evbuf = appendSSEEvent(st.evbuf[:0], "message", id, data)
	if err := st.writeLocked(st.evbuf); err != nil {
		return st.lostLocked(err)
	}
	return nil
}

// lostLocked reports a failed write: not an error for a resumable stream,
// whose event is stored.
func (st *responseStream) lostLocked(err error) error {
	if st.id != "" {
		return nil
	}
	return err
}

// finish sends the request's response, the stream's last message, and
// lets the goroutine serving the stream return.
func (st *responseStream) finish(resp *jsonrpc2.Response) {
	dropped := st.queued && st.queue.close()
	st.mu.Lock()
	if dropped {
		st.detachLocked() // nothing more is written to a dropped client
	}
	defer st.mu.Unlock()
	if st.done {
		return
	}
	st.done = true
	if st.tracked {
		st.cfg.live.remove(st)
	}
	if st.w != nil && !st.started && (st.id == "" || st.lazy) {
		st.writeJSONLocked(resp)
		st.detachLocked()
		st.dropLazyLocked() // streamable_lazy.go
		return
	}
	data, err := jsonrpc2.AppendMessage(st.buf[:0], resp)
	if err != nil {
		data = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"encoding response"}}`)
	}
	st.buf = data
	if err := st.emitLocked(data); err != nil {
		st.cfg.logger.Debug("mcp: a response was lost: its client is gone", "error", err)
	}
	st.detachLocked()
	if st.sess != nil && st.id != "" {
		st.sess.dropStream(st.id)
	}
}

// writeJSONLocked answers with resp as one JSON object.
func (st *responseStream) writeJSONLocked(resp *jsonrpc2.Response) {
	status := http.StatusOK
	if resp.Error != nil && st.status != nil {
		status = st.status(resp.Error)
	}
	if st.header != nil {
		st.header(st.w.Header())
		st.header = nil
	}
	if err := writeJSONWithin(st.w, status, resp, st.cfg.writeTimeout); err != nil {
		st.cfg.logger.Debug("mcp: a response was lost: writing it failed", "error", err)
	}
}

// closeConnection ends the HTTP response of a resumable stream without
// ending the stream, after telling the client to reconnect in retry.
func (st *responseStream) closeConnection(retry time.Duration) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.id == "" || !st.canSSE {
		return errors.New("mcp: the stream is not resumable: set StreamableHTTPOptions.EventStore and let the client accept text/event-stream")
	}
	if st.done || !st.attachedLocked() {
		return nil
	}
	if !st.started {
		if err := st.startSSELocked(true); err != nil {
			return nil // the client is gone already: the stream is detached
		}
	}
	st.buf = appendSSERetry(st.buf[:0], retry)
	// A failed write detaches the stream, which is what closing it means.
	_ = st.writeLocked(st.buf)
	st.detachLocked()
	return nil
}

// CloseSSEStream closes the HTTP connection carrying the SSE stream of the
// legacy request being handled, without ending the stream: the client
// waits retry, then resumes it with GET and Last-Event-ID, and receives
// the messages sent in between, including the response. Servers use it to
// avoid holding long-lived connections (SSE polling). ctx is the handler's
// context. It needs a session whose handler has an EventStore and a client
// that accepts SSE; otherwise it returns an error and changes nothing.
func CloseSSEStream(ctx context.Context, retry time.Duration) error {
	st := streamFromContext(ctx)
	if st == nil {
		return errors.New("mcp: CloseSSEStream: no HTTP stream in context")
	}
	if retry <= 0 {
		retry = st.cfg.retryInterval
	}
	return st.closeConnection(retry)
}

// A streamConfig is what a response stream needs from the handler that
// made it.
type streamConfig struct {
	writeTimeout  time.Duration  // bounds each write; <= 0 means none
	retryInterval time.Duration  // sent when the server closes a resumable stream
	store         EventStore     // makes legacy streams resumable; may be nil
	logger        *slog.Logger   // never nil
	live          *liveStreams   // where long-lived streams register; may be nil
	conns         *hijackedConns // where hijacked connections register; may be nil
}

// liveStreams holds the long-lived 2026-07-28 streams
// (subscriptions/listen) of a handler, which Close and Shutdown end.
type liveStreams struct {
	mu  sync.Mutex
	set map[*responseStream]struct{}
	// ending is set once the handler ends its streams: a listen stream
	// cancelled then ends gracefully (endedByHandler).
	ending atomic.Bool
}

func (l *liveStreams) add(st *responseStream) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.set == nil {
		l.set = map[*responseStream]struct{}{}
	}
	l.set[st] = struct{}{}
	return true
}

func (l *liveStreams) remove(st *responseStream) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.set, st)
}

// cancelAll cancels the context of every live stream's request.
func (l *liveStreams) cancelAll() {
	l.ending.Store(true)
	l.mu.Lock()
	streams := make([]*responseStream, 0, len(l.set))
	for st := range l.set {
		streams = append(streams, st)
	}
	l.mu.Unlock()
	for _, st := range streams {
		st.cancel()
	}
}

// endedByHandler reports whether ctx, the context of a request on a
// streamable HTTP stream, was cancelled because the handler is ending its
// streams (Close, Shutdown). A subscriptions/listen request then ends
// with its successful response: the server tears the subscription down,
// and the protocol asks it to say so.
func endedByHandler(ctx context.Context) bool {
	st := streamFromContext(ctx)
	return st != nil && st.cfg != nil && st.cfg.live != nil && st.cfg.live.ending.Load()
}

// writeDeadliner is the method of net/http's own ResponseWriters that
// http.ResponseController calls.
type writeDeadliner interface {
	SetWriteDeadline(time.Time) error
}

// setWriteDeadline gives the response's next writes d to complete; d <= 0
// sets none. It finds the deadline as http.ResponseController does (the
// writer's own method, or that of the writer it wraps), without
// allocating; a writer without one (a test recorder) gets none. net/http
// clears the deadline once the handler has returned and the response is
// flushed, so a deadline never outlives its response.
func setWriteDeadline(w http.ResponseWriter, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if wd := deadlinerOf(w); wd != nil {
		return wd.SetWriteDeadline(time.Now().Add(d))
	}
	return nil
}

// deadlinerOf returns the write-deadline method of w or of the writer it
// wraps, as http.ResponseController finds it, or nil.
func deadlinerOf(w http.ResponseWriter) writeDeadliner {
	for {
		switch x := w.(type) {
		case writeDeadliner:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// writeJSONWithin answers with status and msg encoded as JSON, giving
// the write d to complete (none when d <= 0), so a client that does not
// read its response cannot hold the handler.
func writeJSONWithin(w http.ResponseWriter, status int, msg jsonrpc2.Message, d time.Duration) error {
	if err := setWriteDeadline(w, d); err != nil {
		return err
	}
	return writeJSONResponse(w, status, msg)
}

// maxQueuedEvents bounds the events waiting to be written to one
// long-lived stream; a client that falls this far behind is dropped.
const maxQueuedEvents = 256

// A sendQueue holds the events of a long-lived stream until a goroutine,
// started when there are some and gone when there are none, writes them.
type sendQueue struct {
	mu      sync.Mutex
	pending [][]byte
	closed  bool
	dropped bool          // the client fell too far behind
	drained chan struct{} // closed when the running writer stops; nil when none runs
}

// enqueue queues msg for the stream, dropping a client that does not keep
// up: its request is cancelled, which ends the stream.
func (st *responseStream) enqueue(msg jsonrpc2.Message) error {
	q := &st.queue
	q.mu.Lock()
	if !q.closed && q.drained == nil {
		// Nothing waits before msg: a hijacked stream takes it at once.
		if ok, err := st.emitDirect(msg); ok {
			q.mu.Unlock()
			return err
		}
	}
	q.mu.Unlock()
	data, err := jsonrpc2.AppendMessage(nil, msg)
	if err != nil {
		return err
	}
	q.mu.Lock()
	switch {
	case q.closed:
		q.mu.Unlock()
		return errStreamDone
	case len(q.pending) >= maxQueuedEvents:
		// A listen stream ends; a GET stream loses its connection, which
		// the client may open again.
		q.pending = nil
		q.closed = st.cancel != nil
		q.dropped = q.closed
		q.mu.Unlock()
		st.cfg.logger.Info("mcp: dropping an HTTP client: it does not read its stream", "queued", maxQueuedEvents)
		if wd := st.abort.Load(); wd != nil {
			// Fails the write in progress; the stream is then detached.
			_ = (*wd).SetWriteDeadline(time.Now())
		}
		if st.cancel != nil {
			st.cancel()
		}
		return errDetached
	}
	q.pending = append(q.pending, data)
	if q.drained == nil {
		q.drained = make(chan struct{})
		go st.drain()
	}
	q.mu.Unlock()
	return nil
}

// emitDirect writes msg on the caller's goroutine if the stream is
// hijacked, whose writes never block (what the socket does not take waits
// for the connection's writer), and not busy. It reports whether it did.
func (st *responseStream) emitDirect(msg jsonrpc2.Message) (bool, error) {
	if !st.mu.TryLock() {
		return false, nil
	}
	defer st.mu.Unlock()
	if st.hc == nil || st.done {
		return false, nil
	}
	// The encoding buffers are pooled, not the stream's: the hijacked
	// connection copies what it cannot write at once, and an open stream
	// keeps no buffers of its own between events.
	bp := chunkPool.Get().(*[]byte)
	defer putChunk(bp)
	data, err := jsonrpc2.AppendMessage((*bp)[:0], msg)
	if err != nil {
		return true, err
	}
	*bp = data
	st.buf = nil
	// A failed write detaches the stream (and is logged), as in drain.
	_ = st.emitPooledLocked(data)
	return true, nil
}

// emitPooledLocked is emitLocked with a pooled event buffer, for a
// hijacked stream (its connection copies what it does not write at once).
func (st *responseStream) emitPooledLocked(data []byte) error {
	ep := chunkPool.Get().(*[]byte)
	defer putChunk(ep)
	st.evbuf = (*ep)[:0]
	err := st.emitLocked(data)
	*ep, st.evbuf = st.evbuf, nil
	return err
}

// putChunk returns a buffer to chunkPool, unless it grew too big to keep.
func putChunk(bp *[]byte) {
	if cap(*bp) <= maxPooledChunk {
		chunkPool.Put(bp)
	}
}

// drain writes the queued events until there are none left.
func (st *responseStream) drain() {
	q := &st.queue
	for {
		q.mu.Lock()
		if len(q.pending) == 0 {
			close(q.drained)
			q.drained = nil
			q.mu.Unlock()
			return
		}
		data := q.pending[0]
		q.pending[0] = nil
		q.pending = q.pending[1:]
		q.mu.Unlock()
		st.mu.Lock()
		if !st.done {
			// A failed write detaches the stream (and is logged); the
			// events left are then discarded the same way.
			if st.hc != nil {
				_ = st.emitPooledLocked(data)
			} else {
				_ = st.emitLocked(data)
			}
		}
		st.mu.Unlock()
	}
}

// close refuses further events and waits until the queued ones are
// written. It reports whether the client was dropped for falling behind.
func (q *sendQueue) close() (dropped bool) {
	q.mu.Lock()
	dropped = q.dropped
	q.closed = true
	drained := q.drained
	q.mu.Unlock()
	if drained != nil {
		<-drained
	}
	return dropped
}
