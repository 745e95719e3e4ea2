package jsonrpc2

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// Unreadable responses: a message that cannot be decoded (over the size
// limit, nested too deep, malformed, or well-formed JSON that breaks a
// rule of JSON-RPC) but that is recognisably a response ends the outgoing
// call it answers at once, with an error wrapping ErrUnreadableResponse,
// instead of leaving the caller to wait for a response that will never
// be read. The rule:
//
//   - A message is a response when the members of its top-level object
//     that can be read include "result" or "error" and not "method"
//     (scanShape). Anything else (a request, a notification, a line that is
//     not an object at all, such as a banner a server prints to stdout) is
//     answered as a bad request, as before, and fails no call.
//   - A response whose "id" can be read fails the call with that id, if
//     one is pending; the connection goes on.
//   - A response whose "id" cannot be read (the id comes after the point
//     where the message was cut off at the size limit, or is malformed)
//     may answer any pending call, so it fails every call pending on the
//     connection at that moment. The connection goes on: later calls work,
//     and late responses to the failed calls are dropped.
//
// No response is written for an unreadable response: JSON-RPC answers
// requests, never responses.

// markResponse records in err, a *DecodeError for data, whether data
// looked like a response and, if so, the id it carried.
func markResponse(data []byte, err error) {
	var derr *DecodeError
	if !errors.As(err, &derr) {
		return
	}
	id, response := scanShape(data)
	if !response {
		return
	}
	derr.Response = true
	if !derr.ID.IsValid() {
		derr.ID = id
	}
}

// failUnreadable ends the outgoing calls an unreadable response may
// answer: the one with its id, or every pending call when its id is
// unknown.
func (c *Conn) failUnreadable(derr *DecodeError) {
	var err error
	var calls []pendingCall
	c.mu.Lock()
	if derr.ID.IsValid() {
		if ch, ok := c.pending.take(derr.ID); ok {
			calls = []pendingCall{{derr.ID, ch}}
		}
		err = fmt.Errorf("%w (id %s): %w", ErrUnreadableResponse, derr.ID, derr)
	} else {
		calls = c.pending.drain()
		err = fmt.Errorf("%w (id unknown: every pending call fails): %w", ErrUnreadableResponse, derr)
	}
	c.mu.Unlock()
	for _, call := range calls {
		call.ch <- &Response{ID: call.id, failure: err}
	}
}

// scanShape reads the members of the top-level object in data as far as
// they can be read, without decoding their values or bounding how deeply
// they nest, so that it works on a message cut off at the size limit, one
// nested too deep to decode, or one malformed past its first members. It
// reports whether data looks like a response (a "result" or "error" member
// and no "method" member), and the id member when it was read whole as a
// string or an integer, once. It never fails: what it cannot read, it
// stops at.
func scanShape(data []byte) (id ID, response bool) {
	var method, result bool
	var idRaw []byte
	ids := 0
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return ID{}, false
	}
	i++
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			break
		}
		end, ok := skipString(data, i)
		if !ok {
			break
		}
		name := memberName(data[i:end])
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			break
		}
		i = skipSpace(data, i+1)
		switch name {
		case "method":
			method = true
		case "result", "error":
			result = true
		}
		start := i
		i, ok = skipValue(data, i)
		if name == "id" {
			ids++
			if ok {
				idRaw = data[start:i]
			}
		}
		if !ok {
			break
		}
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ',' {
			break
		}
		i++
	}
	if !result || method {
		return ID{}, false
	}
	if ids == 1 && idRaw != nil {
		if parsed, err := parseID(idRaw); err == nil {
			id = parsed
		}
	}
	return id, true
}

// memberName returns the name a quoted member name spells: its bytes
// between the quotes, unescaped when it has escapes ("" when they are
// invalid).
func memberName(quoted []byte) string {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	name, err := jsontext.AppendUnquote(nil, quoted)
	if err != nil {
		return ""
	}
	return string(name)
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string that starts with the
// quote at data[i], and false when data ends inside it.
func skipString(data []byte, i int) (int, bool) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(data), false
}

// skipValue returns the index just past the value that starts at data[i]:
// a string, an object or array (whose brackets it counts, however deep,
// without checking they match), or a scalar running to the next delimiter.
// It reports false when data ends inside the value, or when there is no
// value at i.
func skipValue(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return i, false
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				end, ok := skipString(data, i)
				if !ok {
					return end, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	start := i
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n', ':', '"', '{', '[':
			return i, i > start
		}
		i++
	}
	// A scalar that reaches the end of data may have been cut off.
	return i, false
}
