package jsonrpc2

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// A Stream carries whole JSON-RPC messages in both directions. Read is
// called from one goroutine at a time; Write may be called concurrently.
// Close unblocks a pending Read, which then returns an error.
type Stream interface {
	Read(ctx context.Context) (Message, error)
	Write(ctx context.Context, msg Message) error
	Close() error
}

// DefaultMaxMessageSize is the largest message a newline-delimited stream
// reads unless told otherwise.
const DefaultMaxMessageSize = 4 << 20

// StreamOptions configure a newline-delimited stream. The zero value (and
// nil) means defaults.
type StreamOptions struct {
	// MaxMessageSize bounds one message in bytes (default
	// DefaultMaxMessageSize). Read returns a *DecodeError wrapping
	// ErrMessageTooLarge for a longer line once it has read that much of
	// it, and discards the rest; the stream stays usable.
	MaxMessageSize int
}

// NewLineStream returns a Stream that reads newline-delimited JSON messages
// from r and writes them to w, one message per line, as MCP's stdio
// transport requires. Close closes c, if not nil.
func NewLineStream(r io.Reader, w io.Writer, c io.Closer, opts *StreamOptions) Stream {
	max := DefaultMaxMessageSize
	if opts != nil && opts.MaxMessageSize > 0 {
		max = opts.MaxMessageSize
	}
	return &lineStream{r: bufio.NewReaderSize(r, 64<<10), w: w, c: c, max: max}
}

type lineStream struct {
	r   *bufio.Reader
	max int
	buf []byte // accumulates a line longer than the bufio buffer
	// skipping: the line read last was over the limit and its rest has
	// not been read yet; the next Read discards it first.
	skipping bool

	wmu  sync.Mutex
	w    io.Writer
	wbuf []byte

	c         io.Closer
	closeOnce sync.Once
	closeErr  error
}

// Read returns the next message. A line over the limit is reported with a
// *DecodeError wrapping ErrMessageTooLarge that says, from its first bytes
// up to the limit, whether it is a response and its id (unreadable.go); the
// rest is discarded as it is read, never kept. A response is reported as
// soon as the limit is reached, and the next Read discards its rest: a
// peer's 512 MiB response costs the limit in memory, and the call it
// answers fails without waiting for the rest. Anything else is reported once
// read to its end, because the connection answers it, and a peer that
// writes a whole line before reading expects the answer after it.
func (s *lineStream) Read(ctx context.Context) (Message, error) {
	for {
		line, err := s.readLine()
		if errors.Is(err, ErrMessageTooLarge) {
			derr := &DecodeError{Err: err}
			markResponse(line, derr)
			s.buf = nil // the prefix is not kept
			if !derr.Response && s.skipping {
				s.skipping = false
				if err := s.discardLine(); err != nil && err != io.EOF {
					return nil, err
				}
			}
			return nil, derr
		}
		if len(line) == 0 {
			if err != nil {
				return nil, err
			}
			continue // blank line
		}
		// A line longer than the read buffer was gathered in s.buf: the
		// message may keep it, as long messages are not copied again.
		owned := len(s.buf) > 0
		msg, derr := decode(line, owned)
		if owned {
			s.buf = nil
		}
		if derr != nil {
			return nil, derr
		}
		return msg, nil
	}
}

// readLine returns the next line without its terminator. A line over the
// limit is reported with ErrMessageTooLarge and its first max bytes; the
// rest is left for the next call to discard.
func (s *lineStream) readLine() ([]byte, error) {
	if s.skipping {
		s.skipping = false
		if err := s.discardLine(); err != nil {
			return nil, err
		}
	}
	s.buf = s.buf[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(s.buf)+len(chunk) > s.max+2 { // +2: "\r\n"
			// What lies past the limit is never looked at, even when it
			// was read with the rest of the buffer.
			s.buf = append(s.buf, chunk[:max(0, min(len(chunk), s.max-len(s.buf)))]...)
			s.skipping = err == bufio.ErrBufferFull
			return s.buf, fmt.Errorf("%w: line longer than %d bytes", ErrMessageTooLarge, s.max)
		}
		if err == bufio.ErrBufferFull {
			s.buf = append(s.buf, chunk...)
			continue
		}
		var line []byte
		if len(s.buf) > 0 {
			s.buf = append(s.buf, chunk...)
			line = s.buf
		} else {
			line = chunk
		}
		line = bytes.TrimRight(line, "\r\n")
		line = bytes.TrimSpace(line)
		if err != nil && len(line) > 0 && err == io.EOF {
			err = nil // last line without a newline; EOF comes next call
		}
		return line, err
	}
}

// discardLine reads up to the end of the current line, keeping nothing.
func (s *lineStream) discardLine() error {
	for {
		_, err := s.r.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

func (s *lineStream) Write(ctx context.Context, msg Message) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	b, err := AppendMessage(s.wbuf[:0], msg)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if cap(b) <= 64<<10 {
		s.wbuf = b
	}
	_, err = s.w.Write(b)
	return err
}

func (s *lineStream) Close() error {
	s.closeOnce.Do(func() {
		if s.c != nil {
			s.closeErr = s.c.Close()
		}
	})
	return s.closeErr
}
