package mcp

import (
	"errors"
	"fmt"
	"io"
)

// ErrResponseTooLarge reports a JSON response body over the client's
// limit (StreamableClientTransportOptions.MaxEventSize). The client stops
// reading at the limit, so it never holds more than that of a response.
var ErrResponseTooLarge = errors.New("mcp: response too large")

// largeBody is the size above which a JSON response announces its length
// (Content-Length), so that its client reads it into one buffer of that
// size: net/http announces the length of a body up to its chunking
// buffer, 2 KiB, itself, and chunks a longer one.
const largeBody = 2 << 10

// The pieces readLimited reads a body of unknown length in: they start
// small, so that a short body costs little, and grow to maxBodyChunk.
const (
	firstBodyChunk = 4 << 10
	maxBodyChunk   = 1 << 20
)

// readLimited reads r to its end and returns its bytes in one buffer of
// their exact length. size is the length the sender announced, or -1.
// It fails with ErrResponseTooLarge, having read at most limit+1 bytes,
// when there are more than limit.
//
// A body of known length is read into one allocation. One of unknown
// length (chunked) is read in pieces of growing size, then copied once
// into its buffer: about twice its size allocated in all, where growing
// one buffer by appending would allocate several times it.
func readLimited(r io.Reader, size int64, limit int) ([]byte, error) {
	if size > int64(limit) {
		return nil, fmt.Errorf("%w: %d bytes announced, the limit is %d", ErrResponseTooLarge, size, limit)
	}
	if size >= 0 {
		b := make([]byte, size)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	var pieces [][]byte
	total, n := 0, firstBodyChunk
	for {
		p := make([]byte, min(n, limit+1-total))
		k, err := io.ReadFull(r, p)
		total += k
		if k > 0 {
			pieces = append(pieces, p[:k])
		}
		if total > limit {
			return nil, fmt.Errorf("%w: over %d bytes", ErrResponseTooLarge, limit)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		n = min(2*n, maxBodyChunk)
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	b := make([]byte, 0, total)
	for _, p := range pieces {
		b = append(b, p...)
	}
	return b, nil
}
