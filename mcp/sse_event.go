package mcp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Server-Sent Events (https://html.spec.whatwg.org/multipage/server-sent-events.html),
// as both HTTP transports use them: writing events on the server, parsing
// the stream on the client.

// DefaultMaxSSEEventSize bounds one SSE event a client reads (16 MiB).
const DefaultMaxSSEEventSize = 16 << 20

// ErrSSEEventTooLarge reports an SSE event, or a line of one, over the
// size limit.
var ErrSSEEventTooLarge = errors.New("mcp: SSE event too large")

// An sseEvent is one dispatched event of an SSE stream.
type sseEvent struct {
	// Name is the event type ("message" when the stream does not name it).
	Name string
	// ID is the event's id field, when HasID.
	ID    string
	HasID bool
	// Data is the event's data, lines joined with "\n".
	Data []byte
	// Retry is the reconnection time the stream asked for with this event,
	// or a negative duration.
	Retry time.Duration
}

// appendSSEEvent appends an event to dst. name and id are omitted when
// empty. data is split into one data line per line it holds; JSON text
// stays equivalent, since newlines in it are whitespace.
func appendSSEEvent(dst []byte, name, id string, data []byte) []byte {
	if name != "" {
		dst = append(dst, "event: "...)
		dst = append(dst, name...)
		dst = append(dst, '\n')
	}
	if id != "" {
		dst = append(dst, "id: "...)
		dst = append(dst, id...)
		dst = append(dst, '\n')
	}
	for {
		i := bytes.IndexAny(data, "\r\n")
		dst = append(dst, "data: "...)
		if i < 0 {
			dst = append(dst, data...)
			break
		}
		dst = append(dst, data[:i]...)
		dst = append(dst, '\n')
		data = data[i+1:]
	}
	return append(dst, '\n', '\n')
}

// appendSSERetry appends a retry field in its own block.
func appendSSERetry(dst []byte, retry time.Duration) []byte {
	dst = append(dst, "retry: "...)
	dst = strconv.AppendInt(dst, retry.Milliseconds(), 10)
	return append(dst, '\n', '\n')
}

// An sseReader parses an SSE stream. It is not safe for concurrent use.
type sseReader struct {
	br      *bufio.Reader
	max     int
	line    []byte
	skipLF  bool // the previous line ended with '\r': ignore a '\n' next
	started bool // past the optional byte order mark
}

// newSSEReader returns a reader of the SSE stream r whose events are at most
// max bytes (DefaultMaxSSEEventSize when max <= 0).
func newSSEReader(r io.Reader, max int) *sseReader {
	if max <= 0 {
		max = DefaultMaxSSEEventSize
	}
	return &sseReader{br: bufio.NewReaderSize(r, 4<<10), max: max} // lines longer than the buffer accumulate in line
}

// Next returns the next event. Comments are skipped. A block with an id or
// a retry field but no data is returned with empty Data, so callers can
// track the last event id and the reconnection delay; other blocks without
// data are skipped. At the end of the stream it returns io.EOF; an event
// cut off by the end is dropped, as the standard requires.
func (r *sseReader) Next() (sseEvent, error) {
	ev := sseEvent{Retry: -1}
	var data []byte
	hasData := false
	size := 0
	for {
		line, err := r.readLine()
		if err != nil {
			return sseEvent{}, err
		}
		size += len(line)
		if size > r.max {
			return sseEvent{}, fmt.Errorf("%w: over %d bytes", ErrSSEEventTooLarge, r.max)
		}
		if len(line) == 0 {
			if hasData || ev.HasID || ev.Retry >= 0 {
				if ev.Name == "" {
					ev.Name = "message"
				}
				if len(data) > 0 {
					data = data[:len(data)-1] // the last line's "\n"
				}
				ev.Data = data
				return ev, nil
			}
			ev.Name = "" // a block with no data is not dispatched
			continue
		}
		if line[0] == ':' {
			continue // comment
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "event":
			ev.Name = string(value)
		case "data":
			hasData = true
			data = append(data, value...)
			data = append(data, '\n')
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.ID, ev.HasID = string(value), true
			}
		case "retry":
			if ms, ok := parseRetry(value); ok {
				ev.Retry = ms
			}
		}
	}
}

// parseRetry parses a retry value: ASCII digits only, in milliseconds.
func parseRetry(v []byte) (time.Duration, bool) {
	if len(v) == 0 || len(v) > 10 {
		return 0, false
	}
	var ms int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		ms = ms*10 + int64(c-'0')
	}
	return time.Duration(ms) * time.Millisecond, true
}

// readLine returns the next line without its terminator (CRLF, LF or CR).
// The slice is valid until the next call.
func (r *sseReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		buf, err := r.peek()
		if len(buf) == 0 {
			if err == nil {
				err = io.EOF
			}
			if len(r.line) > 0 && err == io.EOF {
				return r.line, io.EOF
			}
			return nil, err
		}
		if r.skipLF {
			r.skipLF = false
			if buf[0] == '\n' {
				_, _ = r.br.Discard(1) // bytes already peeked: cannot fail
				continue
			}
		}
		if !r.started {
			r.started = true
			if bytes.HasPrefix(buf, []byte("\xEF\xBB\xBF")) {
				_, _ = r.br.Discard(3) // bytes already peeked: cannot fail
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			r.line = append(r.line, buf...)
			_, _ = r.br.Discard(len(buf)) // bytes already peeked: cannot fail
			if len(r.line) > r.max {
				return nil, fmt.Errorf("%w: line over %d bytes", ErrSSEEventTooLarge, r.max)
			}
			continue
		}
		r.line = append(r.line, buf[:i]...)
		r.skipLF = buf[i] == '\r'
		_, _ = r.br.Discard(i + 1) // bytes already peeked: cannot fail
		if len(r.line) > r.max {
			return nil, fmt.Errorf("%w: line over %d bytes", ErrSSEEventTooLarge, r.max)
		}
		return r.line, nil
	}
}

// peek returns the buffered bytes, reading more when none are buffered.
func (r *sseReader) peek() ([]byte, error) {
	if n := r.br.Buffered(); n > 0 {
		return r.br.Peek(n)
	}
	if _, err := r.br.Peek(1); err != nil {
		return nil, err
	}
	return r.br.Peek(r.br.Buffered())
}
