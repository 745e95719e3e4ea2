package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Long-lived event streams (a legacy session's GET stream, a 2026-07-28
// subscriptions/listen stream) spend nearly all their life idle. Served by
// net/http, each idle stream holds a goroutine, the connection's read and
// write buffers, the request, the response and its chunk writer: about
// 15 KiB. Over HTTP/1.1 the handler instead takes the connection once the
// response starts (http.ResponseController.Hijack), writes the status
// line, headers and chunked body itself, and lets net/http's goroutine
// return. What stays per stream is the net.Conn, a goroutine blocked in a
// one-byte Read (to see the client leave), and a hijackedConn.

// Errors of a hijacked stream.
var (
	// errPipelined reports bytes a client sent on a connection that
	// carries an event stream: HTTP/1.1 has no room for them.
	errPipelined = errors.New("mcp: the client sent bytes on an event stream's connection")
	// errStreamTooSlow reports a client whose unwritten events reached
	// maxQueuedEvents.
	errStreamTooSlow = errors.New("mcp: the client does not read its event stream")
)

// A hijackedConn is the connection of one event stream taken from
// net/http. Events are written as HTTP/1.1 chunks: at once, without
// blocking, when the socket takes them; otherwise they wait, at most
// maxQueuedEvents of them, for a writer goroutine that runs only while
// some wait. A client that falls further behind, sends bytes, or goes
// away has its connection closed, and onClose runs once.
type hijackedConn struct {
	conn    net.Conn
	raw     syscall.RawConn // for writes that never block; nil: none
	timeout time.Duration   // bounds each write of the writer; <= 0: none
	logger  *slog.Logger
	reg     *hijackedConns
	onClose func(*hijackedConn) // run once by watch, when the connection closes
	// deferWatch: no goroutine was started to watch the client; the
	// stream's owner calls watch or waitClient (claimed records it).
	deferWatch, claimed bool
	interrupted         atomic.Bool // waitClient was told to return

	mu      sync.Mutex
	pending net.Buffers // chunks waiting for the writer
	writing bool        // the writer goroutine runs
	ending  bool        // the last chunk is queued: close once written
	closed  bool
	rbuf    [1]byte
}

// canHijack reports whether the long-lived stream of r may take its
// connection from net/http: an HTTP/1.1 request without a body left to
// read, a ResponseWriter that can hijack, and the option not turned off.
func (h *StreamableHTTPHandler) canHijack(w http.ResponseWriter, r *http.Request) bool {
	if h.opts.DisableStreamHijack || r.ProtoMajor != 1 || r.ProtoMinor != 1 {
		return false
	}
	if r.Method != http.MethodPost && (r.ContentLength != 0 || len(r.TransferEncoding) > 0) {
		return false // a GET with a body: the bytes may be buffered unread
	}
	return hijackerOf(w) != nil
}

// hijackerOf returns the Hijack method of w or of the writer it wraps,
// as http.ResponseController finds it, or nil.
func hijackerOf(w http.ResponseWriter) http.Hijacker {
	for {
		switch x := w.(type) {
		case http.Hijacker:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// hijackResponse takes w's connection and writes a 200 response head with
// the headers set on w and chunked transfer encoding. When the connection
// cannot be taken it returns an error wrapping http.ErrNotSupported and w
// is still usable; any other error means the connection is lost.
func hijackResponse(w http.ResponseWriter, cfg *streamConfig, onClose func(*hijackedConn), deferWatch bool) (*hijackedConn, error) {
	header := w.Header()
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		if errors.Is(err, http.ErrNotSupported) {
			return nil, err
		}
		return nil, errors.Join(http.ErrNotSupported, err)
	}
	if brw.Reader.Buffered() > 0 {
		conn.Close()
		return nil, errPipelined
	}
	hc := &hijackedConn{conn: conn, timeout: cfg.writeTimeout, logger: cfg.logger, reg: cfg.conns, onClose: onClose, deferWatch: deferWatch}
	if sc, ok := conn.(syscall.Conn); ok && nonBlockingWrites {
		if raw, err := sc.SyscallConn(); err == nil {
			hc.raw = raw
		}
	}
	head := appendResponseHead(make([]byte, 0, 512), header)
	if hc.timeout > 0 {
		_ = conn.SetWriteDeadline(time.Now().Add(hc.timeout)) // fails only on a closed connection, as the write below then does
	}
	_, err = conn.Write(head)
	if err == nil && hc.timeout > 0 {
		err = conn.SetWriteDeadline(time.Time{})
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	if hc.reg != nil && !hc.reg.add(hc) {
		conn.Close()
		return nil, errShuttingDown
	}
	if !deferWatch {
		go hc.watch()
	}
	return hc, nil
}

// appendResponseHead appends the status line and headers of a 200
// chunked response with header's fields. The response says
// "Connection: close": the connection is never handed back to net/http,
// so a client must not send another request on it once the stream ends.
func appendResponseHead(b []byte, header http.Header) []byte {
	if _, ok := header["Date"]; !ok {
		header["Date"] = []string{time.Now().UTC().Format(http.TimeFormat)}
	}
	for k, vs := range header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Transfer-Encoding", "Connection":
			// The framing is this function's, in whatever case a
			// handler set these in the map.
			delete(header, k)
			continue
		}
		for _, v := range vs {
			if !validHeaderValue(v) {
				delete(header, k) // as a client would reject the response
				break
			}
		}
	}
	b = append(b, "HTTP/1.1 200 OK\r\n"...)
	buf := headBuffer{b}
	_ = header.Write(&buf) // sorted, values cleaned of line breaks
	b = append(buf.b, "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n"...)
	return b
}

// validHeaderValue reports whether v may be written as a header value:
// no control characters but tab (line breaks become spaces when written).
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < ' ' && c != '\t' && c != '\r' && c != '\n' || c == 0x7f {
			return false
		}
	}
	return true
}

// headBuffer is an io.Writer appending to a byte slice.
type headBuffer struct{ b []byte }

func (hb *headBuffer) Write(p []byte) (int, error) {
	hb.b = append(hb.b, p...)
	return len(p), nil
}

// appendChunk appends data framed as one HTTP/1.1 chunk.
func appendChunk(b, data []byte) []byte {
	b = strconv.AppendInt(b, int64(len(data)), 16)
	b = append(b, '\r', '\n')
	b = append(b, data...)
	return append(b, '\r', '\n')
}

// chunkPool holds the buffers events are framed in: an idle stream holds
// none.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// maxPooledChunk bounds the buffers kept in chunkPool.
const maxPooledChunk = 64 << 10

// lastChunk ends a chunked body (no trailers).
const lastChunk = "0\r\n\r\n"

// write sends data as one chunk, in order after those before it. It never
// blocks on the client: what the socket does not take at once waits for
// the writer goroutine. It fails when the connection is closed or ending.
func (hc *hijackedConn) write(data []byte) error {
	hc.mu.Lock()
	if hc.closed || hc.ending {
		hc.mu.Unlock()
		return errDetached
	}
	bp := chunkPool.Get().(*[]byte)
	*bp = appendChunk((*bp)[:0], data)
	err := hc.sendLocked(*bp)
	hc.mu.Unlock()
	if cap(*bp) <= maxPooledChunk {
		chunkPool.Put(bp)
	}
	if err != nil {
		hc.fail(err)
	}
	return err
}

// sendLocked writes b at once if nothing waits before it and the socket
// takes it, and queues what is left for the writer goroutine, at most
// maxQueuedEvents chunks. b is not retained.
func (hc *hijackedConn) sendLocked(b []byte) error { return hc.writeOrQueueLocked(b, true) }

// sendTailLocked is sendLocked for the last bytes of the stream: they may
// exceed the queue bound.
func (hc *hijackedConn) sendTailLocked(b []byte) error { return hc.writeOrQueueLocked(b, false) }

func (hc *hijackedConn) writeOrQueueLocked(b []byte, bounded bool) error {
	if !hc.writing {
		n, err := hc.tryWrite(b)
		if err != nil {
			return err
		}
		if b = b[n:]; len(b) == 0 {
			return nil
		}
	}
	if bounded && len(hc.pending) >= maxQueuedEvents {
		return errStreamTooSlow
	}
	hc.pending = append(hc.pending, append([]byte(nil), b...))
	if !hc.writing {
		hc.writing = true
		go hc.writeLoop()
	}
	return nil
}

// writeLoop writes the queued chunks until none is left, each write
// within the timeout, and closes the connection if the stream is ending.
func (hc *hijackedConn) writeLoop() {
	for {
		hc.mu.Lock()
		if len(hc.pending) == 0 || hc.closed {
			hc.writing = false
			ending := hc.ending
			hc.mu.Unlock()
			if ending {
				hc.close()
			}
			return
		}
		batch := hc.pending
		hc.pending = nil
		hc.mu.Unlock()
		if hc.timeout > 0 {
			_ = hc.conn.SetWriteDeadline(time.Now().Add(hc.timeout)) // fails only on a closed connection, as the write below then does
		}
		if _, err := batch.WriteTo(hc.conn); err != nil {
			hc.fail(err)
			hc.mu.Lock()
			hc.writing = false
			hc.mu.Unlock()
			return
		}
	}
}

// end ends the stream from the server's side: final (if any) and the last
// chunk are written after what is queued, then the connection is closed.
// It does not wait for a slow client; the writer's timeout bounds it.
func (hc *hijackedConn) end(final []byte) {
	hc.mu.Lock()
	if hc.closed || hc.ending {
		hc.mu.Unlock()
		return
	}
	hc.ending = true
	var b []byte
	if final != nil {
		b = appendChunk(b, final)
	}
	b = append(b, lastChunk...)
	err := hc.sendTailLocked(b)
	idle := !hc.writing
	hc.mu.Unlock()
	if err != nil || idle {
		hc.close()
	}
}

// fail closes the connection after a failed write or a client that went
// wrong, logging why.
func (hc *hijackedConn) fail(err error) {
	level := slog.LevelDebug
	if errors.Is(err, errStreamTooSlow) || errors.Is(err, errPipelined) || errors.Is(err, os.ErrDeadlineExceeded) {
		level = slog.LevelInfo // a client that misbehaves or stopped reading
	}
	hc.logger.Log(context.Background(), level, "mcp: dropping an HTTP client: its event stream failed", "error", err)
	hc.close()
}

// close closes the connection at once; what is queued is dropped.
func (hc *hijackedConn) close() {
	hc.mu.Lock()
	if hc.closed {
		hc.mu.Unlock()
		return
	}
	hc.closed = true
	hc.pending = nil
	hc.mu.Unlock()
	hc.conn.Close()
	if hc.reg != nil {
		hc.reg.remove(hc)
	}
}

// watch waits for the client to close the connection or send bytes, and
// for the server to close it, then closes it and runs onClose. Its buffer
// is one byte: an idle stream holds a blocked goroutine, not a buffer.
func (hc *hijackedConn) watch() {
	hc.waitClient()
}

// waitClient is watch that interrupt ends early: it reports false,
// leaving the connection open, when interrupted.
func (hc *hijackedConn) waitClient() bool {
	n, err := hc.conn.Read(hc.rbuf[:])
	if n == 0 && hc.interrupted.Load() && errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	if n > 0 {
		hc.fail(errPipelined)
	} else {
		hc.close()
	}
	if hc.onClose != nil {
		hc.onClose(hc)
	}
	return true
}

// interrupt makes waitClient return.
func (hc *hijackedConn) interrupt() {
	hc.interrupted.Store(true)
	_ = hc.conn.SetReadDeadline(time.Now()) // fails only on a closed connection, whose read returns anyway
}

// hijackedConns holds a handler's hijacked connections, which net/http's
// Shutdown does not know of: Close and Shutdown close them.
type hijackedConns struct {
	mu     sync.Mutex
	set    map[*hijackedConn]struct{}
	closed bool
}

func (c *hijackedConns) add(hc *hijackedConn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	if c.set == nil {
		c.set = map[*hijackedConn]struct{}{}
	}
	c.set[hc] = struct{}{}
	return true
}

func (c *hijackedConns) remove(hc *hijackedConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.set, hc)
}

// closeAll closes every connection and refuses new ones.
func (c *hijackedConns) closeAll() {
	c.mu.Lock()
	c.closed = true
	conns := make([]*hijackedConn, 0, len(c.set))
	for hc := range c.set {
		conns = append(conns, hc)
	}
	c.mu.Unlock()
	for _, hc := range conns {
		hc.close()
	}
}
